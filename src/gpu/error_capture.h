// Catching a device's errors on the calling thread without error scopes (docs/adr/0043).
//
// Dawn hands an error no scope caught to the device's uncaptured-error callback on the thread
// whose call raised it, before that call returns (tests/gpu/abi_uncaptured_error_test.cpp). The
// callbacks warden installs on the devices it requests (Context::request_device, DawnProvider)
// offer each such error to the innermost ErrorCapture of that device on the calling thread
// first; only errors no capture takes go on to the application's handler. A pair of error
// scopes costs a creation several times a raw create; a capture costs a thread-local store.
#pragma once

#include <string>

#include "warden/gpu/abi.h"

namespace warden::gpu {

/// Takes the errors `device` reports of the calls this thread makes while the capture lives.
/// Only for a device whose errors reach it (errors_reach_capture()); nests (the innermost of the
/// device takes an error).
class ErrorCapture {
 public:
  explicit ErrorCapture(WGPUDevice device) noexcept;
  ~ErrorCapture();
  ErrorCapture(const ErrorCapture&) = delete;
  ErrorCapture& operator=(const ErrorCapture&) = delete;

  /// An error was reported while the capture lived.
  bool caught() const { return type_ != WGPUErrorType_NoError; }
  /// The first error's type and words.
  WGPUErrorType type() const { return type_; }
  const std::string& message() const { return message_; }

  /// What warden's uncaptured-error callbacks call first: true when a capture of `device` on
  /// this thread took the error (the application's handler then does not see it).
  static bool offer(WGPUDevice device, WGPUErrorType type, WGPUStringView message);
  /// The same, with the device as an uncaptured-error callback receives it (null: not taken).
  static bool offer(const WGPUDevice* device, WGPUErrorType type, WGPUStringView message) {
    return device != nullptr && offer(*device, type, message);
  }

 private:
  WGPUDevice device_;
  ErrorCapture* outer_;
  WGPUErrorType type_ = WGPUErrorType_NoError;
  std::string message_;
};

/// Records that `device`'s uncaptured errors go through a callback of warden's that offers them
/// to ErrorCapture; `owner` is that callback's state, which forgets it with forget_capturing().
void mark_capturing(WGPUDevice device, const void* owner);
/// Forgets what `owner` marked (its device is gone). A later mark of the same address by
/// another owner is kept.
void forget_capturing(const void* owner);
/// Whether `device`'s errors reach ErrorCapture. False for a device warden did not request (an
/// application's own, given to a Registry): its errors go to its own callback, so the registry
/// keeps using error scopes there.
bool errors_reach_capture(WGPUDevice device);

}  // namespace warden::gpu
