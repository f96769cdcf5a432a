#include "warden/present/window.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#define GLFW_EXPOSE_NATIVE_X11
#include <GLFW/glfw3native.h>

#include <cstdlib>
#include <string>

#include <fmt/format.h>

namespace warden::present {
namespace {

// GLFW is process-wide: initialised with the first window, terminated with the last.
int g_open_windows = 0;
std::string g_last_glfw_error;

void record_glfw_error(int code, const char* description) {
  g_last_glfw_error = fmt::format("GLFW error 0x{:x}: {}", code, description ? description : "");
}

Result<void> acquire_glfw() {
  if (g_open_windows > 0) return {};
  glfwSetErrorCallback(record_glfw_error);
  if (glfwInit() != GLFW_TRUE) {
    return make_error(ErrorKind::NotFound, MessageId::GlfwInitFailed,
                      fmt::format("cannot start GLFW on X11: {}", g_last_glfw_error));
  }
  return {};
}

void release_glfw() {
  if (g_open_windows == 0) glfwTerminate();
}

}  // namespace

Result<void> check_display() {
  const char* display = std::getenv("DISPLAY");
  if (display == nullptr || *display == '\0') {
    return make_error(ErrorKind::NotFound, MessageId::DisplayNotSet,
                      "no display: DISPLAY is not set. A window needs an X server; on a machine without "
                      "one run under Xvfb (Debian package xvfb), e.g. `xvfb-run -a build/warden window`");
  }
  Display* connection = XOpenDisplay(display);
  if (connection == nullptr) {
    return make_error(ErrorKind::NotFound, MessageId::DisplayNotAnswering,
                      fmt::format("no display: the X server at DISPLAY={} does not answer. Start one "
                                  "(e.g. `Xvfb {} &`) or unset DISPLAY and use `xvfb-run -a`",
                                  display, display));
  }
  XCloseDisplay(connection);
  return {};
}

Result<std::unique_ptr<Window>> Window::open(const WindowOptions& options) {
  if (options.width == 0 || options.height == 0) {
    return make_error(ErrorKind::InvalidArgument, MessageId::WindowZeroSize,
                      fmt::format("window \"{}\": size {}x{} has no area", options.title, options.width, options.height));
  }
  if (auto display = check_display(); !display) return display.error();
  if (auto glfw = acquire_glfw(); !glfw) return glfw.error();
  glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);  // WebGPU draws; GLFW must not make a GL context
  GLFWwindow* raw = glfwCreateWindow(static_cast<int>(options.width), static_cast<int>(options.height),
                                     options.title.c_str(), nullptr, nullptr);
  if (raw == nullptr) {
    release_glfw();
    return make_error(ErrorKind::Internal, MessageId::WindowNotCreated,
                      fmt::format("window \"{}\": {}", options.title, g_last_glfw_error));
  }
  ++g_open_windows;
  auto window = std::unique_ptr<Window>(new Window(raw));
  glfwSetWindowUserPointer(raw, window.get());
  glfwSetWindowIconifyCallback(raw, [](GLFWwindow* w, int iconified) {
    static_cast<Window*>(glfwGetWindowUserPointer(w))->minimised_ = iconified == GLFW_TRUE;
  });
  return window;
}

Window::~Window() {
  glfwDestroyWindow(window_);
  --g_open_windows;
  release_glfw();
}

X11WindowSource Window::surface_source() const {
  return X11WindowSource{glfwGetX11Display(), static_cast<uint64_t>(glfwGetX11Window(window_))};
}

WindowSize Window::framebuffer_size() const {
  if (minimised_) return {};
  int width = 0;
  int height = 0;
  glfwGetFramebufferSize(window_, &width, &height);
  return WindowSize{static_cast<uint32_t>(width), static_cast<uint32_t>(height)};
}

Result<void> Window::set_size(uint32_t width, uint32_t height) {
  if (width == 0 || height == 0) {
    return make_error(ErrorKind::InvalidArgument, MessageId::WindowZeroSize,
                      fmt::format("window: size {}x{} has no area; minimise() the window instead", width, height));
  }
  glfwSetWindowSize(window_, static_cast<int>(width), static_cast<int>(height));
  return {};
}

void Window::minimise() {
  glfwIconifyWindow(window_);
  minimised_ = true;
}

void Window::restore() {
  glfwRestoreWindow(window_);
  minimised_ = false;
}

void Window::request_close() { glfwSetWindowShouldClose(window_, GLFW_TRUE); }
bool Window::should_close() const { return glfwWindowShouldClose(window_) == GLFW_TRUE; }
void Window::poll_events() { glfwPollEvents(); }

}  // namespace warden::present
