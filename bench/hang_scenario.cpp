// The hang watchdog against a real long dispatch, through the Engine (issue 25).
//
// A compute shader whose every invocation runs a loop whose count it reads from a uniform (so
// the compiler cannot fold it) is dispatched once, sized to run for about
// WARDEN_HANG_DISPATCH_MS (default 2000) on this device, with EngineOptions::hang_limit at
// WARDEN_HANG_LIMIT_MS (default 250). The frame thread then polls every millisecond and records
// what it sees:
//   hang_queue_submit_ms    how long Engine::submit (QueueSubmit) blocked for the long dispatch
//   hang_detected_ms        from the submit call to the watchdog letting the device go; null if
//                           the work finished first (a backend that ran it inside submit)
//   hang_work_done_ms       from the submit call to the dispatch retiring; null if it was let go
//   hang_longest_poll_ms    the longest single poll() meanwhile (letting a busy device go may
//                           block inside the driver)
//   hang_recovered          the watchdog fired, the next device came up and ran a short dispatch
//                           with the right result
//   hang_recovery_ms        from the watchdog firing to that result read back
//   hang_dispatch_per_invocation_ns the calibration: one invocation's share of a dispatch
// and hang_limit_ms, hang_dispatch_target_ms, hang_loop_count, hang_invocations, hang_backend.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench_support.h"
#include "warden/engine/engine.h"
#include "warden/gpu/names.h"
#include "warden/pipelines/build.h"

namespace {

using namespace warden;
using Clock = std::chrono::steady_clock;

// Slots of the result buffer: invocation n adds its value into slot n % kSlots.
constexpr uint32_t kSlots = 4096;
constexpr uint64_t kResultBytes = uint64_t{kSlots} * 4;
constexpr uint32_t kWorkgroupSize = 64;
constexpr uint32_t kMaxWorkgroupsPerRow = 65535;
// Every invocation's loop: under Mesa llvmpipe's cap of 65535 iterations a loop, so the
// dispatch's length is set by how many invocations it has.
constexpr uint32_t kLoopCount = 50000;

constexpr const char* kShader = R"(
struct Params { count : u32, seed : u32 };
@group(0) @binding(0) var<uniform> params : Params;
@group(0) @binding(1) var<storage, read_write> results : array<atomic<u32>>;
@compute @workgroup_size(64)
fn spin(@builtin(global_invocation_id) id : vec3<u32>, @builtin(num_workgroups) groups : vec3<u32>) {
  let n = id.x + id.y * groups.x * 64u;
  var x = n ^ params.seed;
  for (var i = 0u; i < params.count; i = i + 1u) {
    x = x * 1664525u + 1013904223u;
  }
  atomicXor(&results[n % 4096u], x);
}
)";

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

long env_or(const char* name, long fallback) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return fallback;
  const long parsed = std::strtol(value, nullptr, 10);
  if (parsed <= 0) throw std::runtime_error(fmt::format("{} must be a positive number of milliseconds", name));
  return parsed;
}

template <typename T>
T take(Result<T> r) {
  if (!r) throw std::runtime_error(r.error().message);
  return std::move(r.value());
}

// How big a dispatch is: `rows` rows of `per_row` workgroups.
struct Size {
  uint32_t per_row = 1, rows = 1;
  double invocations() const { return static_cast<double>(per_row) * rows * kWorkgroupSize; }
};
Size size_for(double workgroups) {
  const double clamped = std::clamp(workgroups, 1.0, double{kMaxWorkgroupsPerRow} * kMaxWorkgroupsPerRow);
  if (clamped <= kMaxWorkgroupsPerRow) return {static_cast<uint32_t>(clamped), 1};
  return {kMaxWorkgroupsPerRow, static_cast<uint32_t>(std::ceil(clamped / kMaxWorkgroupsPerRow))};
}

// What slot 0 holds after a dispatch of `size` with `seed` (the check that it really ran), or
// nothing when working it out here would take long.
std::optional<uint32_t> expected_first(Size size, uint32_t seed) {
  const uint64_t invocations = static_cast<uint64_t>(size.invocations());
  if (invocations / kSlots > 256) return std::nullopt;
  uint32_t slot = 0;
  for (uint64_t n = 0; n < invocations; n += kSlots) {
    uint32_t x = static_cast<uint32_t>(n) ^ seed;
    for (uint32_t i = 0; i < kLoopCount; ++i) x = x * 1664525u + 1013904223u;
    slot ^= x;
  }
  return slot;
}

// The dispatch's objects, in the registry: made again on every device the engine comes to.
struct Spin {
  BufferHandle params, results, readback;
  ComputePipelineHandle pipeline;
  BindGroupHandle group;
};

