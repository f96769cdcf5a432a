#include "warden/gpu/names.h"

#include <fmt/format.h>

#include <utility>

#include "warden/core/enum_names.h"

namespace warden::gpu {

constexpr EnumName<BackendType> kBackendTypeNames[] = {
    {BackendType::Undefined, "undefined"},
    {BackendType::Null, "null"},
    {BackendType::Vulkan, "vulkan"},
    {BackendType::OpenGL, "opengl"},
    {BackendType::OpenGLES, "opengles"},
};
const char* to_string(BackendType type) { return name_in(kBackendTypeNames, type); }

constexpr EnumName<AdapterType> kAdapterTypeNames[] = {
    {AdapterType::DiscreteGPU, "discrete-gpu"},
    {AdapterType::CPU, "cpu"},
    {AdapterType::Unknown, "unknown"},
};
const char* to_string(AdapterType type) { return name_in(kAdapterTypeNames, type); }

constexpr EnumName<FeatureLevel> kFeatureLevelNames[] = {
    {FeatureLevel::Undefined, "undefined"},
    {FeatureLevel::Compatibility, "compatibility"},
    {FeatureLevel::Core, "core"},
};
const char* to_string(FeatureLevel level) { return name_in(kFeatureLevelNames, level); }

constexpr EnumName<ErrorType> kErrorTypeNames[] = {
    {ErrorType::NoError, "no-error"},
    {ErrorType::Validation, "validation"},
};
const char* to_string(ErrorType type) { return name_in(kErrorTypeNames, type); }

constexpr EnumName<DeviceLostReason> kDeviceLostReasonNames[] = {
    {DeviceLostReason::Unknown, "unknown"},
    {DeviceLostReason::Destroyed, "destroyed"},
    {DeviceLostReason::CallbackCancelled, "callback-cancelled"},
    {DeviceLostReason::FailedCreation, "failed-creation"},
};
const char* to_string(DeviceLostReason reason) { return name_in(kDeviceLostReasonNames, reason); }

constexpr EnumName<TextureFormat> kTextureFormatNames[] = {
    {TextureFormat::Undefined, "undefined"},
    {TextureFormat::R8Unorm, "r8unorm"},
    {TextureFormat::R32Float, "r32float"},
    {TextureFormat::R32Uint, "r32uint"},
    {TextureFormat::RGBA8Unorm, "rgba8unorm"},
    {TextureFormat::RGBA8UnormSrgb, "rgba8unorm-srgb"},
    {TextureFormat::RGBA8Sint, "rgba8sint"},
    {TextureFormat::BGRA8Unorm, "bgra8unorm"},
    {TextureFormat::RGBA16Float, "rgba16float"},
    {TextureFormat::RGBA32Float, "rgba32float"},
    {TextureFormat::Depth24Plus, "depth24plus"},
    {TextureFormat::Depth32Float, "depth32float"},
};
const char* to_string(TextureFormat format) { return name_in(kTextureFormatNames, format); }

std::optional<uint32_t> copy_texel_bytes(TextureFormat format) {
  switch (format) {
    case TextureFormat::R8Unorm: return 1u;
    case TextureFormat::R32Float:
    case TextureFormat::R32Uint:
    case TextureFormat::RGBA8Unorm:
    case TextureFormat::RGBA8UnormSrgb:
    case TextureFormat::RGBA8Sint:
    case TextureFormat::BGRA8Unorm:
    case TextureFormat::Depth32Float: return 4u;
    case TextureFormat::RGBA16Float: return 8u;
    case TextureFormat::RGBA32Float: return 16u;
    case TextureFormat::Undefined:
    case TextureFormat::Depth24Plus: break;  // its texels have no defined byte layout
  }
  return std::nullopt;
}

std::string feature_name(FeatureName feature) {
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
std::string flag_names(Flags flags, const std::pair<Flags, const char*> (&table)[N]) {
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

std::string buffer_usage_names(Flags usage) {
  static constexpr std::pair<Flags, const char*> kNames[] = {
      {BufferUsage::MapRead, "MapRead"},   {BufferUsage::MapWrite, "MapWrite"},
      {BufferUsage::CopySrc, "CopySrc"},   {BufferUsage::CopyDst, "CopyDst"},
      {BufferUsage::Index, "Index"},       {BufferUsage::Vertex, "Vertex"},
      {BufferUsage::Uniform, "Uniform"},   {BufferUsage::Storage, "Storage"},
      {BufferUsage::Indirect, "Indirect"}, {BufferUsage::QueryResolve, "QueryResolve"},
  };
  return flag_names(usage, kNames);
}

std::string texture_usage_names(Flags usage) {
  static constexpr std::pair<Flags, const char*> kNames[] = {
      {TextureUsage::CopySrc, "CopySrc"},
      {TextureUsage::CopyDst, "CopyDst"},
      {TextureUsage::TextureBinding, "TextureBinding"},
      {TextureUsage::StorageBinding, "StorageBinding"},
      {TextureUsage::RenderAttachment, "RenderAttachment"},
  };
  return flag_names(usage, kNames);
}

}  // namespace warden::gpu
