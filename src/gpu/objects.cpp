#include "warden/gpu/objects.h"

namespace warden::gpu {

WGPUShaderModule create_wgsl_module(const Procs& procs, WGPUDevice device, std::string_view code, std::string_view label) {
  WGPUShaderSourceWGSL wgsl{};
  wgsl.chain.sType = WGPUSType_ShaderSourceWGSL;
  wgsl.code = gpu::string_view(code);
  WGPUShaderModuleDescriptor desc{};
  desc.nextInChain = &wgsl.chain;
  desc.label = gpu::string_view(label);
  return procs.DeviceCreateShaderModule(device, &desc);
}

WGPURenderPassEncoder begin_clear_pass(const Procs& procs, WGPUCommandEncoder encoder, WGPUTextureView view, WGPUColor clear) {
  WGPURenderPassColorAttachment attachment{};
  attachment.view = view;
  attachment.depthSlice = WGPU_DEPTH_SLICE_UNDEFINED;
  attachment.loadOp = WGPULoadOp_Clear;
  attachment.storeOp = WGPUStoreOp_Store;
  attachment.clearValue = clear;
  WGPURenderPassDescriptor pass{};
  pass.colorAttachmentCount = 1;
  pass.colorAttachments = &attachment;
  return procs.CommandEncoderBeginRenderPass(encoder, &pass);
}

void copy_image_to_buffer(const Procs& procs, WGPUCommandEncoder encoder, WGPUTexture texture, WGPUBuffer buffer,
                          uint32_t width, uint32_t height, uint32_t bytes_per_row, uint32_t mip,
                          uint32_t layer) {
  WGPUTexelCopyTextureInfo src{};
  src.texture = texture;
  src.mipLevel = mip;
  src.origin = {0, 0, layer};
  src.aspect = WGPUTextureAspect_All;
  WGPUTexelCopyBufferInfo dst{};
  dst.buffer = buffer;
  dst.layout.bytesPerRow = bytes_per_row;
  dst.layout.rowsPerImage = height;
  WGPUExtent3D extent{width, height, 1};
  procs.CommandEncoderCopyTextureToBuffer(encoder, &src, &dst, &extent);
}

}  // namespace warden::gpu
