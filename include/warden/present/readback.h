/// @file
/// Reading a colour texture back to the CPU, and writing it as PNG (libpng). Blocking: for tools,
/// tests, screenshots and the headless demo, never a frame loop (docs/design.md, invariant 1).
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "warden/resources/registry.h"

namespace warden::present {

/// Tightly packed 8-bit RGBA rows, top row first.
struct Image {
  /// Pixels across.
  uint32_t width = 0;
  /// Rows.
  uint32_t height = 0;
  /// width x height x 4 bytes.
  std::vector<uint8_t> rgba{};
  /// The RGBA of pixel (x, y); (0, 0) is the top left.
  std::array<uint8_t, 4> pixel(uint32_t x, uint32_t y) const;
};

/// How long a readback waits for the GPU by default (tools and tests only).
inline constexpr std::chrono::milliseconds kReadbackTimeout{10000};

/// rgba8unorm, rgba8unorm-srgb and bgra8unorm textures (bgra is swizzled to rgba); any other
/// format is refused by name. The texture needs CopySrc.
Result<Image> read_image(const gpu::Context& context, gpu::Device device, gpu::Queue queue, gpu::Texture texture,
                         std::chrono::milliseconds timeout = kReadbackTimeout);
/// The same for a registered texture (its usages are checked first).
Result<Image> read_image(const gpu::Context& context, resources::Registry& registry, TextureHandle texture,
                         std::chrono::milliseconds timeout = kReadbackTimeout);

/// Errors name the path and what libpng said.
Result<void> write_png(const Image& image, const std::string& path);
/// Reads an 8-bit RGBA PNG (tests check what write_png wrote).
Result<Image> read_png(const std::string& path);

}  // namespace warden::present
