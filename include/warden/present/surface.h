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
  std::vector<WGPUTextureFormat> formats{};
  /// Present modes it supports.
  std::vector<WGPUPresentMode> present_modes{};
  /// Alpha modes it supports.
  std::vector<WGPUCompositeAlphaMode> alpha_modes{};
  /// Texture usages its textures may have.
  WGPUTextureUsage usages = WGPUTextureUsage_None;
};

/// The surface calls, behind a seam: the real library will not report Outdated, Lost or Timeout
/// on demand, so a test wraps DawnSurfaceDriver and injects them (tests/present). Everything
/// else a test does goes through the real calls.
class SurfaceDriver {
 public:
  virtual ~SurfaceDriver() = default;
  /// Null when the library refused the window.
  virtual WGPUSurface create(WGPUInstance instance, const X11WindowSource& window, std::string_view label) = 0;
  /// What `surface` supports with `adapter`.
  virtual Result<SurfaceCaps> capabilities(WGPUSurface surface, WGPUAdapter adapter) = 0;
  /// wgpuSurfaceConfigure.
  virtual void configure(WGPUSurface surface, const WGPUSurfaceConfiguration& config) = 0;
  /// wgpuSurfaceUnconfigure.
  virtual void unconfigure(WGPUSurface surface) = 0;
  /// The texture, when there is one, is a new reference the caller releases.
  virtual WGPUSurfaceTexture current_texture(WGPUSurface surface) = 0;
  /// wgpuSurfacePresent.
  virtual void present(WGPUSurface surface) = 0;
  /// Releases the surface.
  virtual void release(WGPUSurface surface) = 0;
};

/// The SurfaceDriver that calls the loaded library.
class DawnSurfaceDriver : public SurfaceDriver {
 public:
  /// Calls through `procs`, which must outlive the driver.
  explicit DawnSurfaceDriver(const gpu::Procs& procs) : procs_(procs) {}
  WGPUSurface create(WGPUInstance instance, const X11WindowSource& window, std::string_view label) override;
  /// The library's calls of the same names.
  ///@{
  Result<SurfaceCaps> capabilities(WGPUSurface surface, WGPUAdapter adapter) override;
  void configure(WGPUSurface surface, const WGPUSurfaceConfiguration& config) override;
  void unconfigure(WGPUSurface surface) override;
  WGPUSurfaceTexture current_texture(WGPUSurface surface) override;
  void present(WGPUSurface surface) override;
  void release(WGPUSurface surface) override;
  ///@}

 private:
  const gpu::Procs& procs_;
};

/// "success-optimal", "outdated", ... for messages.
const char* to_string(WGPUSurfaceGetCurrentTextureStatus status);
/// "fifo", "mailbox", ... for messages.
const char* to_string(WGPUPresentMode mode);

}  // namespace warden::present
