// Registry: custody of every GPU object of one device, behind generational typed handles.
//
// One pool per kind (capacity fixed at creation). Each object has an owner (Ownership), a label,
// the usages it was created with, and the serial of the last submission that used it. Destroying
// or replacing an object kills its handle (or swaps it) at once; the GPU object itself is
// released when that serial has retired, learned from onSubmittedWorkDone through a
// non-blocking poll(). An owned object waits at least for the submission being recorded, touched
// or not (docs/lifecycle-in-detail.md). Nothing here waits on the GPU. docs/lifecycle-in-detail.md walks an
// object from create to release; docs/failure-policy.md says what each call does on bad input.
//
// Not thread-safe: one thread, the one that drives the instance's events, calls a Registry.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <variant>
#include <vector>

#include "warden/core/diagnostics.h"
#include "warden/core/handle.h"
#include "warden/core/pool.h"
#include "warden/core/result.h"
#include "warden/core/submission_clock.h"
#include "warden/webgpu/context.h"

namespace warden {

// Who ends an object's life.
enum class Ownership : uint8_t {
  Owned,     // warden destroys and releases it once its last submission retired
  Borrowed,  // the caller's; warden holds one reference of its own and releases only that
  Imported,  // texture views only (swapchain, external targets): tracked, never released
};
const char* to_string(Ownership ownership);

// The order teardown walks (and a rebuild after loss would walk backwards): users of an
// object go before the object they use.
inline constexpr std::array<ResourceKind, kResourceKindCount> kTeardownOrder = {
    ResourceKind::BindGroup,      ResourceKind::RenderPipeline,  ResourceKind::ComputePipeline,
    ResourceKind::PipelineLayout, ResourceKind::BindGroupLayout, ResourceKind::ShaderModule,
    ResourceKind::TextureView,    ResourceKind::Sampler,         ResourceKind::QuerySet,
    ResourceKind::Texture,        ResourceKind::Buffer,
};

// Told about every GPU object the registry lets go of (after deferral), for tests and tools.
// An object refused because its pool was full is reported with generation 0.
struct ReleaseEvent {
  ResourceKind kind = ResourceKind::None;
  uint32_t index = 0;
  uint32_t generation = 0;
  const void* object = nullptr;  // identity only: the object is already released
  std::string_view label;  // valid during the call only
  Ownership ownership = Ownership::Owned;
  Serial last_used;     // the last submission that used the object
  Serial retired;       // the clock's retired serial when it was let go
  bool destroyed = false;  // wgpu*Destroy was called (owned buffers, textures, query sets)
};

struct RegistryOptions {
#define WARDEN_REGISTRY_CAPACITY_FIELD(Name, snake) uint32_t snake##_capacity = 4096;
  WARDEN_RESOURCE_KINDS(WARDEN_REGISTRY_CAPACITY_FIELD)
#undef WARDEN_REGISTRY_CAPACITY_FIELD
  // How many generations a slot may carry before it is retired (docs/adr/0002), counted from
  // the registry's first generation and never past HandleLayout::kMaxGeneration. Only tests
  // lower it, to reach the rule in a few steps.
  uint32_t generation_limit = HandleLayout::kMaxGeneration;
  std::function<void(const ReleaseEvent&)> on_release;

