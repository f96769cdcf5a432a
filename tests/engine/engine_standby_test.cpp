// The standby device (EngineOptions::standby_device), on the real library: a spare device is
// asked for after the shown device's first frame, a loss is recovered on it without a device
// request, the next spare is asked for after the recovered device's first frame, and a spare
// lost while it waits is let go and never adopted.
#include "warden/engine/engine.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "support/engine_fixture.h"
#include "support/gpu_test.h"

namespace warden::engine {
namespace {

using ::testing::ElementsAre;
using testing::Heard;
using testing::make_engine;
using namespace std::chrono_literals;

constexpr auto kTimeout = warden::testing::kSafetyNet;
constexpr uint32_t kSize = 4;

EngineOptions standby_options() {
  EngineOptions options = testing::engine_options(testing::pixel_test_backend());
  options.standby_device = true;
  return options;
}

struct Target {
  TextureHandle texture;
  TextureViewHandle view;
};

Target make_target(Engine& engine) {
  auto texture = engine.registry().create_texture(
      {.size = {kSize, kSize, 1},
       .format = WGPUTextureFormat_RGBA8Unorm,
       .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc,
       .label = "standby target",
       .contents = resources::ContentsSource::None});
  EXPECT_TRUE(texture.ok()) << texture.error().message;
  if (!texture.ok()) return {};
  auto view = engine.registry().create_texture_view(*texture, {.label = "standby target view"});
  EXPECT_TRUE(view.ok()) << view.error().message;
  return {*texture, view.ok() ? *view : TextureViewHandle{}};
}


bool poll_until_standby(Engine& engine) {
  return testing::poll_until([&] { return engine.standby().holds(); }, [&] { engine.poll(); });
}

TEST(StandbyDevice, ARecoveryAdoptsTheSpareAndTheNextSpareIsAskedForAfterTheFirstFrame) {
  Heard heard;
  auto engine = make_engine(standby_options(), heard.callbacks());
  ASSERT_NE(engine, nullptr);
  const Target target = make_target(*engine);
  // No frame yet: no spare is asked for (making one blocks a poll; the first frame comes first).
  testing::poll_for(*engine, 50ms);
  EXPECT_FALSE(engine->standby().holds());
  EXPECT_FALSE(engine->controller().standby_requested());

  EXPECT_THAT(testing::draw_green(*engine, target.texture, target.view, kSize, kSize), ElementsAre(0, 255, 0, 255));
  ASSERT_TRUE(poll_until_standby(*engine)) << "no standby device after the first frame";
  const std::optional<device::ProvidedDevice> spare = engine->standby().held_device();
  ASSERT_TRUE(spare.has_value());
  const WGPUDevice first = engine->device();
  EXPECT_NE(spare->device, first);

  ASSERT_TRUE(engine->force_device_loss("the standby test pulls the plug").ok());
  ASSERT_TRUE(engine->wait_until_ready(kTimeout).ok()) << engine->message();
  // The recovered generation runs on the spare, which left the stash; no other device was made.
  EXPECT_EQ(engine->device(), spare->device);
  EXPECT_EQ(engine->counters().standby_takeovers, 1u);
  EXPECT_EQ(engine->counters().recoveries, 1u);
  EXPECT_THAT(heard.ready, ElementsAre(1u, 2u));
  EXPECT_FALSE(engine->standby().holds());
  EXPECT_FALSE(engine->controller().standby_requested()) << "asked for before the recovered device's first frame";

  EXPECT_THAT(testing::draw_green(*engine, target.texture, target.view, kSize, kSize), ElementsAre(0, 255, 0, 255));
  ASSERT_TRUE(poll_until_standby(*engine)) << "no new standby after the recovery's first frame";
  EXPECT_NE(engine->standby().held_device()->device, spare->device);

  // A second loss takes the new spare.
  const WGPUDevice second_spare = engine->standby().held_device()->device;
  ASSERT_TRUE(engine->force_device_loss("and again").ok());
  ASSERT_TRUE(engine->wait_until_ready(kTimeout).ok()) << engine->message();
  EXPECT_EQ(engine->device(), second_spare);
  EXPECT_EQ(engine->counters().standby_takeovers, 2u);
  EXPECT_THAT(testing::draw_green(*engine, target.texture, target.view, kSize, kSize), ElementsAre(0, 255, 0, 255));
}

TEST(StandbyDevice, ASpareLostWhileItWaitsIsLetGoAndTheRecoveryAsksForADevice) {
  Heard heard;
  auto engine = make_engine(standby_options(), heard.callbacks());
  ASSERT_NE(engine, nullptr);
  const Target target = make_target(*engine);
  EXPECT_THAT(testing::draw_green(*engine, target.texture, target.view, kSize, kSize), ElementsAre(0, 255, 0, 255));
  ASSERT_TRUE(poll_until_standby(*engine));
  const WGPUDevice spare = engine->standby().held_device()->device;

  // The spare alone is lost (as a loss of the whole adapter would take it): nobody is told, it
  // is only recorded, and the application's device draws on.
  engine->procs().DeviceForceLoss(spare, WGPUDeviceLostReason_Unknown, gpu::string_view("the spare is lost"));
  testing::poll_for(*engine, 50ms);
  EXPECT_EQ(engine->state(), EngineState::Ready);
  EXPECT_TRUE(heard.lost.empty());

  ASSERT_TRUE(engine->force_device_loss("the standby test pulls the plug").ok());
  ASSERT_TRUE(engine->wait_until_ready(kTimeout).ok()) << engine->message();
  EXPECT_NE(engine->device(), spare) << "a lost spare was adopted";
  EXPECT_EQ(engine->counters().standby_takeovers, 0u);
  EXPECT_EQ(engine->counters().recoveries, 1u);
  EXPECT_THAT(testing::draw_green(*engine, target.texture, target.view, kSize, kSize), ElementsAre(0, 255, 0, 255));
  ASSERT_TRUE(poll_until_standby(*engine)) << "no new standby after the recovery's first frame";
}

TEST(StandbyDevice, OffByDefaultNoSpareIsMade) {
  auto engine = make_engine(testing::engine_options(testing::pixel_test_backend()));
  ASSERT_NE(engine, nullptr);
  const Target target = make_target(*engine);
  EXPECT_THAT(testing::draw_green(*engine, target.texture, target.view, kSize, kSize), ElementsAre(0, 255, 0, 255));
  testing::poll_for(*engine, 50ms);
  EXPECT_FALSE(engine->standby().holds());
  EXPECT_FALSE(engine->controller().standby_requested());
}

TEST(StandbyDevice, AnEngineEndsWithItsSpareHeldOrStillAskedFor) {
  for (bool wait_for_it : {true, false}) {
    auto engine = make_engine(standby_options());
    ASSERT_NE(engine, nullptr);
    const Target target = make_target(*engine);
    EXPECT_THAT(testing::draw_green(*engine, target.texture, target.view, kSize, kSize), ElementsAre(0, 255, 0, 255));
    if (wait_for_it) {
      ASSERT_TRUE(poll_until_standby(*engine));
    } else {
      engine->poll();  // asks for it; the answer may still be in flight when the engine ends
    }
    ASSERT_TRUE(engine->registry().destroy_texture_view(target.view).ok());
    ASSERT_TRUE(engine->registry().destroy_texture(target.texture).ok());
    engine.reset();  // the sanitizers and valgrind see what it leaves behind
  }
}

}  // namespace
}  // namespace warden::engine
