// DemoReport: what a demo run measured, frame by frame and in total, and the two files it is
// written as: report.json (for tools and the closing note) and report.html (for people: one
// self-contained page of charts and snapshots, see report_html.h).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "warden/core/result.h"

namespace warden::demo {

/// One frame, as the charts plot it.
struct FrameSample {
  /// The frame number.
  uint32_t frame = 0;
  /// Wall-clock time to record and submit it, milliseconds.
  double frame_ms = 0;
  /// The LayerPool's layers by state.
  ///@{
  uint32_t layers_free = 0, layers_in_flight = 0, layers_allocated = 0;
  ///@}
  uint64_t vram_bytes = 0;  ///< resident tile bytes
  uint32_t uploads = 0;     ///< tiles uploaded this frame
  uint32_t misses = 0;      ///< acquires that found no free layer this frame
  uint64_t cpu_cache_bytes = 0;  ///< decoded tile bytes kept in memory (the TileLayers' TexelCaches)
};

/// What happened at a ReportEvent.
enum class ReportEventKind { DeviceLoss, ShaderReload };
const char* to_string(ReportEventKind kind);  ///< "device_loss", "shader_reload"

/// Something that happened during the run.
struct ReportEvent {
  /// The frame it happened at.
  uint32_t frame = 0;
  /// What happened.
  ReportEventKind kind = ReportEventKind::DeviceLoss;
};

/// A snapshot the run wrote (frame-NNNN.png); the HTML report inlines the file.
struct ReportSnapshot {
  /// The frame shown.
  uint32_t frame = 0;
  /// Where it was written.
  std::filesystem::path png;
};

/// Everything report.json and report.html say about a run.
struct DemoReport {
  /// The backend and adapter it ran on.
  ///@{
  std::string backend, adapter;
  ///@}
  /// The tile budget.
  uint64_t vram_budget_bytes = 0;
  /// The budget of decoded tiles kept in memory (TileLayerOptions::cpu_cache_budget_bytes, both
  /// layers together).
  uint64_t cpu_cache_budget_bytes = 0;
  /// Tiles uploaded from memory instead of fetched (also in tiles_uploaded), and of those the
  /// ancestors uploaded after a rebuild before the first frame on the new device.
  ///@{
  uint64_t memory_uploads = 0, restored_after_loss = 0;
  ///@}
  /// Frames drawn.
  uint64_t frames = 0;
  /// Losses, recoveries and shader reloads applied (the Engine's counters); nullopt: not
  /// measured by this run (written as null).
  ///@{
  std::optional<uint64_t> device_losses, recoveries, hot_reloads;
  ///@}
  /// Errors the device reported to no error scope, and the frames they came from (the Engine's
  /// counters: a frame whose commands were refused draws nothing); nullopt: not measured.
  ///@{
  std::optional<uint64_t> uncaptured_errors, frames_with_errors;
  ///@}
  /// Tiles uploaded, fetches failed, acquires that found no free layer.
  ///@{
  uint64_t tiles_uploaded = 0, tile_fetch_failures = 0, acquire_misses = 0;
  ///@}
  uint64_t blocking_waits = 0;  ///< waits the frame thread made during the frame loop (docs/design.md, invariant 1)
  /// What the registry still held after the run destroyed what it made (its live counts).
  std::optional<uint64_t> leaked_objects;
  std::vector<double> recovery_ms;  ///< one per loss, in order: from the loss to the first frame drawn after it
  /// Frames drawn and frames skipped (no device: recovering).
  ///@{
  uint64_t frames_drawn = 0, frames_skipped = 0;
  /// --window: frames presented to the window, and surfaces made (one per device generation).
  uint64_t window_frames_presented = 0, window_surfaces = 0;
  ///@}
  /// Frames that began with resident tile bytes above the budget (0 by design).
  uint64_t budget_exceeded_frames = 0;
  /// Per loss: the frame it came at, the first frame drawn on the next device, and the first
  /// frame after it that drew every visible tile as itself (no ancestor standing in); 0: never.
  struct Loss {
    /// See above.
    ///@{
    uint32_t frame = 0, first_drawn = 0, settled = 0;
    ///@}
    /// The bound on frames_to_settled: ceil(visible tiles of first_drawn / memory uploads per frame).
    uint32_t settle_bound_frames = 0;
    /// The last frame before the loss that was snapshotted (the one blankness is measured against).
    std::optional<uint32_t> compared_frame;
    /// Of the pixels that showed the map (not the clear colour) in compared_frame, the share
    /// that show the clear colour in first_drawn; nullopt when either snapshot is missing.
    std::optional<double> first_drawn_blank_fraction;
    /// settled - first_drawn; nullopt when it never settled.
    std::optional<uint32_t> frames_to_settled() const {
      return settled >= first_drawn && first_drawn != 0 && settled != 0 ? std::optional<uint32_t>(settled - first_drawn)
                                                                          : std::nullopt;
    }
  };
  /// One per loss, in order.
  std::vector<Loss> losses;
  /// Hot reloads the Engine reported that did not apply (a broken shader file kept the old one).
  uint64_t reload_failures = 0;
  /// Faults injected, by kind (PlannedFaultKind's names).
  std::map<std::string, uint64_t> faults_injected;
  /// The rebuild policy gave up (its words in gave_up_message).
  bool gave_up = false;
  /// See gave_up.
  std::string gave_up_message;
  /// Dawn references outstanding after the Engine was destroyed ("none"), or "off".
  std::string ledger_outstanding = "off";
  /// LayerPool::check_invariants failures, checked every frame.
  uint64_t layer_invariant_violations = 0;
  /// Careless-client misuses that did not come back as a clean error.
  uint64_t unclean_misuse = 0;
  /// Camera, layer choice and handles the same after every recovery as before the loss.
  bool app_state_preserved = true;

