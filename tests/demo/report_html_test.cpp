// report.html in a real browser: Debian's headless Chromium opens the page from disk (no
// network), its charts are drawn by the inlined uPlot, and a screenshot shows them.
#include "warden/demo/report_html.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>
#include <fstream>
#include <iterator>

#include "support/messages.h"
#include "warden/demo/image.h"
#include "warden/demo/messages.h"

namespace warden::demo {
namespace {

constexpr const char* kWindowSize = "1100,1400";

// Runs headless Chromium on `page` with `mode` (--dump-dom or --screenshot=FILE); stdout goes
// to `stdout_file`. The same window size for both, so the layout the page records is the
// layout of the screenshot.
int run_chromium(const std::filesystem::path& page, const std::string& mode, const std::filesystem::path& profile,
                 const std::filesystem::path& stdout_file) {
  const char* chromium = std::getenv("WARDEN_CHROMIUM");
  const std::string command = std::string("timeout 60 ") + (chromium ? chromium : "chromium") +
                              " --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run"
                              " --force-device-scale-factor=1 --virtual-time-budget=5000"
                              " --user-data-dir=" + profile.string() + " --window-size=" + kWindowSize + " " + mode +
                              " file://" + page.string() + " >" + stdout_file.string() + " 2>/dev/null";
  return std::system(command.c_str());
}

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

struct Region {
  double x, y, width, height;
};

struct RegionStats {
  double luminance_stddev = 0;
  size_t matching = 0;  // pixels within 40 per channel of the colour asked for
};

RegionStats stats_of(const present::Image& shot, const Region& r, present::Rgba colour) {
  RegionStats stats;
  double sum = 0, sum_sq = 0;
  size_t n = 0;
  const auto x0 = static_cast<uint32_t>(r.x), y0 = static_cast<uint32_t>(r.y);
  const auto x1 = std::min(shot.width, static_cast<uint32_t>(r.x + r.width));
  const auto y1 = std::min(shot.height, static_cast<uint32_t>(r.y + r.height));
  for (uint32_t y = y0; y < y1; ++y) {
    for (uint32_t x = x0; x < x1; ++x) {
      const present::Rgba c = shot.at(x, y);
      const double lum = 0.299 * c.r + 0.587 * c.g + 0.114 * c.b;
      sum += lum;
      sum_sq += lum * lum;
      ++n;
      if (std::abs(c.r - colour.r) <= 40 && std::abs(c.g - colour.g) <= 40 && std::abs(c.b - colour.b) <= 40) {
        ++stats.matching;
      }
    }
  }
  if (n > 0) stats.luminance_stddev = std::sqrt(std::max(0.0, sum_sq / n - (sum / n) * (sum / n)));
  return stats;
}

class ReportInChromium : public ::testing::Test {
 protected:
  void SetUp() override {
    // The one reason to skip: a machine that says it has no browser (scripts/gpu-machine.sh sets
    // this where chromium is not installed). Elsewhere a missing chromium fails the test.
    if (const char* without = std::getenv("WARDEN_TEST_WITHOUT_BROWSER"); without && std::string_view(without) == "1") {
      GTEST_SKIP() << "WARDEN_TEST_WITHOUT_BROWSER=1: this machine has no chromium to open the report";
    }
    char pattern[] = "/tmp/warden-report-html-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir); }

  // 300 frames of a run with a loss at 100 and a shader reload at 200, one 64x48 snapshot.
  DemoReport sample_report() {
    DemoReport report;
    report.backend = "opengl";
    report.adapter = "llvmpipe </script><b>not markup</b>";
    report.vram_budget_bytes = 48ull << 20;
    report.frames = 300;
    for (uint32_t f = 0; f < 300; ++f) {
      const double wave = std::sin(f / 15.0);
      report.samples.push_back({f, 8 + 4 * wave + (f == 100 ? 40 : 0), 20 + static_cast<uint32_t>(10 + 10 * wave), 4,
                                30, (30ull + static_cast<uint64_t>(10 + 10 * wave)) << 20, f % 7, f % 11 == 0 ? 3u : 0u});
    }
    report.events = {{100, ReportEventKind::DeviceLoss}, {200, ReportEventKind::ShaderReload}};
    present::Image snapshot = present::Image::filled(64, 48, present::Rgba{0, 128, 255, 255});
    EXPECT_TRUE(present::write_png(snapshot, dir / "frame-0100.png"));
    report.snapshots = {{100, dir / "frame-0100.png"}};
    return report;
  }

  std::filesystem::path dir;
};

TEST_F(ReportInChromium, ChartsRenderWithMarkersAndSnapshotsDecode) {
  auto uplot = UplotAssets::load();
  ASSERT_TRUE(uplot) << uplot.error().message;
  const auto page = dir / "report.html";
  ASSERT_TRUE(write_report_html(sample_report(), *uplot, page));
  const std::string html = read_all(page);
  EXPECT_EQ(html.find("<script src"), std::string::npos) << "nothing is loaded from elsewhere";
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("<b>not markup</b>"), std::string::npos) << "report strings are data, never markup";

