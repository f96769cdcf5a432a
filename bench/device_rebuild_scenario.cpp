// Scenario: the cost of a device loss and rebuild through the DeviceController, against the
// same churn done with raw blocking calls, in the same run (absolute numbers depend on the
// backend; docs/design.md, 'Measured': device creation is 21-23 ms on GL/llvmpipe, 61-80 ms on the H200).
// One cycle: request an adapter and a device, force a loss, see the lost callback, let go.
// Prints: device_rebuild_controller_ms, device_rebuild_raw_ms (medians per cycle),
// device_rebuild_ratio (controller / raw) and device_rebuild_controller_blocking_waits (the
// controller path must not block: expected 0), device_rebuild_backend.
#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench_support.h"
#include "warden/device/controller.h"
#include "warden/device/dawn_provider.h"
#include "warden/gpu/names.h"

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kCycles = 9;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <typename Done>
bool pump(const warden::device::DawnProvider& provider, Done done) {
  // Non-blocking polling, bounded: 10 s worth of spins is a hang, not a result.
  const auto deadline = Clock::now() + std::chrono::seconds(10);
  while (!done() && Clock::now() < deadline) {
    provider.process_events();
    std::this_thread::yield();
  }
  return done();
}

}  // namespace

int main() {
  using namespace warden;
  auto created = gpu::Context::create();
  if (!created) return bench::exit_for("device_rebuild_scenario", created.error());
  gpu::Context& ctx = *created.value();
  // The requested backend, or the one Auto chooses here (Vulkan on a GPU machine, else GL).
  auto requested = bench::requested_backend();
  if (!requested) return bench::exit_for("device_rebuild_scenario", requested.error());
  auto probe = ctx.select_adapter(*requested);
  if (!probe) return bench::exit_for("device_rebuild_scenario", probe.error());
  const WGPUBackendType backend = probe->description.backend;
  // Both paths ask for exactly the backend the probe found.
  const gpu::BackendChoice choice = backend == WGPUBackendType_Vulkan     ? gpu::BackendChoice::Vulkan
                                    : backend == WGPUBackendType_OpenGLES ? gpu::BackendChoice::GLES
                                    : backend == WGPUBackendType_Null     ? gpu::BackendChoice::Null
                                                                            : gpu::BackendChoice::GL;
  probe->adapter.reset();

  // Raw: blocking requests, then the same loss and release.
  std::vector<double> raw;
  for (int i = 0; i < kCycles; ++i) {
    const auto start = Clock::now();
    auto adapter = ctx.select_adapter(choice);
    if (!adapter) return 1;
    bool lost = false;
    gpu::DeviceOptions options;
    options.callbacks.on_lost = [&lost](WGPUDeviceLostReason, std::string_view) { lost = true; };
    auto device = ctx.request_device(adapter->adapter.get(), std::move(options));
    if (!device) return 1;
    ctx.procs().DeviceForceLoss(device->get(), WGPUDeviceLostReason_Unknown, gpu::string_view("bench"));
    while (!lost) ctx.process_events();
    device->reset();
    adapter->adapter.reset();
    raw.push_back(ms_since(start));
  }

  // Through the controller: asynchronous requests driven by process_events().
  device::DawnProvider provider(&ctx, device::DawnProviderOptions{.device = {.backend = choice}});
  device::DeviceEndPolicy end_policy(device::DeviceEndOptions{});
  device::DeviceController controller(provider, {}, device::ControllerOptions{.device_end = &end_policy});
  std::vector<double> managed;
  const uint64_t waits_before = gpu::blocking_wait_count();
  for (int i = 0; i < kCycles; ++i) {
    const auto start = Clock::now();
    if (i == 0) {
      controller.initialize();
    } else if (!controller.retry()) {
      return 1;
    }
    if (!pump(provider, [&] { return controller.state() != device::DeviceState::Starting; }) ||
        controller.state() != device::DeviceState::Ready) {
      fmt::print(stderr, "device_rebuild_scenario: {}\n", controller.message());
      return 1;
    }
    ctx.procs().DeviceForceLoss(controller.active_device()->device, WGPUDeviceLostReason_Unknown, gpu::string_view("bench"));
    if (!pump(provider, [&] { return controller.state() == device::DeviceState::Lost; })) return 1;
    managed.push_back(ms_since(start));
  }
  const uint64_t controller_waits = gpu::blocking_wait_count() - waits_before;

  const double raw_ms = median(raw);
  const double managed_ms = median(managed);
  fmt::print(stderr, "device_rebuild_scenario: backend {}, {} cycles each\n", gpu::to_string(backend), kCycles);
  nlohmann::json out = {{"device_rebuild_controller_ms", managed_ms},
                        {"device_rebuild_raw_ms", raw_ms},
                        {"device_rebuild_ratio", managed_ms / raw_ms},
                        {"device_rebuild_controller_blocking_waits", controller_waits},
                        {"device_rebuild_backend", gpu::to_string(backend)}};
  fmt::print("{}\n", out.dump());
  return 0;
}
