// Registry: the public facade. It keeps the pools that resolve() reads inline and forwards every
// other call to its RegistryImpl (registry_impl.h), which holds the rest.
#include "resources/registry_impl.h"

namespace warden::resources {

Registry::Registry(const gpu::Context& context, WGPUDevice device, WGPUQueue queue,
                   RegistryOptions options)
    : impl_(std::make_unique<RegistryImpl>(*this, context, device, queue, std::move(options))),
      pools_(impl_->make_pools()) {}

// The pools are destroyed after this body: the teardown that still reads them runs here.
Registry::~Registry() { impl_->end(); }

#define WARDEN_REGISTRY_FORWARD_PER_KIND(Name, snake)                                              \
  Result<Name##Handle> Registry::adopt_##snake(WGPU##Name object, std::string label, Ownership ownership) { \
    return impl_->adopt_##snake(object, std::move(label), ownership);                              \
  }                                                                                                \
  Result<void> Registry::replace_##snake(Name##Handle handle, WGPU##Name object) {                 \
    return impl_->replace_##snake(handle, object);                                                 \
  }                                                                                                \
  Result<void> Registry::destroy_##snake(Name##Handle handle) { return impl_->destroy_##snake(handle); } \
  std::optional<SlotState> Registry::slot_state(Name##Handle handle) const {                       \
    return impl_->slot_state(handle);                                                              \
  }                                                                                                \
  const std::string* Registry::label(Name##Handle handle) const { return impl_->label(handle); }   \
  std::optional<Ownership> Registry::ownership(Name##Handle handle) const {                        \
    return impl_->ownership(handle);                                                               \
  }                                                                                                \
  const detail::Recipe<Name##Tag>* Registry::recipe(Name##Handle handle) const {                   \
    return impl_->recipe(handle);                                                                  \
  }                                                                                                \
  void Registry::touch(Name##Handle handle) { impl_->touch(handle); }                              \
  Serial Registry::last_used(Name##Handle handle) const { return impl_->last_used(handle); }       \
  Result<WGPU##Name> Registry::stale_result(Name##Handle handle) const {                            \
    return impl_->stale_result<Name##Tag>(handle);                                                 \
  }
WARDEN_RESOURCE_KINDS(WARDEN_REGISTRY_FORWARD_PER_KIND)
#undef WARDEN_REGISTRY_FORWARD_PER_KIND

// ---- create ----------------------------------------------------------------------------------

Result<BufferHandle> Registry::create_buffer(const BufferDescription& desc) { return impl_->create_buffer(desc); }
Result<TextureHandle> Registry::create_texture(const TextureDescription& desc) { return impl_->create_texture(desc); }
Result<TextureViewHandle> Registry::create_texture_view(TextureHandle texture, const TextureViewDescription& desc) {
  return impl_->create_texture_view(texture, desc);
}
Result<SamplerHandle> Registry::create_sampler(const SamplerDescription& desc) { return impl_->create_sampler(desc); }
Result<ShaderModuleHandle> Registry::create_shader_module(ShaderModuleDescription desc) {
  return impl_->create_shader_module(std::move(desc));
}
Result<BindGroupLayoutHandle> Registry::create_bind_group_layout(std::span<const WGPUBindGroupLayoutEntry> entries,
                                                                 std::string label) {
  return impl_->create_bind_group_layout(entries, std::move(label));
}
Result<PipelineLayoutHandle> Registry::create_pipeline_layout(std::span<const BindGroupLayoutHandle> layouts,
                                                              std::string label) {
  return impl_->create_pipeline_layout(layouts, std::move(label));
}
Result<BindGroupHandle> Registry::create_bind_group(const BindGroupDescription& desc) {
  return impl_->create_bind_group(desc);
}
Result<RenderPipelineHandle> Registry::create_render_pipeline(const RenderPipelineDescription& description) {
  return impl_->create_render_pipeline(description);
}
Result<ComputePipelineHandle> Registry::create_compute_pipeline(const ComputePipelineDescription& description) {
  return impl_->create_compute_pipeline(description);
}
Result<QuerySetHandle> Registry::create_query_set(const QuerySetDescription& desc) {
  return impl_->create_query_set(desc);
}
Result<RenderBundleHandle> Registry::create_render_bundle(const RenderBundleDescription& desc) {
  return impl_->create_render_bundle(desc);
}
Result<void> Registry::rerecord_render_bundle(RenderBundleHandle handle) {
  return impl_->rerecord_render_bundle(handle);
}

// ---- a new object from a new recipe, under the same handle -----------------------------------

Result<void> Registry::recreate_texture(TextureHandle handle, const TextureDescription& desc) {
  return impl_->recreate_texture(handle, desc);
}
Result<void> Registry::recreate_buffer(BufferHandle handle, const BufferDescription& desc) {
  return impl_->recreate_buffer(handle, desc);
}
size_t Registry::report_awaiting_owner() { return impl_->report_awaiting_owner(); }

// ---- objects made elsewhere from a recipe -----------------------------------------------------

Result<ShaderModuleHandle> Registry::adopt_shader_module(WGPUShaderModule module, ShaderModuleDescription recipe) {
  return impl_->adopt_shader_module(module, std::move(recipe));
}
Result<RenderPipelineHandle> Registry::adopt_render_pipeline(WGPURenderPipeline pipeline,
                                                             RenderPipelineDescription recipe) {
  return impl_->adopt_render_pipeline(pipeline, std::move(recipe));
}
Result<ComputePipelineHandle> Registry::adopt_compute_pipeline(WGPUComputePipeline pipeline,
                                                               ComputePipelineDescription recipe) {
  return impl_->adopt_compute_pipeline(pipeline, std::move(recipe));
}
Result<void> Registry::replace_shader_module(ShaderModuleHandle handle, WGPUShaderModule module,
                                             ShaderModuleDescription recipe) {
  return impl_->replace_shader_module(handle, module, std::move(recipe));
}
Result<void> Registry::replace_render_pipeline(RenderPipelineHandle handle, WGPURenderPipeline pipeline,
                                               RenderPipelineDescription recipe) {
  return impl_->replace_render_pipeline(handle, pipeline, std::move(recipe));
}
Result<void> Registry::replace_compute_pipeline(ComputePipelineHandle handle, WGPUComputePipeline pipeline,
                                                ComputePipelineDescription recipe) {
  return impl_->replace_compute_pipeline(handle, pipeline, std::move(recipe));
}

// ---- imported views ---------------------------------------------------------------------------

Result<TextureViewHandle> Registry::import_texture_view(WGPUTextureView view, std::string label) {
  return impl_->import_texture_view(view, std::move(label));
}
Result<void> Registry::forget_texture_view(TextureViewHandle handle) { return impl_->forget_texture_view(handle); }

// ---- contracts and contents-only updates ------------------------------------------------------

Result<void> Registry::require_usage(BufferHandle handle, WGPUBufferUsage needed) const {
  return impl_->require_usage(handle, needed);
}
Result<void> Registry::require_usage(TextureHandle handle, WGPUTextureUsage needed) const {
  return impl_->require_usage(handle, needed);
}
Result<void> Registry::require_usage(TextureViewHandle handle, WGPUTextureUsage needed) const {
  return impl_->require_usage(handle, needed);
}
Result<void> Registry::write_buffer(BufferHandle handle, uint64_t offset, const void* data, size_t size) {
  return impl_->write_buffer(handle, offset, data, size);
}
Result<void> Registry::write_texture(TextureHandle handle, const TextureWrite& where, const void* data,
                                     size_t size) {
  return impl_->write_texture(handle, where, data, size);
}

// ---- submissions and retirement ---------------------------------------------------------------

Serial Registry::submit(const WGPUCommandBuffer* commands, size_t count) { return impl_->submit(commands, count); }
void Registry::poll() { impl_->poll(); }
void Registry::assume_all_complete() { impl_->assume_all_complete(); }
gpu::QueueClock& Registry::queue_clock() { return impl_->queue_clock(); }
const SubmissionClock& Registry::clock() const { return impl_->clock(); }

// ---- device generations -----------------------------------------------------------------------

void Registry::on_device_lost() { impl_->on_device_lost(); }
RebuildReport Registry::rebuild(WGPUDevice device, WGPUQueue queue, uint64_t generation) {
  return impl_->rebuild(device, queue, generation);
}
size_t Registry::prepare_rebuild(WGPUDevice device) { return impl_->prepare_rebuild(device); }
WGPUDevice Registry::prepared_device() const { return impl_->prepared_device(); }
size_t Registry::prepared_count() const { return impl_->prepared_count(); }
void Registry::discard_prepared() { impl_->discard_prepared(); }
bool Registry::device_lost() const { return impl_->device_lost(); }
uint64_t Registry::device_generation() const { return impl_->device_generation(); }

// ---- diagnostics ------------------------------------------------------------------------------

LiveCounts Registry::live_counts() const { return impl_->live_counts(); }
size_t Registry::pending_release_count() const { return impl_->pending_release_count(); }
Diagnostics& Registry::diagnostics() { return impl_->diagnostics(); }
const Diagnostics& Registry::diagnostics() const { return impl_->diagnostics(); }
uint32_t Registry::id() const { return impl_->id(); }
uint32_t Registry::first_generation() const { return impl_->first_generation(); }
const gpu::Procs& Registry::procs() const { return impl_->procs(); }
WGPUDevice Registry::device() const { return impl_->device(); }
WGPUQueue Registry::queue() const { return impl_->queue(); }
void Registry::shutdown() { impl_->shutdown(); }

}  // namespace warden::resources
