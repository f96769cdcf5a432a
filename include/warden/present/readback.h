/// @file
/// Reading a colour texture back to the CPU as an Image (image.h writes it as PNG). Blocking: for tools,
/// tests, screenshots and the headless demo, never a frame loop (docs/design.md, invariant 1).
#pragma once

#include <chrono>
#include <cstdint>

#include "warden/present/image.h"
#include "warden/resources/registry.h"

namespace warden::present {

/// How long a readback waits for the GPU by default (tools and tests only).
inline constexpr std::chrono::milliseconds kReadbackTimeout{10000};

/// rgba8unorm, rgba8unorm-srgb and bgra8unorm textures (bgra is swizzled to rgba); any other
/// format is refused by name. The texture needs CopySrc.
Result<Image> read_image(const gpu::Context& context, WGPUDevice device, WGPUQueue queue, WGPUTexture texture,
                         std::chrono::milliseconds timeout = kReadbackTimeout);
/// The same for a registered texture (its usages are checked first).
Result<Image> read_image(const gpu::Context& context, resources::Registry& registry, TextureHandle texture,
                         std::chrono::milliseconds timeout = kReadbackTimeout);

}  // namespace warden::present
