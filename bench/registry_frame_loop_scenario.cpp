// Scenario: 1,000 frames that create, use, submit and destroy a buffer, a texture, a view and a
// bind group every frame through the Registry (resources::run_churn_frames), on the default
// backend. Prints one JSON object:
//   frame_loop_blocking_waits  blocking waits warden made during the loop (target: 0)
//   frame_loop_frame_us        mean wall time of one frame
//   frame_loop_max_pending     most releases deferred at once (how far retirement lagged)
//   registry_frame_loop_backend the backend it ran on
#include <chrono>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench_support.h"
#include "harness/churn.h"
#include "warden/gpu/names.h"

int main() {
  using namespace warden;
  auto ctx = gpu::Context::create();
  if (!ctx) return bench::exit_for("registry_frame_loop_scenario", ctx.error());
  auto opened = bench::open_bench_device(*ctx.value());
  if (!opened) return bench::exit_for("registry_frame_loop_scenario", opened.error());
  constexpr uint32_t kFrames = 1000;
  nlohmann::json out;
  {
    resources::Registry registry(*ctx.value(), opened->device.get(), opened->queue.get());
    auto start = std::chrono::steady_clock::now();
    auto report = resources::run_churn_frames(registry, kFrames);
    auto elapsed = std::chrono::steady_clock::now() - start;
    if (!report) {
      fmt::print(stderr, "registry_frame_loop_scenario: {}\n", report.error().message);
      return 1;
    }
    out = {{"frame_loop_blocking_waits", report->blocking_waits},
           {"frame_loop_frame_us",
            std::chrono::duration<double, std::micro>(elapsed).count() / kFrames},
           {"frame_loop_max_pending", report->max_pending_releases},
           {"registry_frame_loop_backend", bench::backend_name(*opened)}};
    // Teardown may wait for the queue: outside the measured loop, as a tool would.
    (void)ctx.value()->wait_queue_idle(opened->queue.get(), std::chrono::seconds(20));
    registry.poll();
  }
  fmt::print(stderr, "registry_frame_loop_scenario: backend {}\n",
             gpu::to_string(opened->adapter.description.backend));
  fmt::print("{}\n", out.dump());
  return 0;
}
