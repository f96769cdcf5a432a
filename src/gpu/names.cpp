#include "warden/gpu/names.h"

#include <fmt/format.h>

#include <utility>

namespace warden::gpu {

const char* to_string(BackendType type) {
  switch (type) {
    case BackendType::Undefined: return "undefined";
    case BackendType::Null: return "null";
    case BackendType::Vulkan: return "vulkan";
    case BackendType::OpenGL: return "opengl";
    case BackendType::OpenGLES: return "opengles";
  }
  return "unknown";
}

const char* to_string(AdapterType type) {
  switch (type) {
    case AdapterType::DiscreteGPU: return "discrete-gpu";
    case AdapterType::CPU: return "cpu";
    case AdapterType::Unknown: return "unknown";
  }
  return "unknown";
}

const char* to_string(FeatureLevel level) {
  switch (level) {
    case FeatureLevel::Undefined: return "undefined";
    case FeatureLevel::Compatibility: return "compatibility";
    case FeatureLevel::Core: return "core";
  }
  return "unknown";
}

const char* to_string(ErrorType type) {
  switch (type) {
    case ErrorType::NoError: return "no-error";
    case ErrorType::Validation: return "validation";
  }
  return "unknown";
}

const char* to_string(DeviceLostReason reason) {
  switch (reason) {
    case DeviceLostReason::Unknown: return "unknown";
    case DeviceLostReason::Destroyed: return "destroyed";
    case DeviceLostReason::CallbackCancelled: return "callback-cancelled";
    case DeviceLostReason::FailedCreation: return "failed-creation";
  }
  return "unknown";
}

const char* to_string(TextureFormat format) {
  switch (format) {
    case TextureFormat::Undefined: return "undefined";
    case TextureFormat::R8Unorm: return "r8unorm";
    case TextureFormat::R32Float: return "r32float";
    case TextureFormat::R32Uint: return "r32uint";
    case TextureFormat::RGBA8Unorm: return "rgba8unorm";
    case TextureFormat::RGBA8UnormSrgb: return "rgba8unorm-srgb";
    case TextureFormat::RGBA8Sint: return "rgba8sint";
    case TextureFormat::BGRA8Unorm: return "bgra8unorm";
    case TextureFormat::RGBA16Float: return "rgba16float";
    case TextureFormat::RGBA32Float: return "rgba32float";
    case TextureFormat::Depth24Plus: return "depth24plus";
    case TextureFormat::Depth32Float: return "depth32float";
  }
  return "unknown";
}

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
