/// @file
/// The load-time check that a WebGPU library has the ABI of the header warden was built with
/// (docs/adr/0033). Library::load() runs it before anything else uses the library and refuses a
/// library that fails it; `warden info` prints its result.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warden/core/result.h"
#include "warden/gpu/procs.h"

namespace warden::gpu {

/// One out-struct the check handed to the library inside a larger buffer of sentinel bytes.
struct AbiStructProbe {
  /// The entry point that filled it ("wgpuAdapterGetLimits").
  std::string call{};
  /// webgpu.h's name of the struct ("WGPULimits").
  std::string type{};
  /// Its size in the header warden was built with.
  size_t declared = 0;
  /// How far the library wrote: one past the last byte it changed.
  size_t written = 0;
  /// True when the library wrote exactly the declared size.
  bool matches() const { return written == declared; }
};

/// One enum value handed to the library and read back through a getter.
struct AbiEnumProbe {
  /// The value's name in webgpu.h and the getter that read it back
  /// ("WGPUTextureFormat_RGBA8Unorm through wgpuTextureGetFormat").
  std::string what{};
  /// Its value in the header warden was built with.
  uint64_t declared = 0;
  /// The value the getter returned.
  uint64_t returned = 0;
  /// True when the library gave back the declared value.
  bool matches() const { return returned == declared; }
};

/// What the check found. A library passes when every probe matches.
struct AbiCheckReport {
  /// Every out-struct probed, in the order they were probed.
  std::vector<AbiStructProbe> structs{};
  /// Every enum value round-tripped, in the order they were probed.
  std::vector<AbiEnumProbe> enums{};
  /// Why the check could not run to its end (no Null adapter, no device); empty when it did.
  /// The probes made before that point are kept and judged.
  std::string incomplete{};
  /// Wall time of the whole check, the library's instance, adapter and device included.
  std::chrono::microseconds duration{};

  /// True when no probe found a difference.
  bool passed() const;
  /// One line for `warden info`: "passed (WGPULimits 152 bytes, WGPUAdapterInfo 96 bytes, ...,
  /// 18 enum values round-tripped, 12.3 ms)", or what differs.
  std::string summary() const;
  /// Every difference found, one phrase each ("wgpuAdapterGetLimits wrote 168 bytes into
  /// WGPULimits, which is 152 bytes in warden's header: 16 bytes past its end").
  std::vector<std::string> differences() const;
};

/// Runs the check against `procs`, which must be the library's own entry points (not counting
/// trampolines: the check's objects are not the application's). Only entry points whose
/// arguments cannot be misread by a library of another ABI are called with anything but null
/// descriptors, every out-struct is passed inside a larger sentinel-filled buffer, and a struct
/// the library wrote past its end is never handed back to it (its FreeMembers is not called):
/// a mismatching library cannot make the check itself crash. Uses the Null backend.
AbiCheckReport run_abi_check(const Procs& procs);

/// The error Library::load() returns for a library whose report did not pass: the library's
/// path, each difference, and what to do; nullopt when the report passed.
std::optional<Error> abi_mismatch(const AbiCheckReport& report, std::string_view library_path);

}  // namespace warden::gpu
