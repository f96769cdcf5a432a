// Capturing the message of a WebGPU error scope around a block of calls (tests only).
#pragma once

#include <string>

#include "support/gpu_test.h"

namespace warden::testing {

struct ScopeResult {
  WGPUPopErrorScopeStatus status{};
  WGPUErrorType type = WGPUErrorType_NoError;
  std::string message;
};

// Pushes a scope with `filter`, runs `body`, pops it and waits for the result.
template <typename Body>
ScopeResult capture_errors(TestDevice& dev, WGPUErrorFilter filter, Body&& body);

ScopeResult pop_error_scope(TestDevice& dev);

template <typename Body>
ScopeResult capture_errors(TestDevice& dev, WGPUErrorFilter filter, Body&& body) {
  dev.procs().DevicePushErrorScope(dev.device.get(), filter);
  body();
  return pop_error_scope(dev);
}

// Shorthand: the validation message of `body`, empty when it raised none.
template <typename Body>
std::string validation_message(TestDevice& dev, Body&& body) {
  return capture_errors(dev, WGPUErrorFilter_Validation, std::forward<Body>(body)).message;
}

}  // namespace warden::testing
