// Web Mercator (EPSG:3857) as slippy maps use it: at zoom z the world is a square of
// tile_size * 2^z pixels, x growing east from longitude -180, y growing south from latitude
// +85.0511 (where the projection turns the world into a square) to -85.0511.
#pragma once

#include <cstdint>

namespace warden::demo {

/// The latitude Web Mercator stops at (the square world).
inline constexpr double kMercatorMaxLatitude = 85.05112877980659;

/// A place on Earth.
struct LatLon {
  /// Latitude and longitude.
  ///@{
  double lat = 0, lon = 0;  ///< degrees
  ///@}
};

/// A point in the Web Mercator pixel plane.
struct WorldPixel {
  /// The coordinates.
  ///@{
  double x = 0, y = 0;  ///< pixels of the whole world at one zoom, origin top left
  ///@}
};

/// Latitudes beyond +-kMercatorMaxLatitude are clamped to it (the map's top and bottom edges).
WorldPixel to_world_pixel(LatLon position, uint32_t zoom, uint32_t tile_size = 256);
/// The inverse of to_world_pixel().
LatLon to_lat_lon(WorldPixel pixel, uint32_t zoom, uint32_t tile_size = 256);

/// An equirectangular image (longitude linear in x from -180 at 0 to +180 at width, latitude
/// linear in y from +90 at 0 to -90 at height), as continuous pixel coordinates: the centre of
/// texel (i, j) is (i + 0.5, j + 0.5).
WorldPixel to_equirectangular(LatLon position, uint32_t width, uint32_t height);

}  // namespace warden::demo
