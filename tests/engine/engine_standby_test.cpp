// The standby device (EngineOptions::standby_device), on the real library: a spare device is
// asked for after the shown device's first frame, a loss is recovered on it without a device
// request, the next spare is asked for after the recovered device's first frame, and a spare
// lost while it waits is let go and never adopted. The spare gets the registry's modules, layouts
// and pipelines ahead of the loss (ADR 0034): the recovery onto it takes them, and a replacement
// in between releases them, so the recovery never draws with what was replaced.
#include "warden/engine/engine.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "support/engine_fixture.h"
#include "support/gpu_test.h"
#include "warden/gpu/objects.h"
#include "warden/pipelines/build.h"
#include "warden/present/readback.h"

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

// Submits `frame`, then reads back the target's first texel (empty when that failed).
std::vector<uint8_t> submit_and_read(Engine& engine, Frame frame, const Target& target) {
  EXPECT_TRUE(engine.submit(std::move(frame)).ok());
  std::vector<uint8_t> texels = testing::read_rgba8(engine, target.texture, kStandbyTargetSize, kStandbyTargetSize);
  if (texels.size() < 4) return {};
  return {texels.begin(), texels.begin() + 4};
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
  return submit_and_read(engine, std::move(frame.value()), target);
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
  // Not by comparing pointers: the lost spare is released before the next device is made, and
  // the allocator may give that device the same address (it did on the H200's Vulkan).
  EXPECT_EQ(engine->counters().standby_takeovers, 0u) << "a lost spare was adopted";
  EXPECT_EQ(engine->counters().objects_prepared_taken, 0u) << "objects of the lost spare were taken";
  EXPECT_EQ(engine->counters().recoveries, 1u);
  EXPECT_THAT(testing::draw_green(*engine, target.texture, target.view, kStandbyTargetSize, kStandbyTargetSize), ElementsAre(0, 255, 0, 255));
  ASSERT_TRUE(poll_until_standby(*engine)) << "no new standby after the recovery's first frame";
}

// ---- draws rehearsed on the spare (ADR 0044) ----------------------------------------------------

// A full-target triangle sampling its group's texture at level 0 (tinted by a dynamic-offset
// uniform), and the same reading a 2D array.
constexpr const char* kSampledShader = R"(
struct Tint { value : vec4<f32> };
@group(0) @binding(0) var<uniform> tint : Tint;
@group(0) @binding(1) var t : texture_2d<f32>;
@group(0) @binding(2) var s : sampler;
@vertex fn vs(@builtin(vertex_index) i : u32) -> @builtin(position) vec4<f32> {
  let xy = array<vec2<f32>, 3>(vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));
  return vec4<f32>(xy[i], 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4<f32> {
  return textureSampleLevel(t, s, vec2<f32>(0.5, 0.5), 0.0) * tint.value;
}
)";
constexpr const char* kArrayShader = R"(
@group(0) @binding(0) var t : texture_2d_array<f32>;
@group(0) @binding(1) var s : sampler;
@vertex fn vs(@builtin(vertex_index) i : u32) -> @builtin(position) vec4<f32> {
  let xy = array<vec2<f32>, 3>(vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));
  return vec4<f32>(xy[i], 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4<f32> { return textureSampleLevel(t, s, vec2<f32>(0.5, 0.5), 0, 0.0); }
)";

template <typename T>
T made(Result<T> result) {
  EXPECT_TRUE(result.ok()) << result.error().message;
  return result.ok() ? *result : T{};
}

struct SampledScene {
  RenderPipelineHandle plain;      // layout A, RGBA8 target
  RenderPipelineHandle deep;       // layout A, a depth-stencil attachment, blending, a vertex buffer
  RenderPipelineHandle msaa;       // layout A, 4 samples
  RenderPipelineHandle depth_only; // layout A, no fragment stage: a Depth32Float attachment alone
  RenderPipelineHandle unbound;    // layout B: no group was made with it
  RenderPipelineHandle too_large;  // layout C: its only group's stand-in would be 8 MiB
  BindGroupHandle green_group;     // layout A, the 64x64 chain that is green at level 0
};

