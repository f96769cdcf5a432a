// A soak fails on a frame whose commands the device refused: such a frame is blank, and every
// other check can hold beside it.
#include "warden/demo/soak.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace warden::demo {
namespace {

// A report on which every soak check holds.
DemoReport clean_report(uint32_t frames) {
  DemoReport report;
  report.frames = frames;
  report.device_losses = 2;
  report.recoveries = 2;
  report.leaked_objects = 0;
  report.ledger_outstanding = "none";
  report.app_state_preserved = true;
  report.uncaptured_errors = 0;
  report.frames_with_errors = 0;
  return report;
}

const SoakCheck* refused_frames_check(const std::vector<SoakCheck>& checks) {
  auto found = std::find_if(checks.begin(), checks.end(),
                            [](const SoakCheck& c) { return c.name.find("frames_with_errors") != std::string::npos; });
  return found == checks.end() ? nullptr : &*found;
}

TEST(SoakChecks, AFrameWhoseCommandsWereRefusedFailsTheSoak) {
  const std::vector<SoakCheck> clean = soak_checks(clean_report(300), 300);
  EXPECT_TRUE(all_held(clean));
  ASSERT_NE(refused_frames_check(clean), nullptr);

  DemoReport refused = clean_report(300);
  refused.uncaptured_errors = 6;
  refused.frames_with_errors = 3;
  const std::vector<SoakCheck> checks = soak_checks(refused, 300);
  EXPECT_FALSE(all_held(checks));
  const SoakCheck* check = refused_frames_check(checks);
  ASSERT_NE(check, nullptr);
  EXPECT_FALSE(check->held);
  EXPECT_EQ(check->detail, "3 frame(s), 6 uncaptured error(s)");
}

}  // namespace
}  // namespace warden::demo
