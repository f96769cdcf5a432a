// A validation error scope whose result arrives by callback (AllowProcessEvents), so it can be
// collected at the next poll of a frame loop or, off the frame path, with a bounded wait.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "warden/core/result.h"
#include "warden/webgpu/context.h"

namespace warden::shaders {

struct PoppedScope {
  bool done = false;
  gpu::PopErrorScopeStatus status = gpu::PopErrorScopeStatus::Success;
  gpu::ErrorType type = gpu::ErrorType::NoError;
  std::string message;

  bool has_error() const { return done && type != gpu::ErrorType::NoError; }
};

// A popped scope not yet reported. The callback owns a reference to the outcome, so dropping a
// PendingScope before its callback runs is safe (the callback fills an outcome nobody reads).
struct PendingScope {
  gpu::Future future;
  std::shared_ptr<PoppedScope> outcome;
};

void push_validation_scope(const gpu::Procs& procs, gpu::Device device);
PendingScope pop_scope(const gpu::Procs& procs, gpu::Device device);

// Runs ready callbacks; when `outcome_done` is still false after that, waits for `future` with
// the bound (counted by gpu::blocking_wait_count: tools, loading and tests only).
Result<void> settle(const gpu::Context& context, gpu::Future future, const bool& outcome_done,
                    std::chrono::milliseconds timeout);

}  // namespace warden::shaders
