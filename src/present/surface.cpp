#include "warden/present/surface.h"

#include "warden/core/enum_names.h"

namespace warden::present {

gpu::Surface DawnSurfaceDriver::create(gpu::Instance instance, const X11WindowSource& window,
                                       std::string_view label) {
  gpu::SurfaceSourceXlibWindow source;
  source.display = window.display;
  source.window = window.window;
  gpu::SurfaceDescriptor desc;
  desc.nextInChain = &source.chain;
  desc.label = label;
  return procs_.InstanceCreateSurface(instance, &desc);
}

Result<SurfaceCaps> DawnSurfaceDriver::capabilities(gpu::Surface surface, gpu::Adapter adapter) {
  gpu::SurfaceCapabilities raw;
  if (procs_.SurfaceGetCapabilities(surface, adapter, &raw) != gpu::Status::Success) {
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

void DawnSurfaceDriver::configure(gpu::Surface surface, const gpu::SurfaceConfiguration& config) {
  procs_.SurfaceConfigure(surface, &config);
}
void DawnSurfaceDriver::unconfigure(gpu::Surface surface) { procs_.SurfaceUnconfigure(surface); }
gpu::SurfaceTexture DawnSurfaceDriver::current_texture(gpu::Surface surface) {
  gpu::SurfaceTexture st;
  procs_.SurfaceGetCurrentTexture(surface, &st);
  return st;
}
void DawnSurfaceDriver::present(gpu::Surface surface) { procs_.SurfacePresent(surface); }
void DawnSurfaceDriver::release(gpu::Surface surface) { procs_.SurfaceRelease(surface); }

constexpr EnumName<gpu::SurfaceGetCurrentTextureStatus> kSurfaceGetCurrentTextureStatusNames[] = {
    {gpu::SurfaceGetCurrentTextureStatus::SuccessOptimal, "success-optimal"},
    {gpu::SurfaceGetCurrentTextureStatus::SuccessSuboptimal, "success-suboptimal"},
    {gpu::SurfaceGetCurrentTextureStatus::Timeout, "timeout"},
    {gpu::SurfaceGetCurrentTextureStatus::Outdated, "outdated"},
    {gpu::SurfaceGetCurrentTextureStatus::Lost, "lost"},
    {gpu::SurfaceGetCurrentTextureStatus::Error, "error"},
};
const char* to_string(gpu::SurfaceGetCurrentTextureStatus status) {
  return name_in(kSurfaceGetCurrentTextureStatusNames, status);
}

constexpr EnumName<gpu::PresentMode> kPresentModeNames[] = {
    {gpu::PresentMode::Undefined, "undefined"},
    {gpu::PresentMode::Fifo, "fifo"},
    {gpu::PresentMode::FifoRelaxed, "fifo-relaxed"},
    {gpu::PresentMode::Immediate, "immediate"},
    {gpu::PresentMode::Mailbox, "mailbox"},
};
const char* to_string(gpu::PresentMode mode) { return name_in(kPresentModeNames, mode); }

}  // namespace warden::present
