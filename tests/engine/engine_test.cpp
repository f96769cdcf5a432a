// The Engine across device losses, on the real library: the scene of issue 11 rendered, the
// device force-lost, recovered by the engine alone, and rendered again under the same handles.
#include "warden/engine/engine.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>
#include <thread>

#include "support/engine_fixture.h"
#include "support/gpu_test.h"
#include "support/loss_scene.h"
#include "support/messages.h"
#include "warden/gpu/names.h"
#include "support/poll_until.h"

namespace warden::engine {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::FailsWith;
using testing::Heard;
using testing::LossScene;
using testing::engine_options;
using testing::make_engine;


class EngineScene : public ::testing::TestWithParam<resources::ContentsSource> {};

TEST_P(EngineScene, SurvivesAForcedLossByteIdenticalUnderTheSameHandles) {
  const resources::ContentsSource source = GetParam();
  std::vector<const void*> released;
  EngineOptions options = engine_options(testing::pixel_test_backend());
  options.registry.on_release = [&](const resources::ReleaseEvent& e) { released.push_back(e.object); };
  Heard heard;
  auto engine = make_engine(std::move(options), heard.callbacks());
  ASSERT_NE(engine, nullptr);
  resources::Registry& reg = engine->registry();
  const LossScene scene = testing::build_loss_scene(reg, source);
  const std::vector<uint8_t> before = testing::render_loss_scene(reg, engine->context(), scene);
  ASSERT_FALSE(before.empty());
  const resources::LiveCounts counts_before = reg.live_counts();
  const std::vector<const void*> old_objects = testing::resolved_objects(reg, scene);
  EXPECT_THAT(heard.ready, ElementsAre(1u));

  ASSERT_TRUE(engine->force_device_loss("test loss").ok());
  EXPECT_EQ(engine->state(), EngineState::Recovering);
  // Every object of the lost device was let go at the next frame-thread call, before anything
  // else happened.
  engine->poll();
  for (const void* object : old_objects) {
    EXPECT_NE(std::find(released.begin(), released.end(), object), released.end());
  }
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
  EXPECT_THAT(heard.ready, ElementsAre(1u, 2u));
  ASSERT_EQ(heard.lost.size(), 1u);
  EXPECT_EQ(heard.lost[0].first, 1u);
  EXPECT_THAT(heard.lost_messages[0], HasSubstr("test loss"));
  EXPECT_EQ(engine->counters().device_losses, 1u);
  EXPECT_EQ(engine->counters().recoveries, 1u);

  // Exactly the objects whose contents could not come back were named, once.
  ASSERT_EQ(heard.contents_lost.size(), 1u);
  const resources::ContentsLost& lost = heard.contents_lost[0];
  std::set<uint32_t> lost_buffers, lost_textures;
  for (BufferHandle h : lost.buffers) lost_buffers.insert(h.index());
  for (TextureHandle h : lost.textures) lost_textures.insert(h.index());
  // GPU-produced contents (the compute output, the render target, the readback) are always lost.
  std::set<uint32_t> want_buffers{scene.positions.index(), scene.readback.index()};
  std::set<uint32_t> want_textures{scene.target.index()};
  if (source == resources::ContentsSource::None) {
    want_buffers.insert({scene.uvs.index(), scene.uniforms.index()});
    want_textures.insert(scene.texture.index());
    // The application produces them again.
    ASSERT_TRUE(LossScene::write_uvs(reg, scene.uvs).ok());
    ASSERT_TRUE(LossScene::write_uniforms(reg, scene.uniforms).ok());
    ASSERT_TRUE(LossScene::write_texture(reg, scene.texture).ok());
  }
  EXPECT_EQ(lost_buffers, want_buffers);
  EXPECT_EQ(lost_textures, want_textures);

  for (const void* object : testing::resolved_objects(reg, scene)) EXPECT_NE(object, nullptr);
  EXPECT_EQ(reg.live_counts().by_kind, counts_before.by_kind);
  const std::vector<uint8_t> after = testing::render_loss_scene(reg, engine->context(), scene);
  EXPECT_EQ(after, before);
}

INSTANTIATE_TEST_SUITE_P(ContentsFrom, EngineScene,
                         ::testing::Values(resources::ContentsSource::Kept, resources::ContentsSource::Callback, resources::ContentsSource::None),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(EngineLoss, EveryCallBetweenTheLossAndReadyGivesItsDocumentedResult) {
  Heard heard;
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null), heard.callbacks());
  ASSERT_NE(engine, nullptr);
  auto buffer = engine->registry().create_buffer({64, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, false, "u"});
  ASSERT_TRUE(buffer.ok());
  auto early = engine->begin_frame();
  ASSERT_TRUE(early.ok());

