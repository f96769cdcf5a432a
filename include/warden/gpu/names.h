/// @file
/// Names for enum values, as warden prints them (lower case, the WebGPU spec's spelling).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "warden/gpu/abi.h"

namespace warden::gpu {

/// The name of an enum value as messages and `warden info` print it ("opengl", "discrete-gpu", "rgba8unorm", ...): every value of the header warden was built
/// with has one; a value outside the header prints as "unknown".
///@{
const char* to_string(WGPUBackendType type);
const char* to_string(WGPUAdapterType type);
const char* to_string(WGPUFeatureLevel level);
const char* to_string(WGPUErrorType type);
const char* to_string(WGPUDeviceLostReason reason);
const char* to_string(WGPUTextureFormat format);
///@}
/// Bytes of one texel of `format` as a buffer-to-texture copy lays it out; nullopt for a format
/// whose texels cannot be copied into (depth24plus) or that abi.h does not declare.
std::optional<uint32_t> copy_texel_bytes(WGPUTextureFormat format);
/// Whether `format` stores its texels in blocks (BC, ETC2, EAC, ASTC): a texture of it has
/// sides of whole blocks.
bool is_block_compressed(WGPUTextureFormat format);
/// The most bytes one texel of `format` takes, for budgets that must not be undercounted:
/// copy_texel_bytes where it is known, the depth and stencil formats' widest layout, 1 for a
/// block-compressed format (a block of 16 or more texels is 8 or 16 bytes), 16 otherwise (the
/// widest uncompressed format).
uint32_t texel_bytes_at_most(WGPUTextureFormat format);
/// Known feature names; unknown numbers print as "feature-0xNNNN".
std::string feature_name(WGPUFeatureName feature);
/// "CopyDst|TextureBinding" style lists of flag names.
std::string buffer_usage_names(WGPUBufferUsage usage);
/// WGPUTextureUsage bits as names joined by '|' ("CopyDst|TextureBinding"), like buffer_usage_names().
std::string texture_usage_names(WGPUTextureUsage usage);

}  // namespace warden::gpu
