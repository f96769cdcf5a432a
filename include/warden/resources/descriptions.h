/// @file
/// warden's descriptions of shader stages, bind group layouts and pipelines: the one vocabulary
/// that Registry::create_* takes and that a rebuild after a device loss replays (docs/adr/0013).
/// They name shader modules and layouts by handle, so the same description can be built again
/// after its module was replaced (hot reload) or on a new device, and carry no pointers but the
/// chains they own (ChainCopy).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "warden/core/handle.h"
#include "warden/core/result.h"
#include "warden/gpu/abi.h"

namespace warden::resources {

// ---- chained structs ------------------------------------------------------------------------
/// A copy of a chain of webgpu.h extension structs (what a `nextInChain` points to) that owns its
/// structs, so a description keeps the chain after the call that gave it and a rebuild after a
/// device loss hands the same chain to the new device. Only structs made of values are kept (a
/// device object named in one would be the lost device's after a rebuild): kept_size() says
/// which.
class ChainCopy {
 public:
  /// No chain.
  ChainCopy() = default;
  /// A copy of every struct of the chain that starts at `head` (null: an empty copy).
  /// InvalidArgument (ChainStructNotKept) names the first struct whose sType is not kept.
  static Result<ChainCopy> of(const WGPUChainedStruct* head);
  /// The size of the struct of `type` where a copy keeps such structs; 0 where it does not.
  static size_t kept_size(WGPUSType type);
  /// Copies every struct again, linked in the same order.
  ChainCopy(const ChainCopy& other);
  /// Copies every struct of `other` again, linked in the same order.
  ChainCopy& operator=(const ChainCopy& other);
  /// Takes the structs: they do not move, so the chain's links stay valid.
  ChainCopy(ChainCopy&& other) noexcept = default;
  /// Takes the structs of `other`.
  ChainCopy& operator=(ChainCopy&& other) noexcept = default;
  ~ChainCopy() = default;

  /// The first struct, for a descriptor's `nextInChain`, valid while this copy lives; null when
  /// the chain is empty.
  WGPUChainedStruct* head() const;
  /// The sType of each struct, in chain order.
  std::vector<WGPUSType> types() const;
  /// True when there is no struct.
  bool empty() const { return structs_.empty(); }