  ASSERT_TRUE(engine->force_device_loss().ok());
  const std::string lost = "device lost (device generation 1), rebuilding";
  EXPECT_EQ(engine->state(), EngineState::Recovering);
  EXPECT_EQ(engine->device(), nullptr);
  EXPECT_EQ(engine->queue(), nullptr);
  auto frame = engine->begin_frame();
  ASSERT_THAT(frame, FailsWith(MessageId::EngineDeviceLost));
  EXPECT_EQ(frame.error().kind, ErrorKind::DeviceFailed);
  EXPECT_EQ(frame.error().message, "begin_frame: " + lost);
  auto submitted = engine->submit(std::move(early.value()));
  ASSERT_THAT(submitted, FailsWith(MessageId::EngineFrameFromLostDevice));
  EXPECT_THAT(submitted.error().message, HasSubstr("recorded on device generation 1"));
  auto forced = engine->force_device_loss();
  ASSERT_THAT(forced, FailsWith(MessageId::EngineDeviceLost));
  EXPECT_EQ(forced.error().message, "force_device_loss: " + lost);
  auto loaded = engine->load_shader("/nonexistent.wgsl");
  ASSERT_THAT(loaded, FailsWith(MessageId::EngineDeviceLost));
  EXPECT_THAT(loaded.error().message, HasSubstr(lost));
  // What the registry holds is let go of in the next poll(), not before: a recording thread may
  // still record with what it resolved for this frame (docs/threads.md).
  EXPECT_TRUE(engine->registry().resolve(*buffer).ok());
  engine->poll();
  ASSERT_EQ(engine->state(), EngineState::Recovering);  // the next device is answered in a later poll
  auto resolved = engine->registry().resolve(*buffer);
  ASSERT_THAT(resolved, FailsWith(MessageId::RegistryDeviceLost));
  EXPECT_THAT(resolved.error().message, HasSubstr(lost));
  EXPECT_TRUE(engine->registry().is_alive(*buffer));

  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok());
  EXPECT_EQ(engine->device_generation(), 2u);
  EXPECT_TRUE(engine->registry().resolve(*buffer).ok());
  auto next = engine->begin_frame();
  ASSERT_TRUE(next.ok());
  auto serial = engine->submit(std::move(next.value()));
  ASSERT_TRUE(serial.ok()) << serial.error().message;
  EXPECT_GT(serial->value, 0u);
}

TEST(EngineLoss, ASecondLossForcedInsideTheRebuildEndsCleanlyAndTheNextGenerationRecovers) {
  Heard heard;
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null), heard.callbacks());
  ASSERT_NE(engine, nullptr);
  Engine* e = engine.get();
  std::vector<uint64_t> refilled_on;
  resources::BufferDescription desc{16, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, false, "refilled", resources::ContentsSource::Callback};
  desc.refill = [&](resources::Registry& reg, BufferHandle h) {
    refilled_on.push_back(reg.device_generation());
    // The first rebuild is interrupted by a second loss, from inside it.
    if (reg.device_generation() == 2) {
      EXPECT_TRUE(e->force_device_loss("lost again while rebuilding").ok());
      return;
    }
    const uint32_t word = 7;
    EXPECT_TRUE(reg.write_buffer(h, 0, &word, 4).ok());
  };
  auto buffer = engine->registry().create_buffer(desc);
  ASSERT_TRUE(buffer.ok());

  ASSERT_TRUE(engine->force_device_loss().ok());
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
  EXPECT_THAT(refilled_on, ElementsAre(2u, 3u));
  EXPECT_THAT(heard.ready, ElementsAre(1u, 3u));  // generation 2 was never shown
  EXPECT_EQ(engine->device_generation(), 3u);
  EXPECT_TRUE(engine->registry().resolve(*buffer).ok());
  EXPECT_EQ(engine->registry().slot_state(*buffer), resources::SlotState::Live);
  EXPECT_EQ(engine->rebuild_policy().strikes(device::FaultKind::Lost), 2u);
}

TEST(EngineLoss, WhenThePolicyGivesUpTheEngineSaysWhyOnceAndHandlesStayValid) {
  Heard heard;
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null, 2), heard.callbacks());
  ASSERT_NE(engine, nullptr);
  auto sampler = engine->registry().create_sampler({.label = "kept"});
  ASSERT_TRUE(sampler.ok());
  ASSERT_TRUE(engine->force_device_loss().ok());
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok());
  ASSERT_TRUE(engine->force_device_loss().ok());
  auto waited = engine->wait_until_ready(std::chrono::seconds(2));
  ASSERT_THAT(waited, FailsWith(MessageId::EngineGaveUp));
  EXPECT_EQ(engine->state(), EngineState::Failed);
  ASSERT_EQ(heard.failed.size(), 1u);
  EXPECT_EQ(heard.failed[0], engine->rebuild_policy().give_up());
  for (int i = 0; i < 5; ++i) engine->poll();
  EXPECT_EQ(heard.failed.size(), 1u);
  EXPECT_THAT(engine->begin_frame(), FailsWith(MessageId::EngineGaveUp));
  EXPECT_TRUE(engine->registry().is_alive(*sampler));
  EXPECT_EQ(engine->registry().slot_state(*sampler), resources::SlotState::Lost);
}

