// Registry's implementation: everything but the pools that resolve() reads inline. The public
// Registry (include/warden/resources/registry.h) is a thin facade that keeps those pools, takes
// the lock and checks the thread (registry_facade.cpp, one line a call), and forwards here, so
// the records and per-kind templates stay out of the installed header.
//
// RegistryImpl is the slot store (records beside the facade's pools, their states changed only
// through slot_edges.h), creation and custody; each other concern is a type of its own that it
// owns:
//   - the release queue (release_queue.h): the queue's clock and the pending releases;
//   - the rebuilder (rebuilder.h): recipes made again on a new device, contents, refills;
//   - the standby preparer (standby_preparer.h, draw_rehearsal.cpp): objects made ahead on the
//     spare device, and the draws rehearsed with them;
//   - the frame-thread carrier (frame_thread_carrier.h): the one-thread rule of GL devices.
#pragma once

#include <deque>
#include <map>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "warden/core/frame_thread.h"
#include "warden/gpu/ref.h"
#include "warden/resources/registry.h"
#include "resources/frame_thread_carrier.h"
#include "resources/rebuilder.h"
#include "resources/release_queue.h"
#include "resources/registry_lock.h"
#include "resources/standby_preparer.h"
#include "resources/slot_edges.h"

namespace warden::resources {

namespace detail {

// What each kind keeps besides the common record. Specialised where a kind has more to say.
template <typename Tag>
struct KindData {};
template <>
struct KindData<BufferTag> {
  WGPUFlags usage = 0;
  uint64_t size = 0;
  // ContentsSource::Kept: the buffer's bytes as written through warden (sized on first write).
  std::vector<uint8_t> kept{};
  // What the caller wrote through the mapping at creation is in `kept` (unmap_buffer).
  bool mapping_kept = false;
};
// ContentsSource::Kept: one subresource of a texture (an aspect of one mip level of one array
// layer or depth slice) as written through warden, packed row after row. Writes land in it
// where they land in the texture, so the latest write of every texel wins whatever the order of
// overlapping regions, and it never grows past the subresource's size.
struct KeptSubresource {
  WGPUTextureAspect aspect = WGPUTextureAspect_All;
  uint32_t mip_level = 0;
  uint32_t layer = 0;       // array layer, or depth slice of a 3D texture
  uint32_t width = 0;       // texels in a row of the level
  uint32_t rows = 0;        // rows of the level
  uint32_t row_bytes = 0;   // one packed row of the level
  std::vector<uint8_t> texels{};
};
template <>
struct KindData<TextureTag> {
  WGPUFlags usage = 0;
  WGPUExtent3D size{};
  WGPUTextureFormat format = WGPUTextureFormat_Undefined;
  uint32_t mip_level_count = 1;
  uint32_t live_views = 0;  // views made through create_texture_view and not yet destroyed
  std::vector<KeptSubresource> kept{};  // made on each subresource's first write
  // One more at each write into `kept`: what was staged of it on the spare is stale once it moved.
  uint64_t kept_version = 0;
};
template <>
struct KindData<TextureViewTag> {
  TextureHandle texture{};  // null when adopted or imported without one
};
template <>
struct KindData<BindGroupLayoutTag> {
  // Known when made by create_bind_group_layout; create_bind_group checks usages against it.
  std::optional<std::vector<WGPUBindGroupLayoutEntry>> entries{};
};
template <>
struct KindData<BindGroupTag> {
  // What the group binds: touching the group touches them (they are used by the same
  // submission, and destroying one before that submission retires would be the same hazard).
  std::vector<BufferHandle> buffers{};
  std::vector<TextureViewHandle> views{};
  std::vector<SamplerHandle> samplers{};
};

template <>
struct KindData<RenderBundleTag> {
  // What its record callback resolved, by kind and handle bits, each once: touching the bundle
  // touches them (a submission that executes the bundle uses them).
  std::vector<std::pair<ResourceKind, uint64_t>> used{};
};

template <typename Tag>
using Recipe = typename RecipeOf<Tag>::type;

template <typename Tag>
struct Record {
  std::string label{};
  Ownership ownership = Ownership::Owned;
  Serial last_used{};  // the last submission that used the object; 0: never used
  SlotState state = SlotState::Live;  // changed only through slot_edges.h
  std::string failure{};  // SlotState::Failed: why the rebuild could not make it
  // Its object was made by the frame thread's poll after it waited there (SlotState::Waiting),
  // not by a create or a rebuild: what a failed resolve read later says it was waiting for.
  bool made_after_waiting = false;
  // Empty for adopted and imported objects: made elsewhere, warden cannot make them again.
  std::optional<Recipe<Tag>> recipe{};
  KindData<Tag> data{};
  // How many recipes of other objects name this one's handle (a pipeline its module, a bind
  // group its buffer): those of live slots and of objects kept for them. A destroy while it is
  // above 0 keeps the object in custody (docs/adr/0049).
  uint32_t named_by = 0;
};

// An object whose handle its caller destroyed while a recipe still named it (docs/adr/0049): the
// handle is dead, as after any destroy, but the object and its record stay with the registry,
// so that what names it keeps working and a rebuild after a loss can make it again, until the
// last recipe that names it goes.
template <typename Tag>
struct Custody {
  typename GpuType<Tag>::type object = nullptr;  // null while its device is lost, or Failed
  Record<Tag> record{};
};

// A handle a recipe names, by kind and bits.
using NamedHandle = std::pair<ResourceKind, uint64_t>;

// One kind's pool and records, seen together; kConst: through a const registry.
template <typename Tag, bool kConst>
struct KindStore {
  template <typename T>
  using Maybe = std::conditional_t<kConst, const T, T>;
  Maybe<Pool<typename GpuType<Tag>::type>>& pool;  // hot: handle + object, what resolve reads
  Maybe<std::deque<Record<Tag>>>& records;          // cold, by slot index
};

// What a texture view's recipe asks of TextureCreateView (make_object, and the stand-ins the
// draw rehearsal makes of the same views).
inline WGPUTextureViewDescriptor view_descriptor(const TextureViewDescription& desc) {
  WGPUTextureViewDescriptor d{};
  d.label = gpu::string_view(desc.label);
  d.format = desc.format;
  d.dimension = desc.dimension;
  d.baseMipLevel = desc.base_mip_level;
  d.mipLevelCount = desc.mip_level_count;
  d.baseArrayLayer = desc.base_array_layer;
  d.arrayLayerCount = desc.array_layer_count;
  d.aspect = desc.aspect;
  return d;
}

}  // namespace detail

class RegistryImpl {
 public:
  template <typename Tag>
  using Object = typename detail::GpuType<Tag>::type;

