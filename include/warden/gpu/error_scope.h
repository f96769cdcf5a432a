/// @file
/// A validation error scope whose result arrives by callback. On the thread that drives the
/// instance the callback is AllowProcessEvents (collected by the next ProcessEvents); on a worker
/// thread it is WaitAnyOnly, so it runs inside that worker's own wait and never on the frame
/// thread. Error scopes are per thread in this Dawn build (seen: a scope pushed on one thread did
/// not catch a validation error raised on another), so a worker's compile and the frame
/// thread's own scopes do not catch each other's errors.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "warden/core/result.h"
#include "warden/gpu/context.h"

namespace warden::gpu {

/// What a popped error scope reported, filled by its callback.
struct PoppedScope {
  bool done = false;  ///< the callback has run
  WGPUPopErrorScopeStatus status = WGPUPopErrorScopeStatus_Success;  ///< whether the pop itself succeeded
  WGPUErrorType type = WGPUErrorType_NoError;  ///< the error caught, NoError when none (or the pop failed)
  std::string message{};                  ///< Dawn's message for that error

  /// The callback ran and the scope caught an error.
  bool has_error() const { return done && type != WGPUErrorType_NoError; }
};

/// A popped scope not yet reported. The callback owns a reference to the outcome, so dropping a
/// PendingScope before its callback runs is safe (the callback fills an outcome nobody reads).
struct PendingScope {
  WGPUFuture future{};                         ///< the pop's future, for settle()
  std::shared_ptr<PoppedScope> outcome{};  ///< filled when the callback runs
};

/// Which thread collects a callback's result.
enum class Completion {
  ProcessEvents,  ///< the instance's own thread: ProcessEvents first, a bounded wait only if needed
  WorkerWait,     ///< a worker thread: WaitAnyOnly callbacks, collected by the worker's bounded wait
  /// The calling thread, inside the pop: Dawn knows a device call's errors when the call returns,
  /// so an AllowSpontaneous callback runs before the pop returns. No ProcessEvents (which would
  /// run unrelated callbacks inside the caller); a bounded wait only if the callback was deferred.
  WithinCall,
};

/// The callback mode that lets `completion`'s thread collect a callback.
WGPUCallbackMode callback_mode(Completion completion);

/// Pushes a validation error scope on `device` (for the calling thread).
void push_validation_scope(const Procs& procs, WGPUDevice device);
/// Pops the innermost error scope; its outcome arrives by callback (see settle()).
PendingScope pop_scope(const Procs& procs, WGPUDevice device, Completion completion = Completion::ProcessEvents);

/// Completes a pending callback. ProcessEvents: runs ready callbacks and waits only when
/// `outcome_done` is still false after that. WorkerWait: waits. WithinCall: waits only when
/// `outcome_done` is still false. Every wait is bounded and counted
/// by blocking_wait_count().
Result<void> settle(const Context& context, WGPUFuture future, const bool& outcome_done,
                    std::chrono::milliseconds timeout, Completion completion = Completion::ProcessEvents);

}  // namespace warden::gpu
