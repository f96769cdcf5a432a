// Waiting in tests without blocking: poll until something holds, bounded by wall time.
//
// Why wall time and not a count of tries: under valgrind the whole process runs one thread at a
// time, so a test spinning on a non-blocking poll starves the driver's worker threads (llvmpipe
// renders on its own threads). A count that is ample natively then runs out before the GPU has
// finished, on a slower machine. The deadline is a safety net that only a hang reaches; a wait
// that reaches it is a failure, never a measurement.
#pragma once

#include <chrono>
#include <thread>

namespace warden::testing {

/// How long a test waits for the GPU or a callback before calling it a hang.
inline constexpr std::chrono::seconds kSafetyNet{120};

/// Calls `poll()` until `done()` holds or `limit` passed; gives the CPU away between tries.
/// Returns `done()`.
template <class Done, class Poll>
bool poll_until(Done&& done, Poll&& poll, std::chrono::steady_clock::duration limit = kSafetyNet) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) return done();
    poll();
    std::this_thread::yield();
  }
  return true;
}

}  // namespace warden::testing
