// The headless tile-map demo: the scripted camera over Blue Marble day and night tiles (or a
// slippy folder), fetched on a worker thread, uploaded into one texture_2d_array through
// TileCache and LayerPool, drawn with one instanced draw into an offscreen target; snapshots
// read back without waiting on the frame path; a DemoReport at the end.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "warden/core/diagnostics.h"
#include "warden/core/result.h"
#include "warden/demo/progress.h"
#include "warden/demo/report.h"
#include "warden/gpu/context.h"

namespace warden::demo {

/// What `warden demo` runs with (its options, one to one).
struct DemoOptions {
  /// Frames to draw.
  uint32_t frames = 240;
  /// The target's size.
  ///@{
  uint32_t width = 640, height = 384;  ///< width: a multiple of 64 (readback rows of 256 bytes)
  ///@}
  /// Seeds the fetch latency and failures.
  uint64_t seed = 1;
  uint64_t budget_mb = 32;             ///< resident tile bytes, both layers together
  /// Where snapshots and the report go.
  std::filesystem::path out = "out/demo";
  std::filesystem::path tiles_dir;     ///< empty: Blue Marble from xplanet-images
  /// Each tile fetch waits this long.
  std::chrono::milliseconds fetch_latency{15};
  /// The share of fetches failed on purpose, in [0, 1].
  double fetch_failure_rate = 0.05;
  uint32_t max_zoom = 6;               ///< deepest tiles fetched; deeper views magnify these
  uint32_t snapshots = 6;              ///< spread over the run, the last frame included (at most one a frame)
  /// Headless there is no display to pace frames: each frame starts this long after the one
  /// before (a 60 Hz display by default), so fetch latency is felt as on screen. 0: no pacing.
  std::chrono::milliseconds frame_interval{16};
};

/// Every bad option is an InvalidArgument error naming it and the allowed range.
Result<void> check_options(const DemoOptions& options);

/// The frames that get a snapshot: `options.snapshots` spread evenly, ending at the last frame.
std::vector<uint32_t> snapshot_frames(const DemoOptions& options);

/// The device the demo draws with (the caller opened it).
struct DemoDevice {
  /// The context it came from.
  const gpu::Context* context = nullptr;
  /// The device.
  gpu::Device device = nullptr;
  /// Its queue.
  gpu::Queue queue = nullptr;
  /// The backend and adapter names, for the report.
  ///@{
  std::string backend, adapter;
  ///@}
};

/// Runs the demo, writes frame-NNNN.png, report.json and report.html into options.out, and
/// returns the report. `progress` may be null. Bad tiles and failed snapshots are reported to
/// `log` (category "demo.tiles"), possibly from the server's worker thread.
Result<DemoReport> run_tile_map_demo(const DemoDevice& gpu, const DemoOptions& options, ProgressLine* progress,
                                     Diagnostics& log);

}  // namespace warden::demo
