// ScriptedCamera: the demo's camera as a pure function of the frame, so a run is the same
// every time: a pan, a fast zoom in and out (it drives the layer pool to exhaustion), another
// pan, and a return to the first place (its tiles come back from the cache). The night layer
// shows in the middle of the run, the day layer before and after.
#pragma once

#include <cstdint>

#include "warden/demo/mercator.h"

namespace warden::demo {

/// Which Blue Marble map a frame shows.
enum class MapLayer { Day, Night };
/// "day" or "night".
const char* to_string(MapLayer layer);

/// Where the camera looks in one frame.
struct CameraPose {
  /// The point at the centre of the view.
  LatLon centre;
  double zoom = 0;  ///< fractional: zoom 3.5 draws zoom-3 tiles at 1.41x
};

/// The demo's camera path over a run of `frames` frames: pans, zooms in and out fast, returns.
class ScriptedCamera {
 public:
  /// A path spread over `frames` frames (0 is taken as 1).
  explicit ScriptedCamera(uint32_t frames) : frames_(frames == 0 ? 1 : frames) {}
  /// Where the camera is at `frame`.
  CameraPose pose(uint32_t frame) const;
  /// Which map `frame` shows.
  MapLayer layer(uint32_t frame) const;

 private:
  double progress(uint32_t frame) const;  // [0, 1]
  uint32_t frames_;
};

}  // namespace warden::demo
