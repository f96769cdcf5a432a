// `warden smoke`: the compute + render smoke job on the chosen backend.
#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/output.h"
#include "cli/gpu_setup.h"
#include "warden/app/smoke.h"
#include "warden/gpu/names.h"

namespace warden::cli {
namespace {

std::string rgba(const std::array<uint8_t, 4>& p) {
  return fmt::format("({}, {}, {}, {})", p[0], p[1], p[2], p[3]);
}

int run_smoke_command(const std::string& backend) {
  int exit_code = kExitOk;
  auto opened = open_gpu(backend, exit_code);
  if (!opened) return exit_code;
  const auto& d = opened->adapter.description;
  if (d.backend == WGPUBackendType_Null) {
    // Its readbacks hold whatever the buffers held: every comparison would fail for no fault.
    print_err("warden: the Null backend executes nothing, so the smoke job cannot run on it; "
              "choose --backend auto, vulkan, gl or gles\n");
    return kExitUsage;
  }
  print_out("smoke: adapter '{}' on {} ({})\n", d.device, gpu::to_string(d.backend), gpu::to_string(d.feature_level));
  auto device = opened->context->request_device(opened->adapter.adapter.get(), {});
  if (!device) {
    print_err("warden: {}\n", device.error().message);
    return kExitFailure;
  }
  auto report = app::run_smoke(*opened->context, device->get());
  if (!report) {
    print_err("warden: smoke job could not run: {}\n", report.error().message);
    return kExitFailure;
  }
  print_out("smoke: compute doubled {} u32 values, {} mismatches, {:.2f} ms -> {}\n",
             report->compute_elements, report->compute_mismatches, report->compute_ms,
             report->compute_ok() ? "ok" : "FAILED");
  print_out("smoke: render 64x64 triangle: centre {} (want {}), corner {} (want {}) -> {}\n",
             rgba(report->center_pixel), rgba(report->expected_triangle), rgba(report->corner_pixel),
             rgba(report->expected_clear), report->render_ok() ? "ok" : "FAILED");
  return report->ok() ? kExitOk : kExitFailure;
}

}  // namespace

void add_smoke_command(CLI::App& app, CommandRun& run) {
  auto* cmd = app.add_subcommand("smoke", "Run the compute + render smoke job and check the readbacks");
  auto backend = std::make_shared<std::string>("auto");
  cmd->add_option("--backend", *backend, "auto, vulkan, gl, gles or null")->capture_default_str();
  cmd->callback([&run, backend] { run = [backend] { return run_smoke_command(*backend); }; });
}

}  // namespace warden::cli
