// loss_trace: the path one device loss takes through warden, traced rather than estimated.
//
// An Engine with every callback set, a GenerationObserver and a small scene in the registry (a
// buffer with contents written, a render target, a shader module, a bind group and a render
// pipeline) draws one frame. Then, with tracing on: force_device_loss, poll until the engine is
// Ready on device generation 2, one more frame. Every function warden and this file ran in
// between is recorded by the -finstrument-functions hooks (trace_hooks.cpp) and reported by
// trace_report.cpp. scripts/loss-trace.sh builds and runs it; docs/loss-path.md reads it.
//
//   loss_trace [--backend gl|null|...] [--json PATH] [--order] [--by-file] [--timeout-ms N]
//
// Exit 0 when the loss was recovered and reported, 1 when the scenario failed, 2 for bad usage.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "trace_hooks.h"
#include "trace_report.h"
#include "warden/engine/engine.h"
#include "warden/gpu/objects.h"
#include "warden/pipelines/build.h"

namespace {

using namespace warden;

constexpr uint32_t kTargetSize = 16;

constexpr const char* kShader = R"(
struct Tint { color : vec4<f32> };
@group(0) @binding(0) var<uniform> tint : Tint;
@vertex fn vs(@builtin(vertex_index) i : u32) -> @builtin(position) vec4<f32> {
  var corners = array<vec2<f32>, 3>(vec2<f32>(-1.0, -1.0), vec2<f32>(3.0, -1.0), vec2<f32>(-1.0, 3.0));
  return vec4<f32>(corners[i], 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4<f32> { return tint.color; }
)";

// What the application heard, in order.
struct Heard {
  std::vector<std::string> events;
  uint64_t ready_generation = 0;
  size_t rebuilt_objects = 0;
};

// The application's own GPU-derived state, told of generations as a tile cache would be.
class Observer final : public engine::GenerationObserver {
 public:
  explicit Observer(Heard& heard) : heard_(heard) {}
  void device_lost(uint64_t generation) override {
    loss_trace_mark("GenerationObserver::device_lost");
    heard_.events.push_back("observer lost " + std::to_string(generation));
  }
  void device_ready(uint64_t generation) override {
    loss_trace_mark("GenerationObserver::device_ready");
    heard_.events.push_back("observer ready " + std::to_string(generation));
  }

 private:
  Heard& heard_;
};

engine::EngineCallbacks callbacks(Heard& heard) {
  engine::EngineCallbacks c;
  c.on_lost = [&heard](uint64_t generation, WGPUDeviceLostReason, std::string_view) {
    loss_trace_mark("on_lost");
    heard.events.push_back("lost " + std::to_string(generation));
  };
  c.on_rebuilt = [&heard](const resources::RebuildReport&) {
    loss_trace_mark("on_rebuilt");
    heard.events.push_back("rebuilt");
  };
  c.on_contents_lost = [&heard](const resources::ContentsLost& lost) {
    loss_trace_mark("on_contents_lost");
    heard.events.push_back("contents lost: " + std::to_string(lost.buffers.size()) + " buffers, " +
                           std::to_string(lost.textures.size()) + " textures");
  };
  c.on_ready = [&heard](uint64_t generation) {
    loss_trace_mark("on_ready");
    heard.ready_generation = generation;
    heard.events.push_back("ready " + std::to_string(generation));
  };
  c.on_failed = [&heard](const device::GiveUp&) { heard.events.push_back("failed"); };
  return c;
}

struct Scene {
  BufferHandle tint;
  TextureHandle target;
  TextureViewHandle target_view;
  ShaderModuleHandle module;
  BindGroupLayoutHandle layout;
  PipelineLayoutHandle pipeline_layout;
  BindGroupHandle group;
  RenderPipelineHandle pipeline;
};

// The value of `result`, or a message and exit 1: the scenario cannot go on without it.
template <typename T>
T take(Result<T> result, const char* what) {
  if (!result) {
    std::fprintf(stderr, "loss_trace: %s: %s\n", what, result.error().message.c_str());
    std::exit(1);
  }
  return std::move(*result);
}
void take(Result<void> result, const char* what) {
  if (!result) {
    std::fprintf(stderr, "loss_trace: %s: %s\n", what, result.error().message.c_str());
    std::exit(1);
  }
}

Scene build_scene(resources::Registry& reg) {
  Scene s;
  s.tint = take(reg.create_buffer({16, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, false, "tint"}), "buffer");
  const float color[4] = {0.2f, 0.6f, 1.0f, 1.0f};
  take(reg.write_buffer(s.tint, 0, color, sizeof color), "write_buffer");
  s.target = take(reg.create_texture({.size = {kTargetSize, kTargetSize, 1},
                                      .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc,
                                      .label = "target"}),
                  "texture");
  s.target_view = take(reg.create_texture_view(s.target, {.label = "target view"}), "texture view");
  s.module = take(reg.create_shader_module(kShader, "tinted triangle"), "shader module");
  const resources::LayoutEntry entries[] = {
      {.binding = 0, .visibility = WGPUShaderStage_Fragment, .type = resources::BufferLayout{}},
  };
  s.layout = take(reg.create_bind_group_layout(pipelines::translate_layout_entries(entries), "tint layout"), "layout");
  const BindGroupLayoutHandle layouts[] = {s.layout};
  s.pipeline_layout = take(reg.create_pipeline_layout(layouts, "pipeline layout"), "pipeline layout");
  s.group = take(reg.create_bind_group({s.layout, {{0, resources::BufferBinding{s.tint}}}, "tint group"}), "bind group");
  resources::RenderPipelineDescription pipeline;
  pipeline.label = "tinted triangle";
  pipeline.layout = s.pipeline_layout;
  pipeline.vertex = {s.module, "vs", {}};
  pipeline.fragment = resources::ShaderStage{s.module, "fs", {}};
  pipeline.targets = {resources::ColorTarget{}};
  s.pipeline = take(reg.create_render_pipeline(pipeline), "render pipeline");
  return s;
}

// One frame as an application records it: its objects through Frame::use, one draw, submit.
Result<Serial> draw_frame(engine::Engine& engine, const Scene& s) {
  auto frame = engine.begin_frame("loss-trace");
  if (!frame) return frame.error();
  if (auto objects = frame->use(s.target_view, s.pipeline, s.group)) {
    auto [view, pipeline, group] = *objects;
    const gpu::Procs& p = engine.procs();
    WGPURenderPassEncoder pass = gpu::begin_clear_pass(p, frame->encoder(), view);
    p.RenderPassEncoderSetPipeline(pass, pipeline);
    p.RenderPassEncoderSetBindGroup(pass, 0, group, 0, nullptr);
    p.RenderPassEncoderDraw(pass, 3, 1, 0, 0);
    p.RenderPassEncoderEnd(pass);
    p.RenderPassEncoderRelease(pass);
  }
  return engine.submit(std::move(*frame));
}

int usage(const char* why) {
  std::fprintf(stderr,
               "loss_trace: %s\nusage: loss_trace [--backend gl|null|vulkan|gles|auto] [--json PATH] [--order] "
               "[--by-file] [--timeout-ms N]\n",
               why);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  gpu::BackendChoice backend = gpu::BackendChoice::GL;  // what the engine's pixel tests use (llvmpipe here)
  loss_trace::ReportOptions report;
  report.repo_root = LOSS_TRACE_REPO_ROOT;
  long timeout_ms = 20000;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--backend" && has_value) {
      auto choice = gpu::parse_backend_choice(argv[++i]);
      if (!choice) return usage(choice.error().message.c_str());
      backend = *choice;
    } else if (arg == "--json" && has_value) {
      report.json_path = argv[++i];
    } else if (arg == "--timeout-ms" && has_value) {
      timeout_ms = std::strtol(argv[++i], nullptr, 10);
    } else if (arg == "--order") {
      report.print_order = true;
    } else if (arg == "--by-file") {
      report.print_by_file = true;
    } else {
      return usage(("unknown or incomplete argument '" + std::string(arg) + "'").c_str());
    }
  }