// Three groups of layout A (two alike, one of another format, size and sampler), the pipelines
// above, and the solid one ("auto" layout).
SampledScene make_sampled_scene(Engine& engine) {
  resources::Registry& reg = engine.registry();
  SampledScene scene;
  auto module = made(reg.create_shader_module({kSampledShader, "sampled"}));
  const resources::LayoutEntry a_entries[] = {
      {.binding = 0, .visibility = WGPUShaderStage_Fragment, .type = resources::BufferLayout{.has_dynamic_offset = true}},
      {.binding = 1, .visibility = WGPUShaderStage_Fragment, .type = resources::TextureLayout{}},
      {.binding = 2, .visibility = WGPUShaderStage_Fragment, .type = resources::SamplerLayout{}},
  };
  auto layout_a = made(reg.create_bind_group_layout(pipelines::translate_layout_entries(a_entries), "layout A"));
  auto layout_b = made(reg.create_bind_group_layout(pipelines::translate_layout_entries(a_entries), "layout B"));
  BindGroupLayoutHandle just_a[] = {layout_a};
  BindGroupLayoutHandle just_b[] = {layout_b};
  auto pipeline_layout_a = made(reg.create_pipeline_layout(just_a, "pipeline layout A"));
  auto pipeline_layout_b = made(reg.create_pipeline_layout(just_b, "pipeline layout B"));

  resources::RenderPipelineDescription plain{.label = "plain", .layout = pipeline_layout_a, .vertex = {module, "vs", {}}};
  plain.fragment = resources::ShaderStage{module, "fs", {}};
  plain.targets = {resources::ColorTarget{}};
  scene.plain = made(reg.create_render_pipeline(plain));
  resources::RenderPipelineDescription deep = plain;
  deep.label = "deep";
  deep.depth = resources::DepthState{.format = WGPUTextureFormat_Depth24PlusStencil8};
  deep.vertex_buffers = {resources::VertexLayout{.stride = 8, .attributes = {{WGPUVertexFormat_Float32x2, 0, 5}}}};
  deep.targets = {resources::ColorTarget{.blend = WGPUBlendState{
                                              .color = {WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlpha,
                                                        WGPUBlendFactor_OneMinusSrcAlpha},
                                              .alpha = {WGPUBlendOperation_Add, WGPUBlendFactor_One,
                                                        WGPUBlendFactor_Zero}}}};
  scene.deep = made(reg.create_render_pipeline(deep));
  resources::RenderPipelineDescription msaa = plain;
  msaa.label = "msaa";
  msaa.sample_count = 4;
  scene.msaa = made(reg.create_render_pipeline(msaa));
  resources::RenderPipelineDescription depth_only = plain;
  depth_only.label = "depth only";
  depth_only.fragment.reset();
  depth_only.targets.clear();
  depth_only.depth = resources::DepthState{.format = WGPUTextureFormat_Depth32Float};
  scene.depth_only = made(reg.create_render_pipeline(depth_only));
  resources::RenderPipelineDescription unbound = plain;
  unbound.label = "unbound";
  unbound.layout = pipeline_layout_b;
  scene.unbound = made(reg.create_render_pipeline(unbound));

  auto tint = made(reg.create_buffer({256, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, false, "tint"}));
  const float ones[4] = {1, 1, 1, 1};
  EXPECT_TRUE(reg.write_buffer(tint, 0, ones, sizeof ones).ok());
  auto linear = made(reg.create_sampler({.min_filter = WGPUFilterMode_Linear, .label = "linear"}));
  auto nearest = made(reg.create_sampler({.label = "nearest"}));
  auto group = [&](TextureViewHandle view, SamplerHandle sampler, const char* label) {
    return made(reg.create_bind_group(
        {layout_a, {{0, resources::BufferBinding{tint, 0, 16}}, {1, view}, {2, sampler}}, std::string(label)}));
  };
  // A 64x64 chain, green at level 0 (kept: the recovery writes it back).
  auto chain = made(reg.create_texture({.size = {64, 64, 1},
                                        .usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst,
                                        .mip_level_count = 7,
                                        .label = "green chain"}));
  std::vector<uint8_t> green(64 * 64 * 4);
  for (size_t i = 0; i < green.size(); i += 4) {
    green[i + 1] = 255;
    green[i + 3] = 255;
  }
  EXPECT_TRUE(reg.write_texture(chain, {.size = {64, 64, 1}, .bytes_per_row = 64 * 4}, green.data(), green.size()).ok());
  auto chain_view = made(reg.create_texture_view(chain));
  scene.green_group = group(chain_view, linear, "green group");
  (void)group(chain_view, linear, "the same state again");
  // Another format, sides that are not powers of two, one level, another sampler.
  auto odd = made(reg.create_texture({.size = {48, 20, 1},
                                      .format = WGPUTextureFormat_RGBA16Float,
                                      .usage = WGPUTextureUsage_TextureBinding,
                                      .label = "odd",
                                      .contents = resources::ContentsSource::None}));
  (void)group(made(reg.create_texture_view(odd)), nearest, "odd group");

  // Layout C: a 2048x1 chain of 12 levels in 256 layers of RGBA16Float, whose stand-in keeps all
  // of that (8 MiB) and so is not made.
  auto array_module = made(reg.create_shader_module({kArrayShader, "array"}));
  const resources::LayoutEntry c_entries[] = {
      {.binding = 0, .visibility = WGPUShaderStage_Fragment,
       .type = resources::TextureLayout{.view_dimension = WGPUTextureViewDimension_2DArray}},
      {.binding = 1, .visibility = WGPUShaderStage_Fragment, .type = resources::SamplerLayout{}},
  };
  auto layout_c = made(reg.create_bind_group_layout(pipelines::translate_layout_entries(c_entries), "layout C"));
  BindGroupLayoutHandle just_c[] = {layout_c};
  resources::RenderPipelineDescription large{.label = "too large",
                                             .layout = made(reg.create_pipeline_layout(just_c, "pipeline layout C")),
                                             .vertex = {array_module, "vs", {}}};
  large.fragment = resources::ShaderStage{array_module, "fs", {}};
  large.targets = {resources::ColorTarget{}};
  scene.too_large = made(reg.create_render_pipeline(large));
  auto layers = made(reg.create_texture({.size = {2048, 1, 256},
                                         .format = WGPUTextureFormat_RGBA16Float,
                                         .usage = WGPUTextureUsage_TextureBinding,
                                         .mip_level_count = 12,
                                         .label = "layers",
                                         .contents = resources::ContentsSource::None}));
  auto layers_view = made(reg.create_texture_view(layers, {.dimension = WGPUTextureViewDimension_2DArray}));
  (void)made(reg.create_bind_group({layout_c, {{0, layers_view}, {1, nearest}}, std::string("layers group")}));
  return scene;
}

