// The render pipeline descriptor most ABI tests start from: a module with `vs` and `fs` entry
// points and one RGBA8Unorm colour target. A test changes the part it probes and creates it.
#pragma once

#include "warden/webgpu/abi.h"

namespace warden::testing {

struct BasicPipelineDesc {
  explicit BasicPipelineDesc(gpu::ShaderModule module) {
    color.format = gpu::TextureFormat::RGBA8Unorm;
    fragment.module = module;
    fragment.entryPoint = "fs";
    fragment.targetCount = 1;
    fragment.targets = &color;
    desc.vertex.module = module;
    desc.vertex.entryPoint = "vs";
    desc.fragment = &fragment;
  }
  // `desc` points into this object.
  BasicPipelineDesc(const BasicPipelineDesc&) = delete;
  BasicPipelineDesc& operator=(const BasicPipelineDesc&) = delete;

  gpu::ColorTargetState color;
  gpu::FragmentState fragment;
  gpu::RenderPipelineDescriptor desc;
};

}  // namespace warden::testing
