// The tile-map demo through the Engine: the scripted camera over Blue Marble day and night tiles
// (or a slippy folder), fetched on a worker thread, shown through two engine::TileLayers (one
// texture_2d_array each, a TileCache over the byte budget) with one instanced draw into an
// offscreen target; the tile shader a file the Engine watches (hot reload swaps it live); faults
// on purpose (device losses, shader rewrites, and for `warden soak` more kinds drawn from a
// seed); snapshots read back without waiting on the frame path; a DemoReport at the end.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "warden/core/diagnostics.h"
#include "warden/core/result.h"
#include "warden/demo/progress.h"
#include "warden/demo/report.h"
#include "warden/device/rebuild_policy.h"
#include "warden/gpu/context.h"

namespace warden::demo {

/// A fault the run injects at a frame.
enum class PlannedFaultKind {
  DeviceLoss,      ///< Engine::force_device_loss
  ShaderReload,    ///< the tile shader file rewritten with another (valid) look
  ShaderBroken,    ///< the tile shader file rewritten with a syntax error; fixed a few frames later
  FetchFailures,   ///< the next few tile fetches fail
  PoolExhaustion,  ///< every free layer of the shown map taken for a few frames
  CarelessClient,  ///< a handle destroyed twice and used after destroy
};
/// "device_loss", "shader_reload", "shader_broken", "fetch_failures", "pool_exhaustion", "careless_client".
const char* to_string(PlannedFaultKind kind);

/// One fault, at the start of `frame`.
struct PlannedFault {
  /// The frame it comes at.
  uint32_t frame = 0;
  /// What it is.
  PlannedFaultKind kind = PlannedFaultKind::DeviceLoss;
};

/// The camera: the scripted path, or still at its first place (deterministic runs to compare).
enum class CameraMode {
  Scripted,  ///< pans, zooms in and out, returns (ScriptedCamera)
  Still,     ///< the script's first place, every frame
};

/// What `warden demo` runs with (its options, one to one).
struct DemoOptions {
  /// Frames to run; a frame with no device (recovering) is skipped and counted, the camera goes on.
  uint32_t frames = 240;
  /// The target's size.
  ///@{
  uint32_t width = 640, height = 384;  ///< width: a multiple of 64 (readback rows of 256 bytes)
  ///@}
  /// Seeds the fetch latency and failures.
  uint64_t seed = 1;
  uint64_t budget_mb = 32;             ///< resident tile bytes, both layers together
  /// Decoded tiles kept in memory, both layers together (TileLayerOptions::cpu_cache_budget_bytes);
  /// 0: none, every tile not resident is fetched again.
  uint64_t cpu_cache_mb = 64;
  /// Where snapshots, the tile shader and the report go.
  std::filesystem::path out = "out/demo";
  std::filesystem::path tiles_dir;     ///< empty: Blue Marble from xplanet-images
  /// Each tile fetch waits this long.
  std::chrono::milliseconds fetch_latency{15};
  /// The share of fetches failed on purpose, in [0, 1].
  double fetch_failure_rate = 0.05;
  uint32_t max_zoom = 6;               ///< deepest tiles fetched; deeper views magnify these
  uint32_t snapshots = 6;              ///< spread over the run, the last frame included (at most one a frame)
  /// More frames to snapshot, besides the spread ones and those around faults.
  std::vector<uint32_t> snapshot_at;
  /// Headless there is no display to pace frames: each frame starts this long after the one
  /// before (a 60 Hz display by default), so fetch latency is felt as on screen. 0: no pacing.
  std::chrono::milliseconds frame_interval{16};
  /// The backend the Engine asks for (not Null: the demo reads pixels back).
  gpu::BackendChoice backend = gpu::BackendChoice::Auto;
  /// The camera path.
  CameraMode camera = CameraMode::Scripted;
  /// Faults on purpose (`--lose-device-at`, `--reload-shader-at`; `warden soak` draws more).
  std::vector<PlannedFault> faults;
  /// Snapshots just before and after each loss and each reload.
  bool snapshot_faults = true;
  /// false (the demo): `frames` counts every frame, skipped ones too; true (the soak): frames
  /// drawn, so a long recovery does not eat the run.
  bool count_drawn_frames_only = false;
  /// Counts Dawn references (warden/gpu/ledger.h) so the report can say what is outstanding.
  bool ledger = false;
  /// Also show every frame in a window (needs an X display): the offscreen target is copied to
  /// the window's surface, which is made again for each device generation.
  bool window = false;
  /// Write report.json and report.html into `out` (the soak prints instead).
  bool write_report_files = true;
};

/// Every bad option is an InvalidArgument error naming it and the allowed range.
Result<void> check_options(const DemoOptions& options);

/// The frames that get a snapshot: `options.snapshots` spread evenly, ending at the last frame.
std::vector<uint32_t> snapshot_frames(const DemoOptions& options);

/// The demo's words for its viewer when the engine's rebuild policy gave up ("Graphics are off:
/// 3 device losses within 60 s (the last: ...). They stay off until ..."): the device layer gives
/// the facts, the application says them.
std::string graphics_off_words(const device::GiveUp& why);

/// Runs the demo through an Engine on options.backend, writes frame-NNNN.png, tiles.wgsl,
/// report.json and report.html into options.out, and returns the report. `progress` may be
/// null. Bad tiles and failed snapshots are reported to `log` (under their ids' categories:
/// "demo", or the layer of a failure's own id), possibly from the server's worker thread.
Result<DemoReport> run_tile_map_demo(const DemoOptions& options, ProgressLine* progress, Diagnostics& log);

}  // namespace warden::demo