  // `facade` is the Registry that owns this and holds the pools (Registry::pools_).
  RegistryImpl(Registry& facade, const gpu::Context& context, WGPUDevice device, WGPUQueue queue,
               RegistryOptions options);
  RegistryImpl(const RegistryImpl&) = delete;
  RegistryImpl& operator=(const RegistryImpl&) = delete;
  // The pools the facade keeps, one per kind, sized by the options and numbered with this
  // registry's id.
  Registry::Pools make_pools() const;
  // The facade's destructor: shutdown(), then the registry's id is given back.
  void end();

  // ---- per kind: the facade's per-kind calls reach the templates below (adopt, replace,
  // destroy, state_of, label_of, ownership_of, recipe_of, touch_impl, last_used_of) directly.

  // ---- create ----------------------------------------------------------------------------
  Result<BufferHandle> create_buffer(const BufferDescription& desc);
  Result<TextureHandle> create_texture(const TextureDescription& desc);
  Result<TextureViewHandle> create_texture_view(TextureHandle texture, const TextureViewDescription& desc = {});
  Result<SamplerHandle> create_sampler(const SamplerDescription& desc = {});
  Result<ShaderModuleHandle> create_shader_module(ShaderModuleDescription desc);
  Result<ShaderModuleHandle> create_shader_module(std::string_view wgsl, std::string label) {
    return create_shader_module(ShaderModuleDescription{std::string(wgsl), std::move(label), {}});
  }
  Result<BindGroupLayoutHandle> create_bind_group_layout(std::span<const WGPUBindGroupLayoutEntry> entries,
                                                         std::string label);
  Result<PipelineLayoutHandle> create_pipeline_layout(std::span<const BindGroupLayoutHandle> layouts,
                                                      std::string label);
  Result<BindGroupHandle> create_bind_group(const BindGroupDescription& desc);
  Result<RenderPipelineHandle> create_render_pipeline(const RenderPipelineDescription& description);
  Result<ComputePipelineHandle> create_compute_pipeline(const ComputePipelineDescription& description);
  Result<QuerySetHandle> create_query_set(const QuerySetDescription& desc);
  Result<RenderBundleHandle> create_render_bundle(const RenderBundleDescription& desc);
  Result<void> rerecord_render_bundle(RenderBundleHandle handle);

