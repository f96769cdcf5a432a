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
    CommandEncoder enc = p.DeviceCreateCommandEncoder(dev->device.get(), nullptr);
    CommandBuffer cmd = p.CommandEncoderFinish(enc, nullptr);
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

}  // namespace
}  // namespace warden::gpu
