#include "support/xvfb.h"

#include <X11/Xlib.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

extern char** environ;

namespace warden::testing {

// The connection that keeps Xvfb alive. External linkage on purpose: the store must not be
// optimised away (nothing reads it), so the connection stays reachable, not a leak.
Display* g_xvfb_keepalive = nullptr;

namespace {

constexpr int kStartTimeoutMs = 20000;

// Reads what Xvfb writes to the -displayfd pipe ("N\n") until the newline, EOF or the timeout.
std::string read_display_number(int fd) {
  std::string text;
  char buf[32];
  while (text.find('\n') == std::string::npos) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, kStartTimeoutMs) <= 0) break;
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  if (auto nl = text.find('\n'); nl != std::string::npos) text.resize(nl);
  return text;
}

Result<std::string> spawn_xvfb() {
  int fds[2];
  if (::pipe(fds) != 0) return make_error(ErrorKind::Io, fmt::format("pipe: {}", std::strerror(errno)));
  ::fcntl(fds[0], F_SETFD, FD_CLOEXEC);  // the read end stays here; the write end goes to Xvfb

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  // Xvfb's start-up chatter (font paths, xkb) is noise in test logs.
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  const std::string fd_text = std::to_string(fds[1]);
  const char* argv[] = {"Xvfb", "-displayfd", fd_text.c_str(), "-screen", "0", "1024x768x24",
                        "-nolisten", "tcp", "-terminate", nullptr};
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, "Xvfb", &actions, nullptr, const_cast<char**>(argv), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    return make_error(ErrorKind::NotFound, fmt::format("cannot start Xvfb ({}): install the Debian "
                                                       "package xvfb (scripts/setup.sh does)",
                                                       std::strerror(rc)));
  }
  const std::string number = read_display_number(fds[0]);
  ::close(fds[0]);
  if (number.empty()) {
    ::kill(pid, SIGTERM);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return make_error(ErrorKind::Internal, "Xvfb exited or timed out without reporting a display number");
  }
  const std::string display = ":" + number;
  // Held until the process exits (never closed): with -terminate, the server ends when this
  // last client goes.
  g_xvfb_keepalive = XOpenDisplay(display.c_str());
  if (g_xvfb_keepalive == nullptr) {
    ::kill(pid, SIGTERM);
    return make_error(ErrorKind::Internal, fmt::format("Xvfb reported {} but it refuses connections", display));
  }
  return display;
}

}  // namespace

std::optional<std::string> display_withheld() {
  const char* withheld = std::getenv("WARDEN_TEST_WITHOUT_DISPLAY");
  if (withheld == nullptr || std::strcmp(withheld, "1") != 0) return std::nullopt;
  return "WARDEN_TEST_WITHOUT_DISPLAY=1: this machine can start no X server for a window";
}

Result<std::string> start_xvfb() {
  static const Result<std::string> started = spawn_xvfb();
  return started;
}

void use_xvfb_display() {
  auto display = start_xvfb();
  ASSERT_TRUE(display) << display.error().message;
  ::setenv("DISPLAY", display->c_str(), 1);
  // A display exists now: the GL backend must use it, not the surfaceless platform.
  if (const char* platform = std::getenv("EGL_PLATFORM"); platform && std::strcmp(platform, "surfaceless") == 0) {
    ::unsetenv("EGL_PLATFORM");
  }
}

Result<std::unique_ptr<X11TestWindow>> X11TestWindow::open(uint32_t width, uint32_t height) {
  const char* name = std::getenv("DISPLAY");
  Display* display = XOpenDisplay(name);
  if (display == nullptr) {
    return make_error(ErrorKind::NotFound, fmt::format("cannot open X display '{}'", name ? name : ""));
  }
  const int screen = DefaultScreen(display);
  const Window window = XCreateSimpleWindow(display, RootWindow(display, screen), 0, 0, width, height, 0,
                                            BlackPixel(display, screen), BlackPixel(display, screen));
  XMapWindow(display, window);
  XSync(display, False);
  return std::unique_ptr<X11TestWindow>(new X11TestWindow(display, window));
}

X11TestWindow::~X11TestWindow() {
  auto* display = static_cast<Display*>(display_);
  XDestroyWindow(display, static_cast<Window>(window_));
  XCloseDisplay(display);
}

void XvfbEnvironment::SetUp() {
  // Without a display the tests that need none still run (on EGL's surfaceless platform); those
  // that open a window skip themselves (WARDEN_SKIP_WITHOUT_DISPLAY).
  if (display_withheld()) return;
  use_xvfb_display();
}

}  // namespace warden::testing
