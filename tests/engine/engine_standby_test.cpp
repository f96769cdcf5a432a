// The standby device (EngineOptions::standby_device), on the real library: a spare device is
// asked for after the shown device's first frame, a loss is recovered on it without a device
// request, the next spare is asked for after the recovered device's first frame, and a spare
// lost while it waits is let go and never adopted. The spare gets the registry's modules, layouts
// and pipelines ahead of the loss (ADR 0034): the recovery onto it takes them, and a replacement
// in between releases them, so the recovery never draws with what was replaced.
#include "warden/engine/engine.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "support/engine_fixture.h"
#include "support/gpu_test.h"
#include "warden/gpu/objects.h"

namespace warden::engine {
namespace {

using ::testing::ElementsAre;
using testing::Heard;
using testing::make_engine;
using namespace std::chrono_literals;

constexpr uint32_t kStandbyTargetSize = 4;

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
      {.size = {kStandbyTargetSize, kStandbyTargetSize, 1},
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

  EXPECT_THAT(testing::draw_green(*engine, target.texture, target.view, kStandbyTargetSize, kStandbyTargetSize), ElementsAre(0, 255, 0, 255));
  ASSERT_TRUE(poll_until_standby(*engine)) << "no standby device after the first frame";
  const std::optional<device::ProvidedDevice> spare = engine->standby().held_device();
  ASSERT_TRUE(spare.has_value());
  const WGPUDevice first = engine->device();
  EXPECT_NE(spare->device, first);

  ASSERT_TRUE(engine->force_device_loss("the standby test pulls the plug").ok());
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
  // The recovered generation runs on the spare, which left the stash; no other device was made.
  EXPECT_EQ(engine->device(), spare->device);
  EXPECT_EQ(engine->counters().standby_takeovers, 1u);
  EXPECT_EQ(engine->counters().recoveries, 1u);
  EXPECT_THAT(heard.ready, ElementsAre(1u, 2u));
  EXPECT_FALSE(engine->standby().holds());
  EXPECT_FALSE(engine->controller().standby_requested()) << "asked for before the recovered device's first frame";

  EXPECT_THAT(testing::draw_green(*engine, target.texture, target.view, kStandbyTargetSize, kStandbyTargetSize), ElementsAre(0, 255, 0, 255));
  ASSERT_TRUE(poll_until_standby(*engine)) << "no new standby after the recovery's first frame";
  EXPECT_NE(engine->standby().held_device()->device, spare->device);

  // A second loss takes the new spare.
  const WGPUDevice second_spare = engine->standby().held_device()->device;
  ASSERT_TRUE(engine->force_device_loss("and again").ok());
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
  EXPECT_EQ(engine->device(), second_spare);
  EXPECT_EQ(engine->counters().standby_takeovers, 2u);
  EXPECT_THAT(testing::draw_green(*engine, target.texture, target.view, kStandbyTargetSize, kStandbyTargetSize), ElementsAre(0, 255, 0, 255));
}

// A full-target triangle in one colour: red, or what `colour` says.
std::string solid_shader(std::string_view colour = "vec4<f32>(1.0, 0.0, 0.0, 1.0)") {
  return std::string(R"(
@vertex fn vs(@builtin(vertex_index) i : u32) -> @builtin(position) vec4<f32> {
  let xy = array<vec2<f32>, 3>(vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));
  return vec4<f32>(xy[i], 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4<f32> { return )") +
         std::string(colour) + "; }\n";
}

struct Solid {
  ShaderModuleHandle module;
  RenderPipelineHandle pipeline;
};

Solid make_solid(Engine& engine) {
  auto module = engine.shaders().compile("solid.wgsl", solid_shader());
  EXPECT_TRUE(module.ok()) << module.error().message;
  if (!module.ok()) return {};
  resources::RenderPipelineDescription d{.label = "solid", .vertex = {*module, "vs", {}}};
  d.fragment = resources::ShaderStage{*module, "fs", {}};
  d.targets = {resources::ColorTarget{}};
  auto pipeline = engine.registry().create_render_pipeline(d);
  EXPECT_TRUE(pipeline.ok()) << pipeline.error().message;
  return {*module, pipeline.ok() ? *pipeline : RenderPipelineHandle{}};
}

// One frame drawing `pipeline` over the target; its first texel.
std::vector<uint8_t> draw_solid(Engine& engine, const Target& target, RenderPipelineHandle pipeline) {
  auto frame = engine.begin_frame();
  EXPECT_TRUE(frame.ok()) << frame.error().message;
  if (!frame.ok()) return {};
  auto used = frame->use(target.view, pipeline);
  EXPECT_TRUE(used.ok()) << used.error().message;
  if (!used.ok()) return {};
  const auto [view, object] = *used;
  const gpu::Procs& p = engine.procs();
  WGPURenderPassEncoder pass = gpu::begin_clear_pass(p, frame->encoder(), view);
  p.RenderPassEncoderSetPipeline(pass, object);
  p.RenderPassEncoderDraw(pass, 3, 1, 0, 0);
  p.RenderPassEncoderEnd(pass);
  p.RenderPassEncoderRelease(pass);
  EXPECT_TRUE(engine.submit(std::move(frame.value())).ok());
  std::vector<uint8_t> texels = testing::read_rgba8(engine, target.texture, kStandbyTargetSize, kStandbyTargetSize);
  if (texels.size() < 4) return {};
  return {texels.begin(), texels.begin() + 4};
}

bool poll_until_prepared(Engine& engine) {
  return testing::poll_until(
      [&] {
        const auto spare = engine.standby().held_device();
        return spare && engine.registry().prepared_device() == spare->device;
      },
      [&] { engine.poll(); });
}

TEST(StandbyDevice, TheRecoveryOntoTheSpareTakesTheModulesAndPipelinesMadeOnItAhead) {
  auto engine = make_engine(standby_options());
  ASSERT_NE(engine, nullptr);
  const Target target = make_target(*engine);
  const Solid solid = make_solid(*engine);
  EXPECT_THAT(draw_solid(*engine, target, solid.pipeline), ElementsAre(255, 0, 0, 255));
  ASSERT_TRUE(poll_until_prepared(*engine)) << "nothing was made on the spare";
  const WGPUDevice spare = engine->standby().held_device()->device;
  // The module and the pipeline (its layout is derived from the shaders: no layout object).
  EXPECT_EQ(engine->registry().prepared_count(), 2u);
  EXPECT_EQ(engine->counters().standby_preparations, 1u);
  testing::poll_for(*engine, 20ms);
  EXPECT_EQ(engine->counters().standby_preparations, 1u) << "made again on every poll";

  ASSERT_TRUE(engine->force_device_loss("the standby test pulls the plug").ok());
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
  ASSERT_EQ(engine->device(), spare);
  EXPECT_EQ(engine->last_rebuild().prepared_taken, 2u);
  EXPECT_EQ(engine->counters().objects_prepared_taken, 2u);
  EXPECT_EQ(engine->registry().prepared_count(), 0u);
  EXPECT_EQ(engine->registry().prepared_device(), nullptr);
  EXPECT_THAT(draw_solid(*engine, target, solid.pipeline), ElementsAre(255, 0, 0, 255));
  // The next spare gets them too.
  ASSERT_TRUE(poll_until_prepared(*engine)) << "nothing was made on the next spare";
  EXPECT_EQ(engine->counters().standby_preparations, 2u);
}

TEST(StandbyDevice, AModuleReplacedAfterThePreparationReleasesItAndTheRecoveryDrawsTheNewOne) {
  for (bool poll_before_the_loss : {false, true}) {
    SCOPED_TRACE(poll_before_the_loss ? "prepared again before the loss" : "lost before a poll");
    auto engine = make_engine(standby_options());
    ASSERT_NE(engine, nullptr);
    const Target target = make_target(*engine);
    const Solid solid = make_solid(*engine);
    EXPECT_THAT(draw_solid(*engine, target, solid.pipeline), ElementsAre(255, 0, 0, 255));
    ASSERT_TRUE(poll_until_prepared(*engine));
    ASSERT_EQ(engine->registry().prepared_count(), 2u);

    // What a hot reload does to the module; the pipeline's own recipe does not change, but the
    // pipeline prepared on the spare is made of the old module.
    const std::string blue = solid_shader("vec4<f32>(0.0, 0.0, 1.0, 1.0)");
    const gpu::Procs& p = engine->procs();
    gpu::Ref<WGPUShaderModule> module(&p, gpu::create_wgsl_module(p, engine->device(), blue, "solid, blue"));
    ASSERT_TRUE(engine->shaders().install(solid.module, std::move(module), blue).ok());
    EXPECT_EQ(engine->registry().prepared_count(), 0u);
    EXPECT_EQ(engine->registry().prepared_device(), nullptr);
    if (poll_before_the_loss) {
      ASSERT_TRUE(poll_until_prepared(*engine));
      EXPECT_EQ(engine->counters().standby_preparations, 2u);
    }

    ASSERT_TRUE(engine->force_device_loss("the standby test pulls the plug").ok());
    ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
    EXPECT_EQ(engine->counters().standby_takeovers, 1u);
    EXPECT_EQ(engine->last_rebuild().prepared_taken, poll_before_the_loss ? 2u : 0u);
    EXPECT_THAT(draw_solid(*engine, target, solid.pipeline), ElementsAre(0, 0, 255, 255));
  }
}

TEST(StandbyDevice, ASpareLostWhileItWaitsIsLetGoAndTheRecoveryAsksForADevice) {
  Heard heard;
  auto engine = make_engine(standby_options(), heard.callbacks());
  ASSERT_NE(engine, nullptr);
  const Target target = make_target(*engine);
  EXPECT_THAT(testing::draw_green(*engine, target.texture, target.view, kStandbyTargetSize, kStandbyTargetSize), ElementsAre(0, 255, 0, 255));
  ASSERT_TRUE(poll_until_standby(*engine));
  const WGPUDevice spare = engine->standby().held_device()->device;

  // The spare alone is lost (as a loss of the whole adapter would take it): nobody is told, it
  // is only recorded, and the application's device draws on.
  engine->procs().DeviceForceLoss(spare, WGPUDeviceLostReason_Unknown, gpu::string_view("the spare is lost"));
  testing::poll_for(*engine, 50ms);
  EXPECT_EQ(engine->state(), EngineState::Ready);
  EXPECT_TRUE(heard.lost.empty());

  ASSERT_TRUE(engine->force_device_loss("the standby test pulls the plug").ok());
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
  EXPECT_NE(engine->device(), spare) << "a lost spare was adopted";
  EXPECT_EQ(engine->counters().standby_takeovers, 0u);
  EXPECT_EQ(engine->counters().objects_prepared_taken, 0u) << "objects of the lost spare were taken";
  EXPECT_EQ(engine->counters().recoveries, 1u);
  EXPECT_THAT(testing::draw_green(*engine, target.texture, target.view, kStandbyTargetSize, kStandbyTargetSize), ElementsAre(0, 255, 0, 255));
  ASSERT_TRUE(poll_until_standby(*engine)) << "no new standby after the recovery's first frame";
}

TEST(StandbyDevice, OffByDefaultNoSpareIsMade) {
  auto engine = make_engine(testing::engine_options(testing::pixel_test_backend()));
  ASSERT_NE(engine, nullptr);
  const Target target = make_target(*engine);
  EXPECT_THAT(testing::draw_green(*engine, target.texture, target.view, kStandbyTargetSize, kStandbyTargetSize), ElementsAre(0, 255, 0, 255));
  testing::poll_for(*engine, 50ms);
  EXPECT_FALSE(engine->standby().holds());
  EXPECT_FALSE(engine->controller().standby_requested());
}

TEST(StandbyDevice, AnEngineEndsWithItsSpareHeldOrStillAskedFor) {
  for (bool wait_for_it : {true, false}) {
    auto engine = make_engine(standby_options());
    ASSERT_NE(engine, nullptr);
    const Target target = make_target(*engine);
    EXPECT_THAT(testing::draw_green(*engine, target.texture, target.view, kStandbyTargetSize, kStandbyTargetSize), ElementsAre(0, 255, 0, 255));
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