Spin build(engine::Engine& engine) {
  resources::Registry& reg = engine.registry();
  Spin s;
  s.params = take(reg.create_buffer({16, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, false, "hang params"}));
  s.results = take(reg.create_buffer({kResultBytes, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, false,
                                      "hang results", resources::ContentsSource::None}));
  s.readback = take(reg.create_buffer({kResultBytes, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, false,
                                       "hang readback", resources::ContentsSource::None}));
  auto module = take(reg.create_shader_module(kShader, "hang shader"));
  const resources::LayoutEntry entries[] = {
      {.binding = 0, .visibility = WGPUShaderStage_Compute, .type = resources::BufferLayout{}},
      {.binding = 1, .visibility = WGPUShaderStage_Compute,
       .type = resources::BufferLayout{.type = WGPUBufferBindingType_Storage}},
  };
  auto layout = take(reg.create_bind_group_layout(pipelines::translate_layout_entries(entries), "hang layout"));
  BindGroupLayoutHandle layouts[] = {layout};
  auto pipeline_layout = take(reg.create_pipeline_layout(layouts, "hang pipeline layout"));
  s.pipeline = take(reg.create_compute_pipeline({.label = "hang spin", .layout = pipeline_layout,
                                                 .compute = {module, "spin", {}}}));
  s.group = take(reg.create_bind_group(
      {layout, {{0, resources::BufferBinding{s.params}}, {1, resources::BufferBinding{s.results}}}, "hang group"}));
  return s;
}

struct Submitted {
  Serial serial;
  double submit_ms = 0;
};

// One dispatch of `size`, its results cleared before and copied for readback after.
Submitted dispatch(engine::Engine& engine, const Spin& s, Size size, uint32_t seed) {
  resources::Registry& reg = engine.registry();
  const uint32_t params[4] = {kLoopCount, seed, 0, 0};
  if (auto w = reg.write_buffer(s.params, 0, params, sizeof params); !w) throw std::runtime_error(w.error().message);
  auto frame = take(engine.begin_frame());
  auto [pipeline, group, results, readback] = take(frame.use(s.pipeline, s.group, s.results, s.readback));
  const gpu::Procs& p = engine.procs();
  p.CommandEncoderClearBuffer(frame.encoder(), results, 0, kResultBytes);
  WGPUComputePassEncoder pass = p.CommandEncoderBeginComputePass(frame.encoder(), nullptr);
  p.ComputePassEncoderSetPipeline(pass, pipeline);
  p.ComputePassEncoderSetBindGroup(pass, 0, group, 0, nullptr);
  p.ComputePassEncoderDispatchWorkgroups(pass, size.per_row, size.rows, 1);
  p.ComputePassEncoderEnd(pass);
  p.ComputePassEncoderRelease(pass);
  p.CommandEncoderCopyBufferToBuffer(frame.encoder(), results, 0, readback, 0, kResultBytes);
  const auto start = Clock::now();
  Serial serial = take(engine.submit(std::move(frame)));
  return {serial, ms_since(start)};
}

uint32_t read_first(engine::Engine& engine, const Spin& s) {
  auto buffer = take(engine.registry().resolve(s.readback));
  auto bytes = take(engine.context().read_mapped(buffer, kResultBytes, std::chrono::seconds(60)));
  uint32_t first = 0;
  std::memcpy(&first, bytes.data(), sizeof first);
  return first;
}

// Polls until `serial` retires; the milliseconds from `start`.
double wait_retired(engine::Engine& engine, Serial serial, Clock::time_point start) {
  while (!engine.registry().clock().is_retired(serial)) {
    engine.poll();
    if (engine.state() != engine::EngineState::Ready) throw std::runtime_error("the device went away while calibrating");
    if (ms_since(start) > 120000) throw std::runtime_error("a calibration dispatch did not finish within 120 s");
  }
  return ms_since(start);
}

Result<std::unique_ptr<engine::Engine>> make_engine(gpu::BackendChoice backend, long limit_ms) {
  engine::EngineOptions options;
  options.device.backend = backend;
  options.device.label = "hang scenario";
  options.hot_reload = false;
  options.hang_limit = std::chrono::milliseconds(limit_ms);
  return engine::Engine::create(options);
}

