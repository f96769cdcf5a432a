// Hot reload on the GL backend with real pixels: a pipeline draws shader v1; the file is
// rewritten to v2 and, after the reload, the same pipeline handle draws v2's colour; a broken
// v3 leaves v2 drawing and reports v3's line and column.
#include <gmock/gmock.h>

#include <unistd.h>

#include <array>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <map>
#include <thread>

#include "support/gpu_test.h"
#include "support/messages.h"
#include "support/poll_until.h"
#include "warden/pipelines/hot_reload.h"
#include "warden/gpu/objects.h"

namespace warden::pipelines {
namespace {

using ::testing::HasSubstr;
using warden::testing::FailsWith;
using Pixel = std::array<uint8_t, 4>;

constexpr uint32_t kSize = 64;  // 64 * 4 = 256 bytes per row: the copy alignment already

std::string shader_source(const char* colour) {
  return std::string(R"(@vertex
fn vs(@builtin(vertex_index) i : u32) -> @builtin(position) vec4<f32> {
  var p = array<vec2<f32>, 3>(vec2<f32>(-1.0, -1.0), vec2<f32>(3.0, -1.0), vec2<f32>(-1.0, 3.0));
  return vec4<f32>(p[i], 0.0, 1.0);
}

@fragment
fn fs() -> @location(0) vec4<f32> {
  return )") + colour + ";\n}\n";
}

// Writes like an editor that saves in place (truncate, write, close: IN_CLOSE_WRITE), or like
// one that writes a temporary file and renames it over the old one (IN_MOVED_TO).
void write_file(const std::filesystem::path& path, const std::string& text, bool by_rename) {
  std::filesystem::path target = by_rename ? std::filesystem::path(path.string() + ".tmp") : path;
  {
    std::ofstream out(target, std::ios::binary | std::ios::trunc);
    out << text;
  }
  if (by_rename) std::filesystem::rename(target, path);
}

class HotReloadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ctx = warden::testing::shared_context();
    ASSERT_NE(ctx, nullptr);
    gpu::DeviceOptions options;
    options.label = "hot reload test device";
    options.required_features = {WGPUFeatureName_ImplicitDeviceSynchronization};
    options.callbacks.on_uncaptured_error = [this](WGPUErrorType, std::string_view message) {
      std::lock_guard lock(errors_mutex);
      uncaptured.emplace_back(message);
    };
    auto opened = ctx->open_device(gpu::BackendChoice::GL, std::move(options));
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    adapter_ = std::move(opened->adapter.adapter);
    device_ = std::move(opened->device);
    queue_ = std::move(opened->queue);
    registry = std::make_unique<resources::Registry>(*ctx, device_.get(), queue_.get());
    shaders = std::make_unique<shaders::ShaderManager>(*ctx, *registry);
    pipelines = std::make_unique<PipelineLibrary>(*ctx, *registry);

    dir = std::filesystem::temp_directory_path() / ("warden_hot_reload_" + std::to_string(::getpid()) + "_" +
                                                    ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir);
    shader_path = dir / "tint.wgsl";
  }

  void TearDown() override {
    reloader.reset();
    pipelines.reset();
    shaders.reset();
    registry.reset();
    queue_.reset();
    device_.reset();
    adapter_.reset();
    if (ctx != nullptr) ctx->process_events();
    std::filesystem::remove_all(dir);
    std::lock_guard lock(errors_mutex);
    EXPECT_THAT(uncaptured, ::testing::IsEmpty());
  }

  RenderPipelineHandle load_pipeline() {
    auto module = shaders->load(shader_path);
    EXPECT_TRUE(module.ok()) << module.error().message;
    resources::RenderPipelineDescription d;
    d.label = "tint pass";
    d.vertex = {*module, "vs", {}};
    d.fragment = resources::ShaderStage{*module, "fs", {}};
    d.targets = {resources::ColorTarget{WGPUTextureFormat_RGBA8Unorm, std::nullopt, WGPUColorWriteMask_All}};
    auto pipeline = pipelines->create_render_pipeline(d);
    EXPECT_TRUE(pipeline.ok()) << pipeline.error().message;
    auto created = HotReloader::create(*ctx, *shaders, *pipelines);
    EXPECT_TRUE(created.ok()) << created.error().message;
    reloader = std::move(created.value());
    auto watched = reloader->watch(*module);
    EXPECT_TRUE(watched.ok()) << watched.error().message;
    module_ = *module;
    return *pipeline;
  }

