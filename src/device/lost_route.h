// Private to the device layer: where a device's one lost report goes.
#pragma once

#include <functional>
#include <utility>

#include "warden/device/device_stash.h"

namespace warden::device {

// Made once per device, when it is requested. The provider's lost continuation holds it, so
// the report reaches whoever holds the device now: a controller (bound to one generation),
// the stash (nobody: only `lost` is recorded), or the next controller after a hand-off.
struct LostRoute {
  bool lost = false;
  std::function<void(LossReport)> deliver;

  void report(LossReport report) {
    lost = true;
    // A copy: the receiver may re-point or clear `deliver` while it runs.
    if (auto receiver = deliver) receiver(std::move(report));
  }
};

}  // namespace warden::device
