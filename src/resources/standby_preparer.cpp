// The standby preparer (standby_preparer.h); its draw rehearsal is draw_rehearsal.cpp.
#include "resources/standby_preparer.h"

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

size_t StandbyPreparer::prepare(WGPUDevice device, uint64_t texture_bytes) {
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

void StandbyPreparer::discard() {
  for (const auto& [key, object] : objects_) registry_.releases_.release_object_of(key.first, object, Ownership::Owned);
  objects_.clear();
  texture_bytes_ = 0;
  device_ = nullptr;
}

}  // namespace warden::resources::detail