  // ---- a new object from a new recipe, under the same handle ------------------------------
  Result<void> recreate_texture(TextureHandle handle, const TextureDescription& desc);
  Result<void> recreate_buffer(BufferHandle handle, const BufferDescription& desc);
  size_t report_awaiting_owner();

  // ---- objects made elsewhere from a recipe ------------------------------------------------
  Result<ShaderModuleHandle> adopt_shader_module(WGPUShaderModule module, ShaderModuleDescription recipe) {
    return adopt_with_recipe<ShaderModuleTag>(module, std::move(recipe));
  }
  Result<RenderPipelineHandle> adopt_render_pipeline(WGPURenderPipeline pipeline, RenderPipelineDescription recipe) {
    return adopt_with_recipe<RenderPipelineTag>(pipeline, std::move(recipe));
  }
  Result<ComputePipelineHandle> adopt_compute_pipeline(WGPUComputePipeline pipeline, ComputePipelineDescription recipe) {
    return adopt_with_recipe<ComputePipelineTag>(pipeline, std::move(recipe));
  }
  Result<void> replace_shader_module(ShaderModuleHandle handle, WGPUShaderModule module, ShaderModuleDescription recipe) {
    return replace_with_recipe<ShaderModuleTag>(handle, module, std::move(recipe));
  }
  Result<void> replace_render_pipeline(RenderPipelineHandle handle, WGPURenderPipeline pipeline,
                                       RenderPipelineDescription recipe) {
    return replace_with_recipe<RenderPipelineTag>(handle, pipeline, std::move(recipe));
  }
  Result<void> replace_compute_pipeline(ComputePipelineHandle handle, WGPUComputePipeline pipeline,
                                        ComputePipelineDescription recipe) {
    return replace_with_recipe<ComputePipelineTag>(handle, pipeline, std::move(recipe));
  }

  // ---- imported views --------------------------------------------------------------------
  Result<TextureViewHandle> import_texture_view(WGPUTextureView view, std::string label);
  Result<void> forget_texture_view(TextureViewHandle handle);

  // ---- contracts and contents-only updates ----------------------------------------------
  Result<void> require_usage(BufferHandle handle, WGPUBufferUsage needed) const;
  Result<void> require_usage(TextureHandle handle, WGPUTextureUsage needed) const;
  Result<void> require_usage(TextureViewHandle handle, WGPUTextureUsage needed) const;
  Result<void> write_buffer(BufferHandle handle, uint64_t offset, const void* data, size_t size);
  Result<void> unmap_buffer(BufferHandle handle);
  Result<void> write_texture(TextureHandle handle, const TextureWrite& where, const void* data,
                             size_t size);

