/// @file
/// The gpu layer's messages, each X(gpu, Id, number, "what the message means"); core/messages.h
/// makes them MessageId enumerators of value (gpu's layer number << 8) | number.
///
/// A number is given once: a new message takes the next unused number, and a message that goes
/// away leaves its number unused. Nothing but this list belongs in this file (scripts/check-layers.sh).
#pragma once

// clang-format off
#define WARDEN_MESSAGES_GPU(X) \
  X(gpu, DawnLog, 0, "a line of the WebGPU implementation's own log (a backend it could not load, a warning)") \
  X(gpu, LedgerSettingInvalid, 1, "WARDEN_LEDGER is set to something other than 0 or 1") \
  X(gpu, LibraryNotLoaded, 2, "no WebGPU library could be loaded from any of the places warden looks") \
  X(gpu, LibrarySymbolsMissing, 3, "the WebGPU library that was loaded lacks entry points warden needs") \
  X(gpu, LedgerSecondLibrary, 4, "the reference ledger already counts another WebGPU library in this process") \
  X(gpu, BackendUnknown, 5, "a backend name is not one of auto, vulkan, gl, gles or null") \
  X(gpu, InstanceCreationFailed, 6, "wgpuCreateInstance returned no instance") \
  X(gpu, FutureWaitTimedOut, 7, "a bounded wait for a WebGPU future ran out") \
  X(gpu, FutureWaitFailed, 8, "wgpuInstanceWaitAny failed") \
  X(gpu, AdapterRequestFailed, 9, "an adapter request for one backend gave no adapter") \
  X(gpu, AdapterNoneSuitable, 10, "no adapter of the backend choice satisfied the request") \
  X(gpu, DeviceFeatureMissing, 11, "the adapter lacks a feature the device requires") \
  X(gpu, DeviceRequestFailed, 12, "the WebGPU implementation rejected a device request") \
  X(gpu, QueueIdleWaitFailed, 13, "the queue's submitted work did not complete") \
  X(gpu, ReadMappedMapFailed, 14, "mapping a buffer for reading failed") \
  X(gpu, ReadMappedRangeNull, 15, "a buffer mapped for reading gave no mapped range") \
  X(gpu, LibraryAbiMismatch, 16, "the WebGPU library that was loaded has an ABI other than the header warden was built with") \
  X(gpu, LibraryProcAbsent, 17, "the WebGPU library that was loaded does not export an entry point a caller needs") \
  X(gpu, LibraryProcUnknown, 18, "a name asked of the proc table is not an entry point of the header warden was built with") \
  X(gpu, DeviceLimitExceeded, 19, "a limit the device requires is beyond what the adapter supports")
// clang-format on
