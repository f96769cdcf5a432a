#include "warden/gpu/queue_clock.h"
#include "resources/registry_impl.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <map>
#include <utility>
#include <variant>
#include <mutex>

#include <fmt/format.h>

#include "resources/error_object.h"
#include "resources/kind_order.h"
#include "resources/requests.h"
#include "warden/gpu/names.h"
#include "warden/core/enum_names.h"

namespace warden::resources {

constexpr EnumName<Ownership> kOwnershipNames[] = {
    {Ownership::Owned, "owned"},
    {Ownership::Borrowed, "borrowed"},
    {Ownership::Imported, "imported"},
};
const char* to_string(Ownership ownership) { return name_in(kOwnershipNames, ownership); }

constexpr EnumName<SlotState> kSlotStateNames[] = {
    {SlotState::Live, "live"},
    {SlotState::Lost, "lost"},
    {SlotState::Failed, "failed"},
    {SlotState::Waiting, "waiting"},
};
const char* to_string(SlotState state) { return name_in(kSlotStateNames, state); }

constexpr EnumName<ContentsSource> kContentsSourceNames[] = {
    {ContentsSource::Kept, "kept"},
    {ContentsSource::Callback, "callback"},
    {ContentsSource::None, "none"},
};
const char* to_string(ContentsSource source) { return name_in(kContentsSourceNames, source); }

constexpr EnumName<ContentsUpload> kContentsUploadNames[] = {
    {ContentsUpload::Auto, "auto"},
    {ContentsUpload::WriteTexture, "write-texture"},
    {ContentsUpload::Staging, "staging"},
};
const char* to_string(ContentsUpload upload) { return name_in(kContentsUploadNames, upload); }

RegistryOptions RegistryOptions::uniform(uint32_t capacity) {
  RegistryOptions options;
#define WARDEN_SET_CAPACITY(Name, snake) options.snake##_capacity = capacity;
  WARDEN_RESOURCE_KINDS(WARDEN_SET_CAPACITY)
#undef WARDEN_SET_CAPACITY
  return options;
}

uint32_t RegistryOptions::capacity(ResourceKind kind) const {
  switch (kind) {
#define WARDEN_CAPACITY_CASE(Name, snake) \
  case ResourceKind::Name: return snake##_capacity;
    WARDEN_RESOURCE_KINDS(WARDEN_CAPACITY_CASE)
#undef WARDEN_CAPACITY_CASE
    case ResourceKind::None: break;
  }
  return 0;
}

uint32_t LiveCounts::total() const {
  uint32_t sum = 0;
  for (uint32_t n : by_kind) sum += n;
  return sum;
}

namespace {

// Registry ids: 8 bits in a handle, so a process that makes more than 255 registries reuses
// them. An id remembers the generation above everything its registries issued; the next holder
// of the id starts its slots there, so a handle of a registry that is gone can never equal a
// live key of a later one, and resolve stays one compare (docs/adr/0002). Ids go round-robin
// over 1..255, skipping those in use and those whose generations are spent.
class RegistryIds {
 public:
  uint32_t acquire() {
    std::lock_guard lock(mutex_);
    for (uint32_t tries = 0; tries < HandleLayout::kMaxRegistryId; ++tries) {
      next_ = next_ % HandleLayout::kMaxRegistryId + 1;
      if (ids_[next_].users == 0 && ids_[next_].first_generation <= kSpentAbove) {
        ++ids_[next_].users;
        return next_;
      }
    }
    // More than 255 live registries (or every id spent): the id with the most generations left
    // is shared, and a handle given to the wrong one of two live registries with one id is
    // caught only by its generation. Documented in ADR 0002.
    uint32_t best = 1;
    for (uint32_t id = 2; id <= HandleLayout::kMaxRegistryId; ++id) {
      if (ids_[id].first_generation < ids_[best].first_generation) best = id;
    }
    ++ids_[best].users;
    return best;
  }
  uint32_t first_generation(uint32_t id) {
    std::lock_guard lock(mutex_);
    return ids_[id].first_generation;
  }
  // `highest_issued`: the highest generation the leaving registry gave any object.
  void release(uint32_t id, uint32_t highest_issued) {
    std::lock_guard lock(mutex_);
    IdState& state = ids_[id];
    --state.users;
    const uint32_t above = highest_issued >= HandleLayout::kMaxGeneration ? HandleLayout::kMaxGeneration
                                                                          : highest_issued + 1;
    state.first_generation = std::max(state.first_generation, above);
  }

