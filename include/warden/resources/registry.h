/// @file
/// Registry: custody of every GPU object of an application, behind generational typed handles,
/// across device generations.
///
/// One pool per kind (capacity fixed at creation). Each object has an owner (Ownership), a label,
/// the usages it was created with, and the serial of the last submission that used it. Destroying
/// or replacing an object kills its handle (or swaps it) at once; the GPU object itself is
/// released when that serial has retired, learned from onSubmittedWorkDone through a
/// non-blocking poll(). An owned object waits at least for the submission being recorded, touched
/// or not (docs/lifecycle-in-detail.md). Nothing here waits on the GPU. docs/lifecycle-in-detail.md walks an
/// object from create to release; docs/failure-policy.md says what each call does on bad input.
///
/// Device loss (docs/adr/0013, 0014). Every object made through create_* keeps its recipe: the
/// description it was made from. on_device_lost() lets go of every GPU object of the lost device
/// and marks its slot Lost; handles stay valid. rebuild() makes every object again on a new
/// device under the same handle, in dependency order (kTeardownOrder backwards), and restores
/// buffer and texture contents from where their description says they come from.
///
/// Threads: resolve() runs on any thread without a lock; the other calls any thread may make run
/// under the registry's lock; the frame-thread calls (submit, poll, assume_all_complete,
/// on_device_lost, rebuild, prepare_rebuild, discard_prepared, shutdown) are refused from
/// another thread where warden checks threads. The contract is in warden/core/frame_thread.h.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "warden/core/diagnostics.h"
#include "warden/core/handle.h"
#include "warden/core/pool.h"
#include "warden/core/result.h"
#include "warden/gpu/queue_clock.h"
#include "warden/resources/descriptions.h"
#include "warden/gpu/context.h"

