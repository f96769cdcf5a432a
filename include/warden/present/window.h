/// @file
/// Window: a GLFW window on X11 for a Swapchain to present into (no GL context: WebGPU draws).
///
/// Minimising is the application's fact, not only the window manager's: under a bare X server
/// (Xvfb, no window manager) an iconify request changes nothing visible, so minimise() records
/// it and framebuffer_size() reports no area until restore(). A window manager's own iconify
/// events set the same state.
///
/// Not thread-safe: GLFW wants the main thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "warden/core/result.h"
#include "warden/present/surface.h"

struct GLFWwindow;

namespace warden::present {

/// What Window::open() makes.
struct WindowOptions {
  /// The title bar's text.
  std::string title = "warden";
  /// Client area, pixels across.
  uint32_t width = 640;
  /// Client area, rows.
  uint32_t height = 480;
};

/// A size in pixels.
struct WindowSize {
  /// Pixels across.
  uint32_t width = 0;
  /// Rows.
  uint32_t height = 0;
  /// True when neither dimension is 0.
  bool has_area() const { return width > 0 && height > 0; }
};

/// Whether an X display can be opened: DISPLAY is set and names a server that answers.
/// The error says which, and how to get one.
Result<void> check_display();

/// A GLFW window on X11 that surfaces can be made for.
class Window {
 public:
  /// Errors: no display (check_display()), zero size, or GLFW's own message.
  static Result<std::unique_ptr<Window>> open(const WindowOptions& options = {});
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  /// The X11 display and window, for a surface.
  X11WindowSource surface_source() const;
  /// Pixels to present into: {0, 0} while minimised.
  WindowSize framebuffer_size() const;

  /// Asks for a new size; zero is refused (minimise() is how a window loses its area).
  Result<void> set_size(uint32_t width, uint32_t height);
  /// Iconifies the window: framebuffer_size() becomes {0, 0}.
  void minimise();
  /// Undoes minimise().
  void restore();
  /// True between minimise() and restore().
  bool minimised() const { return minimised_; }

  /// Closing: the user's close button or request_close(); the owner decides when to stop.
  void request_close();
  /// True once closing was asked for.
  bool should_close() const;
  /// Non-blocking: handles pending window-system events.
  void poll_events();

 private:
  explicit Window(GLFWwindow* window) : window_(window) {}
  GLFWwindow* window_;
  bool minimised_ = false;
};

}  // namespace warden::present
