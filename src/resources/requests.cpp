#include "resources/requests.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "warden/gpu/names.h"

namespace warden::resources {

std::optional<std::string> broken_buffer_rule(const BufferDescription& desc, const WGPULimits& limits) {
  if (desc.size > limits.maxBufferSize) {
    return fmt::format("size {} exceeds the device's maxBufferSize ({})", desc.size, limits.maxBufferSize);
  }
  if (desc.mapped_at_creation && desc.size % 4 != 0) {
    return fmt::format("mapped_at_creation needs a size that is a multiple of 4 (size {})", desc.size);
  }
  if ((desc.usage & WGPUBufferUsage_MapRead) != 0 &&
      (desc.usage & ~(WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst)) != 0) {
    return fmt::format("MapRead may be combined only with CopyDst (usage {})", gpu::buffer_usage_names(desc.usage));
  }
  if ((desc.usage & WGPUBufferUsage_MapWrite) != 0 &&
      (desc.usage & ~(WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc)) != 0) {
    return fmt::format("MapWrite may be combined only with CopySrc (usage {})", gpu::buffer_usage_names(desc.usage));
  }
  return std::nullopt;
}

namespace {

// floor(log2(largest dimension)) + 1; a 1D texture has one level.
uint32_t max_mip_level_count(const TextureDescription& desc) {
  if (desc.dimension == WGPUTextureDimension_1D) return 1;
  uint32_t largest = std::max(desc.size.width, desc.size.height);
  if (desc.dimension == WGPUTextureDimension_3D) largest = std::max(largest, desc.size.depthOrArrayLayers);
  return static_cast<uint32_t>(std::bit_width(largest));
}

}  // namespace

std::optional<std::string> broken_texture_rule(const TextureDescription& desc, const WGPULimits& limits) {
  const WGPUExtent3D& size = desc.size;
  switch (desc.dimension) {
    case WGPUTextureDimension_1D:
      if (size.width > limits.maxTextureDimension1D || size.height != 1 || size.depthOrArrayLayers != 1) {
        return fmt::format("a 1D texture of {}x{}x{}: width at most the device's maxTextureDimension1D ({}), "
                           "height and depth 1",
                           size.width, size.height, size.depthOrArrayLayers, limits.maxTextureDimension1D);
      }
      break;
    case WGPUTextureDimension_3D:
      if (std::max({size.width, size.height, size.depthOrArrayLayers}) > limits.maxTextureDimension3D) {
        return fmt::format("size {}x{}x{} exceeds the device's maxTextureDimension3D ({})", size.width, size.height,
                           size.depthOrArrayLayers, limits.maxTextureDimension3D);
      }
      break;
    default:
      if (std::max(size.width, size.height) > limits.maxTextureDimension2D) {
        return fmt::format("size {}x{} exceeds the device's maxTextureDimension2D ({})", size.width, size.height,
                           limits.maxTextureDimension2D);
      }
      if (size.depthOrArrayLayers > limits.maxTextureArrayLayers) {
        return fmt::format("{} array layers exceed the device's maxTextureArrayLayers ({})", size.depthOrArrayLayers,
                           limits.maxTextureArrayLayers);
      }
      break;
  }
  if (desc.mip_level_count > max_mip_level_count(desc)) {
    return fmt::format("{} mip levels, but a {}x{}x{} texture has at most {}", desc.mip_level_count, size.width,
                       size.height, size.depthOrArrayLayers, max_mip_level_count(desc));
  }
  if (desc.sample_count != 1 && desc.sample_count != 4) {
    return fmt::format("sample count {}: WebGPU allows 1 or 4", desc.sample_count);
  }
  return std::nullopt;
}

const char* call_suffix(ResourceKind kind) {
  switch (kind) {
#define WARDEN_CALL_SUFFIX(Name, snake) \
  case ResourceKind::Name: return #snake;
    WARDEN_RESOURCE_KINDS(WARDEN_CALL_SUFFIX)
#undef WARDEN_CALL_SUFFIX
    case ResourceKind::None: break;
  }
  return "none";
}

}  // namespace warden::resources