// Draws `group` (layout A's, green at level 0) with `pipeline` over the target; its first texel.
std::vector<uint8_t> draw_sampled(Engine& engine, const Target& target, RenderPipelineHandle pipeline,
                                  BindGroupHandle group) {
  auto frame = engine.begin_frame();
  EXPECT_TRUE(frame.ok()) << frame.error().message;
  if (!frame.ok()) return {};
  const gpu::Procs& p = engine.procs();
  WGPURenderPassEncoder pass = gpu::begin_clear_pass(p, frame->encoder(), *engine.registry().resolve(target.view));
  p.RenderPassEncoderSetPipeline(pass, *engine.registry().resolve(pipeline));
  const uint32_t offset = 0;
  p.RenderPassEncoderSetBindGroup(pass, 0, *engine.registry().resolve(group), 1, &offset);
  p.RenderPassEncoderDraw(pass, 3, 1, 0, 0);
  p.RenderPassEncoderEnd(pass);
  p.RenderPassEncoderRelease(pass);
  return submit_and_read(engine, std::move(frame.value()), target);
}

bool draws_make_code(const Engine& engine) {
  return engine.backend() == WGPUBackendType_OpenGL || engine.backend() == WGPUBackendType_OpenGLES;
}

TEST(StandbyDevice, TheSpareDrawsEachPipelineOnceForEachBoundStateWithStandIns) {
  auto engine = make_engine(standby_options());
  ASSERT_NE(engine, nullptr);
  const Target target = make_target(*engine);
  const Solid solid = make_solid(*engine);  // "auto" layout: not rehearsed
  const SampledScene scene = make_sampled_scene(*engine);
  EXPECT_THAT(draw_solid(*engine, target, solid.pipeline), ElementsAre(255, 0, 0, 255));
  ASSERT_TRUE(poll_until_prepared(*engine));

  const resources::DrawRehearsal rehearsal = engine->registry().last_rehearsal();
  EXPECT_EQ(rehearsal.error, "");
  if (draws_make_code(*engine)) {
    // plain, deep, msaa and depth only, each with the two distinct states of layout A's three
    // groups.
    EXPECT_EQ(rehearsal.draws, 8u);
    EXPECT_EQ(rehearsal.pipelines, 4u);
    EXPECT_EQ(rehearsal.pipelines_skipped, 3u) << "solid (auto layout), unbound, too large";
    EXPECT_EQ(engine->counters().standby_rehearsed_draws, 8u);
  } else {
    EXPECT_EQ(rehearsal.draws, 0u) << "pipelines there are made whole at creation";
    EXPECT_EQ(rehearsal.pipelines_skipped, 0u);
    EXPECT_EQ(engine->counters().standby_rehearsed_draws, 0u);
  }
  EXPECT_EQ(engine->counters().uncaptured_errors, 0u);
  EXPECT_EQ(engine->registry().prepared_count(), 16u) << "3 modules, 3 + 3 layouts, 7 pipelines";

  // The recovery onto the spare draws the application's texture, not a stand-in's texels.
  ASSERT_TRUE(engine->force_device_loss("the standby test pulls the plug").ok());
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
  EXPECT_EQ(engine->counters().standby_takeovers, 1u);
  EXPECT_THAT(draw_sampled(*engine, target, scene.plain, scene.green_group), ElementsAre(0, 255, 0, 255));
  EXPECT_EQ(engine->counters().uncaptured_errors, 0u);
}

