// `warden window` as a user runs it: under a private Xvfb it presents the cube and writes a
// screenshot; without a display it says so and exits 2.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include <fmt/format.h>

#include "support/cli_run.h"
#include "support/xvfb.h"
#include "warden/present/readback.h"

namespace warden {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(WindowCommand, WithoutADisplayItSaysSoAndExits2) {
  const testing::CliRun run = testing::run_cli("window --frames 3", "env -u DISPLAY");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("warden: no display: DISPLAY is not set"));
  EXPECT_THAT(run.err, HasSubstr("Xvfb"));
}

TEST(WindowCommand, ADisplayThatDoesNotAnswerIsNamed) {
  const testing::CliRun run = testing::run_cli("window --frames 3", "DISPLAY=:9999");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("no display: the X server at DISPLAY=:9999 does not answer"));
}

TEST(WindowCommand, ABadSizeIsAUsageError) {
  const testing::CliRun run = testing::run_cli("window --size 640by480");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("--size must be WIDTHxHEIGHT with both at least 1 (e.g. 640x480), not '640by480'"));
}

// `warden window ARGS --screenshot FILE` under a private Xvfb: what it printed, and the
// screenshot it wrote (read back, then removed).
struct ShotRun {
  testing::CliRun run;
  Result<present::Image> shot;
};
ShotRun run_window_with_screenshot(const std::string& args, const std::string& display) {
  const auto shot = std::filesystem::temp_directory_path() / fmt::format("warden_window_{}.png", ::getpid());
  testing::CliRun run =
      testing::run_cli(fmt::format("window {} --screenshot {}", args, shot.string()), "DISPLAY=" + display);
  auto image = present::read_png(shot.string());
  std::filesystem::remove(shot);
  return {std::move(run), std::move(image)};
}

TEST(WindowCommand, UnderXvfbItPresentsTheCubeAndReleasesTheDevice) {
  WARDEN_SKIP_WITHOUT_DISPLAY();
  auto display = testing::start_xvfb();
  ASSERT_TRUE(display) << display.error().message;
  const ShotRun shown = run_window_with_screenshot("--frames 20 --size 160x120", *display);
  const testing::CliRun& run = shown.run;
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("window: presented 20 frames at 160x120"));
  EXPECT_THAT(run.out, HasSubstr("1 surface(s) over 1 device generation(s)"));
  EXPECT_THAT(run.out, HasSubstr("window: device generation 1 ended: released (it presented, so it is never destroyed)"));
  EXPECT_THAT(run.out, Not(HasSubstr("ended: destroyed")));
  const auto& image = shown.shot;
  ASSERT_TRUE(image) << image.error().message;
  ASSERT_EQ(image->width, 160u);
  ASSERT_EQ(image->height, 120u);
  // The corner shows the clear colour; the centre is the cube (orange or cream checker).
  EXPECT_EQ(image->pixel(2, 2), (std::array<uint8_t, 4>{20, 23, 31, 255}));
  const auto centre = image->pixel(80, 60);
  EXPECT_GT(centre[0], 200) << "red channel of the checker at the centre";
}

// The window goes on across device losses: the engine gives it a new surface on each device and
// lets go of every device that presented by release.
TEST(WindowCommand, UnderXvfbTheWindowGoesOnAcrossDeviceLosses) {
  WARDEN_SKIP_WITHOUT_DISPLAY();
  auto display = testing::start_xvfb();
  ASSERT_TRUE(display) << display.error().message;
  const ShotRun shown = run_window_with_screenshot("--frames 12 --size 160x120 --lose-device-at 4,8", *display);
  const testing::CliRun& run = shown.run;
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("window: presented 12 frames at 160x120"));
  EXPECT_THAT(run.out, HasSubstr("3 surface(s) over 3 device generation(s)"));
  for (int generation = 1; generation <= 3; ++generation) {
    EXPECT_THAT(run.out, HasSubstr(fmt::format("window: device generation {} ended: released (it presented, so it "
                                               "is never destroyed)",
                                               generation)));
  }
  ASSERT_TRUE(shown.shot) << shown.shot.error().message;
  EXPECT_GT(shown.shot->pixel(80, 60)[0], 200) << "the cube, drawn on the third device";
}

// No WebGPU library: the user's to fix, said as `warden info` says it, with exit 2.
TEST(WindowCommand, UnderXvfbAMissingLibraryIsNamedWithExitTwo) {
  WARDEN_SKIP_WITHOUT_DISPLAY();
  auto display = testing::start_xvfb();
  ASSERT_TRUE(display) << display.error().message;
  const testing::CliRun run =
      testing::run_cli("window --frames 3", "DISPLAY=" + *display + " WARDEN_WEBGPU_LIB=/nonexistent/libwebgpu.so");
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_THAT(run.err, HasSubstr("no WebGPU library could be loaded"));
  EXPECT_THAT(run.err, HasSubstr("/nonexistent/libwebgpu.so"));
}

}  // namespace
}  // namespace warden
