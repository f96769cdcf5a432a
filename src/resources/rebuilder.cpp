// The rebuilder (rebuilder.h).
#include "resources/rebuilder.h"

#include <chrono>
#include <cstring>
#include <optional>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "resources/kind_order.h"
#include "resources/registry_impl.h"

namespace warden::resources::detail {

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

RebuildReport Rebuilder::rebuild(uint64_t generation) {
  RegistryImpl& r = registry_;
  RebuildReport report;
  report.generation = generation;
  report.timings.contents_upload = r.contents_upload_now();
  std::optional<StagedTextureUpload> staging;
  if (report.timings.contents_upload == ContentsUpload::Staging) staging.emplace(procs_, r.device_, r.queue_);
  // This rebuild's own: a rebuild re-entered from an application's callback meanwhile stages
  // into its own and gives this one back.
  StagedTextureUpload* const outer = std::exchange(staging_, staging ? &*staging : nullptr);
  // Dependency order: what an object uses is made before it; what is kept for its dependents
  // before the slots of its kind (docs/adr/0049).
  {
    RegistryImpl::Remaking remaking(r.remaking_);
    for_each_kind(KindOrder::Build, [&]<typename Tag>() {
      rebuild_custody<Tag>(report);
      rebuild_slots<Tag>(report);
    });
  }
  staging_ = outer;
  // Lost again meanwhile, or moved on to a newer device: these copies belong to a device gone.
  if (staging && !r.device_lost() && r.device_generation_ == generation) {
    const auto submitting = Clock::now();
    report.timings.staged_bytes = staging->submit();
    report.timings.staged_ahead_bytes = staging->staged_ahead_bytes();
    report.timings.contents_ms += ms_since(submitting);
  }
  r.standby_.discard();  // what no slot took (destroyed since it was prepared)
  // The application writes its contents once every object exists (a refill may use any).
  const auto refilling = Clock::now();
  std::vector<std::function<void()>> refills = std::move(refills_);
  refills_.clear();
  for (const auto& refill : refills) {
    // Lost again meanwhile, or already rebuilt for a newer device from inside a refill (which
    // ran that device's own refills): the rest belong to a device that is gone.
    if (r.device_lost() || r.device_generation_ != generation) break;
    refill();
  }
  report.timings.refills_ms = ms_since(refilling);
  return report;
}

template <typename Tag>
void Rebuilder::rebuild_slots(RebuildReport& report) {
  auto s = registry_.store<Tag>();
  std::vector<SlotId> lost;
  s.pool.for_each_live([&](SlotId id, Object<Tag> object) {
    if (object == nullptr) lost.push_back(id);
  });
  // Contents are timed on their own (RebuildTimings::contents_ms), so the kind's time is the
  // walk less what restore_contents took.
  const auto walk = Clock::now();
  const double contents_before = report.timings.contents_ms;
  for (SlotId id : lost) {
    Record<Tag>& rec = s.records[id.index];
    if (!rec.recipe) {
      report.awaiting_owner.push_back(fmt::format("{} \"{}\"", to_string(Tag::kind), rec.label));
      continue;
    }
    Result<Object<Tag>> made = remake<Tag>(id.bits, rec, report);
    if (!made) {
      slot_edges::refused(rec, made.error().message);
      report.failed.push_back(fmt::format("{} \"{}\": {}", to_string(Tag::kind), rec.label, rec.failure));
      continue;
    }
    s.pool.exchange(id.bits, *made);
    slot_edges::rebuilt(rec);
    ++report.rebuilt;
    if constexpr (std::is_same_v<Tag, RenderBundleTag>) registry_.set_recorded_uses(rec, std::move(registry_.recorded_uses_));
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
Result<Rebuilder::Object<Tag>> Rebuilder::remake(uint64_t bits, Record<Tag>& rec,
                                                                   RebuildReport& report) {
  if (Object<Tag> prepared = registry_.standby_.take<Tag>(bits)) {
    ++report.prepared_taken;
    return prepared;
  }
  if constexpr (std::is_same_v<Tag, BufferTag>) {
    return registry_.make_object<BufferTag>(as_rebuilt(rec));
  } else {
    return registry_.make_object<Tag>(*rec.recipe);
  }
}

template <typename Tag>
void Rebuilder::rebuild_custody(RebuildReport& report) {
  std::vector<uint64_t> lost;
  for (const auto& [bits, kept] : registry_.custody<Tag>()) {
    if (kept.object == nullptr) lost.push_back(bits);
  }
  const auto walk = Clock::now();
  for (uint64_t bits : lost) {
    auto found = registry_.custody<Tag>().find(bits);
    if (found == registry_.custody<Tag>().end()) continue;
    Record<Tag>& rec = found->second.record;
    Result<Object<Tag>> made = remake<Tag>(bits, rec, report);
    if (!made) {
      slot_edges::refused(rec, made.error().message);
      report.failed.push_back(fmt::format("{} \"{}\" (destroyed, kept for what names it): {}", to_string(Tag::kind),
                                          rec.label, rec.failure));
      continue;
    }
    found->second.object = *made;
    slot_edges::rebuilt(rec);
    ++report.rebuilt;
    if constexpr (std::is_same_v<Tag, RenderBundleTag>) registry_.set_recorded_uses(rec, std::move(registry_.recorded_uses_));
    // Its handle is dead: only kept bytes come back (no refill can name it, no report can).
    if constexpr (std::is_same_v<Tag, BufferTag> || std::is_same_v<Tag, TextureTag>) {
      if (rec.recipe->contents == ContentsSource::Kept) {
        if constexpr (std::is_same_v<Tag, TextureTag>) {
          write_kept(*made, rec, bits);
        } else {
          write_kept(*made, rec);
        }
      }
    }
  }
  report.timings.kind_ms[kind_index(Tag::kind)] += ms_since(walk);
}

void Rebuilder::restore_contents(BufferHandle handle, Record<BufferTag>& rec, RebuildReport& report) {
  const BufferDescription& desc = *rec.recipe;
  switch (desc.contents) {
    case ContentsSource::Callback:
      refills_.push_back([this, handle, refill = desc.refill] { refill(registry_.facade_, handle); });
      return;
    case ContentsSource::None: report.contents_lost.buffers.push_back(handle); return;
    case ContentsSource::Kept: break;
  }
  write_kept(*registry_.find(handle), rec);
  // Written through the mapping at creation and unmapped without unmap_buffer: nothing was kept.
  const bool mapping_lost = desc.mapped_at_creation && !rec.data.mapping_kept;
  if ((desc.usage & kGpuWrittenBuffer) != 0 || mapping_lost) {
    report.contents_lost.buffers.push_back(handle);
    // Not zeroed: the application is told its bytes are back but the GPU's are not.
    if (!rec.data.kept.empty()) report.contents_lost.buffers_with_kept_bytes.push_back(handle);
  }
}

BufferDescription Rebuilder::as_rebuilt(const Record<BufferTag>& rec) {
  BufferDescription made = *rec.recipe;
  made.mapped_at_creation = made.mapped_at_creation && made.contents == ContentsSource::Kept && !rec.data.kept.empty();
  return made;
}

void Rebuilder::restore_contents(TextureHandle handle, Record<TextureTag>& rec, RebuildReport& report) {
  const TextureDescription& desc = *rec.recipe;
  switch (desc.contents) {
    case ContentsSource::Callback:
      refills_.push_back([this, handle, refill = desc.refill] { refill(registry_.facade_, handle); });
      return;
    case ContentsSource::None: report.contents_lost.textures.push_back(handle); return;
    case ContentsSource::Kept: break;
  }
  write_kept(*registry_.find(handle), rec, handle.bits());
  if ((desc.usage & kGpuWrittenTexture) != 0) {
    report.contents_lost.textures.push_back(handle);
    if (!rec.data.kept.empty()) report.contents_lost.textures_with_kept_bytes.push_back(handle);
  }
}

void Rebuilder::write_kept(WGPUBuffer object, const Record<BufferTag>& rec) {
  if (procs_.BufferGetMapState(object) == WGPUBufferMapState_Mapped) {  // made so by as_rebuilt
    if (void* mapped = procs_.BufferGetMappedRange(object, 0, rec.data.kept.size())) {
      std::memcpy(mapped, rec.data.kept.data(), rec.data.kept.size());
    }
    procs_.BufferUnmap(object);
    return;
  }
  if (!rec.data.kept.empty()) procs_.QueueWriteBuffer(registry_.queue_, object, 0, rec.data.kept.data(), rec.data.kept.size());
}

void Rebuilder::write_kept(WGPUTexture object, const Record<TextureTag>& rec, uint64_t bits) {
  for (const detail::KeptSubresource& kept : rec.data.kept) {
    if (staging_ != nullptr) {
      if (const auto* place = registry_.standby_.staged_place(bits, kept, rec.data.kept_version)) {
        staging_->add_staged(object, kept, place->buffer, place->offset);
        continue;
      }
      if (StagedTextureUpload::stageable(kept)) {
        staging_->add(object, kept);
        continue;
      }
    }
    StagedTextureUpload::write_texture(procs_, registry_.queue_, object, kept);
  }
}

}  // namespace warden::resources::detail
