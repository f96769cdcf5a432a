/// @file
/// Surfaces: where a window's pixels come from, and the few surface calls a Swapchain makes.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "warden/core/result.h"
#include "warden/gpu/procs.h"

namespace warden::present {

/// An X11 window, as webgpu.h's Xlib surface source wants it.
struct X11WindowSource {
  void* display = nullptr;  ///< Display*
  uint64_t window = 0;      ///< Window id
};

/// What a surface supports with an adapter.
struct SurfaceCaps {
  /// Formats it can be configured with, preferred first.
  std::vector<gpu::TextureFormat> formats{};
  /// Present modes it supports.
  std::vector<gpu::PresentMode> present_modes{};
  /// Alpha modes it supports.
  std::vector<gpu::CompositeAlphaMode> alpha_modes{};
  /// Texture usages its textures may have.
  gpu::Flags usages = gpu::TextureUsage::None;
};

/// The surface calls, behind a seam: the real library will not report Outdated, Lost or Timeout
/// on demand, so a test wraps DawnSurfaceDriver and injects them (tests/present). Everything
/// else a test does goes through the real calls.
class SurfaceDriver {
 public:
  virtual ~SurfaceDriver() = default;
  /// Null when the library refused the window.
  virtual gpu::Surface create(gpu::Instance instance, const X11WindowSource& window, std::string_view label) = 0;
  /// What `surface` supports with `adapter`.
  virtual Result<SurfaceCaps> capabilities(gpu::Surface surface, gpu::Adapter adapter) = 0;
  /// wgpuSurfaceConfigure.
  virtual void configure(gpu::Surface surface, const gpu::SurfaceConfiguration& config) = 0;
  /// wgpuSurfaceUnconfigure.
  virtual void unconfigure(gpu::Surface surface) = 0;
  /// The texture, when there is one, is a new reference the caller releases.
  virtual gpu::SurfaceTexture current_texture(gpu::Surface surface) = 0;
  /// wgpuSurfacePresent.
  virtual void present(gpu::Surface surface) = 0;
  /// Releases the surface.
  virtual void release(gpu::Surface surface) = 0;
};

/// The SurfaceDriver that calls the loaded library.
class DawnSurfaceDriver : public SurfaceDriver {
 public:
  /// Calls through `procs`, which must outlive the driver.
  explicit DawnSurfaceDriver(const gpu::Procs& procs) : procs_(procs) {}
  gpu::Surface create(gpu::Instance instance, const X11WindowSource& window, std::string_view label) override;
  /// The library's calls of the same names.
  ///@{
  Result<SurfaceCaps> capabilities(gpu::Surface surface, gpu::Adapter adapter) override;
  void configure(gpu::Surface surface, const gpu::SurfaceConfiguration& config) override;
  void unconfigure(gpu::Surface surface) override;
  gpu::SurfaceTexture current_texture(gpu::Surface surface) override;
  void present(gpu::Surface surface) override;
  void release(gpu::Surface surface) override;
  ///@}

 private:
  const gpu::Procs& procs_;
};

/// "success-optimal", "outdated", ... for messages.
const char* to_string(gpu::SurfaceGetCurrentTextureStatus status);
/// "fifo", "mailbox", ... for messages.
const char* to_string(gpu::PresentMode mode);

}  // namespace warden::present
