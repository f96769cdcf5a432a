#include "warden/present/depth.h"

namespace warden::present {

namespace {

// Both conventions differ only in the compare and the clear value; everything else is written
// here once.
WGPUDepthStencilState depth_state(bool write, WGPUCompareFunction compare) {
  WGPUDepthStencilState state{};
  state.stencilReadMask = 0xFFFFFFFF;
  state.stencilWriteMask = 0xFFFFFFFF;
  state.format = kDepthFormat;
  state.depthWriteEnabled = write ? WGPUOptionalBool_True : WGPUOptionalBool_False;
  state.depthCompare = compare;
  return state;
}

WGPURenderPassDepthStencilAttachment depth_attachment(WGPUTextureView view, float clear_depth) {
  WGPURenderPassDepthStencilAttachment attachment{};
  attachment.view = view;
  attachment.depthLoadOp = WGPULoadOp_Clear;
  attachment.depthStoreOp = WGPUStoreOp_Store;
  attachment.depthClearValue = clear_depth;
  return attachment;
}

}  // namespace

WGPUDepthStencilState reverse_z_depth_state(bool write) { return depth_state(write, kReverseZCompare); }

resources::DepthState reverse_z_depth(bool write) {
  return resources::DepthState{.format = kDepthFormat, .write = write, .compare = kReverseZCompare};
}

WGPURenderPassDepthStencilAttachment reverse_z_depth_attachment(WGPUTextureView view) {
  return depth_attachment(view, kReverseZClearDepth);
}

WGPUDepthStencilState standard_depth_state(bool write) { return depth_state(write, kStandardCompare); }

resources::DepthState standard_depth(bool write) {
  return resources::DepthState{.format = kDepthFormat, .write = write, .compare = kStandardCompare};
}

WGPURenderPassDepthStencilAttachment standard_depth_attachment(WGPUTextureView view) {
  return depth_attachment(view, kStandardClearDepth);
}

}  // namespace warden::present
