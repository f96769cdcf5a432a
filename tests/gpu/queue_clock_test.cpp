#include "warden/gpu/queue_clock.h"

#include <gtest/gtest.h>

#include "support/gpu_test.h"
#include "support/poll_until.h"
#include "warden/gpu/context.h"

namespace warden::gpu {
namespace {

using testing::GlDeviceTest;

// Real Dawn: a submit's serial retires only through poll(), and poll() never waits.
TEST_F(GlDeviceTest, QueueClockRetiresThroughPoll) {
  const auto& p = dev->procs();
  QueueClock qc(p, dev->context->instance(), dev->queue.get());
  uint64_t waits_before = blocking_wait_count();
  Serial s{};
  for (int i = 0; i < 3; ++i) {
    WGPUCommandEncoder enc = p.DeviceCreateCommandEncoder(dev->device.get(), nullptr);
    WGPUCommandBuffer cmd = p.CommandEncoderFinish(enc, nullptr);
    s = qc.submit(cmd);
    p.CommandBufferRelease(cmd);
    p.CommandEncoderRelease(enc);
  }
  EXPECT_EQ(s, Serial{3});
  // Spin on the non-blocking poll only; a deadline keeps a hang visible.
  testing::poll_until([&] { return qc.clock().is_retired(s); }, [&] { qc.poll(); });
  EXPECT_TRUE(qc.clock().is_retired(s));
  EXPECT_EQ(blocking_wait_count(), waits_before);
}

// The test seam: held reports keep their submissions in flight however long the queue is
// polled; a release retires them through the serial it names; a new queue holds nothing.
TEST_F(GlDeviceTest, QueueClockHoldsReportsBackUntilReleasedOrRebound) {
  const auto& p = dev->procs();
  QueueClock qc(p, dev->context->instance(), dev->queue.get());
  const auto submit_empty = [&] {
    WGPUCommandEncoder enc = p.DeviceCreateCommandEncoder(dev->device.get(), nullptr);
    WGPUCommandBuffer cmd = p.CommandEncoderFinish(enc, nullptr);
    const Serial s = qc.submit(cmd);
    p.CommandBufferRelease(cmd);
    p.CommandEncoderRelease(enc);
    return s;
  };
  const Serial first = submit_empty();
  qc.hold_reports_from(qc.clock().recording());
  const Serial second = submit_empty();
  const Serial third = submit_empty();
  ASSERT_TRUE(testing::poll_until([&] { return qc.clock().is_retired(first); }, [&] { qc.poll(); }));
  // The device finished all three long ago; polling a while more retires nothing held.
  testing::poll_until([] { return false; }, [&] { qc.poll(); }, std::chrono::milliseconds(100));
  EXPECT_EQ(qc.clock().retired(), first);
  EXPECT_EQ(qc.clock().in_flight(), 2u);

  qc.release_held_reports(second);
  testing::poll_until([] { return false; }, [&] { qc.poll(); }, std::chrono::milliseconds(50));
  EXPECT_EQ(qc.clock().retired(), second);
  EXPECT_FALSE(qc.clock().is_retired(third)) << "reports after the released serial stay held";

  qc.rebind(dev->queue.get());  // the same queue stands in for a new device's
  const Serial after = submit_empty();
  EXPECT_TRUE(testing::poll_until([&] { return qc.clock().is_retired(after); }, [&] { qc.poll(); }))
      << "a new queue's reports are not held";
}

}  // namespace
}  // namespace warden::gpu
