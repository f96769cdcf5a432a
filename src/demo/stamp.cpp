#include "warden/demo/messages.h"
#include "warden/demo/stamp.h"

#include <fmt/format.h>

#include <array>
#include <optional>

namespace warden::demo {
namespace {

constexpr uint32_t kGlyphWidth = 3, kGlyphHeight = 5;
using Glyph = std::array<uint8_t, kGlyphHeight>;  // one row per byte, bit 2 is the left column

constexpr std::array<Glyph, 10> kDigits = {{
    {7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7}, {5, 5, 7, 1, 1},
    {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 1, 1}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7},
}};
constexpr Glyph kSlash = {1, 1, 2, 4, 4};

std::optional<Glyph> glyph_of(char c) {
  if (c >= '0' && c <= '9') return kDigits[static_cast<size_t>(c - '0')];
  if (c == '/') return kSlash;
  return std::nullopt;
}

void fill_clipped(present::Image& image, uint64_t x0, uint64_t y0, uint64_t w, uint64_t h, present::Rgba colour) {
  for (uint64_t y = y0; y < y0 + h && y < image.height; ++y) {
    for (uint64_t x = x0; x < x0 + w && x < image.width; ++x) {
      image.set(static_cast<uint32_t>(x), static_cast<uint32_t>(y), colour);
    }
  }
}

}  // namespace

std::string stamp_text(const tiles::TileKey& key) { return fmt::format("{}/{}/{}", key.z, key.x, key.y); }

Result<void> draw_stamp(present::Image& image, std::string_view text, uint32_t x, uint32_t y, uint32_t scale) {
  if (scale == 0) return make_error(ErrorKind::InvalidArgument, MessageId::StampScaleZero, "draw_stamp: scale is 0");
  for (char c : text) {
    if (!glyph_of(c)) {
      return make_error(ErrorKind::InvalidArgument, MessageId::StampGlyphMissing,
                        fmt::format("draw_stamp: '{}' in \"{}\" has no glyph (digits and '/' only)", c, text));
    }
  }
  // One glyph texel of black margin around the text, one between glyphs.
  const uint64_t advance = uint64_t{kGlyphWidth + 1} * scale;
  fill_clipped(image, x, y, advance * text.size() + scale, uint64_t{kGlyphHeight + 2} * scale, present::Rgba{0, 0, 0, 255});
  for (size_t i = 0; i < text.size(); ++i) {
    const Glyph glyph = *glyph_of(text[i]);
    const uint64_t left = x + scale + advance * i;
    for (uint32_t row = 0; row < kGlyphHeight; ++row) {
      for (uint32_t col = 0; col < kGlyphWidth; ++col) {
        if ((glyph[row] >> (kGlyphWidth - 1 - col) & 1) == 0) continue;
        fill_clipped(image, left + uint64_t{col} * scale, y + uint64_t{row + 1} * scale, scale, scale,
                     present::Rgba{255, 255, 255, 255});
      }
    }
  }
  return {};
}

}  // namespace warden::demo