  Heard heard;
  engine::EngineOptions options;
  options.device.backend = backend;
  auto created = engine::Engine::create(std::move(options), callbacks(heard));
  if (!created) {
    std::fprintf(stderr, "loss_trace: %s\n", created.error().message.c_str());
    return 1;
  }
  engine::Engine& engine = **created;
  Observer observer(heard);
  engine.add_observer(observer);
  const Scene scene = build_scene(engine.registry());
  take(draw_frame(engine, scene), "the frame before the loss");
  // Its work is done before tracing begins: a completion heard in the traced polls would make
  // the path depend on timing.
  for (int i = 0; i < 10000 && engine.registry().clock().in_flight() != 0; ++i) {
    engine.poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }

  // The traced part: the loss, the recovery, and the first frame on the new device.
  uint64_t polls = 0;
  const auto began = std::chrono::steady_clock::now();
  const auto deadline = began + std::chrono::milliseconds(timeout_ms);
  loss_trace_set_enabled(true);
  auto forced = engine.force_device_loss("trace");
  loss_trace_mark("force_device_loss returned");
  while (forced && !(engine.state() == engine::EngineState::Ready && engine.device_generation() == 2) &&
         engine.state() != engine::EngineState::Failed && std::chrono::steady_clock::now() < deadline) {
    engine.poll();
    ++polls;
    if (engine.state() != engine::EngineState::Ready) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  loss_trace_mark("Ready on device generation 2");
  Result<Serial> after = forced ? draw_frame(engine, scene) : Result<Serial>(forced.error());
  loss_trace_mark("first frame submitted");
  loss_trace_set_enabled(false);
  const double traced_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();

  const bool recovered = forced && after && engine.device_generation() == 2 && heard.ready_generation == 2;
  nlohmann::json scenario = {{"backend", gpu::to_string(backend)},
                             {"recovered", recovered},
                             {"device_generation", engine.device_generation()},
                             {"polls", polls},
                             {"traced_ms", traced_ms},
                             {"events", heard.events}};
  std::printf("loss_trace: backend %s, device generation 1 -> %llu, %llu polls, %.1f ms traced; heard:",
              gpu::to_string(backend), static_cast<unsigned long long>(engine.device_generation()),
              static_cast<unsigned long long>(polls), traced_ms);
  for (const std::string& event : heard.events) std::printf(" [%s]", event.c_str());
  std::printf("\n");
  if (!forced) std::fprintf(stderr, "loss_trace: force_device_loss: %s\n", forced.error().message.c_str());
  if (forced && !after) std::fprintf(stderr, "loss_trace: the frame after the loss: %s\n", after.error().message.c_str());
  if (!recovered) std::fprintf(stderr, "loss_trace: the device did not come back as generation 2\n");
  engine.remove_observer(observer);
  const bool reported = loss_trace::report_trace(report, scenario);
  return recovered && reported ? 0 : 1;
}