  // ---- submissions and retirement --------------------------------------------------------
  Serial submit(WGPUCommandBuffer commands) { return submit(&commands, 1); }
  Serial submit(const WGPUCommandBuffer* commands, size_t count);
  void poll();
  void assume_all_complete() { releases_.assume_all_complete(); }
  gpu::QueueClock& queue_clock() { return releases_.queue_clock(); }
  const SubmissionClock& clock() const { return releases_.clock(); }

  // ---- device generations (docs/adr/0013, 0014) -------------------------------------------
  void on_device_lost();
  RebuildReport rebuild(WGPUDevice device, WGPUQueue queue, uint64_t generation);
  size_t prepare_rebuild(WGPUDevice device, uint64_t texture_bytes, uint64_t contents_bytes) {
    if (refused_inside_recording("prepare_rebuild")) return 0;
    return standby_.prepare(device, texture_bytes, contents_bytes);
  }
  uint64_t prepared_contents_bytes() const { return standby_.staged_bytes(); }
  uint64_t stage_prepared_contents(uint64_t budget, uint64_t step);
  WGPUDevice prepared_device() const { return standby_.device(); }
  size_t prepared_count() const { return standby_.count(); }
  uint64_t prepared_texture_bytes() const { return standby_.texture_bytes(); }
  const DrawRehearsal& last_rehearsal() const { return standby_.last_rehearsal(); }
  void discard_prepared() { standby_.discard(); }
  void set_measured_upload(WGPUDevice device, ContentsUpload faster) {
    measured_upload_device_ = device;
    measured_upload_ = faster;
  }
  // The path this rebuild's kept texture contents take (ContentsUpload::Auto resolved).
  ContentsUpload contents_upload_now() const;
  // The same for a rebuild onto `device`.
  ContentsUpload contents_upload_on(WGPUDevice device) const;
  // Lost: the registry holds no device (on_device_lost let go of it; rebuild gives it the next).
  bool device_lost() const { return device_ == nullptr; }
  uint64_t device_generation() const { return device_generation_; }

  // ---- diagnostics -----------------------------------------------------------------------
  LiveCounts live_counts() const;
  // Objects destroyed by their caller and kept because a recipe still names them.
  uint32_t custody_count() const;
  size_t pending_release_count() const { return releases_.size(); }
  Diagnostics& diagnostics() { return diagnostics_; }
  const Diagnostics& diagnostics() const { return diagnostics_; }
  uint32_t id() const { return id_; }
  uint32_t first_generation() const { return first_generation_; }
  const gpu::Procs& procs() const { return procs_; }
  WGPUDevice device() const { return device_; }
  WGPUQueue queue() const { return queue_; }

  void shutdown();

  // ---- threads (docs/threads.md, docs/adr/0041) --------------------------------------------
  // Every call but resolve() runs under this lock (the facade takes it); registry_lock.h says
  // how it waits and why it is recursive.
  std::unique_lock<RegistryLock> lock() const { return std::unique_lock(lock_); }
  // Nothing when the calling thread is the frame thread (or this build does not check);
  // otherwise the core.WrongThread error for `call`.
  std::optional<Error> refuse_off_frame_thread(std::string_view call) const {
    return carrier_.frame_thread().check("registry", call);
  }
  // The same for the frame-thread calls that return no error: reported, true when refused.
  bool refused_off_frame_thread(std::string_view call);
  void adopt_frame_thread() { carrier_.adopt_frame_thread(); }
  // Why handle `bits` of `kind` does not resolve, in words: what a failed resolve's deferred
  // error (the facade's ErrorSource) says when it is read. Under the lock.
  Error stale_error_of(ResourceKind kind, uint64_t bits) const;
  // end() ran: the facade's pools are gone, nothing may read them.
  bool ended() const { return ended_; }

 private:
  friend class Registry;  // its per-kind stale_result forwards to ours
  friend class detail::StandbyPreparer;  // makes the registry's objects on the spare
  friend class detail::Rebuilder;        // makes them again on a new device

