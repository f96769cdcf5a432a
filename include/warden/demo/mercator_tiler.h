// MercatorTiler: cuts Web Mercator slippy-map tiles on demand out of one equirectangular image
// of the whole Earth, each stamped with its z/x/y. Texels are sampled bilinearly, so zoom
// levels finer than the source (native_zoom() and below) come out upsampled, not blocky.
#pragma once

#include <cstdint>
#include <filesystem>

#include "warden/demo/tile_provider.h"

namespace warden::demo {

/// Cuts an equirectangular image into Web Mercator tiles, each stamped with its z/x/y.
class MercatorTiler final : public TileProvider {
 public:
  /// An empty image or a tile size of 0 is an InvalidArgument error.
  static Result<MercatorTiler> create(present::Image equirectangular, uint32_t tile_size = 256);

  /// Reads only the source image, which never changes: safe from any thread.
  Result<present::Image> produce(const tiles::TileKey& key) override;
  /// Width and height of the tiles it produces.
  uint32_t tile_size() const override { return tile_size_; }
  /// The first zoom whose world is at least as wide as the source image: deeper is upsampled.
  uint32_t native_zoom() const;
  /// The equirectangular image it reprojects.
  const present::Image& source() const { return source_; }

 private:
  MercatorTiler(present::Image source, uint32_t tile_size) : source_(std::move(source)), tile_size_(tile_size) {}
  present::Rgba sample(double x, double y) const;  // bilinear, at continuous source pixel coordinates

  present::Image source_;
  uint32_t tile_size_;
};

/// NASA's Blue Marble day and night Earth, as Debian's xplanet-images package ships them.
inline constexpr const char* kXplanetImagesDir = "/usr/share/xplanet/images";

/// NASA's Blue Marble day and night maps as tile providers.
struct BlueMarble {
  /// The day map.
  MercatorTiler day;
  /// The night map.
  MercatorTiler night;
  /// Decodes dir/earth.jpg and dir/night.jpg; a missing file says which package provides it.
  static Result<BlueMarble> load(const std::filesystem::path& dir = kXplanetImagesDir, uint32_t tile_size = 256);
};

}  // namespace warden::demo