 private:
  // One block per struct, linked through their `next` in chain order.
  std::vector<std::unique_ptr<std::max_align_t[]>> structs_;
};

// ---- bind group layouts ---------------------------------------------------------------------
/// A buffer binding of a bind group layout entry (webgpu.h's WGPUBufferBindingLayout).
struct BufferLayout {
  /// Uniform, storage or read-only storage.
  WGPUBufferBindingType type = WGPUBufferBindingType_Uniform;
  /// Whether the offset is given at setBindGroup time.
  bool has_dynamic_offset = false;
  /// The smallest range a group may bind, in bytes; 0: checked at draw time instead.
  uint64_t min_binding_size = 0;
};
/// A sampler binding of a bind group layout entry.
struct SamplerLayout {
  /// Filtering, non-filtering or comparison.
  WGPUSamplerBindingType type = WGPUSamplerBindingType_Filtering;
};
/// A sampled-texture binding of a bind group layout entry.
struct TextureLayout {
  /// What the shader reads the texels as.
  WGPUTextureSampleType sample_type = WGPUTextureSampleType_Float;
  /// The dimension of the view the group must bind.
  WGPUTextureViewDimension view_dimension = WGPUTextureViewDimension_2D;
  /// Whether the view must be multisampled.
  bool multisampled = false;
};
/// A storage-texture binding of a bind group layout entry.
struct StorageTextureLayout {
  /// Write-only, read-only or read-write.
  WGPUStorageTextureAccess access = WGPUStorageTextureAccess_WriteOnly;
  /// The format the view must have.
  WGPUTextureFormat format = WGPUTextureFormat_RGBA8Unorm;
  /// The dimension of the view the group must bind.
  WGPUTextureViewDimension view_dimension = WGPUTextureViewDimension_2D;
};
/// What one layout entry binds: exactly one of the four kinds.
using BindingType = std::variant<BufferLayout, SamplerLayout, TextureLayout, StorageTextureLayout>;

/// One entry of a bind group layout in warden's terms: the binding number, the stages that see it
/// and what it binds.
struct LayoutEntry {
  /// The binding number, as the shader declares it.
  uint32_t binding = 0;
  /// WGPUShaderStage bits of the stages that may use the binding.
  WGPUShaderStage visibility = WGPUShaderStage_None;
  /// What the binding holds.
  BindingType type = BufferLayout{};
};

// ---- pipelines ------------------------------------------------------------------------------
/// One pipeline-overridable constant of a stage (a WGSL `override`).
struct Constant {
  /// The constant's name or numeric id in the shader.
  std::string key{};
  /// Its value, converted to the constant's type.
  double value = 0;
};

/// One programmable stage of a pipeline: a registered module, its entry point and its constants.
struct ShaderStage {
  /// The module; a stale handle makes the create call fail naming it.
  ShaderModuleHandle module{};
  std::string entry_point{};  ///< required: warden never relies on a default entry point
  /// Values for the stage's override constants.
  std::vector<Constant> constants{};
};

/// One attribute of a vertex buffer.
struct VertexAttribute {
  /// Its format.
  WGPUVertexFormat format = WGPUVertexFormat_Float32x4;
  /// Its offset within one vertex, in bytes.
  uint64_t offset = 0;
  /// The shader location it feeds.
  uint32_t location = 0;
};
/// How one vertex buffer is read.
struct VertexLayout {
  /// Bytes from one element to the next.
  uint64_t stride = 0;
  /// Per vertex or per instance.
  WGPUVertexStepMode step_mode = WGPUVertexStepMode_Vertex;
  /// The attributes one element holds.
  std::vector<VertexAttribute> attributes{};
};

/// One color attachment a render pipeline writes.
struct ColorTarget {
  /// The attachment's format.
  WGPUTextureFormat format = WGPUTextureFormat_RGBA8Unorm;
  /// Blending; none: the fragment's output replaces the texel.
  std::optional<WGPUBlendState> blend{};
  /// WGPUColorWriteMask bits of the channels written.
  WGPUColorWriteMask write_mask = WGPUColorWriteMask_All;
};

/// One face's stencil test and what it writes (webgpu.h's WGPUStencilFaceState); the default
/// passes every fragment and keeps the stored value.
inline constexpr WGPUStencilFaceState kStencilKeep{.compare = WGPUCompareFunction_Always,
                                                  .failOp = WGPUStencilOperation_Keep,
                                                  .depthFailOp = WGPUStencilOperation_Keep,
                                                  .passOp = WGPUStencilOperation_Keep};

/// The depth and stencil tests of a render pipeline, and its depth bias.
struct DepthState {
  /// The depth attachment's format; a stencil test needs one with stencil (Depth24PlusStencil8).
  WGPUTextureFormat format = WGPUTextureFormat_Depth24Plus;
  /// Whether passing fragments write their depth.
  bool write = true;
  /// The test a fragment's depth must pass against the stored one.
  WGPUCompareFunction compare = WGPUCompareFunction_Less;
  /// The stencil test and operations of front faces (the stencil reference is the pass's).
  WGPUStencilFaceState stencil_front = kStencilKeep;
  /// The stencil test and operations of back faces.
  WGPUStencilFaceState stencil_back = kStencilKeep;
  /// The bits of the stored stencil value the test reads.
  uint32_t stencil_read_mask = 0xFFFFFFFF;
  /// The bits of the stencil value the operations write.
  uint32_t stencil_write_mask = 0xFFFFFFFF;
  /// A constant added to each fragment's depth, in the format's smallest steps.
  int32_t depth_bias = 0;
  /// Added depth per unit of the primitive's depth slope.
  float depth_bias_slope_scale = 0.0f;
  /// The largest bias applied (0: no clamp).
  float depth_bias_clamp = 0.0f;
};

/// What create_render_pipeline makes a render pipeline from, by handle, kept as its recipe so a
/// rebuild can make it again.
struct RenderPipelineDescription {
  /// The name messages, reports and the GPU debugger show.
  std::string label{};
  PipelineLayoutHandle layout{};  ///< null: derived from the shaders ("auto")
  /// The vertex stage.
  ShaderStage vertex{};
  /// One layout per vertex buffer slot, in slot order.
  std::vector<VertexLayout> vertex_buffers{};
  /// How vertices form primitives.
  WGPUPrimitiveTopology topology = WGPUPrimitiveTopology_TriangleList;
  /// A strip topology's index format, whose largest value restarts the strip in an indexed draw;
  /// Undefined (webgpu.h's default): the bound index buffer's. The device refuses it with a list
  /// topology.
  WGPUIndexFormat strip_index_format = WGPUIndexFormat_Undefined;
  /// Which winding faces the viewer.
  WGPUFrontFace front_face = WGPUFrontFace_CCW;
  /// Which faces are dropped.
  WGPUCullMode cull_mode = WGPUCullMode_None;
  /// Fragments outside the depth range are kept with their depth clamped, not clipped; needs the
  /// device feature DepthClipControl (the device refuses the pipeline without it).
  bool unclipped_depth = false;
  /// The depth test; none: the pass has no depth attachment.
  std::optional<DepthState> depth{};
  /// Samples per pixel of the attachments: 1, or 4.
  uint32_t sample_count = 1;
  /// Which of the samples a draw may write, bit i for sample i.
  uint32_t sample_mask = 0xFFFFFFFF;
  /// Whether the fragment's alpha decides which samples it covers.
  bool alpha_to_coverage = false;
  std::optional<ShaderStage> fragment{};  ///< its targets are `targets`
  /// The color attachments, in attachment order.
  std::vector<ColorTarget> targets{};
};

/// What create_compute_pipeline makes a compute pipeline from, kept as its recipe.
struct ComputePipelineDescription {
  /// The name messages, reports and the GPU debugger show.
  std::string label{};
  PipelineLayoutHandle layout{};  ///< null: derived from the shader ("auto")
  /// The compute stage.
  ShaderStage compute{};
};

}  // namespace warden::resources