  std::vector<FrameSample> samples;  ///< in frame order
  /// Losses and reloads, in order.
  std::vector<ReportEvent> events;
  /// The frames written as PNG.
  std::vector<ReportSnapshot> snapshots;
};

/// The frame time below which `quantile` (in [0, 1]) of the samples lie, nearest rank; 0 when
/// there are no samples.
double frame_ms_quantile(const std::vector<FrameSample>& samples, double quantile);
/// The largest vram_bytes of the samples; 0 when there are none.
uint64_t vram_peak_bytes(const std::vector<FrameSample>& samples);
/// The largest cpu_cache_bytes of the samples; 0 when there are none.
uint64_t cpu_cache_peak_bytes(const std::vector<FrameSample>& samples);

/// Of the pixels of `before` that are not `clear`, the share that are `clear` in `after` (two
/// RGBA8 images of the same size; a pixel is `clear` within 1 a channel); 0 when `before` shows
/// nothing but `clear`, nullopt when the sizes differ.
std::optional<double> blank_fraction(const std::vector<uint8_t>& before, const std::vector<uint8_t>& after,
                                     const std::array<uint8_t, 4>& clear);

/// The report as JSON: the totals under the keys issue 13 lists (frames, device_losses,
/// recoveries, hot_reloads, uncaptured_errors, frames_with_errors, tiles_uploaded, tile_fetch_failures, acquire_misses,
/// vram_budget_bytes, vram_peak_bytes, blocking_waits, leaked_objects, frame_ms_p50,
/// frame_ms_p99, recovery_ms, backend, adapter), the memory cache's (cpu_cache_budget_bytes,
/// cpu_cache_peak_bytes, memory_uploads, restored_after_loss), "losses" (each with
/// first_drawn_blank_fraction and frames_to_settled, null when not measured), then "series" (one array per FrameSample field,
/// the columns the charts plot), "events" and "snapshots" (file names).
std::string report_json(const DemoReport& report);
/// Writes report_json(report) to `path`; errors name the path.
Result<void> write_report_json(const DemoReport& report, const std::filesystem::path& path);

}  // namespace warden::demo
