#include "warden/shaders/shader_manager.h"

#include <fmt/format.h>

#include "warden/shaders/source_file.h"

namespace warden::shaders {

ShaderManager::ShaderManager(const gpu::Context& context, resources::Registry& registry, CompilerOptions options)
    : context_(&context), options_(options), registry_(&registry) {}

void ShaderManager::record(const std::vector<ShaderDiagnostic>& diagnostics) {
  last_diagnostics_ = diagnostics;
  for (const ShaderDiagnostic& d : diagnostics) {
    registry_->diagnostics().report(d.severity, d.id,
                                    fmt::format("{}:{}:{}: {}", d.path, d.line, d.column, d.message));
  }
}

Result<ShaderModuleHandle> ShaderManager::compile(std::string path, std::string_view source) {
  return compile_and_register(std::move(path), source, {});
}

Result<ShaderModuleHandle> ShaderManager::compile_and_register(std::string path, std::string_view source,
                                                               std::string file) {
  auto compiled = compiler().compile(path, source);
  if (!compiled) {
    last_diagnostics_.clear();
    registry_->diagnostics().error(compiled.error().id, compiled.error().message);
    return compiled.error();
  }
  record(compiled->diagnostics);
  if (!compiled->ok()) {
    std::string text;
    for (const ShaderDiagnostic& d : compiled->diagnostics) text += format_diagnostic(d, source);
    if (!text.empty() && text.back() == '\n') text.pop_back();
    return make_error(ErrorKind::Compilation, MessageId::ShaderCompileFailed, std::move(text));
  }
  return registry_->adopt_shader_module(compiled->module.take(),
                                       resources::ShaderModuleDescription{std::string(source), std::move(path), std::move(file)});
}

Result<ShaderModuleHandle> ShaderManager::load(const std::filesystem::path& path) {
  auto source = read_source_file(path);
  if (!source) {
    last_diagnostics_.clear();
    registry_->diagnostics().error(source.error().id, source.error().message);
    return source.error();
  }
  auto handle = compile_and_register(path.string(), *source, path.string());
  if (handle) files_.emplace(*handle, path);
  return handle;
}

Result<void> ShaderManager::install(ShaderModuleHandle handle, gpu::Ref<WGPUShaderModule> module,
                                    std::string source) {
  const std::optional<resources::ShaderModuleDescription> before = registry_->recipe(handle);
  resources::ShaderModuleDescription recipe{std::move(source), before ? before->label : std::string(),
                                            before ? before->path : std::string()};
  auto replaced = registry_->replace_shader_module(handle, module.get(), std::move(recipe));
  if (!replaced) return replaced;  // `module` is released here
  module.take();                   // the registry owns it now
  return {};
}

const std::filesystem::path* ShaderManager::path_of(ShaderModuleHandle handle) const {
  auto found = files_.find(handle);
  return found == files_.end() ? nullptr : &found->second;
}

}  // namespace warden::shaders