 private:
  // An id whose next registry would start past half the generation space is not reused while
  // another id is free: that needs about 2^31 objects made under one id.
  static constexpr uint32_t kSpentAbove = HandleLayout::kMaxGeneration / 2;
  struct IdState {
    uint32_t users = 0;
    uint32_t first_generation = 1;
  };
  std::mutex mutex_;
  std::array<IdState, HandleLayout::kMaxRegistryId + 1> ids_{};
  uint32_t next_ = 0;
};

// The last generation a slot of a registry starting at `first` may carry.
uint32_t generation_ceiling(uint32_t first, uint32_t generation_limit) {
  const uint64_t last = uint64_t{first} + generation_limit - 1;
  return static_cast<uint32_t>(std::min<uint64_t>(last, HandleLayout::kMaxGeneration));
}

// Capacities past what the handle's index field can name are cut to it (and reported by the
// constructor); a zero generation limit would leave no generation to issue.
RegistryOptions within_layout(RegistryOptions options) {
#define WARDEN_CLAMP_CAPACITY(Name, snake) \
  options.snake##_capacity = std::min(options.snake##_capacity, HandleLayout::kMaxSlots);
  WARDEN_RESOURCE_KINDS(WARDEN_CLAMP_CAPACITY)
#undef WARDEN_CLAMP_CAPACITY
  options.generation_limit = std::max(options.generation_limit, 1u);
  return options;
}

RegistryIds& registry_ids() {
  static RegistryIds ids;
  return ids;
}

template <typename Tag>
const char* kind_name() {
  return to_string(Tag::kind);
}

// "replace_texture_view", "adopt_bind_group": the call as the API spells it.
template <typename Tag>
std::string call_name(const char* verb) {
  return fmt::format("{}_{}", verb, call_suffix(Tag::kind));
}

#define WARDEN_ADD_REF(Name, snake) \
  [[maybe_unused]] void add_ref(const gpu::Procs& p, WGPU##Name object) { p.Name##AddRef(object); }
WARDEN_RESOURCE_KINDS(WARDEN_ADD_REF)
#undef WARDEN_ADD_REF

std::string quoted_labels(const std::vector<std::string>& labels, size_t limit) {
  std::string out;
  for (size_t i = 0; i < labels.size() && i < limit; ++i) {
    if (i > 0) out += ", ";
    out += fmt::format("\"{}\"", labels[i]);
  }
  if (labels.size() > limit) out += fmt::format(", ... {} more", labels.size() - limit);
  return out;
}

}  // namespace

// ---- construction and teardown ----------------------------------------------------------------

RegistryImpl::RegistryImpl(Registry& facade, const gpu::Context& context, WGPUDevice device, WGPUQueue queue,
                           RegistryOptions options)
    : context_(context),
      procs_(context.procs()),
      device_(device),
      queue_(queue),
      device_generation_(options.device_generation),
      id_(registry_ids().acquire()),
      first_generation_(registry_ids().first_generation(id_)),
      options_(within_layout(options)),
      releases_(context.procs(), std::make_unique<gpu::QueueClock>(context.procs(), context.instance(), queue),
                options_.on_release),
      diagnostics_(options.diagnostics != nullptr ? *options.diagnostics : own_diagnostics_),
      facade_(facade) {
  procs_.DeviceGetLimits(device_, &limits_);
  read_device_backend();
  for (size_t k = 0; k < kResourceKindCount; ++k) {
    const auto kind = static_cast<ResourceKind>(k + 1);
    if (options.capacity(kind) > options_.capacity(kind)) {
      diagnostics_.warning(MessageId::RegistryCapacityClamped,
                           fmt::format("{} capacity {} exceeds what a handle can index; using {}",
                                       to_string(kind), options.capacity(kind), options_.capacity(kind)));
    }
  }
}

Registry::Pools RegistryImpl::make_pools() const {
  const uint32_t generation_limit = generation_ceiling(first_generation_, options_.generation_limit);
  return Registry::Pools(
#define WARDEN_POOL_INIT(Name, snake)                                                            \
  Pool<WGPU##Name>(options_.snake##_capacity, HandleLayout::owner_bits(ResourceKind::Name, id_), \
                  generation_limit, first_generation_),
      WARDEN_RESOURCE_KINDS(WARDEN_POOL_INIT)
#undef WARDEN_POOL_INIT
          std::monostate{});
}

void RegistryImpl::end() {
  shutdown();
  ended_ = true;
  registry_ids().release(id_, highest_generation_issued());
}

uint32_t RegistryImpl::highest_generation_issued() const {
  uint32_t highest = 0;
#define WARDEN_HIGHEST_GENERATION(Name, snake) \
  highest = std::max(highest, store<Name##Tag>().pool.highest_generation_issued());
  WARDEN_RESOURCE_KINDS(WARDEN_HIGHEST_GENERATION)
#undef WARDEN_HIGHEST_GENERATION
  return highest;
}

void RegistryImpl::shutdown() {
  // One warning listing what the application left alive (docs/design.md, invariant 7).
  std::string leaked;
  detail::for_each_kind(detail::KindOrder::Teardown, [&]<typename Tag>() {
    std::vector<std::string> labels;
    auto s = store<Tag>();
    s.pool.for_each_live([&](SlotId id, Object<Tag>) { labels.push_back(s.records[id.index].label); });
    if (labels.empty()) return;
    if (!leaked.empty()) leaked += "; ";
    leaked += fmt::format("{} {} ({})", labels.size(), to_string(Tag::kind), quoted_labels(labels, 16));
  });
  if (!leaked.empty()) {
    diagnostics_.warning(MessageId::ResourcesLeakedAtShutdown,
                         fmt::format("still alive at shutdown: {}", leaked));
  }
  // Nothing can still run once the application is done with this registry, neither submitted
  // nor being recorded: the caller either waited for the queue or is tearing the device down.
  assume_all_complete();
  standby_.discard();
  // A release hook that creates or adopts meanwhile is refused (insert): its object would land
  // in a kind already walked, and be left alive with no one to let it go.
  releasing_all_ = true;
  detail::for_each_kind(detail::KindOrder::Teardown, [&]<typename Tag>() {
    release_all_live<Tag>();
    release_all_custody<Tag>();
  });
  // What a hook destroyed meanwhile left its pool before the walk reached it and waits as a
  // pending release: it goes now too, as assume_all_complete let go of what waited before.
  releases_.release_all();
  releasing_all_ = false;
}

template <typename Tag>
void RegistryImpl::release_all_live() {
  auto s = store<Tag>();
  std::vector<SlotId> live;
  s.pool.for_each_live([&](SlotId id, Object<Tag>) { live.push_back(id); });
  for (SlotId id : live) {
    // A release hook earlier in the walk may have destroyed it: its slot is free (or someone
    // else's), and releasing it again would put the slot on the free list twice.
    if (!s.pool.contains(id.bits)) continue;
    auto released = s.pool.release(id.index);
    const detail::Record<Tag>& rec = s.records[id.index];
    if (rec.ownership == Ownership::Imported || released.value == nullptr) continue;  // Lost or Failed: nothing held
    // The slot is free already: a creation in the hook takes it and its label, so the event's
    // label is a copy.
    const std::string label = rec.label;
    releases_.release_now<Tag>(released.value, rec.ownership, id.index, id.generation, label, rec.last_used);
  }
}

// ---- lookups ------------------------------------------------------------------------------------

template <typename Tag>
Error RegistryImpl::stale_error(Handle<Tag> handle) const {
  const char* kind = kind_name<Tag>();
  if (handle.is_null()) {
    return make_error(ErrorKind::StaleHandle, MessageId::HandleNull, ErrorObject{kind},
                      fmt::format("null {} handle", kind));
  }
  // The handle as given; its label is added where the slot still knows it.
  ErrorObject given{kind, handle.index(), handle.generation()};
  const uint32_t index = *given.index;
  const uint32_t generation = *given.generation;
  if (const auto found = find(handle)) {
    // A valid handle whose slot holds no GPU object: Lost or Failed (docs/adr/0014).
    const detail::Record<Tag>& rec = store<Tag>().records[index];
    given.label = rec.label;
    const std::string what = describe(given);
    if (rec.state == SlotState::Waiting) {
      return make_error(ErrorKind::DeviceFailed, MessageId::WaitingForFrameThread, given,
                        fmt::format("{}: created from another thread on a device that takes calls on one thread; "
                                    "the frame thread's next poll makes it",
                                    what));
    }
    if (*found != nullptr && rec.made_after_waiting) {
      // A failed resolve's words are written when they are read (ErrorSource): the slot was
      // empty then, and the frame thread's poll has made its object since.
      return make_error(ErrorKind::DeviceFailed, MessageId::WaitingForFrameThread, given,
                        fmt::format("{}: it was waiting for the frame thread when it was resolved; the frame "
                                    "thread's poll has made it since: resolve it again",
                                    what));
    }
    if (*found != nullptr) {
      // The same, for a slot that was empty in a loss or its rebuild, which has made it since.
      return make_error(ErrorKind::DeviceFailed, MessageId::RegistryDeviceLost, given,
                        fmt::format("{}: its device was lost when it was resolved; it has been made again since, on "
                                    "device generation {}: resolve it again",
                                    what, device_generation_));
    }
    if (rec.state == SlotState::Failed) {
      return make_error(ErrorKind::DeviceFailed, MessageId::SlotRebuildFailed, given,
                        fmt::format("{}: failed to rebuild on device generation {}: {}", what, device_generation_,
                                    rec.failure));
    }
    if (device_lost()) return about(device_lost_error(what), given);
    return make_error(ErrorKind::DeviceFailed, MessageId::SlotLostWithoutRecipe, given,
                      fmt::format("{}: lost with device generation {} and not made again: it is {}, warden keeps no "
                                  "recipe for it; its owner re-supplies it with {}",
                                  what, device_generation_ - 1, to_string(rec.ownership), call_name<Tag>("replace")));
  }
  if (handle.kind_in_bits() != Tag::kind) {
    given.kind = to_string(handle.kind_in_bits());  // the object the handle names is of its own kind
    return make_error(ErrorKind::StaleHandle, MessageId::HandleWrongKind, given,
                      fmt::format("wrong-kind handle: a {} handle (index {}, generation {}) was "
                                  "given where a {} handle is expected",
                                  given.kind, index, generation, kind));
  }
  if (handle.registry() != id_) {
    return make_error(ErrorKind::StaleHandle, MessageId::HandleForeign, given,
                      fmt::format("foreign {} handle (index {}, generation {}): it belongs to "
                                  "registry {}, this is registry {}",
                                  kind, index, generation, handle.registry(), id_));
  }
  if (generation != 0 && generation < first_generation_) {
    // Only a registry that held this id before could have issued it.
    return make_error(ErrorKind::StaleHandle, MessageId::HandleFromEarlierRegistry, given,
                      fmt::format("stale {} handle (index {}, generation {}): issued by an earlier "
                                  "registry with id {}, which is gone (this registry issues "
                                  "generations from {})",
                                  kind, index, generation, id_, first_generation_));
  }
  const auto& s = store<Tag>();
  const auto state = s.pool.state(index);
  if (!state.exists) {
    return make_error(ErrorKind::StaleHandle, MessageId::HandleNeverIssued, given,
                      fmt::format("{} handle (index {}, generation {}) was never issued by this "
                                  "registry",
                                  kind, index, generation));
  }
  const std::string& slot_label = s.records[index].label;
  if (state.alive) {
    // The label here is the slot's new occupant's, not the handle's object's: words only.
    if (generation < state.generation) {
      return make_error(ErrorKind::StaleHandle, MessageId::HandleDestroyed, given,
                        fmt::format("stale {} handle (index {}, generation {}): destroyed; the slot "
                                    "now holds generation {} (\"{}\")",
                                    kind, index, generation, state.generation, slot_label));
    }
    return make_error(ErrorKind::StaleHandle, MessageId::HandleNeverIssued, given,
                      fmt::format("{} handle (index {}, generation {}) was never issued: the slot "
                                  "holds generation {} (\"{}\")",
                                  kind, index, generation, state.generation, slot_label));
  }
  // A free slot still carries the label of its last occupant until it is reused; when the
  // handle is of that occupant, name it.
  const bool last_occupant = generation + 1 == state.generation || generation == state.generation;
  if (last_occupant && generation != 0) {
    given.label = slot_label;
    return make_error(ErrorKind::StaleHandle, MessageId::HandleDestroyed, given,
                      fmt::format("stale {} handle (index {}, generation {}, label \"{}\"): "
                                  "destroyed",
                                  kind, index, generation, *given.label));
  }
  return make_error(ErrorKind::StaleHandle, MessageId::HandleDestroyed, given,
                    fmt::format("stale {} handle (index {}, generation {}): destroyed", kind,
                                index, generation));
}

template <typename Tag>
Result<RegistryImpl::Object<Tag>> RegistryImpl::stale_result(Handle<Tag> handle) const {
  return stale_error(handle);
}

Error RegistryImpl::stale_error_of(ResourceKind kind, uint64_t bits) const {
  switch (kind) {
#define WARDEN_STALE_CASE(Name, snake) \
  case ResourceKind::Name: return stale_error(Name##Handle::from_bits(bits));
    WARDEN_RESOURCE_KINDS(WARDEN_STALE_CASE)
#undef WARDEN_STALE_CASE
    case ResourceKind::None: break;
  }
  return make_error(ErrorKind::Internal, MessageId::HandleOfEndedRegistry, "a stale handle of no kind");
}

template <typename Tag>
detail::Record<Tag>* RegistryImpl::record(Handle<Tag> handle) {
  return find(handle).has_value() ? &store<Tag>().records[handle.index()] : nullptr;
}
template <typename Tag>
const detail::Record<Tag>* RegistryImpl::record(Handle<Tag> handle) const {
  return find(handle).has_value() ? &store<Tag>().records[handle.index()] : nullptr;
}

template <typename Tag>
const std::string* RegistryImpl::label_of(Handle<Tag> handle) const {
  const auto* rec = record(handle);
  return rec != nullptr ? &rec->label : nullptr;
}

template <typename Tag>
std::optional<Ownership> RegistryImpl::ownership_of(Handle<Tag> handle) const {
  const auto* rec = record(handle);
  if (rec == nullptr) return std::nullopt;
  return rec->ownership;
}

template <typename Tag>
std::optional<SlotState> RegistryImpl::state_of(Handle<Tag> handle) const {
  const auto* rec = record(handle);
  if (rec == nullptr) return std::nullopt;
  return rec->state;
}

Error RegistryImpl::device_lost_error(std::string_view what) const {
  return make_error(ErrorKind::DeviceFailed, MessageId::RegistryDeviceLost,
                    fmt::format("{}: device lost (device generation {}), rebuilding", what, device_generation_));
}

Error RegistryImpl::recording_refusal(std::string_view call) const {
  return make_error(ErrorKind::Refused, MessageId::RenderBundleRecordReentered,
                    fmt::format("{}: called from inside the record callback of render bundle \"{}\"; a record "
                                "callback may resolve handles and write contents, not make, replace or "
                                "destroy objects (make them before the bundle) nor move device generations",
                                call, *recording_));
}

template <typename Tag>
Serial RegistryImpl::last_used_of(Handle<Tag> handle) const {
  const auto* rec = record(handle);
  return rec != nullptr ? rec->last_used : Serial{};
}

LiveCounts RegistryImpl::live_counts() const {
  LiveCounts counts;
#define WARDEN_COUNT_LIVE(Name, snake) \
  counts.by_kind[kind_index(ResourceKind::Name)] = store<Name##Tag>().pool.live_count();
  WARDEN_RESOURCE_KINDS(WARDEN_COUNT_LIVE)
#undef WARDEN_COUNT_LIVE
  // A dead slot's record is cleared when the slot is reused, not when it dies: count live ones.
  const auto& buffers = store<BufferTag>();
  for (uint32_t i = 0; i < buffers.records.size(); ++i) {
    if (buffers.pool.state(i).alive) counts.kept_content_bytes += buffers.records[i].data.kept.size();
  }
  const auto& textures = store<TextureTag>();
  for (uint32_t i = 0; i < textures.records.size(); ++i) {
    if (!textures.pool.state(i).alive) continue;
    for (const auto& kept : textures.records[i].data.kept) counts.kept_content_bytes += kept.texels.size();
  }
  // Bytes kept for an object kept for its dependents are written back into it after a loss too.
  for (const auto& [bits, kept] : custody<BufferTag>()) counts.kept_content_bytes += kept.record.data.kept.size();
  for (const auto& [bits, kept] : custody<TextureTag>()) {
    for (const auto& sub : kept.record.data.kept) counts.kept_content_bytes += sub.texels.size();
  }
  counts.kept_for_dependents = custody_count();
  return counts;
}

// ---- adopt, replace, destroy ------------------------------------------------------------------

template <typename Tag>
Result<Handle<Tag>> RegistryImpl::adopt(Object<Tag> object, std::string label, Ownership ownership) {
  const char* kind = kind_name<Tag>();
  if (recording_ != nullptr) return *refuse_inside_recording(call_name<Tag>("adopt"));  // the object stays the caller's
  if (device_lost() && object != nullptr) {
    if (ownership == Ownership::Owned) gpu::release(procs_, object);  // taken over: nothing leaks
    return device_lost_error(fmt::format("{} \"{}\"", call_name<Tag>("adopt"), label));
  }
  if (object == nullptr) {
    return make_error(ErrorKind::InvalidArgument, MessageId::RegistryNullObject,
                      fmt::format("{}: the object is null (label \"{}\")", call_name<Tag>("adopt"), label));
  }
  if (ownership == Ownership::Imported && !std::is_same_v<Tag, TextureViewTag>) {
    // Only views have an outside owner (the surface) that ends their life for warden.
    return make_error(ErrorKind::InvalidArgument, MessageId::ImportNotATextureView,
                      fmt::format("{} \"{}\": only texture views can be imported", kind, label));
  }
  detail::KindData<Tag> data;
  if constexpr (std::is_same_v<Tag, BufferTag>) {
    data.usage = procs_.BufferGetUsage(object);
    data.size = procs_.BufferGetSize(object);
  } else if constexpr (std::is_same_v<Tag, TextureTag>) {
    data.usage = procs_.TextureGetUsage(object);
    data.size = {procs_.TextureGetWidth(object), procs_.TextureGetHeight(object),
                 procs_.TextureGetDepthOrArrayLayers(object)};
    data.format = procs_.TextureGetFormat(object);
    data.mip_level_count = procs_.TextureGetMipLevelCount(object);
  }
  // Dawn hands back an error object for a request it rejected, reporting the same properties as
  // asked for; registered, it would let write_buffer/write_texture pass their range checks for
  // memory that does not exist. What the limits rule out cannot be a valid object.
  std::optional<std::string> broken;
  if constexpr (std::is_same_v<Tag, BufferTag>) {
    broken = resources::broken_buffer_rule({data.size, data.usage, false, label}, limits_);
  } else if constexpr (std::is_same_v<Tag, TextureTag>) {
    TextureDescription desc{.size = data.size,
                     .format = data.format,
                     .usage = data.usage,
                     .dimension = procs_.TextureGetDimension(object),
                     .mip_level_count = data.mip_level_count,
                     .sample_count = procs_.TextureGetSampleCount(object)};
    broken = resources::broken_texture_rule(desc, limits_);
  }
  if (broken) {
    if (ownership == Ownership::Owned) gpu::release(procs_, object);  // taken over: nothing leaks
    return make_error(ErrorKind::InvalidArgument, MessageId::AdoptedObjectInvalid, ErrorObject{kind, {}, {}, label},
                      fmt::format("{} \"{}\": it cannot be a valid {}: {}", call_name<Tag>("adopt"), label, kind,
                                  *broken));
  }
  return insert<Tag>(object, label, ownership, std::move(data));
}

template <typename Tag>
Result<Handle<Tag>> RegistryImpl::insert(Object<Tag> object, std::string_view label, Ownership ownership,
                                         detail::KindData<Tag> data) {
  if (releasing_all_) [[unlikely]] {
    if (ownership == Ownership::Owned && object != nullptr) (void)releases_.release_object<Tag>(object, ownership);
    return make_error(ErrorKind::Refused, MessageId::CreatedWhileReleasingAll,
                      fmt::format("{} \"{}\": the registry is letting go of every object (shutdown, or its "
                                  "end) and a release hook asked for a new one; it was {}",
                                  kind_name<Tag>(), label,
                                  ownership == Ownership::Owned ? "released" : "not adopted"));
  }
  auto s = store<Tag>();
  auto id = s.pool.acquire(object);
  if (!id) {
    // Nothing leaks: an owned object dies here; a borrowed one was never referenced by us. A
    // creation while the device is lost, or one waiting for the frame thread, made no object
    // yet: there is nothing to let go, and no release to report.
    const char* outcome = ownership != Ownership::Owned ? "not adopted" : object == nullptr ? "not made" : "released";
    if (ownership == Ownership::Owned && object != nullptr) {
      releases_.release_now<Tag>(object, ownership, 0, 0, std::string(label), Serial{});
    }
    return make_error(ErrorKind::PoolFull, MessageId::ResourcePoolFull,
                      fmt::format("{} pool is full ({} of {} slots in use, {} exhausted); \"{}\" was {}",
                                  kind_name<Tag>(), s.pool.live_count(), s.pool.capacity(),
                                  s.pool.exhausted_slots(), label, outcome));
  }
  if (ownership == Ownership::Borrowed) add_ref(procs_, object);
  if (id->index >= s.records.size()) s.records.resize(id->index + 1);
  auto& rec = s.records[id->index];
  if (label.empty()) {
    rec.label = fmt::format("{}#{}.{}", kind_name<Tag>(), id->index, id->generation);
  } else {
    rec.label.assign(label);  // into the slot's string: a label that fits its capacity allocates nothing
  }
  rec.ownership = ownership;
  rec.last_used = Serial{};
  rec.data = std::move(data);
  slot_edges::occupied(rec);
  rec.recipe.reset();  // create_from_recipe sets it; adopted objects have none
  rec.named_by = 0;
  return Handle<Tag>::from_bits(id->bits);
}

template <typename Tag>
Result<Handle<Tag>> RegistryImpl::adopt_with_recipe(Object<Tag> object, detail::Recipe<Tag> recipe) {
  auto handle = adopt<Tag>(object, recipe.label, Ownership::Owned);
  if (handle) {
    auto& rec = store<Tag>().records[handle->index()];
    rec.recipe = std::move(recipe);
    count_names(rec);
  }
  return handle;
}

template <typename Tag>
Result<void> RegistryImpl::replace_with_recipe(Handle<Tag> handle, Object<Tag> object, detail::Recipe<Tag> recipe) {
  return replace<Tag>(handle, object, std::move(recipe));
}

template <typename Tag>
void RegistryImpl::swap_in(SlotId id, Object<Tag> made) {
  // A prepared object may be made of the one replaced here (a pipeline of a reloaded module),
  // or be the one replaced (a recreated texture).
  if constexpr (detail::kMayBePrepared<Tag>) standby_.discard();
  auto s = store<Tag>();
  detail::Record<Tag>& rec = s.records[id.index];
  Object<Tag> old = s.pool.exchange(id.bits, made);
  // Null for a Lost or Failed slot: nothing to let go.
  auto due = release_when_retired<Tag>(old, rec, id.index, id.generation);
  slot_edges::swapped_in(rec);
  if (due) releases_.release(*due);  // last: its hook may call the registry again
}

template <typename Tag>
Result<void> RegistryImpl::replace(Handle<Tag> handle, Object<Tag> object, std::optional<detail::Recipe<Tag>> recipe) {
  if (recording_ != nullptr) return *refuse_inside_recording(call_name<Tag>("replace"));
  if (!store<Tag>().pool.contains(handle.bits())) return stale_error(handle);
  auto& rec = store<Tag>().records[handle.index()];
  if (device_lost()) return device_lost_error(fmt::format("{} \"{}\"", call_name<Tag>("replace"), rec.label));
  if (object == nullptr) {
    return make_error(ErrorKind::InvalidArgument, MessageId::RegistryNullObject,
                      fmt::format("{} \"{}\": the new object is null", call_name<Tag>("replace"), rec.label));
  }
  if constexpr (std::is_same_v<Tag, TextureTag>) {
    // The views were made of the old texture; they would keep sampling it (or a destroyed one).
    if (rec.data.live_views > 0) {
      return make_error(ErrorKind::Refused, MessageId::TextureHasLiveViews, object_of(handle, rec.label),
                        fmt::format("replace_texture \"{}\" (index {}, generation {}): {} view(s) of "
                                    "it are alive; destroy them first, or make the new texture with "
                                    "recreate_texture, which makes its views again",
                                    rec.label, handle.index(), handle.generation(), rec.data.live_views));
    }
  }
  if (*store<Tag>().pool.find(handle.bits()) == object) {
    // Dawn hands out the object it already made for an equal shader module or pipeline (a hot
    // reload back to an earlier text): nothing changes, and the reference the caller handed
    // over for an owned slot is one too many. (A borrowed slot took its own reference before.)
    if (rec.ownership == Ownership::Owned) gpu::release(procs_, object);
    if (recipe) {
      const std::vector<detail::NamedHandle> names = names_of(rec);
      rec.recipe = std::move(recipe);
      count_names(rec);  // before the old names go: what both name stays kept
      uncount_names(names);
    }
    return {};
  }
  if (rec.ownership == Ownership::Borrowed) add_ref(procs_, object);
  // What the old recipe named: uncounted once the slot is settled, after the new one counted.
  const std::vector<detail::NamedHandle> names = names_of(rec);
  // The caller's object is not what the recipe describes (size, format, contents): from now on
  // the slot is the caller's to re-supply after a loss, as an adopted one is, and bytes kept for
  // the old object would be restored into (or overrun) the new one. replace_with_recipe's
  // layers vouch for the recipe they give.
  rec.recipe = std::move(recipe);
  count_names(rec);
  if constexpr (std::is_same_v<Tag, BufferTag> || std::is_same_v<Tag, TextureTag>) rec.data.kept = {};
  if constexpr (std::is_same_v<Tag, BufferTag>) {
    rec.data.usage = procs_.BufferGetUsage(object);
    rec.data.size = procs_.BufferGetSize(object);
  } else if constexpr (std::is_same_v<Tag, TextureTag>) {
    rec.data.usage = procs_.TextureGetUsage(object);
    rec.data.size = {procs_.TextureGetWidth(object), procs_.TextureGetHeight(object),
                     procs_.TextureGetDepthOrArrayLayers(object)};
    rec.data.format = procs_.TextureGetFormat(object);
    rec.data.mip_level_count = procs_.TextureGetMipLevelCount(object);
  }
  // Last, with the record settled: a Lost or Failed slot is live again with what its owner
  // supplied, and the old object's release hook (a borrowed one's, due at once) may call the
  // registry again.
  swap_in<Tag>(SlotId{handle.index(), handle.generation(), handle.bits()}, object);
  uncount_names(names);
  return {};
}

template <typename Tag>
Result<void> RegistryImpl::destroy(Handle<Tag> handle) {
  if (handle.is_null()) return {};  // like free(nullptr): nothing to do, nothing wrong
  if (recording_ != nullptr) return *refuse_inside_recording(call_name<Tag>("destroy"));  // the name is formatted only when refused
  auto* rec = record(handle);
  if (rec == nullptr) {
    const bool ours = (handle.bits() & HandleLayout::kOwnerMask) ==
                          HandleLayout::owner_bits(Tag::kind, id_) &&
                      handle.generation() >= first_generation_;
    Error error = stale_error(handle);
    if (!ours) return error;  // foreign or wrong kind: a bug in the caller, not a double destroy
    // Double destroy: the postcondition (the handle is dead) already holds.
    diagnostics_.warning(MessageId::DoubleDestroyIgnored,
                         fmt::format("{} ignored (double destroy?): {}", call_name<Tag>("destroy"),
                                     error.message));
    return {};
  }
  if constexpr (std::is_same_v<Tag, TextureViewTag>) {
    if (rec->ownership == Ownership::Imported) {
      return make_error(ErrorKind::Refused, MessageId::DestroyImportedView, object_of(handle, rec->label),
                        fmt::format("destroy_texture_view \"{}\" (index {}, generation {}): the view "
                                    "is imported; its owner ends it, use forget_texture_view",
                                    rec->label, handle.index(), handle.generation()));
    }
  }
  if constexpr (std::is_same_v<Tag, TextureTag>) {
    if (rec->data.live_views > 0) {
      std::vector<std::string> views;
      auto vs = store<TextureViewTag>();
      vs.pool.for_each_live([&](SlotId id, WGPUTextureView) {
        if (vs.records[id.index].data.texture == handle) views.push_back(vs.records[id.index].label);
      });
      return make_error(ErrorKind::Refused, MessageId::TextureHasLiveViews, object_of(handle, rec->label),
                        fmt::format("destroy_texture \"{}\" (index {}, generation {}): {} view(s) of "
                                    "it are alive ({})",
                                    rec->label, handle.index(), handle.generation(), rec->data.live_views,
                                    quoted_labels(views, 8)));
    }
  }
  if (rec->named_by > 0) {
    // A recipe still names it (a pipeline its module, a bind group its buffer): the handle dies,
    // the object stays for them (docs/adr/0049).
    keep_in_custody(handle);
    return {};
  }
  release_occupant(handle);
  return {};
}

Result<TextureViewHandle> RegistryImpl::import_texture_view(WGPUTextureView view, std::string label) {
  return adopt<TextureViewTag>(view, std::move(label), Ownership::Imported);
}

Result<void> RegistryImpl::forget_texture_view(TextureViewHandle handle) {
  if (auto refused = refuse_inside_recording("forget_texture_view")) return *refused;
  auto* rec = record(handle);
  if (rec == nullptr) return stale_error(handle);
  if (rec->ownership != Ownership::Imported) {
    return make_error(ErrorKind::Refused, MessageId::ForgetViewNotImported, object_of(handle, rec->label),
                      fmt::format("forget_texture_view \"{}\" (index {}, generation {}): the view is "
                                  "{}, not imported; use destroy_texture_view",
                                  rec->label, handle.index(), handle.generation(), to_string(rec->ownership)));
  }
  release_occupant(handle);
  return {};
}

template <typename Tag>
void RegistryImpl::release_occupant(Handle<Tag> handle) {
  auto s = store<Tag>();
  auto& rec = s.records[handle.index()];
  if constexpr (std::is_same_v<Tag, TextureViewTag>) {
    if (auto* texture = record(rec.data.texture)) {
      assert(texture->data.live_views > 0);
      --texture->data.live_views;
    }
  }
  if constexpr (detail::kMayBePrepared<Tag>) {
    // A copy made on the other device ahead of a rebuild that will no longer ask for it.
    if (!standby_.empty()) {
      const TextureDescription* texture = nullptr;
      if constexpr (std::is_same_v<Tag, TextureTag>) texture = rec.recipe ? &*rec.recipe : nullptr;
      standby_.drop(Tag::kind, handle.bits(), texture);
    }
  }
  auto released = s.pool.release(handle.index());
  auto due = release_when_retired<Tag>(released.value, rec, handle.index(), handle.generation());
  const std::vector<detail::NamedHandle> names = names_of(rec);
  if constexpr (std::is_same_v<Tag, BindGroupTag> || std::is_same_v<Tag, RenderBundleTag>) {
    rec.data = {};
  } else if constexpr (std::is_same_v<Tag, BufferTag> || std::is_same_v<Tag, TextureTag>) {
    rec.data.kept = {};  // kept contents go with the object (move-assigned: the memory is freed)
  }
  rec.recipe.reset();
  // Last, when the slot is settled: the release hook and the report reach the application,
  // which may call the registry again (a creation then takes this slot).
  if (due) releases_.release(*due);
  uncount_names(names);  // what only this recipe named goes now
  if (released.slot_exhausted) {
    diagnostics_.info(MessageId::SlotExhausted,
                      fmt::format("{} slot {} exhausted: its generation reached the limit {}",
                                  kind_name<Tag>(), handle.index(), handle.generation()));
  }
}

// ---- submissions and retirement ---------------------------------------------------------------

template <typename Tag>
void RegistryImpl::touch_impl(Handle<Tag> handle) {
  auto* rec = record(handle);
  if (rec == nullptr) {
    diagnostics_.warning(MessageId::TouchIgnored,
                         fmt::format("touch ignored: {}", stale_error(handle).message));
    return;
  }
  rec->last_used = clock().recording();
  if constexpr (std::is_same_v<Tag, TextureViewTag>) {
    if (auto* texture = record(rec->data.texture)) texture->last_used = rec->last_used;
  } else if constexpr (std::is_same_v<Tag, BindGroupTag>) {
    // What a group binds is used by the same submission.
    for (BufferHandle b : rec->data.buffers) {
      if (auto* r = record(b)) r->last_used = rec->last_used;
    }
    // A stale view is reported once the loops are done: the report reaches the application's
    // sink, which may change the registry (destroy this group) under a loop still running.
    std::optional<TextureViewHandle> stale_view;
    for (TextureViewHandle v : rec->data.views) {
      if (record(v) == nullptr) {
        // A view destroyed while the group binds it is kept for the group (docs/adr/0049).
        if (!stale_view && !custody<TextureViewTag>().contains(v.bits())) stale_view = v;
        continue;
      }
      touch_impl(v);
    }
    for (SamplerHandle sampler : rec->data.samplers) {
      if (auto* r = record(sampler)) r->last_used = rec->last_used;
    }
    if (stale_view) touch_impl(*stale_view);
  } else if constexpr (std::is_same_v<Tag, RenderBundleTag>) {
    touch_recorded(*rec);
  }
}

void RegistryImpl::touch_recorded(const detail::Record<RenderBundleTag>& rec) {
  // A copy: touching a bind group may report a stale view to the application's sink, which may
  // destroy the bundle and its list.
  const std::vector<std::pair<ResourceKind, uint64_t>> used = rec.data.used;
  for (const auto& [kind, bits] : used) {
    switch (kind) {
      // Objects destroyed since the recording are skipped: the bundle holds them itself.
#define WARDEN_TOUCH_RECORDED(Name, snake)                                    \
  case ResourceKind::Name:                                                    \
    if constexpr (!std::is_same_v<Name##Tag, RenderBundleTag>) {              \
      if (record(Name##Handle::from_bits(bits)) != nullptr) touch_impl(Name##Handle::from_bits(bits)); \
    }                                                                         \
    break;
      WARDEN_RESOURCE_KINDS(WARDEN_TOUCH_RECORDED)
#undef WARDEN_TOUCH_RECORDED
      case ResourceKind::None: break;
    }
  }
}

Serial RegistryImpl::submit(const WGPUCommandBuffer* commands, size_t count) {
  if (device_lost()) {
    diagnostics_.warning(MessageId::SubmitDroppedDeviceLost,
                         fmt::format("submit of {} command buffer(s) dropped: device lost (device generation {}), rebuilding",
                                     count, device_generation_));
    return Serial{};
  }
  settle_carried();  // what other threads wrote reaches the queue before the commands that read it
  return releases_.queue_clock().submit(commands, count);
}

void RegistryImpl::poll() {
  releases_.queue_clock().poll();
  settle_carried();
  releases_.release_retired();
}

// ---- custody: what a recipe names outlives its destroy (docs/adr/0049) --------------------------

template <typename Tag>
std::vector<detail::NamedHandle> RegistryImpl::names_of(const detail::Record<Tag>& rec) {
  std::vector<detail::NamedHandle> names;
  if (!rec.recipe) return names;  // made elsewhere: no rebuild makes it from what it names
  auto add = [&names]<typename Named>(Handle<Named> handle) {
    if (!handle.is_null()) names.emplace_back(Named::kind, handle.bits());
  };
  const auto& recipe = *rec.recipe;
  if constexpr (std::is_same_v<Tag, TextureViewTag>) {
    add(recipe.texture);
  } else if constexpr (std::is_same_v<Tag, BindGroupTag>) {
    add(recipe.layout);
    for (const BindGroupEntryDescription& entry : recipe.entries) {
      std::visit([&](const auto& resource) {
        if constexpr (std::is_same_v<std::decay_t<decltype(resource)>, BufferBinding>) add(resource.buffer);
        else add(resource);
      }, entry.resource);
    }
  } else if constexpr (std::is_same_v<Tag, PipelineLayoutTag>) {
    for (BindGroupLayoutHandle layout : recipe.layouts) add(layout);
  } else if constexpr (std::is_same_v<Tag, RenderPipelineTag>) {
    add(recipe.layout);
    add(recipe.vertex.module);
    if (recipe.fragment) add(recipe.fragment->module);
  } else if constexpr (std::is_same_v<Tag, ComputePipelineTag>) {
    add(recipe.layout);
    add(recipe.compute.module);
  } else if constexpr (std::is_same_v<Tag, RenderBundleTag>) {
    // Its recipe is a callback: what it names is what the callback resolved when last recorded.
    names = rec.data.used;
  }
  return names;
}

void RegistryImpl::set_recorded_uses(detail::Record<RenderBundleTag>& rec, std::vector<detail::NamedHandle> uses) {
  const std::vector<detail::NamedHandle> before = names_of(rec);
  rec.data.used = std::move(uses);
  count_names(rec);  // first: what both recordings name stays kept
  uncount_names(before);
}

void RegistryImpl::adjust_named(ResourceKind kind, uint64_t bits, int delta) {
  switch (kind) {
#define WARDEN_ADJUST_NAMED(Name, snake) \
  case ResourceKind::Name: adjust_named_of<Name##Tag>(bits, delta); return;
    WARDEN_RESOURCE_KINDS(WARDEN_ADJUST_NAMED)
#undef WARDEN_ADJUST_NAMED
    case ResourceKind::None: break;
  }
}

template <typename Tag>
void RegistryImpl::adjust_named_of(uint64_t bits, int delta) {
  // A handle already dead when it was named (a recipe handed to replace_with_recipe) is counted
  // nowhere, and so uncounted nowhere.
  uint32_t* named_by = nullptr;
  bool kept = false;
  if (auto* rec = record(Handle<Tag>::from_bits(bits))) {
    named_by = &rec->named_by;
  } else if (auto found = custody<Tag>().find(bits); found != custody<Tag>().end()) {
    named_by = &found->second.record.named_by;
    kept = true;
  }
  if (named_by == nullptr) return;
  if (delta > 0) {
    ++*named_by;
    return;
  }
  assert(*named_by > 0);
  if (*named_by == 0 || --*named_by > 0) return;
  if (kept) let_go_of_kept<Tag>(bits);
}

template <typename Tag>
void RegistryImpl::keep_in_custody(Handle<Tag> handle) {
  auto s = store<Tag>();
  detail::Record<Tag>& rec = s.records[handle.index()];
  if constexpr (std::is_same_v<Tag, TextureViewTag>) {
    // The view's handle is dead: it holds its texture's destroy back no more than a destroyed
    // view does. Its recipe still names the texture, which is kept in turn if destroyed.
    if (auto* texture = record(rec.data.texture)) {
      assert(texture->data.live_views > 0);
      --texture->data.live_views;
    }
  }
  auto released = s.pool.release(handle.index());
  // The slot keeps its label (a stale use of the handle is named by it); the rest moves. A copy
  // made ahead of a rebuild on the standby device stays under the same bits.
  detail::Custody<Tag> kept;
  kept.object = released.value;
  kept.record.label = rec.label;
  kept.record.ownership = rec.ownership;
  kept.record.last_used = rec.last_used;
  kept.record.state = rec.state;  // the record moves with its state: no edge
  kept.record.failure = rec.failure;
  kept.record.recipe = std::move(rec.recipe);
  kept.record.data = std::move(rec.data);
  kept.record.named_by = rec.named_by;
  rec.recipe.reset();
  rec.data = {};
  custody<Tag>().insert_or_assign(handle.bits(), std::move(kept));
  if (released.slot_exhausted) {
    diagnostics_.info(MessageId::SlotExhausted,
                      fmt::format("{} slot {} exhausted: its generation reached the limit {}",
                                  kind_name<Tag>(), handle.index(), handle.generation()));
  }
}

template <typename Tag>
void RegistryImpl::let_go_of_kept(uint64_t bits) {
  auto found = custody<Tag>().find(bits);
  if (found == custody<Tag>().end()) return;
  detail::Custody<Tag> kept = std::move(found->second);
  custody<Tag>().erase(found);
  const auto handle = Handle<Tag>::from_bits(bits);
  if constexpr (detail::kMayBePrepared<Tag>) {
    if (!standby_.empty()) {
      const TextureDescription* texture = nullptr;
      if constexpr (std::is_same_v<Tag, TextureTag>) texture = kept.record.recipe ? &*kept.record.recipe : nullptr;
      standby_.drop(Tag::kind, bits, texture);
    }
  }
  // As its destroy would have let it go: an owned object waits at least for the submission being
  // recorded, which is at or past every use of what named it.
  auto due = release_when_retired<Tag>(kept.object, kept.record, handle.index(), handle.generation());
  const std::vector<detail::NamedHandle> names = names_of(kept.record);
  if (due) releases_.release(*due);
  uncount_names(names);
}

template <typename Tag>
Result<RegistryImpl::Object<Tag>> RegistryImpl::resolve_named(Handle<Tag> handle) const {
  Result<Object<Tag>> resolved = resolve_now(handle);
  if (resolved || !remaking_) return resolved;
  const auto found = custody<Tag>().find(handle.bits());
  if (found == custody<Tag>().end()) return resolved;
  // While prepare_rebuild makes for the other device, resolve_now found what it made there.
  if (found->second.object != nullptr && !standby_.preparing()) return found->second.object;
  const detail::Record<Tag>& rec = found->second.record;
  const ErrorObject given{to_string(Tag::kind), handle.index(), handle.generation(), rec.label};
  if (rec.state == SlotState::Failed) {
    return make_error(ErrorKind::DeviceFailed, MessageId::SlotRebuildFailed, given,
                      fmt::format("{} (destroyed, kept for what names it): failed to rebuild on device generation "
                                  "{}: {}",
                                  describe(given), device_generation_, rec.failure));
  }
  return resolved;
}

template <typename Tag>
void RegistryImpl::lose_custody() {
  std::vector<uint64_t> kept;
  for (const auto& [bits, entry] : custody<Tag>()) kept.push_back(bits);
  for (uint64_t bits : kept) {
    auto found = custody<Tag>().find(bits);
    if (found == custody<Tag>().end()) continue;  // a release hook let go of what named it
    detail::Custody<Tag>& entry = found->second;
    const Object<Tag> object = std::exchange(entry.object, nullptr);
    const Ownership ownership = entry.record.ownership;
    const std::string label = entry.record.label;
    const Serial last_used = entry.record.last_used;
    slot_edges::lost(entry.record);
    // Without a recipe nothing can make it again, and its handle is dead: no owner can
    // re-supply it. What names it fails to rebuild, naming the destroyed handle.
    if (!entry.record.recipe) custody<Tag>().erase(found);
    if (object == nullptr) continue;
    const auto handle = Handle<Tag>::from_bits(bits);
    releases_.release_now<Tag>(object, ownership, handle.index(), handle.generation(), label, last_used);
  }
}

template <typename Tag>
void RegistryImpl::release_all_custody() {
  auto kept = std::exchange(custody<Tag>(), {});
  for (auto& [bits, entry] : kept) {
    if (entry.object == nullptr || entry.record.ownership == Ownership::Imported) continue;
    const auto handle = Handle<Tag>::from_bits(bits);
    releases_.release_now<Tag>(entry.object, entry.record.ownership, handle.index(), handle.generation(),
                               entry.record.label, entry.record.last_used);
  }
}

uint32_t RegistryImpl::custody_count() const {
  uint32_t count = 0;
#define WARDEN_COUNT_KEPT(Name, snake) count += static_cast<uint32_t>(custody<Name##Tag>().size());
  WARDEN_RESOURCE_KINDS(WARDEN_COUNT_KEPT)
#undef WARDEN_COUNT_KEPT
  return count;
}

// ---- explicit instantiations of the per-kind templates ----------------------------------------
#define WARDEN_INSTANTIATE(Name, snake)                                                         \
  template Error RegistryImpl::stale_error<Name##Tag>(Name##Handle) const;                         \
  template Result<WGPU##Name> RegistryImpl::stale_result<Name##Tag>(Name##Handle) const;             \
  template Result<Name##Handle> RegistryImpl::adopt<Name##Tag>(WGPU##Name, std::string, Ownership);  \
  template Result<void> RegistryImpl::replace<Name##Tag>(Name##Handle, WGPU##Name,                   \
                                                         std::optional<detail::Recipe<Name##Tag>>);   \
  template std::vector<detail::NamedHandle> RegistryImpl::names_of<Name##Tag>(const detail::Record<Name##Tag>&); \
  template void RegistryImpl::keep_in_custody<Name##Tag>(Name##Handle);                             \
  template void RegistryImpl::lose_custody<Name##Tag>();                                            \
  template void RegistryImpl::release_all_custody<Name##Tag>();                                     \
  template Result<WGPU##Name> RegistryImpl::resolve_named<Name##Tag>(Name##Handle) const;            \
  template void RegistryImpl::swap_in<Name##Tag>(SlotId, WGPU##Name);                                \
  template Result<void> RegistryImpl::destroy<Name##Tag>(Name##Handle);                             \
  template const std::string* RegistryImpl::label_of<Name##Tag>(Name##Handle) const;                \
  template std::optional<Ownership> RegistryImpl::ownership_of<Name##Tag>(Name##Handle) const;      \
  template void RegistryImpl::touch_impl<Name##Tag>(Name##Handle);                                  \
  template Serial RegistryImpl::last_used_of<Name##Tag>(Name##Handle) const;                     \
  template std::optional<SlotState> RegistryImpl::state_of<Name##Tag>(Name##Handle) const;        \
  template Result<Name##Handle> RegistryImpl::insert<Name##Tag>(WGPU##Name, std::string_view, Ownership,  \
                                                            detail::KindData<Name##Tag>);       \
  template detail::Record<Name##Tag>* RegistryImpl::record<Name##Tag>(Name##Handle);                \
  template void RegistryImpl::release_occupant<Name##Tag>(Name##Handle);                                \
  template const detail::Record<Name##Tag>* RegistryImpl::record<Name##Tag>(Name##Handle) const;
WARDEN_RESOURCE_KINDS(WARDEN_INSTANTIATE)
#undef WARDEN_INSTANTIATE

#define WARDEN_INSTANTIATE_WITH_RECIPE(Name)                                                      \
  template Result<Name##Handle> RegistryImpl::adopt_with_recipe<Name##Tag>(WGPU##Name, detail::Recipe<Name##Tag>); \
  template Result<void> RegistryImpl::replace_with_recipe<Name##Tag>(Name##Handle, WGPU##Name, detail::Recipe<Name##Tag>);
WARDEN_INSTANTIATE_WITH_RECIPE(ShaderModule)
WARDEN_INSTANTIATE_WITH_RECIPE(RenderPipeline)
WARDEN_INSTANTIATE_WITH_RECIPE(ComputePipeline)
#undef WARDEN_INSTANTIATE_WITH_RECIPE

}  // namespace warden::resources