  // Every kind gets `capacity` slots.
  static RegistryOptions uniform(uint32_t capacity);
  uint32_t capacity(ResourceKind kind) const;
};

// Per-kind live object counts.
struct LiveCounts {
  std::array<uint32_t, kResourceKindCount> by_kind{};
  uint32_t of(ResourceKind kind) const { return by_kind[kind_index(kind)]; }
  uint32_t total() const;
};

// ---- descriptors for create_* ---------------------------------------------------------------
struct BufferDesc {
  uint64_t size = 0;
  gpu::Flags usage = gpu::BufferUsage::None;
  bool mapped_at_creation = false;
  std::string label;
};

struct TextureDesc {
  gpu::Extent3D size;
  gpu::TextureFormat format = gpu::TextureFormat::RGBA8Unorm;
  gpu::Flags usage = gpu::TextureUsage::None;
  gpu::TextureDimension dimension = gpu::TextureDimension::e2D;
  uint32_t mip_level_count = 1;
  uint32_t sample_count = 1;
  // Compatibility mode fixes the view dimension a texture is bound with at creation;
  // Undefined leaves it to the implementation's default.
  gpu::TextureViewDimension binding_view_dimension = gpu::TextureViewDimension::Undefined;
  std::string label;
};

struct TextureViewDesc {
  gpu::TextureFormat format = gpu::TextureFormat::Undefined;
  gpu::TextureViewDimension dimension = gpu::TextureViewDimension::Undefined;
  uint32_t base_mip_level = 0;
  uint32_t mip_level_count = gpu::kMipLevelCountUndefined;
  uint32_t base_array_layer = 0;
  uint32_t array_layer_count = gpu::kArrayLayerCountUndefined;
  gpu::TextureAspect aspect = gpu::TextureAspect::All;
  std::string label;
};

struct SamplerDesc {
  gpu::AddressMode address_mode = gpu::AddressMode::ClampToEdge;
  gpu::FilterMode mag_filter = gpu::FilterMode::Nearest;
  gpu::FilterMode min_filter = gpu::FilterMode::Nearest;
  gpu::MipmapFilterMode mipmap_filter = gpu::MipmapFilterMode::Nearest;
  std::string label;
};

struct BufferBinding {
  BufferHandle buffer;
  uint64_t offset = 0;
  uint64_t size = gpu::kWholeSize;
};
struct BindGroupEntryDesc {
  uint32_t binding = 0;
  std::variant<BufferBinding, TextureViewHandle, SamplerHandle> resource;
};
struct BindGroupDesc {
  BindGroupLayoutHandle layout;
  std::vector<BindGroupEntryDesc> entries;
  std::string label;
};

struct ComputePipelineDesc {
  ShaderModuleHandle module;
  std::string entry_point = "main";
  PipelineLayoutHandle layout;  // null: derived from the shader ("auto")
  std::string label;
};

struct QuerySetDesc {
  gpu::QueryType type = gpu::QueryType::Occlusion;
  uint32_t count = 0;
  std::string label;
};

// Where write_texture puts its bytes.
struct TextureWrite {
  uint32_t mip_level = 0;
  gpu::Origin3D origin;
  gpu::Extent3D size;
  uint32_t bytes_per_row = 0;
  uint32_t rows_per_image = gpu::kCopyStrideUndefined;
  gpu::TextureAspect aspect = gpu::TextureAspect::All;
};

namespace detail {

// What each kind keeps besides the common record. Specialised where a kind has more to say.
template <typename Tag>
struct KindData {};
template <>
struct KindData<BufferTag> {
  gpu::Flags usage = 0;
  uint64_t size = 0;
};
template <>
struct KindData<TextureTag> {
  gpu::Flags usage = 0;
  gpu::Extent3D size;
  gpu::TextureFormat format = gpu::TextureFormat::Undefined;
  uint32_t mip_level_count = 1;
  uint32_t live_views = 0;  // views made through create_texture_view and not yet destroyed
};
template <>
struct KindData<TextureViewTag> {
  TextureHandle texture;  // null when adopted or imported without one
};
template <>
struct KindData<BindGroupLayoutTag> {
  // Known when made by create_bind_group_layout; create_bind_group checks usages against it.
  std::optional<std::vector<gpu::BindGroupLayoutEntry>> entries;
};
template <>
struct KindData<BindGroupTag> {
  // What the group binds: touching the group touches them (they are used by the same
  // submission, and destroying one before that submission retires would be the same hazard).
  std::vector<BufferHandle> buffers;
  std::vector<TextureViewHandle> views;
  std::vector<SamplerHandle> samplers;
};

template <typename Tag>
struct Record {
  std::string label;
  Ownership ownership = Ownership::Owned;
  Serial last_used;  // the last submission that used the object; 0: never used
  KindData<Tag> data;
};

template <typename Tag>
struct GpuType;
#define WARDEN_REGISTRY_GPU_TYPE(Name, snake) \
  template <>                                 \
  struct GpuType<Name##Tag> {                 \
    using type = gpu::Name;                   \
  };
WARDEN_RESOURCE_KINDS(WARDEN_REGISTRY_GPU_TYPE)
#undef WARDEN_REGISTRY_GPU_TYPE

template <typename Tag>
struct KindStore {
  using Object = typename GpuType<Tag>::type;
  KindStore(uint32_t capacity, uint32_t registry, uint32_t first_generation, uint32_t generation_limit)
      : pool(capacity, HandleLayout::owner_bits(Tag::kind, registry), generation_limit, first_generation) {}
  Pool<Object> pool;                 // hot: handle + object, what resolve reads
  // Cold, by slot index; grows with the pool's slots. A deque, so a label pointer handed out
  // stays valid while its object lives.
  std::deque<Record<Tag>> records;
};

}  // namespace detail

