#include "warden/demo/camera.h"

#include <algorithm>
#include <array>

#include "warden/core/enum_names.h"

namespace warden::demo {
namespace {

struct Keyframe {
  double at;  // share of the run
  CameraPose pose;
};

// Europe, east over Asia, a fast zoom in and back out, across to North America, then home.
constexpr std::array<Keyframe, 7> kScript = {{
    {0.00, {{35, 0}, 2.0}},
    {0.20, {{35, 60}, 2.5}},
    {0.32, {{35, 60}, 5.5}},
    {0.44, {{35, 60}, 1.5}},
    {0.66, {{40, -100}, 3.0}},
    {0.86, {{35, 0}, 2.0}},
    {1.00, {{35, 0}, 2.0}},
}};

}  // namespace

constexpr EnumName<MapLayer> kMapLayerNames[] = {{MapLayer::Day, "day"}, {MapLayer::Night, "night"}};
const char* to_string(MapLayer layer) { return name_in(kMapLayerNames, layer); }

double ScriptedCamera::progress(uint32_t frame) const {
  return frames_ <= 1 ? 0.0 : std::clamp(static_cast<double>(frame) / (frames_ - 1), 0.0, 1.0);
}

CameraPose ScriptedCamera::pose(uint32_t frame) const {
  const double t = progress(frame);
  for (size_t i = 1; i < kScript.size(); ++i) {
    if (t > kScript[i].at) continue;
    const Keyframe& a = kScript[i - 1];
    const Keyframe& b = kScript[i];
    const double s = (t - a.at) / (b.at - a.at);
    auto mix = [s](double x, double y) { return x + (y - x) * s; };
    return {{mix(a.pose.centre.lat, b.pose.centre.lat), mix(a.pose.centre.lon, b.pose.centre.lon)},
            mix(a.pose.zoom, b.pose.zoom)};
  }
  return kScript.back().pose;
}

MapLayer ScriptedCamera::layer(uint32_t frame) const {
  const double t = progress(frame);
  return t >= 0.5 && t < 0.75 ? MapLayer::Night : MapLayer::Day;
}

}  // namespace warden::demo
