#include "warden/gpu/objects.h"

namespace warden::gpu {

ShaderModule create_wgsl_module(const Procs& procs, Device device, std::string_view code, std::string_view label) {
  ShaderSourceWGSL wgsl;
  wgsl.code = code;
  ShaderModuleDescriptor desc;
  desc.nextInChain = &wgsl.chain;
  desc.label = label;
  return procs.DeviceCreateShaderModule(device, &desc);
}

RenderPassEncoder begin_clear_pass(const Procs& procs, CommandEncoder encoder, TextureView view, Color clear) {
  RenderPassColorAttachment attachment;
  attachment.view = view;
  attachment.loadOp = LoadOp::Clear;
  attachment.storeOp = StoreOp::Store;
  attachment.clearValue = clear;
  RenderPassDescriptor pass;
  pass.colorAttachmentCount = 1;
  pass.colorAttachments = &attachment;
  return procs.CommandEncoderBeginRenderPass(encoder, &pass);
}

void copy_image_to_buffer(const Procs& procs, CommandEncoder encoder, Texture texture, Buffer buffer,
                          uint32_t width, uint32_t height, uint32_t bytes_per_row, uint32_t mip,
                          uint32_t layer) {
  TexelCopyTextureInfo src;
  src.texture = texture;
  src.mipLevel = mip;
  src.origin = {0, 0, layer};
  TexelCopyBufferInfo dst;
  dst.buffer = buffer;
  dst.layout.bytesPerRow = bytes_per_row;
  dst.layout.rowsPerImage = height;
  Extent3D extent{width, height, 1};
  procs.CommandEncoderCopyTextureToBuffer(encoder, &src, &dst, &extent);
}

}  // namespace warden::gpu
