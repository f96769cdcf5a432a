// What the TileCache tests share: a fill that always succeeds and a layer size.
#pragma once

#include <cstdint>
#include <vector>

#include "warden/tiles/tile_cache.h"

namespace warden::tiles::test {

// Bytes of one layer; the cache only divides its budget by it.
inline constexpr uint64_t kLayer = 1000;

// A fill that succeeds, writing nothing; when `filled` is given, it records each layer filled.
inline TileCache::Fill fill_ok(std::vector<LayerIndex>* filled = nullptr) {
  return [filled](const TileKey&, LayerIndex layer) -> Result<void> {
    if (filled != nullptr) filled->push_back(layer);
    return {};
  };
}

}  // namespace warden::tiles::test