// An error no scope caught (here a buffer Dawn rejects, made straight through the C API) is a
// diagnostic the application can find by its id, with the library's words in it. (The callback
// takes it off stderr, where it would go without one.)
TEST(EngineDiagnostics, AnUncapturedErrorIsReportedByItsId) {
  EngineCallbacks quiet;
  quiet.on_uncaptured_error = [](const UncapturedError&) {};
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null), std::move(quiet));
  ASSERT_NE(engine, nullptr);
  WGPUBufferDescriptor desc{};
  desc.label = gpu::string_view("rejected");
  desc.size = 16;
  desc.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_MapWrite;  // never valid together
  const gpu::Procs& procs = engine->procs();
  procs.BufferRelease(procs.DeviceCreateBuffer(engine->device(), &desc));
  ASSERT_TRUE(testing::poll_until([&] { return engine->counters().uncaptured_errors > 0; }, [&] { engine->poll(); }));
  const Diagnostics& diagnostics = engine->registry().diagnostics();
  EXPECT_EQ(diagnostics.count(MessageId::EngineUncapturedError), 1u);
  const std::vector<Diagnostic> entries = diagnostics.entries();
  auto reported = std::find_if(entries.begin(), entries.end(),
                               [](const Diagnostic& d) { return d.id == MessageId::EngineUncapturedError; });
  ASSERT_NE(reported, entries.end());
  EXPECT_EQ(reported->severity, Severity::Error);
  EXPECT_EQ(reported->category, "gfx.engine") << "filed under its id's layer";
  EXPECT_THAT(reported->message, HasSubstr("uncaptured validation error"));
  EXPECT_THAT(reported->message, HasSubstr("rejected")) << "the library's words name the object";
}

// Every layer under the engine reports into the engine's one Diagnostics: the registry's reports
// land there, and a loss and its recovery are told by the device controller, in order, by id.
TEST(EngineDiagnostics, ALossAndItsRecoveryAreReportedInOrderIntoTheEnginesOneDiagnostics) {
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null));
  ASSERT_NE(engine, nullptr);
  EXPECT_EQ(&engine->registry().diagnostics(), &engine->diagnostics()) << "one Diagnostics, shared";
  (void)engine->diagnostics().take();
  ASSERT_TRUE(engine->force_device_loss("diagnostics test").ok());
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
  std::vector<MessageId> device_reports;
  for (const Diagnostic& d : engine->diagnostics().entries()) {
    if (d.category == device::kDiagnosticsCategory) device_reports.push_back(d.id);
    if (d.id == MessageId::DeviceLost) {
      EXPECT_EQ(d.severity, Severity::Warning);
      EXPECT_THAT(d.message, HasSubstr("diagnostics test")) << "the loss's own words";
    }
  }
  EXPECT_THAT(device_reports, ElementsAre(MessageId::DeviceLost, MessageId::DeviceEnded, MessageId::DeviceStarting,
                                          MessageId::DeviceReady));
}

// One number per device: the controller's reports name a device by the engine's device
// generation, never by the controller's token (which also counts the transitions between them).
TEST(EngineDiagnostics, EveryDeviceReportNamesTheEnginesDeviceGeneration) {
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null));
  ASSERT_NE(engine, nullptr);
  ASSERT_EQ(engine->device_generation(), 1u);
  (void)engine->diagnostics().take();
  ASSERT_TRUE(engine->force_device_loss("numbering test").ok());
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
  ASSERT_EQ(engine->device_generation(), 2u);
  std::vector<std::string> device_reports;
  for (const Diagnostic& d : engine->diagnostics().entries()) {
    if (d.category == device::kDiagnosticsCategory) device_reports.push_back(d.message.substr(0, d.message.find(':')));
  }
  EXPECT_THAT(device_reports, ElementsAre("device generation 1", "device generation 1 ended", "device generation 2",
                                          "device generation 2"));
  EXPECT_GT(engine->controller().token().value, engine->device_generation()) << "the token is another number";
}

// The WebGPU implementation's own log reaches the application as diagnostics, not stderr. Auto
// tries Vulkan first; where Dawn cannot load it (this machine, CI's), Dawn says so in its log.
TEST(EngineDiagnostics, DawnsOwnLogIsADiagnosticNotALineOnStandardError) {
  ::testing::internal::CaptureStderr();
  auto engine = make_engine(engine_options(gpu::BackendChoice::Auto));
  const std::string printed = ::testing::internal::GetCapturedStderr();
  ASSERT_NE(engine, nullptr);
  EXPECT_THAT(printed, ::testing::Not(HasSubstr("Couldn't load Vulkan")));
  for (const Diagnostic& d : engine->diagnostics().entries()) {
    if (d.id == MessageId::DawnLog) {
      EXPECT_EQ(d.category, "gfx.gpu");
    }
  }
  if (engine->backend() == WGPUBackendType_Vulkan) {
    RecordProperty("vulkan_loaded", 1);  // nothing for Dawn to complain about here
    return;
  }
  const std::vector<Diagnostic> entries = engine->diagnostics().entries();
  auto said = std::find_if(entries.begin(), entries.end(), [](const Diagnostic& d) {
    return d.id == MessageId::DawnLog && d.message.find("Vulkan") != std::string::npos;
  });
  ASSERT_NE(said, entries.end()) << "Auto chose " << gpu::to_string(engine->backend())
                                 << " without Dawn saying why Vulkan was not used";
  EXPECT_EQ(said->severity, Severity::Warning);
}

