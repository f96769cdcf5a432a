// A validation error scope whose result arrives by callback. On the thread that drives the
// instance the callback is AllowProcessEvents (collected by the next ProcessEvents); on a worker
// thread it is WaitAnyOnly, so it runs inside that worker's own wait and never on the frame
// thread. Error scopes are per thread in this Dawn build (seen: a scope pushed on one thread did
// not catch a validation error raised on another), so a worker's compile and the frame
// thread's own scopes do not catch each other's errors.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "warden/core/result.h"
#include "warden/gpu/context.h"

namespace warden::gpu {

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

// Which thread collects a callback's result.
enum class Completion {
  ProcessEvents,  // the instance's own thread: ProcessEvents first, a bounded wait only if needed
  WorkerWait,     // a worker thread: WaitAnyOnly callbacks, collected by the worker's bounded wait
};

gpu::CallbackMode callback_mode(Completion completion);

void push_validation_scope(const gpu::Procs& procs, gpu::Device device);
PendingScope pop_scope(const gpu::Procs& procs, gpu::Device device,
                       Completion completion = Completion::ProcessEvents);

// Completes a pending callback. ProcessEvents: runs ready callbacks and waits only when
// `outcome_done` is still false after that. WorkerWait: waits. Every wait is bounded and counted
// by gpu::blocking_wait_count.
Result<void> settle(const gpu::Context& context, gpu::Future future, const bool& outcome_done,
                    std::chrono::milliseconds timeout, Completion completion = Completion::ProcessEvents);

}  // namespace warden::gpu
