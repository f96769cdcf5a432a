/// @file
/// The old name of warden/device/device_end_policy.h, kept so that code written against it still
/// compiles: a device's end is no longer called its retirement ("retire" means only a submission's
/// work finishing; docs/design.md, "Glossary"). Include device_end_policy.h instead.
#pragma once

#include "warden/device/device_end_policy.h"

namespace warden::device {

/// The old name of DeviceEndPolicy.
using RetirementPolicy [[deprecated("renamed DeviceEndPolicy (warden/device/device_end_policy.h)")]] = DeviceEndPolicy;
/// The old name of DeviceEndOptions.
using RetirementOptions [[deprecated("renamed DeviceEndOptions (warden/device/device_end_policy.h)")]] =
    DeviceEndOptions;
/// The old name of device_end_options_from_environment().
[[deprecated("renamed device_end_options_from_environment() (warden/device/device_end_policy.h)")]] inline DeviceEndOptions
retirement_options_from_environment() {
  return device_end_options_from_environment();
}

}  // namespace warden::device
