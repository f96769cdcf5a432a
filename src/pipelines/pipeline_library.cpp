#include "warden/pipelines/pipeline_library.h"

#include <fmt/format.h>

namespace warden::pipelines {

PipelineLibrary::PipelineLibrary(const gpu::Context& context, resources::Registry& registry)
    : context_(&context), registry_(&registry) {}

namespace {
template <typename Tag>
Error not_from_library(Handle<Tag> handle) {
  return make_error(ErrorKind::InvalidArgument, MessageId::PipelineNotFromLibrary,
                    fmt::format("{} pipeline (index {}, generation {}) has no description: it was not made by "
                                "the pipeline library",
                                to_string(Tag::kind), handle.index(), handle.generation()));
}
}  // namespace

template <typename E>
E PipelineLibrary::reported(E error) {
  registry_->diagnostics().error(error.id, error.message);
  return error;
}

Result<RenderPipelineHandle> PipelineLibrary::create_render_pipeline(resources::RenderPipelineDescription d) {
  auto built = build_render_pipeline(*context_, registry_->device(), RegistrySource(*registry_), d);
  if (!built) return reported(built.error());
  auto handle = registry_->adopt_render_pipeline(built->take(), std::move(d));
  if (!handle) return reported(handle.error());
  render_.insert(*handle);
  return handle;
}

Result<ComputePipelineHandle> PipelineLibrary::create_compute_pipeline(resources::ComputePipelineDescription d) {
  auto built = build_compute_pipeline(*context_, registry_->device(), RegistrySource(*registry_), d);
  if (!built) return reported(built.error());
  auto handle = registry_->adopt_compute_pipeline(built->take(), std::move(d));
  if (!handle) return reported(handle.error());
  compute_.insert(*handle);
  return handle;
}

Result<void> PipelineLibrary::replace_render_pipeline(RenderPipelineHandle handle, resources::RenderPipelineDescription d) {
  if (!registry_->is_alive(handle)) return registry_->resolve(handle).error();
  auto built = build_render_pipeline(*context_, registry_->device(), RegistrySource(*registry_), d);
  if (!built) return reported(built.error());
  if (auto replaced = registry_->replace_render_pipeline(handle, built->get(), std::move(d)); !replaced) return replaced;
  built->take();
  render_.insert(handle);
  return {};
}

Result<void> PipelineLibrary::replace_compute_pipeline(ComputePipelineHandle handle, resources::ComputePipelineDescription d) {
  if (!registry_->is_alive(handle)) return registry_->resolve(handle).error();
  auto built = build_compute_pipeline(*context_, registry_->device(), RegistrySource(*registry_), d);
  if (!built) return reported(built.error());
  if (auto replaced = registry_->replace_compute_pipeline(handle, built->get(), std::move(d)); !replaced) return replaced;
  built->take();
  compute_.insert(handle);
  return {};
}

// The pipeline was built from the handle's recipe (with a new module under the same module
// handle), so the recipe stays.
Result<void> PipelineLibrary::install(RenderPipelineHandle handle, gpu::Ref<WGPURenderPipeline> pipeline) {
  std::optional<resources::RenderPipelineDescription> recipe = registry_->recipe(handle);
  if (!recipe) return reported(not_from_library(handle));
  if (auto replaced = registry_->replace_render_pipeline(handle, pipeline.get(), std::move(*recipe)); !replaced) {
    return replaced;
  }
  pipeline.take();
  return {};
}

Result<void> PipelineLibrary::install(ComputePipelineHandle handle, gpu::Ref<WGPUComputePipeline> pipeline) {
  std::optional<resources::ComputePipelineDescription> recipe = registry_->recipe(handle);
  if (!recipe) return reported(not_from_library(handle));
  if (auto replaced = registry_->replace_compute_pipeline(handle, pipeline.get(), std::move(*recipe)); !replaced) {
    return replaced;
  }
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

std::optional<resources::RenderPipelineDescription> PipelineLibrary::description(RenderPipelineHandle handle) const {
  if (!render_.contains(handle)) return std::nullopt;
  return registry_->recipe(handle);
}

std::optional<resources::ComputePipelineDescription> PipelineLibrary::description(ComputePipelineHandle handle) const {
  if (!compute_.contains(handle)) return std::nullopt;
  return registry_->recipe(handle);
}

std::vector<RenderPipelineHandle> PipelineLibrary::render_users_of(ShaderModuleHandle module) const {
  std::vector<RenderPipelineHandle> users;
  for (RenderPipelineHandle handle : render_) {
    const std::optional<resources::RenderPipelineDescription> d = registry_->recipe(handle);
    if (d && uses_module(*d, module)) users.push_back(handle);
  }
  return users;
}

std::vector<ComputePipelineHandle> PipelineLibrary::compute_users_of(ShaderModuleHandle module) const {
  std::vector<ComputePipelineHandle> users;
  for (ComputePipelineHandle handle : compute_) {
    const std::optional<resources::ComputePipelineDescription> d = registry_->recipe(handle);
    if (d && uses_module(*d, module)) users.push_back(handle);
  }
  return users;
}

}  // namespace warden::pipelines