  // resolve() for the registry's own calls, under its lock: the error is built at once, and
  // while the standby preparer makes objects for the spare, what it made stands in for the
  // slot's own object (the slots themselves never hold another device's object: other threads
  // resolve them meanwhile).
  template <typename Tag>
  Result<Object<Tag>> resolve_now(Handle<Tag> handle) const {
    if (Object<Tag> stand_in = standby_.stand_in<Tag>(handle.bits())) [[unlikely]] return stand_in;
    if (Object<Tag> object = store<Tag>().pool.load(handle.bits())) return object;
    return stale_result(handle);
  }
  // What a creation checks of an object it will use: that it resolves; while the device is lost
  // (every slot Lost), that its handle is live, since the rebuild makes both in order.
  template <typename Tag>
  Result<void> check_usable(Handle<Tag> handle) const {
    // While lost, or from another thread on a device that takes calls on one thread, the
    // objects used are made with this one (by the rebuild, or by the frame thread's poll).
    if (device_lost() || carrier_.carries() ? find(handle).has_value()
                                                : store<Tag>().pool.load(handle.bits()) != nullptr) {
      return {};
    }
    return stale_error(handle);
  }

  // A kind's pool (the facade's) and records, side by side as one store.
  template <typename Tag>
  detail::KindStore<Tag, false> store() {
    return {std::get<kind_index(Tag::kind)>(facade_.pools_), std::get<kind_index(Tag::kind)>(records_)};
  }
  template <typename Tag>
  detail::KindStore<Tag, true> store() const {
    return {std::get<kind_index(Tag::kind)>(facade_.pools_), std::get<kind_index(Tag::kind)>(records_)};
  }

  template <typename Tag>
  std::optional<Object<Tag>> find(Handle<Tag> handle) const {
    return store<Tag>().pool.find(handle.bits());
  }

  template <typename Tag>
  Error stale_error(Handle<Tag> handle) const;
  // require_usage for the kinds whose usages warden records (buffers, textures).
  template <typename Tag>
  Result<void> require_recorded_usage(Handle<Tag> handle, WGPUFlags needed,
                                      std::string (*usage_names)(WGPUFlags)) const;
  template <typename Tag>
  [[gnu::cold]] Result<Object<Tag>> stale_result(Handle<Tag> handle) const;
  template <typename Tag>
  detail::Record<Tag>* record(Handle<Tag> handle);
  template <typename Tag>
  const detail::Record<Tag>* record(Handle<Tag> handle) const;
  template <typename Tag>
  Result<Handle<Tag>> adopt(Object<Tag> object, std::string label, Ownership ownership);
  template <typename Tag>
  Result<Handle<Tag>> insert(Object<Tag> object, std::string_view label, Ownership ownership,
                             detail::KindData<Tag> data);
  // Runs one device call (a creation, a queue write) so that its errors come back here:
  // Dawn's words when it refused the call, which then reaches neither the caller's records nor
  // the application's uncaptured-error handler. On a device whose errors reach gpu::ErrorCapture
  // (one warden requested) a capture on this thread; otherwise validation and out-of-memory
  // error scopes (docs/adr/0043).
  template <typename Call>
  std::string run_checked(Call&& call);
  std::string run_scoped(const std::function<void()>& call);
  // Whether device_'s errors reach gpu::ErrorCapture, asked once a device.
  bool errors_reach_capture();
  // `recipe`: the slot's new recipe (replace_with_recipe); none for the caller's own object.
  template <typename Tag>
  Result<void> replace(Handle<Tag> handle, Object<Tag> object, std::optional<detail::Recipe<Tag>> recipe = std::nullopt);
  template <typename Tag>
  Result<Handle<Tag>> adopt_with_recipe(Object<Tag> object, detail::Recipe<Tag> recipe);
  template <typename Tag>
  Result<void> replace_with_recipe(Handle<Tag> handle, Object<Tag> object, detail::Recipe<Tag> recipe);
  template <typename Tag>
  Result<void> destroy(Handle<Tag> handle);

