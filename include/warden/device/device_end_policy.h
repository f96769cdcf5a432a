/// @file
/// DeviceEndPolicy: how a device's life ends, and whether a new one may be built
/// (docs/adr/0003-retirement-policy.md, written when it was called the retirement policy;
/// docs/design.md, device rule D6: never destroy a presenting device).
///
/// A device that has presented to a surface is released, never destroy()ed; one that never
/// presented may be destroyed, which returns its memory at once. On Dawn a release of the last
/// reference ends the device at once too (webgpu.h's ownership rule): what keeps a window
/// presenting is a new surface per device generation, and the policy records which call was
/// made (docs/adr/0051). An explicit override restores destroy for A/B measurements. The counts
/// are per process.
#pragma once

#include <cstdint>

#include "warden/core/result.h"

namespace warden::device {

/// How warden ends a device: by releasing its references, or by destroy. On Dawn both end it at
/// once when warden held the last reference.
enum class DeviceEnd { Release, Destroy };
/// "release" or "destroy".
const char* to_string(DeviceEnd end);

/// Environment names of the two overrides.
inline constexpr const char* kDestroyOverrideEnvVar = "WARDEN_GPU_DESTROY";  ///< "1": destroy
inline constexpr const char* kGateOverrideEnvVar = "WARDEN_GPU_GATE";        ///< "ignore"

/// The overrides of a DeviceEndPolicy.
struct DeviceEndOptions {
  /// Destroy every device, presenting or not (the A/B arm; may cost the surface).
  bool destroy_override = false;
  /// Admit new devices even after a presenting device was destroyed.
  bool gate_override = false;
};

/// WARDEN_GPU_DESTROY=1 sets destroy_override; WARDEN_GPU_GATE=ignore sets gate_override.
DeviceEndOptions device_end_options_from_environment();

/// Chooses release or destroy for each device and keeps the process's counts (see the file comment).
class DeviceEndPolicy {
 public:
  /// A policy with `options` (by default, those of the environment).
  explicit DeviceEndPolicy(DeviceEndOptions options = device_end_options_from_environment());

  /// The process's policy, for applications with one device owner per process. Never
  /// destroyed, so it can be counted on from static destructors.
  static DeviceEndPolicy& process();

  /// The options it was built with.
  const DeviceEndOptions& options() const { return options_; }

  /// The rule, in one place.
  DeviceEnd end_for(bool presented) const {
    if (options_.destroy_override) return DeviceEnd::Destroy;
    return presented ? DeviceEnd::Release : DeviceEnd::Destroy;
  }

  /// Counts a device built.
  void note_built() { ++built_; }
  /// Counts a device ended, and how.
  void note_ended(DeviceEnd end, bool presented);

  /// Devices built so far.
  uint64_t devices_built() const { return built_; }
  /// Devices destroyed so far.
  uint64_t devices_destroyed() const { return destroyed_; }
  /// Devices released so far.
  uint64_t devices_released() const { return released_; }
  /// The number that predicts a surface that will not present again.
  uint64_t destroyed_after_presenting() const { return destroyed_after_presenting_; }

  /// Worth telling the user: a presenting device was destroyed, or more than two were built
  /// (the device keeps going away; each replacement empties VRAM, the work carries on).
  bool at_risk() const { return destroyed_after_presenting_ > 0 || built_ > 2; }

  /// The gate asks one question: has this process destroyed a presenting device?
  /// Refused (naming the count and the override) when it has, unless overridden.
  Result<void> admit_new_device() const;

 private:
  DeviceEndOptions options_;
  uint64_t built_ = 0;
  uint64_t destroyed_ = 0;
  uint64_t released_ = 0;
  uint64_t destroyed_after_presenting_ = 0;
};

}  // namespace warden::device
