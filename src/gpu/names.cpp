#include "warden/gpu/names.h"

#include <fmt/format.h>

#include <string_view>
#include <utility>

#include <webgpu/warden_enum_names.inc>

#include "warden/core/enum_names.h"

namespace warden::gpu {

// Every value of the header warden was built with has its name: the generator writes them from
// the same tables as the header (the WebGPU spec's spelling, "rgba8unorm", "discrete-gpu").
#define WARDEN_GPU_ENUM_NAME(Enumerator, Spelling) {Enumerator, Spelling},
constexpr EnumName<WGPUBackendType> kBackendTypeNames[] = {WARDEN_WEBGPU_NAMES_WGPUBackendType(WARDEN_GPU_ENUM_NAME)};
constexpr EnumName<WGPUAdapterType> kAdapterTypeNames[] = {WARDEN_WEBGPU_NAMES_WGPUAdapterType(WARDEN_GPU_ENUM_NAME)};
constexpr EnumName<WGPUFeatureLevel> kFeatureLevelNames[] = {WARDEN_WEBGPU_NAMES_WGPUFeatureLevel(WARDEN_GPU_ENUM_NAME)};
constexpr EnumName<WGPUErrorType> kErrorTypeNames[] = {WARDEN_WEBGPU_NAMES_WGPUErrorType(WARDEN_GPU_ENUM_NAME)};
constexpr EnumName<WGPUDeviceLostReason> kDeviceLostReasonNames[] = {
    WARDEN_WEBGPU_NAMES_WGPUDeviceLostReason(WARDEN_GPU_ENUM_NAME)};
constexpr EnumName<WGPUTextureFormat> kTextureFormatNames[] = {WARDEN_WEBGPU_NAMES_WGPUTextureFormat(WARDEN_GPU_ENUM_NAME)};
#undef WARDEN_GPU_ENUM_NAME

const char* to_string(WGPUBackendType type) { return name_in(kBackendTypeNames, type); }
const char* to_string(WGPUAdapterType type) { return name_in(kAdapterTypeNames, type); }
const char* to_string(WGPUFeatureLevel level) { return name_in(kFeatureLevelNames, level); }
const char* to_string(WGPUErrorType type) { return name_in(kErrorTypeNames, type); }
const char* to_string(WGPUDeviceLostReason reason) { return name_in(kDeviceLostReasonNames, reason); }
const char* to_string(WGPUTextureFormat format) { return name_in(kTextureFormatNames, format); }

std::optional<uint32_t> copy_texel_bytes(WGPUTextureFormat format) {
  switch (format) {
    case WGPUTextureFormat_R8Unorm: return 1u;
    case WGPUTextureFormat_R32Float:
    case WGPUTextureFormat_R32Uint:
    case WGPUTextureFormat_RGBA8Unorm:
    case WGPUTextureFormat_RGBA8UnormSrgb:
    case WGPUTextureFormat_RGBA8Sint:
    case WGPUTextureFormat_BGRA8Unorm:
    case WGPUTextureFormat_Depth32Float: return 4u;
    case WGPUTextureFormat_RGBA16Float: return 8u;
    case WGPUTextureFormat_RGBA32Float: return 16u;
    case WGPUTextureFormat_Undefined:
    case WGPUTextureFormat_Depth24Plus: break;  // its texels have no defined byte layout
    default: break;                             // a format this table does not know
  }
  return std::nullopt;
}

bool is_block_compressed(WGPUTextureFormat format) {
  const std::string_view name = to_string(format);
  return name.starts_with("bc") || name.starts_with("etc2-") || name.starts_with("eac-") || name.starts_with("astc-");
}

uint32_t texel_bytes_at_most(WGPUTextureFormat format) {
  if (auto bytes = copy_texel_bytes(format)) return *bytes;
  switch (format) {
    case WGPUTextureFormat_Stencil8: return 1u;
    case WGPUTextureFormat_Depth16Unorm: return 2u;
    case WGPUTextureFormat_Depth24Plus:
    case WGPUTextureFormat_Depth24PlusStencil8: return 4u;
    case WGPUTextureFormat_Depth32FloatStencil8: return 8u;
    default: return is_block_compressed(format) ? 1u : 16u;
  }
}

std::string feature_name(WGPUFeatureName feature) {
  // The standard features of this ABI (numbers from the library's own tables, docs/adr/0001).
  static constexpr const char* kStandard[] = {
      nullptr,
      "depth-clip-control",
      "depth32float-stencil8",
      "timestamp-query",
      "texture-compression-bc",
      "texture-compression-bc-sliced-3d",
      "texture-compression-etc2",
      "texture-compression-astc",
      "texture-compression-astc-sliced-3d",
      "indirect-first-instance",
      "shader-f16",
      "rg11b10ufloat-renderable",
      "bgra8unorm-storage",
      "float32-filterable",
      "float32-blendable",
      "clip-distances",
      "dual-source-blending",
      "subgroups",
      "core-features-and-limits",
  };
  if (feature > 0 && feature < std::size(kStandard)) return kStandard[feature];
  if (feature == 0x50002) return "dawn-native";
  if (feature == 0x50000) return "dawn-internal-usages";
  return fmt::format("feature-0x{:x}", feature);
}

namespace {
template <size_t N>
std::string flag_names(WGPUFlags flags, const std::pair<WGPUFlags, const char*> (&table)[N]) {
  std::string out;
  for (const auto& [bit, name] : table) {
    if (flags & bit) {
      if (!out.empty()) out += '|';
      out += name;
    }
  }
  return out.empty() ? "None" : out;
}
}  // namespace

std::string buffer_usage_names(WGPUBufferUsage usage) {
  static constexpr std::pair<WGPUFlags, const char*> kNames[] = {
      {WGPUBufferUsage_MapRead, "MapRead"},   {WGPUBufferUsage_MapWrite, "MapWrite"},
      {WGPUBufferUsage_CopySrc, "CopySrc"},   {WGPUBufferUsage_CopyDst, "CopyDst"},
      {WGPUBufferUsage_Index, "Index"},       {WGPUBufferUsage_Vertex, "Vertex"},
      {WGPUBufferUsage_Uniform, "Uniform"},   {WGPUBufferUsage_Storage, "Storage"},
      {WGPUBufferUsage_Indirect, "Indirect"}, {WGPUBufferUsage_QueryResolve, "QueryResolve"},
  };
  return flag_names(usage, kNames);
}

std::string texture_usage_names(WGPUTextureUsage usage) {
  static constexpr std::pair<WGPUFlags, const char*> kNames[] = {
      {WGPUTextureUsage_CopySrc, "CopySrc"},
      {WGPUTextureUsage_CopyDst, "CopyDst"},
      {WGPUTextureUsage_TextureBinding, "TextureBinding"},
      {WGPUTextureUsage_StorageBinding, "StorageBinding"},
      {WGPUTextureUsage_RenderAttachment, "RenderAttachment"},
  };
  return flag_names(usage, kNames);
}

}  // namespace warden::gpu
