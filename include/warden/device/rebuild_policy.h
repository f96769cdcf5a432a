/// @file
/// RebuildPolicy: how many faults the owner of a device forgives before it stops rebuilding,
/// and HangWatch, which turns "submitted work did not retire in time" into a fault.
///
/// The controller never retries by itself (docs/design.md, device rule D4); the owner
/// asks this policy before an explicit retry. Three faults of one kind within a minute give up,
/// with the facts of why (GiveUp: the application words them for its users); a replacement
/// that held for a while forgives the past, so a device lost now and then (a GPU suspended
/// under a hidden window) is never punished. A device that dies young (lost or hung within a
/// minute of becoming ready) is not forgiven by the hold: five of them in a row give up too
/// (a shader that hangs every rebuilt device), and only a device that outlives that minute
/// starts the count over.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "warden/core/submission_clock.h"

namespace warden::device {

/// A point on the steady clock.
using SteadyTime = std::chrono::steady_clock::time_point;
/// Injectable time: tests pass a fake.
using NowFunction = std::function<SteadyTime()>;

/// Surface: the swapchain could not get a frame even after its one reconfigure-and-retry
/// (present/swapchain.h). Not a device loss, but repeated, it is worth a rebuild limit too.
enum class FaultKind { Lost, Hung, FailedCreation, Surface };
/// How many FaultKind values there are.
inline constexpr size_t kFaultKindCount = 4;
/// "lost", "hung", "failed creation" or "surface".
const char* to_string(FaultKind kind);

/// Why a RebuildPolicy gave up: the fault kind that exhausted it, and how.
struct GiveUp {
  FaultKind kind = FaultKind::Lost;  ///< the kind whose faults exhausted the policy
  size_t faults = 0;                 ///< how many of them fell within the window
  std::chrono::milliseconds window{};  ///< the window they were counted in
  std::string last_detail{};         ///< what the last of them said (may be empty)
  /// The faults were devices in a row, each lost or hung within `window`
  /// (RebuildPolicyOptions::young) of becoming ready; `kind` is the last one's.
  bool died_young = false;
  /// Give-ups compare field by field.
  bool operator==(const GiveUp&) const = default;
};
/// The facts in words, for a log or an error: "3 device losses within 60 s (the last: ...)".
std::string describe(const GiveUp& give_up);

/// How forgiving a RebuildPolicy is.
struct RebuildPolicyOptions {
  /// Faults of one kind within `window` that give up.
  unsigned faults_to_give_up = 3;
  /// The window faults are counted in.
  std::chrono::milliseconds window{std::chrono::minutes(1)};
  /// A replacement ready for this long "held": the faults before it are forgiven.
  std::chrono::milliseconds hold{std::chrono::seconds(10)};
  /// A device lost or hung less than this long after it became ready (replacement_ready)
  /// "died young". Young deaths are counted in a row, across the Lost and Hung kinds, and are
  /// not forgiven by `hold`; a device that lives this long resets the count when it ends.
  std::chrono::milliseconds young{std::chrono::minutes(1)};
  /// Young deaths in a row that give up, whatever `window` and `hold` say. 0: never.
  unsigned young_deaths_to_give_up = 5;
  /// The clock.
  NowFunction now = [] { return std::chrono::steady_clock::now(); };
};

/// What record_fault() decided.
enum class RebuildVerdict {
  MayRebuild,  ///< the fault was scored; the owner may rebuild
  GaveUp,      ///< this fault (or an earlier one) exhausted the policy
  NotScored,   ///< a hang reported while the policy has given up: recorded, not scored
};

/// Counts faults per kind and says when to stop rebuilding (see the file comment).
class RebuildPolicy {
 public:
  /// A policy with `options`.
  explicit RebuildPolicy(RebuildPolicyOptions options = {});

  /// Scores one fault; `detail` goes into give_up() if it gives up.
  RebuildVerdict record_fault(FaultKind kind, std::string_view detail);
  /// A new device reached ready; if it stays up for `hold`, the earlier faults are forgiven.
  void replacement_ready();

  /// True once a fault kind exhausted the policy; stays so until reset().
  bool gave_up() const { return give_up_.has_value(); }
  /// Empty until the policy gives up; then why (reset() tries again).
  const std::optional<GiveUp>& give_up() const { return give_up_; }
  /// give_up() in words (describe); empty until the policy gives up.
  std::string explanation() const { return give_up_ ? describe(*give_up_) : std::string(); }
  /// Faults of `kind` inside the window that still count.
  size_t strikes(FaultKind kind) const;
  /// Hangs reported after the policy gave up (recorded, not scored).
  uint64_t unscored_hangs() const { return unscored_hangs_; }
  /// Devices in a row that died young (RebuildPolicyOptions::young) so far.
  unsigned young_deaths() const { return young_deaths_; }

  /// A new explicit user action (or an application reset): start over.
  void reset();

 private:
  bool replacement_held(SteadyTime now) const;
  RebuildPolicyOptions options_;
  std::array<std::deque<SteadyTime>, kFaultKindCount> faults_;
  bool has_ready_since_ = false;
  SteadyTime ready_since_{};
  std::optional<GiveUp> give_up_;  // set once a fault kind exhausted the policy
  // When the device now up became ready; cleared by its loss or hang (other faults leave it).
  std::optional<SteadyTime> device_ready_at_;
  unsigned young_deaths_ = 0;  // devices in a row lost or hung within options_.young of ready
  uint64_t unscored_hangs_ = 0;
};

/// Watches a SubmissionClock once per frame: reports a hang the first time submitted work has
/// made no progress (the retired serial did not move) for longer than `limit`. Non-blocking.
class HangWatch {
 public:
  /// Reports a hang when submitted work has not retired for `limit`.
  HangWatch(std::chrono::milliseconds limit, NowFunction now);

  /// True exactly once per stall; progress or an empty queue re-arms it.
  bool check(const SubmissionClock& clock);
  /// The limit it was built with.
  std::chrono::milliseconds limit() const { return limit_; }

 private:
  std::chrono::milliseconds limit_;
  NowFunction now_;
  bool watching_ = false;
  bool reported_ = false;
  Serial watched_retired_{};
  SteadyTime since_{};
};

}  // namespace warden::device