  // ---- custody: what a recipe names outlives its destroy (docs/adr/0049) -------------------
  // The handles `rec`'s recipe names (a render bundle: what its record callback resolved).
  template <typename Tag>
  static std::vector<detail::NamedHandle> names_of(const detail::Record<Tag>& rec);
  // Counts `rec`'s names on what they name (a recipe was set).
  template <typename Tag>
  void count_names(const detail::Record<Tag>& rec) {
    for (const auto& [kind, bits] : names_of(rec)) adjust_named(kind, bits, +1);
  }
  // Takes `names` off what they name (their recipe went), letting go of a kept object no recipe
  // names any more. Run with the caller's slot settled: a release hook may call the registry.
  void uncount_names(const std::vector<detail::NamedHandle>& names) {
    for (const auto& [kind, bits] : names) adjust_named(kind, bits, -1);
  }
  void adjust_named(ResourceKind kind, uint64_t bits, int delta);
  // A render bundle recorded again: `uses` is what it names now.
  void set_recorded_uses(detail::Record<RenderBundleTag>& rec, std::vector<detail::NamedHandle> uses);
  template <typename Tag>
  void adjust_named_of(uint64_t bits, int delta);
  // destroy() of an object a recipe names: its slot is freed as by release_occupant, its object
  // and record move to custody_.
  template <typename Tag>
  void keep_in_custody(Handle<Tag> handle);
  // The last recipe that named a kept object went: it is let go as a destroyed one would have
  // been, and what its own recipe names is uncounted.
  template <typename Tag>
  void let_go_of_kept(uint64_t bits);
  // What a recipe names, for make_object: the slot's object, or while remaking_ (an object made
  // again from the recipe it was made from) a kept one of a destroyed handle. A new creation
  // naming a destroyed handle is refused as stale, kept or not.
  template <typename Tag>
  Result<Object<Tag>> resolve_named(Handle<Tag> handle) const;
  template <typename Tag>
  std::map<uint64_t, detail::Custody<Tag>>& custody() {
    return std::get<kind_index(Tag::kind)>(custody_);
  }
  template <typename Tag>
  const std::map<uint64_t, detail::Custody<Tag>>& custody() const {
    return std::get<kind_index(Tag::kind)>(custody_);
  }
  // A loss: kept objects are let go with their device; those with a recipe stay kept (Lost) for
  // the rebuild, the others go (nothing can make them again).
  template <typename Tag>
  void lose_custody();
  // recreate_*: a kept view or bind group made of what was recreated is made again too (what
  // names it would otherwise go on with the old object). A refusal is added to `failed`.
  template <typename Tag>
  void remake_kept(uint64_t bits, std::vector<std::string>& failed);
  // Shutdown: every kept object goes.
  template <typename Tag>
  void release_all_custody();
  // Sets remaking_ for a scope: the objects made in it are made again from recipes they were made
  // from before (rebuild, recreate, rerecord, prepare_rebuild, the frame thread's settle).
  struct Remaking {
    explicit Remaking(bool& flag) : flag_(flag), was_(std::exchange(flag, true)) {}
    ~Remaking() { flag_ = was_; }
    Remaking(const Remaking&) = delete;
    Remaking& operator=(const Remaking&) = delete;
    bool& flag_;
    bool was_;
  };
  // recreate_texture / recreate_buffer after their own checks: the new object under `handle`,
  // then every view and bind group made of it again.
  template <typename Tag>
  Result<void> recreate(const char* call, Handle<Tag> handle, detail::Recipe<Tag> recipe);
  // Puts `made` in slot `id` (Live, unused); the object it held is let go as a replaced one.
  template <typename Tag>
  void swap_in(SlotId id, Object<Tag> made);
  // Makes slot `id` again from its recipe; a refusal leaves it Failed and is added to `failed`.
  template <typename Tag>
  void remake_from_recipe(SlotId id, std::vector<std::string>& failed);
  // The checks create_texture and recreate_texture run before the device sees `desc`.
  Result<void> check_texture_description(const char* call, const TextureDescription& desc) const;
  Result<void> check_buffer_description(const char* call, const BufferDescription& desc) const;
  template <typename Tag>
  void report_awaiting_owner_of(size_t& count);

