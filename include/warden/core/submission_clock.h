/// @file
/// SubmissionClock: a serial per queue submit, retired when the queue reports the work done.
///
/// The clock is the only source of truth for "may the GPU still be reading this?": an object
/// records the serial of the last submission that used it, and it is safe to reuse or destroy
/// once that serial has retired. Nothing here blocks (docs/design.md, invariant 1). Pure bookkeeping: the
/// Dawn side that submits and learns retirement is gpu::QueueClock (warden/gpu/queue_clock.h).
#pragma once

#include <algorithm>
#include <atomic>
#include <compare>
#include <cstdint>

namespace warden {

/// A strongly typed submission number. Serial{0} means "never used by any submission" and is
/// retired from the start.
struct Serial {
  /// The submission number; 0 is "never submitted".
  uint64_t value = 0;
  /// Serials order as their numbers do.
  constexpr auto operator<=>(const Serial&) const = default;
  /// The serial after this one.
  constexpr Serial next() const { return Serial{value + 1}; }
};

/// Pure bookkeeping, no GPU: which serial was last submitted, which has retired.
///
/// Read from any thread: a loading thread's destroy asks whether a serial retired while the
/// frame thread's poll, or any thread that processes the instance's events, reports work done.
/// One thread submits (the frame thread); reports may come from several, and retirement only
/// moves forward.
class SubmissionClock {
 public:
  /// The submission being recorded now: what a command buffer under construction will be
  /// submitted as. An object used while recording must record this, not last_submitted()
  /// (DESIGN "What the hazard really is").
  Serial recording() const { return last_submitted().next(); }
  /// The serial of the latest submit; Serial{0} before the first.
  Serial last_submitted() const { return Serial{last_submitted_.load(std::memory_order_acquire)}; }
  /// Every submission up to this one has completed on the GPU.
  Serial retired() const { return Serial{retired_.load(std::memory_order_acquire)}; }
  /// True when submission `s` has completed (or was never made: Serial{0}).
  bool is_retired(Serial s) const { return s <= retired(); }
  /// Submissions made but not known to be complete.
  uint64_t in_flight() const { return last_submitted().value - retired().value; }

  /// Called once per queue submit, after it, by the one thread that submits: returns the
  /// serial that submit received.
  Serial on_submitted() {
    return Serial{last_submitted_.fetch_add(1, std::memory_order_acq_rel) + 1};
  }
  /// Called when the queue reports work done through `s`. Out-of-order or repeated reports
  /// never move retirement backwards, and nothing retires beyond what was submitted.
  void retire_through(Serial s) {
    const uint64_t through = std::min(s.value, last_submitted_.load(std::memory_order_acquire));
    uint64_t seen = retired_.load(std::memory_order_relaxed);
    while (through > seen &&
           !retired_.compare_exchange_weak(seen, through, std::memory_order_release, std::memory_order_relaxed)) {
    }
  }
  /// Device loss and shutdown: no submitted work can still be running on a dead device.
  void assume_all_complete() { retire_through(last_submitted()); }

 private:
  std::atomic<uint64_t> last_submitted_{0};
  std::atomic<uint64_t> retired_{0};
};
}  // namespace warden