namespace warden::resources {

/// Who ends an object's life.
enum class Ownership : uint8_t {
  Owned,     ///< warden destroys and releases it once its last submission retired
  Borrowed,  ///< the caller's; warden holds one reference of its own and releases only that
  Imported,  ///< texture views only (swapchain, external targets): tracked, never released
};
/// The name of `ownership` as messages print it ("owned", "borrowed", "imported").
const char* to_string(Ownership ownership);

/// What the registry knows of one kind besides its name (WARDEN_RESOURCE_KINDS).
struct ResourceKindFacts {
  /// The kind.
  ResourceKind kind = ResourceKind::None;
  /// It owns GPU memory that wgpu*Destroy frees at once (buffers, textures, query sets): an owned
  /// one is destroyed, not only released, when the registry lets go of it.
  bool has_destroy = false;
};

/// Every kind's facts in one table, in the order teardown walks (a rebuild after loss walks it
/// backwards): users of an object go before the object they use.
inline constexpr std::array<ResourceKindFacts, kResourceKindCount> kResourceKindTable = {{
    {ResourceKind::RenderBundle, false},  // records pipelines, bind groups and buffers: made last
    {ResourceKind::BindGroup, false},
    {ResourceKind::RenderPipeline, false},
    {ResourceKind::ComputePipeline, false},
    {ResourceKind::PipelineLayout, false},
    {ResourceKind::BindGroupLayout, false},
    {ResourceKind::ShaderModule, false},
    {ResourceKind::TextureView, false},
    {ResourceKind::Sampler, false},
    {ResourceKind::QuerySet, true},
    {ResourceKind::Texture, true},
    {ResourceKind::Buffer, true},
}};

/// The kinds of kResourceKindTable, in its (teardown) order.
inline constexpr std::array<ResourceKind, kResourceKindCount> kTeardownOrder = [] {
  std::array<ResourceKind, kResourceKindCount> order{};
  for (size_t i = 0; i < order.size(); ++i) order[i] = kResourceKindTable[i].kind;
  return order;
}();

/// `kind`'s row of kResourceKindTable; kind must not be None.
constexpr const ResourceKindFacts& facts_of(ResourceKind kind) {
  for (const ResourceKindFacts& facts : kResourceKindTable) {
    if (facts.kind == kind) return facts;
  }
  return kResourceKindTable[0];  // unreachable: the table holds every kind (checked below)
}
static_assert([] {
  std::array<int, kResourceKindCount> seen{};
  for (const ResourceKindFacts& facts : kResourceKindTable) {
    if (facts.kind == ResourceKind::None) return false;
    ++seen[kind_index(facts.kind)];
  }
  for (int count : seen) {
    if (count != 1) return false;
  }
  return true;
}(), "kResourceKindTable lists every kind exactly once");

/// Told about every GPU object the registry lets go of (after deferral), for tests and tools.
/// An object made and then refused because its pool was full is reported with generation 0; a
/// creation while the device is lost, or one waiting for the frame thread, has made none and
/// reports nothing.
struct ReleaseEvent {
  /// The kind of the object let go.
  ResourceKind kind = ResourceKind::None;
  /// Its slot in the kind's pool.
  uint32_t index = 0;
  /// The generation its handle carried; 0 when the pool was full and it never had a handle.
  uint32_t generation = 0;
  const void* object = nullptr;  ///< identity only: the object is already released
  std::string_view label{};  ///< valid during the call only
  /// Who owned it, which says whether warden released and destroyed it.
  Ownership ownership = Ownership::Owned;
  Serial last_used{};     ///< the last submission that used the object
  Serial retired{};       ///< the clock's retired serial when it was let go
  bool destroyed = false;  ///< wgpu*Destroy was called (owned buffers, textures, query sets)
};

/// What a slot holds (docs/adr/0014). A handle to a Lost or Failed slot is still valid: it names
/// the object, which has no GPU object behind it now. resolve() says why.
enum class SlotState : uint8_t {
  Live,    ///< a GPU object of the current device
  Lost,    ///< its device is gone; the next rebuild makes it again (or its owner re-supplies it)
  Failed,  ///< the rebuild could not make it again: the device's words are kept
  /// Created from a thread other than the frame thread on a device that takes calls on one
  /// thread (Dawn's GL and GLES); the frame thread's next poll() makes it (docs/threads.md).
  Waiting,
};
/// The name of `state` as messages print it ("live", "lost", "failed", "waiting").
const char* to_string(SlotState state);

/// How a rebuild writes kept texture contents onto the new device (docs/adr/0058).
enum class ContentsUpload : uint8_t {
  /// The faster of the two as measured on that device (Registry::set_measured_upload; the Engine
  /// measures its standby device), else as the backend has been measured: Staging on Vulkan,
  /// D3D12 and Metal, WriteTexture on GL, GLES and Null.
  Auto,
  /// queue.writeTexture for each kept subresource.
  WriteTexture,
  /// The kept texels copied into mapped staging buffers, then into the textures by one
  /// submission (the upload ring's path); depth, stencil and block-compressed subresources still
  /// go by writeTexture.
  Staging,
};
/// "auto", "write-texture" or "staging".
const char* to_string(ContentsUpload upload);

/// How a Registry is sized and what it reports; read once, at construction.
struct RegistryOptions {
#define WARDEN_REGISTRY_CAPACITY_FIELD(Name, snake) uint32_t snake##_capacity = 4096;
  WARDEN_RESOURCE_KINDS(WARDEN_REGISTRY_CAPACITY_FIELD)
#undef WARDEN_REGISTRY_CAPACITY_FIELD
  /// How many generations a slot may carry before it is exhausted (docs/adr/0002), counted from
  /// the registry's first generation and never past HandleLayout::kMaxGeneration. Only tests
  /// lower it, to reach the rule in a few steps.
  uint32_t generation_limit = HandleLayout::kMaxGeneration;
  /// Called for every GPU object the registry lets go of; may be empty. Runs inside the registry's
  /// call (poll, destroy, replace, shutdown, a loss) once that call has settled the slot, so it
  /// may call the registry again: a creation may take the slot just freed. While shutdown lets
  /// go of every object, a creation or adoption from it is refused (CreatedWhileReleasingAll).
  std::function<void(const ReleaseEvent&)> on_release{};
  /// The device generation the registry starts on, named in "device lost" errors.
  uint64_t device_generation = 1;
  /// Where the registry reports; null: a Diagnostics of its own. An Engine passes its one
  /// Diagnostics here, so that every layer reports into the same place. Must outlive the registry.
  Diagnostics* diagnostics = nullptr;
  /// How a rebuild writes kept texture contents back (ContentsUpload::Auto: the faster path).
  ContentsUpload contents_upload = ContentsUpload::Auto;

  /// Every kind gets `capacity` slots.
  static RegistryOptions uniform(uint32_t capacity);
  /// The slot count of `kind`'s pool (its `<kind>_capacity` field).
  uint32_t capacity(ResourceKind kind) const;
};

/// Per-kind live object counts.
struct LiveCounts {
  /// Live objects of each kind, indexed by kind_index().
  std::array<uint32_t, kResourceKindCount> by_kind{};
  /// Bytes of buffer and texture contents the registry keeps to restore after a loss.
  uint64_t kept_content_bytes = 0;
  /// Objects whose handle was destroyed while the recipe of a live object (or of another one
  /// kept so) still named it: a pipeline's shader module or layout, a bind group's buffer, view,
  /// sampler or layout, a view's texture, what a render bundle recorded. Kept until the last
  /// recipe that names it goes, so that what names it works and is made again after a loss
  /// (docs/adr/0049); not in `by_kind` (their handles are dead).
  uint32_t kept_for_dependents = 0;
  /// Live objects of `kind`.
  uint32_t of(ResourceKind kind) const { return by_kind[kind_index(kind)]; }
  /// Live objects of every kind together.
  uint32_t total() const;
};

class Registry;
class RegistryImpl;

namespace detail {

// What each kind is made from: the description create_* took, replayed by rebuild().
template <typename Tag>
struct RecipeOf;
template <> struct RecipeOf<BufferTag> { using type = BufferDescription; };
template <> struct RecipeOf<TextureTag> { using type = TextureDescription; };
template <> struct RecipeOf<TextureViewTag> { using type = TextureAndViewDescription; };
template <> struct RecipeOf<SamplerTag> { using type = SamplerDescription; };
template <> struct RecipeOf<ShaderModuleTag> { using type = ShaderModuleDescription; };
template <> struct RecipeOf<BindGroupLayoutTag> { using type = BindGroupLayoutDescription; };
template <> struct RecipeOf<PipelineLayoutTag> { using type = PipelineLayoutDescription; };
template <> struct RecipeOf<BindGroupTag> { using type = BindGroupDescription; };
template <> struct RecipeOf<RenderPipelineTag> { using type = RenderPipelineDescription; };
template <> struct RecipeOf<ComputePipelineTag> { using type = ComputePipelineDescription; };
template <> struct RecipeOf<QuerySetTag> { using type = QuerySetDescription; };
template <> struct RecipeOf<RenderBundleTag> { using type = RenderBundleDescription; };
template <typename Tag>
using Recipe = typename RecipeOf<Tag>::type;

template <typename Tag>
struct GpuType;
#define WARDEN_REGISTRY_GPU_TYPE(Name, snake) \
  template <>                                 \
  struct GpuType<Name##Tag> {                 \
    using type = WGPU##Name;                   \
  };
WARDEN_RESOURCE_KINDS(WARDEN_REGISTRY_GPU_TYPE)
#undef WARDEN_REGISTRY_GPU_TYPE

}  // namespace detail