// A diagnostics sink is application code running inside the engine's transitions: one that forces
// another loss the moment it hears a device is ready, and polls on every report, leaves an engine
// that recovers once more and ends Ready, with every loss reported.
TEST(EngineDiagnostics, ASinkThatForcesALossWhenItHearsReadyIsRecoveredFrom) {
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null));
  ASSERT_NE(engine, nullptr);
  Engine* e = engine.get();
  int forced_from_sink = 0;
  size_t lost_reports = 0;
  engine->diagnostics().set_sink([&](const Diagnostic& d) {
    if (d.id == MessageId::DeviceLost) ++lost_reports;
    if (d.id == MessageId::DeviceReady && forced_from_sink == 0) {
      ++forced_from_sink;
      EXPECT_TRUE(e->force_device_loss("forced by a diagnostics sink").ok());
    }
    e->poll();
  });
  ASSERT_TRUE(engine->force_device_loss().ok());
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
  for (int i = 0; i < 3; ++i) engine->poll();
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
  EXPECT_EQ(forced_from_sink, 1);
  EXPECT_EQ(lost_reports, 2u);
  EXPECT_EQ(engine->state(), EngineState::Ready);
  EXPECT_EQ(engine->device_generation(), 3u);
  engine->diagnostics().set_sink(nullptr);
}

TEST(EngineLoss, AnAdoptedObjectIsReportedAsAwaitingItsOwnerAndIsLiveOnceReplaced) {
  Heard heard;
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null), heard.callbacks());
  ASSERT_NE(engine, nullptr);
  const gpu::Procs& p = engine->procs();
  const WGPUSamplerDescriptor d = warden::testing::nearest_clamp_sampler();
  auto adopted = engine->registry().adopt_sampler(p.DeviceCreateSampler(engine->device(), &d), "app sampler");
  ASSERT_TRUE(adopted.ok());
  ASSERT_TRUE(engine->force_device_loss().ok());
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok());
  ASSERT_EQ(heard.rebuilt.size(), 1u);
  EXPECT_THAT(heard.rebuilt[0].awaiting_owner, ElementsAre("sampler \"app sampler\""));
  EXPECT_EQ(engine->registry().slot_state(*adopted), resources::SlotState::Lost);
  // The owner supplies a sampler of the new device under the same handle.
  ASSERT_TRUE(engine->registry().replace_sampler(*adopted, p.DeviceCreateSampler(engine->device(), &d)).ok());
  EXPECT_EQ(engine->registry().slot_state(*adopted), resources::SlotState::Live);
  ASSERT_TRUE(engine->registry().destroy_sampler(*adopted).ok());
}

struct RecordingObserver : GenerationObserver {
  std::vector<std::string> events;
  void device_lost(uint64_t g) override { events.push_back("lost " + std::to_string(g)); }
  void device_ready(uint64_t g) override { events.push_back("ready " + std::to_string(g)); }
};

TEST(EngineLoss, ObserversHearEveryLossAndEveryReadyInOrder) {
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null));
  ASSERT_NE(engine, nullptr);
  RecordingObserver observer;
  engine->add_observer(observer);
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(engine->force_device_loss().ok());
    ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok());
  }
  engine->remove_observer(observer);
  EXPECT_THAT(observer.events, ElementsAre("lost 1", "ready 2", "lost 2", "ready 3"));
}

// ---- many losses ----------------------------------------------------------------------------

size_t heap_in_use() { return mallinfo2().uordblks; }

struct ChurnScene {
  BufferHandle buffer;
  TextureHandle texture;
  TextureViewHandle view;
  SamplerHandle sampler;
};

ChurnScene build_small_scene(resources::Registry& reg) {
  ChurnScene s;
  s.buffer = reg.create_buffer({256, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, false, "churn buffer"}).value();
  const std::vector<uint8_t> bytes(256, 3);
  EXPECT_TRUE(reg.write_buffer(s.buffer, 0, bytes.data(), bytes.size()).ok());
  s.texture = reg.create_texture({.size = {8, 8, 1},
                                  .usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst,
                                  .label = "churn texture"})
                  .value();
  s.view = reg.create_texture_view(s.texture).value();
  s.sampler = reg.create_sampler({.label = "churn sampler"}).value();
  return s;
}

