// The standby preparer (standby_preparer.h); its draw rehearsal is draw_rehearsal.cpp.
#include "resources/standby_preparer.h"
#include "resources/staged_upload.h"
#include "warden/gpu/abi.h"

#include <algorithm>
#include <utility>

#include "resources/kind_order.h"
#include "resources/registry_impl.h"
#include "warden/gpu/names.h"

namespace warden::resources::detail {

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

size_t StandbyPreparer::prepare(WGPUDevice device, uint64_t texture_bytes, uint64_t contents_bytes) {
  discard();
  last_rehearsal_ = {};
  RegistryImpl& r = registry_;
  if (r.device_lost() || device == nullptr || device == r.device_) return 0;
  // make_object makes on the registry's device and finds what an object uses through
  // resolve_now: while they are made, that device is the spare and resolve_now finds each
  // object made here before the slot's own (stand_in), so a pipeline is made of the spare's
  // layout and modules. The slots are not touched: other threads resolve them meanwhile, and
  // must get the registry's own objects. The registry's lock keeps its other calls out until
  // its device is its own again.
  const WGPUDevice own_device = std::exchange(r.device_, device);
  RegistryImpl::Remaking remaking(r.remaking_);
  device_ = device;
  preparing_ = true;
  for_each_kind(KindOrder::Build, [&]<typename Tag>() {
    if constexpr (kPreparedKind<Tag>) prepare_all<Tag>();
  });
  prepare_textures(texture_bytes);
  if (contents_bytes > 0 && r.contents_upload_now() == ContentsUpload::Staging) stage_contents(contents_bytes, contents_bytes);
  last_rehearsal_ = rehearse_draws();
  preparing_ = false;
  r.device_ = own_device;
  return objects_.size();
}

template <typename Tag>
std::vector<SlotId> StandbyPreparer::live_with_recipes() const {
  auto s = registry_.store<Tag>();
  std::vector<SlotId> live;
  s.pool.for_each_live([&](SlotId id, Object<Tag> object) {
    if (object != nullptr && s.records[id.index].recipe) live.push_back(id);
  });
  return live;
}

template <typename Tag>
void StandbyPreparer::prepare_all() {
  auto s = registry_.store<Tag>();
  for (SlotId id : live_with_recipes<Tag>()) {
    Result<Object<Tag>> made = registry_.make_object<Tag>(*s.records[id.index].recipe);
    if (!made) continue;  // the rebuild makes it again and reports what the device says
    objects_.emplace(std::pair{Tag::kind, id.bits}, *made);
  }
  // What is kept for its dependents is made too: they are made of it there.
  std::vector<uint64_t> kept;
  for (const auto& [bits, entry] : registry_.custody<Tag>()) {
    if (entry.object != nullptr && entry.record.recipe) kept.push_back(bits);
  }
  for (uint64_t bits : kept) {
    Result<Object<Tag>> made = registry_.make_object<Tag>(*registry_.custody<Tag>().at(bits).record.recipe);
    if (made) objects_.emplace(std::pair{Tag::kind, bits}, *made);
  }
}

// Textures first made first, each while the budget still has room for it (a later, smaller one
// may fit where an earlier one did not); the recovery writes their kept contents as it would
// into textures it made.
void StandbyPreparer::prepare_textures(uint64_t budget) {
  texture_bytes_ = 0;
  if (budget == 0) return;
  auto s = registry_.store<TextureTag>();
  for (SlotId id : live_with_recipes<TextureTag>()) {
    const TextureDescription& recipe = *s.records[id.index].recipe;
    const uint64_t bytes = texture_storage_bytes(recipe);
    if (bytes > budget - texture_bytes_) continue;
    Result<WGPUTexture> made = registry_.make_object<TextureTag>(recipe);
    if (!made) continue;  // the rebuild makes it again and reports what the device says
    objects_.emplace(std::pair{ResourceKind::Texture, id.bits}, *made);
    texture_bytes_ += bytes;
  }
}

void StandbyPreparer::drop(ResourceKind kind, uint64_t bits, const TextureDescription* texture) {
  // Not while prepare() walks its set; and the spare of a backend that takes calls on one thread
  // is the frame thread's to call: its discard or the rebuild lets go then.
  if (preparing_ || registry_.carrier_.carries()) return;
  auto found = objects_.find({kind, bits});
  if (found == objects_.end()) return;
  registry_.releases_.release_object_of(kind, found->second, Ownership::Owned);
  objects_.erase(found);
  if (texture != nullptr) texture_bytes_ -= std::min(texture_bytes_, texture_storage_bytes(*texture));
}

// Kept texture contents, textures first made first, each subresource not staged yet while the
// budget has room for it and this call's step too, into mapped buffers of at most
// StagedTextureUpload::kChunkBytes (and at most the step). The rebuild onto the spare only
// copies from them what its texture still holds (its kept_version).
uint64_t StandbyPreparer::stage_contents(uint64_t budget, uint64_t step) {
  if (device_ == nullptr || staging_done_) return 0;
  struct Member {
    uint64_t bits;
    uint64_t version;
    const KeptSubresource* kept;
  };
  const uint64_t chunk_limit = std::min(step, StagedTextureUpload::kChunkBytes);
  auto s = registry_.store<TextureTag>();
  std::vector<std::vector<Member>> chunks(1);
  uint64_t chunk_bytes = 0, planned = 0;
  bool step_full = false;
  for (SlotId id : live_with_recipes<TextureTag>()) {
    const Record<TextureTag>& rec = s.records[id.index];
    if (rec.recipe->contents != ContentsSource::Kept) continue;
    for (const KeptSubresource& kept : rec.data.kept) {
      if (staged_.contains(std::tuple{id.bits, kept.aspect, kept.mip_level, kept.layer})) continue;
      const uint64_t bytes = StagedTextureUpload::staged_bytes(kept);
      if (!StagedTextureUpload::stageable(kept) || bytes > budget - std::min(budget, staged_bytes_ + planned)) continue;
      if (planned > 0 && planned + bytes > step) {  // one larger than the step goes alone
        step_full = true;  // the next call goes on from here
        break;
      }
      if (chunk_bytes + bytes > chunk_limit && chunk_bytes > 0) {
        chunks.emplace_back();
        chunk_bytes = 0;
      }
      chunks.back().push_back({id.bits, rec.data.kept_version, &kept});
      chunk_bytes += bytes;
      planned += bytes;
    }
    if (step_full) break;
  }
  staging_done_ = !step_full;
  uint64_t staged_now = 0;
  for (const std::vector<Member>& members : chunks) {
    uint64_t size = 0;
    for (const Member& m : members) size += StagedTextureUpload::staged_bytes(*m.kept);
    if (size == 0) continue;
    auto [buffer, mapped] =
        StagedTextureUpload::make_mapped(procs_, device_, size, "warden kept contents staged on the standby device");
    if (mapped == nullptr) continue;  // refused: the rebuild stages these itself
    uint64_t offset = 0;
    for (const Member& m : members) {
      StagedTextureUpload::stage_into(mapped + offset, *m.kept);
      staged_.insert_or_assign(std::tuple{m.bits, m.kept->aspect, m.kept->mip_level, m.kept->layer},
                               StagedPlace{buffer.get(), offset, m.version});
      offset += StagedTextureUpload::staged_bytes(*m.kept);
    }
    procs_.BufferUnmap(buffer.get());  // filled: the rebuild only copies from it
    staged_bytes_ += size;
    staged_now += size;
    staging_.push_back(std::move(buffer));
  }
  return staged_now;
}

const StandbyPreparer::StagedPlace* StandbyPreparer::staged_place(uint64_t bits, const KeptSubresource& kept,
                                                                  uint64_t version) const {
  auto found = staged_.find(std::tuple{bits, kept.aspect, kept.mip_level, kept.layer});
  if (found == staged_.end() || found->second.version != version) return nullptr;
  return &found->second;
}

void StandbyPreparer::discard() {
  for (const auto& [key, object] : objects_) registry_.releases_.release_object_of(key.first, object, Ownership::Owned);
  objects_.clear();
  staging_.clear();
  staged_.clear();
  staged_bytes_ = 0;
  staging_done_ = false;
  texture_bytes_ = 0;
  device_ = nullptr;
}

}  // namespace warden::resources::detail
