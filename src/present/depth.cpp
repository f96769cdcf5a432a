#include "warden/present/depth.h"

namespace warden::present {

WGPUDepthStencilState reverse_z_depth_state(bool write) {
  WGPUDepthStencilState state{};
  state.stencilReadMask = 0xFFFFFFFF;
  state.stencilWriteMask = 0xFFFFFFFF;
  state.format = kDepthFormat;
  state.depthWriteEnabled = write ? WGPUOptionalBool_True : WGPUOptionalBool_False;
  state.depthCompare = kReverseZCompare;
  return state;
}

resources::DepthState reverse_z_depth(bool write) {
  return resources::DepthState{.format = kDepthFormat, .write = write, .compare = kReverseZCompare};
}

WGPURenderPassDepthStencilAttachment reverse_z_depth_attachment(WGPUTextureView view) {
  WGPURenderPassDepthStencilAttachment attachment{};
  attachment.view = view;
  attachment.depthLoadOp = WGPULoadOp_Clear;
  attachment.depthStoreOp = WGPUStoreOp_Store;
  attachment.depthClearValue = kReverseZClearDepth;
  return attachment;
}

}  // namespace warden::present
