// Every object present/, debugdraw/ and tiles/ make for the application comes back after a device
// loss the Engine drives: a render target (after a resize too), a depth target, a debug drawer's
// buffer after it grew, a tile layer's array. Each kind is drawn before and after the loss and read
// back. And an object that still awaits its owner after a rebuild is named before on_ready.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>

#include <fmt/format.h>

#include "support/engine_fixture.h"
#include "support/gpu_test.h"
#include "support/messages.h"
#include "support/poll_until.h"
#include "support/xvfb.h"
#include "warden/debugdraw/debug_drawer.h"
#include "warden/engine/tile_layer.h"
#include "warden/present/readback.h"
#include "warden/present/render_target.h"
#include "warden/present/window.h"

namespace warden::engine {
namespace {

using ::testing::Each;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::engine_options;
using testing::Heard;
using testing::make_engine;
using Rgba = std::array<uint8_t, 4>;

constexpr Rgba kRed{255, 0, 0, 255}, kGreen{0, 255, 0, 255}, kBlue{0, 0, 255, 255}, kBlack{0, 0, 0, 255};

// Loses the device through the engine and polls, as a frame loop does, until it is Ready again.
void lose_and_poll_until_ready(Engine& engine) {
  ASSERT_TRUE(engine.force_device_loss("recovery kinds test"));
  ASSERT_EQ(engine.state(), EngineState::Recovering);
  ASSERT_TRUE(testing::poll_until([&] { return engine.state() != EngineState::Recovering; }, [&] { engine.poll(); }));
  ASSERT_EQ(engine.state(), EngineState::Ready) << engine.message();
}

std::vector<Rgba> pixels(const present::Image& image) {
  std::vector<Rgba> out;
  for (uint32_t y = 0; y < image.height; ++y)
    for (uint32_t x = 0; x < image.width; ++x) out.push_back(image.pixel(x, y));
  return out;
}

class KindsAcrossLoss : public ::testing::Test {
 protected:
  void SetUp() override {
    engine = make_engine(engine_options(testing::pixel_test_backend()), heard.callbacks());
    ASSERT_NE(engine, nullptr);
  }

  // One frame through the engine: a pass into `colour` (and `depth`, cleared to reverse-Z's far),
  // cleared to `clear`, with what `draw` records.
  void frame(const present::RenderTarget& colour, const present::RenderTarget* depth, WGPUColor clear,
             const std::function<void(WGPURenderPassEncoder)>& draw = {}) {
    resources::Registry& reg = engine->registry();
    const gpu::Procs& p = engine->procs();
    auto begun = engine->begin_frame();
    ASSERT_TRUE(begun) << begun.error().message;
    auto colour_view = reg.resolve(colour.view());
    ASSERT_TRUE(colour_view) << colour_view.error().message;
    WGPURenderPassColorAttachment attachment{};
    attachment.depthSlice = WGPU_DEPTH_SLICE_UNDEFINED;
    attachment.view = *colour_view;
    attachment.loadOp = WGPULoadOp_Clear;
    attachment.storeOp = WGPUStoreOp_Store;
    attachment.clearValue = clear;
    WGPURenderPassDescriptor desc{};
    desc.colorAttachmentCount = 1;
    desc.colorAttachments = &attachment;
    WGPURenderPassDepthStencilAttachment depth_attachment{};
    if (depth != nullptr) {
      auto depth_view = reg.resolve(depth->view());
      ASSERT_TRUE(depth_view) << depth_view.error().message;
      depth_attachment = present::reverse_z_depth_attachment(*depth_view);
      desc.depthStencilAttachment = &depth_attachment;
      reg.touch(depth->view());
    }
    WGPURenderPassEncoder pass = p.CommandEncoderBeginRenderPass(begun->encoder(), &desc);
    if (draw) draw(pass);
    p.RenderPassEncoderEnd(pass);
    p.RenderPassEncoderRelease(pass);
    reg.touch(colour.view());
    auto submitted = engine->submit(std::move(*begun));
    ASSERT_TRUE(submitted) << submitted.error().message;
  }

