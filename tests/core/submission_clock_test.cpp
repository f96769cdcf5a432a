#include "warden/core/submission_clock.h"

#include <gtest/gtest.h>

#include "support/gpu_test.h"
#include "warden/webgpu/context.h"

namespace warden {
namespace {

TEST(SubmissionClock, RecordingIsOnePastLastSubmitted) {
  SubmissionClock clock;
  EXPECT_EQ(clock.recording(), Serial{1});
  EXPECT_TRUE(clock.is_retired(Serial{0}));
  EXPECT_EQ(clock.on_submitted(), Serial{1});
  EXPECT_EQ(clock.recording(), Serial{2});
  EXPECT_FALSE(clock.is_retired(Serial{1}));
  EXPECT_EQ(clock.in_flight(), 1u);
}

TEST(SubmissionClock, RetirementNeverMovesBackwardsOrPastSubmitted) {
  SubmissionClock clock;
  clock.on_submitted();
  clock.on_submitted();
  clock.retire_through(Serial{2});
  clock.retire_through(Serial{1});
  EXPECT_EQ(clock.retired(), Serial{2});
  clock.retire_through(Serial{9});
  EXPECT_EQ(clock.retired(), Serial{2});
}

TEST(SubmissionClock, AssumeAllCompleteRetiresEverythingSubmitted) {
  SubmissionClock clock;
  for (int i = 0; i < 5; ++i) clock.on_submitted();
  clock.assume_all_complete();
  EXPECT_EQ(clock.in_flight(), 0u);
  EXPECT_FALSE(clock.is_retired(clock.recording()));
}

using testing::GlDeviceTest;

// Real Dawn: a submit's serial retires only through poll(), and poll() never waits.
TEST_F(GlDeviceTest, QueueClockRetiresThroughPoll) {
  const auto& p = dev->procs();
  QueueClock qc(p, dev->context->instance(), dev->queue.get());
  uint64_t waits_before = gpu::blocking_wait_count();
  Serial s{};
  for (int i = 0; i < 3; ++i) {
    gpu::CommandEncoder enc = p.DeviceCreateCommandEncoder(dev->device.get(), nullptr);
    gpu::CommandBuffer cmd = p.CommandEncoderFinish(enc, nullptr);
    s = qc.submit(cmd);
    p.CommandBufferRelease(cmd);
    p.CommandEncoderRelease(enc);
  }
  EXPECT_EQ(s, Serial{3});
  // Spin on the non-blocking poll only; a bounded number of tries keeps a hang visible.
  for (int i = 0; i < 100000 && !qc.clock().is_retired(s); ++i) qc.poll();
  EXPECT_TRUE(qc.clock().is_retired(s));
  EXPECT_EQ(gpu::blocking_wait_count(), waits_before);
}

}  // namespace
}  // namespace warden
