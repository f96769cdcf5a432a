// The headless demo end to end on the real library (GL over llvmpipe): Blue Marble tiles through
// a TileServer, TileCache, LayerPool and one instanced draw, snapshots read back, the report.
#include "warden/demo/tile_map_demo.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

#include "support/gpu_test.h"
#include "warden/demo/image.h"

namespace warden::demo {
namespace {

using namespace std::chrono_literals;

class TileMapDemoTest : public testing::GlDeviceTest {
 protected:
  void SetUp() override {
    GlDeviceTest::SetUp();
    char pattern[] = "/tmp/warden-demo-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir = pattern;
  }
  void TearDown() override {
    if (dev) {
      auto errors = dev->take_errors();
      EXPECT_TRUE(errors.empty()) << errors.front();
    }
    std::filesystem::remove_all(dir);
    GlDeviceTest::TearDown();
  }
  DemoDevice device() const { return {dev->context, dev->device.get(), dev->queue.get(), "opengl", "test adapter"}; }
  DemoOptions small_run() const {
    DemoOptions options;
    options.frames = 40;
    options.width = 256;
    options.height = 128;
    options.budget_mb = 8;
    options.out = dir / "out";
    options.fetch_latency = 0ms;
    options.frame_interval = 0ms;
    options.fetch_failure_rate = 0.1;
    options.seed = 3;
    options.max_zoom = 4;
    options.snapshots = 2;
    return options;
  }

  std::filesystem::path dir;
  Diagnostics log;
};

TEST_F(TileMapDemoTest, RunsWritesSnapshotsAndTheReportWithoutWaitingOnTheFramePath) {
  auto report = run_tile_map_demo(device(), small_run(), nullptr, log);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_EQ(report->frames, 40u);
  ASSERT_EQ(report->samples.size(), 40u);
  EXPECT_GT(report->tiles_uploaded, 0u);
  EXPECT_EQ(report->blocking_waits, 0u) << "DESIGN invariant 1";
  EXPECT_LE(vram_peak_bytes(report->samples), report->vram_budget_bytes);
  ASSERT_EQ(report->snapshots.size(), 2u);
  EXPECT_EQ(report->snapshots[1].frame, 39u);
  EXPECT_EQ(report->snapshots[1].png.filename(), "frame-0039.png");

  // The last frame shows the map: nearly every pixel is imagery, not the clear colour.
  auto last = read_png(report->snapshots[1].png);
  ASSERT_TRUE(last) << last.error().message;
  ASSERT_EQ(last->width, 256u);
  size_t cleared = 0;
  for (uint32_t y = 0; y < last->height; ++y) {
    for (uint32_t x = 0; x < last->width; ++x) cleared += last->at(x, y) == Rgba{13, 13, 20, 255};
  }
  EXPECT_LT(cleared, 256u * 128 / 20) << "more than 5% of the last frame is blank";

  std::ifstream json_file(dir / "out" / "report.json");
  auto json = nlohmann::json::parse(json_file);
  EXPECT_EQ(json["frames"], 40);
  EXPECT_EQ(json["tiles_uploaded"], report->tiles_uploaded);
  EXPECT_TRUE(json["device_losses"].is_null()) << "not measured without the Engine";
  EXPECT_TRUE(std::filesystem::exists(dir / "out" / "report.html"));
}

// Zoom 0 and 1 of a folder: 0/0/0 good, 1/0/0 corrupt, 1/1/0 missing (1/0/1 and 1/1/1 too).
TEST_F(TileMapDemoTest, AFolderWithAMissingAndACorruptTileCompletesAndCountsBoth) {
  const auto tiles = dir / "tiles";
  std::filesystem::create_directories(tiles / "0" / "0");
  std::filesystem::create_directories(tiles / "1" / "0");
  ASSERT_TRUE(write_png(RgbaImage::filled(256, 256, Rgba{30, 90, 200, 255}), tiles / "0/0/0.png"));
  std::ofstream(tiles / "1/0/0.jpg", std::ios::binary) << "corrupt";
  DemoOptions options = small_run();
  options.tiles_dir = tiles;
  options.fetch_failure_rate = 0;
  options.max_zoom = 1;
  auto report = run_tile_map_demo(device(), options, nullptr, log);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_EQ(report->frames, 40u);
  EXPECT_GE(report->tile_fetch_failures, 2u) << "the corrupt and the missing tile";
  // Each bad tile named once, however often it was asked for again.
  auto named = [&](const std::string& text) {
    size_t n = 0;
    for (const Diagnostic& d : log.entries()) n += d.message.find(text) != std::string::npos;
    return n;
  };
  EXPECT_EQ(named("tile 1/0/0: "), 1u);
  EXPECT_EQ(named("tile 1/1/0: "), 1u);
  // Every position still draws: from the root, the only good tile.
  auto last = read_png(report->snapshots.back().png);
  ASSERT_TRUE(last);
  EXPECT_EQ(last->at(128, 64), (Rgba{30, 90, 200, 255}));
}

TEST_F(TileMapDemoTest, BadOptionsAreErrorsNamingTheOption) {
  DemoOptions options = small_run();
  options.width = 250;
  auto narrow = run_tile_map_demo(device(), options, nullptr, log);
  ASSERT_FALSE(narrow);
  EXPECT_NE(narrow.error().message.find("multiple of 64"), std::string::npos) << narrow.error().message;
  options = small_run();
  options.budget_mb = 4096;
  auto huge = run_tile_map_demo(device(), options, nullptr, log);
  ASSERT_FALSE(huge);
  EXPECT_NE(huge.error().message.find("--budget-mb 4096"), std::string::npos) << huge.error().message;
  options = small_run();
  options.tiles_dir = dir / "no-such-folder";
  auto folder = run_tile_map_demo(device(), options, nullptr, log);
  ASSERT_FALSE(folder);
  EXPECT_EQ(folder.error().kind, ErrorKind::NotFound);
}

TEST(DemoSnapshots, SpreadOverTheRunEndingAtTheLastFrame) {
  DemoOptions options;
  options.frames = 120;
  options.snapshots = 4;
  EXPECT_EQ(snapshot_frames(options), (std::vector<uint32_t>{29, 59, 89, 119}));
  options.frames = 3;
  options.snapshots = 6;
  EXPECT_EQ(snapshot_frames(options), (std::vector<uint32_t>{0, 1, 2})) << "at most one a frame";
}

}  // namespace
}  // namespace warden::demo