  present::Image read(const present::RenderTarget& target) {
    auto image = present::read_image(engine->context(), engine->registry(), target.texture());
    EXPECT_TRUE(image) << image.error().message;
    return image ? std::move(*image) : present::Image{};
  }

  void expect_back_and_not_awaiting(TextureHandle texture, TextureViewHandle view) {
    resources::Registry& reg = engine->registry();
    EXPECT_EQ(reg.slot_state(texture), resources::SlotState::Live);
    EXPECT_EQ(reg.slot_state(view), resources::SlotState::Live);
    ASSERT_FALSE(heard.rebuilt.empty());
    EXPECT_THAT(heard.rebuilt.back().awaiting_owner, IsEmpty());
    EXPECT_THAT(heard.rebuilt.back().failed, IsEmpty());
    EXPECT_EQ(engine->diagnostics().count(MessageId::SlotAwaitsOwner), 0u);
  }

  Heard heard;
  std::unique_ptr<Engine> engine;
};

TEST_F(KindsAcrossLoss, ARenderTargetComesBackAfterAResizeUnderItsHandlesAndResizesAgainAfterIt) {
  auto target = present::RenderTarget::create(engine->registry(), {.width = 32, .height = 16, .label = "offscreen"});
  ASSERT_TRUE(target) << target.error().message;
  const TextureHandle texture = target->texture();
  const TextureViewHandle view = target->view();
  ASSERT_TRUE(target->resize(70, 45));
  frame(*target, nullptr, {1, 0, 0, 1});
  const present::Image red = read(*target);
  ASSERT_EQ(red.width, 70u);
  EXPECT_THAT(pixels(red), Each(kRed));

  lose_and_poll_until_ready(*engine);
  EXPECT_EQ(target->texture(), texture);
  EXPECT_EQ(target->view(), view);
  expect_back_and_not_awaiting(texture, view);
  ASSERT_EQ(heard.contents_lost.size(), 1u);
  EXPECT_THAT(heard.contents_lost[0].textures, ElementsAre(texture)) << "what passes drew is the application's to draw again";
  frame(*target, nullptr, {0, 1, 0, 1});
  const present::Image green = read(*target);
  EXPECT_EQ(green.width, 70u) << "the size the target had when the device went";
  EXPECT_EQ(green.height, 45u);
  EXPECT_THAT(pixels(green), Each(kGreen));

  ASSERT_TRUE(target->resize(20, 10));
  frame(*target, nullptr, {0, 0, 1, 1});
  const present::Image blue = read(*target);
  EXPECT_EQ(blue.width, 20u);
  EXPECT_THAT(pixels(blue), Each(kBlue));
  target->destroy();
}

// A near red triangle drawn first and a far green one over the whole target drawn after it: only
// the depth buffer keeps the red one in front.
constexpr const char* kNearThenFarWgsl = R"(
struct Out { @builtin(position) position : vec4<f32>, @location(0) colour : vec4<f32> }
@vertex fn vs(@builtin(vertex_index) i : u32) -> Out {
  var near = array<vec2<f32>, 3>(vec2<f32>(-0.5, -0.5), vec2<f32>(0.5, -0.5), vec2<f32>(0.0, 0.5));
  var far = array<vec2<f32>, 3>(vec2<f32>(-1.0, -1.0), vec2<f32>(3.0, -1.0), vec2<f32>(-1.0, 3.0));
  var out : Out;
  if (i < 3u) {
    out.position = vec4<f32>(near[i], 0.8, 1.0);  // reverse-Z: nearer is larger
    out.colour = vec4<f32>(1.0, 0.0, 0.0, 1.0);
  } else {
    out.position = vec4<f32>(far[i - 3u], 0.2, 1.0);
    out.colour = vec4<f32>(0.0, 1.0, 0.0, 1.0);
  }
  return out;
}
@fragment fn fs(in : Out) -> @location(0) vec4<f32> { return in.colour; }
)";

TEST_F(KindsAcrossLoss, ADepthTargetComesBackAndTheNearerTriangleStillWins) {
  resources::Registry& reg = engine->registry();
  auto colour = present::RenderTarget::create(reg, {.width = 64, .height = 64, .label = "scene"});
  ASSERT_TRUE(colour) << colour.error().message;
  auto depth = present::RenderTarget::create(reg, present::depth_target(64, 64, "scene depth"));
  ASSERT_TRUE(depth) << depth.error().message;
  EXPECT_EQ(depth->format(), present::kDepthFormat);
  auto module = reg.create_shader_module(kNearThenFarWgsl, "near then far");
  ASSERT_TRUE(module) << module.error().message;
  resources::RenderPipelineDescription desc;
  desc.label = "near then far";
  desc.vertex = {*module, "vs", {}};
  desc.depth = present::reverse_z_depth();
  desc.fragment = resources::ShaderStage{*module, "fs", {}};
  desc.targets = {resources::ColorTarget{}};
  auto pipeline = reg.create_render_pipeline(desc);
  ASSERT_TRUE(pipeline) << pipeline.error().message;
  auto draw = [&](WGPURenderPassEncoder pass) {
    engine->procs().RenderPassEncoderSetPipeline(pass, *reg.resolve(*pipeline));
    engine->procs().RenderPassEncoderDraw(pass, 6, 1, 0, 0);
    reg.touch(*pipeline);
  };
  auto expect_near_in_front = [&](const char* when) {
    const present::Image image = read(*colour);
    ASSERT_EQ(image.width, 64u);
    EXPECT_EQ(image.pixel(32, 36), kRed) << when << ": the near triangle, drawn first, stays in front";
    EXPECT_EQ(image.pixel(3, 3), kGreen) << when << ": the far one covers the rest";
  };
  frame(*colour, &*depth, {0, 0, 0, 1}, draw);
  expect_near_in_front("before the loss");

  lose_and_poll_until_ready(*engine);
  expect_back_and_not_awaiting(depth->texture(), depth->view());
  frame(*colour, &*depth, {0, 0, 0, 1}, draw);
  expect_near_in_front("after the loss");
  colour->destroy();
  depth->destroy();
}

TEST_F(KindsAcrossLoss, ADebugDrawersBufferThatGrewComesBackWithItsLinesAndDrawsAgain) {
  resources::Registry& reg = engine->registry();
  auto colour = present::RenderTarget::create(reg, {.width = 64, .height = 64, .label = "lines"});
  ASSERT_TRUE(colour);
  auto depth = present::RenderTarget::create(reg, present::depth_target(64, 64));
  ASSERT_TRUE(depth);
  auto created = debugdraw::DebugDrawer::create(reg, {.initial_capacity_bytes = 512});
  ASSERT_TRUE(created) << created.error().message;
  debugdraw::DebugDrawer& drawer = **created;
  const BufferHandle buffer = drawer.buffer();
  // One red line across row 20 and enough green ones (down column 40) to outgrow 512 bytes.
  auto ndc = [](uint32_t pixel) { return 2.0f * (pixel + 0.5f) / 64.0f - 1.0f; };
  debugdraw::LineList lines;
  lines.line({-1, -ndc(20), 0}, {1, -ndc(20), 0}, debugdraw::kRed);
  for (int i = 0; i < 40; ++i) lines.line({ndc(40), -1, 0}, {ndc(40), 1, 0}, debugdraw::kGreen);
  ASSERT_TRUE(drawer.upload(lines, present::Mat4::identity()));
  ASSERT_EQ(drawer.grows(), 1u);
  ASSERT_EQ(drawer.buffer(), buffer);
  auto draw = [&](WGPURenderPassEncoder pass) { drawer.draw(pass); };
  auto expect_lines = [&](const char* when) {
    const present::Image image = read(*colour);
    ASSERT_EQ(image.width, 64u);
    EXPECT_EQ(image.pixel(10, 20), kRed) << when;
    EXPECT_EQ(image.pixel(40, 50), kGreen) << when;
    EXPECT_EQ(image.pixel(10, 50), kBlack) << when << ": nothing drawn there";
  };
  frame(*colour, &*depth, {0, 0, 0, 1}, draw);
  expect_lines("before the loss");

  lose_and_poll_until_ready(*engine);
  ASSERT_EQ(reg.slot_state(buffer), resources::SlotState::Live) << "the grown buffer was made again";
  EXPECT_EQ(reg.procs().BufferGetSize(*reg.resolve(buffer)), drawer.capacity_bytes());
  EXPECT_THAT(heard.rebuilt.back().awaiting_owner, IsEmpty());
  EXPECT_THAT(heard.rebuilt.back().failed, IsEmpty());
  // Drawn before the next upload: the rebuild wrote the last upload's lines back.
  frame(*colour, &*depth, {0, 0, 0, 1}, draw);
  expect_lines("after the loss, before an upload");
  ASSERT_TRUE(drawer.upload(lines, present::Mat4::identity()));
  frame(*colour, &*depth, {0, 0, 0, 1}, draw);
  expect_lines("after the loss and an upload");
  created->reset();
  colour->destroy();
  depth->destroy();
}

// Every kind at once: after the loss nothing the helpers made waits for its owner, and nothing failed.
TEST_F(KindsAcrossLoss, NothingTheHelpersMadeAwaitsItsOwnerAfterALoss) {
  resources::Registry& reg = engine->registry();
  auto target = present::RenderTarget::create(reg, {.width = 16, .height = 16});
  ASSERT_TRUE(target);
  ASSERT_TRUE(target->resize(24, 8));
  auto depth = present::RenderTarget::create(reg, present::depth_target(16, 16));
  ASSERT_TRUE(depth);
  ASSERT_TRUE(depth->resize(24, 8));
  auto drawer = debugdraw::DebugDrawer::create(reg, {.initial_capacity_bytes = 512});
  ASSERT_TRUE(drawer);
  debugdraw::LineList lines;
  for (int i = 0; i < 40; ++i) lines.line({0, 0, 0}, {1, 1, 0}, debugdraw::kWhite);
  ASSERT_TRUE((*drawer)->upload(lines, present::Mat4::identity()));
  ASSERT_EQ((*drawer)->grows(), 1u);
  auto layer = TileLayer::create(*engine, {.tile_size = 64, .budget_bytes = 64 * 64 * 4 * 2 * 4, .in_flight_headroom = 2});
  ASSERT_TRUE(layer) << layer.error().message;

  lose_and_poll_until_ready(*engine);
  ASSERT_EQ(heard.rebuilt.size(), 1u);
  EXPECT_THAT(heard.rebuilt[0].awaiting_owner, IsEmpty());
  EXPECT_THAT(heard.rebuilt[0].failed, IsEmpty());
  EXPECT_EQ(reg.report_awaiting_owner(), 0u);
  for (TextureHandle t : {target->texture(), depth->texture(), (*layer)->array().texture()}) {
    EXPECT_EQ(reg.slot_state(t), resources::SlotState::Live) << *reg.label(t);
  }
  for (TextureViewHandle v : {target->view(), depth->view(), (*layer)->array().sampled_view()}) {
    EXPECT_EQ(reg.slot_state(v), resources::SlotState::Live) << *reg.label(v);
  }
  EXPECT_EQ(reg.slot_state((*drawer)->buffer()), resources::SlotState::Live);
  layer->reset();
  drawer->reset();
  target->destroy();
  depth->destroy();
}

// ---- a window the engine presents to ------------------------------------------------------------

// The engine owns presentation (ADR 0056): a target made with present_to follows every device
// generation by itself (a new surface each, ADR 0012), with no observer of the application's.
class PresentTargetAcrossLoss : public ::testing::Test {
 protected:
  // A window needs an X server: this suite's program gets a private Xvfb before its first adapter.
  static void SetUpTestSuite() {
    if (!testing::display_withheld()) testing::use_xvfb_display();
  }
  void SetUp() override {
    WARDEN_SKIP_WITHOUT_DISPLAY();
    engine = make_engine(engine_options(gpu::BackendChoice::GL));
    ASSERT_NE(engine, nullptr);
    auto opened = present::Window::open({.title = "present target", .width = 64, .height = 48});
    ASSERT_TRUE(opened) << opened.error().message;
    window = std::move(*opened);
  }
  // Acquires a frame, clears it through the engine, reads it back and presents it.
  present::Image present_cleared(PresentTarget& target, WGPUColor clear) {
    auto acquired = target.acquire();
    EXPECT_TRUE(acquired) << acquired.error().message;
    if (!acquired || !acquired->has_value()) return {};
    const present::SwapchainImage frame = **acquired;
    auto begun = engine->begin_frame();
    EXPECT_TRUE(begun) << begun.error().message;
    if (!begun) return {};
    auto view = begun->use(frame.view);
    EXPECT_TRUE(view) << view.error().message;
    if (!view) return {};
    WGPURenderPassEncoder pass = gpu::begin_clear_pass(engine->procs(), begun->encoder(), *view, clear);
    engine->procs().RenderPassEncoderEnd(pass);
    engine->procs().RenderPassEncoderRelease(pass);
    EXPECT_TRUE(engine->submit(std::move(*begun)));
    auto image = present::read_image(engine->context(), engine->device(), engine->queue(), frame.texture);
    EXPECT_TRUE(image) << image.error().message;
    EXPECT_TRUE(target.present());
    return image ? std::move(*image) : present::Image{};
  }
  std::unique_ptr<Engine> engine;
  std::unique_ptr<present::Window> window;
};

TEST_F(PresentTargetAcrossLoss, FramesArePresentedOnEveryDeviceAndThePresentedDeviceIsReleasedNeverDestroyed) {
  auto target = engine->present_to(window->surface_source(), 64, 48);
  ASSERT_TRUE(target) << target.error().message;
  // Known before the first frame: what the application builds its pipelines for.
  EXPECT_NE((*target)->format(), WGPUTextureFormat_Undefined);
  EXPECT_FALSE((*target)->capabilities().formats.empty());
  EXPECT_EQ((*target)->counters().frames_acquired, 0u);

  const present::Image red = present_cleared(**target, {1, 0, 0, 1});
  ASSERT_EQ(red.width, 64u);
  EXPECT_THAT(pixels(red), Each(kRed));
  lose_and_poll_until_ready(*engine);
  EXPECT_TRUE((*target)->attached());
  EXPECT_EQ((*target)->counters().surfaces_created, 2u) << "a new surface for the new device";
  EXPECT_EQ(engine->diagnostics().count(MessageId::SlotAwaitsOwner), 0u);
  const present::Image green = present_cleared(**target, {0, 1, 0, 1});
  ASSERT_EQ(green.width, 64u);
  EXPECT_THAT(pixels(green), Each(kGreen));
  EXPECT_EQ((*target)->counters().frames_presented, 2u);
  // The first device presented: it was let go by release, never by destroy (ADR 0051).
  ASSERT_FALSE(engine->controller().device_ends().empty());
  const device::DeviceEndRecord& first = engine->controller().device_ends().front();
  EXPECT_TRUE(first.presented);
  EXPECT_EQ(first.ended, device::DeviceEnd::Release);
}

// A frame acquired when the device is lost is ended by the target, in the let-go phase, before
// the registry's walk: its view's handle dies, nothing is left awaiting an owner, and the next
// device's frames come as usual.
TEST_F(PresentTargetAcrossLoss, AFrameAcquiredAtALossIsEndedByTheTarget) {
  auto target = engine->present_to(window->surface_source(), 64, 48);
  ASSERT_TRUE(target) << target.error().message;
  auto acquired = (*target)->acquire();
  ASSERT_TRUE(acquired && acquired->has_value());
  const TextureViewHandle view = (**acquired).view;
  ASSERT_TRUE(engine->registry().is_alive(view));
  ASSERT_TRUE(engine->force_device_loss("a frame in flight"));
  EXPECT_TRUE(engine->registry().is_alive(view)) << "nothing goes before the next poll";
  engine->poll();
  EXPECT_FALSE(engine->registry().is_alive(view));
  EXPECT_FALSE((*target)->attached());
  EXPECT_THAT((*target)->present(), testing::FailsWith(MessageId::SwapchainPresentWithoutFrame));
  EXPECT_THAT((*target)->acquire(), testing::FailsWith(MessageId::SwapchainAcquireDetached));
  ASSERT_TRUE(testing::poll_until([&] { return engine->state() == EngineState::Ready; }, [&] { engine->poll(); }));
  const present::Image blue = present_cleared(**target, {0, 0, 1, 1});
  EXPECT_THAT(pixels(blue), Each(kBlue));
  EXPECT_EQ(engine->diagnostics().count(MessageId::SlotAwaitsOwner), 0u);
}

// A target made while the device is lost attaches to the next one; one destroyed stops following;
// one that outlives its engine refuses every call.
TEST_F(PresentTargetAcrossLoss, ATargetMadeWhileLostAttachesToTheNextDeviceAndOneOutlivingItsEngineRefuses) {
  ASSERT_TRUE(engine->force_device_loss("before the window"));
  auto target = engine->present_to(window->surface_source(), 64, 48);
  ASSERT_TRUE(target) << target.error().message;
  EXPECT_FALSE((*target)->attached());
  auto other = engine->present_to(window->surface_source(), 64, 48);
  ASSERT_TRUE(other) << other.error().message;
  other->reset();  // destroyed before the next device: nothing attaches it
  ASSERT_TRUE(testing::poll_until([&] { return engine->state() == EngineState::Ready; }, [&] { engine->poll(); }));
  EXPECT_TRUE((*target)->attached());
  EXPECT_NE((*target)->format(), WGPUTextureFormat_Undefined);
  EXPECT_THAT(pixels(present_cleared(**target, {1, 0, 0, 1})), Each(kRed));
  engine.reset();
  EXPECT_FALSE((*target)->attached());
  EXPECT_THAT((*target)->acquire(), testing::FailsWith(MessageId::PresentTargetEngineGone));
  EXPECT_THAT((*target)->present(), testing::FailsWith(MessageId::PresentTargetEngineGone));
}

// Application code re-entering around a target: on_ready forces a loss while the target is
// attached (its device ends before a frame; the target goes with it and comes back on the next),
// and an observer destroys a second target when it hears the loss. Frames are presented at the
// end as ever.
TEST_F(PresentTargetAcrossLoss, ALossForcedInOnReadyAndATargetDestroyedByAnObserverLeaveTheOtherPresenting) {
  engine.reset();  // made again below, with an on_ready of this test's
  Engine* e = nullptr;
  int forced_in_ready = 0;
  EngineCallbacks callbacks;
  callbacks.on_ready = [&](uint64_t generation) {
    if (generation == 2 && e->force_device_loss("inside on_ready").ok()) ++forced_in_ready;
  };
  engine = make_engine(engine_options(gpu::BackendChoice::GL), std::move(callbacks));
  ASSERT_NE(engine, nullptr);
  e = engine.get();
  auto kept = engine->present_to(window->surface_source(), 64, 48);
  ASSERT_TRUE(kept) << kept.error().message;
  auto doomed = engine->present_to(window->surface_source(), 64, 48);
  ASSERT_TRUE(doomed) << doomed.error().message;
  struct DestroysOnLoss : GenerationObserver {
    std::unique_ptr<PresentTarget>* target = nullptr;
    void device_lost(uint64_t) override { target->reset(); }
    void device_ready(uint64_t) override {}
  } observer;
  observer.target = &*doomed;
  engine->add_observer(observer);
  lose_and_poll_until_ready(*engine);
  EXPECT_EQ(forced_in_ready, 1);
  EXPECT_EQ(engine->device_generation(), 3u);
  EXPECT_EQ(*doomed, nullptr);
  EXPECT_TRUE((*kept)->attached());
  EXPECT_EQ((*kept)->counters().surfaces_created, 3u) << "one surface for each device shown";
  EXPECT_THAT(pixels(present_cleared(**kept, {0, 1, 0, 1})), Each(kGreen));
  engine->remove_observer(observer);
}

// ---- what still awaits its owner -----------------------------------------------------------------

TEST(AwaitingOwner, AnAdoptedObjectStillLostAfterTheRebuildIsAWarningNamingItBeforeOnReady) {
  std::vector<std::string> order;
  std::vector<Diagnostic> warnings;
  EngineCallbacks callbacks;
  callbacks.on_rebuilt = [&](const resources::RebuildReport&) { order.push_back("on_rebuilt"); };
  callbacks.on_ready = [&](uint64_t generation) { order.push_back("on_ready " + std::to_string(generation)); };
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null), std::move(callbacks));
  ASSERT_NE(engine, nullptr);
  engine->diagnostics().set_sink([&](const Diagnostic& d) {
    if (d.id != MessageId::SlotAwaitsOwner) return;
    warnings.push_back(d);
    order.push_back("warning");
  });
  const WGPUSamplerDescriptor d = warden::testing::nearest_clamp_sampler();
  auto adopted = engine->registry().adopt_sampler(engine->procs().DeviceCreateSampler(engine->device(), &d), "app sampler");
  ASSERT_TRUE(adopted);

  lose_and_poll_until_ready(*engine);
  EXPECT_THAT(order, ElementsAre("on_ready 1", "on_rebuilt", "warning", "on_ready 2"));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].severity, Severity::Warning);
  EXPECT_THAT(warnings[0].message, HasSubstr(fmt::format("sampler \"app sampler\" (index {}, generation {})",
                                                         adopted->index(), adopted->generation())));
  EXPECT_THAT(warnings[0].message, HasSubstr("replace_sampler"));
  engine->diagnostics().set_sink({});
  ASSERT_TRUE(engine->registry().destroy_sampler(*adopted));
}