// Returns the heap growth per loss over `losses` losses after a few to warm up.
double heap_per_engine_loss(Engine& engine, int losses) {
  const resources::LiveCounts counts = engine.registry().live_counts();
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(engine.force_device_loss().ok());
    EXPECT_TRUE(engine.wait_until_ready(testing::kSafetyNet).ok());
  }
  const size_t before = heap_in_use();
  for (int i = 0; i < losses; ++i) {
    EXPECT_TRUE(engine.force_device_loss().ok());
    auto ready = engine.wait_until_ready(testing::kSafetyNet);
    EXPECT_TRUE(ready.ok()) << engine.message();
    EXPECT_EQ(engine.registry().live_counts().by_kind, counts.by_kind) << "after loss " << i;
    EXPECT_EQ(engine.registry().live_counts().kept_content_bytes, counts.kept_content_bytes);
  }
  return (static_cast<double>(heap_in_use()) - static_cast<double>(before)) / losses;
}

TEST(EngineManyLosses, FiftyOnNullReturnToTheSameCountsWithinAKilobytePerLoss) {
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null));
  ASSERT_NE(engine, nullptr);
  build_small_scene(engine->registry());
  const double per_loss = heap_per_engine_loss(*engine, 50);
  EXPECT_EQ(engine->counters().device_losses, 53u);
  EXPECT_EQ(engine->counters().recoveries, 53u);
  RecordProperty("heap_bytes_per_loss", std::to_string(per_loss));
  EXPECT_LE(per_loss, 1024.0);
}

TEST(EngineManyLosses, FiftyOnGlCostNoMoreThanRawDawnDeviceChurn) {
  // Raw Dawn: open a device, force it lost, let it go — the same 50 times, same process.
  auto context = gpu::Context::create();
  ASSERT_TRUE(context.ok());
  auto churn = [&] {
    bool lost = false;
    gpu::DeviceOptions options;
    options.callbacks.on_lost = [&lost](WGPUDeviceLostReason, std::string_view) { lost = true; };
    auto opened = (*context)->open_device(testing::pixel_test_backend(), std::move(options));
    ASSERT_TRUE(opened.ok());
    (*context)->procs().DeviceForceLoss(opened->device.get(), WGPUDeviceLostReason_Unknown, gpu::string_view("raw churn"));
    while (!lost) (*context)->process_events();
    opened->queue.reset();
    opened->device.reset();
    opened->adapter.adapter.reset();
    (*context)->process_events();
  };
  for (int i = 0; i < 3; ++i) churn();
  const size_t raw_before = heap_in_use();
  for (int i = 0; i < 50; ++i) churn();
  const double raw_per_loss = (static_cast<double>(heap_in_use()) - static_cast<double>(raw_before)) / 50;

  auto engine = make_engine(engine_options(testing::pixel_test_backend()));
  ASSERT_NE(engine, nullptr);
  build_small_scene(engine->registry());
  const double per_loss = heap_per_engine_loss(*engine, 50);
  RecordProperty("raw_heap_bytes_per_loss", std::to_string(raw_per_loss));
  RecordProperty("engine_heap_bytes_per_loss", std::to_string(per_loss));
  // warden's own share is held to the Null budget (a kilobyte a loss) on top of Dawn's.
  EXPECT_LE(per_loss, std::max(raw_per_loss, 0.0) + 1024.0) << "raw Dawn: " << raw_per_loss;
}

// ---- hot reload across a loss ---------------------------------------------------------------

constexpr uint32_t kFrameSize = 8;

std::string tint_wgsl(float red) {
  return "@vertex fn vs(@builtin(vertex_index) i : u32) -> @builtin(position) vec4<f32> {\n"
         "  let p = array<vec2<f32>, 3>(vec2<f32>(-1.0, -1.0), vec2<f32>(3.0, -1.0), vec2<f32>(-1.0, 3.0));\n"
         "  return vec4<f32>(p[i], 0.0, 1.0);\n"
         "}\n"
         "@fragment fn fs() -> @location(0) vec4<f32> { return vec4<f32>(" +
         std::to_string(red) + ", 0.0, 0.0, 1.0); }\n";
}

// The full-screen triangle of tint_wgsl() into an RGBA8 target.
resources::RenderPipelineDescription tint_pipeline(ShaderModuleHandle module) {
  resources::RenderPipelineDescription d;
  d.label = "tint";
  d.vertex = {module, "vs", {}};
  d.fragment = resources::ShaderStage{module, "fs", {}};
  d.targets = {resources::ColorTarget{WGPUTextureFormat_RGBA8Unorm, std::nullopt, WGPUColorWriteMask_All}};
  return d;
}