// ---- textures made on the spare within a budget (ADR 0045) --------------------------------------

// An engine whose spare holds the sampled scene's modules, layouts and pipelines and, within
// `texture_bytes`, its textures: made, drawn once, and polled until the spare is prepared. The
// engine is null after a failure (reported).
struct PreparedScene {
  std::unique_ptr<Engine> engine;
  Target target;
  SampledScene scene;
};
// The polls after the preparation: one measures the upload paths on the spare, the next stages
// the kept contents (one step holds this scene's).
constexpr int kPollsAfterPreparation = 2;

PreparedScene prepare_sampled_scene(uint64_t texture_bytes,
                                    resources::ContentsUpload upload = resources::ContentsUpload::Auto,
                                    uint64_t contents_step_bytes = EngineOptions{}.standby_contents_step_bytes) {
  EngineOptions options = standby_options();
  options.standby_texture_bytes = texture_bytes;
  options.standby_contents_step_bytes = contents_step_bytes;
  options.registry.contents_upload = upload;
  PreparedScene made{make_engine(options), {}, {}};
  if (made.engine == nullptr) return made;
  made.target = make_target(*made.engine);
  made.scene = make_sampled_scene(*made.engine);
  EXPECT_THAT(draw_sampled(*made.engine, made.target, made.scene.plain, made.scene.green_group),
              ElementsAre(0, 255, 0, 255));
  if (!poll_until_prepared(*made.engine)) {
    ADD_FAILURE() << "the spare was never prepared";
    made.engine.reset();
  }
  return made;
}

