// Tiles that say which tile they are by their colour, for the tests that read tile pixels back:
// a wrong tile, or a layer still holding an earlier tile, shows as the wrong colour.
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "warden/tiles/tile_cache.h"

namespace warden::testing {

using Rgba = std::array<uint8_t, 4>;

// One colour per key of the first few zoom levels.
inline Rgba key_colour(const tiles::TileKey& k) {
  return {static_cast<uint8_t>(40 + 80 * k.z), static_cast<uint8_t>(20 + 50 * k.x), static_cast<uint8_t>(20 + 50 * k.y),
          255};
}

// A side x side tile of one colour (RGBA8 rows).
inline std::vector<uint8_t> solid_tile(Rgba c, uint32_t side) {
  std::vector<uint8_t> t(size_t{side} * side * 4);
  for (size_t i = 0; i < t.size(); i += 4) std::memcpy(&t[i], c.data(), 4);
  return t;
}

// Within 2 per channel: filtering and the mip box filter round.
inline bool near(Rgba a, Rgba b) {
  for (int i = 0; i < 4; ++i) {
    if (std::abs(int{a[i]} - int{b[i]}) > 2) return false;
  }
  return true;
}

inline std::string show(Rgba c) {
  return "(" + std::to_string(c[0]) + "," + std::to_string(c[1]) + "," + std::to_string(c[2]) + "," +
         std::to_string(c[3]) + ")";
}

// Every tile of zoom level z, row by row.
inline std::vector<tiles::TileKey> tiles_of_level(uint32_t z) {
  std::vector<tiles::TileKey> keys;
  for (uint32_t y = 0; y < (1u << z); ++y) {
    for (uint32_t x = 0; x < (1u << z); ++x) keys.push_back({z, x, y});
  }
  return keys;
}

// Every tile of level z, then those of each coarser level: a view of the whole level and every
// ancestor that stands in while its tiles arrive.
inline std::vector<tiles::TileKey> level_and_ancestors(uint32_t z) {
  std::vector<tiles::TileKey> keys = tiles_of_level(z);
  for (uint32_t coarser = z; coarser-- > 0;) {
    const std::vector<tiles::TileKey> level = tiles_of_level(coarser);
    keys.insert(keys.end(), level.begin(), level.end());
  }
  return keys;
}

}  // namespace warden::testing
