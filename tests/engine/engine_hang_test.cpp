// The Engine's hang watchdog (EngineOptions::hang_limit), on the real library: a submission
// that never finishes (the queue clock's test seam holds its report back) is a hang after the
// limit; the device is let go, the hang reported and scored once, and the next device draws.
// Time is the rebuild policy's clock, faked here, so the limit passes exactly when a test says.
#include "warden/engine/engine.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>
#include <thread>

#include "support/engine_fixture.h"
#include "support/gpu_test.h"
#include "support/messages.h"
#include "warden/gpu/objects.h"

namespace warden::engine {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::FailsWith;
using testing::Heard;
using testing::make_engine;
using namespace std::chrono_literals;

constexpr auto kLimit = 100ms;
constexpr uint32_t kHangTargetSize = 4;

// The clock the engine's policy and watchdog read; it moves only when the test moves it.
struct FakeTime {
  device::SteadyTime now = std::chrono::steady_clock::now();
  void advance(std::chrono::milliseconds by) { now += by; }
};

EngineOptions hang_options(FakeTime& time, std::chrono::milliseconds limit, unsigned faults_to_give_up = 100) {
  EngineOptions options = testing::engine_options(testing::pixel_test_backend(), faults_to_give_up);
  options.hang_limit = limit;
  options.rebuild.now = [&time] { return time.now; };
  return options;
}

// Submits one empty frame; its serial.
Serial submit_frame(Engine& engine) {
  auto frame = engine.begin_frame();
  EXPECT_TRUE(frame.ok()) << frame.error().message;
  if (!frame.ok()) return Serial{};
  auto serial = engine.submit(std::move(frame.value()));
  EXPECT_TRUE(serial.ok()) << serial.error().message;
  return serial.ok() ? *serial : Serial{};
}

// A submission that never finishes: every report from the next submission on is held back.
Serial submit_hung_frame(Engine& engine) {
  gpu::QueueClock& clock = engine.registry().queue_clock();
  clock.hold_reports_from(clock.clock().recording());
  return submit_frame(engine);
}


// What an observer of the engine's generations heard, in order.
struct Journal final : GenerationObserver {
  std::vector<std::string> heard;
  void device_lost(uint64_t generation) override { heard.push_back("lost " + std::to_string(generation)); }
  void device_ready(uint64_t generation) override { heard.push_back("ready " + std::to_string(generation)); }
};

TEST(EngineHang, AHungSubmissionIsLetGoReportedAndScoredOnceAndTheNextDeviceDraws) {
  FakeTime time;
  Heard heard;
  auto engine = make_engine(hang_options(time, kLimit), heard.callbacks());
  ASSERT_NE(engine, nullptr);
  Journal journal;
  engine->add_observer(journal);
  // A device that presented is released when it ends, never destroyed.
  ASSERT_TRUE(engine->mark_presented().ok());
  auto target = engine->registry().create_texture(
      {.size = {kHangTargetSize, kHangTargetSize, 1},
       .format = WGPUTextureFormat_RGBA8Unorm,
       .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc,
       .label = "hang target",
       .contents = resources::ContentsSource::None});
  ASSERT_TRUE(target.ok()) << target.error().message;
  auto view = engine->registry().create_texture_view(*target, {.label = "hang target view"});
  ASSERT_TRUE(view.ok()) << view.error().message;

  const Serial hung = submit_hung_frame(*engine);
  testing::poll_for(*engine, 30ms);
  time.advance(kLimit);  // at the limit, not past it: not yet a hang
  testing::poll_for(*engine, 30ms);
  EXPECT_EQ(engine->counters().hangs, 0u);
  EXPECT_EQ(engine->state(), EngineState::Ready);
  EXPECT_FALSE(engine->registry().clock().is_retired(hung)) << "the seam holds the submission back";

  time.advance(1ms);
  engine->poll();
  EXPECT_EQ(engine->counters().hangs, 1u);
  EXPECT_EQ(engine->counters().unscored_hangs, 0u);
  EXPECT_EQ(engine->counters().device_losses, 1u);
  EXPECT_NE(engine->state(), EngineState::Ready);
  // Let go as the device end policy says: it presented, so it was released.
  ASSERT_FALSE(engine->controller().device_ends().empty());
  const device::DeviceEndRecord& end = engine->controller().device_ends().back();
  EXPECT_TRUE(end.presented);
  EXPECT_EQ(end.ended, device::DeviceEnd::Release);
  // Told once, by its own id and through on_lost, and scored once, as a hang.
  EXPECT_EQ(engine->diagnostics().count(MessageId::EngineHang), 1u);
  const std::vector<Diagnostic> entries = engine->diagnostics().entries();
  auto reported = std::find_if(entries.begin(), entries.end(),
                               [](const Diagnostic& d) { return d.id == MessageId::EngineHang; });
  ASSERT_NE(reported, entries.end());
  EXPECT_EQ(reported->severity, Severity::Warning);
  EXPECT_EQ(reported->category, kDiagnosticsCategory);
  EXPECT_THAT(reported->message, HasSubstr("did not finish within 100 ms"));
  ASSERT_EQ(heard.lost.size(), 1u);
  EXPECT_EQ(heard.lost[0].first, 1u);
  EXPECT_THAT(heard.lost_messages[0], HasSubstr("hung: submission " + std::to_string(hung.value)));
  EXPECT_EQ(engine->rebuild_policy().strikes(device::FaultKind::Hung), 1u);
  EXPECT_EQ(engine->rebuild_policy().strikes(device::FaultKind::Lost), 0u);

  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
  EXPECT_EQ(engine->device_generation(), 2u);
  EXPECT_THAT(heard.ready, ElementsAre(1u, 2u));
  EXPECT_EQ(engine->counters().recoveries, 1u);
  EXPECT_THAT(journal.heard, ElementsAre("lost 1", "ready 2")) << "observers hear a hang as a loss";
  // The new device's queue finishes its work: no second report, however long it runs.
  const std::vector<uint8_t> texel = testing::draw_green(*engine, *target, *view, kHangTargetSize, kHangTargetSize);
  EXPECT_THAT(texel, ElementsAre(0, 255, 0, 255));
  time.advance(10 * kLimit);
  testing::poll_for(*engine, 30ms);
  submit_frame(*engine);
  testing::poll_for(*engine, 30ms);
  time.advance(10 * kLimit);
  testing::poll_for(*engine, 30ms);
  EXPECT_EQ(engine->state(), EngineState::Ready);
  EXPECT_EQ(engine->counters().hangs, 1u);
  EXPECT_EQ(engine->diagnostics().count(MessageId::EngineHang), 1u);
  EXPECT_EQ(heard.lost.size(), 1u);
  EXPECT_EQ(engine->rebuild_policy().strikes(device::FaultKind::Hung), 1u);
  engine->remove_observer(journal);
}

// Surface failures (a Swapchain scoring into the engine's policy) gave up while the device is
// up: a hang then says nothing about a device and must not buy another one.
TEST(EngineHang, AHangAfterThePolicyGaveUpIsRecordedNotScoredAndNoDeviceIsAskedFor) {
  FakeTime time;
  Heard heard;
  auto engine = make_engine(hang_options(time, kLimit, 3), heard.callbacks());
  ASSERT_NE(engine, nullptr);
  for (int i = 0; i < 3; ++i) (void)engine->rebuild_policy().record_fault(device::FaultKind::Surface, "no frame");
  ASSERT_TRUE(engine->rebuild_policy().gave_up());
  ASSERT_EQ(engine->state(), EngineState::Ready) << "surface failures leave the device up";

  submit_hung_frame(*engine);
  testing::poll_for(*engine, 30ms);
  time.advance(kLimit + 1ms);
  testing::poll_for(*engine, 30ms);
  EXPECT_EQ(engine->counters().hangs, 1u);
  EXPECT_EQ(engine->counters().unscored_hangs, 1u);
  EXPECT_EQ(engine->rebuild_policy().unscored_hangs(), 1u);
  EXPECT_EQ(engine->rebuild_policy().strikes(device::FaultKind::Hung), 0u) << "recorded, not scored";
  EXPECT_EQ(engine->diagnostics().count(MessageId::EngineHang), 1u);
  EXPECT_EQ(engine->state(), EngineState::Failed);
  EXPECT_EQ(heard.failed.size(), 1u);
  EXPECT_EQ(heard.lost.size(), 1u);
  for (int i = 0; i < 3; ++i) {
    time.advance(10 * kLimit);
    testing::poll_for(*engine, 30ms);
  }
  EXPECT_THAT(heard.ready, ElementsAre(1u)) << "no device after a hang while given up";
  EXPECT_EQ(engine->device_generation(), 1u);
  EXPECT_THAT(engine->begin_frame(), FailsWith(MessageId::EngineGaveUp));
}

// Hangs are scored like losses: the one that exhausts the policy gives up, scored, once.
TEST(EngineHang, RepeatedHangsGiveUpLikeLossesAndTheLastIsScored) {
  FakeTime time;
  Heard heard;
  auto engine = make_engine(hang_options(time, kLimit, 2), heard.callbacks());
  ASSERT_NE(engine, nullptr);
  for (int hang = 0; hang < 2; ++hang) {
    ASSERT_EQ(engine->state(), EngineState::Ready) << "before hang " << hang + 1;
    submit_hung_frame(*engine);
    testing::poll_for(*engine, 30ms);
    time.advance(kLimit + 1ms);
    testing::poll_for(*engine, 30ms);
    if (hang == 0) {
      ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
    }
  }
  EXPECT_EQ(engine->counters().hangs, 2u);
  EXPECT_EQ(engine->counters().unscored_hangs, 0u);
  EXPECT_EQ(engine->rebuild_policy().strikes(device::FaultKind::Hung), 2u);
  EXPECT_TRUE(engine->rebuild_policy().gave_up());
  EXPECT_EQ(engine->state(), EngineState::Failed);
  ASSERT_EQ(heard.failed.size(), 1u);
  EXPECT_EQ(heard.failed[0].kind, device::FaultKind::Hung);
  EXPECT_EQ(heard.failed[0].faults, 2u);
  EXPECT_THAT(heard.ready, ElementsAre(1u, 2u));
}

// A queue that finishes its work late, but always finishes some within the limit, is slow, not
// hung; the same queue stopping is a hang (the watchdog was watching all along).
TEST(EngineHang, ASlowQueueThatKeepsFinishingWorkIsNotAHangUntilItStops) {
  FakeTime time;
  auto engine = make_engine(hang_options(time, kLimit));
  ASSERT_NE(engine, nullptr);
  gpu::QueueClock& clock = engine->registry().queue_clock();
  Serial previous = submit_hung_frame(*engine);
  testing::poll_for(*engine, 30ms);
  // Each step one more submission in flight and the one before it finishing 60 ms late: work is
  // outstanding the whole time, ten times the limit in all.
  for (int step = 0; step < 16; ++step) {
    const Serial next = submit_frame(*engine);
    time.advance(60ms);
    testing::poll_for(*engine, 30ms);
    clock.release_held_reports(previous);
    testing::poll_for(*engine, 30ms);
    ASSERT_TRUE(engine->registry().clock().is_retired(previous));
    ASSERT_FALSE(engine->registry().clock().is_retired(next)) << "always one submission in flight";
    previous = next;
  }
  EXPECT_EQ(engine->counters().hangs, 0u);
  EXPECT_EQ(engine->state(), EngineState::Ready);
  EXPECT_EQ(engine->device_generation(), 1u);

  time.advance(60ms);
  testing::poll_for(*engine, 30ms);
  time.advance(60ms);
  testing::poll_for(*engine, 30ms);
  EXPECT_EQ(engine->counters().hangs, 1u) << "stopped for 120 ms with a 100 ms limit";
}

// hang_limit 0 turns the watchdog off: the same held submission, far past any limit, is not a
// hang; with a limit it is.
TEST(EngineHang, HangLimitZeroNeverFiresWhereALimitDoes) {
  const auto hangs_after_ten_seconds = [](std::chrono::milliseconds limit) -> uint64_t {
    FakeTime time;
    auto engine = make_engine(hang_options(time, limit));
    if (engine == nullptr) return ~uint64_t{0};
    submit_hung_frame(*engine);
    for (int i = 0; i < 10; ++i) {
      testing::poll_for(*engine, 30ms);
      time.advance(1000ms);
    }
    testing::poll_for(*engine, 30ms);
    EXPECT_EQ(engine->diagnostics().count(MessageId::EngineHang), engine->counters().hangs);
    if (limit.count() == 0) {
      EXPECT_EQ(engine->state(), EngineState::Ready);
      EXPECT_EQ(engine->device_generation(), 1u);
    }
    return engine->counters().hangs;
  };
  EXPECT_EQ(hangs_after_ten_seconds(0ms), 0u);
  EXPECT_EQ(hangs_after_ten_seconds(kLimit), 1u);
}

}  // namespace
}  // namespace warden::engine
