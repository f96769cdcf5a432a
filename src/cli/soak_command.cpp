// `warden soak`: the demo's frame loop with faults drawn from a seed, then every check printed;
// exit 0 only when all of them held.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>

#include "cli/commands.h"
#include "cli/output.h"
#include "warden/demo/soak.h"
#include "warden/gpu/names.h"

namespace warden::cli {
namespace {

struct SoakArgs {
  uint32_t frames = 1000;
  uint64_t seed = 1;
  bool json = false;
  std::string backend = "gl";
  std::string out = "out/soak";
  uint64_t budget_mb = 8;
  std::string size = "256x256";
};

int run_soak_command(const SoakArgs& args) {
  demo::DemoOptions options;
  unsigned w = 0, h = 0;
  char tail = 0;
  if (std::sscanf(args.size.c_str(), "%ux%u%c", &w, &h, &tail) != 2) {
    print_err("warden: --size '{}': expected WIDTHxHEIGHT, e.g. 256x256\n", args.size);
    return kExitUsage;
  }
  auto backend = gpu::parse_backend_choice(args.backend);
  if (!backend) {
    print_err("warden: {}\n", backend.error().message);
    return kExitUsage;
  }
  options.width = w;
  options.height = h;
  options.frames = args.frames;
  options.seed = args.seed;
  options.backend = *backend;
  options.budget_mb = args.budget_mb;
  options.out = args.out;  // the tile shader file the faults rewrite lives here
  options.fetch_latency = std::chrono::milliseconds(2);
  options.fetch_failure_rate = 0.02;
  options.frame_interval = std::chrono::milliseconds(0);
  options.snapshots = 0;
  options.snapshot_faults = false;
  options.count_drawn_frames_only = true;
  options.ledger = true;
  options.write_report_files = false;
  options.faults = demo::soak_plan(args.frames, args.seed);
  if (auto valid = demo::check_options(options); !valid) {
    print_err("warden: {}\n", valid.error().message);
    return kExitUsage;
  }
  Diagnostics log;  // bad tiles and failed readbacks: counted in the report, kept quiet here
  const auto start = std::chrono::steady_clock::now();
  auto report = demo::run_tile_map_demo(options, nullptr, log);
  if (!report) {
    print_err("warden: soak: {}\n", report.error().message);
    const ErrorKind kind = report.error().kind;
    return kind == ErrorKind::InvalidArgument || library_unusable(kind) ? kExitUsage : kExitFailure;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::vector<demo::SoakCheck> checks = demo::soak_checks(*report, args.frames);
  const bool ok = demo::all_held(checks);
  if (args.json) {
    nlohmann::ordered_json json;
    json["frames"] = report->frames;
    json["seed"] = args.seed;
    json["backend"] = report->backend;
    json["adapter"] = report->adapter;
    json["seconds"] = seconds;
    json["faults_injected"] = report->faults_injected;
    json["resize_storm"] = "not applicable: headless";
    json["device_losses"] = report->device_losses.value_or(0);
    json["recoveries"] = report->recoveries.value_or(0);
    json["gave_up"] = report->gave_up ? nlohmann::json(report->gave_up_message) : nlohmann::json(false);
    json["leaked_objects"] = report->leaked_objects.value_or(0);
    json["ledger_outstanding"] = report->ledger_outstanding;
    json["layer_invariant_violations"] = report->layer_invariant_violations;
    json["budget_exceeded_frames"] = report->budget_exceeded_frames;
    json["app_state_preserved"] = report->app_state_preserved;
    json["unclean_misuse"] = report->unclean_misuse;
    json["blocking_waits"] = report->blocking_waits;
    json["hot_reloads"] = report->hot_reloads.value_or(0);
    json["reload_failures"] = report->reload_failures;
    json["tile_fetch_failures"] = report->tile_fetch_failures;
    json["frames_skipped"] = report->frames_skipped;
    json["recovery_ms"] = report->recovery_ms;
    nlohmann::ordered_json held;
    for (const demo::SoakCheck& c : checks) held[c.name] = c.held;
    json["checks"] = std::move(held);
    json["ok"] = ok;
    print_out("{}\n", json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  } else {
    print_out("soak: {} frames, seed {}, on '{}' ({}), {:.1f} s\n", report->frames, args.seed, report->adapter,
              report->backend, seconds);
    std::string faults;
    for (const auto& [kind, count] : report->faults_injected) faults += fmt::format(" {} {},", kind, count);
    if (!faults.empty()) faults.pop_back();
    print_out("faults_injected:{}; resize storms: not applicable (headless)\n", faults);
    print_out("device_losses {}, recoveries {}, gave_up {}\n", report->device_losses.value_or(0),
              report->recoveries.value_or(0), report->gave_up ? report->gave_up_message : "no");
    for (const demo::SoakCheck& c : checks) {
      print_out("  [{}] {}: {}\n", c.held ? "ok" : "FAILED", c.name, c.detail);
    }
    print_out("soak: {}\n", ok ? "every check held" : "a check failed");
  }
  return ok ? kExitOk : kExitFailure;
}

}  // namespace

void add_soak_command(CLI::App& app, CommandRun& run) {
  auto* cmd = app.add_subcommand("soak", "Run the demo's frame loop with random faults from a seed and check it survived");
  auto args = std::make_shared<SoakArgs>();
  cmd->add_option("--frames", args->frames, "Frames to draw (skipped frames while recovering not counted)")
      ->capture_default_str();
  cmd->add_option("--seed", args->seed, "Seed of the faults")->capture_default_str();
  cmd->add_flag("--json", args->json, "Print the results as JSON");
  cmd->add_option("--backend", args->backend, "auto, vulkan, gl or gles")->capture_default_str();
  cmd->add_option("--out", args->out, "Folder for the tile shader file the faults rewrite")->capture_default_str();
  cmd->add_option("--budget-mb", args->budget_mb, "VRAM budget of resident tiles, MB")->capture_default_str();
  cmd->add_option("--size", args->size, "Target size WIDTHxHEIGHT (width a multiple of 64)")->capture_default_str();
  cmd->callback([&run, args] { run = [args] { return run_soak_command(*args); }; });
}

}  // namespace warden::cli