/// What a rebuild could not give back as it was, for the application (docs/adr/0013). A listed
/// object came back zeroed, unless it is listed again in `*_with_kept_bytes`.
struct ContentsLost {
  /// Buffers whose contents are not what they were: ContentsSource::None; those the GPU may have
  /// written (Storage, QueryResolve or MapRead usage); one made `mapped_at_creation` and not
  /// unmapped through Registry::unmap_buffer.
  std::vector<BufferHandle> buffers{};
  /// Textures whose contents are not what they were: ContentsSource::None; those the GPU may
  /// have written (RenderAttachment or StorageBinding usage).
  std::vector<TextureHandle> textures{};
  /// Of `buffers`, those that hold the bytes last written through warden (write_buffer,
  /// unmap_buffer), written back from their kept copy: what the GPU wrote into them since is
  /// not there. The others came back zeroed.
  std::vector<BufferHandle> buffers_with_kept_bytes{};
  /// Of `textures`, those whose subresources written through write_texture hold the texels last
  /// written so (the rest of them zeroed): what the GPU wrote since is not there.
  std::vector<TextureHandle> textures_with_kept_bytes{};
  /// True when nothing was lost.
  bool empty() const { return buffers.empty() && textures.empty(); }
};

/// Where a rebuild() spent its time, in wall-clock milliseconds on the calling thread: measured
/// by the registry as it works, so an application (or a benchmark) reads the breakdown of a
/// recovery instead of guessing it. The parts add up to at most total_ms.
struct RebuildTimings {
  /// Making each kind's objects again, by kind_index(); their contents are not in it.
  std::array<double, kResourceKindCount> kind_ms{};
  /// Writing kept buffer and texture contents into the new objects (queue writes, and the
  /// staging copies' submission).
  double contents_ms = 0;
  /// The path kept texture contents took (RegistryOptions::contents_upload, Auto resolved).
  ContentsUpload contents_upload = ContentsUpload::WriteTexture;
  /// Bytes of kept texture contents that went through staging buffers.
  uint64_t staged_bytes = 0;
  /// Of those, the bytes staged on the spare ahead of the loss (Registry::prepare_rebuild's
  /// `contents_bytes`): only copied by the rebuild.
  uint64_t staged_ahead_bytes = 0;
  /// The application's refill callbacks (ContentsSource::Callback).
  double refills_ms = 0;
  /// The whole rebuild() call.
  double total_ms = 0;

  /// The time `kind`'s objects took to be made again.
  double of(ResourceKind kind) const { return kind_ms[kind_index(kind)]; }
  /// Render and compute pipelines together.
  double pipelines_ms() const { return of(ResourceKind::RenderPipeline) + of(ResourceKind::ComputePipeline); }
};

/// What Registry::rebuild did: how much it made again, what came back empty, what failed and what
/// waits for its owner, and how long each part took.
struct RebuildReport {
  /// The device generation the registry is on now.
  uint64_t generation = 0;
  uint32_t rebuilt = 0;  ///< objects made again on the new device
  /// Buffers and textures whose contents are not what they were: ContentsSource::None (zeroed);
  /// those the GPU may have written (render targets, storage, readback buffers: zeroed, or the
  /// bytes last written through warden, which ContentsLost lists again); a buffer mapped at
  /// creation and not unmapped through unmap_buffer (zeroed).
  ContentsLost contents_lost{};
  /// "<kind> \"<label>\": <the device's words>", one per slot that is now Failed.
  std::vector<std::string> failed{};
  /// Adopted and borrowed objects still Lost: warden has no recipe; their owner re-supplies them
  /// with replace_*. By label; report_awaiting_owner() names those still Lost later.
  std::vector<std::string> awaiting_owner{};
  /// Objects taken from prepare_rebuild() instead of made (counted in `rebuilt` too).
  uint32_t prepared_taken = 0;
  /// How long each part of the rebuild took.
  RebuildTimings timings{};
};