TEST(AwaitingOwner, AnObjectItsOwnerReSuppliesInOnRebuiltIsNotWarnedAbout) {
  Engine* e = nullptr;
  SamplerHandle adopted;
  EngineCallbacks callbacks;
  callbacks.on_rebuilt = [&](const resources::RebuildReport& report) {
    ASSERT_THAT(report.awaiting_owner, ElementsAre("sampler \"app sampler\""));
    const WGPUSamplerDescriptor d = warden::testing::nearest_clamp_sampler();
    ASSERT_TRUE(e->registry().replace_sampler(adopted, e->procs().DeviceCreateSampler(e->device(), &d)));
  };
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null), std::move(callbacks));
  ASSERT_NE(engine, nullptr);
  e = engine.get();
  const WGPUSamplerDescriptor d = warden::testing::nearest_clamp_sampler();
  auto made = engine->registry().adopt_sampler(engine->procs().DeviceCreateSampler(engine->device(), &d), "app sampler");
  ASSERT_TRUE(made);
  adopted = *made;
  lose_and_poll_until_ready(*engine);
  EXPECT_EQ(engine->registry().slot_state(adopted), resources::SlotState::Live);
  EXPECT_EQ(engine->diagnostics().count(MessageId::SlotAwaitsOwner), 0u);
  ASSERT_TRUE(engine->registry().destroy_sampler(adopted));
}

}  // namespace
}  // namespace warden::engine
