#include "warden/core/frame_thread.h"

#include <fmt/format.h>
#include <fmt/std.h>

#ifndef WARDEN_THREAD_CHECKS
#define WARDEN_THREAD_CHECKS 0
#endif

namespace warden {

bool thread_checks_enabled() { return WARDEN_THREAD_CHECKS != 0; }

std::optional<Error> FrameThread::check(std::string_view owner, std::string_view call) const {
  if constexpr (WARDEN_THREAD_CHECKS == 0) {
    return std::nullopt;
  } else {
    const std::thread::id frame = id_.load(std::memory_order_acquire);
    const std::thread::id caller = std::this_thread::get_id();
    if (frame == caller) [[likely]] return std::nullopt;
    return make_error(ErrorKind::Refused, MessageId::WrongThread,
                      fmt::format("{}: {} is a frame-thread call, made from thread {}; the frame thread is {} "
                                  "(docs/threads.md says which calls any thread may make)",
                                  owner, call, caller, frame));
  }
}

}  // namespace warden
