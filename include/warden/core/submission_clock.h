/// @file
/// SubmissionClock: a serial per queue submit, retired when the queue reports the work done.
///
/// The clock is the only source of truth for "may the GPU still be reading this?": an object
/// records the serial of the last submission that used it, and it is safe to reuse or destroy
/// once that serial has retired. Nothing here blocks (docs/design.md, invariant 1). Pure bookkeeping: the
/// Dawn side that submits and learns retirement is gpu::QueueClock (warden/gpu/queue_clock.h).
#pragma once

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
class SubmissionClock {
 public:
  /// The submission being recorded now: what a command buffer under construction will be
  /// submitted as. An object used while recording must record this, not last_submitted()
  /// (DESIGN "What the hazard really is").
  Serial recording() const { return last_submitted_.next(); }
  /// The serial of the latest submit; Serial{0} before the first.
  Serial last_submitted() const { return last_submitted_; }
  /// Every submission up to this one has completed on the GPU.
  Serial retired() const { return retired_; }
  /// True when submission `s` has completed (or was never made: Serial{0}).
  bool is_retired(Serial s) const { return s <= retired_; }
  /// Submissions made but not known to be complete.
  uint64_t in_flight() const { return last_submitted_.value - retired_.value; }

  /// Called once per queue submit, after it: returns the serial that submit received.
  Serial on_submitted() {
    last_submitted_ = last_submitted_.next();
    return last_submitted_;
  }
  /// Called when the queue reports work done through `s`. Out-of-order or repeated reports
  /// never move retirement backwards, and nothing retires beyond what was submitted.
  void retire_through(Serial s) {
    if (s > last_submitted_) s = last_submitted_;
    if (s > retired_) retired_ = s;
  }
  /// Device loss and shutdown: no submitted work can still be running on a dead device.
  void assume_all_complete() { retired_ = last_submitted_; }

 private:
  Serial last_submitted_{};
  Serial retired_{};
};
}  // namespace warden