  // Draws a full-screen triangle with whatever `pipeline` resolves to now; the centre pixel.
  Pixel draw(RenderPipelineHandle pipeline) {
    const gpu::Procs& p = ctx->procs();
    WGPUTextureDescriptor tdesc{};
    tdesc.dimension = WGPUTextureDimension_2D;
    tdesc.mipLevelCount = 1;
    tdesc.sampleCount = 1;
    tdesc.size = {kSize, kSize, 1};
    tdesc.format = WGPUTextureFormat_RGBA8Unorm;
    tdesc.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc;
    gpu::Ref<WGPUTexture> target(&p, p.DeviceCreateTexture(device_.get(), &tdesc));
    gpu::Ref<WGPUTextureView> view(&p, p.TextureCreateView(target.get(), nullptr));
    WGPUBufferDescriptor bdesc{};
    bdesc.size = uint64_t{kSize} * kSize * 4;
    bdesc.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
    gpu::Ref<WGPUBuffer> readback(&p, p.DeviceCreateBuffer(device_.get(), &bdesc));

    auto resolved = registry->resolve(pipeline);
    EXPECT_TRUE(resolved.ok());
    registry->touch(pipeline);
    gpu::Ref<WGPUCommandEncoder> encoder(&p, p.DeviceCreateCommandEncoder(device_.get(), nullptr));
    WGPURenderPassEncoder pass = gpu::begin_clear_pass(p, encoder.get(), view.get(), {0.0, 0.0, 0.0, 1.0});
    p.RenderPassEncoderSetPipeline(pass, *resolved);
    p.RenderPassEncoderDraw(pass, 3, 1, 0, 0);
    p.RenderPassEncoderEnd(pass);
    p.RenderPassEncoderRelease(pass);
    gpu::copy_image_to_buffer(p, encoder.get(), target.get(), readback.get(), kSize, kSize, kSize * 4);
    WGPUCommandBuffer commands = p.CommandEncoderFinish(encoder.get(), nullptr);
    registry->submit(commands);
    p.CommandBufferRelease(commands);
    auto bytes = ctx->read_mapped(readback.get(), bdesc.size, testing::kSafetyNet);
    EXPECT_TRUE(bytes.ok()) << bytes.error().message;
    registry->poll();
    Pixel px{};
    if (bytes.ok()) std::memcpy(px.data(), bytes->data() + (kSize / 2 * kSize + kSize / 2) * 4, 4);
    return px;
  }

