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
  auto compiled = compiler().compile(path, source);
  if (!compiled) return refused(compiled.error());
  CompiledFile file;
  file.shader = std::move(compiled.value());
  file.wgsl = std::string(source);
  return register_compiled(std::move(file), std::move(path), {});
}

Result<ShaderModuleHandle> ShaderManager::load(const std::filesystem::path& path) {
  auto compiled = compile_shader_file(compiler(), path, wesl_);
  if (!compiled) return refused(compiled.error());
  std::vector<std::filesystem::path> files = std::move(compiled->files);
  std::vector<std::string> features_used = std::move(compiled->features_used);
  auto handle = register_compiled(std::move(compiled.value()), path.string(), path.string());
  if (handle) files_[*handle] = LoadedFile{path, std::move(files), std::move(features_used)};
  return handle;
}

Error ShaderManager::refused(Error error) {
  last_diagnostics_.clear();
  registry_->diagnostics().error(error.id, error.message);
  return error;
}

Result<ShaderModuleHandle> ShaderManager::register_compiled(CompiledFile compiled, std::string label, std::string file) {
  record(compiled.shader.diagnostics);
  if (!compiled.shader.ok()) {
    return make_error(ErrorKind::Compilation, MessageId::ShaderCompileFailed, compiled.format_diagnostics());
  }
  return registry_->adopt_shader_module(
      compiled.shader.module.take(),
      resources::ShaderModuleDescription{std::move(compiled.wgsl), std::move(label), std::move(file)});
}

std::vector<ShaderModuleHandle> ShaderManager::set_wesl_features(std::map<std::string, bool, std::less<>> features) {
  const auto value = [](const std::map<std::string, bool, std::less<>>& values, const std::string& name) {
    auto found = values.find(name);
    return found == values.end() ? std::optional<bool>() : std::optional<bool>(found->second);
  };
  std::vector<ShaderModuleHandle> changed;
  for (const auto& [handle, loaded] : files_) {
    for (const std::string& feature : loaded.features_used) {
      if (value(wesl_.features, feature) != value(features, feature)) {
        changed.push_back(handle);
        break;
      }
    }
  }
  wesl_.features = std::move(features);
  return changed;
}

const std::vector<std::filesystem::path>* ShaderManager::files_of(ShaderModuleHandle handle) const {
  auto found = files_.find(handle);
  return found == files_.end() ? nullptr : &found->second.files;
}

void ShaderManager::update_sources(ShaderModuleHandle handle, std::vector<std::filesystem::path> files,
                                   std::vector<std::string> features_used) {
  auto found = files_.find(handle);
  if (found == files_.end()) return;
  found->second.files = std::move(files);
  found->second.features_used = std::move(features_used);
}

Result<std::string> ShaderManager::current_wgsl(ShaderModuleHandle handle) const {
  auto found = files_.find(handle);
  if (found == files_.end()) {
    return make_error(ErrorKind::InvalidArgument, MessageId::ShaderNotFromFile,
                      fmt::format("shader module (index {}, generation {}) was not loaded from a file",
                                  handle.index(), handle.generation()));
  }
  return shader_file_wgsl(found->second.path, wesl_);
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
  return found == files_.end() ? nullptr : &found->second.path;
}

}  // namespace warden::shaders
