// A tile's visible name: "z/x/y" drawn into its top left corner in tiny bitmap digits, so a
// tile shown in the wrong place is plain in a snapshot.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "warden/core/result.h"
#include "warden/demo/image.h"
#include "warden/tiles/tile_cache.h"

namespace warden::demo {

std::string stamp_text(const tiles::TileKey& key);  ///< "3/4/2"

/// Draws `text` (digits and '/') white on a black box whose top left corner is (x, y), each
/// glyph texel `scale` image texels wide; clipped at the image's edges. Any other character is
/// an InvalidArgument error naming it, and nothing is drawn.
Result<void> draw_stamp(present::Image& image, std::string_view text, uint32_t x, uint32_t y, uint32_t scale = 2);

}  // namespace warden::demo
