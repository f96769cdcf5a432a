// `warden window`: a GLFW window presenting a spinning textured cube with debug-draw axes and
// reverse-Z depth, through the Engine: the scene is made once in its registry, a PresentTarget
// follows every device generation (a new surface each, the device marked presenting at its
// first present), frames are recorded through Frame::use, and --lose-device-at shows the window
// going on across losses. Without a display it says so and exits 2.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <optional>
#include <regex>
#include <thread>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/messages.h"
#include "cli/output.h"
#include "warden/debugdraw/debug_drawer.h"
#include "warden/engine/engine.h"
#include "warden/gpu/names.h"
#include "warden/pipelines/build.h"
#include "warden/present/depth.h"
#include "warden/present/math.h"
#include "warden/present/readback.h"
#include "warden/present/render_target.h"
#include "warden/present/window.h"

namespace warden::cli {
namespace {

using present::Mat4;
using present::Vec3;

constexpr const char* kCubeWgsl = R"(
struct Frame { clip_from_model : mat4x4<f32> }
@group(0) @binding(0) var<uniform> frame : Frame;
@group(0) @binding(1) var checker_sampler : sampler;
@group(0) @binding(2) var checker : texture_2d<f32>;
struct Out {
  @builtin(position) position : vec4<f32>,
  @location(0) uv : vec2<f32>,
}
@vertex fn vs(@location(0) position : vec3<f32>, @location(1) uv : vec2<f32>) -> Out {
  var out : Out;
  out.position = frame.clip_from_model * vec4<f32>(position, 1.0);
  out.uv = uv;
  return out;
}
@fragment fn fs(in : Out) -> @location(0) vec4<f32> { return textureSample(checker, checker_sampler, in.uv); }
)";

struct CubeVertex {
  float x, y, z, u, v;
};

// 4 vertices a face (each face has its own texture coordinates), counter-clockwise from outside.
std::vector<CubeVertex> cube_vertices() {
  const Vec3 normals[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  std::vector<CubeVertex> out;
  for (const Vec3& n : normals) {
    const Vec3 up = std::abs(n.y) > 0 ? Vec3{0, 0, -n.y} : Vec3{0, 1, 0};
    const Vec3 right = present::cross(up, n);
    const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (const auto& [s, t] : corners) {
      const Vec3 p = n + right * s + up * t;
      out.push_back({p.x, p.y, p.z, (s + 1) / 2, (1 - t) / 2});
    }
  }
  return out;
}

std::vector<uint16_t> cube_indices() {
  std::vector<uint16_t> out;
  for (uint16_t face = 0; face < 6; ++face) {
    const uint16_t b = face * 4;
    for (uint16_t i : {0, 1, 2, 0, 2, 3}) out.push_back(static_cast<uint16_t>(b + i));
  }
  return out;
}

// The cube's texture is application data on the CPU: an 8x8 checker of orange and cream.
std::vector<uint8_t> checker_texels(uint32_t size) {
  std::vector<uint8_t> texels(size * size * 4);
  for (uint32_t y = 0; y < size; ++y)
    for (uint32_t x = 0; x < size; ++x) {
      const bool dark = ((x / (size / 8)) + (y / (size / 8))) % 2 == 0;
      uint8_t* p = &texels[(y * size + x) * 4];
      p[0] = dark ? 230 : 250;
      p[1] = dark ? 110 : 240;
      p[2] = dark ? 30 : 220;
      p[3] = 255;
    }
  return texels;
}

// The scene: every object in the engine's registry, made once; each comes back after a loss.
class CubeScene {
 public:
  static Result<std::unique_ptr<CubeScene>> create(resources::Registry& registry, WGPUTextureFormat colour_format) {
    std::unique_ptr<CubeScene> scene(new CubeScene(registry));
    if (auto built = scene->build(colour_format); !built) return built.error();
    return scene;
  }

  ~CubeScene() {
    (void)registry_.destroy_bind_group(bind_group_);
    (void)registry_.destroy_render_pipeline(pipeline_);
    (void)registry_.destroy_pipeline_layout(pipeline_layout_);
    (void)registry_.destroy_bind_group_layout(group_layout_);
    (void)registry_.destroy_shader_module(shader_);
    (void)registry_.destroy_sampler(sampler_);
    (void)registry_.destroy_texture_view(checker_view_);
    (void)registry_.destroy_texture(checker_);
    (void)registry_.destroy_buffer(vertices_);
    (void)registry_.destroy_buffer(indices_);
    (void)registry_.destroy_buffer(uniforms_);
    if (depth_) depth_->destroy();
  }

  // Records one frame's pass into `target` (width x height) at time `seconds`, with the objects
  // the frame uses. A use that fails (the device went meanwhile) leaves the frame to be dropped.
  Result<void> record(engine::Frame& frame, TextureViewHandle target, uint32_t width, uint32_t height, float seconds) {
    if (!depth_) {
      auto depth = present::RenderTarget::create(registry_, {.width = width, .height = height, .format = present::kDepthFormat,
                                                             .usage = WGPUTextureUsage_RenderAttachment, .label = "cube depth"});
      if (!depth) return depth.error();
      depth_.emplace(std::move(depth.value()));
    } else if (auto resized = depth_->resize(width, height); !resized) {
      return resized;
    }
    const float aspect = static_cast<float>(width) / static_cast<float>(height);
    const Mat4 clip_from_world = present::perspective_reverse_z_infinite(std::numbers::pi_v<float> / 3, aspect, 0.1f) *
                                 present::look_at({3.0f, 2.4f, 4.2f}, {0, 0, 0}, {0, 1, 0});
    const Mat4 clip_from_model = clip_from_world * present::rotation_y(seconds) * present::rotation_x(seconds * 0.45f);
    if (auto written = registry_.write_buffer(uniforms_, 0, clip_from_model.m.data(), sizeof clip_from_model.m); !written) {
      return written;
    }
    lines_.clear();
    lines_.axes({0, 0, 0}, 2.2f);
    lines_.box({-1.8f, -1.8f, -1.8f}, {1.8f, 1.8f, 1.8f}, debugdraw::rgba(120, 120, 140));
    if (auto uploaded = drawer_->upload(lines_, clip_from_world); !uploaded) return uploaded;

    auto used = frame.use(target, depth_->view(), pipeline_, bind_group_, vertices_, indices_, uniforms_);
    if (!used) return {};  // the frame keeps the failure: submit drops it and says why
    const auto [colour_view, depth_view, pipeline, group, vertices, indices, uniforms] = *used;
    const gpu::Procs& procs = registry_.procs();
    WGPURenderPassColorAttachment colour{};
    colour.depthSlice = WGPU_DEPTH_SLICE_UNDEFINED;
    colour.view = colour_view;
    colour.loadOp = WGPULoadOp_Clear;
    colour.storeOp = WGPUStoreOp_Store;
    colour.clearValue = {0.08, 0.09, 0.12, 1};
    const auto depth = present::reverse_z_depth_attachment(depth_view);
    WGPURenderPassDescriptor desc{};
    desc.colorAttachmentCount = 1;
    desc.colorAttachments = &colour;
    desc.depthStencilAttachment = &depth;
    WGPURenderPassEncoder pass = procs.CommandEncoderBeginRenderPass(frame.encoder(), &desc);
    procs.RenderPassEncoderSetPipeline(pass, pipeline);
    procs.RenderPassEncoderSetBindGroup(pass, 0, group, 0, nullptr);
    procs.RenderPassEncoderSetVertexBuffer(pass, 0, vertices, 0, WGPU_WHOLE_SIZE);
    procs.RenderPassEncoderSetIndexBuffer(pass, indices, WGPUIndexFormat_Uint16, 0, WGPU_WHOLE_SIZE);
    procs.RenderPassEncoderDrawIndexed(pass, 36, 1, 0, 0, 0);
    drawer_->draw(pass);
    procs.RenderPassEncoderEnd(pass);
    procs.RenderPassEncoderRelease(pass);
    return {};
  }

  const debugdraw::DebugDrawer& lines() const { return *drawer_; }

 private:
  explicit CubeScene(resources::Registry& registry) : registry_(registry) {}

  Result<void> build(WGPUTextureFormat colour_format) {
    const auto vertices = cube_vertices();
    const auto indices = cube_indices();
    auto vb = registry_.create_buffer({.size = vertices.size() * sizeof(CubeVertex),
                                       .usage = WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, .label = "cube vertices"});
    if (!vb) return vb.error();
    vertices_ = *vb;
    auto ib = registry_.create_buffer({.size = indices.size() * sizeof(uint16_t),
                                       .usage = WGPUBufferUsage_Index | WGPUBufferUsage_CopyDst, .label = "cube indices"});
    if (!ib) return ib.error();
    indices_ = *ib;
    auto ub = registry_.create_buffer({.size = sizeof(Mat4::m), .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst,
                                       .label = "cube transform"});
    if (!ub) return ub.error();
    uniforms_ = *ub;
    if (auto w = registry_.write_buffer(vertices_, 0, vertices.data(), vertices.size() * sizeof(CubeVertex)); !w) return w;
    if (auto w = registry_.write_buffer(indices_, 0, indices.data(), indices.size() * sizeof(uint16_t)); !w) return w;

    constexpr uint32_t kChecker = 64;
    auto texture = registry_.create_texture({.size = {kChecker, kChecker, 1},
                                             .usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst,
                                             .binding_view_dimension = WGPUTextureViewDimension_2D, .label = "checker"});
    if (!texture) return texture.error();
    checker_ = *texture;
    const auto texels = checker_texels(kChecker);
    if (auto w = registry_.write_texture(checker_, {.size = {kChecker, kChecker, 1}, .bytes_per_row = kChecker * 4},
                                         texels.data(), texels.size());
        !w) {
      return w;
    }
    auto view = registry_.create_texture_view(checker_);
    if (!view) return view.error();
    checker_view_ = *view;
    auto sampler = registry_.create_sampler({.mag_filter = WGPUFilterMode_Linear, .min_filter = WGPUFilterMode_Linear,
                                             .label = "checker"});
    if (!sampler) return sampler.error();
    sampler_ = *sampler;
    auto shader = registry_.create_shader_module(kCubeWgsl, "cube");
    if (!shader) return shader.error();
    shader_ = *shader;

    // A uniform buffer, a filtering sampler and a float 2D texture (LayoutEntry's defaults).
    const resources::LayoutEntry entries[] = {
        {.binding = 0, .visibility = WGPUShaderStage_Vertex, .type = resources::BufferLayout{}},
        {.binding = 1, .visibility = WGPUShaderStage_Fragment, .type = resources::SamplerLayout{}},
        {.binding = 2, .visibility = WGPUShaderStage_Fragment, .type = resources::TextureLayout{}},
    };
    auto group_layout = registry_.create_bind_group_layout(pipelines::translate_layout_entries(entries), "cube");
    if (!group_layout) return group_layout.error();
    group_layout_ = *group_layout;
    const BindGroupLayoutHandle layouts[] = {group_layout_};
    auto pipeline_layout = registry_.create_pipeline_layout(layouts, "cube");
    if (!pipeline_layout) return pipeline_layout.error();
    pipeline_layout_ = *pipeline_layout;
    auto group = registry_.create_bind_group({.layout = group_layout_,
                                              .entries = {{0, resources::BufferBinding{uniforms_}}, {1, sampler_}, {2, checker_view_}},
                                              .label = "cube"});
    if (!group) return group.error();
    bind_group_ = *group;

    resources::RenderPipelineDescription desc;
    desc.label = "cube";
    desc.layout = pipeline_layout_;
    desc.vertex = {shader_, "vs", {}};
    desc.vertex_buffers = {{sizeof(CubeVertex), WGPUVertexStepMode_Vertex,
                            {{WGPUVertexFormat_Float32x3, offsetof(CubeVertex, x), 0},
                             {WGPUVertexFormat_Float32x2, offsetof(CubeVertex, u), 1}}}};
    desc.cull_mode = WGPUCullMode_Back;
    desc.depth = present::reverse_z_depth();
    desc.fragment = resources::ShaderStage{shader_, "fs", {}};
    desc.targets = {resources::ColorTarget{.format = colour_format}};
    auto pipeline = registry_.create_render_pipeline(desc);
    if (!pipeline) return pipeline.error();
    pipeline_ = *pipeline;

    auto drawer = debugdraw::DebugDrawer::create(registry_, {.colour_format = colour_format});
    if (!drawer) return drawer.error();
    drawer_ = std::move(drawer.value());
    return {};
  }

  resources::Registry& registry_;
  BufferHandle vertices_, indices_, uniforms_;
  TextureHandle checker_;
  TextureViewHandle checker_view_;
  SamplerHandle sampler_;
  ShaderModuleHandle shader_;
  BindGroupLayoutHandle group_layout_;
  PipelineLayoutHandle pipeline_layout_;
  BindGroupHandle bind_group_;
  RenderPipelineHandle pipeline_;
  std::optional<present::RenderTarget> depth_;
  std::unique_ptr<debugdraw::DebugDrawer> drawer_;
  debugdraw::LineList lines_;
};

struct WindowArgs {
  int frames = 0;  // 0: until the window is closed
  std::string size = "640x480";
  std::string screenshot;
  std::vector<int> lose_device_at;  // frames (counted from 1) after which the device is lost
};

Result<present::WindowSize> parse_size(const std::string& text) {
  static const std::regex pattern(R"(([0-9]{1,5})x([0-9]{1,5}))");
  std::smatch m;
  if (std::regex_match(text, m, pattern)) {
    present::WindowSize size{static_cast<uint32_t>(std::stoul(m[1])), static_cast<uint32_t>(std::stoul(m[2]))};
    if (size.has_area()) return size;
  }
  return make_error(ErrorKind::InvalidArgument, MessageId::SizeOptionMalformed,
                    fmt::format("--size must be WIDTHxHEIGHT with both at least 1 (e.g. 640x480), not '{}'", text));
}

// The engine owns the device and the window's presentation; the app records frames.
class WindowApp {
 public:
  static Result<std::unique_ptr<WindowApp>> create(present::Window& window, present::WindowSize size) {
    engine::EngineOptions options;
    options.device.backend = gpu::BackendChoice::GL;
    options.device.label = "warden window";
    options.hot_reload = false;
    engine::EngineCallbacks callbacks;
    callbacks.on_uncaptured_error = [](const engine::UncapturedError& error) {
      print_err("warden: GPU error ({}): {}\n", engine::describe_origin(error), error.message);
    };
    auto made = engine::Engine::create(std::move(options), std::move(callbacks));
    // Its kind stays: a missing library is the user's to fix (exit 2), a device that never came
    // is a failure (exit 1).
    if (!made) return make_error(made.error().kind, MessageId::WindowDeviceNotReady, made.error().message);
    std::unique_ptr<WindowApp> app(new WindowApp(std::move(*made)));
    // Every device ended, in the controller's words, told wherever it happens (the last one
    // at the engine's end).
    app->engine_->diagnostics().set_sink([ended = app->ended_](const Diagnostic& d) {
      if (d.id == MessageId::DeviceEnded) ended->push_back(d.message);
    });
    auto target = app->engine_->present_to(window.surface_source(), size.width, size.height, {.label = "window"});
    if (!target) return target.error();
    app->target_ = std::move(*target);
    auto scene = CubeScene::create(app->engine_->registry(), app->target_->format());
    if (!scene) return scene.error();
    app->scene_ = std::move(*scene);
    return app;
  }

  ~WindowApp() { end(); }

  // One loop turn: poll, then a frame when there is a device and the window has area. Returns
  // whether a frame was presented.
  Result<bool> frame(present::WindowSize size, float seconds, const std::string& screenshot) {
    engine_->poll();
    if (engine_->state() == engine::EngineState::Failed) {
      return make_error(ErrorKind::DeviceFailed, MessageId::WindowDeviceNotReady, engine_->message());
    }
    if (engine_->state() != engine::EngineState::Ready) return false;  // recovering: skip the frame
    target_->resize(size.width, size.height);
    auto acquired = target_->acquire();
    if (!acquired) return acquired.error();
    if (!acquired->has_value()) return false;
    const present::SwapchainImage& image = **acquired;
    auto frame = engine_->begin_frame("window");
    if (!frame) return frame.error();
    if (auto recorded = scene_->record(*frame, image.view, image.width, image.height, seconds); !recorded) {
      return recorded.error();
    }
    if (auto submitted = engine_->submit(std::move(*frame)); !submitted) return submitted.error();
    if (!screenshot.empty()) {
      auto shot = present::read_image(engine_->context(), engine_->device(), engine_->queue(), image.texture);
      if (!shot) return shot.error();
      if (auto written = present::write_png(*shot, screenshot); !written) return written.error();
    }
    if (auto presented = target_->present(); !presented) return presented.error();
    return true;
  }

  Result<void> lose_device() { return engine_->force_device_loss("warden window --lose-device-at"); }

  // The scene and the window go first, then the engine, which ends its last device.
  void end() {
    scene_.reset();
    target_.reset();
    engine_.reset();
  }

  const engine::PresentTarget& target() const { return *target_; }
  uint64_t device_generation() const { return engine_->device_generation(); }
  // "device generation N ended: ...", each device the engine let go of, in order.
  const std::vector<std::string>& ended() const { return *ended_; }

 private:
  explicit WindowApp(std::unique_ptr<engine::Engine> engine) : engine_(std::move(engine)) {}

  std::shared_ptr<std::vector<std::string>> ended_ = std::make_shared<std::vector<std::string>>();
  std::unique_ptr<engine::Engine> engine_;
  std::unique_ptr<engine::PresentTarget> target_;
  std::unique_ptr<CubeScene> scene_;
};

int run_window_command(const WindowArgs& args) {
  auto size = parse_size(args.size);
  if (!size) {
    print_err("warden: {}\n", size.error().message);
    return kExitUsage;
  }
  if (args.frames < 0) {
    print_err("warden: --frames must be 0 (until closed) or more, not {}\n", args.frames);
    return kExitUsage;
  }
  // Before any GPU work: no display is the user's situation to fix, not a GPU failure.
  if (auto display = present::check_display(); !display) {
    print_err("warden: {}\n", display.error().message);
    return kExitUsage;
  }
  auto window = present::Window::open({.title = "warden", .width = size->width, .height = size->height});
  if (!window) {
    print_err("warden: {}\n", window.error().message);
    return kExitUsage;
  }
  auto app = WindowApp::create(**window, *size);
  if (!app) {
    print_err("warden: {}\n", app.error().message);
    return app.error().kind == ErrorKind::LibraryMissing ? kExitUsage : kExitFailure;
  }
  int presented = 0;
  for (int turn = 0; args.frames == 0 || presented < args.frames; ++turn) {
    (*window)->poll_events();
    if ((*window)->should_close()) break;
    const bool last = args.frames > 0 && presented + 1 == args.frames;
    auto shown = (*app)->frame((*window)->framebuffer_size(), static_cast<float>(turn) / 60.0f,
                               last ? args.screenshot : "");
    if (!shown) {
      print_err("warden: {}\n", shown.error().message);
      return kExitFailure;
    }
    if (*shown) {
      ++presented;
      if (std::find(args.lose_device_at.begin(), args.lose_device_at.end(), presented) != args.lose_device_at.end()) {
        if (auto lost = (*app)->lose_device(); !lost) print_err("warden: {}\n", lost.error().message);
      }
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(16));  // minimised: nothing to draw
    }
  }
  const engine::PresentTarget& target = (*app)->target();
  const auto& counters = target.counters();
  print_out("window: presented {} frames at {}x{} ({}), {} configure(s), {} skipped, {} surface(s) over {} device "
            "generation(s)\n",
            presented, size->width, size->height, gpu::to_string(target.format()), counters.configures,
            counters.frames_skipped, counters.surfaces_created, (*app)->device_generation());
  (*app)->end();
  for (const std::string& ended : (*app)->ended()) print_out("window: {}\n", ended);
  if (!args.screenshot.empty()) print_out("window: screenshot {}\n", args.screenshot);
  return kExitOk;
}

}  // namespace

void add_window_command(CLI::App& app, CommandRun& run) {
  auto* cmd = app.add_subcommand("window", "Open a window and present a spinning textured cube (needs an X display)");
  auto args = std::make_shared<WindowArgs>();
  cmd->add_option("--frames", args->frames, "frames to present, then exit (0: until the window is closed)")
      ->capture_default_str();
  cmd->add_option("--size", args->size, "window size, WIDTHxHEIGHT")->capture_default_str();
  cmd->add_option("--screenshot", args->screenshot, "write the last frame to this PNG file (needs --frames)");
  cmd->add_option("--lose-device-at", args->lose_device_at,
                  "lose the device after these presented frames (comma-separated); the window goes on")
      ->delimiter(',');
  cmd->callback([&run, args] { run = [args] { return run_window_command(*args); }; });
}

}  // namespace warden::cli
