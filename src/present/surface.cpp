#include "warden/present/surface.h"

#include "warden/core/enum_names.h"

namespace warden::present {

WGPUSurface DawnSurfaceDriver::create(WGPUInstance instance, const X11WindowSource& window,
                                       std::string_view label) {
  WGPUSurfaceSourceXlibWindow source{};
  source.chain.sType = WGPUSType_SurfaceSourceXlibWindow;
  source.display = window.display;
  source.window = window.window;
  WGPUSurfaceDescriptor desc{};
  desc.nextInChain = &source.chain;
  desc.label = gpu::string_view(label);
  return procs_.InstanceCreateSurface(instance, &desc);
}

Result<SurfaceCaps> DawnSurfaceDriver::capabilities(WGPUSurface surface, WGPUAdapter adapter) {
  WGPUSurfaceCapabilities raw{};
  if (procs_.SurfaceGetCapabilities(surface, adapter, &raw) != WGPUStatus_Success) {
    return make_error(ErrorKind::Validation, MessageId::SurfaceCapabilitiesUnreadable,
                      "the surface's capabilities could not be read for this adapter");
  }
  SurfaceCaps caps;
  caps.formats.assign(raw.formats, raw.formats + raw.formatCount);
  caps.present_modes.assign(raw.presentModes, raw.presentModes + raw.presentModeCount);
  caps.alpha_modes.assign(raw.alphaModes, raw.alphaModes + raw.alphaModeCount);
  caps.usages = raw.usages;
  procs_.SurfaceCapabilitiesFreeMembers(raw);
  return caps;
}

void DawnSurfaceDriver::configure(WGPUSurface surface, const WGPUSurfaceConfiguration& config) {
  procs_.SurfaceConfigure(surface, &config);
}
void DawnSurfaceDriver::unconfigure(WGPUSurface surface) { procs_.SurfaceUnconfigure(surface); }
WGPUSurfaceTexture DawnSurfaceDriver::current_texture(WGPUSurface surface) {
  WGPUSurfaceTexture st{};
  procs_.SurfaceGetCurrentTexture(surface, &st);
  return st;
}
void DawnSurfaceDriver::present(WGPUSurface surface) { procs_.SurfacePresent(surface); }
void DawnSurfaceDriver::release(WGPUSurface surface) { procs_.SurfaceRelease(surface); }

constexpr EnumName<WGPUSurfaceGetCurrentTextureStatus> kSurfaceGetCurrentTextureStatusNames[] = {
    {WGPUSurfaceGetCurrentTextureStatus_SuccessOptimal, "success-optimal"},
    {WGPUSurfaceGetCurrentTextureStatus_SuccessSuboptimal, "success-suboptimal"},
    {WGPUSurfaceGetCurrentTextureStatus_Timeout, "timeout"},
    {WGPUSurfaceGetCurrentTextureStatus_Outdated, "outdated"},
    {WGPUSurfaceGetCurrentTextureStatus_Lost, "lost"},
    {WGPUSurfaceGetCurrentTextureStatus_Error, "error"},
};
const char* to_string(WGPUSurfaceGetCurrentTextureStatus status) {
  return name_in(kSurfaceGetCurrentTextureStatusNames, status);
}

constexpr EnumName<WGPUPresentMode> kPresentModeNames[] = {
    {WGPUPresentMode_Undefined, "undefined"},
    {WGPUPresentMode_Fifo, "fifo"},
    {WGPUPresentMode_FifoRelaxed, "fifo-relaxed"},
    {WGPUPresentMode_Immediate, "immediate"},
    {WGPUPresentMode_Mailbox, "mailbox"},
};
const char* to_string(WGPUPresentMode mode) { return name_in(kPresentModeNames, mode); }

}  // namespace warden::present
