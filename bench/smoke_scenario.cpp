// Scenario: the smoke job's compute half timed end to end (upload, dispatch, readback).
// Prints one JSON object: smoke_compute_ms (median of 5 runs after one warm-up).
#include <algorithm>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "warden/app/smoke.h"
#include "warden/webgpu/names.h"

int main() {
  using namespace warden;
  auto ctx = gpu::Context::create();
  if (!ctx) {
    fmt::print(stderr, "smoke_scenario: {}\n", ctx.error().message);
    return 2;
  }
  auto opened = ctx.value()->open_device(gpu::BackendChoice::Auto);
  if (!opened) {
    fmt::print(stderr, "smoke_scenario: {}\n", opened.error().message);
    return 1;
  }
  std::vector<double> times;
  for (int i = 0; i < 6; ++i) {
    auto report = app::run_smoke(*ctx.value(), opened->device.get());
    if (!report || !report->ok()) {
      fmt::print(stderr, "smoke_scenario: smoke job failed\n");
      return 1;
    }
    if (i > 0) times.push_back(report->compute_ms);
  }
  std::sort(times.begin(), times.end());
  fmt::print(stderr, "smoke_scenario: backend {}\n", gpu::to_string(opened->adapter.description.backend));
  nlohmann::json out = {{"smoke_compute_ms", times[times.size() / 2]}};
  fmt::print("{}\n", out.dump());
  return 0;
}
