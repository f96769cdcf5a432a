/// @file
/// PresentTarget: a window the Engine presents to, across its device generations (ADR 0056).
/// Made by Engine::present_to. The application acquires, renders, submits and presents; the
/// engine does the rest, in its own phases:
///
/// - it attaches the target to every device it shows, with a new surface each (ADR 0012),
///   before observers and on_ready hear of that device, so format() and capabilities() are
///   known before the first frame (and right after present_to() when a device is shown);
/// - at a loss it detaches the target in poll()'s let-go phase, before the registry lets go of
///   the device's objects: the frame view the target imported is ended by the target, once;
/// - a device's first present marks it presented, so that it is released, never destroyed,
///   when it ends (ADR 0051).
///
/// Frame-thread calls (warden/core/frame_thread.h). A target may outlive its engine: it then
/// holds no surface and refuses every call (PresentTargetEngineGone).
#pragma once

#include <cstdint>
#include <optional>

#include "warden/core/result.h"
#include "warden/present/surface.h"
#include "warden/present/swapchain.h"

namespace warden::engine {

class Engine;

/// A window the engine presents to across device generations (see the file comment).
class PresentTarget {
 public:
  /// Stops following the engine and lets go of the surface (and of a frame not presented).
  ~PresentTarget();
  PresentTarget(const PresentTarget&) = delete;
  PresentTarget& operator=(const PresentTarget&) = delete;

  /// A frame to render into, or nothing while the window has no area (the frame is skipped).
  /// Errors: no device shown now (SwapchainAcquireDetached: skip the frame and poll), the
  /// target could not be attached to this device (PresentTargetAttachFailed, with why), a frame
  /// still unpresented, the surface failing twice, the engine gone.
  Result<std::optional<present::SwapchainImage>> acquire();
  /// Presents the acquired frame (submit its work first).
  Result<void> present();
  /// Records the window's new size; the next acquire() configures for it.
  void resize(uint32_t width, uint32_t height);

  /// True while it is attached to a device of the engine (shown, not lost).
  bool attached() const { return swapchain_.attached(); }
  /// The format frames come in, chosen when attached (Undefined until the first attach).
  WGPUTextureFormat format() const { return swapchain_.format(); }
  /// What the surface offers the current device's adapter, asked when attached.
  const present::SurfaceCaps& capabilities() const { return swapchain_.capabilities(); }
  /// The size last recorded.
  ///@{
  uint32_t width() const { return swapchain_.width(); }
  uint32_t height() const { return swapchain_.height(); }
  ///@}
  /// Surfaces made, configures, frames acquired, presented and skipped, surface failures.
  const present::SwapchainCounters& counters() const { return swapchain_.counters(); }

 private:
  friend class Engine;
  PresentTarget(Engine& engine, present::X11WindowSource window, uint32_t width, uint32_t height,
                present::SwapchainOptions options, present::SurfaceDriver* driver);
  // The engine's calls: attach to the device it shows, detach at a loss, forget it at its end.
  void attach_to_engine_device();
  void detach() { swapchain_.detach(); }
  // A frame-thread call refused: the engine gone, or another thread.
  std::optional<Error> refuse(const char* call) const;

  Engine* engine_;
  present::Swapchain swapchain_;
  std::optional<Error> attach_failure_;  // the last attach's, until the next one succeeds
};

}  // namespace warden::engine
