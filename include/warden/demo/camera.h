// ScriptedCamera: the demo's camera as a pure function of the frame, so a run is the same
// every time: a pan, a fast zoom in and out (it drives the layer pool to exhaustion), another
// pan, and a return to the first place (its tiles come back from the cache). The night layer
// shows in the middle of the run, the day layer before and after.
#pragma once

#include <cstdint>

#include "warden/demo/mercator.h"

namespace warden::demo {

enum class MapLayer { Day, Night };
const char* to_string(MapLayer layer);

struct CameraPose {
  LatLon centre;
  double zoom = 0;  ///< fractional: zoom 3.5 draws zoom-3 tiles at 1.41x
};

class ScriptedCamera {
 public:
  explicit ScriptedCamera(uint32_t frames) : frames_(frames == 0 ? 1 : frames) {}
  CameraPose pose(uint32_t frame) const;
  MapLayer layer(uint32_t frame) const;

 private:
  double progress(uint32_t frame) const;  // [0, 1]
  uint32_t frames_;
};

}  // namespace warden::demo
