// TileCache: which tiles of a pyramid hold a layer of the array, under a VRAM byte budget.
//
// Tiles are keyed by (z, x, y). Every resident tile costs exactly one layer's bytes (format,
// size and full mip chain: texture_bytes(..., 1 layer)); the cache evicts least recently used
// tiles so that the resident bytes never exceed the budget. Layers come only from the
// LayerPool; eviction releases the layer back to it, which makes eviction pure bookkeeping.
//
// When a tile is not resident, draw_source() falls back to its nearest resident ancestor and
// the sub-rectangle of the ancestor's texels that covers the tile. Pinned tiles (the root) are
// never evicted, so once the root is resident no tile position is ever drawn blank.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <optional>
#include <string>
#include <unordered_map>

#include "warden/core/result.h"
#include "warden/tiles/layer_pool.h"

namespace warden::tiles {

struct TileKey {
  uint32_t z = 0, x = 0, y = 0;
  bool operator==(const TileKey&) const = default;
  std::optional<TileKey> parent() const {
    if (z == 0) return std::nullopt;
    return TileKey{z - 1, x / 2, y / 2};
  }
};
std::string to_string(const TileKey& key);

struct TileKeyHash {
  size_t operator()(const TileKey& k) const noexcept {
    uint64_t h = (uint64_t{k.z} << 58) ^ (uint64_t{k.x} << 29) ^ k.y;
    return std::hash<uint64_t>{}(h);
  }
};

// Where to sample for a tile position: a layer and the sub-rectangle of its texels.
struct TileSource {
  TileKey drawn;  // the tile itself, or the ancestor standing in for it
  LayerIndex layer = 0;
  float u0 = 0, v0 = 0, scale = 1;  // texels [u0, u0 + scale) x [v0, v0 + scale)
  uint32_t levels_up = 0;           // 0: the tile itself
};

enum class LoadStatus {
  AlreadyResident,
  Loaded,
  Deferred,  // no layer free yet (all in flight) or nothing evictable: try next frame
};

class TileCache {
 public:
  // Fills the acquired layer (upload + mip chain); an error leaves the tile not resident.
  using Fill = std::function<Result<void>(const TileKey&, LayerIndex)>;

  // `layer_bytes` is one layer's exact cost; a budget smaller than one layer is an error.
  static Result<TileCache> create(LayerPool& pool, uint64_t budget_bytes, uint64_t layer_bytes);

  // Makes `key` resident: evicts LRU tiles until one more fits, acquires a layer, fills it.
  // A failed fill releases the layer on every path (error or exception) and returns the error.
  Result<LoadStatus> load(const TileKey& key, const Fill& fill, Priority priority = Priority::Normal);
  // The tile or its nearest resident ancestor, marked used (LRU) and touched in the pool for
  // the frame being recorded; nullopt when neither the tile nor any ancestor is resident.
  std::optional<TileSource> draw_source(const TileKey& key);

  bool is_resident(const TileKey& key) const { return entries_.contains(key); }
  std::optional<LayerIndex> layer_of(const TileKey& key) const;
  // A pinned tile is never evicted by the budget; unpin to let it go.
  Result<void> pin(const TileKey& key, bool pinned = true);
  // Drops a tile now and releases its layer.
  Result<void> evict(const TileKey& key);

  uint64_t resident_bytes() const { return entries_.size() * layer_bytes_; }
  uint64_t budget_bytes() const { return budget_bytes_; }
  uint64_t layer_bytes() const { return layer_bytes_; }
  size_t resident_count() const { return entries_.size(); }
  uint64_t evictions() const { return evictions_; }

 private:
  TileCache(LayerPool& pool, uint64_t budget_bytes, uint64_t layer_bytes)
      : pool_(&pool), budget_bytes_(budget_bytes), layer_bytes_(layer_bytes) {}
  struct Entry {
    LayerIndex layer;
    bool pinned = false;
    std::list<TileKey>::iterator lru;  // front: most recently used
  };
  void mark_used(Entry& entry);
  // Evicts the least recently used unpinned tile; false when there is none.
  bool evict_lru();

  LayerPool* pool_;
  uint64_t budget_bytes_;
  uint64_t layer_bytes_;
  std::list<TileKey> lru_;
  std::unordered_map<TileKey, Entry, TileKeyHash> entries_;
  uint64_t evictions_ = 0;
};

}  // namespace warden::tiles
