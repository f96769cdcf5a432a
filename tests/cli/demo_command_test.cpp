// `warden demo` run as a program: a short headless run writes its files and prints where the
// report is; bad options are usage errors naming the option.
#include <gmock/gmock.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <fstream>

#include "support/cli_run.h"
#include "support/xvfb.h"

namespace warden {
namespace {

using testing::run_cli;
using ::testing::HasSubstr;

TEST(DemoCommand, ShortRunWritesSnapshotsAndReportsAndPrintsThePath) {
  char pattern[] = "/tmp/warden-demo-cli-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::filesystem::path out = pattern;
  auto run = run_cli("demo --backend gl --frames 12 --size 128x64 --snapshots 2 --frame-interval-ms 0 --out " +
                     out.string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("demo: report " + (out / "report.html").string()));
  EXPECT_THAT(run.out, HasSubstr("frame 0 | ")) << "plain progress lines when stdout is not a terminal";
  EXPECT_EQ(run.out.find('\r'), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(out / "frame-0005.png"));
  EXPECT_TRUE(std::filesystem::exists(out / "frame-0011.png"));
  std::ifstream json(out / "report.json");
  EXPECT_EQ(nlohmann::json::parse(json)["frames"], 12);
  std::filesystem::remove_all(out);
}

TEST(DemoCommand, LosesTheDeviceAndReloadsTheShaderWhereToldAndSaysSo) {
  char pattern[] = "/tmp/warden-demo-cli-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::filesystem::path out = pattern;
  auto run = run_cli("demo --backend gl --frames 30 --size 128x64 --snapshots 1 --frame-interval-ms 0 "
                     "--fetch-latency-ms 0 --lose-device-at 8,16 --reload-shader-at 22 --out " + out.string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("2 device losses, 2 recoveries"));
  std::ifstream json_file(out / "report.json");
  const auto json = nlohmann::json::parse(json_file);
  EXPECT_EQ(json["device_losses"], 2);
  EXPECT_EQ(json["recoveries"], 2);
  EXPECT_EQ(json["leaked_objects"], 0);
  EXPECT_EQ(json["recovery_ms"].size(), 2u);
  EXPECT_TRUE(std::filesystem::exists(out / "frame-0007.png")) << "the frame just before the first loss";
  EXPECT_TRUE(std::filesystem::exists(out / "tiles.wesl")) << "the tile shader's root module";
  EXPECT_TRUE(std::filesystem::exists(out / "grade.wesl")) << "the imported module the reload rewrote";
  std::filesystem::remove_all(out);
}

// --window: the same frames shown in a window; its surface is made again for the device that
// replaces a lost one, and the device that presented is let go.
TEST(DemoCommand, InAWindowUnderXvfbTheSurfaceFollowsTheDeviceAcrossALoss) {
  WARDEN_SKIP_WITHOUT_DISPLAY();
  auto display = testing::start_xvfb();
  ASSERT_TRUE(display) << display.error().message;
  char pattern[] = "/tmp/warden-demo-cli-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::filesystem::path out = pattern;
  auto run = run_cli("demo --window --backend gl --frames 24 --size 128x64 --snapshots 1 --frame-interval-ms 0 "
                     "--fetch-latency-ms 0 --lose-device-at 10 --out " + out.string(),
                     "DISPLAY=" + *display);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::ifstream json_file(out / "report.json");
  const auto json = nlohmann::json::parse(json_file);
  EXPECT_EQ(json["recoveries"], 1);
  EXPECT_EQ(json["window_surfaces"], 2) << "one surface per device generation";
  EXPECT_EQ(json["window_frames_presented"], json["frames_drawn"]);
  EXPECT_EQ(json["leaked_objects"], 0);
  std::filesystem::remove_all(out);
}

TEST(DemoCommand, AWindowWithoutADisplayIsNamed) {
  auto run = run_cli("demo --window --backend gl --frames 2", "env -u DISPLAY");
  EXPECT_NE(run.exit_code, 0);
  EXPECT_THAT(run.err, HasSubstr("DISPLAY is not set"));
}

TEST(SoakCommand, AShortSoakPrintsEveryCheckAsJsonAndExitsZero) {
  char pattern[] = "/tmp/warden-soak-cli-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::filesystem::path out = pattern;
  auto run = run_cli("soak --frames 200 --seed 5 --json --out " + out.string());
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  const auto json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json["frames"], 200);
  EXPECT_EQ(json["recoveries"], json["device_losses"]);
  EXPECT_EQ(json["leaked_objects"], 0);
  EXPECT_EQ(json["ledger_outstanding"], "none");
  EXPECT_EQ(json["resize_storm"], "not applicable: headless");
  EXPECT_TRUE(json["faults_injected"].contains("careless_client"));
  EXPECT_EQ(json["ok"], true);
  auto bad = run_cli("soak --frames 10 --backend null");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("the null backend only validates"));
  std::filesystem::remove_all(out);
}

TEST(SoakCommand, GivingUpForWantOfAnAdapterKeepsDawnsReason) {
  // EGL finds no driver (the vendor list names none, on any GL), so every adapter request fails
  // as when the driver can make no more devices; Dawn
  // answers "No supported adapters" and says why only in its log. The policy gives up after
  // three failed creations; its message ended "(the last: no adapter was returned)".
  char pattern[] = "/tmp/warden-soak-cli-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::filesystem::path out = pattern;
  auto run = run_cli("soak --frames 10 --backend gl --out " + out.string(),
                     "__EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent.json");
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_THAT(run.err, HasSubstr("warden: soak: Graphics are off: 3 failed device creations"));
  EXPECT_THAT(run.err, HasSubstr("(the last: no adapter was returned: No supported adapters ("));
  EXPECT_THAT(run.err, HasSubstr("Couldn't create the default EGL display."));
  std::filesystem::remove_all(out);
}

TEST(DemoCommand, BadOptionsAreUsageErrorsNamingTheOption) {
  auto narrow = run_cli("demo --size 100x64");
  EXPECT_EQ(narrow.exit_code, 2);
  EXPECT_THAT(narrow.err, HasSubstr("--size 100x64: the width must be a multiple of 64"));
  auto shape = run_cli("demo --size big");
  EXPECT_EQ(shape.exit_code, 2);
  EXPECT_THAT(shape.err, HasSubstr("--size 'big': expected WIDTHxHEIGHT"));
  auto rate = run_cli("demo --failure-rate 2 --backend gl --frames 1");
  EXPECT_EQ(rate.exit_code, 2);
  EXPECT_THAT(rate.err, HasSubstr("--failure-rate 2 is outside [0, 1]"));
  auto null = run_cli("demo --backend null --frames 1");
  EXPECT_EQ(null.exit_code, 2);
  EXPECT_THAT(null.err, HasSubstr("the null backend only validates"));
  auto tiles = run_cli("demo --tiles /nonexistent/tiles --backend gl --frames 1");
  EXPECT_EQ(tiles.exit_code, 2);
  EXPECT_THAT(tiles.err, HasSubstr("--tiles /nonexistent/tiles: no such folder"));
  auto late = run_cli("demo --backend gl --frames 10 --lose-device-at 10");
  EXPECT_EQ(late.exit_code, 2);
  EXPECT_THAT(late.err, HasSubstr("a device_loss at frame 10 is beyond the run's 10 frames"));
}

}  // namespace
}  // namespace warden
