#include "warden/app/smoke.h"

#include "support/gpu_test.h"

namespace warden {
namespace {

using testing::GlDeviceTest;

// The smoke job on the real library: every element of the compute readback and the two
// probed pixels must match.
TEST_F(GlDeviceTest, SmokeComputeDoublesEveryElement) {
  auto report = app::run_smoke(*dev->context, dev->device.get());
  ASSERT_TRUE(report.ok()) << report.error().message;
  EXPECT_EQ(report->compute_elements, app::kSmokeComputeElements);
  EXPECT_EQ(report->compute_mismatches, 0u);
  EXPECT_TRUE(dev->take_errors().empty());
}

TEST_F(GlDeviceTest, SmokeRenderHasTriangleAtCentreAndClearInCorner) {
  auto report = app::run_smoke(*dev->context, dev->device.get());
  ASSERT_TRUE(report.ok()) << report.error().message;
  EXPECT_EQ(report->center_pixel, report->expected_triangle);
  EXPECT_EQ(report->corner_pixel, report->expected_clear);
  // The expectations themselves must differ, or the check proves nothing.
  EXPECT_NE(report->expected_triangle, report->expected_clear);
}

}  // namespace
}  // namespace warden
