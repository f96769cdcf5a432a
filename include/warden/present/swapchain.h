/// @file
/// Swapchain: one window's frames across device generations (docs/design.md, presenting rules P1, P2).
///
/// - resize() only records the size; acquire() reconfigures when the size differs from the one
///   configured. While the window has no area (minimised) acquire() returns "no frame": not an
///   error, the frame is skipped and counted.
/// - Outdated, Lost or Timeout from the surface: reconfigure and retry exactly once, then report
///   the error. That is surface trouble, not device loss: it is scored as FaultKind::Surface
///   on the rebuild policy, which decides when repeated trouble is enough.
/// - Each device generation gets a new WGPUSurface for the same window (attach()). Reusing the
///   old one was measured to fail with status Error on every second generation (docs/adr/0012).
/// - The frame's view is imported into that generation's Registry (tracked, never released by
///   it) and forgotten at present(). The first present of a generation calls on_first_present:
///   the owner marks the device as having presented, so ending it releases and never destroys
///   it (docs/adr/0003).
///
/// Frame-thread calls, like the Registry's submit and poll (warden/core/frame_thread.h). Nothing
/// here waits on the GPU.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "warden/device/rebuild_policy.h"
#include "warden/present/surface.h"
#include "warden/resources/registry.h"

namespace warden::present {

/// How a Swapchain configures its surfaces.
struct SwapchainOptions {
  /// Label of its surfaces.
  std::string label = "swapchain";
  WGPUPresentMode present_mode = WGPUPresentMode_Fifo;  ///< Fifo when the surface lacks it
  /// CopySrc lets a frame be read back (screenshots, tests).
  WGPUTextureUsage usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc;
  /// The first of these the surface supports; else the surface's first format.
  std::vector<WGPUTextureFormat> preferred_formats = {WGPUTextureFormat_BGRA8Unorm,
                                                       WGPUTextureFormat_RGBA8Unorm};
  device::RebuildPolicy* rebuild = nullptr;  ///< surface failures are scored here when set
};

/// What one device generation presents with.
struct SwapchainDevice {
  /// The generation's device.
  WGPUDevice device = nullptr;
  resources::Registry* registry = nullptr;  ///< frame views are imported here; must outlive the attachment
  /// Called at this generation's first present (the owner: controller.mark_presented()).
  std::function<void()> on_first_present{};
};

/// One acquired frame: render into `view`, then present().
struct SwapchainImage {
  TextureViewHandle view{};  ///< imported into the generation's Registry; dead after present()
  WGPUTexture texture = nullptr;  ///< the surface's, valid until present()
  /// Pixels across.
  uint32_t width = 0;
  /// Rows.
  uint32_t height = 0;
  /// The surface's format.
  WGPUTextureFormat format = WGPUTextureFormat_Undefined;
};

/// What a Swapchain has done so far.
struct SwapchainCounters {
  /// One per attach().
  uint64_t surfaces_created = 0;
  uint64_t configures = 0;  ///< every SurfaceConfigure, retries included
  /// Frames handed out by acquire().
  uint64_t frames_acquired = 0;
  /// Frames presented.
  uint64_t frames_presented = 0;
  uint64_t frames_skipped = 0;  ///< acquire() while the window had no area
  uint64_t retries = 0;         ///< reconfigure-and-retry after Outdated/Lost/Timeout
  /// acquire() calls that failed even after their retry.
  uint64_t surface_failures = 0;
};

/// One window's frames across device generations (see the file comment).
class Swapchain {
 public:
  /// `context` (its instance makes the surfaces) and `driver` must outlive the swapchain; a
  /// null driver means the real library's calls.
  Swapchain(const gpu::Context& context, X11WindowSource window, uint32_t width, uint32_t height,
            SwapchainOptions options = {}, SurfaceDriver* driver = nullptr);
  ~Swapchain();  ///< detach()
  Swapchain(const Swapchain&) = delete;
  Swapchain& operator=(const Swapchain&) = delete;

  /// A new device generation: lets go of the previous surface and makes a new one for the same
  /// window. Configuration waits for the first acquire().
  Result<void> attach(SwapchainDevice target);
  /// Drops the frame in flight (if any), unconfigures and releases the surface.
  void detach();
  /// True between attach() and detach().
  bool attached() const { return surface_ != nullptr; }

  /// Records the window's new size; 0 in either dimension means "no area".
  void resize(uint32_t width, uint32_t height);
  /// A frame to render into, or nothing while the window has no area. Errors: not attached, a
  /// frame still unpresented, or the surface failed twice (the second time after reconfiguring).
  Result<std::optional<SwapchainImage>> acquire();
  /// Presents the acquired frame (submit its work first).
  Result<void> present();

  /// What it has done so far.
  const SwapchainCounters& counters() const { return counters_; }
  /// The format frames come in: chosen at attach() from what the surface offers (Undefined
  /// before the first attach()).
  WGPUTextureFormat format() const { return format_; }
  /// What the surface offered the attached device's adapter, asked at attach() (empty before it).
  const SurfaceCaps& capabilities() const { return caps_; }
  /// The size last recorded by resize() (or the constructor).
  uint32_t width() const { return width_; }
  /// The same, rows.
  uint32_t height() const { return height_; }

 private:
  void configure();
  bool needs_configure() const;
  Result<std::optional<SwapchainImage>> surface_failure(std::string detail);
  void drop_frame();

  const gpu::Context& context_;
  X11WindowSource window_;
  SwapchainOptions options_;
  std::unique_ptr<DawnSurfaceDriver> own_driver_;
  SurfaceDriver& driver_;

  SwapchainDevice target_;
  WGPUSurface surface_ = nullptr;
  WGPUTextureFormat format_ = WGPUTextureFormat_Undefined;
  SurfaceCaps caps_{};
  WGPUPresentMode present_mode_ = WGPUPresentMode_Fifo;
  WGPUCompositeAlphaMode alpha_mode_ = WGPUCompositeAlphaMode_Auto;
  bool configured_ = false;
  uint32_t configured_width_ = 0;
  uint32_t configured_height_ = 0;
  bool presented_this_generation_ = false;

  uint32_t width_ = 0;
  uint32_t height_ = 0;

  struct InFlight {
    SwapchainImage frame{};
    WGPUTextureView view = nullptr;  // ours: the registry only tracks it
  };
  std::optional<InFlight> in_flight_;
  SwapchainCounters counters_;
};

}  // namespace warden::present