  template <typename Tag>
  std::optional<detail::Recipe<Tag>> recipe_of(Handle<Tag> handle) const {
    const auto* rec = record(handle);
    if (rec == nullptr) return std::nullopt;
    return rec->recipe;
  }
  template <typename Tag>
  const std::string* label_of(Handle<Tag> handle) const;
  template <typename Tag>
  std::optional<Ownership> ownership_of(Handle<Tag> handle) const;
  template <typename Tag>
  void touch_impl(Handle<Tag> handle);
  template <typename Tag>
  Serial last_used_of(Handle<Tag> handle) const;
  template <typename Tag>
  std::optional<SlotState> state_of(Handle<Tag> handle) const;
  // DeviceFailed: "<what>: device lost (device generation N), rebuilding".
  Error device_lost_error(std::string_view what) const;
  // Refused (RenderBundleRecordReentered) while a record callback runs: `call` would make,
  // replace or destroy an object, which the walks around the callback (create, rebuild) do not
  // expect to change under them (docs/adr/0039). Empty otherwise.
  std::optional<Error> refuse_inside_recording(std::string_view call) const {
    if (recording_ == nullptr) [[likely]] return std::nullopt;
    return recording_refusal(call);
  }
  [[gnu::cold]] Error recording_refusal(std::string_view call) const;
  // The same for the calls that move device generations, which return no error: reported as a
  // gfx.resources error; true when refused.
  bool refused_inside_recording(std::string_view call);
  // Touches what a render bundle's record callback resolved.
  void touch_recorded(const detail::Record<RenderBundleTag>& rec);
  // The GPU object a recipe describes, made on the current device inside creation error
  // scopes (create_checked). One function per kind; create_* and rebuild() both call it.
  template <typename Tag>
  Result<Object<Tag>> make_object(const detail::Recipe<Tag>& recipe);
  // A pipeline's layout for make_object; null when the description derives it ("auto").
  Result<WGPUPipelineLayout> pipeline_layout_of(PipelineLayoutHandle handle, const std::string& where) const;
  template <typename Tag, typename Make>
  Result<Object<Tag>> create_checked(const char* call, std::string_view label, Make&& make);
  // create_* after its checks: make the object, register it with its recipe. The recipe is
  // copied (or moved) once, into the slot's record.
  template <typename Tag, typename RecipeRef>
  Result<Handle<Tag>> create_from_recipe(const char* call, RecipeRef&& recipe, detail::KindData<Tag> data);
  template <typename Tag>
  void lose_all();
  // Ends a handle's occupant: its object goes to the release queue (release_queue.h), and a
  // release that is due now runs last, once the record is settled, because the release hook may
  // call the registry again and a creation then takes the slot.
  template <typename Tag>
  void release_occupant(Handle<Tag> handle);
  // The release queue's when_retired for an object of `record`'s: held for the frame thread
  // while the carrier carries (frame_thread_carrier.h).
  template <typename Tag>
  [[nodiscard]] std::optional<detail::PendingRelease> release_when_retired(Object<Tag> object,
                                                                           const detail::Record<Tag>& record,
                                                                           uint32_t index, uint32_t generation) {
    return releases_.when_retired<Tag>(object, record.ownership, record.last_used, record.label, index, generation,
                                       carrier_.carries());
  }
  template <typename Tag>
  void release_all_live();

