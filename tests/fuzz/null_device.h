// The fuzz targets that reach Dawn share one Null-backend device per process, whose uncaptured
// errors end the run (docs/fuzzing.md).
#pragma once

#include "warden/gpu/context.h"

namespace warden::fuzz {

// The process's Null-backend device (validation only, no GPU). Opened on first use and kept:
// opening one per input would cost more than the input.
struct NullDevice {
  gpu::Context* context = nullptr;
  WGPUDevice device = nullptr;
  WGPUQueue queue = nullptr;
  const gpu::Procs& procs() const { return context->procs(); }
};
NullDevice& null_device();
// Delivers the device's callbacks; an uncaptured error among them fails the run: it means a
// call that warden let through was rejected by Dawn outside warden's error scopes.
void check_no_uncaptured_errors();

}  // namespace warden::fuzz
