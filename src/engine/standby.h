// Private to the engine: the standby device as the engine keeps it (EngineOptions::standby_device;
// ADR 0031, 0034, 0045). One type per layer holds the standby: the controller asks the provider
// for the spare and a start adopts it (device/controller.cpp); the registry's standby preparer
// makes its objects on it (resources/standby_preparer.h); and this decides when each happens:
// where the spare waits, when it is asked for (once per shown device, after that device's first
// frame, so that a recovery's first frame never waits for it), and when the registry prepares it
// (in the poll in which it arrived, while the picture is up).
#pragma once

#include "warden/device/controller.h"
#include "warden/device/device_stash.h"
#include "warden/resources/registry.h"

namespace warden::engine::detail {

class Standby {
 public:
  Standby() = default;
  Standby(const Standby&) = delete;
  Standby& operator=(const Standby&) = delete;

  // Where the controller keeps the spare it asks for, and a start takes it from.
  device::DeviceStash& stash() { return stash_; }
  const device::DeviceStash& stash() const { return stash_; }

  // A new device generation: its spare is asked for once it has drawn.
  void new_device() { asked_ = false; }
  // The ask phase, once the shown device has submitted a frame: asks once per device. A spare
  // held or in flight makes the controller's request do nothing, and one the device end policy
  // refuses is not asked for again on every frame.
  void ask(device::DeviceController& controller) {
    if (asked_) return;
    asked_ = true;
    controller.request_standby();
  }
  // The spare waiting with nothing made on it yet (or whatever a reload let go of since): what
  // the registry should prepare now; null when there is nothing to do.
  WGPUDevice to_prepare(const resources::Registry& registry) const {
    const std::optional<device::ProvidedDevice> spare = stash_.held_device();
    if (!spare || spare->device == nullptr || registry.prepared_device() == spare->device) return nullptr;
    return spare->device;
  }
  // The engine ends: a spare never presented; it goes while the provider is still there.
  void clear() { stash_.clear(); }

 private:
  bool asked_ = false;
  device::DeviceStash stash_;
};

}  // namespace warden::engine::detail
