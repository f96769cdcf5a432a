#include "harness/churn.h"

#include <gtest/gtest.h>

#include "resources/registry_test_support.h"

namespace warden::resources {
namespace {

using testing::GlDeviceTest;

// docs/design.md, invariant 1: 1,000 frames that create and destroy objects every frame, on a device
// that executes the work, make no blocking wait; releases follow retirement without one.
TEST_F(GlDeviceTest, ThousandFramesOfCreateAndDestroyMakeZeroBlockingWaits) {
  size_t released = 0;
  RegistryOptions options;
  options.on_release = [&](const ReleaseEvent& e) {
    // Every let-go object's last submission had retired when it went.
    EXPECT_LE(e.last_used, e.retired) << e.label;
    ++released;
  };
  auto reg = testing::make_registry(*dev, std::move(options));
  const uint64_t waits_before = gpu::blocking_wait_count();
  auto report = resources::run_churn_frames(*reg, 1000);
  ASSERT_TRUE(report.ok()) << report.error().message;
  EXPECT_EQ(report->frames, 1000u);
  EXPECT_EQ(report->blocking_waits, 0u);
  EXPECT_EQ(gpu::blocking_wait_count(), waits_before);
  EXPECT_EQ(report->last_submitted, Serial{1000});
  // Only the loop's persistent objects were alive at its end.
  EXPECT_EQ(report->live_after.total(), 2u);
  EXPECT_GE(report->max_pending_releases, 1u);  // destroys were deferred, not immediate
  // The loop's last destroys wait for the submission being recorded after it: one more frame.
  ASSERT_TRUE(testing::poll_until_retired(*reg, testing::submit_empty(*reg, *dev)));
  EXPECT_EQ(reg->pending_release_count(), 0u);
  EXPECT_EQ(released, 4u * 1000u + 2u);
  EXPECT_EQ(reg->live_counts().total(), 0u);
  dev->context->process_events();
  EXPECT_TRUE(dev->take_errors().empty());
}

}  // namespace
}  // namespace warden::resources