class EngineHotReload : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = std::filesystem::temp_directory_path() / ("warden_engine_reload_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    path = dir / "tint.wgsl";
    write(0.25f);
  }
  void TearDown() override { std::filesystem::remove_all(dir); }

  void write(float red) {
    // A new mtime and size for the watcher: every version has a different length.
    std::ofstream(path, std::ios::trunc) << tint_wgsl(red) << std::string(static_cast<size_t>(red * 16), ' ') << "\n";
  }

  // Draws the pipeline into a registry target through the engine's frame API; the red byte.
  uint8_t draw(Engine& engine, RenderPipelineHandle pipeline, TextureHandle target, TextureViewHandle view,
               BufferHandle readback) {
    resources::Registry& reg = engine.registry();
    const gpu::Procs& p = engine.procs();
    auto frame = engine.begin_frame();
    EXPECT_TRUE(frame.ok());
    if (!frame.ok()) return 0;
    WGPURenderPassEncoder pass = gpu::begin_clear_pass(p, frame->encoder(), reg.resolve(view).value());
    p.RenderPassEncoderSetPipeline(pass, reg.resolve(pipeline).value());
    p.RenderPassEncoderDraw(pass, 3, 1, 0, 0);
    p.RenderPassEncoderEnd(pass);
    p.RenderPassEncoderRelease(pass);
    gpu::copy_image_to_buffer(p, frame->encoder(), reg.resolve(target).value(), reg.resolve(readback).value(), kFrameSize,
                              kFrameSize, 256);
    reg.touch(pipeline);
    EXPECT_TRUE(engine.submit(std::move(frame.value())).ok());
    auto bytes = engine.context().read_mapped(reg.resolve(readback).value(), 256 * kFrameSize, testing::kSafetyNet);
    EXPECT_TRUE(bytes.ok());
    return bytes.ok() ? (*bytes)[0] : 0;
  }

  // A registry texture the tint pipeline draws into, and the buffer its pixels are read through.
  struct TintTarget {
    TextureHandle texture;
    TextureViewHandle view;
    BufferHandle readback;
    bool ok = false;
  };
  TintTarget make_target(Engine& engine) {
    resources::Registry& reg = engine.registry();
    auto texture = reg.create_texture({.size = {kFrameSize, kFrameSize, 1},
                                       .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc,
                                       .label = "tint target"});
    if (!texture) return {};
    auto view = reg.create_texture_view(*texture);
    auto readback = reg.create_buffer({256 * kFrameSize, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, false, "rb"});
    if (!view || !readback) return {};
    return {*texture, *view, *readback, true};
  }
  uint8_t draw(Engine& engine, RenderPipelineHandle pipeline, const TintTarget& target) {
    return draw(engine, pipeline, target.texture, target.view, target.readback);
  }

  // Polls until a reload is reported after the first `seen` (by default, after those heard so
  // far: a reload a call such as wait_until_ready may already have heard is passed as `seen`).
  pipelines::ReloadReport until_reload(Engine& engine, Heard& heard, std::optional<size_t> seen_before = {}) {
    const size_t seen = seen_before.value_or(heard.reloads.size());
    const auto deadline = std::chrono::steady_clock::now() + testing::kSafetyNet;
    while (heard.reloads.size() == seen && std::chrono::steady_clock::now() < deadline) {
      engine.poll();
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    EXPECT_GT(heard.reloads.size(), seen) << "no reload reported";
    return heard.reloads.size() > seen ? heard.reloads.back() : pipelines::ReloadReport{};
  }

  std::filesystem::path dir, path;
};

TEST_F(EngineHotReload, AnEditSavedWhileLostAppliesOnTheNewDeviceAndLaterEditsSwapAsBefore) {
  Heard heard;
  auto engine = make_engine(engine_options(testing::pixel_test_backend()), heard.callbacks());
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->hot_reload_available());
  resources::Registry& reg = engine->registry();
  auto module = engine->load_shader(path);
  ASSERT_TRUE(module.ok()) << module.error().message;
  auto pipeline = engine->pipelines().create_render_pipeline(tint_pipeline(*module));
  ASSERT_TRUE(pipeline.ok()) << pipeline.error().message;
  const TintTarget target = make_target(*engine);
  ASSERT_TRUE(target.ok);
  EXPECT_EQ(draw(*engine, *pipeline, target), 64);  // 0.25 * 255, rounded

  ASSERT_TRUE(engine->force_device_loss().ok());
  // 0.6 * 255 is 153 under any rounding a conforming implementation may use (0.5 * 255 is
  // 127.5: llvmpipe writes 128, NVIDIA's GL 127).
  write(0.6f);  // saved while there is no device
  const size_t heard_before = heard.reloads.size();
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok());  // its polls may hear the reload
  const pipelines::ReloadReport first = until_reload(*engine, heard, heard_before);
  EXPECT_TRUE(first.applied) << first.error;
  EXPECT_EQ(first.module, *module);
  EXPECT_EQ(draw(*engine, *pipeline, target), 153);
  EXPECT_THAT(reg.recipe(*module)->wgsl, HasSubstr("0.600000"));

  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // a distinct mtime
  write(0.75f);
  const pipelines::ReloadReport second = until_reload(*engine, heard);
  EXPECT_TRUE(second.applied) << second.error;
  EXPECT_EQ(draw(*engine, *pipeline, target), 191);
  EXPECT_EQ(engine->counters().hot_reloads, 2u);
}

