// Hot reload against a frame loop, on the bench backend (bench_support.h): how long the worker
// compiles, how long frame boundaries (HotReloader::poll) take while that compile runs and
// while the pipelines are built asynchronously, and the longest frame of the whole reload.
// Printed as one JSON object (ms).
//   hot_reload_<size>_compile_ms             read + compile on the worker
//   hot_reload_<size>_max_poll_ms_compiling  slowest frame boundary while the worker compiled
//   hot_reload_<size>_frames_while_compiling frame boundaries that ran meanwhile
//   hot_reload_<size>_request_ms             asking for the pipelines (inside one boundary)
//   hot_reload_<size>_build_ms               from that request to the boundary that swapped
//   hot_reload_<size>_frames_while_building  frame boundaries that ran meanwhile
//   hot_reload_<size>_swap_poll_ms           the boundary that swapped
//   hot_reload_<size>_frame_stall_ms         the slowest boundary of the whole reload: a frame
//                                            frozen that long (target: <= 16 ms on Vulkan)
//   hot_reload_backend                       the backend it ran on
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "bench_support.h"
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
  if (!context) return bench::exit_for("hot_reload_scenario", context.error());
  gpu::Context& ctx = **context;
  gpu::DeviceOptions options;
  options.label = "hot reload scenario";
  options.required_features = {WGPUFeatureName_ImplicitDeviceSynchronization};
  auto opened = bench::open_bench_device(ctx, std::move(options));
  if (!opened) return bench::exit_for("hot_reload_scenario", opened.error());
  const WGPUDevice device = opened->device.get();

  auto dir = std::filesystem::temp_directory_path() / fmt::format("warden_hot_reload_bench_{}", ::getpid());
  std::filesystem::create_directories(dir);
  nlohmann::json out = nlohmann::json::object();
  out["hot_reload_backend"] = bench::backend_name(*opened);
  {
    resources::Registry registry(ctx, device, opened->queue.get());
    shaders::ShaderManager shaders(ctx, registry);
    pipelines::PipelineLibrary library(ctx, registry);
    auto reloader = pipelines::HotReloader::create(ctx, shaders, library);
    if (!reloader) return fmt::print(stderr, "{}\n", reloader.error().message), 1;

    for (auto [name, padding] : {std::pair<std::string, std::string>{"typical", ""}, {"1mb", megabyte_padding()}}) {
      auto path = dir / (name + ".wgsl");
      std::ofstream(path) << shader(padding, "vec4<f32>(1.0, 0.0, 0.0, 1.0)");
      auto module = shaders.load(path);
      if (!module) return fmt::print(stderr, "{}\n", module.error().message), 1;
      resources::RenderPipelineDescription d;
      d.label = name;
      d.vertex = {*module, "vs", {}};
      d.fragment = resources::ShaderStage{*module, "fs", {}};
      d.targets = {resources::ColorTarget{}};
      if (auto p = library.create_render_pipeline(d); !p) return fmt::print(stderr, "{}\n", p.error().message), 1;
      if (auto w = (*reloader)->watch(*module); !w) return fmt::print(stderr, "{}\n", w.error().message), 1;

      std::ofstream(path) << shader(padding, "vec4<f32>(0.0, 1.0, 0.0, 1.0)");
      double max_poll_compiling = 0, stall = 0, swap_poll = 0;
      int frames_compiling = 0, frames_building = 0;
      pipelines::ReloadReport report;
      auto deadline = Clock::now() + std::chrono::seconds(120);
      while (Clock::now() < deadline) {
        const bool compiling = (*reloader)->in_flight() > (*reloader)->ready();
        const bool building = (*reloader)->building() > 0;
        auto start = Clock::now();
        auto reports = (*reloader)->poll();
        const double poll_ms = ms(Clock::now() - start);
        registry.poll();
        if ((*reloader)->in_flight() > 0 || !reports.empty()) stall = std::max(stall, poll_ms);
        if (!reports.empty()) {
          report = reports.front();
          swap_poll = poll_ms;
          break;
        }
        if (compiling) {
          max_poll_compiling = std::max(max_poll_compiling, poll_ms);
          ++frames_compiling;
        }
        frames_building += building;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));  // the rest of a frame
      }
      if (!report.applied) return fmt::print(stderr, "reload of {} failed: {}\n", name, report.error), 1;
      const std::string key = "hot_reload_" + name;
      out[key + "_compile_ms"] = report.compile_ms;
      out[key + "_max_poll_ms_compiling"] = max_poll_compiling;
      out[key + "_frames_while_compiling"] = frames_compiling;
      out[key + "_request_ms"] = report.request_ms;
      out[key + "_build_ms"] = report.build_ms;
      out[key + "_frames_while_building"] = frames_building;
      out[key + "_swap_poll_ms"] = swap_poll;
      out[key + "_frame_stall_ms"] = stall;
    }
  }
  std::filesystem::remove_all(dir);
  opened->queue.reset();
  opened->device.reset();
  ctx.process_events();
  fmt::print("{}\n", out.dump());
  return 0;
}
