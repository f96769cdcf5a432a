#include "warden/pipelines/pipeline_library.h"

namespace warden::pipelines {

PipelineLibrary::PipelineLibrary(const gpu::Context& context, gpu::Device device, Registry& registry)
    : context_(&context), device_(device), registry_(&registry) {}

template <typename E>
E PipelineLibrary::reported(E error) {
  registry_->diagnostics().error(kDiagnosticsCategory, error.message);
  return error;
}

Result<RenderPipelineHandle> PipelineLibrary::create_render_pipeline(RenderPipelineDescription d) {
  auto built = build_render_pipeline(*context_, device_, RegistrySource(*registry_), d);
  if (!built) return reported(built.error());
  auto handle = registry_->adopt_render_pipeline(built->take(), d.label);
  if (!handle) return reported(handle.error());
  render_.insert_or_assign(*handle, std::move(d));
  return handle;
}

Result<ComputePipelineHandle> PipelineLibrary::create_compute_pipeline(ComputePipelineDescription d) {
  auto built = build_compute_pipeline(*context_, device_, RegistrySource(*registry_), d);
  if (!built) return reported(built.error());
  auto handle = registry_->adopt_compute_pipeline(built->take(), d.label);
  if (!handle) return reported(handle.error());
  compute_.insert_or_assign(*handle, std::move(d));
  return handle;
}

Result<void> PipelineLibrary::replace_render_pipeline(RenderPipelineHandle handle, RenderPipelineDescription d) {
  if (!registry_->is_alive(handle)) return registry_->resolve(handle).error();
  auto built = build_render_pipeline(*context_, device_, RegistrySource(*registry_), d);
  if (!built) return reported(built.error());
  if (auto replaced = registry_->replace_render_pipeline(handle, built->get()); !replaced) return replaced;
  built->take();
  render_.insert_or_assign(handle, std::move(d));
  return {};
}

Result<void> PipelineLibrary::replace_compute_pipeline(ComputePipelineHandle handle, ComputePipelineDescription d) {
  if (!registry_->is_alive(handle)) return registry_->resolve(handle).error();
  auto built = build_compute_pipeline(*context_, device_, RegistrySource(*registry_), d);
  if (!built) return reported(built.error());
  if (auto replaced = registry_->replace_compute_pipeline(handle, built->get()); !replaced) return replaced;
  built->take();
  compute_.insert_or_assign(handle, std::move(d));
  return {};
}

Result<void> PipelineLibrary::install(RenderPipelineHandle handle, gpu::Ref<gpu::RenderPipeline> pipeline) {
  if (auto replaced = registry_->replace_render_pipeline(handle, pipeline.get()); !replaced) return replaced;
  pipeline.take();
  return {};
}

Result<void> PipelineLibrary::install(ComputePipelineHandle handle, gpu::Ref<gpu::ComputePipeline> pipeline) {
  if (auto replaced = registry_->replace_compute_pipeline(handle, pipeline.get()); !replaced) return replaced;
  pipeline.take();
  return {};
}

Result<void> PipelineLibrary::destroy(RenderPipelineHandle handle) {
  render_.erase(handle);
  return registry_->destroy_render_pipeline(handle);
}

Result<void> PipelineLibrary::destroy(ComputePipelineHandle handle) {
  compute_.erase(handle);
  return registry_->destroy_compute_pipeline(handle);
}

const RenderPipelineDescription* PipelineLibrary::description(RenderPipelineHandle handle) const {
  auto found = render_.find(handle);
  return found == render_.end() ? nullptr : &found->second;
}

const ComputePipelineDescription* PipelineLibrary::description(ComputePipelineHandle handle) const {
  auto found = compute_.find(handle);
  return found == compute_.end() ? nullptr : &found->second;
}

std::vector<RenderPipelineHandle> PipelineLibrary::render_users_of(ShaderModuleHandle module) const {
  std::vector<RenderPipelineHandle> users;
  for (const auto& [handle, d] : render_) {
    if (registry_->is_alive(handle) && uses_module(d, module)) users.push_back(handle);
  }
  return users;
}

std::vector<ComputePipelineHandle> PipelineLibrary::compute_users_of(ShaderModuleHandle module) const {
  std::vector<ComputePipelineHandle> users;
  for (const auto& [handle, d] : compute_) {
    if (registry_->is_alive(handle) && uses_module(d, module)) users.push_back(handle);
  }
  return users;
}

}  // namespace warden::pipelines
