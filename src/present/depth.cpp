#include "warden/present/depth.h"

namespace warden::present {

gpu::DepthStencilState reverse_z_depth_state(bool write) {
  gpu::DepthStencilState state;
  state.format = kDepthFormat;
  state.depthWriteEnabled = write ? gpu::OptionalBool::True : gpu::OptionalBool::False;
  state.depthCompare = kReverseZCompare;
  return state;
}

resources::DepthState reverse_z_depth(bool write) {
  return resources::DepthState{.format = kDepthFormat, .write = write, .compare = kReverseZCompare};
}

gpu::RenderPassDepthStencilAttachment reverse_z_depth_attachment(gpu::TextureView view) {
  gpu::RenderPassDepthStencilAttachment attachment;
  attachment.view = view;
  attachment.depthLoadOp = gpu::LoadOp::Clear;
  attachment.depthStoreOp = gpu::StoreOp::Store;
  attachment.depthClearValue = kReverseZClearDepth;
  return attachment;
}

}  // namespace warden::present
