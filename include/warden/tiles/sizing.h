/// @file
/// Sizing a tile layer pool, and the exact VRAM cost of tile textures.
/// docs/tiles-sizing-and-failure-modes.md walks through the numbers.
#pragma once

#include <cstdint>

#include "warden/core/result.h"
#include "warden/gpu/abi.h"

namespace warden::tiles {

/// What size_layer_pool() sizes a LayerPool for.
struct PoolSizingInput {
  uint32_t viewport_width = 0;   ///< pixels
  uint32_t viewport_height = 0;  ///< pixels
  uint32_t tile_size = 0;        ///< pixels a tile covers on screen at its own zoom
  /// Submissions the GPU may be behind the CPU.
  uint32_t submissions_in_flight = 2;
  uint32_t tiles_released_per_frame = 4;  ///< what a pan evicts per frame
  uint32_t reserve = 4;                   ///< held back for fast zooms (LayerPool::kDefaultReserve)
};

/// How many layers a LayerPool needs, and why.
struct PoolSizing {
  uint32_t visible = 0;    ///< tiles a viewport not aligned to the grid can touch
  uint32_t pan_ring = 0;   ///< one ring of tiles around them, resident before a pan needs them
  uint32_t in_flight = 0;  ///< released layers whose last reader has not retired yet
  /// Held back for fast zooms (the input's reserve).
  uint32_t reserve = 0;
  uint32_t needed = 0;       ///< the sum of the above
  uint32_t recommended = 0;  ///< `needed` rounded up to a power of two: headroom for a larger window
};

/// The three numbers of docs/design.md, tiles rule T4: visible set + pan ring + in-flight band (+ the reserve), rounded
/// up. Zero sizes are an InvalidArgument error naming the field.
Result<PoolSizing> size_layer_pool(const PoolSizingInput& input);

/// Bytes of one texel of `format`; an error for formats warden does not account (compressed,
/// depth-stencil with a driver-chosen layout).
Result<uint32_t> bytes_per_texel(WGPUTextureFormat format);
/// Levels in a full mip chain of a width x height texture (down to 1x1).
uint32_t full_mip_count(uint32_t width, uint32_t height);
/// Exact bytes of a 2D texture (array): every mip level of every layer.
Result<uint64_t> texture_bytes(WGPUTextureFormat format, uint32_t width, uint32_t height,
                               uint32_t mip_levels, uint32_t array_layers);

}  // namespace warden::tiles
