#include "warden/shaders/shader_file.h"

#include "warden/shaders/source_file.h"

namespace warden::shaders {
namespace {

bool is_wesl(const std::filesystem::path& path, std::string_view text) {
  return path.extension() == ".wesl" || uses_wesl(text);
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
  auto source = read_source_file(path);
  if (!source) return source.error();
  if (!is_wesl(path, *source)) return std::move(source.value());
  LinkedShader linked = link_wesl_text(path, *source, wesl);
  if (!linked.ok()) {
    CompiledFile failed;
    failed.shader.diagnostics = linked.diagnostics;
    failed.source_map = linked.source_map;
    return make_error(ErrorKind::Compilation, MessageId::ShaderCompileFailed, failed.format_diagnostics());
  }
  return std::move(linked.wgsl);
}

Result<CompiledFile> compile_shader_file(const ShaderCompiler& compiler, const std::filesystem::path& path,
                                         const WeslOptions& wesl) {
  auto source = read_source_file(path);
  if (!source) return source.error();
  CompiledFile out;
  if (!is_wesl(path, *source)) {
    out.files.push_back(path);
    out.wgsl = std::move(source.value());
    auto compiled = compiler.compile(path.string(), out.wgsl);
    if (!compiled) return compiled.error();
    out.shader = std::move(compiled.value());
    return out;
  }
  LinkedShader linked = link_wesl_text(path, *source, wesl);
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
