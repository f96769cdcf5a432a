// `warden soak`: the demo's frame loop for a long run with faults drawn from a seed (device
// losses, shader files broken and fixed, failing fetches, an exhausted layer pool, a careless
// client), and the checks that must all hold at the end.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warden/demo/report.h"
#include "warden/demo/tile_map_demo.h"

namespace warden::demo {

/// The faults of a soak of `frames` drawn frames, drawn from `seed`: each kind at intervals
/// drawn uniformly from its own range (a device loss every 120..250 frames), sorted by frame.
std::vector<PlannedFault> soak_plan(uint32_t frames, uint64_t seed);

/// One check of a soak and whether it held.
struct SoakCheck {
  /// What is checked ("recoveries == device_losses").
  std::string name;
  /// Whether it held.
  bool held = false;
  /// The values, in words ("27 == 27").
  std::string detail;
};

/// The checks a soak must pass: every loss recovered or the run ended cleanly by the rebuild
/// policy, nothing leaked (registry and Dawn references), no frame whose commands the device
/// refused (DemoReport::frames_with_errors), the layer pools' invariants, the
/// budget, the application's state across losses, clean errors for every misuse, and no
/// blocking wait on the frame path.
std::vector<SoakCheck> soak_checks(const DemoReport& report, uint32_t frames);

/// True when every check held.
bool all_held(const std::vector<SoakCheck>& checks);

}  // namespace warden::demo
