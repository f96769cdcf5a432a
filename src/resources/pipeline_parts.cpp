#include "warden/resources/pipeline_parts.h"

namespace warden::resources {
namespace {

StageParts stage_parts(WGPUShaderModule module, const ShaderStage& stage) {
  StageParts parts{module, {}};
  for (const Constant& c : stage.constants) {
    WGPUConstantEntry entry{};
    entry.key = gpu::string_view(c.key);
    entry.value = c.value;
    parts.constants.push_back(entry);
  }
  return parts;
}

// An empty entry point is webgpu.h's null view: the module's one entry point of that stage
// (native descriptors through the webgpu.h library may leave it out).
WGPUStringView entry_point_view(const std::string& name) {
  return name.empty() ? WGPUStringView{nullptr, WGPU_STRLEN} : gpu::string_view(name);
}

}  // namespace

std::unique_ptr<RenderPipelineParts> render_pipeline_parts(const RenderPipelineDescription& d,
                                                           WGPUPipelineLayout layout, WGPUShaderModule vertex,
                                                           WGPUShaderModule fragment) {
  auto parts = std::make_unique<RenderPipelineParts>();
  RenderPipelineParts& c = *parts;
  c.vertex = stage_parts(vertex, d.vertex);
  c.attributes.resize(d.vertex_buffers.size());
  for (size_t i = 0; i < d.vertex_buffers.size(); ++i) {
    const VertexLayout& v = d.vertex_buffers[i];
    for (const VertexAttribute& a : v.attributes) {
      WGPUVertexAttribute attribute{};
      attribute.format = a.format;
      attribute.offset = a.offset;
      attribute.shaderLocation = a.location;
      c.attributes[i].push_back(attribute);
    }
    WGPUVertexBufferLayout buffer{};
    buffer.stepMode = v.step_mode;
    buffer.arrayStride = v.stride;
    buffer.attributeCount = c.attributes[i].size();
    buffer.attributes = c.attributes[i].data();
    c.buffers.push_back(buffer);
  }

  WGPURenderPipelineDescriptor& desc = c.desc;
  desc.label = gpu::string_view(d.label);
  desc.layout = layout;
  desc.vertex.module = c.vertex.module;
  desc.vertex.entryPoint = entry_point_view(d.vertex.entry_point);
  desc.vertex.constantCount = c.vertex.constants.size();
  desc.vertex.constants = c.vertex.constants.data();
  desc.vertex.bufferCount = c.buffers.size();
  desc.vertex.buffers = c.buffers.data();
  desc.primitive.topology = d.topology;
  desc.primitive.stripIndexFormat = d.strip_index_format;
  desc.primitive.frontFace = d.front_face;
  desc.primitive.cullMode = d.cull_mode;
  desc.primitive.unclippedDepth = d.unclipped_depth ? 1u : 0u;
  desc.multisample.count = d.sample_count;
  desc.multisample.mask = d.sample_mask;
  desc.multisample.alphaToCoverageEnabled = d.alpha_to_coverage ? 1u : 0u;

  if (d.depth) {
    c.depth.format = d.depth->format;
    c.depth.depthWriteEnabled = d.depth->write ? WGPUOptionalBool_True : WGPUOptionalBool_False;
    c.depth.depthCompare = d.depth->compare;
    c.depth.stencilFront = d.depth->stencil_front;
    c.depth.stencilBack = d.depth->stencil_back;
    c.depth.stencilReadMask = d.depth->stencil_read_mask;
    c.depth.stencilWriteMask = d.depth->stencil_write_mask;
    c.depth.depthBias = d.depth->depth_bias;
    c.depth.depthBiasSlopeScale = d.depth->depth_bias_slope_scale;
    c.depth.depthBiasClamp = d.depth->depth_bias_clamp;
    desc.depthStencil = &c.depth;
  }

  c.blends.resize(d.targets.size());
  for (size_t i = 0; i < d.targets.size(); ++i) {
    WGPUColorTargetState target{};
    target.format = d.targets[i].format;
    target.writeMask = d.targets[i].write_mask;
    if (d.targets[i].blend) {
      c.blends[i] = *d.targets[i].blend;
      target.blend = &c.blends[i];
    }
    c.targets.push_back(target);
  }
  if (d.fragment) {
    c.fragment_parts = stage_parts(fragment, *d.fragment);
    c.fragment.module = c.fragment_parts.module;
    c.fragment.entryPoint = entry_point_view(d.fragment->entry_point);
    c.fragment.constantCount = c.fragment_parts.constants.size();
    c.fragment.constants = c.fragment_parts.constants.data();
    c.fragment.targetCount = c.targets.size();
    c.fragment.targets = c.targets.data();
    desc.fragment = &c.fragment;
  }
  return parts;
}

std::unique_ptr<ComputePipelineParts> compute_pipeline_parts(const ComputePipelineDescription& d,
                                                             WGPUPipelineLayout layout, WGPUShaderModule compute) {
  auto parts = std::make_unique<ComputePipelineParts>();
  parts->stage = stage_parts(compute, d.compute);
  WGPUComputePipelineDescriptor& desc = parts->desc;
  desc.label = gpu::string_view(d.label);
  desc.layout = layout;
  desc.compute.module = parts->stage.module;
  desc.compute.entryPoint = entry_point_view(d.compute.entry_point);
  desc.compute.constantCount = parts->stage.constants.size();
  desc.compute.constants = parts->stage.constants.data();
  return parts;
}

}  // namespace warden::resources
