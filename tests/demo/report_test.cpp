#include "warden/demo/report.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <fstream>

#include "support/messages.h"
#include "warden/demo/messages.h"

namespace warden::demo {
namespace {

DemoReport three_frame_report() {
  DemoReport report;
  report.backend = "opengl";
  report.adapter = "llvmpipe \xff";  // not UTF-8: replaced, never a throw
  report.vram_budget_bytes = 64 << 20;
  report.frames = 3;
  report.device_losses = 1;
  report.recoveries = 1;
  report.hot_reloads = 1;
  report.tiles_uploaded = 12;
  report.tile_fetch_failures = 2;
  report.acquire_misses = 5;
  report.recovery_ms = {31.5};
  report.samples = {{0, 4.0, 10, 2, 4, 1000, 4, 0}, {1, 9.0, 8, 3, 5, 3000, 1, 2}, {2, 5.0, 9, 1, 6, 2000, 0, 3}};
  report.events = {{1, ReportEventKind::DeviceLoss}, {2, ReportEventKind::ShaderReload}};
  report.snapshots = {{1, "/out/demo/frame-0001.png"}};
  report.cpu_cache_budget_bytes = 32 << 20;
  report.samples[0].cpu_cache_bytes = 5000;
  report.samples[1].cpu_cache_bytes = 7000;
  report.memory_uploads = 9;
  report.restored_after_loss = 1;
  DemoReport::Loss loss;
  loss.frame = 1;
  loss.first_drawn = 3;
  loss.settled = 5;
  loss.settle_bound_frames = 2;
  loss.compared_frame = 0;
  loss.first_drawn_blank_fraction = 0.0;
  DemoReport::Loss unsettled;  // no snapshots, never settled
  unsettled.frame = 2;
  unsettled.first_drawn = 4;
  report.losses = {loss, unsettled};
  return report;
}

TEST(DemoReportJson, HasEveryKeyTheIssueLists) {
  auto json = nlohmann::json::parse(report_json(three_frame_report()));
  for (const char* key : {"frames", "device_losses", "recoveries", "hot_reloads", "tiles_uploaded",
                          "tile_fetch_failures", "acquire_misses", "vram_budget_bytes", "vram_peak_bytes",
                          "blocking_waits", "leaked_objects", "frame_ms_p50", "frame_ms_p99", "recovery_ms",
                          "backend", "adapter"}) {
    EXPECT_TRUE(json.contains(key)) << key;
  }
  EXPECT_EQ(json["frames"], 3);
  EXPECT_EQ(json["tile_fetch_failures"], 2);
  EXPECT_EQ(json["device_losses"], 1);
  EXPECT_TRUE(json["leaked_objects"].is_null()) << "not measured is null, not 0";
  EXPECT_EQ(json["vram_budget_bytes"], 64 << 20);
  EXPECT_EQ(json["vram_peak_bytes"], 3000) << "the largest resident bytes of any frame";
  EXPECT_DOUBLE_EQ(json["frame_ms_p50"].get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(json["frame_ms_p99"].get<double>(), 9.0);
  EXPECT_EQ(json["recovery_ms"], nlohmann::json::array({31.5}));
  EXPECT_EQ(json["backend"], "opengl");
  EXPECT_EQ(json["adapter"].get<std::string>().rfind("llvmpipe ", 0), 0u);
  EXPECT_EQ(json["series"]["frame_ms"], nlohmann::json::array({4.0, 9.0, 5.0}));
  EXPECT_EQ(json["series"]["misses"], nlohmann::json::array({0, 2, 3}));
  EXPECT_EQ(json["events"][0]["kind"], "device_loss");
  EXPECT_EQ(json["events"][1]["kind"], "shader_reload");
  EXPECT_EQ(json["snapshots"][0]["file"], "frame-0001.png");
}

TEST(DemoReportJson, ShowsTheMemoryCacheBesideVramAndEachLossesBlanknessAndSettling) {
  auto json = nlohmann::json::parse(report_json(three_frame_report()));
  EXPECT_EQ(json["cpu_cache_budget_bytes"], 32 << 20);
  EXPECT_EQ(json["cpu_cache_peak_bytes"], 7000) << "the most memory any frame held";
  EXPECT_EQ(json["memory_uploads"], 9);
  EXPECT_EQ(json["restored_after_loss"], 1);
  EXPECT_EQ(json["series"]["cpu_cache_bytes"], nlohmann::json::array({5000, 7000, 0}));
  ASSERT_EQ(json["losses"].size(), 2u);
  EXPECT_EQ(json["losses"][0]["first_drawn_blank_fraction"], 0.0);
  EXPECT_EQ(json["losses"][0]["frames_to_settled"], 2) << "settled - first_drawn";
  EXPECT_EQ(json["losses"][0]["settle_bound_frames"], 2);
  EXPECT_EQ(json["losses"][0]["compared_frame"], 0);
  EXPECT_TRUE(json["losses"][1]["first_drawn_blank_fraction"].is_null()) << "no snapshots: not measured";
  EXPECT_TRUE(json["losses"][1]["frames_to_settled"].is_null()) << "never settled";
}

TEST(DemoReportBlankFraction, CountsClearPixelsOnlyWhereTheFrameBeforeShowedTheMap) {
  const std::array<uint8_t, 4> clear{13, 13, 20, 255};
  // Four pixels: map, map, clear, map before; clear (off by one), map, clear, clear after.
  const std::vector<uint8_t> before{90, 80, 70, 255, 1, 2, 3, 255, 13, 13, 20, 255, 5, 5, 5, 255};
  const std::vector<uint8_t> after{12, 14, 20, 255, 40, 40, 40, 255, 13, 13, 20, 255, 13, 13, 20, 255};
  ASSERT_TRUE(blank_fraction(before, after, clear).has_value());
  EXPECT_DOUBLE_EQ(*blank_fraction(before, after, clear), 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(*blank_fraction(before, before, clear), 0.0);
  const std::vector<uint8_t> all_clear{13, 13, 20, 255};
  EXPECT_DOUBLE_EQ(*blank_fraction(all_clear, all_clear, clear), 0.0) << "no map before: nothing to lose";
  EXPECT_FALSE(blank_fraction(before, all_clear, clear).has_value()) << "sizes differ";
}

TEST(DemoReportJson, FrameTimeQuantilesUseNearestRank) {
  std::vector<FrameSample> samples;
  for (uint32_t i = 1; i <= 100; ++i) samples.push_back({i, static_cast<double>(101 - i)});
  EXPECT_DOUBLE_EQ(frame_ms_quantile(samples, 0.5), 50.0);
  EXPECT_DOUBLE_EQ(frame_ms_quantile(samples, 0.99), 99.0);
  EXPECT_DOUBLE_EQ(frame_ms_quantile(samples, 1.0), 100.0);
  EXPECT_DOUBLE_EQ(frame_ms_quantile(samples, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(frame_ms_quantile({}, 0.5), 0.0);
}

TEST(DemoReportJson, WritesTheFileOrNamesWhyNot) {
  const auto path = std::filesystem::temp_directory_path() / "warden-report-test.json";
  ASSERT_TRUE(write_report_json(three_frame_report(), path));
  std::ifstream in(path);
  EXPECT_EQ(nlohmann::json::parse(in)["hot_reloads"], 1);
  std::filesystem::remove(path);
  auto bad = write_report_json(three_frame_report(), "/nonexistent/dir/report.json");
  ASSERT_THAT(bad, warden::testing::FailsWith(MessageId::DemoReportUnwritable));
  EXPECT_EQ(bad.error().kind, ErrorKind::Io);
  EXPECT_NE(bad.error().message.find("/nonexistent/dir/report.json"), std::string::npos);
}

}  // namespace
}  // namespace warden::demo
