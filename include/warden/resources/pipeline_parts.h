// A pipeline description (descriptions.h) in webgpu's C form, for every caller that makes a
// pipeline from one: the Registry (create and rebuild) and pipelines/ (hot reload's builds,
// synchronous or asynchronous). The caller resolves the handles by its own rules (the live
// registry, or a substitute module) and reports failures in its own words; what is left cannot
// fail, so it lives here once.
#pragma once

#include <memory>
#include <vector>

#include "warden/resources/descriptions.h"
#include "warden/gpu/abi.h"

namespace warden::resources {

/// The C form of one stage; the descriptor points into `constants`.
struct StageParts {
  gpu::ShaderModule module = nullptr;
  std::vector<gpu::ConstantEntry> constants;
};

/// A descriptor and every array it points into, in one allocation that is never moved, so the
/// pointers stay put while the create call (or an asynchronous request) reads them.
struct RenderPipelineParts {
  StageParts vertex, fragment_parts;
  std::vector<std::vector<gpu::VertexAttribute>> attributes;
  std::vector<gpu::VertexBufferLayout> buffers;
  gpu::DepthStencilState depth;
  std::vector<gpu::BlendState> blends;
  std::vector<gpu::ColorTargetState> targets;
  gpu::FragmentState fragment;
  gpu::RenderPipelineDescriptor desc;
};
struct ComputePipelineParts {
  StageParts stage;
  gpu::ComputePipelineDescriptor desc;
};

/// `layout` null: derived from the shaders. `fragment` is read only when the description has a
/// fragment stage. The description must outlive the parts (labels and entry points are views).
std::unique_ptr<RenderPipelineParts> render_pipeline_parts(const RenderPipelineDescription& description,
                                                           gpu::PipelineLayout layout, gpu::ShaderModule vertex,
                                                           gpu::ShaderModule fragment);
std::unique_ptr<ComputePipelineParts> compute_pipeline_parts(const ComputePipelineDescription& description,
                                                             gpu::PipelineLayout layout, gpu::ShaderModule compute);

}  // namespace warden::resources
