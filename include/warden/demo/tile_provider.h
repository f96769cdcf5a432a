// TileProvider: where the demo's tiles come from (reprojected imagery, a slippy-map folder).
// The TileServer calls produce() on its worker thread, one tile at a time.
#pragma once

#include <cstdint>

#include "warden/core/result.h"
#include "warden/demo/image.h"
#include "warden/tiles/tile_cache.h"

namespace warden::demo {

/// The deepest zoom the demo addresses: 2^24 tiles a side keeps tile pixels within a double's
/// exact integers and far beyond any imagery.
inline constexpr uint32_t kMaxSourceZoom = 24;  // shallower than tiles::kMaxZoom, the deepest a TileKey may be

/// An error naming the tile when it lies outside the pyramid (zoom above kMaxSourceZoom, x or y not
/// below 2^z).
Result<void> check_tile_key(const tiles::TileKey& key);

/// A source of tiles the TileServer fetches from.
class TileProvider {
 public:
  virtual ~TileProvider() = default;
  /// A tile_size x tile_size image of `key`, or an error naming the tile and the problem.
  virtual Result<present::Image> produce(const tiles::TileKey& key) = 0;
  /// Width and height of every tile it produces.
  virtual uint32_t tile_size() const = 0;
};

}  // namespace warden::demo
