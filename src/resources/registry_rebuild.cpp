// Registry across device generations: on_device_lost() and rebuild() (docs/adr/0013, 0014;
// docs/lifecycle-in-detail.md walks one object through both).
#include <chrono>
#include <cstring>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "resources/kind_order.h"
#include "resources/registry_impl.h"
#include "warden/gpu/names.h"

namespace warden::resources {

namespace {

// Usages that let the GPU write an object: what it holds then is the GPU's work, which no copy
// on the CPU side has seen (docs/adr/0013). Copies into an object (CopyDst) are not tracked.
constexpr WGPUFlags kGpuWrittenBuffer =
    WGPUBufferUsage_Storage | WGPUBufferUsage_QueryResolve | WGPUBufferUsage_MapRead;
constexpr WGPUTextureUsage kGpuWrittenTexture = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_StorageBinding;

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

// A record callback runs in the middle of a create or of the rebuild's walk (docs/adr/0039):
// these calls are reported and refused there, like the calls that make or destroy objects.
bool RegistryImpl::refused_off_frame_thread(std::string_view call) {
  std::optional<Error> refused = refuse_off_frame_thread(call);
  if (refused) diagnostics_.error(refused->id, std::move(refused->message));
  return refused.has_value();
}

bool RegistryImpl::refused_inside_recording(std::string_view call) {
  std::optional<Error> refused = refuse_inside_recording(call);
  if (refused) diagnostics_.error(refused->id, std::move(refused->message));
  return refused.has_value();
}

void RegistryImpl::on_device_lost() {
  if (device_lost_ || refused_inside_recording("on_device_lost")) return;
  // Flipped first: whatever the release events below reach sees a lost registry.
  device_lost_ = true;
  // Nothing of the lost device can still run: what waits for a submission goes now.
  assume_all_complete();
  detail::for_each_kind(detail::KindOrder::Teardown, [&]<typename Tag>() {
    lose_all<Tag>();
    lose_custody<Tag>();
  });
  refills_.clear();
  // Waiting objects are Lost now (lose_all) and the rebuild makes them; their carried writes
  // went with the device, as a write to the queue would have (kept contents come back).
  carrier_.clear();
  device_ = nullptr;
  queue_ = nullptr;
  capture_checked_device_ = nullptr;  // the next device is asked about afresh, whatever its address
}

template <typename Tag>
void RegistryImpl::lose_all() {
  auto s = store<Tag>();
  std::vector<SlotId> imported;
  s.pool.for_each_live([&](SlotId id, Object<Tag> object) {
    detail::Record<Tag>& rec = s.records[id.index];
    if (rec.ownership == Ownership::Imported) {
      imported.push_back(id);
      return;
    }
    if (object != nullptr) {
      // Emptied before it is released: a resolve on another thread finds nothing rather than
      // an object on its way out.
      s.pool.exchange(id.bits, nullptr);
      const bool destroyed = release_object<Tag>(object, rec.ownership);
      if (options_.on_release) {
        options_.on_release(ReleaseEvent{Tag::kind, id.index, id.generation, object, rec.label, rec.ownership,
                                         rec.last_used, clock().retired(), destroyed});
      }
    }
    slot_edges::lost(rec);
  });
  // Imported views belong to a presentation of the lost device: their handles die, and the
  // presentation imports the new device's views again.
  for (SlotId id : imported) {
    // A release hook during the walk may have forgotten it already.
    if (s.pool.contains(id.bits)) release_occupant(Handle<Tag>::from_bits(id.bits));
  }
}

RebuildReport RegistryImpl::rebuild(WGPUDevice device, WGPUQueue queue, uint64_t generation) {
  if (refused_inside_recording("rebuild")) return RebuildReport{.generation = device_generation_};
  const auto started = Clock::now();
  on_device_lost();
  device_ = device;
  queue_ = queue;
  device_generation_ = generation;
  procs_.DeviceGetLimits(device_, &limits_);
  read_device_backend();
  queue_clock_->rebind(queue_);
  device_lost_ = false;

  // Prepared for another device (a spare that was lost, or not the one adopted): let go.
  if (spare_.device != device) discard_prepared();

  RebuildReport report;
  report.generation = generation;
  // Dependency order: what an object uses is made before it; what is kept for its dependents
  // before the slots of its kind (docs/adr/0049).
  {
    Remaking remaking(remaking_);
    detail::for_each_kind(detail::KindOrder::Build, [&]<typename Tag>() {
      rebuild_custody<Tag>(report);
      rebuild_all<Tag>(report);
    });
  }
  discard_prepared();  // what no slot took (destroyed since it was prepared)
  // The application writes its contents once every object exists (a refill may use any).
  const auto refilling = Clock::now();
  std::vector<std::function<void()>> refills = std::move(refills_);
  refills_.clear();
  for (const auto& refill : refills) {
    // Lost again meanwhile, or already rebuilt for a newer device from inside a refill (which
    // ran that device's own refills): the rest belong to a device that is gone.
    if (device_lost_ || device_generation_ != generation) break;
    refill();
  }
  report.timings.refills_ms = ms_since(refilling);
  report.timings.total_ms = ms_since(started);
  return report;
}

template <typename Tag>
void RegistryImpl::rebuild_all(RebuildReport& report) {
  auto s = store<Tag>();
  std::vector<SlotId> lost;
  s.pool.for_each_live([&](SlotId id, Object<Tag> object) {
    if (object == nullptr) lost.push_back(id);
  });
  // Contents are timed on their own (RebuildTimings::contents_ms), so the kind's time is the
  // walk less what restore_contents took.
  const auto walk = Clock::now();
  const double contents_before = report.timings.contents_ms;
  for (SlotId id : lost) {
    detail::Record<Tag>& rec = s.records[id.index];
    if (!rec.recipe) {
      report.awaiting_owner.push_back(fmt::format("{} \"{}\"", to_string(Tag::kind), rec.label));
      continue;
    }
    Result<Object<Tag>> made = remake_for_rebuild<Tag>(id.bits, rec, report);
    if (!made) {
      slot_edges::refused(rec, made.error().message);
      report.failed.push_back(fmt::format("{} \"{}\": {}", to_string(Tag::kind), rec.label, rec.failure));
      continue;
    }
    s.pool.exchange(id.bits, *made);
    slot_edges::rebuilt(rec);
    ++report.rebuilt;
    if constexpr (std::is_same_v<Tag, RenderBundleTag>) set_recorded_uses(rec, std::move(recorded_uses_));
    if constexpr (std::is_same_v<Tag, BufferTag> || std::is_same_v<Tag, TextureTag>) {
      const auto restoring = Clock::now();
      restore_contents(Handle<Tag>::from_bits(id.bits), rec, report);
      report.timings.contents_ms += ms_since(restoring);
    }
  }
  report.timings.kind_ms[kind_index(Tag::kind)] += ms_since(walk) - (report.timings.contents_ms - contents_before);
}

// The object a rebuild puts back for `rec`: the one made ahead on the spare, if any, else one made
// from its recipe on the new device.
template <typename Tag>
Result<RegistryImpl::Object<Tag>> RegistryImpl::remake_for_rebuild(uint64_t bits, detail::Record<Tag>& rec,
                                                                   RebuildReport& report) {
  if (Object<Tag> prepared = take_prepared<Tag>(bits)) {
    ++report.prepared_taken;
    return prepared;
  }
  if constexpr (std::is_same_v<Tag, BufferTag>) {
    return make_object<BufferTag>(as_rebuilt(rec));
  } else {
    return make_object<Tag>(*rec.recipe);
  }
}

template <typename Tag>
void RegistryImpl::rebuild_custody(RebuildReport& report) {
  std::vector<uint64_t> lost;
  for (const auto& [bits, kept] : custody<Tag>()) {
    if (kept.object == nullptr) lost.push_back(bits);
  }
  const auto walk = Clock::now();
  for (uint64_t bits : lost) {
    auto found = custody<Tag>().find(bits);
    if (found == custody<Tag>().end()) continue;
    detail::Record<Tag>& rec = found->second.record;
    Result<Object<Tag>> made = remake_for_rebuild<Tag>(bits, rec, report);
    if (!made) {
      slot_edges::refused(rec, made.error().message);
      report.failed.push_back(fmt::format("{} \"{}\" (destroyed, kept for what names it): {}", to_string(Tag::kind),
                                          rec.label, rec.failure));
      continue;
    }
    found->second.object = *made;
    slot_edges::rebuilt(rec);
    ++report.rebuilt;
    if constexpr (std::is_same_v<Tag, RenderBundleTag>) set_recorded_uses(rec, std::move(recorded_uses_));
    // Its handle is dead: only kept bytes come back (no refill can name it, no report can).
    if constexpr (std::is_same_v<Tag, BufferTag> || std::is_same_v<Tag, TextureTag>) {
      if (rec.recipe->contents == ContentsSource::Kept) write_kept(*made, rec);
    }
  }
  report.timings.kind_ms[kind_index(Tag::kind)] += ms_since(walk);
}

// ---- prepared ahead of a rebuild (docs/adr/0034) ------------------------------------------------

size_t RegistryImpl::prepare_rebuild(WGPUDevice device, uint64_t texture_bytes) {
  if (refused_inside_recording("prepare_rebuild")) return 0;
  discard_prepared();
  spare_.last_rehearsal = {};
  if (device_lost_ || device == nullptr || device == device_) return 0;
  // make_object makes on device_ and finds what an object uses through resolve_now: while they
  // are made, device_ is the other device and resolve_now finds each prepared object before the
  // slot's own, so a pipeline is made of the other device's layout and modules. The slots are
  // not touched: other threads resolve them meanwhile, and must get this device's objects. The
  // registry's lock keeps its other calls out until device_ is its own again.
  const WGPUDevice own_device = std::exchange(device_, device);
  Remaking remaking(remaking_);
  spare_.preparing = true;
  detail::for_each_kind(detail::KindOrder::Build, [&]<typename Tag>() {
    if constexpr (detail::kPreparedKind<Tag>) prepare_all<Tag>();
  });
  prepare_textures(texture_bytes);
  spare_.last_rehearsal = rehearse_draws();
  spare_.preparing = false;
  device_ = own_device;
  spare_.device = device;
  return spare_.objects.size();
}

template <typename Tag>
std::vector<SlotId> RegistryImpl::live_with_recipes() const {
  auto s = store<Tag>();
  std::vector<SlotId> live;
  s.pool.for_each_live([&](SlotId id, Object<Tag> object) {
    if (object != nullptr && s.records[id.index].recipe) live.push_back(id);
  });
  return live;
}

template <typename Tag>
void RegistryImpl::prepare_all() {
  auto s = store<Tag>();
  for (SlotId id : live_with_recipes<Tag>()) {
    Result<Object<Tag>> made = make_object<Tag>(*s.records[id.index].recipe);
    if (!made) continue;  // the rebuild makes it again and reports what the device says
    spare_.objects.emplace(std::pair{Tag::kind, id.bits}, *made);
  }
  // What is kept for its dependents is made too: they are made of it there.
  std::vector<uint64_t> kept;
  for (const auto& [bits, entry] : custody<Tag>()) {
    if (entry.object != nullptr && entry.record.recipe) kept.push_back(bits);
  }
  for (uint64_t bits : kept) {
    Result<Object<Tag>> made = make_object<Tag>(*custody<Tag>().at(bits).record.recipe);
    if (made) spare_.objects.emplace(std::pair{Tag::kind, bits}, *made);
  }
}

namespace {

// The bytes a texture holds at most: every level of every layer (or slice), every sample, at
// the widest its format's texels can take, so that a budget is never undercounted.
uint64_t texture_storage_bytes(const TextureDescription& d) {
  const uint64_t texel = gpu::texel_bytes_at_most(d.format);
  const bool is_3d = d.dimension == WGPUTextureDimension_3D;
  uint64_t total = 0;
  for (uint32_t level = 0; level < std::max(d.mip_level_count, 1u); ++level) {
    const uint64_t w = std::max(d.size.width >> level, 1u);
    const uint64_t h = std::max(d.size.height >> level, 1u);
    const uint64_t depth = is_3d ? std::max(d.size.depthOrArrayLayers >> level, 1u) : d.size.depthOrArrayLayers;
    total += w * h * depth;
  }
  return total * texel * std::max(d.sample_count, 1u);
}

}  // namespace

// Textures first made first, each while the budget still has room for it (a later, smaller one
// may fit where an earlier one did not); the recovery writes their kept contents as it would
// into textures it made.
void RegistryImpl::prepare_textures(uint64_t budget) {
  spare_.texture_bytes = 0;
  if (budget == 0) return;
  auto s = store<TextureTag>();
  for (SlotId id : live_with_recipes<TextureTag>()) {
    const TextureDescription& recipe = *s.records[id.index].recipe;
    const uint64_t bytes = texture_storage_bytes(recipe);
    if (bytes > budget - spare_.texture_bytes) continue;
    Result<WGPUTexture> made = make_object<TextureTag>(recipe);
    if (!made) continue;  // the rebuild makes it again and reports what the device says
    spare_.objects.emplace(std::pair{ResourceKind::Texture, id.bits}, *made);
    spare_.texture_bytes += bytes;
  }
}

void RegistryImpl::drop_prepared(ResourceKind kind, uint64_t bits, const TextureDescription* texture) {
  // Not while prepare_rebuild walks its set; and the other device of a backend that takes calls
  // on one thread is the frame thread's to call: its discard or the rebuild lets go then.
  if (spare_.preparing || carrier_.carries()) return;
  auto found = spare_.objects.find({kind, bits});
  if (found == spare_.objects.end()) return;
  release_object_of(kind, found->second, Ownership::Owned);
  spare_.objects.erase(found);
  if (texture != nullptr) spare_.texture_bytes -= std::min(spare_.texture_bytes, texture_storage_bytes(*texture));
}

template <typename Tag>
RegistryImpl::Object<Tag> RegistryImpl::take_prepared(uint64_t bits) {
  if constexpr (!detail::kMayBePrepared<Tag>) {
    return nullptr;
  } else {
    auto found = spare_.objects.find({Tag::kind, bits});
    if (found == spare_.objects.end()) return nullptr;
    auto object = static_cast<Object<Tag>>(found->second);
    spare_.objects.erase(found);
    return object;
  }
}

void RegistryImpl::discard_prepared() {
  for (const auto& [key, object] : spare_.objects) release_object_of(key.first, object, Ownership::Owned);
  spare_.objects.clear();
  spare_.texture_bytes = 0;
  spare_.device = nullptr;
}

void RegistryImpl::restore_contents(BufferHandle handle, detail::Record<BufferTag>& rec, RebuildReport& report) {
  const BufferDescription& desc = *rec.recipe;
  switch (desc.contents) {
    case ContentsSource::Callback:
      refills_.push_back([this, handle, refill = desc.refill] { refill(facade_, handle); });
      return;
    case ContentsSource::None: report.contents_lost.buffers.push_back(handle); return;
    case ContentsSource::Kept: break;
  }
  write_kept(*find(handle), rec);
  // Written through the mapping at creation and unmapped without unmap_buffer: nothing was kept.
  const bool mapping_lost = desc.mapped_at_creation && !rec.data.mapping_kept;
  if ((desc.usage & kGpuWrittenBuffer) != 0 || mapping_lost) {
    report.contents_lost.buffers.push_back(handle);
    // Not zeroed: the application is told its bytes are back but the GPU's are not.
    if (!rec.data.kept.empty()) report.contents_lost.buffers_with_kept_bytes.push_back(handle);
  }
}

BufferDescription RegistryImpl::as_rebuilt(const detail::Record<BufferTag>& rec) {
  BufferDescription made = *rec.recipe;
  made.mapped_at_creation = made.mapped_at_creation && made.contents == ContentsSource::Kept && !rec.data.kept.empty();
  return made;
}

void RegistryImpl::restore_contents(TextureHandle handle, detail::Record<TextureTag>& rec, RebuildReport& report) {
  const TextureDescription& desc = *rec.recipe;
  switch (desc.contents) {
    case ContentsSource::Callback:
      refills_.push_back([this, handle, refill = desc.refill] { refill(facade_, handle); });
      return;
    case ContentsSource::None: report.contents_lost.textures.push_back(handle); return;
    case ContentsSource::Kept: break;
  }
  write_kept(*find(handle), rec);
  if ((desc.usage & kGpuWrittenTexture) != 0) {
    report.contents_lost.textures.push_back(handle);
    if (!rec.data.kept.empty()) report.contents_lost.textures_with_kept_bytes.push_back(handle);
  }
}

void RegistryImpl::write_kept(WGPUBuffer object, const detail::Record<BufferTag>& rec) {
  if (procs_.BufferGetMapState(object) == WGPUBufferMapState_Mapped) {  // made so by as_rebuilt
    if (void* mapped = procs_.BufferGetMappedRange(object, 0, rec.data.kept.size())) {
      std::memcpy(mapped, rec.data.kept.data(), rec.data.kept.size());
    }
    procs_.BufferUnmap(object);
    return;
  }
  if (!rec.data.kept.empty()) procs_.QueueWriteBuffer(queue_, object, 0, rec.data.kept.data(), rec.data.kept.size());
}

void RegistryImpl::write_kept(WGPUTexture object, const detail::Record<TextureTag>& rec) {
  for (const detail::KeptSubresource& kept : rec.data.kept) {
    WGPUTexelCopyTextureInfo dst{};
    dst.texture = object;
    dst.mipLevel = kept.mip_level;
    dst.origin = {0, 0, kept.layer};
    dst.aspect = kept.aspect;
    WGPUTexelCopyBufferLayout layout{};
    layout.bytesPerRow = kept.row_bytes;
    layout.rowsPerImage = kept.rows;
    const WGPUExtent3D size{kept.width, kept.rows, 1};
    procs_.QueueWriteTexture(queue_, &dst, kept.texels.data(), kept.texels.size(), &layout, &size);
  }
}

}  // namespace warden::resources

