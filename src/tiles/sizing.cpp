#include "warden/tiles/sizing.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "warden/gpu/names.h"

namespace warden::tiles {

Result<PoolSizing> size_layer_pool(const PoolSizingInput& in) {
  auto zero = [](const char* field) {
    return make_error(ErrorKind::InvalidArgument, MessageId::LayerPoolSizingZero,
                      fmt::format("size_layer_pool: {} is 0", field));
  };
  if (in.viewport_width == 0) return zero("viewport_width");
  if (in.viewport_height == 0) return zero("viewport_height");
  if (in.tile_size == 0) return zero("tile_size");
  // A viewport that is not aligned to the tile grid (it never is) touches one more column and
  // one more row than it would aligned: ceil(w / t) + 1 across.
  const uint32_t across = (in.viewport_width + in.tile_size - 1) / in.tile_size + 1;
  const uint32_t down = (in.viewport_height + in.tile_size - 1) / in.tile_size + 1;
  PoolSizing s;
  s.visible = across * down;
  s.pan_ring = (across + 2) * (down + 2) - s.visible;
  s.in_flight = in.submissions_in_flight * in.tiles_released_per_frame;
  s.reserve = in.reserve;
  s.needed = s.visible + s.pan_ring + s.in_flight + s.reserve;
  s.recommended = std::bit_ceil(s.needed);
  return s;
}

Result<uint32_t> bytes_per_texel(WGPUTextureFormat format) {
  if (auto bytes = gpu::copy_texel_bytes(format)) return *bytes;
  return make_error(ErrorKind::InvalidArgument, MessageId::TexelSizeUnknown,
                    fmt::format("no byte accounting for texture format {}", static_cast<uint32_t>(format)));
}

uint32_t full_mip_count(uint32_t width, uint32_t height) {
  return static_cast<uint32_t>(std::bit_width(std::max({width, height, 1u})));
}

Result<uint64_t> texture_bytes(WGPUTextureFormat format, uint32_t width, uint32_t height,
                               uint32_t mip_levels, uint32_t array_layers) {
  auto texel = bytes_per_texel(format);
  if (!texel) return texel.error();
  if (width == 0 || height == 0 || array_layers == 0) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TextureBytesEmpty,
                      fmt::format("texture_bytes: empty texture {}x{} with {} layers", width, height, array_layers));
  }
  if (mip_levels == 0 || mip_levels > full_mip_count(width, height)) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TextureBytesMipLevelsOutOfRange,
                      fmt::format("texture_bytes: {} mip levels for {}x{} (1..{})", mip_levels, width,
                                  height, full_mip_count(width, height)));
  }
  // Every product and sum is checked: a size whose bytes do not fit in 64 bits is refused, not
  // wrapped into a small number a budget would accept.
  auto overflow = [&] {
    return make_error(ErrorKind::InvalidArgument, MessageId::TextureBytesOverflow,
                      fmt::format("texture_bytes: {}x{} with {} levels and {} layers overflows a 64-bit byte count",
                                  width, height, mip_levels, array_layers));
  };
  uint64_t per_layer = 0;
  for (uint32_t m = 0; m < mip_levels; ++m) {
    uint64_t level = uint64_t{std::max(width >> m, 1u)} * std::max(height >> m, 1u);  // < 2^64
    if (__builtin_mul_overflow(level, uint64_t{*texel}, &level)) return overflow();
    if (__builtin_add_overflow(per_layer, level, &per_layer)) return overflow();
  }
  uint64_t total = 0;
  if (__builtin_mul_overflow(per_layer, uint64_t{array_layers}, &total)) return overflow();
  return total;
}

}  // namespace warden::tiles
