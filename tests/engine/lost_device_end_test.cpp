// EngineOptions::end_lost_device_after_first_frame (ADR 0058): during a recovery the lost device
// is ended after the first frame on its successor, in the next poll()'s let-go phase, so that
// ending it (on Vulkan: waiting for its queue and freeing its memory) is off the recovery's path;
// a program that draws nothing lets it go one poll() after the new device is shown; with no
// recovery under way (the option off, or the engine's end) it goes at once.
#include <gtest/gtest.h>

#include "support/engine_fixture.h"

namespace warden::engine {
namespace {

using testing::engine_options;
using testing::make_engine;

constexpr auto kReadyWithin = std::chrono::seconds(20);

// The engine in the state a recovery's first frame finds it: the lost device's end held.
std::unique_ptr<Engine> recovered_engine(bool after_first_frame) {
  EngineOptions options = engine_options(gpu::BackendChoice::Null);
  options.end_lost_device_after_first_frame = after_first_frame;
  auto engine = make_engine(options);
  if (engine == nullptr) return nullptr;
  testing::submit_empty_frame(*engine);
  EXPECT_EQ(engine->devices_waiting_to_end(), 0u);
  EXPECT_TRUE(engine->force_device_loss("lost device end test"));
  EXPECT_TRUE(engine->wait_until_ready(kReadyWithin)) << engine->message();
  EXPECT_EQ(engine->device_generation(), 2u);
  return engine;
}

TEST(LostDeviceEnd, WaitsForTheFirstFrameOnItsSuccessorAndGoesInTheNextPoll) {
  auto engine = recovered_engine(true);
  ASSERT_NE(engine, nullptr);
  EXPECT_EQ(engine->devices_waiting_to_end(), 1u) << "ended before the new device's first frame";
  testing::submit_empty_frame(*engine);
  EXPECT_EQ(engine->devices_waiting_to_end(), 1u) << "submit() ends no device";
  ASSERT_TRUE(engine->last_recovery().has_value());
  EXPECT_EQ(engine->last_recovery()->lost_device_end_ms, 0.0) << "not ended yet";
  engine->poll();
  EXPECT_EQ(engine->devices_waiting_to_end(), 0u);
  // Its cost is told with the recovery it came after, off that recovery's total.
  EXPECT_GT(engine->last_recovery()->lost_device_end_ms, 0.0);
}

TEST(LostDeviceEnd, AProgramThatDrawsNoFrameLetsItGoOnePollAfterTheNewDeviceIsShown) {
  auto engine = recovered_engine(true);
  ASSERT_NE(engine, nullptr);
  EXPECT_EQ(engine->devices_waiting_to_end(), 1u);
  engine->poll();
  EXPECT_EQ(engine->devices_waiting_to_end(), 0u);
  EXPECT_FALSE(engine->last_recovery().has_value()) << "no frame, so no recovery timed";
}

TEST(LostDeviceEnd, WithTheOptionOffItGoesBeforeTheNewDeviceIsPrepared) {
  auto engine = recovered_engine(false);
  ASSERT_NE(engine, nullptr);
  EXPECT_EQ(engine->devices_waiting_to_end(), 0u);
  testing::submit_empty_frame(*engine);
  EXPECT_EQ(engine->last_recovery()->lost_device_end_ms, 0.0) << "it was on the recovery's path";
}

TEST(LostDeviceEnd, AnEngineThatEndsMidRecoveryEndsTheLostDeviceToo) {
  auto engine = recovered_engine(true);
  ASSERT_NE(engine, nullptr);
  ASSERT_EQ(engine->devices_waiting_to_end(), 1u);
  engine.reset();  // ASan and valgrind see a device left behind here
}

// Losses in a row, each before the recovery's first frame: only the newest lost device waits,
// so no number of them piles devices up.
TEST(LostDeviceEnd, LossesInARowHoldOnlyTheNewestLostDevice) {
  auto engine = recovered_engine(true);
  ASSERT_NE(engine, nullptr);
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(engine->force_device_loss("lost again before its first frame"));
    ASSERT_TRUE(engine->wait_until_ready(kReadyWithin)) << engine->message();
    EXPECT_EQ(engine->devices_waiting_to_end(), 1u) << "after loss " << i;
  }
  EXPECT_EQ(engine->device_generation(), 7u);
  testing::submit_empty_frame(*engine);
  engine->poll();
  EXPECT_EQ(engine->devices_waiting_to_end(), 0u);
}

}  // namespace
}  // namespace warden::engine
