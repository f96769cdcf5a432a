#include "warden/demo/mercator.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace warden::demo {
namespace {
double world_size(uint32_t zoom, uint32_t tile_size) { return std::ldexp(static_cast<double>(tile_size), static_cast<int>(zoom)); }
double radians(double degrees) { return degrees * std::numbers::pi / 180.0; }
double degrees(double radians) { return radians * 180.0 / std::numbers::pi; }
}  // namespace

WorldPixel to_world_pixel(LatLon position, uint32_t zoom, uint32_t tile_size) {
  const double size = world_size(zoom, tile_size);
  const double lat = radians(std::clamp(position.lat, -kMercatorMaxLatitude, kMercatorMaxLatitude));
  const double x = (position.lon + 180.0) / 360.0 * size;
  const double y = (1.0 - std::log(std::tan(lat) + 1.0 / std::cos(lat)) / std::numbers::pi) / 2.0 * size;
  return {x, y};
}

LatLon to_lat_lon(WorldPixel pixel, uint32_t zoom, uint32_t tile_size) {
  const double size = world_size(zoom, tile_size);
  const double lon = pixel.x / size * 360.0 - 180.0;
  const double lat = degrees(std::atan(std::sinh(std::numbers::pi * (1.0 - 2.0 * pixel.y / size))));
  return {lat, lon};
}

WorldPixel to_equirectangular(LatLon position, uint32_t width, uint32_t height) {
  return {(position.lon + 180.0) / 360.0 * width, (90.0 - position.lat) / 180.0 * height};
}

}  // namespace warden::demo
