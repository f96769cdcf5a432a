// Hot reload against a frame loop on the GL backend: how long the worker compiles, how long a
// frame boundary (HotReloader::poll) takes while that compile runs, and how long the boundary
// that rebuilds and swaps the pipeline takes. Printed as one JSON object (ms).
//   hot_reload_<size>_compile_ms             read + compile on the worker
//   hot_reload_<size>_max_poll_ms_compiling  slowest frame boundary while the worker compiled
//   hot_reload_<size>_frames_while_compiling frame boundaries that ran meanwhile
//   hot_reload_<size>_swap_poll_ms           the boundary that rebuilt the pipeline and swapped
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "warden/pipelines/hot_reload.h"

using namespace warden;
using Clock = std::chrono::steady_clock;

namespace {

std::string shader(const std::string& padding, const char* colour) {
  return padding + R"(
@vertex
fn vs(@builtin(vertex_index) i : u32) -> @builtin(position) vec4<f32> {
  var p = array<vec2<f32>, 3>(vec2<f32>(-1.0, -1.0), vec2<f32>(3.0, -1.0), vec2<f32>(-1.0, 3.0));
  return vec4<f32>(p[i], 0.0, 1.0);
}
@fragment
fn fs() -> @location(0) vec4<f32> { return )" + colour + "; }\n";
}

std::string megabyte_padding() {
  std::string source;
  for (int i = 0; source.size() < (1u << 20); ++i) {
    source += fmt::format("fn helper_{0}(x : f32) -> f32 {{\n  let y = x * {0}.0 + 1.5;\n  return y * y;\n}}\n", i);
  }
  return source;
}

double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

}  // namespace

int main() {
  auto context = gpu::Context::create();
  if (!context) return fmt::print(stderr, "{}\n", context.error().message), 1;
  gpu::Context& ctx = **context;
  gpu::DeviceOptions options;
  options.label = "hot reload scenario";
  options.required_features = {gpu::kFeatureImplicitDeviceSynchronization};
  auto opened = ctx.open_device(gpu::BackendChoice::GL, std::move(options));
  if (!opened) return fmt::print(stderr, "{}\n", opened.error().message), 1;
  const gpu::Device device = opened->device.get();

  auto dir = std::filesystem::temp_directory_path() / fmt::format("warden_hot_reload_bench_{}", ::getpid());
  std::filesystem::create_directories(dir);
  nlohmann::json out = nlohmann::json::object();
  {
    Registry registry(ctx, device, opened->queue.get());
    shaders::ShaderManager shaders(ctx, device, registry);
    pipelines::PipelineLibrary library(ctx, device, registry);
    auto reloader = pipelines::HotReloader::create(ctx, device, shaders, library);
    if (!reloader) return fmt::print(stderr, "{}\n", reloader.error().message), 1;

    for (auto [name, padding] : {std::pair<std::string, std::string>{"typical", ""}, {"1mb", megabyte_padding()}}) {
      auto path = dir / (name + ".wgsl");
      std::ofstream(path) << shader(padding, "vec4<f32>(1.0, 0.0, 0.0, 1.0)");
      auto module = shaders.load(path);
      if (!module) return fmt::print(stderr, "{}\n", module.error().message), 1;
      pipelines::RenderPipelineDescription d;
      d.label = name;
      d.vertex = {*module, "vs", {}};
      d.fragment = pipelines::ShaderStage{*module, "fs", {}};
      d.targets = {pipelines::ColorTarget{}};
      if (auto p = library.create_render_pipeline(d); !p) return fmt::print(stderr, "{}\n", p.error().message), 1;
      if (auto w = (*reloader)->watch(*module); !w) return fmt::print(stderr, "{}\n", w.error().message), 1;

      std::ofstream(path) << shader(padding, "vec4<f32>(0.0, 1.0, 0.0, 1.0)");
      double max_poll = 0, swap_poll = 0;
      int frames = 0;
      pipelines::ReloadReport report;
      auto deadline = Clock::now() + std::chrono::seconds(60);
      while (Clock::now() < deadline) {
        bool compiling = (*reloader)->in_flight() > (*reloader)->ready();
        auto start = Clock::now();
        auto reports = (*reloader)->poll();
        double poll_ms = ms(Clock::now() - start);
        registry.poll();
        if (!reports.empty()) {
          report = reports.front();
          swap_poll = poll_ms;
          break;
        }
        if (compiling) {
          max_poll = std::max(max_poll, poll_ms);
          ++frames;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));  // the rest of a frame
      }
      if (!report.applied) return fmt::print(stderr, "reload of {} failed: {}\n", name, report.error), 1;
      out["hot_reload_" + name + "_compile_ms"] = report.compile_ms;
      out["hot_reload_" + name + "_max_poll_ms_compiling"] = max_poll;
      out["hot_reload_" + name + "_frames_while_compiling"] = frames;
      out["hot_reload_" + name + "_swap_poll_ms"] = swap_poll;
      out["hot_reload_" + name + "_swap_build_ms"] = report.build_ms;
    }
  }
  std::filesystem::remove_all(dir);
  opened->queue.reset();
  opened->device.reset();
  ctx.process_events();
  fmt::print("{}\n", out.dump());
  return 0;
}
