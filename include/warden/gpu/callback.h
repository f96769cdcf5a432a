/// @file
/// webgpu.h's callback-info structs (WGPURequestDeviceCallbackInfo, WGPUUncapturedErrorCallbackInfo,
/// WGPULoggingCallbackInfo) made from a C++ handler: the handler is called with the callback's own
/// arguments, without the two userdata pointers, so no caller fills mode, callback and userdata
/// by hand or casts a userdata back.
#pragma once

#include <cstddef>
#include <memory>
#include <tuple>
#include <utility>

#include "warden/gpu/abi.h"

namespace warden::gpu {
namespace detail {

// The function webgpu.h calls: userdata1 is the handler; the last two arguments (the userdata)
// are not passed on. Its Args are deduced from the callback type it is assigned to.
template <typename Handler, bool kFreedAfterTheCall>
struct Trampoline {
  template <typename... Args>
  static void call(Args... args) {
    constexpr size_t kPassed = sizeof...(Args) - 2;
    std::tuple<Args...> all{args...};
    auto* handler = static_cast<Handler*>(std::get<kPassed>(all));
    std::unique_ptr<Handler> owned(kFreedAfterTheCall ? handler : nullptr);
    [&]<size_t... I>(std::index_sequence<I...>) { (*handler)(std::get<I>(all)...); }(std::make_index_sequence<kPassed>{});
  }
};

template <typename Info, typename Handler, bool kFreedAfterTheCall>
Info make(WGPUCallbackMode mode, Handler* handler) {
  Info info{};
  if constexpr (requires { info.mode; }) info.mode = mode;
  info.callback = &Trampoline<Handler, kFreedAfterTheCall>::call;
  info.userdata1 = handler;
  return info;
}

}  // namespace detail

/// A callback-info whose callback calls `handler` once and then frees it. For the callbacks
/// webgpu.h calls exactly once (every future's, and a device's lost callback; at the latest,
/// cancelled, when the instance goes): whatever the handler holds lives until that call.
template <typename Info, typename Handler>
Info once_callback(WGPUCallbackMode mode, Handler handler) {
  return detail::make<Info, Handler, true>(mode, new Handler(std::move(handler)));
}

/// A callback-info whose callback calls `handler` in place, as often as it is called. The
/// caller keeps `handler` alive until the callback can no longer run: a WaitAnyOnly callback the
/// caller waits for in its own scope, or a handler kept as long as the device or instance.
template <typename Info, typename Handler>
Info borrowed_callback(WGPUCallbackMode mode, Handler& handler) {
  return detail::make<Info, Handler, false>(mode, &handler);
}

/// borrowed_callback for the callback-infos that have no mode (uncaptured errors, logging).
template <typename Info, typename Handler>
Info borrowed_callback(Handler& handler) {
  return detail::make<Info, Handler, false>(WGPUCallbackMode_AllowProcessEvents, &handler);
}

}  // namespace warden::gpu