  // Frame boundaries until a reload is reported (the bound only stops a broken test).
  std::vector<ReloadReport> frames_until_reload() {
    auto deadline = std::chrono::steady_clock::now() + testing::kSafetyNet;
    while (std::chrono::steady_clock::now() < deadline) {
      // Once the worker has finished (its own bounded waits are over), the frame boundary that
      // rebuilds and swaps must make no blocking wait of its own.
      if (reloader->ready() < reloader->in_flight()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        continue;
      }
      bool worker_done = reloader->in_flight() > 0;
      uint64_t waits_before = gpu::blocking_wait_count();
      auto reports = reloader->poll();
      registry->poll();
      if (worker_done) {
        EXPECT_EQ(gpu::blocking_wait_count(), waits_before);
      }
      if (!reports.empty()) {
        EXPECT_TRUE(worker_done);
        return reports;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ADD_FAILURE() << "no reload reported";
    return {};
  }

  // Frame boundaries until the worker has the latest save, then (no more boundaries) until it
  // has compiled it.
  void hand_to_worker_and_let_it_compile() {
    auto deadline = std::chrono::steady_clock::now() + testing::kSafetyNet;
    while (reloader->in_flight() == 0 && std::chrono::steady_clock::now() < deadline) {
      EXPECT_TRUE(reloader->poll().empty());
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    while (reloader->ready() < reloader->in_flight() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    ASSERT_EQ(reloader->ready(), 1u);
    ASSERT_EQ(reloader->building(), 0u);
  }

  gpu::Context* ctx = nullptr;
  gpu::Ref<WGPUAdapter> adapter_;
  gpu::Ref<WGPUDevice> device_;
  gpu::Ref<WGPUQueue> queue_;
  std::unique_ptr<resources::Registry> registry;
  std::unique_ptr<shaders::ShaderManager> shaders;
  std::unique_ptr<PipelineLibrary> pipelines;
  std::unique_ptr<HotReloader> reloader;
  ShaderModuleHandle module_;
  std::filesystem::path dir;
  std::filesystem::path shader_path;
  std::mutex errors_mutex;
  std::vector<std::string> uncaptured;
};

constexpr Pixel kRed{255, 0, 0, 255};
constexpr Pixel kGreen{0, 255, 0, 255};

TEST_F(HotReloadTest, SameHandleDrawsV2AfterReloadAndKeepsV2WhenV3IsBroken) {
  write_file(shader_path, shader_source("vec4<f32>(1.0, 0.0, 0.0, 1.0)"), false);
  RenderPipelineHandle pipeline = load_pipeline();
  EXPECT_EQ(draw(pipeline), kRed);

  // v2: green, saved by rename like most editors do.
  write_file(shader_path, shader_source("vec4<f32>(0.0, 1.0, 0.0, 1.0)"), true);
  auto reports = frames_until_reload();
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_TRUE(reports[0].applied) << reports[0].error;
  EXPECT_EQ(reports[0].pipelines_rebuilt, 1u);
  EXPECT_EQ(reports[0].module, module_);
  EXPECT_TRUE(registry->is_alive(pipeline));
  EXPECT_EQ(draw(pipeline), kGreen);
  EXPECT_EQ(registry->diagnostics().count(MessageId::HotReloadApplied), 1u);

  // v3: broken on line 9 (`vec4<f32>(0.0, 0.0, 1.0, 1.0` lacks its `)`), saved in place.
  write_file(shader_path, shader_source("vec4<f32>(0.0, 0.0, 1.0, 1.0"), false);
  reports = frames_until_reload();
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_FALSE(reports[0].applied);
  ASSERT_EQ(reports[0].diagnostics.size(), 1u);
  const shaders::ShaderDiagnostic& d = reports[0].diagnostics[0];
  EXPECT_EQ(d.severity, Severity::Error);
  EXPECT_EQ(d.path, shader_path.string());
  EXPECT_EQ(d.line, 9u);
  EXPECT_EQ(d.column, 38u);  // at the `;` where the `)` should be
  EXPECT_EQ(d.message, "expected ',' for function call");
  EXPECT_EQ(d.id, MessageId::ShaderCompilerMessage);
  EXPECT_EQ(shaders->last_diagnostics(), reports[0].diagnostics);
  EXPECT_EQ(draw(pipeline), kGreen);
  // The compiler's error under gfx.shaders, the kept previous module under gfx.pipelines (below).
  EXPECT_GE(registry->diagnostics().count(shaders::kDiagnosticsCategory, Severity::Error), 1u);
  EXPECT_GE(registry->diagnostics().count(pipelines::kDiagnosticsCategory, Severity::Error), 1u);
  EXPECT_EQ(registry->diagnostics().count(MessageId::HotReloadKeptPrevious), 1u);
  for (const Diagnostic& e : registry->diagnostics().entries()) {
    if (e.id == MessageId::HotReloadKeptPrevious) {
      EXPECT_EQ(e.category, "gfx.pipelines") << "filed under its id's layer";
    }
  }
}

// A pipeline of `module` drawing the full-screen triangle.
RenderPipelineHandle tint_pipeline(PipelineLibrary& pipelines, ShaderModuleHandle module) {
  resources::RenderPipelineDescription d;
  d.label = "tint pass";
  d.vertex = {module, "vs", {}};
  d.fragment = resources::ShaderStage{module, "fs", {}};
  d.targets = {resources::ColorTarget{WGPUTextureFormat_RGBA8Unorm, std::nullopt, WGPUColorWriteMask_All}};
  auto pipeline = pipelines.create_render_pipeline(d);
  EXPECT_TRUE(pipeline.ok()) << pipeline.error().message;
  return pipeline.ok() ? *pipeline : RenderPipelineHandle{};
}

// A WESL root whose colour is `colour()`, brought in by `import`.
std::string wesl_root(const char* import) {
  return std::string("import ") + import + ";\n" + shader_source("colour()");
}

// Two modules import one shared file, a third is plain WGSL: an edit to the shared file reloads
// the two and rebuilds exactly their pipelines; the third is not touched.
TEST_F(HotReloadTest, AnEditToASharedImportRebuildsExactlyThePipelinesThatReachIt) {
  const std::filesystem::path shared = dir / "palette.wesl";
  write_file(shared, "fn colour() -> vec4<f32> { return vec4<f32>(1.0, 0.0, 0.0, 1.0); }\n", false);
  write_file(dir / "a.wesl", wesl_root("package::palette::colour"), false);
  write_file(dir / "b.wesl", wesl_root("super::palette::colour"), false);
  write_file(dir / "c.wgsl", shader_source("vec4<f32>(0.0, 0.0, 1.0, 1.0)"), false);
  auto created = HotReloader::create(*ctx, *shaders, *pipelines);
  ASSERT_TRUE(created.ok()) << created.error().message;
  reloader = std::move(created.value());
  std::map<std::string, ShaderModuleHandle> modules;
  std::map<std::string, RenderPipelineHandle> drawn;
  for (const char* name : {"a.wesl", "b.wesl", "c.wgsl"}) {
    auto module = shaders->load(dir / name);
    ASSERT_TRUE(module.ok()) << module.error().message;
    modules[name] = *module;
    drawn[name] = tint_pipeline(*pipelines, *module);
    ASSERT_TRUE(reloader->watch(*module).ok());
  }
  EXPECT_EQ(shaders->files_of(modules["a.wesl"])->size(), 2u);
  EXPECT_EQ(draw(drawn["a.wesl"]), kRed);
  EXPECT_EQ(draw(drawn["b.wesl"]), kRed);
  const Pixel blue{0, 0, 255, 255};
  EXPECT_EQ(draw(drawn["c.wgsl"]), blue);

  write_file(shared, "fn colour() -> vec4<f32> { return vec4<f32>(0.0, 1.0, 0.0, 1.0); }\n", true);
  std::vector<ReloadReport> reports;
  while (reports.size() < 2 && !::testing::Test::HasFailure()) {
    for (ReloadReport& r : frames_until_reload()) reports.push_back(std::move(r));
  }
  for (int i = 0; i < 20; ++i) {  // nothing more comes: the plain module is not reloaded
    for (ReloadReport& r : reloader->poll()) reports.push_back(std::move(r));
    registry->poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ASSERT_EQ(reports.size(), 2u);
  std::vector<uint32_t> reloaded;  // module indices
  for (const ReloadReport& r : reports) {
    EXPECT_TRUE(r.applied) << r.error;
    EXPECT_EQ(r.pipelines_rebuilt, 1u);
    reloaded.push_back(r.module.index());
  }
  std::sort(reloaded.begin(), reloaded.end());
  std::vector<uint32_t> expected{modules["a.wesl"].index(), modules["b.wesl"].index()};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(reloaded, expected);
  EXPECT_EQ(draw(drawn["a.wesl"]), kGreen);
  EXPECT_EQ(draw(drawn["b.wesl"]), kGreen);
  EXPECT_EQ(draw(drawn["c.wgsl"]), blue);

  // A broken edit of the shared file keeps both last good pipelines and names the shared file.
  write_file(shared, "fn colour() -> vec4<f32> { return vec4<f32>(0.0, 0.0, 0.0, 1.0) }\n", false);
  reports.clear();
  while (reports.size() < 2 && !::testing::Test::HasFailure()) {
    for (ReloadReport& r : frames_until_reload()) reports.push_back(std::move(r));
  }
  ASSERT_EQ(reports.size(), 2u);
  for (const ReloadReport& r : reports) {
    EXPECT_FALSE(r.applied);
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].path, shared.string());
    EXPECT_EQ(r.diagnostics[0].line, 1u);
    EXPECT_EQ(r.diagnostics[0].column, 65u);  // the '}' where the ';' should be, as Dawn places it
    ASSERT_EQ(r.diagnostics[0].notes.size(), 1u);
    EXPECT_THAT(r.diagnostics[0].notes[0], HasSubstr("palette.wesl is imported at "));
  }
  EXPECT_EQ(draw(drawn["a.wesl"]), kGreen);
  EXPECT_EQ(draw(drawn["b.wesl"]), kGreen);
}

// An edit that imports a new file which does not compile fails; the new file is watched from
// then on, so fixing it (and not the importing file) reloads the module.
TEST_F(HotReloadTest, FixingAFileThatAFailedEditImportedReloadsTheModule) {
  write_file(dir / "palette.wesl", "fn colour() -> vec4<f32> { return vec4<f32>(1.0, 0.0, 0.0, 1.0); }\n", false);
  write_file(dir / "a.wesl", wesl_root("package::palette::colour"), false);
  auto created = HotReloader::create(*ctx, *shaders, *pipelines);
  ASSERT_TRUE(created.ok()) << created.error().message;
  reloader = std::move(created.value());
  auto module = shaders->load(dir / "a.wesl");
  ASSERT_TRUE(module.ok()) << module.error().message;
  ASSERT_TRUE(reloader->watch(*module).ok());
  RenderPipelineHandle pipeline = tint_pipeline(*pipelines, *module);
  EXPECT_EQ(draw(pipeline), kRed);

  write_file(dir / "green.wesl", "fn colour() -> vec4<f32> { return vec4<f32>(0.0, 1.0, 0.0, 1.0) }\n", false);
  write_file(dir / "a.wesl", wesl_root("package::green::colour"), true);
  std::vector<ReloadReport> reports = frames_until_reload();
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_FALSE(reports[0].applied);
  EXPECT_EQ(draw(pipeline), kRed);

  write_file(dir / "green.wesl", "fn colour() -> vec4<f32> { return vec4<f32>(0.0, 1.0, 0.0, 1.0); }\n", true);
  reports = frames_until_reload();
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_TRUE(reports[0].applied) << reports[0].error;
  EXPECT_EQ(draw(pipeline), kGreen);
  EXPECT_EQ(shaders->files_of(*module)->size(), 2u);  // a.wesl and green.wesl: palette.wesl is left
}

// A feature value that changes relinks the modules whose conditions read it.
TEST_F(HotReloadTest, AFeatureThatChangesRelinksTheModulesThatReadIt) {
  write_file(dir / "f.wesl",
             "@if(GREEN) fn colour() -> vec4<f32> { return vec4<f32>(0.0, 1.0, 0.0, 1.0); }\n"
             "@else fn colour() -> vec4<f32> { return vec4<f32>(1.0, 0.0, 0.0, 1.0); }\n" +
                 shader_source("colour()"),
             false);
  write_file(dir / "p.wesl", shader_source("vec4<f32>(0.0, 0.0, 1.0, 1.0)"), false);
  EXPECT_TRUE(shaders->set_wesl_features({{"GREEN", false}}).empty());
  auto created = HotReloader::create(*ctx, *shaders, *pipelines);
  ASSERT_TRUE(created.ok()) << created.error().message;
  reloader = std::move(created.value());
  auto reads = shaders->load(dir / "f.wesl");
  auto ignores = shaders->load(dir / "p.wesl");
  ASSERT_TRUE(reads.ok() && ignores.ok());
  ASSERT_TRUE(reloader->watch(*reads).ok() && reloader->watch(*ignores).ok());
  RenderPipelineHandle pipeline = tint_pipeline(*pipelines, *reads);
  EXPECT_EQ(draw(pipeline), kRed);

  const std::vector<ShaderModuleHandle> changed = shaders->set_wesl_features({{"GREEN", true}});
  ASSERT_EQ(changed, std::vector<ShaderModuleHandle>{*reads});
  ASSERT_TRUE(reloader->reload(changed[0]).ok());
  const std::vector<ReloadReport> reports = frames_until_reload();
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_TRUE(reports[0].applied) << reports[0].error;
  EXPECT_EQ(draw(pipeline), kGreen);
}

// A diagnostics sink that polls the reloader when it hears a reload reported runs in the middle
// of the poll that reports it: the nested poll does nothing, and the reload is published once.
TEST_F(HotReloadTest, ASinkThatPollsFromInsideAReportPublishesTheReloadOnce) {
  write_file(shader_path, shader_source("vec4<f32>(1.0, 0.0, 0.0, 1.0)"), false);
  RenderPipelineHandle pipeline = load_pipeline();
  std::vector<size_t> nested_reports;
  registry->diagnostics().set_sink([&](const Diagnostic& d) {
    if (d.id == MessageId::HotReloadApplied) nested_reports.push_back(reloader->poll().size());
  });
  write_file(shader_path, shader_source("vec4<f32>(0.0, 1.0, 0.0, 1.0)"), true);
  auto reports = frames_until_reload();
  registry->diagnostics().set_sink(nullptr);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_TRUE(reports[0].applied) << reports[0].error;
  EXPECT_EQ(nested_reports, std::vector<size_t>{0u});
  EXPECT_EQ(registry->diagnostics().count(MessageId::HotReloadApplied), 1u);
  EXPECT_EQ(reloader->in_flight(), 0u);
  EXPECT_EQ(draw(pipeline), kGreen);
}

TEST_F(HotReloadTest, AResultOvertakenByANewerSaveIsDroppedUnseen) {
  write_file(shader_path, shader_source("vec4<f32>(1.0, 0.0, 0.0, 1.0)"), false);
  RenderPipelineHandle pipeline = load_pipeline();

  write_file(shader_path, shader_source("vec4<f32>(0.0, 1.0, 0.0, 1.0)"), false);
  // Hand the green save to the worker, and let it finish.
  auto deadline = std::chrono::steady_clock::now() + testing::kSafetyNet;
  while (reloader->in_flight() == 0 && std::chrono::steady_clock::now() < deadline) {
    EXPECT_TRUE(reloader->poll().empty());
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  while (reloader->ready() < reloader->in_flight() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ASSERT_EQ(reloader->ready(), 1u);

  // Saved again before the green result was swapped in: the green result is out of date.
  write_file(shader_path, shader_source("vec4<f32>(0.0, 0.0, 1.0, 1.0)"), false);
  EXPECT_TRUE(reloader->poll().empty());
  EXPECT_EQ(draw(pipeline), kRed);

  auto reports = frames_until_reload();
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_TRUE(reports[0].applied) << reports[0].error;
  EXPECT_EQ(draw(pipeline), (Pixel{0, 0, 255, 255}));
}

TEST_F(HotReloadTest, TheBoundaryThatAsksForThePipelinesDoesNotSwapThemIn) {
  write_file(shader_path, shader_source("vec4<f32>(1.0, 0.0, 0.0, 1.0)"), false);
  RenderPipelineHandle pipeline = load_pipeline();
  write_file(shader_path, shader_source("vec4<f32>(0.0, 1.0, 0.0, 1.0)"), false);
  hand_to_worker_and_let_it_compile();

  // The compiled module's pipelines are asked for here, built off this call by the
  // implementation, and published at a later boundary: this one swaps nothing in.
  EXPECT_TRUE(reloader->poll().empty());
  EXPECT_EQ(reloader->building(), 1u);
  EXPECT_EQ(draw(pipeline), kRed);

  auto reports = frames_until_reload();
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_TRUE(reports[0].applied) << reports[0].error;
  EXPECT_EQ(reports[0].pipelines_rebuilt, 1u);
  EXPECT_EQ(reloader->building(), 0u);
  EXPECT_EQ(draw(pipeline), kGreen);
}

TEST_F(HotReloadTest, PipelinesBuiltForASupersededSaveAreReleasedNeverPublished) {
  write_file(shader_path, shader_source("vec4<f32>(1.0, 0.0, 0.0, 1.0)"), false);
  RenderPipelineHandle pipeline = load_pipeline();
  WGPURenderPipeline old_pipeline = *registry->resolve(pipeline);
  write_file(shader_path, shader_source("vec4<f32>(0.0, 1.0, 0.0, 1.0)"), false);
  hand_to_worker_and_let_it_compile();
  EXPECT_TRUE(reloader->poll().empty());  // the green pipeline is asked for
  ASSERT_EQ(reloader->building(), 1u);

  // Saved again while green is being built: green is out of date wherever it is.
  write_file(shader_path, shader_source("vec4<f32>(0.0, 0.0, 1.0, 1.0)"), false);
  EXPECT_TRUE(reloader->poll().empty());
  EXPECT_EQ(reloader->superseded_builds(), 1u);
  EXPECT_EQ(reloader->building(), 0u);
  EXPECT_EQ(*registry->resolve(pipeline), old_pipeline);
  EXPECT_EQ(draw(pipeline), kRed);

  auto reports = frames_until_reload();
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_TRUE(reports[0].applied) << reports[0].error;
  EXPECT_EQ(draw(pipeline), (Pixel{0, 0, 255, 255}));
  EXPECT_EQ(reloader->superseded_builds(), 1u);
}

TEST_F(HotReloadTest, PipelinesStillBuildingWhenTheReloaderGoesAreReleasedNeverPublished) {
  write_file(shader_path, shader_source("vec4<f32>(1.0, 0.0, 0.0, 1.0)"), false);
  RenderPipelineHandle pipeline = load_pipeline();
  WGPURenderPipeline old_pipeline = *registry->resolve(pipeline);
  write_file(shader_path, shader_source("vec4<f32>(0.0, 1.0, 0.0, 1.0)"), false);
  hand_to_worker_and_let_it_compile();
  EXPECT_TRUE(reloader->poll().empty());
  ASSERT_EQ(reloader->building(), 1u);

  // As when the device is replaced: the reloader of the old one goes with a build in flight.
  reloader.reset();
  for (int i = 0; i < 20; ++i) {
    ctx->process_events();  // the late callback finds no reloader and releases its pipeline
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(*registry->resolve(pipeline), old_pipeline);
  EXPECT_EQ(draw(pipeline), kRed);
}

TEST_F(HotReloadTest, ARebuildThatFailsKeepsTheOldModuleAndPipeline) {
  write_file(shader_path, shader_source("vec4<f32>(1.0, 0.0, 0.0, 1.0)"), false);
  RenderPipelineHandle pipeline = load_pipeline();
  WGPUShaderModule old_module = *registry->resolve(module_);
  WGPURenderPipeline old_pipeline = *registry->resolve(pipeline);

  // Compiles, but the fragment entry point the pipeline names is gone.
  std::string renamed = shader_source("vec4<f32>(0.0, 1.0, 0.0, 1.0)");
  renamed.replace(renamed.find("fn fs("), 6, "fn fs_renamed(");
  write_file(shader_path, renamed, false);
  auto reports = frames_until_reload();
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_FALSE(reports[0].applied);
  EXPECT_TRUE(reports[0].diagnostics.empty());
  EXPECT_THAT(reports[0].error, HasSubstr("render pipeline \"tint pass\""));
  EXPECT_EQ(registry->diagnostics().count(MessageId::HotReloadKeptPrevious), 1u);
  EXPECT_EQ(*registry->resolve(module_), old_module);
  EXPECT_EQ(*registry->resolve(pipeline), old_pipeline);
  EXPECT_EQ(draw(pipeline), kRed);
}

TEST_F(HotReloadTest, OnlyFilesLoadedFromDiskCanBeWatched) {
  write_file(shader_path, shader_source("vec4<f32>(1.0, 0.0, 0.0, 1.0)"), false);
  load_pipeline();
  auto inline_module = shaders->compile("inline.wgsl", shader_source("vec4<f32>(1.0)"));
  ASSERT_TRUE(inline_module.ok()) << inline_module.error().message;
  auto watched = reloader->watch(*inline_module);
  ASSERT_FALSE(watched.ok());
  EXPECT_EQ(watched.error().kind, ErrorKind::InvalidArgument);
  EXPECT_THAT(watched, FailsWith(MessageId::HotReloadNotFromFile));
}

class HotReloadWithoutSyncTest : public warden::testing::NullDeviceTest {
 protected:
  void SetUp() override {
    dev = warden::testing::open_test_device(gpu::BackendChoice::Null, /*synchronized=*/false);
    ASSERT_NE(dev, nullptr);
  }
};

TEST_F(HotReloadWithoutSyncTest, ADeviceWithoutImplicitSynchronizationIsRefused) {
  resources::Registry registry(*dev->context, dev->device.get(), dev->queue.get());
  shaders::ShaderManager shaders(*dev->context, registry);
  PipelineLibrary pipelines(*dev->context, registry);
  auto created = HotReloader::create(*dev->context, shaders, pipelines);
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.error().kind, ErrorKind::Refused);
  EXPECT_THAT(created, FailsWith(MessageId::HotReloadNeedsImplicitSync));
  EXPECT_THAT(created.error().message, HasSubstr("WGPUFeatureName_ImplicitDeviceSynchronization"));
}

}  // namespace
}  // namespace warden::pipelines