/// What prepare_rebuild() drew on the prepared device (docs/adr/0044). Where the device's draws
/// make code (Dawn's GL and GLES backends: the GL driver compiles a program for the state bound
/// at its first draw in each context), every prepared render pipeline draws a triangle into
/// stand-in attachments once for each distinct state of the bind groups made with its layouts
/// (formats, dimensions and samplers alike, a few texels each), so that the first frame after a
/// rebuild onto that device finds the code made. Elsewhere nothing is drawn.
struct DrawRehearsal {
  uint32_t draws = 0;      ///< triangles drawn
  uint32_t pipelines = 0;  ///< render pipelines that drew
  /// Prepared render pipelines that did not: an "auto" layout, a bind group layout no live
  /// bind group uses, only groups whose stand-ins would be large (or block-compressed), or a
  /// rehearsal the device refused.
  uint32_t pipelines_skipped = 0;
  /// What the device said of the first pipeline's rehearsal it refused (each pipeline is its own
  /// submission: the others still drew). Never the application's error: it reaches no handler.
  std::string error{};
};

/// What a render bundle's record callback records with: the bundle's encoder, the proc table, and
/// resolve() for the handles its commands use. Only the registry makes one, for one call of the
/// callback; the encoder is finished into the bundle when the callback returns.
class RenderBundleRecording {
 public:
  RenderBundleRecording(const RenderBundleRecording&) = delete;
  RenderBundleRecording& operator=(const RenderBundleRecording&) = delete;

  /// The encoder the commands go into (RenderBundleEncoderSetPipeline, ...Draw, ...).
  WGPURenderBundleEncoder encoder() const { return encoder_; }
  /// The proc table to record with.
  const gpu::Procs& procs() const { return procs_; }
  /// The bundle's label.
  const std::string& label() const { return label_; }
  /// The object behind `handle` on the device being recorded for, as Registry::resolve gives it.
  /// A handle that is stale, or whose object is not back after a loss, fails here, and the
  /// bundle fails with that error even if the callback goes on. Touching the bundle touches
  /// every object resolved here (a submission that executes the bundle uses them).
  template <typename Tag>
  Result<typename detail::GpuType<Tag>::type> resolve(Handle<Tag> handle);

 private:
  friend class RegistryImpl;
  RenderBundleRecording(Registry& registry, const gpu::Procs& procs, WGPURenderBundleEncoder encoder,
                        const std::string& label)
      : registry_(registry), procs_(procs), encoder_(encoder), label_(label) {}

  Registry& registry_;
  const gpu::Procs& procs_;
  WGPURenderBundleEncoder encoder_;
  const std::string& label_;
  std::optional<Error> failure_{};  // the first resolve that failed
  std::vector<std::pair<ResourceKind, uint64_t>> used_{};  // what resolved, by kind and handle bits
};

/// Custody of GPU objects behind generational handles across device generations (see above); a
/// facade: the pools resolve() reads are here, the rest in src/resources/registry_impl.h.
class Registry {
 public:
  template <typename Tag>
  /// The webgpu.h object type of handle tag `Tag` (WGPUBuffer for BufferTag, ...).
  using Object = typename detail::GpuType<Tag>::type;

