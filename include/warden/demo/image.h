// RgbaImage: 8-bit RGBA texels in rows, what the demo's tiles, snapshots and sources are made
// of; and the file formats it reads and writes through Debian's libjpeg-turbo and libpng.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "warden/core/result.h"

namespace warden::demo {

/// One 8-bit RGBA pixel.
struct Rgba {
  /// The channels.
  ///@{
  uint8_t r = 0, g = 0, b = 0, a = 255;
  ///@}
  /// Equal when every channel is.
  bool operator==(const Rgba&) const = default;
};

/// An 8-bit RGBA image in memory, rows top first.
struct RgbaImage {
  /// Its size in pixels.
  ///@{
  uint32_t width = 0, height = 0;
  ///@}
  std::vector<uint8_t> texels;  ///< height rows of width texels, 4 bytes each

  /// An image of one colour.
  static RgbaImage filled(uint32_t width, uint32_t height, Rgba colour);
  /// The pixel at (x, y).
  Rgba at(uint32_t x, uint32_t y) const;
  /// Sets the pixel at (x, y).
  void set(uint32_t x, uint32_t y, Rgba colour);
};

/// Decoders name the file and what is wrong with it (missing, truncated, not that format).
Result<RgbaImage> read_jpeg(const std::filesystem::path& path);
/// Reads a PNG (any bit depth and colour type, converted to RGBA8); errors name the path.
Result<RgbaImage> read_png(const std::filesystem::path& path);
/// By extension: .png, or .jpg / .jpeg; any other extension is an InvalidArgument error.
Result<RgbaImage> read_image(const std::filesystem::path& path);

/// Writes `image` as an RGBA8 PNG; errors name the path.
Result<void> write_png(const RgbaImage& image, const std::filesystem::path& path);

}  // namespace warden::demo
