#include "warden/tiles/tile_cache.h"

#include <fmt/format.h>

namespace warden::tiles {

std::string to_string(const TileKey& key) { return fmt::format("tile z{}/{}/{}", key.z, key.x, key.y); }

Result<TileCache> TileCache::create(LayerPool& pool, uint64_t budget_bytes, uint64_t layer_bytes) {
  if (layer_bytes == 0) return make_error(ErrorKind::InvalidArgument, "TileCache: layer_bytes is 0");
  if (budget_bytes < layer_bytes) {
    return make_error(ErrorKind::InvalidArgument,
                      fmt::format("TileCache: budget of {} bytes holds no layer of {} bytes", budget_bytes, layer_bytes));
  }
  return TileCache(pool, budget_bytes, layer_bytes);
}

void TileCache::mark_used(Entry& entry) { lru_.splice(lru_.begin(), lru_, entry.lru); }

bool TileCache::evict_lru() {
  for (auto it = lru_.rbegin(); it != lru_.rend(); ++it) {
    auto entry = entries_.find(*it);
    if (entry->second.pinned) continue;
    (void)evict(entry->first);
    return true;
  }
  return false;
}

Result<void> TileCache::evict(const TileKey& key) {
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    return make_error(ErrorKind::NotFound, fmt::format("evict: {} is not resident", to_string(key)));
  }
  LayerIndex layer = it->second.layer;
  lru_.erase(it->second.lru);
  entries_.erase(it);
  ++evictions_;
  return pool_->release(layer);
}

Result<void> TileCache::pin(const TileKey& key, bool pinned) {
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    return make_error(ErrorKind::NotFound, fmt::format("pin: {} is not resident", to_string(key)));
  }
  it->second.pinned = pinned;
  return {};
}

std::optional<LayerIndex> TileCache::layer_of(const TileKey& key) const {
  auto it = entries_.find(key);
  if (it == entries_.end()) return std::nullopt;
  return it->second.layer;
}

Result<LoadStatus> TileCache::load(const TileKey& key, const Fill& fill, Priority priority) {
  if (key.z > 30 || key.x >= (1u << key.z) || key.y >= (1u << key.z)) {
    return make_error(ErrorKind::InvalidArgument,
                      fmt::format("load: {} is outside the pyramid (x and y must be below 2^z, z <= 30)", to_string(key)));
  }
  if (auto it = entries_.find(key); it != entries_.end()) {
    mark_used(it->second);
    return LoadStatus::AlreadyResident;
  }
  while (resident_bytes() + layer_bytes_ > budget_bytes_) {
    if (!evict_lru()) return LoadStatus::Deferred;  // everything resident is pinned
  }
  std::optional<LayerIndex> layer = pool_->acquire(priority);
  if (!layer && evict_lru()) layer = pool_->acquire(priority);  // a layer retired long ago may free one
  if (!layer) return LoadStatus::Deferred;

  // The finally: whatever way the fill ends short of success, the layer goes back to the pool
  // (the seed's "layers leak until nothing is free").
  struct ReleaseUnlessKept {
    LayerPool* pool;
    LayerIndex layer;
    bool keep = false;
    ~ReleaseUnlessKept() {
      if (!keep) (void)pool->release(layer);
    }
  } guard{pool_, *layer};
  Result<void> filled = fill(key, *layer);
  if (!filled) return filled.error();

  guard.keep = true;
  lru_.push_front(key);
  entries_.emplace(key, Entry{*layer, false, lru_.begin()});
  return LoadStatus::Loaded;
}

std::optional<TileSource> TileCache::draw_source(const TileKey& key) {
  TileSource source;
  TileKey at = key;
  for (uint32_t up = 0;; ++up) {
    if (auto it = entries_.find(at); it != entries_.end()) {
      mark_used(it->second);
      // The entry is resident, so its layer is allocated: touch cannot fail.
      (void)pool_->touch(it->second.layer);
      source.drawn = at;
      source.layer = it->second.layer;
      source.levels_up = up;
      const uint32_t span = 1u << up;  // tiles of `key`'s zoom across one ancestor
      source.scale = 1.0f / static_cast<float>(span);
      source.u0 = static_cast<float>(key.x % span) * source.scale;
      source.v0 = static_cast<float>(key.y % span) * source.scale;
      return source;
    }
    auto parent = at.parent();
    if (!parent || up >= 31) return std::nullopt;
    at = *parent;
  }
}

}  // namespace warden::tiles
