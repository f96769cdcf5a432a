#include "warden/tiles/texel_cache.h"

namespace warden::tiles {

bool TexelCache::put(const TileKey& key, std::vector<uint8_t> texels) {
  if (auto held = index_.find(key); held != index_.end()) drop(held->second);
  if (texels.size() > budget_bytes_ || texels.empty()) {
    ++counts_.rejected;
    return false;
  }
  while (bytes_ + texels.size() > budget_bytes_) {
    drop(order_.begin());
    ++counts_.evictions;
  }
  bytes_ += texels.size();
  order_.push_back({key, std::move(texels)});
  index_[key] = std::prev(order_.end());
  ++counts_.puts;
  return true;
}

std::optional<std::span<const uint8_t>> TexelCache::take(const TileKey& key) {
  auto held = index_.find(key);
  if (held == index_.end()) return std::nullopt;
  order_.splice(order_.end(), order_, held->second);  // iterators stay valid
  return std::span<const uint8_t>(held->second->texels);
}

bool TexelCache::touch(const TileKey& key) {
  auto held = index_.find(key);
  if (held == index_.end()) return false;
  order_.splice(order_.end(), order_, held->second);
  return true;
}

bool TexelCache::erase(const TileKey& key) {
  auto held = index_.find(key);
  if (held == index_.end()) return false;
  drop(held->second);
  return true;
}

void TexelCache::clear() {
  order_.clear();
  index_.clear();
  bytes_ = 0;
}

std::vector<TileKey> TexelCache::keys_by_use() const {
  std::vector<TileKey> keys;
  keys.reserve(order_.size());
  for (const Held& held : order_) keys.push_back(held.key);
  return keys;
}

void TexelCache::drop(Order::iterator it) {
  bytes_ -= it->texels.size();
  index_.erase(it->key);
  order_.erase(it);
}

}  // namespace warden::tiles
