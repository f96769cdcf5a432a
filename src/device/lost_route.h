// Private to the device layer: where a device's one lost report goes.
#pragma once

#include <memory>
#include <utility>

#include "warden/device/controller.h"
#include "warden/device/device_stash.h"

namespace warden::device {

// Made once per device, when it is requested, and kept by the controller's receiver of provider
// events (ControllerEvents) once the device is delivered, so that the device's DeviceLost event
// reaches whoever holds the device now: the controller that received it, under the token it was
// received with (listen_for_loss), the stash (nobody: only `lost` is recorded, and the stash lets
// such a device go), or the next controller after a hand-off. The receiver is named,
// not a callback: the report goes straight to DeviceController::Core::on_lost.
struct LostRoute {
  bool lost = false;
  std::weak_ptr<DeviceController::Core> receiver{};  // empty: nobody holds the device
  Token token{};                                      // the receiver's token for this device

  // Defined in controller.cpp, where the receiver's type is complete.
  void report(LossReport report);
};

}  // namespace warden::device