// A reload started on the lost device (its change handed to the worker, its module perhaps
// compiled or its pipelines being built) is released with that device, never published; the
// new device's reloader sees the file differs from the recipe and applies it once.
TEST_F(EngineHotReload, AReloadInFlightAtTheLossIsNeverPublishedAndAppliesOnceOnTheNewDevice) {
  Heard heard;
  auto engine = make_engine(engine_options(testing::pixel_test_backend()), heard.callbacks());
  ASSERT_NE(engine, nullptr);
  auto module = engine->load_shader(path);
  ASSERT_TRUE(module.ok()) << module.error().message;
  auto pipeline = engine->pipelines().create_render_pipeline(tint_pipeline(*module));
  ASSERT_TRUE(pipeline.ok()) << pipeline.error().message;

  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // a distinct mtime
  write(0.5f);
  engine->poll();  // the change goes to the worker of generation 1 (never published in this poll)
  const size_t heard_before = heard.reloads.size();
  ASSERT_TRUE(engine->force_device_loss().ok());
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok());  // its polls may hear the reload
  const pipelines::ReloadReport report = until_reload(*engine, heard, heard_before);
  EXPECT_TRUE(report.applied) << report.error;
  for (int i = 0; i < 20; ++i) engine->poll();
  EXPECT_THAT(heard.order, ElementsAre("ready 1", "ready 2", "reload applied"));
  EXPECT_EQ(engine->counters().hot_reloads, 1u);
  EXPECT_THAT(engine->registry().recipe(*module)->wgsl, HasSubstr("0.500000"));
  EXPECT_TRUE(engine->registry().resolve(*pipeline).ok());
}

// The vertex stage of tint_wgsl(), for WESL roots whose fragment reads an imported level.
constexpr const char* kTintVertex =
    "@vertex fn vs(@builtin(vertex_index) i : u32) -> @builtin(position) vec4<f32> {\n"
    "  let p = array<vec2<f32>, 3>(vec2<f32>(-1.0, -1.0), vec2<f32>(3.0, -1.0), vec2<f32>(-1.0, 3.0));\n"
    "  return vec4<f32>(p[i], 0.0, 1.0);\n"
    "}\n";

void write_text(const std::filesystem::path& file, const std::string& text) {
  std::ofstream(file, std::ios::trunc) << text;
}

// A WESL module whose colour comes from a file it imports: an edit to that file rebuilds the
// pipeline; a broken edit keeps the last good one, through a device loss, until it is fixed.
TEST_F(EngineHotReload, AnEditToAnImportedFileReloadsTheModuleAndABrokenOneIsKeptOutAcrossALoss) {
  const std::filesystem::path root = dir / "tint.wesl";
  const std::filesystem::path shade = dir / "shade.wesl";
  write_text(root, std::string("import package::shade::level;\n") + kTintVertex +
                       "@fragment fn fs() -> @location(0) vec4<f32> { return vec4<f32>(level(), 0.0, 0.0, 1.0); }\n");
  write_text(shade, "fn level() -> f32 { return 0.25; }\n");
  Heard heard;
  auto engine = make_engine(engine_options(testing::pixel_test_backend()), heard.callbacks());
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->hot_reload_available());
  auto module = engine->load_shader(root);
  ASSERT_TRUE(module.ok()) << module.error().message;
  auto pipeline = engine->pipelines().create_render_pipeline(tint_pipeline(*module));
  ASSERT_TRUE(pipeline.ok()) << pipeline.error().message;
  const TintTarget target = make_target(*engine);
  ASSERT_TRUE(target.ok);
  EXPECT_EQ(draw(*engine, *pipeline, target), 64);

  write_text(shade, "fn level() -> f32 { return 0.6; }\n");
  const pipelines::ReloadReport edited = until_reload(*engine, heard);
  EXPECT_TRUE(edited.applied) << edited.error;
  EXPECT_EQ(edited.path, root);
  EXPECT_EQ(draw(*engine, *pipeline, target), 153);

  // Broken: the `;` after the value is missing. The place is the imported file's.
  write_text(shade, "fn level() -> f32 {\n  return 0.75\n}\n");
  const pipelines::ReloadReport broken = until_reload(*engine, heard);
  EXPECT_FALSE(broken.applied);
  ASSERT_FALSE(broken.diagnostics.empty());
  EXPECT_EQ(broken.diagnostics[0].path, shade.string());
  EXPECT_EQ(broken.diagnostics[0].line, 3u);
  EXPECT_EQ(broken.diagnostics[0].column, 1u);
  EXPECT_THAT(broken.diagnostics[0].notes,
              ElementsAre(shade.string() + " is imported at " + root.string() + ":1:8"));
  EXPECT_EQ(draw(*engine, *pipeline, target), 153);
  // What the application's diagnostics hear shows the line of the file it is in.
  bool excerpt_heard = false;
  for (const Diagnostic& d : engine->registry().diagnostics().entries()) {
    if (d.id == MessageId::HotReloadKeptPrevious && d.message.find("\n}\n^") != std::string::npos &&
        d.message.find(shade.string() + ":3:1: error:") != std::string::npos) {
      excerpt_heard = true;
    }
  }
  EXPECT_TRUE(excerpt_heard);

  // The loss rebuilds the last good module; the new device's reloader tries the broken file
  // again and keeps it out.
  const size_t heard_before_loss = heard.reloads.size();
  ASSERT_TRUE(engine->force_device_loss().ok());
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok());  // its polls may hear the retry
  const pipelines::ReloadReport retried = until_reload(*engine, heard, heard_before_loss);
  EXPECT_FALSE(retried.applied);
  EXPECT_EQ(draw(*engine, *pipeline, target), 153);

  write_text(shade, "fn level() -> f32 {\n  return 0.75;\n}\n");
  const pipelines::ReloadReport fixed = until_reload(*engine, heard);
  EXPECT_TRUE(fixed.applied) << fixed.error;
  EXPECT_EQ(draw(*engine, *pipeline, target), 191);
}

