// A private X server for tests that open windows: Xvfb, started by the test process itself.
//
// Xvfb picks a free display number on its own (-displayfd) and reports it, so test programs
// run in parallel (ctest -j) never race for a number. It runs with -terminate and this process
// keeps one connection open until it exits, so the server goes away with the test program, even
// one that crashed, and never before it (Mesa's own X connection must not see the server die).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "warden/core/result.h"

namespace warden::testing {

// Why windowed tests are skipped, when they are: WARDEN_TEST_WITHOUT_DISPLAY=1 says this machine
// can start no X server (scripts/gpu-machine.sh sets it on a GPU machine without Xvfb). Nothing
// else skips them: without the variable a missing Xvfb fails the test, naming the package.
std::optional<std::string> display_withheld();

// Skips the calling test (from its body or its fixture's SetUp) when display_withheld() says so.
// (GTEST_SKIP in SetUpTestSuite or an Environment does not mark the tests skipped.)
#define WARDEN_SKIP_WITHOUT_DISPLAY()                                                     \
  do {                                                                                    \
    if (auto withheld = ::warden::testing::display_withheld()) GTEST_SKIP() << *withheld; \
  } while (0)

// Starts Xvfb (once per process; later calls return the same display) and waits, bounded,
// until it accepts connections. Returns ":N". Errors name the cause: Xvfb not installed, or it
// exited without reporting a display.
Result<std::string> start_xvfb();

// Starts Xvfb and points DISPLAY at it before any test runs: the GL backend picks its EGL
// platform from DISPLAY when the first adapter is requested.
class XvfbEnvironment : public ::testing::Environment {
 public:
  void SetUp() override;
};

// A bare X11 window on DISPLAY, mapped, for tests below the window layer (surface ABI proofs).
class X11TestWindow {
 public:
  static Result<std::unique_ptr<X11TestWindow>> open(uint32_t width, uint32_t height);
  ~X11TestWindow();
  X11TestWindow(const X11TestWindow&) = delete;
  X11TestWindow& operator=(const X11TestWindow&) = delete;
  void* display() const { return display_; }  // Display*
  uint64_t window() const { return window_; }

 private:
  X11TestWindow(void* display, uint64_t window) : display_(display), window_(window) {}
  void* display_;
  uint64_t window_;
};

// For test suites in programs that otherwise run without a display: SetUpTestSuite calls this.
// It must run before the process's first GL adapter request (ctest runs each test alone).
void use_xvfb_display();

}  // namespace warden::testing
