#include "warden/demo/mercator_tiler.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "warden/demo/mercator.h"
#include "warden/demo/messages.h"
#include "warden/demo/stamp.h"

namespace warden::demo {

Result<void> check_tile_key(const tiles::TileKey& key) {
  if (key.z > kMaxSourceZoom) {
    return make_error(
        ErrorKind::InvalidArgument, MessageId::TileSourceZoomTooDeep,
        fmt::format("tile {}/{}/{}: zoom {} is beyond the deepest zoom {}", key.z, key.x, key.y, key.z, kMaxSourceZoom));
  }
  const uint64_t side = uint64_t{1} << key.z;
  if (key.x >= side || key.y >= side) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileSourceKeyOutside,
                      fmt::format("tile {}/{}/{} does not exist: x and y must be below {} at zoom {}", key.z, key.x,
                                  key.y, side, key.z));
  }
  return {};
}

Result<MercatorTiler> MercatorTiler::create(present::Image equirectangular, uint32_t tile_size) {
  if (tile_size == 0) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileSourceSizeZero, "MercatorTiler: tile size is 0");
  }
  if (equirectangular.width == 0 || equirectangular.height == 0) {
    return make_error(ErrorKind::InvalidArgument, MessageId::MercatorSourceEmpty,
                      "MercatorTiler: the source image is empty");
  }
  return MercatorTiler(std::move(equirectangular), tile_size);
}

uint32_t MercatorTiler::native_zoom() const {
  uint32_t zoom = 0;
  while ((uint64_t{tile_size_} << zoom) < source_.width) ++zoom;
  return zoom;
}

present::Rgba MercatorTiler::sample(double x, double y) const {
  // Texel centres sit at +0.5; longitude wraps around, latitude clamps at the poles.
  const double u = x - 0.5, v = y - 0.5;
  const double fu = std::floor(u), fv = std::floor(v);
  const double tu = u - fu, tv = v - fv;
  const auto w = static_cast<int64_t>(source_.width), h = static_cast<int64_t>(source_.height);
  auto column = [w](int64_t i) { return static_cast<uint32_t>(((i % w) + w) % w); };
  auto row = [h](int64_t j) { return static_cast<uint32_t>(std::clamp<int64_t>(j, 0, h - 1)); };
  const auto i0 = static_cast<int64_t>(fu), j0 = static_cast<int64_t>(fv);
  const present::Rgba a = source_.at(column(i0), row(j0)), b = source_.at(column(i0 + 1), row(j0));
  const present::Rgba c = source_.at(column(i0), row(j0 + 1)), d = source_.at(column(i0 + 1), row(j0 + 1));
  auto mix = [&](uint8_t pa, uint8_t pb, uint8_t pc, uint8_t pd) {
    const double top = pa + (pb - pa) * tu, bottom = pc + (pd - pc) * tu;
    return static_cast<uint8_t>(std::lround(top + (bottom - top) * tv));
  };
  return {mix(a.r, b.r, c.r, d.r), mix(a.g, b.g, c.g, d.g), mix(a.b, b.b, c.b, d.b), mix(a.a, b.a, c.a, d.a)};
}

Result<present::Image> MercatorTiler::produce(const tiles::TileKey& key) {
  if (auto valid = check_tile_key(key); !valid) return valid.error();
  present::Image tile = present::Image::filled(tile_size_, tile_size_, present::Rgba{});
  // Longitude depends only on the column and latitude only on the row: compute each once.
  std::vector<double> source_x(tile_size_), source_y(tile_size_);
  for (uint32_t i = 0; i < tile_size_; ++i) {
    const double world = static_cast<double>(key.x) * tile_size_ + i + 0.5;
    const LatLon at = to_lat_lon({world, 0}, key.z, tile_size_);
    source_x[i] = to_equirectangular({0, at.lon}, source_.width, source_.height).x;
  }
  for (uint32_t j = 0; j < tile_size_; ++j) {
    const double world = static_cast<double>(key.y) * tile_size_ + j + 0.5;
    const LatLon at = to_lat_lon({0, world}, key.z, tile_size_);
    source_y[j] = to_equirectangular({at.lat, 0}, source_.width, source_.height).y;
  }
  for (uint32_t j = 0; j < tile_size_; ++j) {
    for (uint32_t i = 0; i < tile_size_; ++i) tile.set(i, j, sample(source_x[i], source_y[j]));
  }
  if (auto stamped = draw_stamp(tile, stamp_text(key), 4, 4); !stamped) return stamped.error();
  return tile;
}

Result<BlueMarble> BlueMarble::load(const std::filesystem::path& dir, uint32_t tile_size) {
  auto load_one = [&](const char* name) -> Result<MercatorTiler> {
    auto image = read_jpeg(dir / name);
    if (!image) {
      Error error = image.error();
      if (error.kind == ErrorKind::NotFound) error.message += " (Debian's xplanet-images package provides it)";
      return error;
    }
    return MercatorTiler::create(std::move(*image), tile_size);
  };
  auto day = load_one("earth.jpg");
  if (!day) return day.error();
  auto night = load_one("night.jpg");
  if (!night) return night.error();
  return BlueMarble{std::move(*day), std::move(*night)};
}

}  // namespace warden::demo
