// warden's descriptions of shader stages, bind group layouts and pipelines: the one vocabulary
// that Registry::create_* takes and that a rebuild after a device loss replays (docs/adr/0013).
// They name shader modules and layouts by handle, so the same description can be built again
// after its module was replaced (hot reload) or on a new device, and carry no pointers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "warden/core/handle.h"
#include "warden/gpu/abi.h"

namespace warden::resources {

// ---- bind group layouts ---------------------------------------------------------------------
struct BufferLayout {
  gpu::BufferBindingType type = gpu::BufferBindingType::Uniform;
  bool has_dynamic_offset = false;
  uint64_t min_binding_size = 0;
};
struct SamplerLayout {
  gpu::SamplerBindingType type = gpu::SamplerBindingType::Filtering;
};
struct TextureLayout {
  gpu::TextureSampleType sample_type = gpu::TextureSampleType::Float;
  gpu::TextureViewDimension view_dimension = gpu::TextureViewDimension::e2D;
  bool multisampled = false;
};
struct StorageTextureLayout {
  gpu::StorageTextureAccess access = gpu::StorageTextureAccess::WriteOnly;
  gpu::TextureFormat format = gpu::TextureFormat::RGBA8Unorm;
  gpu::TextureViewDimension view_dimension = gpu::TextureViewDimension::e2D;
};
using BindingType = std::variant<BufferLayout, SamplerLayout, TextureLayout, StorageTextureLayout>;

struct LayoutEntry {
  uint32_t binding = 0;
  gpu::Flags visibility = gpu::ShaderStage::None;
  BindingType type = BufferLayout{};
};

// ---- pipelines ------------------------------------------------------------------------------
struct Constant {
  std::string key;
  double value = 0;
};

struct ShaderStage {
  ShaderModuleHandle module;
  std::string entry_point;  ///< required: warden never relies on a default entry point
  std::vector<Constant> constants;
};

struct VertexAttribute {
  gpu::VertexFormat format = gpu::VertexFormat::Float32x4;
  uint64_t offset = 0;
  uint32_t location = 0;
};
struct VertexLayout {
  uint64_t stride = 0;
  gpu::VertexStepMode step_mode = gpu::VertexStepMode::Vertex;
  std::vector<VertexAttribute> attributes;
};

struct ColorTarget {
  gpu::TextureFormat format = gpu::TextureFormat::RGBA8Unorm;
  std::optional<gpu::BlendState> blend;
  gpu::Flags write_mask = gpu::ColorWriteMask::All;
};

struct DepthState {
  gpu::TextureFormat format = gpu::TextureFormat::Depth24Plus;
  bool write = true;
  gpu::CompareFunction compare = gpu::CompareFunction::Less;
};

struct RenderPipelineDescription {
  std::string label;
  PipelineLayoutHandle layout;  ///< null: derived from the shaders ("auto")
  ShaderStage vertex;
  std::vector<VertexLayout> vertex_buffers;
  gpu::PrimitiveTopology topology = gpu::PrimitiveTopology::TriangleList;
  gpu::FrontFace front_face = gpu::FrontFace::CCW;
  gpu::CullMode cull_mode = gpu::CullMode::None;
  std::optional<DepthState> depth;
  uint32_t sample_count = 1;
  std::optional<ShaderStage> fragment;  ///< its targets are `targets`
  std::vector<ColorTarget> targets;
};

struct ComputePipelineDescription {
  std::string label;
  PipelineLayoutHandle layout;  ///< null: derived from the shader ("auto")
  ShaderStage compute;
};

}  // namespace warden::resources