class Registry {
 public:
  template <typename Tag>
  using Object = typename detail::GpuType<Tag>::type;

  // `context`, `device` and `queue` must outlive the registry (it takes no reference on them).
  Registry(const gpu::Context& context, gpu::Device device, gpu::Queue queue,
           RegistryOptions options = {});
  // Runs shutdown(): whatever is still alive is reported and let go.
  ~Registry();
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  // ---- per kind: adopt, replace, destroy, resolve, label, touch ----------------------------
#define WARDEN_REGISTRY_PER_KIND(Name, snake)                                                   \
  /* Registers an object made elsewhere. Owned: takes over the caller's reference (released  \
     at once if the pool is full). Borrowed: takes a reference of its own, only on success. */ \
  Result<Name##Handle> adopt_##snake(gpu::Name object, std::string label,                      \
                                     Ownership ownership = Ownership::Owned) {                  \
    return adopt<Name##Tag>(object, std::move(label), ownership);                               \
  }                                                                                             \
  /* Swaps the object under the same handle; the old one is let go once its last use retired. \
     Takes `object` as the slot's ownership says; on error it stays the caller's. */            \
  Result<void> replace_##snake(Name##Handle handle, gpu::Name object) {                        \
    return replace<Name##Tag>(handle, object);                                                  \
  }                                                                                             \
  /* Kills the handle now; the GPU object goes when its last submission retired (owned: at  \
     the earliest when the submission being recorded now retired). */                          \
  Result<void> destroy_##snake(Name##Handle handle) { return destroy<Name##Tag>(handle); }    \
  Result<gpu::Name> resolve(Name##Handle handle) const { return resolve_hot<Name##Tag>(handle); } \
  /* Null when the handle is not live; valid while the object lives. */                        \
  const std::string* label(Name##Handle handle) const { return label_of<Name##Tag>(handle); }  \
  std::optional<Ownership> ownership(Name##Handle handle) const {                               \
    return ownership_of<Name##Tag>(handle);                                                     \
  }                                                                                             \
  bool is_alive(Name##Handle handle) const { return find<Name##Tag>(handle) != nullptr; }      \
  /* Marks use by the submission being recorded (clock.recording()). */                         \
  void touch(Name##Handle handle) { touch_impl<Name##Tag>(handle); }                            \
  Serial last_used(Name##Handle handle) const { return last_used_of<Name##Tag>(handle); }
  WARDEN_RESOURCE_KINDS(WARDEN_REGISTRY_PER_KIND)
#undef WARDEN_REGISTRY_PER_KIND

  // ---- create ----------------------------------------------------------------------------
  Result<BufferHandle> create_buffer(const BufferDesc& desc);
  Result<TextureHandle> create_texture(const TextureDesc& desc);
  // A view of a registered texture; destroy_texture refuses while it lives.
  Result<TextureViewHandle> create_texture_view(TextureHandle texture, const TextureViewDesc& desc = {});
  Result<SamplerHandle> create_sampler(const SamplerDesc& desc = {});
  Result<ShaderModuleHandle> create_shader_module(std::string_view wgsl, std::string label);
  Result<BindGroupLayoutHandle> create_bind_group_layout(std::span<const gpu::BindGroupLayoutEntry> entries,
                                                         std::string label);
  Result<PipelineLayoutHandle> create_pipeline_layout(std::span<const BindGroupLayoutHandle> layouts,
                                                      std::string label);
  // Refuses a buffer or texture whose usages do not allow the binding the layout declares.
  Result<BindGroupHandle> create_bind_group(const BindGroupDesc& desc);
  // The descriptor's raw objects are the caller's (resolve handles to fill it).
  Result<RenderPipelineHandle> create_render_pipeline(const gpu::RenderPipelineDescriptor& desc,
                                                      std::string label);
  Result<ComputePipelineHandle> create_compute_pipeline(const ComputePipelineDesc& desc);
  Result<QuerySetHandle> create_query_set(const QuerySetDesc& desc);

  // ---- imported views --------------------------------------------------------------------
  // Tracks a view the registry will never release (swapchain view, external target).
  Result<TextureViewHandle> import_texture_view(gpu::TextureView view, std::string label);
  // Drops an imported view's handle; refuses owned and borrowed views (use destroy).
  Result<void> forget_texture_view(TextureViewHandle handle);

  // ---- contracts and contents-only updates ----------------------------------------------
  // Error (MissingUsage) naming each usage in `needed` the object was not created with.
  Result<void> require_usage(BufferHandle handle, gpu::Flags needed) const;
  Result<void> require_usage(TextureHandle handle, gpu::Flags needed) const;
  // A view's usages are its texture's; a view without a known texture passes.
  Result<void> require_usage(TextureViewHandle handle, gpu::Flags needed) const;
  // Queue writes: never reallocate. Need CopyDst; the range must lie inside the object.
  Result<void> write_buffer(BufferHandle handle, uint64_t offset, const void* data, size_t size);
  Result<void> write_texture(TextureHandle handle, const TextureWrite& where, const void* data,
                             size_t size);

  // ---- submissions and retirement --------------------------------------------------------
  Serial submit(gpu::CommandBuffer commands) { return queue_clock_.submit(commands); }
  Serial submit(const gpu::CommandBuffer* commands, size_t count) {
    return queue_clock_.submit(commands, count);
  }
  // Non-blocking: drains retirement callbacks, then lets go of what retired.
  void poll();
  // Device loss or shutdown: no work can still run, neither submitted nor being recorded (a
  // command buffer of a lost device never executes); lets go of everything deferred.
  void assume_all_complete();
  QueueClock& queue_clock() { return queue_clock_; }
  const SubmissionClock& clock() const { return queue_clock_.clock(); }

  // ---- diagnostics -----------------------------------------------------------------------
  LiveCounts live_counts() const;
  // GPU objects whose handle is dead but whose last submission has not retired.
  size_t pending_release_count() const { return pending_.size(); }
  Diagnostics& diagnostics() { return diagnostics_; }
  const Diagnostics& diagnostics() const { return diagnostics_; }
  uint32_t id() const { return id_; }
  // The generation every slot's first occupant gets: above everything earlier registries with
  // this id issued (docs/adr/0002).
  uint32_t first_generation() const { return first_generation_; }
  const gpu::Procs& procs() const { return procs_; }
  gpu::Device device() const { return device_; }
  gpu::Queue queue() const { return queue_; }

  // Reports what is still alive (one gfx.resources warning, by kind and label), assumes all
  // work complete, and lets go of everything in kTeardownOrder. With nothing alive it does
  // nothing, so calling it again (or the destructor after it) is harmless.
  void shutdown();

 private:
  template <typename Tag>
  detail::KindStore<Tag>& store() {
    return std::get<detail::KindStore<Tag>>(stores_);
  }
  template <typename Tag>
  const detail::KindStore<Tag>& store() const {
    return std::get<detail::KindStore<Tag>>(stores_);
  }

  // The hot path: a bounds check and one compare of the whole handle (kind, registry, alive,
  // generation) against its slot. A failed resolve is built out of line, directly in the
  // caller's Result (stale_result), so the inlined path is the lookup, one branch and one call.
  template <typename Tag>
  const Object<Tag>* find(Handle<Tag> handle) const {
    return store<Tag>().pool.find(handle.bits());
  }
  template <typename Tag>
  Result<Object<Tag>> resolve_hot(Handle<Tag> handle) const {
    if (const Object<Tag>* object = find(handle)) [[likely]]
      return *object;
    return stale_result(handle);
  }

  template <typename Tag>
  Error stale_error(Handle<Tag> handle) const;
  // require_usage for the kinds whose usages warden records (buffers, textures).
  template <typename Tag>
  Result<void> require_recorded_usage(Handle<Tag> handle, gpu::Flags needed,
                                      std::string (*usage_names)(gpu::Flags)) const;
  template <typename Tag>
  [[gnu::cold]] Result<Object<Tag>> stale_result(Handle<Tag> handle) const;
  template <typename Tag>
  detail::Record<Tag>* record(Handle<Tag> handle);
  template <typename Tag>
  const detail::Record<Tag>* record(Handle<Tag> handle) const;
  template <typename Tag>
  Result<Handle<Tag>> adopt(Object<Tag> object, std::string label, Ownership ownership);
  template <typename Tag>
  Result<Handle<Tag>> insert(Object<Tag> object, std::string label, Ownership ownership,
                             detail::KindData<Tag> data);
  // Runs `make` (one device create call) under validation and out-of-memory error scopes and
  // registers what it made as owned. Dawn reports a rejected creation only to error scopes (it
  // returns an error object that looks like any other), so a rejection is caught here and
  // returned as a Validation error naming the call, the label and Dawn's words; the error
  // object is released and no handle is handed out.
  template <typename Tag, typename Make>
  Result<Handle<Tag>> create_owned(const char* call, std::string label, detail::KindData<Tag> data,
                                   Make&& make);
  // Pops the two scopes create_owned pushed; Dawn's message, empty when it accepted the call.
  std::string pop_creation_scopes();
  template <typename Tag>
  Result<void> replace(Handle<Tag> handle, Object<Tag> object);
  template <typename Tag>
  Result<void> destroy(Handle<Tag> handle);
  template <typename Tag>
  const std::string* label_of(Handle<Tag> handle) const;
  template <typename Tag>
  std::optional<Ownership> ownership_of(Handle<Tag> handle) const;
  template <typename Tag>
  void touch_impl(Handle<Tag> handle);
  template <typename Tag>
  Serial last_used_of(Handle<Tag> handle) const;
  // Ends the slot's occupant and lets go of (or defers) its GPU object.
  template <typename Tag>
  void end_occupant(Handle<Tag> handle);
  template <typename Tag>
  void let_go(Object<Tag> object, const detail::Record<Tag>& record, uint32_t index,
              uint32_t generation);
  // Returns whether wgpu*Destroy was called.
  template <typename Tag>
  bool release_now(Object<Tag> object, Ownership ownership);
  template <typename Tag>
  void release_all_live();

  // A GPU object whose handle is gone and whose last submission has not retired yet.
  struct PendingRelease {
    Serial release_after;  // last_used, or for owned objects at least the serial being recorded
    Serial last_used;
    ResourceKind kind = ResourceKind::None;
    void* object = nullptr;
    Ownership ownership = Ownership::Owned;
    uint32_t index = 0;
    uint32_t generation = 0;
    std::string label;
  };
  struct LaterFirst {
    bool operator()(const PendingRelease& a, const PendingRelease& b) const {
      return a.release_after > b.release_after;
    }
  };
  void drain_pending();
  void release_every_pending();
  uint32_t highest_generation_issued() const;
  void release_pending(const PendingRelease& pending);

  const gpu::Context& context_;
  const gpu::Procs& procs_;
  gpu::Device device_;
  gpu::Limits limits_;  // the device's, read once: create_* checks requests against them
  gpu::Queue queue_;
  uint32_t id_;
  uint32_t first_generation_;
  RegistryOptions options_;
  QueueClock queue_clock_;
  Diagnostics diagnostics_;
  std::tuple<
#define WARDEN_REGISTRY_STORE(Name, snake) detail::KindStore<Name##Tag>,
      WARDEN_RESOURCE_KINDS(WARDEN_REGISTRY_STORE)
#undef WARDEN_REGISTRY_STORE
          std::monostate>
      stores_;
  std::priority_queue<PendingRelease, std::vector<PendingRelease>, LaterFirst> pending_;
};

}  // namespace warden