void poll_after_preparation(Engine& engine, int polls = kPollsAfterPreparation) {
  for (int i = 0; i < polls; ++i) engine.poll();
}

// Polls until Engine::standby_prepared(): every step of the spare's preparation done.
bool poll_until_standby_prepared(Engine& engine) {
  return testing::poll_until([&] { return engine.standby_prepared(); }, [&] { engine.poll(); });
}

TEST(StandbyDevice, TexturesWithinTheBudgetAreMadeOnTheSpareAndTheRecoveryWritesTheirContents) {
  // In creation order: the target (4x4 RGBA8: 64 bytes), the green chain (64x64 RGBA8, 7 levels:
  // 21,844), "odd" (48x20 RGBA16Float: 7,680), "layers" (2048x1, 12 levels, 256 layers of
  // RGBA16Float: over 8 MB).
  struct Case {
    uint64_t budget;
    size_t textures;
    uint64_t bytes;
  };
  for (const Case& c : {Case{30'000, 3, 64 + 21'844 + 7'680}, Case{20'000, 2, 64 + 7'680}, Case{0, 0, 0}}) {
    SCOPED_TRACE(fmt::format("a budget of {} bytes", c.budget));
    auto [engine, target, scene] = prepare_sampled_scene(c.budget);
    ASSERT_NE(engine, nullptr);
    EXPECT_EQ(engine->registry().prepared_texture_bytes(), c.bytes);
    EXPECT_EQ(engine->registry().prepared_count(), 14u + c.textures) << "2 modules, 3 + 3 layouts, 6 pipelines";

    ASSERT_TRUE(engine->force_device_loss("the standby test pulls the plug").ok());
    ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
    EXPECT_EQ(engine->counters().standby_takeovers, 1u);
    EXPECT_EQ(engine->last_rebuild().prepared_taken, 14u + c.textures);
    EXPECT_TRUE(engine->last_rebuild().failed.empty());
    // The chain's kept texels were written into whichever texture the recovery took or made.
    EXPECT_THAT(draw_sampled(*engine, target, scene.plain, scene.green_group), ElementsAre(0, 255, 0, 255));
    EXPECT_EQ(engine->counters().uncaptured_errors, 0u);
  }
}

// ADR 0058: with staging as the path, the preparation stages the kept contents on the spare and
// the recovery only copies them; the frame after the loss samples them as before.
TEST(StandbyDevice, KeptContentsStagedOnTheSpareAreCopiedByTheRecoveryAndDrawTheSame) {
  auto [engine, target, scene] = prepare_sampled_scene(0, resources::ContentsUpload::Staging);
  ASSERT_NE(engine, nullptr);
  EXPECT_EQ(engine->registry().prepared_contents_bytes(), 0u) << "the preparation's own poll stages nothing";
  EXPECT_FALSE(engine->standby_prepared());
  ASSERT_TRUE(poll_until_standby_prepared(*engine));
  EXPECT_EQ(engine->counters().standby_upload_measurements, 0u) << "the path was named, not measured";
  const uint64_t staged = engine->registry().prepared_contents_bytes();
  EXPECT_GT(staged, 0u);

  ASSERT_TRUE(engine->force_device_loss("the standby test pulls the plug").ok());
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
  EXPECT_EQ(engine->counters().standby_takeovers, 1u);
  const resources::RebuildTimings& timings = engine->last_rebuild().timings;
  EXPECT_EQ(timings.contents_upload, resources::ContentsUpload::Staging);
  EXPECT_EQ(timings.staged_ahead_bytes, staged);
  EXPECT_GE(timings.staged_bytes, staged);
  EXPECT_THAT(draw_sampled(*engine, target, scene.plain, scene.green_group), ElementsAre(0, 255, 0, 255));
  EXPECT_EQ(engine->counters().uncaptured_errors, 0u);
}

// A poll stages at most standby_contents_step_bytes on the spare (one subresource larger than
// that goes alone): with a step of one byte, each poll after the measurement stages one kept
// subresource (the green chain's level 0, then three small textures'), in creation order, until
// all are staged; the recovery then copies every one of them.
// Three 4x4 textures whose kept texels are 40, 80 and 120; check_small_textures reads them back.
std::vector<TextureHandle> make_small_textures(resources::Registry& reg) {
  std::vector<TextureHandle> small;
  for (uint8_t shade : {40, 80, 120}) {
    auto texture = reg.create_texture({.size = {4, 4, 1},
                                       .usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst |
                                                WGPUTextureUsage_CopySrc,
                                       .label = fmt::format("small {}", shade)});
    EXPECT_TRUE(texture.ok()) << texture.error().message;
    if (!texture) return {};
    const std::vector<uint8_t> texels(4 * 4 * 4, shade);
    EXPECT_TRUE(reg.write_texture(*texture, {.size = {4, 4, 1}}, texels.data(), texels.size()).ok());
    small.push_back(*texture);
  }
  return small;
}
void check_small_textures(Engine& engine, const std::vector<TextureHandle>& small) {
  ASSERT_EQ(small.size(), 3u);
  for (size_t i = 0; i < small.size(); ++i) {
    auto image = present::read_image(engine.context(), engine.registry(), small[i]);
    ASSERT_TRUE(image.ok()) << image.error().message;
    EXPECT_EQ(image->rgba.front(), 40 * (i + 1)) << "small texture " << i;
    EXPECT_EQ(image->rgba.back(), 40 * (i + 1)) << "small texture " << i;
  }
}

TEST(StandbyDevice, KeptContentsAreStagedOnTheSpareAStepAPoll) {
  auto [engine, target, scene] = prepare_sampled_scene(0, resources::ContentsUpload::Staging, 1);
  ASSERT_NE(engine, nullptr);
  resources::Registry& reg = engine->registry();
  const std::vector<TextureHandle> small = make_small_textures(reg);
  // Made after the preparation: staging takes the kept contents live when it runs.
  poll_after_preparation(*engine, 1);  // the measurement's poll (the path is named: nothing measured)
  std::vector<uint64_t> totals{reg.prepared_contents_bytes()};
  for (int poll = 0; poll < 40 && !engine->standby_prepared(); ++poll) {
    engine->poll();
    totals.push_back(reg.prepared_contents_bytes());
  }
  ASSERT_TRUE(engine->standby_prepared());
  EXPECT_EQ(totals.front(), 0u);
  // One subresource a poll, then a poll that finds nothing more and calls the spare prepared.
  EXPECT_EQ(totals.size(), 6u) << ::testing::PrintToString(totals);
  for (size_t i = 1; i + 1 < totals.size(); ++i) EXPECT_GT(totals[i], totals[i - 1]) << "poll " << i;
  EXPECT_EQ(totals.back(), totals[totals.size() - 2]);
  const uint64_t staged = reg.prepared_contents_bytes();
  ASSERT_GT(staged, 0u);

  ASSERT_TRUE(engine->force_device_loss("the standby test pulls the plug").ok());
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
  EXPECT_EQ(engine->last_rebuild().timings.staged_ahead_bytes, staged);
  EXPECT_THAT(draw_sampled(*engine, target, scene.plain, scene.green_group), ElementsAre(0, 255, 0, 255));
  check_small_textures(*engine, small);
  EXPECT_EQ(engine->counters().uncaptured_errors, 0u);
}

// A loss in the middle of the steps: the recovery copies what was staged so far and stages the
// rest itself; every texture comes back whole.
TEST(StandbyDevice, ALossWhileContentsAreStagedAStepAPollRecoversEveryTexture) {
  auto [engine, target, scene] = prepare_sampled_scene(0, resources::ContentsUpload::Staging, 1);
  ASSERT_NE(engine, nullptr);
  resources::Registry& reg = engine->registry();
  const std::vector<TextureHandle> small = make_small_textures(reg);
  poll_after_preparation(*engine, 3);  // the measurement's poll, then two subresources staged
  const uint64_t staged = reg.prepared_contents_bytes();
  ASSERT_GT(staged, 0u);
  ASSERT_FALSE(engine->standby_prepared()) << "two of four subresources staged";

  ASSERT_TRUE(engine->force_device_loss("the standby test pulls the plug mid-staging").ok());
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
  EXPECT_EQ(engine->counters().standby_takeovers, 1u);
  EXPECT_EQ(engine->last_rebuild().timings.staged_ahead_bytes, staged);
  EXPECT_GT(engine->last_rebuild().timings.staged_bytes, staged) << "the rest staged by the recovery";
  EXPECT_THAT(draw_sampled(*engine, target, scene.plain, scene.green_group), ElementsAre(0, 255, 0, 255));
  check_small_textures(*engine, small);
  EXPECT_EQ(engine->counters().uncaptured_errors, 0u);
}

// Auto: the engine measures both paths on the spare it prepares, and the recovery onto that spare
// takes the one measured faster (which one depends on the backend: either is a pass).
TEST(StandbyDevice, AutoMeasuresThePathsOnTheSpareAndTheRecoveryTakesOne) {
  auto [engine, target, scene] = prepare_sampled_scene(0);
  ASSERT_NE(engine, nullptr);
  EXPECT_EQ(engine->counters().standby_upload_measurements, 0u) << "not in the preparation's own poll";
  poll_after_preparation(*engine);
  EXPECT_EQ(engine->counters().standby_upload_measurements, 1u);
  poll_after_preparation(*engine);
  EXPECT_EQ(engine->counters().standby_upload_measurements, 1u) << "once a preparation";
  ASSERT_TRUE(engine->force_device_loss("the standby test pulls the plug").ok());
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
  EXPECT_NE(engine->last_rebuild().timings.contents_upload, resources::ContentsUpload::Auto);
  EXPECT_THAT(draw_sampled(*engine, target, scene.plain, scene.green_group), ElementsAre(0, 255, 0, 255));
  EXPECT_EQ(engine->counters().uncaptured_errors, 0u);
}

TEST(StandbyDevice, ADestroyedTextureLetsGoOfItsCopyOnTheSpareAtOnce) {
  auto [engine, target, scene] = prepare_sampled_scene(30'000);  // the target, the green chain, "odd"
  ASSERT_NE(engine, nullptr);
  resources::Registry& reg = engine->registry();
  ASSERT_EQ(reg.prepared_texture_bytes(), 64u + 21'844u + 7'680u);
  ASSERT_EQ(reg.prepared_count(), 17u);

  ASSERT_TRUE(reg.destroy_texture_view(target.view).ok());
  EXPECT_EQ(reg.prepared_count(), 17u) << "views are not made ahead";
  ASSERT_TRUE(reg.destroy_texture(target.texture).ok());
  EXPECT_EQ(reg.prepared_texture_bytes(), 21'844u + 7'680u);
  EXPECT_EQ(reg.prepared_count(), 16u);

  // The recovery takes what is left and asks for nothing the destroyed texture held.
  ASSERT_TRUE(engine->force_device_loss("the standby test pulls the plug").ok());
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
  EXPECT_EQ(engine->counters().standby_takeovers, 1u);
  EXPECT_EQ(engine->last_rebuild().prepared_taken, 16u);
  EXPECT_TRUE(engine->last_rebuild().failed.empty());
  EXPECT_EQ(engine->counters().uncaptured_errors, 0u);
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
