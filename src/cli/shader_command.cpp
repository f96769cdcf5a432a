// `warden shader check [--format text|json] FILE...`: compiles each file on the Null backend
// (validation only: no GPU needed) and prints every diagnostic the compiler reported.
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/gpu_setup.h"
#include "warden/shaders/shader_compiler.h"
#include "warden/shaders/source_file.h"

namespace warden::cli {
namespace {

struct CheckedFile {
  std::string path;
  std::string source;
  std::vector<shaders::ShaderDiagnostic> diagnostics;
  std::string io_error;  // set when the file could not be read or is not UTF-8
};

nlohmann::ordered_json to_json(const std::vector<CheckedFile>& files) {
  nlohmann::ordered_json out_files = nlohmann::ordered_json::array();
  for (const CheckedFile& file : files) {
    nlohmann::ordered_json diagnostics = nlohmann::ordered_json::array();
    for (const auto& d : file.diagnostics) {
      diagnostics.push_back({{"severity", shaders::to_string(d.severity)},
                             {"line", d.line},
                             {"column", d.column},
                             {"message", d.message}});
    }
    nlohmann::ordered_json entry = {{"path", file.path}, {"diagnostics", diagnostics}};
    if (!file.io_error.empty()) entry["error"] = file.io_error;
    out_files.push_back(std::move(entry));
  }
  return {{"files", out_files}};
}

int run_check(const std::vector<std::string>& paths, const std::string& format) {
  int exit_code = kExitOk;
  auto opened = open_gpu("null", exit_code);
  if (!opened) return exit_code;
  auto device = opened->context->request_device(opened->adapter.adapter.get(), {"warden shader check", {}});
  if (!device) {
    fmt::print(stderr, "warden: {}\n", device.error().message);
    return kExitFailure;
  }
  shaders::ShaderCompiler compiler(*opened->context, device->get());

  std::vector<CheckedFile> files;
  bool io_failed = false;
  bool any_error = false;
  for (const std::string& path : paths) {
    CheckedFile file{path, {}, {}, {}};
    auto source = shaders::read_source_file(path);
    if (!source) {
      file.io_error = source.error().message;
      fmt::print(stderr, "warden: {}\n", file.io_error);
      io_failed = true;
      files.push_back(std::move(file));
      continue;
    }
    file.source = std::move(source.value());
    auto compiled = compiler.compile(path, file.source);
    if (!compiled) {
      file.io_error = compiled.error().message;
      fmt::print(stderr, "warden: {}\n", file.io_error);
      io_failed = true;
    } else {
      file.diagnostics = std::move(compiled->diagnostics);
      any_error = any_error || shaders::has_error(file.diagnostics);
    }
    files.push_back(std::move(file));
  }

  if (format == "json") {
    fmt::print("{}\n", to_json(files).dump());
  } else {
    for (const CheckedFile& file : files) {
      for (const auto& d : file.diagnostics) fmt::print("{}", shaders::format_diagnostic(d, file.source));
    }
  }
  // Release the device before its context, and deliver its final callback.
  device->reset();
  opened->context->process_events();
  if (io_failed) return kExitUsage;
  return any_error ? kExitFailure : kExitOk;
}

}  // namespace

void add_shader_command(CLI::App& app, int& exit_code) {
  auto* shader = app.add_subcommand("shader", "Work with WGSL shader files");
  shader->require_subcommand(1);
  auto* check = shader->add_subcommand(
      "check", "Compile WGSL files (Null backend, no GPU) and print their diagnostics as path:line:col");
  auto files = std::make_shared<std::vector<std::string>>();
  auto format = std::make_shared<std::string>("text");
  check->add_option("--format", *format, "text (path:line:col: error: message, source line, caret) or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  check->add_option("files", *files, "WGSL files to check")->required();
  check->callback([&exit_code, files, format] { exit_code = run_check(*files, *format); });
}

}  // namespace warden::cli
