// Scenario: the smoke job's compute half timed end to end (upload, dispatch, readback).
// Prints one JSON object: smoke_compute_ms (median of 5 runs after one warm-up), smoke_backend.
#include <algorithm>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench_support.h"
#include "warden/app/smoke.h"
#include "warden/gpu/names.h"

int main() {
  using namespace warden;
  auto ctx = gpu::Context::create();
  if (!ctx) return bench::exit_for("smoke_scenario", ctx.error());
  auto opened = bench::open_bench_device(*ctx.value());
  if (!opened) return bench::exit_for("smoke_scenario", opened.error());
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
  nlohmann::json out = {{"smoke_compute_ms", times[times.size() / 2]}, {"smoke_backend", bench::backend_name(*opened)}};
  fmt::print("{}\n", out.dump());
  return 0;
}