  // The frame-thread carrier (frame_thread_carrier.h): on a device that takes calls on one
  // thread, what another thread creates or writes is made and written by settle_carried() (poll,
  // submit, a write from the frame thread), in call order.
  void read_device_backend();
  void settle_carried() {
    if (carrier_.empty()) [[likely]] return;
    settle_carried_now();
  }
  void settle_carried_now();
  template <typename Tag>
  void make_waiting(uint64_t bits);
  void write_carried(const detail::FrameThreadCarrier::Write& write);
  // queue.writeTexture of a checked write, under run_checked: the device's words if it
  // refused. What write_texture and write_carried both issue.
  std::string queue_write_texture(WGPUTexture texture, const TextureWrite& where, uint32_t bytes_per_row,
                                  uint32_t rows_per_image, const void* data, size_t size);
  uint32_t highest_generation_issued() const;

  const gpu::Context& context_;
  const gpu::Procs& procs_;
  WGPUDevice device_;
  // The device errors_reach_capture() last asked about, and its answer.
  WGPUDevice capture_checked_device_ = nullptr;
  bool capture_reaches_ = false;
  WGPULimits limits_{};  // the device's, read once: create_* checks requests against them
  WGPUBackendType backend_ = WGPUBackendType_Undefined;  // device_'s (read_device_backend)
  // What set_measured_upload() measured, and on which device.
  WGPUDevice measured_upload_device_ = nullptr;
  ContentsUpload measured_upload_ = ContentsUpload::Auto;
  WGPUQueue queue_;
  uint64_t device_generation_;
  // The label of the render bundle whose record callback runs now; null when none does.
  const std::string* recording_ = nullptr;
  // What the last make_object<RenderBundleTag> saw its callback resolve, for the slot's KindData.
  std::vector<std::pair<ResourceKind, uint64_t>> recorded_uses_;
  uint32_t id_;
  uint32_t first_generation_;
  RegistryOptions options_;
  detail::ReleaseQueue releases_;  // the queue's clock and the pending releases (after options_: it reads on_release)
  Diagnostics own_diagnostics_;  // used when RegistryOptions::diagnostics is null
  Diagnostics& diagnostics_;
  Registry& facade_;
  // Cold, by slot index, one deque per kind in kind order; grows with the pool's slots. A deque,
  // so a label pointer handed out stays valid while its object lives.
  std::tuple<
#define WARDEN_REGISTRY_RECORDS(Name, snake) std::deque<detail::Record<Name##Tag>>,
      WARDEN_RESOURCE_KINDS(WARDEN_REGISTRY_RECORDS)
#undef WARDEN_REGISTRY_RECORDS
          std::monostate>
      records_;
  // Objects kept for the recipes that name them after their handle was destroyed, by kind and
  // handle bits (docs/adr/0049).
  std::tuple<
#define WARDEN_REGISTRY_CUSTODY(Name, snake) std::map<uint64_t, detail::Custody<Name##Tag>>,
      WARDEN_RESOURCE_KINDS(WARDEN_REGISTRY_CUSTODY)
#undef WARDEN_REGISTRY_CUSTODY
          std::monostate>
      custody_;
  bool remaking_ = false;  // resolve_named may hand out a kept object (Remaking)
  detail::StandbyPreparer standby_{*this, procs_};  // what was made on the spare device
  detail::Rebuilder rebuilder_{*this, procs_};
  bool ended_ = false;
  bool releasing_all_ = false;  // shutdown is letting go of every live object: insert refuses

  mutable RegistryLock lock_;
  detail::FrameThreadCarrier carrier_;
};

// make_object is specialised per kind (registry_create.cpp); rebuild() instantiates it too.
#define WARDEN_DECLARE_MAKE_OBJECT(Name, snake) \
  template <>                                   \
  Result<WGPU##Name> RegistryImpl::make_object<Name##Tag>(const detail::Recipe<Name##Tag>& recipe);
WARDEN_RESOURCE_KINDS(WARDEN_DECLARE_MAKE_OBJECT)
#undef WARDEN_DECLARE_MAKE_OBJECT

}  // namespace warden::resources