  /// `context`, `device` and `queue` must outlive the registry (it takes no reference on them).
  Registry(const gpu::Context& context, WGPUDevice device, WGPUQueue queue,
           RegistryOptions options = {});
  /// Runs shutdown(): whatever is still alive is reported and let go.
  ~Registry();
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  // ---- per kind: adopt, replace, destroy, resolve, label, touch ----------------------------
#define WARDEN_REGISTRY_PER_KIND(Name, snake)                                                   \
  /* Registers an object made elsewhere. Owned: takes over the caller's reference (released  \
     at once if the pool is full). Borrowed: takes a reference of its own, only on success. */ \
  Result<Name##Handle> adopt_##snake(WGPU##Name object, std::string label,                      \
                                     Ownership ownership = Ownership::Owned);                   \
  /* Swaps the object under the same handle; the old one is let go once its last use retired. \
     Takes `object` as the slot's ownership says; on error it stays the caller's. */            \
  Result<void> replace_##snake(Name##Handle handle, WGPU##Name object);                         \
  /* Kills the handle now; the GPU object goes when its last submission retired (owned: at  \
     the earliest when the submission being recorded now retired). While another object's   \
     recipe names it (a pipeline its module), it is kept for that one, and goes once the last \
     such recipe goes (LiveCounts::kept_for_dependents, docs/adr/0049). */                     \
  Result<void> destroy_##snake(Name##Handle handle);                                            \
  /* The live GPU object, or an error: stale handle, or (DeviceFailed) its slot is Lost or   \
     Failed, which names the device generation or the device's words. */                      \
  Result<WGPU##Name> resolve(Name##Handle handle) const { return resolve_hot<Name##Tag>(handle); } \
  /* Live, Lost or Failed; nullopt when the handle is not valid. */                            \
  std::optional<SlotState> slot_state(Name##Handle handle) const;                               \
  /* Null when the handle is not live; valid while the object lives. */                        \
  const std::string* label(Name##Handle handle) const;                                          \
  /* Who ends the object's life; nullopt when the handle is not valid. */                       \
  std::optional<Ownership> ownership(Name##Handle handle) const;                                \
  /* True while the handle is valid: not destroyed, though its slot may be Lost or Failed. */   \
  bool is_alive(Name##Handle handle) const {                                                   \
    return std::get<kind_index(ResourceKind::Name)>(pools_).contains(handle.bits());             \
  }                                                                                             \
  /* A copy of what a rebuild makes the object from, taken under the registry's lock (a       \
     recreate_* or replace_* on another thread rewrites the recipe itself); nullopt when it has \
     none (adopted, imported, replaced by the caller's object) or the handle is not valid. */   \
  std::optional<detail::Recipe<Name##Tag>> recipe(Name##Handle handle) const;                   \
  /* Marks use by the submission being recorded (clock.recording()). */                         \
  void touch(Name##Handle handle);                                                              \
  /* The last submission that used the object; Serial{} if none or the handle is not valid. */  \
  Serial last_used(Name##Handle handle) const;
  WARDEN_RESOURCE_KINDS(WARDEN_REGISTRY_PER_KIND)
#undef WARDEN_REGISTRY_PER_KIND

  // ---- create ----------------------------------------------------------------------------
  /// Makes an owned buffer. InvalidArgument names what is wrong (size 0, no usage, a Callback
  /// source without refill, a size over the device's limit); Validation carries the device's words;
  /// DeviceFailed while the device is lost; PoolFull when the kind's pool is.
  Result<BufferHandle> create_buffer(const BufferDescription& desc);
  /// Makes an owned texture. InvalidArgument names what is wrong (a zero dimension, mip or sample
  /// count, no usage, a Callback source without refill, a size over the device's limits); otherwise
  /// errors as create_buffer's.
  Result<TextureHandle> create_texture(const TextureDescription& desc);
  /// A view of a registered texture; destroy_texture refuses while it lives.
  Result<TextureViewHandle> create_texture_view(TextureHandle texture, const TextureViewDescription& desc = {});
  /// Makes an owned sampler. Validation carries the device's words; DeviceFailed while the device
  /// is lost.
  Result<SamplerHandle> create_sampler(const SamplerDescription& desc = {});
  /// Compiles WGSL into an owned shader module whose recipe keeps the source; Validation carries
  /// the compiler's words. The second form takes the source and label alone.
  ///@{
  Result<ShaderModuleHandle> create_shader_module(ShaderModuleDescription desc);
  Result<ShaderModuleHandle> create_shader_module(std::string_view wgsl, std::string label) {
    return create_shader_module(ShaderModuleDescription{std::string(wgsl), std::move(label), {}});
  }
  ///@}
  /// Makes an owned bind group layout from `entries`; create_bind_group checks bindings against
  /// them. Each entry's chain is copied into the recipe (ChainCopy); InvalidArgument
  /// (ChainStructNotKept) names an entry whose chain holds a struct that cannot be kept.
  /// Validation carries the device's words.
  Result<BindGroupLayoutHandle> create_bind_group_layout(std::span<const WGPUBindGroupLayoutEntry> entries,
                                                         std::string label);
  /// Makes an owned pipeline layout of registered bind group layouts, in group order; a stale
  /// handle is an error naming it.
  Result<PipelineLayoutHandle> create_pipeline_layout(std::span<const BindGroupLayoutHandle> layouts,
                                                      std::string label);
  /// Refuses a buffer or texture whose usages do not allow the binding the layout declares.
  Result<BindGroupHandle> create_bind_group(const BindGroupDescription& desc);
  /// Makes an owned render pipeline whose modules and layouts are registered handles; an error
  /// names a stale handle or carries the device's words.
  Result<RenderPipelineHandle> create_render_pipeline(const RenderPipelineDescription& description);
  /// Makes an owned compute pipeline; errors as create_render_pipeline's.
  Result<ComputePipelineHandle> create_compute_pipeline(const ComputePipelineDescription& description);
  /// Makes an owned query set; InvalidArgument when `count` is 0 or over WebGPU's limit of queries
  /// per set.
  Result<QuerySetHandle> create_query_set(const QuerySetDescription& desc);
  /// Makes an owned render bundle: a bundle encoder for `desc`'s attachments, `desc.record`
  /// called on it, the encoder finished (docs/adr/0039). InvalidArgument
  /// (RenderBundleNoRecord) without a record callback; the callback's error, or the first of its
  /// resolves that failed, as RenderBundleRecordFailed naming the bundle; Validation carries the
  /// device's words about the commands; RenderBundleRecordReentered when called from inside a
  /// record callback.
  Result<RenderBundleHandle> create_render_bundle(const RenderBundleDescription& desc);
  /// Calls the bundle's record callback again on the current device and puts the new bundle under
  /// the same handle; the old one is let go as replace_* lets it go. A bundle keeps the objects
  /// it recorded, not their handles: call this after replacing what it resolved under its handle
  /// (a hot-reloaded pipeline, a recreate_buffer or recreate_texture, or a bind group made again
  /// by one), or the bundle goes on drawing with the old objects. A Lost or Failed bundle is
  /// made live this way too. Errors: a stale handle; Refused (RenderBundleNoRecipe) for a bundle
  /// warden has no recipe for (adopted or replaced); create_render_bundle's, and then the old
  /// bundle stays.
  Result<void> rerecord_render_bundle(RenderBundleHandle handle);

  // ---- a new object from a new recipe, under the same handle ------------------------------
  /// Makes a new owned texture from `desc` under `handle` (a render target's resize), then makes
  /// again from their recipes every view made of it with create_texture_view and every bind
  /// group that binds one of those views, each under its own handle: whoever holds any of them
  /// sees the new objects. The old objects are let go as replace_* lets them go. `desc` becomes
  /// the slot's recipe, so a rebuild after a device loss makes the new texture (docs/adr/0024).
  /// The new texture starts zeroed (bytes kept for the old one are dropped); the handle's label
  /// stays. A Lost or Failed slot is made live this way too. Errors: a stale handle; Refused
  /// (RecreateNotOwned) for a borrowed texture; create_texture's for `desc`, and then nothing
  /// changed; DeviceFailed (RecreateDependentFailed) when the texture was made but the device
  /// refused a view or group made again: that one is Failed with the device's words, as after a
  /// rebuild.
  Result<void> recreate_texture(TextureHandle handle, const TextureDescription& desc);
  /// The same for a buffer (a buffer that grows): a new owned buffer from `desc` under `handle`,
  /// and again every bind group that binds it. Errors as recreate_texture's, create_buffer's for
  /// `desc`.
  Result<void> recreate_buffer(BufferHandle handle, const BufferDescription& desc);
  /// Reports each object that is Lost and has no recipe (adopted, borrowed, or replaced by the
  /// caller's own object) as one gfx.resources warning (SlotAwaitsOwner) naming its kind, label,
  /// handle and the replace_* call that re-supplies it; returns how many. After a rebuild such an
  /// object resolves to an error until its owner re-supplies it, so a frame that uses it fails.
  /// The Engine calls it once a rebuild's owners had their say, before on_ready.
  size_t report_awaiting_owner();

  // ---- objects made elsewhere from a recipe ------------------------------------------------
  /// For the layers that make an object themselves (the shader manager compiles with its
  /// diagnostics; the pipeline library and hot reload build off the frame thread) and vouch
  /// that `recipe` describes it. adopt_*: registered as Owned with that recipe, so a rebuild
  /// makes it again. replace_*: swapped in under the same handle (the old object deferred as
  /// replace_* above), and `recipe` becomes the slot's recipe.
  ///@{
  Result<ShaderModuleHandle> adopt_shader_module(WGPUShaderModule module, ShaderModuleDescription recipe);
  Result<RenderPipelineHandle> adopt_render_pipeline(WGPURenderPipeline pipeline, RenderPipelineDescription recipe);
  Result<ComputePipelineHandle> adopt_compute_pipeline(WGPUComputePipeline pipeline, ComputePipelineDescription recipe);
  Result<void> replace_shader_module(ShaderModuleHandle handle, WGPUShaderModule module, ShaderModuleDescription recipe);
  Result<void> replace_render_pipeline(RenderPipelineHandle handle, WGPURenderPipeline pipeline,
                                       RenderPipelineDescription recipe);
  Result<void> replace_compute_pipeline(ComputePipelineHandle handle, WGPUComputePipeline pipeline,
                                        ComputePipelineDescription recipe);
  ///@}
  // ---- imported views --------------------------------------------------------------------
  /// Tracks a view the registry will never release (swapchain view, external target).
  Result<TextureViewHandle> import_texture_view(WGPUTextureView view, std::string label);
  /// Drops an imported view's handle; refuses owned and borrowed views (use destroy).
  Result<void> forget_texture_view(TextureViewHandle handle);

  // ---- contracts and contents-only updates ----------------------------------------------
  /// Error (MissingUsage) naming each usage in `needed` the object was not created with.
  ///@{
  Result<void> require_usage(BufferHandle handle, WGPUBufferUsage needed) const;
  Result<void> require_usage(TextureHandle handle, WGPUTextureUsage needed) const;
  ///@}
  /// A view's usages are its texture's; a view without a known texture passes.
  Result<void> require_usage(TextureViewHandle handle, WGPUTextureUsage needed) const;
  /// Queue writes: never reallocate. Need CopyDst; the range must lie inside the object.
  Result<void> write_buffer(BufferHandle handle, uint64_t offset, const void* data, size_t size);
  /// Unmaps a buffer. For one made with `mapped_at_creation` and ContentsSource::Kept, what the
  /// caller wrote through that mapping (wgpuBufferGetMappedRange) is kept first, as write_buffer
  /// keeps its bytes: a rebuild after a loss writes it back (through a mapping again, so the
  /// buffer needs no CopyDst). Errors: a stale handle; DeviceFailed while its slot is Lost or
  /// Failed; InvalidArgument (UnmapBufferNotMapped) when it is not mapped; WrongThread from
  /// another thread on GL and GLES, where the mapping was made on the frame thread.
  Result<void> unmap_buffer(BufferHandle handle);
  /// Writes `size` bytes of `data` into the region `where` names. Needs CopyDst; InvalidArgument
  /// names an empty region, a mip level the texture lacks, a region outside the level, or no data.
  Result<void> write_texture(TextureHandle handle, const TextureWrite& where, const void* data,
                             size_t size);

  // ---- submissions and retirement --------------------------------------------------------
  /// While the device is lost nothing is submitted (a gfx.resources warning says so) and
  /// Serial{} is returned: the command buffers were recorded on a device that is gone.
  ///@{
  Serial submit(WGPUCommandBuffer commands) { return submit(&commands, 1); }
  Serial submit(const WGPUCommandBuffer* commands, size_t count);
  ///@}
  /// Non-blocking: drains retirement callbacks, then lets go of what retired.
  void poll();
  /// Device loss or shutdown: no work can still run, neither submitted nor being recorded (a
  /// command buffer of a lost device never executes); lets go of everything deferred.
  void assume_all_complete();
  /// The one clock of every device generation: a rebuild rebinds it to the new queue, serials
  /// go on counting (QueueClock::rebind), so references to it stay valid across losses.
  gpu::QueueClock& queue_clock();
  /// The serials of the queue clock: the one being recorded and the newest retired.
  const SubmissionClock& clock() const;

  // ---- device generations (docs/adr/0013, 0014) -------------------------------------------
  /// The device is gone: every GPU object is let go now (pending releases too), every owned or
  /// borrowed slot becomes Lost under the same handle, imported views are forgotten (their
  /// handles die). Until rebuild(), calls that need the device return a DeviceFailed error
  /// "device lost (device generation N), rebuilding"; destroy_*, label, is_alive, touch and
  /// live_counts work as before. A second call does nothing.
  void on_device_lost();
  /// Makes every Lost object with a recipe again on `device`, under the same handle, in
  /// dependency order, restores contents (kept bytes now, refill callbacks once every object is
  /// made) and reports what could not be restored. `device` and `queue` must outlive their use
  /// by the registry (it takes no reference). Called on a live registry it first does
  /// on_device_lost(). A loss reported from inside a refill callback ends the rebuild there.
  RebuildReport rebuild(WGPUDevice device, WGPUQueue queue, uint64_t generation);
  /// Makes on `device`, ahead of a rebuild onto it, what that rebuild would make of the kinds
  /// that hold no memory of their own: shader modules, bind group layouts, pipeline layouts,
  /// render and compute pipelines (docs/adr/0034: the engine's standby device). The next
  /// rebuild() onto `device` takes them instead of making them; one onto another device
  /// releases them. What was prepared before is released first. Everything prepared is released
  /// as soon as any object is replaced or made again under its handle (a hot reload, a
  /// recreate): it may be made of what changed. Objects made after this call are made by the
  /// rebuild. With `texture_bytes` above 0 it also makes the textures that have recipes, in
  /// creation order, each that still fits within that many bytes (docs/adr/0045): the rebuild
  /// then only writes their kept contents into them; they are a second copy of each held while
  /// `device` waits. Where that device's draws make code (GL), it then rehearses the draws
  /// (last_rehearsal()). With `contents_bytes` above 0, and where a rebuild onto `device` would
  /// write kept texture contents through staging buffers (ContentsUpload::Staging, docs/adr/0058),
  /// it also copies the kept texture contents, in creation order and up to that many bytes, into
  /// staging buffers mapped on `device`: the rebuild only copies from them what was not written
  /// since. Returns how many objects it made (one the device refuses is left to the rebuild).
  size_t prepare_rebuild(WGPUDevice device, uint64_t texture_bytes = 0, uint64_t contents_bytes = 0);
  /// The device of the last prepare_rebuild(), until a rebuild or discard_prepared() let go of
  /// what it made (then null).
  WGPUDevice prepared_device() const;
  /// How many prepared objects wait for a rebuild onto prepared_device().
  size_t prepared_count() const;
  /// The bytes of the prepared textures among them (within prepare_rebuild's budget).
  uint64_t prepared_texture_bytes() const;
  /// The bytes of kept texture contents staged on prepared_device() (within prepare_rebuild's
  /// `contents_bytes`, or stage_prepared_contents()'s `budget`).
  uint64_t prepared_contents_bytes() const;
  /// Stages more kept texture contents on prepared_device(): those not staged there yet, in
  /// creation order, while the staged total stays within `budget` bytes, at most `step` bytes
  /// in this call (one subresource larger than `step` goes alone). Only where a rebuild onto
  /// that device would write them through staging buffers (ContentsUpload::Staging). Returns
  /// the bytes staged now: 0 once nothing more fits, or with nothing prepared. The engine calls
  /// it a step a poll after preparing its spare (docs/adr/0058), so that no frame pays for it all.
  uint64_t stage_prepared_contents(uint64_t budget, uint64_t step);
  /// What the last prepare_rebuild() drew on its device to make the draw-time code there.
  DrawRehearsal last_rehearsal() const;
  /// Releases every prepared object (their device goes elsewhere).
  void discard_prepared();
  /// What was measured faster on `device` for kept contents (WriteTexture or Staging): a
  /// rebuild onto `device` under ContentsUpload::Auto takes that path. The Engine measures its
  /// standby device when it prepares it (tiles::measure_upload_paths).
  void set_measured_upload(WGPUDevice device, ContentsUpload faster);
  /// True between on_device_lost() and the next rebuild().
  bool device_lost() const;
  /// The device generation the registry's objects belong to (RegistryOptions::device_generation,
  /// then each rebuild's).
  uint64_t device_generation() const;

  // ---- diagnostics -----------------------------------------------------------------------
  /// How many objects of each kind have a live handle, and the bytes of contents kept for a
  /// rebuild.
  LiveCounts live_counts() const;
  /// GPU objects whose handle is dead but whose last submission has not retired.
  size_t pending_release_count() const;
  /// Where the registry reports (gfx.resources): leaked objects at shutdown, submits while lost,
  /// rebuild failures.
  ///@{
  Diagnostics& diagnostics();
  const Diagnostics& diagnostics() const;
  ///@}
  /// The registry's number, carried in every handle it issues, so a handle of another registry is
  /// refused.
  uint32_t id() const;
  /// The generation every slot's first occupant gets: above everything earlier registries with
  /// this id issued (docs/adr/0002).
  uint32_t first_generation() const;
  /// The proc table of the context the registry was made with.
  const gpu::Procs& procs() const;
  /// The current device (after a rebuild, the new one); the registry holds no reference on it.
  WGPUDevice device() const;
  /// The current device's queue; the registry holds no reference on it.
  WGPUQueue queue() const;

  /// Reports what is still alive (one gfx.resources warning, by kind and label), assumes all
  /// work complete, and lets go of everything in kTeardownOrder. With nothing alive it does
  /// nothing, so calling it again (or the destructor after it) is harmless.
  void shutdown();

  /// Makes the calling thread the registry's frame thread (it was the thread that made it).
  void adopt_frame_thread();

 private:
  friend class RegistryImpl;  // src/resources/registry_impl.h: everything but the pools
  friend class RenderBundleRecording;
  // A record callback's resolve that the pools refused: while the bundle is made again, the object
  // of a destroyed handle kept for it (docs/adr/0049); otherwise the same error.
#define WARDEN_REGISTRY_RESOLVE_FOR_RECORDING(Name, snake) \
  Result<WGPU##Name> resolve_for_recording(Name##Handle handle) const;
  WARDEN_RESOURCE_KINDS(WARDEN_REGISTRY_RESOLVE_FOR_RECORDING)
#undef WARDEN_REGISTRY_RESOLVE_FOR_RECORDING
  /// One Pool per kind, in kind order: what resolve() reads.
  using Pools = std::tuple<
#define WARDEN_REGISTRY_POOL(Name, snake) Pool<WGPU##Name>,
      WARDEN_RESOURCE_KINDS(WARDEN_REGISTRY_POOL)
#undef WARDEN_REGISTRY_POOL
          std::monostate>;

  // The hot path, on any thread and without a lock (Pool::load): the slot's object and key, one
  // compare of the whole handle (kind, registry, alive, generation) against the key. A Lost or
  // Failed slot matches but holds null, so the one test of the object covers it. A failure
  // calls nothing: its words are written when the caller reads the error (ErrorSource, made
  // per registry id and kind in registry_facade.cpp), so a caller's loop keeps its values in
  // registers (docs/adr/0042).
  template <typename Tag>
  Result<Object<Tag>> resolve_hot(Handle<Tag> handle) const {
    if (Object<Tag> object = std::get<kind_index(Tag::kind)>(pools_).load(handle.bits())) [[likely]] return object;
    return Result<Object<Tag>>(stale_sources_[kind_index(Tag::kind)], handle.bits());
  }

  // Declared before pools_: it numbers the registry, which the pools' handles carry. Shared: a
  // failed resolve's error, read later, finds the registry through a table of weak references
  // (registry_facade.cpp) and keeps it alive while it writes the words.
  std::shared_ptr<RegistryImpl> impl_;
  // This registry id's error sources, one per kind, in kind order (static storage).
  const ErrorSource* stale_sources_;
  Pools pools_;
};

template <typename Tag>
Result<typename detail::GpuType<Tag>::type> RenderBundleRecording::resolve(Handle<Tag> handle) {
  auto object = registry_.resolve(handle);
  // Made again (a rebuild, a re-record): an object destroyed since, kept because this bundle
  // recorded it (docs/adr/0049).
  if (!object) object = registry_.resolve_for_recording(handle);
  if (!object) {
    if (!failure_) failure_ = object.error();
    return object;
  }
  used_.emplace_back(Tag::kind, handle.bits());
  return object;
}

}  // namespace warden::resources
