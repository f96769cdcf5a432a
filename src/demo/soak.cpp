#include "warden/demo/soak.h"

#include <fmt/format.h>

#include <algorithm>
#include <random>

namespace warden::demo {

std::vector<PlannedFault> soak_plan(uint32_t frames, uint64_t seed) {
  struct Every {
    PlannedFaultKind kind;
    uint32_t min, max;  // frames between two faults of the kind
  };
  // A loss every 120..250 frames: 5,000 frames bring 20 to 41 of them.
  constexpr Every kKinds[] = {{PlannedFaultKind::DeviceLoss, 120, 250},    {PlannedFaultKind::ShaderReload, 200, 400},
                              {PlannedFaultKind::ShaderBroken, 250, 500},  {PlannedFaultKind::FetchFailures, 80, 200},
                              {PlannedFaultKind::PoolExhaustion, 100, 300}, {PlannedFaultKind::CarelessClient, 50, 150}};
  std::mt19937_64 random(seed);
  std::vector<PlannedFault> plan;
  for (const Every& every : kKinds) {
    std::uniform_int_distribution<uint32_t> gap(every.min, every.max);
    // The first of each kind comes early, so a short soak meets every kind.
    for (uint64_t frame = gap(random) / 4 + 10; frame < frames; frame += gap(random)) {
      plan.push_back({static_cast<uint32_t>(frame), every.kind});
    }
  }
  std::stable_sort(plan.begin(), plan.end(), [](const auto& a, const auto& b) { return a.frame < b.frame; });
  return plan;
}

std::vector<SoakCheck> soak_checks(const DemoReport& r, uint32_t frames) {
  const uint64_t losses = r.device_losses.value_or(0), recoveries = r.recoveries.value_or(0);
  std::vector<SoakCheck> checks;
  auto check = [&](std::string name, bool held, std::string detail) {
    checks.push_back({std::move(name), held, std::move(detail)});
  };
  // Recovered, or ended cleanly by the policy: the last loss then has no recovery.
  if (r.gave_up) {
    check("recoveries == device_losses - 1 (the policy gave up)", recoveries + 1 == losses,
          fmt::format("{} recoveries, {} losses: {}", recoveries, losses, r.gave_up_message));
  } else {
    check("frames == requested", r.frames == frames, fmt::format("{} == {}", r.frames, frames));
    check("recoveries == device_losses", recoveries == losses, fmt::format("{} == {}", recoveries, losses));
  }
  check("leaked_objects == 0", r.leaked_objects.value_or(1) == 0, fmt::format("{}", r.leaked_objects.value_or(0)));
  check("frames_with_errors == 0 (no frame's commands refused)", r.frames_with_errors.value_or(0) == 0,
        fmt::format("{} frame(s), {} uncaptured error(s)", r.frames_with_errors.value_or(0),
                    r.uncaptured_errors.value_or(0)));
  check("ledger_outstanding == none", r.ledger_outstanding == "none", r.ledger_outstanding);
  check("layer_invariant_violations == 0", r.layer_invariant_violations == 0, fmt::format("{}", r.layer_invariant_violations));
  check("budget_exceeded_frames == 0", r.budget_exceeded_frames == 0, fmt::format("{}", r.budget_exceeded_frames));
  check("app_state_preserved", r.app_state_preserved, r.app_state_preserved ? "true" : "false");
  check("careless client got clean errors", r.unclean_misuse == 0, fmt::format("{} unclean", r.unclean_misuse));
  check("blocking_waits == 0", r.blocking_waits == 0, fmt::format("{}", r.blocking_waits));
  return checks;
}

bool all_held(const std::vector<SoakCheck>& checks) {
  return std::all_of(checks.begin(), checks.end(), [](const SoakCheck& c) { return c.held; });
}

}  // namespace warden::demo
