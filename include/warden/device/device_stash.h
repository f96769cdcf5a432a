/// @file
/// DeviceStash: the hot-restart path. An engine torn down with keep_device hands its healthy
/// device here instead of letting it go; the next engine built in the same process on the same
/// provider takes it instead of requesting a new one (docs/design.md, device rule D6: a device
/// outlives the engine on top of it).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "warden/device/device_end_policy.h"
#include "warden/device/provider.h"

namespace warden::device {

/// Where a device's one lost report goes; re-pointed when the device changes hands.
struct LostRoute;

/// A device waiting in the stash, with what its next owner needs.
struct StashedDevice {
  /// The provider that made it; only an engine on the same provider may take it.
  DeviceProvider* provider = nullptr;
  /// The device.
  ProvidedDevice device{};
  /// It has presented: it is ended by release, never by destroy.
  bool presented = false;
  /// Where its lost report goes; the taker re-points it.
  std::shared_ptr<LostRoute> route{};
  DeviceEndPolicy* device_end = nullptr;  ///< told when the stash lets the device go
};

/// Holds at most one healthy device: between two engines (see the file comment), or as an
/// engine's standby device, asked for ahead of a loss (ControllerOptions::standby).
class DeviceStash {
 public:
  DeviceStash() = default;
  ~DeviceStash();
  DeviceStash(const DeviceStash&) = delete;
  DeviceStash& operator=(const DeviceStash&) = delete;

  /// The process's stash. Never destroyed: a device held at exit goes with the process.
  static DeviceStash& process();

  /// True while a device waits here.
  bool holds() const { return held_.has_value(); }
  /// The device held, if any.
  std::optional<ProvidedDevice> held_device() const {
    return held_ ? std::optional<ProvidedDevice>(held_->device) : std::nullopt;
  }
  /// Holds `device`; a device already held is let go first (one device per stash).
  void put(StashedDevice device);
  /// The held device if it came from `provider` and was not lost while stashed. A device lost
  /// while stashed is let go and nothing is returned.
  std::optional<StashedDevice> take(const DeviceProvider& provider);
  /// Lets go of the held device by release, never destroy (it may have presented); on Dawn the
  /// release ends it.
  void clear();

  /// Devices taken by a next engine so far.
  uint64_t handoffs() const { return handoffs_; }

 private:
  std::optional<StashedDevice> held_;
  uint64_t handoffs_ = 0;
};

}  // namespace warden::device
