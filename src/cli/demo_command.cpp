// `warden demo`: the headless tile-map demo (warden::demo::run_tile_map_demo) with its options.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <vector>

#include "cli/commands.h"
#include "cli/messages.h"
#include "cli/output.h"
#include "warden/demo/tile_map_demo.h"
#include "warden/gpu/names.h"

namespace warden::cli {
namespace {

struct DemoArgs {
  demo::DemoOptions options;
  std::string size = "640x384";
  std::string backend = "auto";
  std::string out = "out/demo";
  std::string tiles;
  int64_t latency_ms = 15;
  int64_t frame_interval_ms = 16;
  std::string camera = "scripted";
  std::vector<uint32_t> lose_device_at;
  std::vector<uint32_t> reload_shader_at;
};

Result<void> parse_size(const std::string& text, uint32_t& width, uint32_t& height) {
  unsigned w = 0, h = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%ux%u%c", &w, &h, &tail) != 2) {
    return make_error(ErrorKind::InvalidArgument, MessageId::SizeOptionMalformed,
                      fmt::format("--size '{}': expected WIDTHxHEIGHT, e.g. 640x384", text));
  }
  width = w;
  height = h;
  return {};
}

int run_demo_command(DemoArgs& args) {
  demo::DemoOptions& options = args.options;
  if (auto size = parse_size(args.size, options.width, options.height); !size) {
    print_err("warden: {}\n", size.error().message);
    return kExitUsage;
  }
  options.out = args.out;
  options.tiles_dir = args.tiles;
  options.fetch_latency = std::chrono::milliseconds(args.latency_ms);
  options.frame_interval = std::chrono::milliseconds(args.frame_interval_ms);
  if (auto valid = demo::check_options(options); !valid) {
    print_err("warden: {}\n", valid.error().message);
    return kExitUsage;
  }
  auto choice = gpu::parse_backend_choice(args.backend);
  if (!choice) {
    print_err("warden: {}\n", choice.error().message);
    return kExitUsage;
  }
  options.backend = *choice;
  options.camera = args.camera == "still" ? demo::CameraMode::Still : demo::CameraMode::Scripted;
  for (uint32_t frame : args.lose_device_at) options.faults.push_back({frame, demo::PlannedFaultKind::DeviceLoss});
  for (uint32_t frame : args.reload_shader_at) options.faults.push_back({frame, demo::PlannedFaultKind::ShaderReload});
  if (auto valid = demo::check_options(options); !valid) {
    print_err("warden: {}\n", valid.error().message);
    return kExitUsage;
  }
  print_out("demo: {} frames at {}x{} ({} backend), budget {} MB, {} device losses and {} shader reloads planned\n",
            options.frames, options.width, options.height, gpu::to_string(options.backend), options.budget_mb,
            args.lose_device_at.size(), args.reload_shader_at.size());
  const demo::ProgressMode mode = demo::progress_mode_for(fileno(stdout));
  demo::ProgressLine progress(stdout, mode, 60);
  Diagnostics log;
  log.set_sink([](const Diagnostic& d) { print_err("warden: {}: {}\n", to_string(d.severity), d.message); });
  auto report = demo::run_tile_map_demo(options, &progress, log);
  if (mode == demo::ProgressMode::LiveLine) print_out("\n");  // end the status line
  if (!report) {
    print_err("warden: demo: {}\n", report.error().message);
    const ErrorKind kind = report.error().kind;
    return kind == ErrorKind::InvalidArgument || kind == ErrorKind::NotFound || library_unusable(kind)
               ? kExitUsage
               : kExitFailure;
  }
  print_out("demo: on '{}' ({}): {} device losses, {} recoveries, {} hot reloads, {} frames skipped while recovering, "
            "{} objects leaked\n",
            report->adapter, report->backend, report->device_losses.value_or(0), report->recoveries.value_or(0),
            report->hot_reloads.value_or(0), report->frames_skipped, report->leaked_objects.value_or(0));
  print_out("demo: {} tiles uploaded, {} fetch failures, {} acquire misses, {} blocking waits, frame p50 {:.2f} ms\n",
             report->tiles_uploaded, report->tile_fetch_failures, report->acquire_misses, report->blocking_waits,
             demo::frame_ms_quantile(report->samples, 0.5));
  print_out("demo: {} tiles uploaded from memory ({} before a first frame after a loss), memory peak {:.1f} MiB\n",
            report->memory_uploads, report->restored_after_loss,
            static_cast<double>(demo::cpu_cache_peak_bytes(report->samples)) / (1 << 20));
  for (const demo::DemoReport::Loss& loss : report->losses) {
    const auto to_settle = loss.frames_to_settled();
    print_out("demo: loss at frame {}: first drawn {}, blank where the map was {}, settled {} (bound {})\n", loss.frame,
              loss.first_drawn,
              loss.first_drawn_blank_fraction ? fmt::format("{:.4f}", *loss.first_drawn_blank_fraction) : "not measured",
              to_settle ? fmt::format("{} frames later", *to_settle) : "never", loss.settle_bound_frames);
  }
  print_out("demo: report {}\n", (options.out / "report.html").string());
  if (report->frames_with_errors.value_or(0) > 0 || report->uncaptured_errors.value_or(0) > 0) {
    // Frames the device refused are blank, whatever the rest of the report says.
    print_err("warden: demo: the device refused commands: {} error(s) in {} frame(s), told above\n",
              report->uncaptured_errors.value_or(0), report->frames_with_errors.value_or(0));
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace

void add_demo_command(CLI::App& app, CommandRun& run) {
  auto* cmd = app.add_subcommand("demo", "Run the tile-map demo (headless, or also in a --window) and write snapshots and a report");
  auto args = std::make_shared<DemoArgs>();
  cmd->add_option("--frames", args->options.frames, "Frames to render")->capture_default_str();
  cmd->add_option("--size", args->size, "Target size WIDTHxHEIGHT (width a multiple of 64)")->capture_default_str();
  cmd->add_option("--seed", args->options.seed, "Seed of the tile fetch failures")->capture_default_str();
  cmd->add_option("--budget-mb", args->options.budget_mb, "VRAM budget of resident tiles, MB")->capture_default_str();
  cmd->add_option("--cpu-cache-mb", args->options.cpu_cache_mb,
                  "decoded tiles kept in memory, MB (a tile lost or evicted comes back by upload, not fetch); 0: none")
      ->capture_default_str();
  cmd->add_option("--out", args->out, "Folder for frame-NNNN.png, report.json, report.html")->capture_default_str();
  cmd->add_option("--tiles", args->tiles, "A slippy-map folder DIR/{z}/{x}/{y}.png|jpg instead of Blue Marble");
  cmd->add_option("--backend", args->backend, "auto, vulkan, gl, gles or null")->capture_default_str();
  cmd->add_option("--fetch-latency-ms", args->latency_ms, "Simulated latency of each tile fetch")->capture_default_str();
  cmd->add_option("--failure-rate", args->options.fetch_failure_rate, "Share of tile fetches failed on purpose")
      ->capture_default_str();
  cmd->add_option("--frame-interval-ms", args->frame_interval_ms, "Pace of frames headless (0: as fast as possible)")
      ->capture_default_str();
  cmd->add_option("--max-zoom", args->options.max_zoom, "Deepest zoom fetched")->capture_default_str();
  cmd->add_option("--snapshots", args->options.snapshots, "Snapshots spread over the run")->capture_default_str();
  cmd->add_option("--snapshot-at", args->options.snapshot_at, "More frames to snapshot, F[,F...]")->delimiter(',');
  cmd->add_option("--lose-device-at", args->lose_device_at, "Force a device loss at these frames, F[,F...]")
      ->delimiter(',');
  cmd->add_option("--reload-shader-at", args->reload_shader_at,
                  "Rewrite the module the tile shader imports (OUT/grade.wesl) at these frames; hot reload swaps the shader, F[,F...]")
      ->delimiter(',');
  cmd->add_flag("--window", args->options.window,
                "Also show the frames in a window (needs an X display); its surface follows every device");
  cmd->add_option("--camera", args->camera, "scripted (pans and zooms) or still (the first place)")
      ->check(CLI::IsMember({"scripted", "still"}))
      ->capture_default_str();
  cmd->callback([&run, args] { run = [args] { return run_demo_command(*args); }; });
}

}  // namespace warden::cli
