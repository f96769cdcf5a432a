// What every scenario shares: which backend it runs on, and how it tells scripts/bench.sh that it
// cannot run on this machine (a skip) rather than that it failed.
//
// A scenario runs on the backend WARDEN_BENCH_BACKEND names (auto, vulkan, gl, gles, null), or
// on the best the machine has (BackendChoice::Auto: Vulkan where it offers a GPU, else GL). It
// records the backend it ran on under a `<scenario>_backend` key. No library, or no adapter for
// the requested backend (GL asked for on a machine without libEGL.so), is "cannot run here":
// the scenario prints why and exits with kSkipped; every other error exits 1.
#pragma once

#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "warden/core/result.h"
#include "warden/gpu/context.h"
#include "warden/gpu/names.h"

namespace warden::bench {

// The exit status of a scenario that cannot run on this machine (automake's SKIP value).
inline constexpr int kSkipped = 77;

inline Result<gpu::BackendChoice> requested_backend() {
  const char* named = std::getenv("WARDEN_BENCH_BACKEND");
  if (named == nullptr || *named == '\0') return gpu::BackendChoice::Auto;
  auto choice = gpu::parse_backend_choice(named);
  if (!choice) return make_error(ErrorKind::InvalidArgument, fmt::format("WARDEN_BENCH_BACKEND: {}", choice.error().message));
  return choice;
}

inline bool cannot_run_here(const Error& error) {
  return error.kind == ErrorKind::LibraryMissing || error.kind == ErrorKind::NoAdapter;
}

// Prints `error` for `scenario` and returns its exit status: kSkipped or 1.
inline int exit_for(std::string_view scenario, const Error& error) {
  const bool skipped = cannot_run_here(error);
  fmt::print(stderr, "{}: {}{}\n", scenario, skipped ? "skipped, cannot run here: " : "", error.message);
  return skipped ? kSkipped : 1;
}

// The requested backend's device, or the error exit_for() turns into an exit status.
inline Result<gpu::OpenedDevice> open_bench_device(const gpu::Context& context, gpu::DeviceOptions options = {}) {
  auto choice = requested_backend();
  if (!choice) return choice.error();
  return context.open_device(*choice, std::move(options));
}

// A micro-benchmark's world's context and device: Null, or (`on_machine`) the device
// requested_backend() names; `synchronized`: requested with ImplicitDeviceSynchronization (Dawn
// takes calls from several threads only then).
struct WorldDevice {
  std::unique_ptr<gpu::Context> context;
  gpu::OpenedDevice gpu;
};
inline Result<WorldDevice> open_world_device(bool synchronized, bool on_machine) {
  auto ctx = gpu::Context::create();
  if (!ctx) return ctx.error();
  gpu::DeviceOptions options;
  if (synchronized) options.required_features = {WGPUFeatureName_ImplicitDeviceSynchronization};
  auto choice = on_machine ? requested_backend() : Result<gpu::BackendChoice>(gpu::BackendChoice::Null);
  if (!choice) return choice.error();
  auto opened = ctx.value()->open_device(*choice, std::move(options));
  if (!opened) return opened.error();
  return WorldDevice{std::move(ctx.value()), std::move(opened.value())};
}

inline std::string backend_name(const gpu::OpenedDevice& opened) {
  return gpu::to_string(opened.adapter.description.backend);
}

}  // namespace warden::bench
