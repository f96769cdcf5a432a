/// @file
/// RecoveryTimings: where the Engine's last recovery spent its time, from the loss to the first
/// frame submitted on the new device, measured as it ran (docs/PERFORMANCE.md, "Recovery").
#pragma once

#include <cstdint>

#include "warden/resources/registry.h"

namespace warden::engine {

/// One recovery, in wall-clock milliseconds on the frame thread. The four parts follow each
/// other without a gap, so they add up to total_ms:
///   the loss -> device_request_ms -> rebuild_ms -> callbacks_ms -> first_frame_ms.
/// The time between two poll() calls falls into the part that was waiting for it.
struct RecoveryTimings {
  uint64_t device_generation = 0;  ///< the device generation this recovery made ready
  /// From the moment the engine let go of the lost device (at the frame call after
  /// force_device_loss, or the loss heard in poll()) to the new device in hand: the adapter
  /// and device requests.
  double device_request_ms = 0;
  /// From the new device in hand to the registry rebuilt on it.
  double rebuild_ms = 0;
  /// The registry's rebuild, by part: each kind made again, contents, refills (its total_ms is
  /// rebuild_ms less taking the device's queue).
  resources::RebuildTimings rebuild{};
  /// From the end of the rebuild to the end of ready(): the application's callbacks
  /// (on_rebuilt, on_contents_lost, observers, on_ready) and hot reload's restart.
  double callbacks_ms = 0;
  /// From ready to the first frame of the new device submitted: the application's recording
  /// and the submission, where a backend runs the deferred uploads.
  double first_frame_ms = 0;
  /// From the loss to the first frame submitted.
  double total_ms = 0;
  /// Ending the lost device after the first frame (EngineOptions::
  /// end_lost_device_after_first_frame): the time the poll() that ended it spent on it, off the
  /// recovery's path; filled in by that poll(), 0 until then and when it ended before.
  double lost_device_end_ms = 0;
};

}  // namespace warden::engine
