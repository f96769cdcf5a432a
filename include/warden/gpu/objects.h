/// @file
/// Small constructors for raw objects and commands that several layers make the same way.
#pragma once

#include <cstdint>
#include <string_view>

#include "warden/gpu/procs.h"

namespace warden::gpu {

/// A shader module from WGSL source: the one place the WGSL source chain is assembled. Returns
/// what the device returned (an invalid module when the source does not compile).
WGPUShaderModule create_wgsl_module(const Procs& procs, WGPUDevice device, std::string_view code, std::string_view label);

/// The render pipeline descriptor for a module with `vs` and `fs` entry points drawing into one
/// colour target. The caller sets what else it needs (label, layout, vertex buffers, blend, ...)
/// on `desc` and creates the pipeline.
struct VsFsPipelineDescription {
  /// Fills the descriptor for `module`'s `vs` and `fs` drawing into one `target` format.
  explicit VsFsPipelineDescription(WGPUShaderModule module, WGPUTextureFormat target = WGPUTextureFormat_RGBA8Unorm) {
    color.format = target;
    color.writeMask = WGPUColorWriteMask_All;
    fragment.module = module;
    fragment.entryPoint = gpu::string_view("fs");
    fragment.targetCount = 1;
    fragment.targets = &color;
    desc.vertex.module = module;
    desc.vertex.entryPoint = gpu::string_view("vs");
    desc.primitive.topology = WGPUPrimitiveTopology_TriangleList;
    desc.primitive.frontFace = WGPUFrontFace_CCW;
    desc.primitive.cullMode = WGPUCullMode_None;
    desc.multisample.count = 1;
    desc.multisample.mask = 0xFFFFFFFF;
    desc.fragment = &fragment;
  }
  /// `desc` points into this object.
  VsFsPipelineDescription(const VsFsPipelineDescription&) = delete;
  VsFsPipelineDescription& operator=(const VsFsPipelineDescription&) = delete;

  /// The one colour target (format, no blend, all channels).
  WGPUColorTargetState color{};
  /// The fragment stage: `fs`, one target.
  WGPUFragmentState fragment{};
  /// The descriptor to create the pipeline from; points at `fragment` and `color`.
  WGPURenderPipelineDescriptor desc{};
};

/// Begins a render pass with one colour attachment, cleared to `clear` and stored.
WGPURenderPassEncoder begin_clear_pass(const Procs& procs, WGPUCommandEncoder encoder, WGPUTextureView view,
                                   WGPUColor clear = {});

/// Records a copy of one 2D image of `texture` (mip level `mip`, array layer `layer`, `width` x
/// `height` texels) to the start of `buffer`, `bytes_per_row` apart.
void copy_image_to_buffer(const Procs& procs, WGPUCommandEncoder encoder, WGPUTexture texture, WGPUBuffer buffer,
                          uint32_t width, uint32_t height, uint32_t bytes_per_row, uint32_t mip = 0,
                          uint32_t layer = 0);

}  // namespace warden::gpu
