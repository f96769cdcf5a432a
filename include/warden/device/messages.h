/// @file
/// The device layer's messages, each X(device, Id, number, "what the message means"); core/messages.h
/// makes them MessageId enumerators of value (device's layer number << 8) | number.
///
/// A number is given once: a new message takes the next unused number, and a message that goes
/// away leaves its number unused. Nothing but this list belongs in this file (scripts/check-layers.sh).
#pragma once

// clang-format off
#define WARDEN_MESSAGES_DEVICE(X) \
  X(device, DeviceStarting, 0, "a new device generation started: the controller asks for an adapter and a device") \
  X(device, DeviceReady, 1, "a device generation is ready: its resources are prepared and it is shown") \
  X(device, DeviceLost, 2, "the device of the current generation was lost (the API's words follow) or hung") \
  X(device, DeviceFailed, 3, "a device generation failed: no device could be made or prepared, or the rebuild policy gave up") \
  X(device, DeviceStopped, 4, "the controller was stopped or shut down; no device is shown until a retry") \
  X(device, DeviceEnded, 5, "a generation's device was ended: destroyed, released (it presented), or kept for the next engine") \
  X(device, ProviderApiUnavailable, 6, "the device provider has no WebGPU library to ask for adapters and devices") \
  X(device, NewDeviceRefused, 7, "a new device is refused because devices that presented were destroyed in this process") \
  X(device, PreparationFinishedLate, 8, "a resource preparation finished after its device generation ended") \
  X(device, RebuildGaveUp, 9, "the rebuild policy gave up on the device, so a retry is refused") \
  X(device, ShutdownOvertaken, 10, "a hook started a new device generation while shutdown ended the device") \
  X(device, KeepDeviceNeedsStash, 11, "a shutdown asked to keep the device, with no device stash to keep it in") \
  X(device, MarkPresentedNoDevice, 12, "mark_presented was called while no device is shown") \
  X(device, TestRequestNotPending, 13, "a TestProvider request number names no pending request") \
  X(device, TestDeviceNotLosable, 14, "a TestProvider device has no unsettled lost promise to settle")
// clang-format on
