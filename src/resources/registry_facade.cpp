// Registry: the public facade. It keeps the pools that resolve() reads inline and forwards every
// other call to its RegistryImpl (registry_impl.h), which holds the rest. Each forwarded call
// takes the registry's lock here, and the frame-thread calls check their thread here
// (docs/threads.md): the contract is enforced in one file.
#include <array>

#include <fmt/format.h>

#include "resources/registry_impl.h"

namespace warden::resources {

namespace {

// Where a failed resolve's words come from when they are read (Result's ErrorSource): the
// registry that holds the id now, by weak reference. A registry unregisters before it ends, so
// a source never reaches one that is ending; one whose registry is gone says so.
class StaleErrorSources {
 public:
  static StaleErrorSources& get() {
    static StaleErrorSources sources;
    return sources;
  }
  const ErrorSource* row(uint32_t id) const { return sources_[id].data(); }
  void enlist(uint32_t id, const std::shared_ptr<RegistryImpl>& impl) {
    std::lock_guard lock(mutex_);
    registries_[id] = impl;
  }
  void leave(uint32_t id, const RegistryImpl* impl) {
    std::lock_guard lock(mutex_);
    if (registries_[id].lock().get() == impl) registries_[id].reset();
  }

 private:
  StaleErrorSources() {
    for (uint32_t id = 0; id <= HandleLayout::kMaxRegistryId; ++id) {
      for (uint32_t k = 0; k < kResourceKindCount; ++k) sources_[id][k] = ErrorSource{&build, id, k + 1};
    }
  }
  static Error build(const ErrorSource& source, uint64_t bits) {
    std::shared_ptr<RegistryImpl> impl;
    {
      std::lock_guard lock(get().mutex_);
      impl = get().registries_[source.context].lock();
    }
    const auto kind = static_cast<ResourceKind>(source.detail);
    auto held = impl == nullptr ? std::unique_lock<RegistryLock>{} : impl->lock();
    if (impl == nullptr || impl->ended()) {
      return make_error(ErrorKind::StaleHandle, MessageId::HandleOfEndedRegistry,
                        fmt::format("{} handle (bits {:#x}) did not resolve, and registry {}, which resolved it, has "
                                    "ended since: its words are gone with it",
                                    to_string(kind), bits, source.context));
    }
    return impl->stale_error_of(kind, bits);
  }

