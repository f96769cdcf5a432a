/// @file
/// A pipeline description (descriptions.h) in webgpu's C form, for every caller that makes a
/// pipeline from one: the Registry (create and rebuild) and pipelines/ (hot reload's builds,
/// synchronous or asynchronous). The caller resolves the handles by its own rules (the live
/// registry, or a substitute module) and reports failures in its own words; what is left cannot
/// fail, so it lives here once.
#pragma once

#include <memory>
#include <vector>

#include "warden/resources/descriptions.h"
#include "warden/gpu/abi.h"

namespace warden::resources {

/// The C form of one stage; the descriptor points into `constants`.
struct StageParts {
  /// The stage's module.
  WGPUShaderModule module = nullptr;
  /// The stage's constants, in webgpu.h's form.
  std::vector<WGPUConstantEntry> constants{};
};

/// A descriptor and every array it points into, in one allocation that is never moved, so the
/// pointers stay put while the create call (or an asynchronous request) reads them.
struct RenderPipelineParts {
  /// The vertex and fragment stages' parts.
  ///@{
  StageParts vertex{}, fragment_parts{};
  ///@}
  /// The attributes of each vertex buffer; `buffers` point into them.
  std::vector<std::vector<WGPUVertexAttribute>> attributes{};
  /// The vertex buffer layouts `desc` points to.
  std::vector<WGPUVertexBufferLayout> buffers{};
  /// The depth state `desc` points to when the description has one.
  WGPUDepthStencilState depth{};
  /// The blend states the color targets point to.
  std::vector<WGPUBlendState> blends{};
  /// The color targets `fragment` points to.
  std::vector<WGPUColorTargetState> targets{};
  /// The fragment state `desc` points to when there is a fragment stage.
  WGPUFragmentState fragment{};
  /// The descriptor to pass to wgpuDeviceCreateRenderPipeline(Async).
  WGPURenderPipelineDescriptor desc{};
};
/// A compute pipeline descriptor and the stage it points into, never moved (see
/// RenderPipelineParts).
struct ComputePipelineParts {
  /// The compute stage's parts.
  StageParts stage{};
  /// The descriptor to pass to wgpuDeviceCreateComputePipeline(Async).
  WGPUComputePipelineDescriptor desc{};
};

/// `layout` null: derived from the shaders. `fragment` is read only when the description has a
/// fragment stage. The description must outlive the parts (labels and entry points are views).
std::unique_ptr<RenderPipelineParts> render_pipeline_parts(const RenderPipelineDescription& description,
                                                           WGPUPipelineLayout layout, WGPUShaderModule vertex,
                                                           WGPUShaderModule fragment);
/// The compute form of render_pipeline_parts; `layout` null: derived from the shader. The
/// description must outlive the parts.
std::unique_ptr<ComputePipelineParts> compute_pipeline_parts(const ComputePipelineDescription& description,
                                                             WGPUPipelineLayout layout, WGPUShaderModule compute);

}  // namespace warden::resources
