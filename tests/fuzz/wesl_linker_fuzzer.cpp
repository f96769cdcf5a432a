// The WESL linker on any bytes: the input is split at "\n#module\n" into a root module and up to
// three modules it may import (package::a, package::b, package::c::d), linked with two features
// set (A true, B false). Whatever comes in, the link must end with WGSL or with diagnostics, never
// both and never neither; every diagnostic must carry one of the linker's or the reader's ids and
// a place inside its file; and every line of linked WGSL must lead back through the source map
// to a place inside the file it came from.
#include <cstdint>
#include <map>
#include <string>

#include "fuzz/fuzz_support.h"
#include "warden/shaders/diagnostic.h"
#include "warden/shaders/wesl.h"

namespace warden::fuzz {
namespace {

constexpr std::string_view kSeparator = "\n#module\n";
constexpr const char* kPaths[] = {"f/main.wesl", "f/a.wesl", "f/b.wesl", "f/c/d.wesl"};

uint32_t lines_of(std::string_view text) {
  uint32_t lines = 1;
  for (size_t i = 0; i < text.size();) {
    const size_t length = shaders::line_break_length(text, i);
    i += length == 0 ? 1 : length;
    if (length != 0) ++lines;
  }
  return lines;
}

bool linker_id(MessageId id) {
  return id == MessageId::WeslSyntaxError || id == MessageId::WeslUnknownImport || id == MessageId::WeslUnknownFeature ||
         id == MessageId::WeslNameConflict || id == MessageId::WeslDeclarationCycle || id == MessageId::WeslNotAnItem;
}

void check_link(std::string_view input) {
  std::map<std::string, std::string> files;
  for (const char* path : kPaths) {
    const size_t end = input.find(kSeparator);
    files[path] = std::string(input.substr(0, end));
    if (end == std::string_view::npos) break;
    input.remove_prefix(end + kSeparator.size());
  }
  shaders::WeslOptions options;
  options.features = {{"A", true}, {"B", false}};
  options.read_file = [&files](const std::filesystem::path& path) -> Result<shaders::SourceText> {
    auto found = files.find(path.generic_string());
    if (found == files.end()) return make_error(ErrorKind::NotFound, MessageId::SourceFileNotFound, path.string());
    return shaders::SourceText{found->second, false};
  };
  const shaders::LinkedShader linked = shaders::link_wesl_text(kPaths[0], files[kPaths[0]], options);
  require(linked.ok() != linked.wgsl.empty(), "a link gave WGSL and errors, or neither");
  for (const shaders::ShaderDiagnostic& d : linked.diagnostics) {
    require(linker_id(d.id), "a linker diagnostic without a linker id: " + d.message);
    auto file = files.find(d.path);
    require(file != files.end(), "a diagnostic names a file of no module: " + d.path);
    require(d.line >= 1 && d.line <= lines_of(file->second), "a diagnostic's line is outside its file");
    (void)shaders::format_diagnostic(d, file->second);
  }
  if (!linked.ok()) return;
  const uint32_t linked_lines = lines_of(linked.wgsl);
  for (uint32_t line = 1; line <= linked_lines; ++line) {
    const std::optional<shaders::SourcePlace> place = linked.source_map.locate(line, 1);
    if (!place) continue;
    auto file = files.find(place->path);
    require(file != files.end(), "the source map leads to a file of no module: " + place->path);
    require(place->line >= 1 && place->line <= lines_of(file->second), "the source map leads outside its file");
  }
}

}  // namespace
}  // namespace warden::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  warden::fuzz::check_link(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