  std::mutex mutex_;
  std::array<std::weak_ptr<RegistryImpl>, HandleLayout::kMaxRegistryId + 1> registries_;
  std::array<std::array<ErrorSource, kResourceKindCount>, HandleLayout::kMaxRegistryId + 1> sources_;
};

}  // namespace

Registry::Registry(const gpu::Context& context, WGPUDevice device, WGPUQueue queue,
                   RegistryOptions options)
    : impl_(std::make_shared<RegistryImpl>(*this, context, device, queue, std::move(options))),
      stale_sources_(StaleErrorSources::get().row(impl_->id())),
      pools_(impl_->make_pools()) {
  StaleErrorSources::get().enlist(impl_->id(), impl_);
}

// The pools are destroyed after this body: the teardown that still reads them runs here, under
// the lock, after the error sources stopped reaching this registry.
Registry::~Registry() {
  StaleErrorSources::get().leave(impl_->id(), impl_.get());
  auto held = impl_->lock();
  impl_->end();
}

void Registry::adopt_frame_thread() { impl_->adopt_frame_thread(); }

// A call any thread may make: `WARDEN_LOCKED call(...)` takes the registry's lock, then returns
// the implementation's call(...).
#define WARDEN_LOCKED auto held = impl_->lock(); return impl_->
// A frame-thread call: the same, refused (core.WrongThread, reported) from another thread with
// `refused` as what it returns.
#define WARDEN_FRAME_THREAD(call, refused)                         \
  auto held = impl_->lock();                                       \
  if (impl_->refused_off_frame_thread(call)) return refused;       \
  return impl_->
#define WARDEN_REGISTRY_FORWARD_PER_KIND(Name, snake)                                              \
  Result<Name##Handle> Registry::adopt_##snake(WGPU##Name object, std::string label, Ownership ownership) { \
    WARDEN_LOCKED adopt<Name##Tag>(object, std::move(label), ownership);                           \
  }                                                                                                \
  Result<void> Registry::replace_##snake(Name##Handle handle, WGPU##Name object) {                 \
    WARDEN_LOCKED replace<Name##Tag>(handle, object);                                              \
  }                                                                                                \
  Result<void> Registry::destroy_##snake(Name##Handle handle) { WARDEN_LOCKED destroy<Name##Tag>(handle); } \
  std::optional<SlotState> Registry::slot_state(Name##Handle handle) const {                       \
    WARDEN_LOCKED state_of(handle);                                                                \
  }                                                                                                \
  const std::string* Registry::label(Name##Handle handle) const { WARDEN_LOCKED label_of(handle); } \
  std::optional<Ownership> Registry::ownership(Name##Handle handle) const {                        \
    WARDEN_LOCKED ownership_of(handle);                                                            \
  }                                                                                                \
  std::optional<detail::Recipe<Name##Tag>> Registry::recipe(Name##Handle handle) const {           \
    WARDEN_LOCKED recipe_of(handle);                                                               \
  }                                                                                                \
  void Registry::touch(Name##Handle handle) { WARDEN_LOCKED touch_impl(handle); }                  \
  Serial Registry::last_used(Name##Handle handle) const { WARDEN_LOCKED last_used_of(handle); }
WARDEN_RESOURCE_KINDS(WARDEN_REGISTRY_FORWARD_PER_KIND)
#undef WARDEN_REGISTRY_FORWARD_PER_KIND

// Called from inside a record callback, which runs inside the registry's own call (it holds the
// lock, which is recursive).
#define WARDEN_RESOLVE_FOR_RECORDING(Name, snake)                                                \
  Result<WGPU##Name> Registry::resolve_for_recording(Name##Handle handle) const {                \
    WARDEN_LOCKED resolve_named(handle);                                                         \
  }
WARDEN_RESOURCE_KINDS(WARDEN_RESOLVE_FOR_RECORDING)
#undef WARDEN_RESOLVE_FOR_RECORDING

// ---- create ----------------------------------------------------------------------------------

Result<BufferHandle> Registry::create_buffer(const BufferDescription& desc) { WARDEN_LOCKED create_buffer(desc); }
Result<TextureHandle> Registry::create_texture(const TextureDescription& desc) { WARDEN_LOCKED create_texture(desc); }
Result<TextureViewHandle> Registry::create_texture_view(TextureHandle texture, const TextureViewDescription& desc) {
  WARDEN_LOCKED create_texture_view(texture, desc);
}
Result<SamplerHandle> Registry::create_sampler(const SamplerDescription& desc) { WARDEN_LOCKED create_sampler(desc); }
Result<ShaderModuleHandle> Registry::create_shader_module(ShaderModuleDescription desc) {
  WARDEN_LOCKED create_shader_module(std::move(desc));
}
Result<BindGroupLayoutHandle> Registry::create_bind_group_layout(std::span<const WGPUBindGroupLayoutEntry> entries,
                                                                 std::string label) {
  WARDEN_LOCKED create_bind_group_layout(entries, std::move(label));
}
Result<PipelineLayoutHandle> Registry::create_pipeline_layout(std::span<const BindGroupLayoutHandle> layouts,
                                                              std::string label) {
  WARDEN_LOCKED create_pipeline_layout(layouts, std::move(label));
}
Result<BindGroupHandle> Registry::create_bind_group(const BindGroupDescription& desc) {
  WARDEN_LOCKED create_bind_group(desc);
}
Result<RenderPipelineHandle> Registry::create_render_pipeline(const RenderPipelineDescription& description) {
  WARDEN_LOCKED create_render_pipeline(description);
}
Result<ComputePipelineHandle> Registry::create_compute_pipeline(const ComputePipelineDescription& description) {
  WARDEN_LOCKED create_compute_pipeline(description);
}
Result<QuerySetHandle> Registry::create_query_set(const QuerySetDescription& desc) {
  WARDEN_LOCKED create_query_set(desc);
}
Result<RenderBundleHandle> Registry::create_render_bundle(const RenderBundleDescription& desc) {
  WARDEN_LOCKED create_render_bundle(desc);
}
Result<void> Registry::rerecord_render_bundle(RenderBundleHandle handle) {
  WARDEN_LOCKED rerecord_render_bundle(handle);
}

// ---- a new object from a new recipe, under the same handle -----------------------------------

Result<void> Registry::recreate_texture(TextureHandle handle, const TextureDescription& desc) {
  WARDEN_LOCKED recreate_texture(handle, desc);
}
Result<void> Registry::recreate_buffer(BufferHandle handle, const BufferDescription& desc) {
  WARDEN_LOCKED recreate_buffer(handle, desc);
}
size_t Registry::report_awaiting_owner() { WARDEN_LOCKED report_awaiting_owner(); }

// ---- objects made elsewhere from a recipe -----------------------------------------------------

Result<ShaderModuleHandle> Registry::adopt_shader_module(WGPUShaderModule module, ShaderModuleDescription recipe) {
  WARDEN_LOCKED adopt_shader_module(module, std::move(recipe));
}
Result<RenderPipelineHandle> Registry::adopt_render_pipeline(WGPURenderPipeline pipeline,
                                                             RenderPipelineDescription recipe) {
  WARDEN_LOCKED adopt_render_pipeline(pipeline, std::move(recipe));
}
Result<ComputePipelineHandle> Registry::adopt_compute_pipeline(WGPUComputePipeline pipeline,
                                                               ComputePipelineDescription recipe) {
  WARDEN_LOCKED adopt_compute_pipeline(pipeline, std::move(recipe));
}
Result<void> Registry::replace_shader_module(ShaderModuleHandle handle, WGPUShaderModule module,
                                             ShaderModuleDescription recipe) {
  WARDEN_LOCKED replace_shader_module(handle, module, std::move(recipe));
}
Result<void> Registry::replace_render_pipeline(RenderPipelineHandle handle, WGPURenderPipeline pipeline,
                                               RenderPipelineDescription recipe) {
  WARDEN_LOCKED replace_render_pipeline(handle, pipeline, std::move(recipe));
}
Result<void> Registry::replace_compute_pipeline(ComputePipelineHandle handle, WGPUComputePipeline pipeline,
                                                ComputePipelineDescription recipe) {
  WARDEN_LOCKED replace_compute_pipeline(handle, pipeline, std::move(recipe));
}

// ---- imported views ---------------------------------------------------------------------------

Result<TextureViewHandle> Registry::import_texture_view(WGPUTextureView view, std::string label) {
  WARDEN_LOCKED import_texture_view(view, std::move(label));
}
Result<void> Registry::forget_texture_view(TextureViewHandle handle) { WARDEN_LOCKED forget_texture_view(handle); }

// ---- contracts and contents-only updates ------------------------------------------------------

Result<void> Registry::require_usage(BufferHandle handle, WGPUBufferUsage needed) const {
  WARDEN_LOCKED require_usage(handle, needed);
}
Result<void> Registry::require_usage(TextureHandle handle, WGPUTextureUsage needed) const {
  WARDEN_LOCKED require_usage(handle, needed);
}
Result<void> Registry::require_usage(TextureViewHandle handle, WGPUTextureUsage needed) const {
  WARDEN_LOCKED require_usage(handle, needed);
}
Result<void> Registry::write_buffer(BufferHandle handle, uint64_t offset, const void* data, size_t size) {
  WARDEN_LOCKED write_buffer(handle, offset, data, size);
}
Result<void> Registry::unmap_buffer(BufferHandle handle) { WARDEN_LOCKED unmap_buffer(handle); }
Result<void> Registry::write_texture(TextureHandle handle, const TextureWrite& where, const void* data,
                                     size_t size) {
  WARDEN_LOCKED write_texture(handle, where, data, size);
}

// ---- submissions and retirement ---------------------------------------------------------------

Serial Registry::submit(const WGPUCommandBuffer* commands, size_t count) {
  WARDEN_FRAME_THREAD("submit", Serial{}) submit(commands, count);
}
void Registry::poll() { WARDEN_FRAME_THREAD("poll", void()) poll(); }
void Registry::assume_all_complete() { WARDEN_FRAME_THREAD("assume_all_complete", void()) assume_all_complete(); }
gpu::QueueClock& Registry::queue_clock() { WARDEN_LOCKED queue_clock(); }
const SubmissionClock& Registry::clock() const { WARDEN_LOCKED clock(); }

// ---- device generations -----------------------------------------------------------------------

void Registry::on_device_lost() { WARDEN_FRAME_THREAD("on_device_lost", void()) on_device_lost(); }
RebuildReport Registry::rebuild(WGPUDevice device, WGPUQueue queue, uint64_t generation) {
  WARDEN_FRAME_THREAD("rebuild", RebuildReport{.generation = impl_->device_generation()}) rebuild(device, queue, generation);
}
size_t Registry::prepare_rebuild(WGPUDevice device, uint64_t texture_bytes, uint64_t contents_bytes) {
  WARDEN_FRAME_THREAD("prepare_rebuild", size_t{0}) prepare_rebuild(device, texture_bytes, contents_bytes);
}
uint64_t Registry::prepared_contents_bytes() const { WARDEN_LOCKED prepared_contents_bytes(); }
uint64_t Registry::stage_prepared_contents(uint64_t budget, uint64_t step) {
  WARDEN_FRAME_THREAD("stage_prepared_contents", uint64_t{0}) stage_prepared_contents(budget, step);
}
WGPUDevice Registry::prepared_device() const { WARDEN_LOCKED prepared_device(); }
DrawRehearsal Registry::last_rehearsal() const { WARDEN_LOCKED last_rehearsal(); }
size_t Registry::prepared_count() const { WARDEN_LOCKED prepared_count(); }
uint64_t Registry::prepared_texture_bytes() const { WARDEN_LOCKED prepared_texture_bytes(); }
void Registry::discard_prepared() { WARDEN_FRAME_THREAD("discard_prepared", void()) discard_prepared(); }
void Registry::set_measured_upload(WGPUDevice device, ContentsUpload faster) {
  WARDEN_LOCKED set_measured_upload(device, faster);
}
bool Registry::device_lost() const { WARDEN_LOCKED device_lost(); }
uint64_t Registry::device_generation() const { WARDEN_LOCKED device_generation(); }

// ---- diagnostics ------------------------------------------------------------------------------

LiveCounts Registry::live_counts() const { WARDEN_LOCKED live_counts(); }
size_t Registry::pending_release_count() const { WARDEN_LOCKED pending_release_count(); }
Diagnostics& Registry::diagnostics() { WARDEN_LOCKED diagnostics(); }
const Diagnostics& Registry::diagnostics() const { WARDEN_LOCKED diagnostics(); }
uint32_t Registry::id() const { WARDEN_LOCKED id(); }
uint32_t Registry::first_generation() const { WARDEN_LOCKED first_generation(); }
const gpu::Procs& Registry::procs() const { WARDEN_LOCKED procs(); }
WGPUDevice Registry::device() const { WARDEN_LOCKED device(); }
WGPUQueue Registry::queue() const { WARDEN_LOCKED queue(); }
void Registry::shutdown() { WARDEN_FRAME_THREAD("shutdown", void()) shutdown(); }

#undef WARDEN_LOCKED
#undef WARDEN_FRAME_THREAD

}  // namespace warden::resources
