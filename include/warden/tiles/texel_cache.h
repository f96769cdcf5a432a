/// @file
/// TexelCache: decoded tiles kept in memory, so a tile evicted from VRAM or lost with a device
/// comes back at the cost of an upload instead of a fetch.
///
/// It holds each tile's level-0 texels exactly as the fetcher delivered them, keyed by TileKey,
/// under a byte budget of its own (the texels' sizes, nothing else counted). When a new tile
/// would pass the budget, the least recently used tiles go first; a use is a put() or a touch()
/// (the tile layer touches every tile it is asked for, resident in VRAM or not, so the tiles on
/// screen are the last to go). A tile larger than the whole budget is not kept; a budget of 0
/// keeps nothing. Frame-thread only, like the TileCache.
#pragma once

#include <cstdint>
#include <list>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "warden/tiles/tile_cache.h"

namespace warden::tiles {

/// What a TexelCache has done so far.
struct TexelCacheCounts {
  uint64_t puts = 0;       ///< tiles stored (a put of a held tile replaces it and counts)
  uint64_t rejected = 0;   ///< tiles not stored: larger than the whole budget (or the budget is 0)
  uint64_t evictions = 0;  ///< tiles dropped to make room
};

/// Decoded tiles in memory, least recently used first out, under a byte budget (see the file
/// comment).
class TexelCache {
 public:
  /// A cache that holds at most `budget_bytes` of texels; 0 holds nothing.
  explicit TexelCache(uint64_t budget_bytes) : budget_bytes_(budget_bytes) {}

  /// Keeps `texels` for `key` as the most recently used tile, replacing what it held for the
  /// key, evicting the least recently used tiles the budget requires. False when the texels
  /// alone exceed the budget: nothing is kept for the key then (an older copy goes too).
  bool put(const TileKey& key, std::vector<uint8_t> texels);
  /// The texels held for `key`, marked used; nullopt when none are held. The span is valid
  /// until the next put(), erase() or clear().
  std::optional<std::span<const uint8_t>> take(const TileKey& key);
  /// Marks `key` used, when held; true when held.
  bool touch(const TileKey& key);
  /// True when texels for `key` are held (no use marked).
  bool contains(const TileKey& key) const { return index_.contains(key); }
  /// Drops the texels of `key`; false when none were held.
  bool erase(const TileKey& key);
  /// Drops every tile (a new data set).
  void clear();

  /// Bytes of the texels held now; never above budget_bytes().
  uint64_t bytes() const { return bytes_; }
  /// The budget given at construction.
  uint64_t budget_bytes() const { return budget_bytes_; }
  /// Tiles held now.
  size_t count() const { return index_.size(); }
  /// What it has done so far.
  const TexelCacheCounts& counts() const { return counts_; }
  /// The held tiles, least recently used first (for tests and reports).
  std::vector<TileKey> keys_by_use() const;

 private:
  struct Held {
    TileKey key;
    std::vector<uint8_t> texels;
  };
  using Order = std::list<Held>;  // least recently used first
  void drop(Order::iterator it);

  uint64_t budget_bytes_;
  uint64_t bytes_ = 0;
  Order order_;
  std::unordered_map<TileKey, Order::iterator, TileKeyHash> index_;
  TexelCacheCounts counts_;
};

}  // namespace warden::tiles