nlohmann::json run(std::unique_ptr<engine::Engine> engine, long limit_ms, long target_ms) {
  const Spin spin = build(*engine);

  // Calibration, after one dispatch that pays for compiling the pipeline (GL compiles at first
  // use): double the count until one dispatch takes a measurable time, well under the limit.
  {
    const auto start = Clock::now();
    (void)wait_retired(*engine, dispatch(*engine, spin, Size{}, 3).serial, start);
  }
  double workgroups = 1;
  double per_invocation_ms = 0;
  for (;;) {
    const Size size = size_for(workgroups);
    const auto start = Clock::now();
    const Submitted s = dispatch(*engine, spin, size, 7);
    const double took = wait_retired(*engine, s.serial, start);
    // Checked while working the answer out here is quick (the smaller sizes, which a fast GPU
    // passes through on its way up too).
    if (const auto expected = expected_first(size, 7); expected && read_first(*engine, spin) != *expected) {
      throw std::runtime_error("calibration: wrong result");
    }
    if (took >= std::min<double>(20.0, limit_ms / 4.0) || workgroups >= 1 << 24) {
      per_invocation_ms = took / size.invocations();
      break;
    }
    workgroups *= 2;
  }
  const Size long_size = size_for(static_cast<double>(target_ms) / per_invocation_ms / kWorkgroupSize);

  nlohmann::json out;
  out["hang_backend"] = gpu::to_string(engine->backend());
  out["hang_limit_ms"] = limit_ms;
  out["hang_dispatch_target_ms"] = target_ms;
  out["hang_loop_count"] = kLoopCount;
  out["hang_invocations"] = long_size.invocations();
  out["hang_dispatch_per_invocation_ns"] = per_invocation_ms * 1e6;

  const uint64_t hangs_before = engine->counters().hangs;
  const auto start = Clock::now();
  const Submitted long_one = dispatch(*engine, spin, long_size, 11);
  out["hang_queue_submit_ms"] = long_one.submit_ms;
  double longest_poll = 0;
  std::optional<double> detected_ms, done_ms;
  while (!detected_ms && !done_ms) {
    const auto poll_start = Clock::now();
    engine->poll();
    longest_poll = std::max(longest_poll, ms_since(poll_start));
    if (engine->counters().hangs > hangs_before) {
      detected_ms = ms_since(start);
    } else if (engine->registry().clock().is_retired(long_one.serial)) {
      done_ms = ms_since(start);
    } else if (ms_since(start) > 10.0 * static_cast<double>(target_ms + limit_ms) + 60000) {
      throw std::runtime_error("the long dispatch neither finished nor was called a hang");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  out["hang_detected_ms"] = detected_ms ? nlohmann::json(*detected_ms) : nlohmann::json(nullptr);
  out["hang_work_done_ms"] = done_ms ? nlohmann::json(*done_ms) : nlohmann::json(nullptr);
  out["hang_longest_poll_ms"] = longest_poll;

  bool recovered = false;
  if (detected_ms) {
    const auto let_go = Clock::now();
    if (auto ready = engine->wait_until_ready(std::chrono::seconds(60)); !ready) throw std::runtime_error(ready.error().message);
    (void)dispatch(*engine, spin, Size{}, 13);
    recovered = engine->device_generation() == 2 && read_first(*engine, spin) == expected_first(Size{}, 13);
    out["hang_recovery_ms"] = ms_since(let_go);
  } else {
    const std::optional<uint32_t> expected = expected_first(long_size, 11);
    if (const uint32_t got = read_first(*engine, spin); expected && got != *expected) {
      throw std::runtime_error(fmt::format("the long dispatch gave {:#x}, not {:#x}", got, *expected));
    }
    out["hang_recovery_ms"] = nullptr;
  }
  out["hang_recovered"] = recovered;
  fmt::print(stderr,
             "hang_scenario: {}: submit blocked {:.1f} ms; {}; longest poll {:.1f} ms; recovered: {}\n",
             out["hang_backend"].get<std::string>(), long_one.submit_ms,
             detected_ms ? fmt::format("watchdog fired at {:.1f} ms", *detected_ms)
                         : fmt::format("work finished at {:.1f} ms, no hang seen", *done_ms),
             longest_poll, recovered);
  return out;
}

}  // namespace

int main() {
  auto backend = bench::requested_backend();
  if (!backend) return bench::exit_for("hang_scenario", backend.error());
  try {
    const long limit_ms = env_or("WARDEN_HANG_LIMIT_MS", 250);
    const long target_ms = env_or("WARDEN_HANG_DISPATCH_MS", 2000);
    auto engine = make_engine(*backend, limit_ms);
    if (!engine) return bench::exit_for("hang_scenario", engine.error());  // no adapter: a skip
    // WARDEN_HANG_TRACE=1: every report with its time, to see where a slow poll spends it.
    if (const char* trace = std::getenv("WARDEN_HANG_TRACE"); trace != nullptr && *trace == '1') {
      engine.value()->diagnostics().set_sink([start = Clock::now()](const Diagnostic& d) {
        fmt::print(stderr, "[{:9.1f} ms] {}: {}\n", ms_since(start), d.category, d.message);
      });
    }
    fmt::print("{}\n", run(std::move(engine.value()), limit_ms, target_ms).dump());
  } catch (const std::exception& e) {
    return bench::exit_for("hang_scenario", make_error(ErrorKind::Internal, e.what()));
  }
  return 0;
}
