// `warden shader check [--format text|json] [--feature NAME]... [--max-bytes N] [--root DIR]
// [--package NAME=DIR]... [--wesl-feature NAME[=BOOL]]... [--linked] FILE...`: compiles each
// file on the Null backend (validation only: no GPU needed) and prints every diagnostic the
// compiler reported, file by file as each is done (docs/shader-check.md). A WESL file is linked
// first and its diagnostics are given in the files the user wrote (docs/shader-modules.md).
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/gpu_setup.h"
#include "cli/messages.h"
#include "cli/output.h"
#include "warden/gpu/names.h"
#include "warden/shaders/shader_compiler.h"
#include "warden/shaders/shader_features.h"
#include "warden/shaders/source_file.h"
#include "warden/shaders/wesl.h"

namespace warden::cli {
namespace {

constexpr std::string_view kStandardInput = "-";
constexpr std::string_view kStandardInputName = "<stdin>";

struct CheckOptions {
  std::vector<std::string> files;
  std::string format = "text";
  std::vector<std::string> feature_names;  // as given; empty: every shader feature the adapter offers
  std::string max_bytes_text = std::to_string(shaders::kDefaultMaxSourceBytes);  // as given
  // Read from the two above once the command line is parsed.
  std::optional<std::vector<shaders::ShaderFeature>> features;  // nullopt: every one offered
  uint64_t max_bytes = shaders::kDefaultMaxSourceBytes;
  // WESL: the package root, packages and feature values as given, then read into `wesl`.
  std::string package_root;
  std::vector<std::string> package_specs;
  std::vector<std::string> wesl_feature_specs;
  bool linked = false;  // print the linked WGSL
  shaders::WeslOptions wesl;
};

// One file's outcome: diagnostics, or the reason it could not be checked.
struct CheckedFile {
  std::string path;
  std::string source;
  std::vector<shaders::ShaderDiagnostic> diagnostics;
  std::string io_error;
  warden::MessageId io_error_id = MessageId::Application;
  std::optional<shaders::LinkedShader> linked{};  // a WESL file's link
  // The text a diagnostic's excerpt comes from: its own file's.
  std::string_view source_of(const shaders::ShaderDiagnostic& d) const {
    if (linked) {
      if (const auto* f = linked->source_map.file(d.path)) return f->text;
    }
    return source;
  }
};

// `text` as a JSON string can hold it. JSON text is UTF-8 and a file name need not be: in a text
// that is not UTF-8, each byte that is not part of a UTF-8 character is written \xHH and each
// backslash \\, so the bytes can be told back exactly (docs/shader-check.md). `escaped` says it was.
struct JsonText {
  std::string text;
  bool escaped = false;
};

JsonText json_text(std::string_view text) {
  if (!shaders::first_invalid_utf8(text)) return {std::string(text), false};
  JsonText json{{}, true};
  while (!text.empty()) {
    const std::optional<size_t> bad = shaders::first_invalid_utf8(text);
    for (char c : text.substr(0, bad.value_or(text.size()))) {
      if (c == '\\') json.text += c;  // doubled, so that a backslash of the name starts no escape
      json.text += c;
    }
    if (!bad) break;
    json.text += fmt::format("\\x{:02X}", static_cast<unsigned char>(text[*bad]));
    text.remove_prefix(*bad + 1);
  }
  return json;
}

// Prints each file as soon as it is checked, so a slow or interrupted run keeps what is done.
// JSON stays one object: its opening is written before the first file, its end after the last.
class Report {
 public:
  Report(bool json, bool linked) : json_(json), linked_(linked) {
    if (json_) write_out("{\"files\":[");
  }
  void add(const CheckedFile& file) {
    if (json_) {
      // Every name and error text is valid UTF-8 by now (json_text); the compiler's words are
      // too, as the source was. Should anything slip through, it is replaced (U+FFFD), never
      // thrown: a throw here would leave the object unterminated and the later files unchecked.
      write_out(fmt::format("{}{}", first_ ? "" : ",",
                            to_json(file).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
    } else if (linked_) {
      // The linked WGSL alone on standard output, so that it can be saved or piped as it is.
      if (file.linked && file.linked->ok()) write_out(file.linked->wgsl);
      for (const auto& d : file.diagnostics) print_err("{}", shaders::format_diagnostic(d, file.source_of(d)));
    } else {
      for (const auto& d : file.diagnostics) write_out(shaders::format_diagnostic(d, file.source_of(d)));
    }
    first_ = false;
    flush_out();
  }
  void finish() {
    if (json_) write_out("]}\n");
  }

 private:
  nlohmann::ordered_json to_json(const CheckedFile& file) const {
    nlohmann::ordered_json diagnostics = nlohmann::ordered_json::array();
    for (const auto& d : file.diagnostics) {
      nlohmann::ordered_json entry = {{"severity", to_string(d.severity)},
                                      {"id", describe_any(d.id).name},
                                      {"line", d.line},
                                      {"column", d.column},
                                      {"message", d.message}};
      if (file.linked) {
        // The file the place is in (an imported module's), and the place in the linked WGSL.
        entry["path"] = json_text(d.path).text;
        if (d.linked_line != 0) {
          entry["linked_line"] = d.linked_line;
          entry["linked_column"] = d.linked_column;
        }
        if (!d.notes.empty()) entry["notes"] = d.notes;
      }
      diagnostics.push_back(std::move(entry));
    }
    const JsonText path = json_text(file.path);
    nlohmann::ordered_json entry = {{"path", path.text}};
    if (path.escaped) entry["path_not_utf8"] = true;
    entry["diagnostics"] = std::move(diagnostics);
    if (linked_ && file.linked && file.linked->ok()) entry["linked"] = file.linked->wgsl;
    if (!file.io_error.empty()) {
      entry["error"] = json_text(file.io_error).text;
      entry["error_id"] = describe_any(file.io_error_id).name;
    }
    return entry;
  }
  bool json_;
  bool linked_;
  bool first_ = true;
};

// The features --feature names, read before anything runs: `--feature x.wgsl` (the name left
// out) takes the file for the name, and the unknown name is the mistake to report, not the
// missing files.
Result<std::vector<shaders::ShaderFeature>> read_feature_names(const std::vector<std::string>& names) {
  std::vector<shaders::ShaderFeature> features;
  for (const std::string& name : names) {
    if (name == "none") continue;
    auto feature = shaders::find_shader_feature(name);
    if (!feature) {
      std::string message = feature.error().message + " or none";
      std::error_code ec;
      if (std::filesystem::exists(name, ec)) {
        message += fmt::format(" ('{}' is a file: --feature takes a feature name, the files come after it)", name);
      }
      return make_error(ErrorKind::InvalidArgument, feature.error().id, std::move(message));
    }
    features.push_back(*feature);
  }
  return features;
}

// `--package NAME=FOLDER`, each one a package the WESL linker may import from.
Result<std::vector<shaders::WeslPackage>> read_packages(const std::vector<std::string>& specs) {
  std::vector<shaders::WeslPackage> packages;
  for (const std::string& spec : specs) {
    const size_t equals = spec.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == spec.size()) {
      return make_error(ErrorKind::InvalidArgument, MessageId::ShaderCheckPackageMalformed,
                        fmt::format("--package '{}': expected NAME=FOLDER (--package noise=shaders/noise)", spec));
    }
    packages.push_back({spec.substr(0, equals), spec.substr(equals + 1)});
  }
  return packages;
}

// `--wesl-feature NAME`, `NAME=true` or `NAME=false`: the values @if and @elif read.
Result<std::map<std::string, bool, std::less<>>> read_wesl_features(const std::vector<std::string>& specs) {
  std::map<std::string, bool, std::less<>> features;
  for (const std::string& spec : specs) {
    const size_t equals = spec.find('=');
    const std::string name = spec.substr(0, equals);
    const std::string value = equals == std::string::npos ? "true" : spec.substr(equals + 1);
    if (name.empty() || (value != "true" && value != "false")) {
      return make_error(ErrorKind::InvalidArgument, MessageId::ShaderCheckWeslFeatureMalformed,
                        fmt::format("--wesl-feature '{}': expected NAME, NAME=true or NAME=false", spec));
    }
    features[name] = value == "true";
  }
  return features;
}

// CLI11 words a bad number "Value 0 not in range 0.000000 to 1797693..." (all 309 digits of the
// largest double) and takes 2^64 and above without a word; the number is read here instead.
Result<uint64_t> read_max_bytes(const std::string& text) {
  uint64_t value = 0;
  const char* const end = text.data() + text.size();
  const auto [stop, failure] = std::from_chars(text.data(), end, value);
  if (failure != std::errc() || stop != end || value == 0) {
    return make_error(ErrorKind::InvalidArgument, MessageId::ShaderCheckMaxBytesInvalid,
                      fmt::format("--max-bytes '{}': expected a whole number of bytes from 1 to {}", text,
                                  std::numeric_limits<uint64_t>::max()));
  }
  return value;
}

// The device features to ask for: every shader feature the adapter offers, or the ones named.
Result<std::vector<WGPUFeatureName>> choose_features(const std::optional<std::vector<shaders::ShaderFeature>>& named,
                                                      const gpu::AdapterDescription& adapter) {
  const std::vector<WGPUFeatureName> offered = shaders::shader_features_among(adapter.features);
  if (!named) return offered;
  std::vector<WGPUFeatureName> chosen;
  for (const shaders::ShaderFeature& feature : *named) {
    if (std::find(offered.begin(), offered.end(), feature.value) == offered.end()) {
      return make_error(ErrorKind::InvalidArgument, MessageId::ShaderCheckFeatureNotOffered,
                        fmt::format("the adapter '{}' does not offer feature '{}'", adapter.device, feature.feature));
    }
    chosen.push_back(feature.value);
  }
  return chosen;
}

Result<shaders::SourceText> read_input(const std::string& path, uint64_t max_bytes) {
  if (path != kStandardInput) return shaders::read_source(path, max_bytes);
  // What reads as standard input now is the /dev/null that holds its place: an empty module,
  // which would pass for a valid shader the user never gave.
  if (standard_input_was_closed()) {
    return make_error(ErrorKind::Io, MessageId::ShaderCheckStandardInputClosed,
                      fmt::format("{}: standard input is closed (give a file, or a pipe or file as standard input)",
                                  kStandardInputName));
  }
  return shaders::read_source_stream(STDIN_FILENO, kStandardInputName, max_bytes);
}

std::string display_name(const std::string& path) {
  return path == kStandardInput ? std::string(kStandardInputName) : path;
}

// A WESL file (or any file, with --linked) is linked first; the compiler's places are then
// moved back to the files the user wrote.
void link_and_compile(const shaders::ShaderCompiler& compiler, const CheckOptions& options, CheckedFile& file) {
  shaders::WeslOptions wesl = options.wesl;
  if (wesl.package_root.empty()) {
    wesl.package_root = file.path == kStandardInputName ? std::filesystem::path(".")
                                                         : std::filesystem::path(file.path).parent_path();
  }
  file.linked = shaders::link_wesl_text(file.path, file.source, wesl);
  if (!file.linked->ok()) {
    file.diagnostics = file.linked->diagnostics;
    return;
  }
  auto compiled = compiler.compile(file.path, file.linked->wgsl);
  if (!compiled) {
    file.io_error = compiled.error().message;
    file.io_error_id = compiled.error().id;
    return;
  }
  file.diagnostics = shaders::map_to_sources(*file.linked, std::move(compiled->diagnostics));
}

CheckedFile check_file(const shaders::ShaderCompiler& compiler, const CheckOptions& options, const std::string& path) {
  const uint64_t max_bytes = options.max_bytes;
  CheckedFile file{display_name(path), {}, {}, {}};
  auto source = read_input(path, max_bytes);
  if (!source) {
    file.io_error = source.error().message;
    file.io_error_id = source.error().id;
    if (source.error().kind == ErrorKind::Refused) file.io_error += " (--max-bytes raises it)";
    return file;
  }
  file.source = std::move(source->text);
  if (options.linked || shaders::is_wesl_file(path, file.source)) {
    link_and_compile(compiler, options, file);
    if (!file.io_error.empty()) return file;
  } else {
    auto compiled = compiler.compile(file.path, file.source);
    if (!compiled) {
      file.io_error = compiled.error().message;
      file.io_error_id = compiled.error().id;
      return file;
    }
    file.diagnostics = std::move(compiled->diagnostics);
  }
  if (source->byte_order_mark_removed) {
    file.diagnostics.insert(file.diagnostics.begin(),
                            shaders::ShaderDiagnostic{Severity::Info, file.path, 0, 0,
                                                      "a UTF-8 byte order mark was removed before compiling",
                                                      MessageId::ShaderCheckByteOrderMarkRemoved});
  }
  return file;
}

// check_file, where running out of memory on one file (a huge shader under an address-space
// limit: the compiler's allocations throw through the device call) is that file's failure, like
// an unreadable one, and the later files are still checked. Whatever the file held is freed by
// then, so the next one starts with the memory it had.
CheckedFile check_file_within_memory(const shaders::ShaderCompiler& compiler, const CheckOptions& options,
                                     const std::string& path) {
  try {
    return check_file(compiler, options, path);
  } catch (const std::bad_alloc&) {
    CheckedFile file{display_name(path), {}, {}, {}};
    file.io_error = fmt::format("{}: out of memory checking this file (not checked)", file.path);
    file.io_error_id = MessageId::ShaderCheckOutOfMemory;
    return file;
  }
}

// The files in the order given. An argument that begins with '-' and is no option of this
// command is a file when such a file exists (`-x.wgsl`); otherwise it is a misspelt option.
Result<std::vector<std::string>> files_to_check(const std::vector<std::string>& arguments,
                                                const std::vector<std::string>& operands) {
  std::vector<std::string> files;
  for (const std::string& argument : arguments) {
    std::error_code ec;
    bool looks_like_option = argument.size() > 1 && argument[0] == '-';
    if (looks_like_option && !std::filesystem::exists(std::filesystem::symlink_status(argument, ec))) {
      return make_error(ErrorKind::InvalidArgument, MessageId::ShaderCheckUnknownOption,
                        fmt::format("unknown option '{}' for 'warden shader check' (and no file has that name; "
                                    "give file names that begin with '-' after '--')",
                                    argument));
    }
    files.push_back(argument);
  }
  files.insert(files.end(), operands.begin(), operands.end());
  if (files.empty()) {
    return make_error(ErrorKind::InvalidArgument, MessageId::ShaderCheckNoFiles,
                      "'warden shader check' needs at least one FILE");
  }
  // A second read of standard input finds it at its end, which would pass for an empty valid
  // shader.
  if (const auto reads = std::count(files.begin(), files.end(), kStandardInput); reads > 1) {
    return make_error(ErrorKind::InvalidArgument, MessageId::ShaderCheckStandardInputTwice,
                      fmt::format("'-' (standard input) is given {} times; it can be read only once", reads));
  }
  return files;
}

// The command line as run_check takes it: every value read and checked, or the first mistake.
Result<void> read_command_line(CheckOptions& options, const std::vector<std::string>& arguments,
                               const std::vector<std::string>& operands) {
  auto max_bytes = read_max_bytes(options.max_bytes_text);
  if (!max_bytes) return max_bytes.error();
  options.max_bytes = *max_bytes;
  if (!options.feature_names.empty()) {
    auto features = read_feature_names(options.feature_names);
    if (!features) return features.error();
    options.features = std::move(features.value());
  }
  auto packages = read_packages(options.package_specs);
  if (!packages) return packages.error();
  options.wesl.packages = std::move(packages.value());
  auto wesl_features = read_wesl_features(options.wesl_feature_specs);
  if (!wesl_features) return wesl_features.error();
  options.wesl.features = std::move(wesl_features.value());
  options.wesl.package_root = options.package_root;
  auto files = files_to_check(arguments, operands);
  if (!files) return files.error();
  options.files = std::move(files.value());
  return {};
}

int run_check(const CheckOptions& options) {
  int exit_code = kExitOk;
  auto opened = open_gpu("null", exit_code);
  if (!opened) return exit_code;
  auto features = choose_features(options.features, opened->adapter.description);
  if (!features) {
    print_err("warden: {}\n", features.error().message);
    return kExitUsage;
  }
  auto device = opened->context->request_device(opened->adapter.adapter.get(),
                                                {"warden shader check", {}, std::move(features.value())});
  if (!device) {
    print_err("warden: {}\n", device.error().message);
    return kExitFailure;
  }
  shaders::ShaderCompiler compiler(*opened->context, device->get());

  bool io_failed = false;
  bool any_error = false;
  Report report(options.format == "json", options.linked);
  for (const std::string& path : options.files) {
    CheckedFile file = check_file_within_memory(compiler, options, path);
    if (!file.io_error.empty()) {
      print_err("warden: {}\n", file.io_error);
      io_failed = true;
    }
    any_error = any_error || shaders::has_error(file.diagnostics);
    report.add(file);
    // Nobody reads the rest (a closed pipe, a full disk): main says so and exits 2.
    if (output_lost()) break;
  }
  report.finish();
  // Release the device before its context, and deliver its final callback.
  device->reset();
  opened->context->process_events();
  if (io_failed) return kExitUsage;
  return any_error ? kExitFailure : kExitOk;
}

}  // namespace

const CLI::App* add_shader_command(CLI::App& app, const std::vector<std::string>& operands, CommandRun& run) {
  auto* shader = app.add_subcommand("shader", "Work with WGSL shader files");
  auto* check = shader->add_subcommand(
      "check",
      "Compile WGSL files (Null backend, no GPU) and print their diagnostics as path:line:col.\n"
      "FILE... are the files to check, '-' for standard input; names after '--' are files whatever they look like.");
  auto options = std::make_shared<CheckOptions>();
  check->add_option("--format", options->format, "text (path:line:col: error: message, source line, caret) or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  std::string feature_names;
  for (const auto& f : shaders::kShaderFeatures) {
    feature_names += feature_names.empty() ? "" : ", ";
    feature_names += f.feature;
  }
  check->add_option("--feature", options->feature_names,
                    "Ask the device only for these shader features (repeat it; 'none' for none): " + feature_names +
                        ". Default: every one the adapter offers")
      ->allow_extra_args(false);  // one name per --feature: the files that follow stay files
  check->add_option("--max-bytes", options->max_bytes_text, "Refuse files larger than this many bytes (1 or more)")
      ->capture_default_str();
  check->add_option("--root", options->package_root,
                    "WESL: the folder package:: names (default: each file's own folder)");
  check->add_option("--package", options->package_specs,
                    "WESL: a package to import from, NAME=FOLDER (repeat it); its top module is FOLDER/lib.wesl")
      ->allow_extra_args(false);
  check->add_option("--wesl-feature", options->wesl_feature_specs,
                    "WESL: a feature's value for @if and @elif, NAME (true), NAME=true or NAME=false (repeat it)")
      ->allow_extra_args(false);
  check->add_flag("--linked", options->linked,
                  "Link each file as WESL and print the linked WGSL on standard output (diagnostics go to "
                  "standard error; with --format json, in the file's \"linked\")");
  // The files are what CLI11 leaves over, so that their order is kept and a file named like an
  // option can still be checked (files_to_check decides).
  check->allow_extras();
  check->callback([&run, check, options, &operands] {
    if (auto read = read_command_line(*options, check->remaining(), operands); !read) {
      run = [message = read.error().message] {
        print_err("warden: {} (see warden shader check --help)\n", message);
        return kExitUsage;
      };
      return;
    }
    run = [options] { return run_check(*options); };
  });
  return check;
}

}  // namespace warden::cli