  ASSERT_EQ(run_chromium(page, "--dump-dom", dir / "profile-dom", dir / "dom.html"), 0);
  const std::string dom = read_all(dir / "dom.html");
  const std::string open = "<pre id=\"chart-layout\" hidden=\"\">";
  const size_t start = dom.find(open);
  ASSERT_NE(start, std::string::npos) << dom.substr(0, 2000);
  const size_t end = dom.find("</pre>", start);
  ASSERT_NE(end, std::string::npos);
  const std::string layout_text = dom.substr(start + open.size(), end - start - open.size());
  ASSERT_FALSE(layout_text.empty()) << "the page script did not run to its end";
  const auto layout = nlohmann::json::parse(layout_text);
  ASSERT_EQ(layout["charts"].size(), 4u);
  ASSERT_EQ(layout["snapshots"].size(), 1u);
  EXPECT_EQ(layout["snapshots"][0]["width"], 64) << "the inlined PNG decodes";
  EXPECT_EQ(layout["snapshots"][0]["height"], 48);
  EXPECT_NE(dom.find("llvmpipe &lt;/script&gt;&lt;b&gt;not markup&lt;/b&gt;"), std::string::npos)
      << "the adapter name shows as text in the summary";

  ASSERT_EQ(run_chromium(page, "--screenshot=" + (dir / "shot.png").string(), dir / "profile-shot", dir / "shot.log"), 0);
  auto shot = present::read_png(dir / "shot.png");
  ASSERT_TRUE(shot) << shot.error().message;
  for (const auto& chart : layout["charts"]) {
    const Region region{chart["x"], chart["y"], chart["width"], chart["height"]};
    const std::string id = chart["id"];
    ASSERT_GT(region.width, 100) << id;
    ASSERT_GT(region.height, 100) << id;
    ASSERT_LE(region.y + region.height, shot->height) << id << " lies below the screenshot";
    const RegionStats series = stats_of(*shot, region, present::Rgba{31, 119, 180, 255});
    EXPECT_GT(series.luminance_stddev, 5.0) << id << " is blank";
    EXPECT_GT(series.matching, 200u) << id << ": its first series (blue) is not drawn";
    EXPECT_GT(stats_of(*shot, region, present::Rgba{214, 39, 40, 255}).matching, 50u) << id << ": no device-loss marker";
    EXPECT_GT(stats_of(*shot, region, present::Rgba{148, 103, 189, 255}).matching, 50u) << id << ": no reload marker";
  }
}

TEST(ReportHtml, MissingUplotNamesTheFileAndTheFix) {
  auto uplot = UplotAssets::load("/nonexistent/uplot");
  ASSERT_THAT(uplot, warden::testing::FailsWith(MessageId::ReportInputUnreadable));
  EXPECT_EQ(uplot.error().kind, ErrorKind::NotFound);
  EXPECT_NE(uplot.error().message.find("/nonexistent/uplot/uPlot.iife.min.js"), std::string::npos);
  EXPECT_NE(uplot.error().message.find("scripts/fetch-uplot.sh"), std::string::npos);
}

TEST(ReportHtml, AMissingSnapshotIsAnErrorNamingIt) {
  DemoReport report;
  report.snapshots = {{3, "/nonexistent/frame-0003.png"}};
  auto page = report_html(report, UplotAssets{});
  ASSERT_THAT(page, warden::testing::FailsWith(MessageId::ReportInputUnreadable));
  EXPECT_NE(page.error().message.find("/nonexistent/frame-0003.png"), std::string::npos);
}

}  // namespace
}  // namespace warden::demo
