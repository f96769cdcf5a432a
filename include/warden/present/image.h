/// @file
/// Image: 8-bit RGBA pixels in memory, and the one place warden reads and writes them as PNG
/// (libpng). What a readback returns (readback.h), and what the demo's tiles, snapshots and
/// sources are made of.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "warden/core/result.h"

namespace warden::present {

/// One 8-bit RGBA pixel.
struct Rgba {
  /// The channels.
  ///@{
  uint8_t r = 0, g = 0, b = 0, a = 255;
  ///@}
  /// Equal when every channel is.
  bool operator==(const Rgba&) const = default;
};

/// Tightly packed 8-bit RGBA rows, top row first.
struct Image {
  /// Pixels across.
  uint32_t width = 0;
  /// Rows.
  uint32_t height = 0;
  /// width x height x 4 bytes.
  std::vector<uint8_t> rgba{};

  /// An image of one colour.
  static Image filled(uint32_t width, uint32_t height, Rgba colour);
  /// The pixel at (x, y); (0, 0) is the top left.
  Rgba at(uint32_t x, uint32_t y) const;
  /// The same pixel as four bytes, r g b a.
  std::array<uint8_t, 4> pixel(uint32_t x, uint32_t y) const;
  /// Sets the pixel at (x, y).
  void set(uint32_t x, uint32_t y, Rgba colour);
};

/// Reads a PNG of any bit depth and colour type, converted to 8-bit RGBA. A missing file is
/// NotFound, a file libpng cannot read InvalidArgument; both are present.PngReadFailed and name
/// the path (and what libpng said).
Result<Image> read_png(const std::filesystem::path& path);
/// Writes `image` as an 8-bit RGBA PNG. An image with no area or not width*height*4 bytes is
/// refused (present.PngImageSizeMismatch); a file that cannot be written is an Io error naming
/// the path and what libpng said (present.PngWriteFailed).
Result<void> write_png(const Image& image, const std::filesystem::path& path);

}  // namespace warden::present
