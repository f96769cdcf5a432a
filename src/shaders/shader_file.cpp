#include "warden/shaders/shader_file.h"

#include <optional>

#include "warden/shaders/source_file.h"

namespace warden::shaders {
namespace {

// A file's text, or, when it is WESL, its link (the root read here, its imports by the linker).
struct ReadFile {
  std::string text;                    // a plain WGSL file's
  std::optional<LinkedShader> linked;  // a WESL file's
};

Result<ReadFile> read_and_link(const std::filesystem::path& path, const WeslOptions& wesl) {
  auto source = read_source_file(path);
  if (!source) return source.error();
  if (!is_wesl_file(path, *source)) return ReadFile{std::move(source.value()), std::nullopt};
  return ReadFile{{}, link_wesl_text(path, *source, wesl)};
}

}  // namespace

std::string CompiledFile::format_diagnostics() const {
  std::string text;
  for (const ShaderDiagnostic& d : shader.diagnostics) {
    const WeslSourceMap::File* file = source_map ? source_map->file(d.path) : nullptr;
    text += format_diagnostic(d, file != nullptr ? std::string_view(file->text) : std::string_view(wgsl));
  }
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

Result<std::string> shader_file_wgsl(const std::filesystem::path& path, const WeslOptions& wesl) {
  auto read = read_and_link(path, wesl);
  if (!read) return read.error();
  if (!read->linked) return std::move(read->text);
  if (!read->linked->ok()) {
    CompiledFile failed;
    failed.shader.diagnostics = read->linked->diagnostics;
    failed.source_map = read->linked->source_map;
    return make_error(ErrorKind::Compilation, MessageId::ShaderCompileFailed, failed.format_diagnostics());
  }
  return std::move(read->linked->wgsl);
}

Result<CompiledFile> compile_shader_file(const ShaderCompiler& compiler, const std::filesystem::path& path,
                                         const WeslOptions& wesl) {
  auto read = read_and_link(path, wesl);
  if (!read) return read.error();
  CompiledFile out;
  if (!read->linked) {
    out.files.push_back(path);
    out.wgsl = std::move(read->text);
    auto compiled = compiler.compile(path.string(), out.wgsl);
    if (!compiled) return compiled.error();
    out.shader = std::move(compiled.value());
    return out;
  }
  LinkedShader& linked = *read->linked;
  out.files = linked.files;
  out.features_used = linked.features_used;
  out.source_map = linked.source_map;
  if (!linked.ok()) {
    out.shader.diagnostics = std::move(linked.diagnostics);
    return out;
  }
  auto compiled = compiler.compile(path.string(), linked.wgsl);
  if (!compiled) return compiled.error();
  out.shader.module = std::move(compiled->module);
  out.shader.diagnostics = map_to_sources(linked, std::move(compiled->diagnostics));
  out.wgsl = std::move(linked.wgsl);
  return out;
}

}  // namespace warden::shaders