// A feature value set at run time relinks the modules whose conditions read it, and only them.
TEST_F(EngineHotReload, AFeatureSetAtRunTimeRelinksOnlyTheModulesThatReadIt) {
  const std::filesystem::path root = dir / "bright.wesl";
  write_text(root, std::string("@if(BRIGHT) const level = 0.75;\n@else const level = 0.25;\n") + kTintVertex +
                       "@fragment fn fs() -> @location(0) vec4<f32> { return vec4<f32>(level, 0.0, 0.0, 1.0); }\n");
  Heard heard;
  EngineOptions options = engine_options(testing::pixel_test_backend());
  options.shader_modules.features = {{"BRIGHT", false}};
  auto engine = make_engine(std::move(options), heard.callbacks());
  ASSERT_NE(engine, nullptr);
  resources::Registry& reg = engine->registry();
  auto module = engine->load_shader(root);
  ASSERT_TRUE(module.ok()) << module.error().message;
  auto plain = engine->load_shader(path);  // plain WGSL reads no feature
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  auto pipeline = engine->pipelines().create_render_pipeline(tint_pipeline(*module));
  ASSERT_TRUE(pipeline.ok()) << pipeline.error().message;
  const TintTarget target = make_target(*engine);
  ASSERT_TRUE(target.ok);
  EXPECT_EQ(draw(*engine, *pipeline, target), 64);

  ASSERT_TRUE(engine->set_shader_features({{"BRIGHT", true}}).ok());
  const pipelines::ReloadReport report = until_reload(*engine, heard);
  EXPECT_TRUE(report.applied) << report.error;
  EXPECT_EQ(report.module, *module);
  for (int i = 0; i < 20; ++i) engine->poll();
  EXPECT_EQ(engine->counters().hot_reloads, 1u);
  EXPECT_EQ(draw(*engine, *pipeline, target), 191);
  EXPECT_THAT(reg.recipe(*module)->wgsl, HasSubstr("const level = 0.75;"));
}

// Devices that die young are not forgiven by the hold. Each device here lasts 15 s: past the
// 10 s hold, so the window alone forgives every loss and rebuilds forever, but within the 60 s
// a device must live to reset the count. The third young death in a row gives up, and
// on_failed says so.
TEST(EnginePolicy, DevicesThatKeepDyingSoonAfterTheyAreReadyGiveUpThoughEachHeldPastTheHold) {
  device::SteadyTime now = std::chrono::steady_clock::now();
  Heard heard;
  EngineOptions options = engine_options(gpu::BackendChoice::Null);  // 100 losses within the window
  options.rebuild.now = [&now] { return now; };
  options.rebuild.young_deaths_to_give_up = 3;
  auto engine = make_engine(std::move(options), heard.callbacks());
  ASSERT_NE(engine, nullptr);
  for (int loss = 1; loss <= 3; ++loss) {
    now += std::chrono::seconds(15);
    ASSERT_TRUE(engine->force_device_loss("dies young").ok());
    auto ready = engine->wait_until_ready(testing::kSafetyNet);
    if (loss < 3) {
      ASSERT_TRUE(ready.ok()) << "loss " << loss << ": " << ready.error().message;
    } else {
      EXPECT_THAT(ready, FailsWith(MessageId::EngineGaveUp));
    }
  }
  EXPECT_EQ(engine->state(), EngineState::Failed);
  ASSERT_EQ(heard.failed.size(), 1u);
  EXPECT_TRUE(heard.failed[0].died_young);
  EXPECT_EQ(heard.failed[0].faults, 3u);
  EXPECT_THAT(device::describe(heard.failed[0]),
              HasSubstr("3 devices in a row were lost or hung within 60 s of becoming ready (the last: "));
  EXPECT_THAT(device::describe(heard.failed[0]), HasSubstr("dies young"));
}

}  // namespace
}  // namespace warden::engine
