// The registry's pending releases: GPU objects whose handles are gone and whose last submission
// has not retired yet, oldest serial first. Every destroy of an owned object passes through
// here, so it is a FIFO on one vector rather than a std::deque, which allocates a block every
// few entries and frees it again as they drain (about 65 instructions more a destroy, callgrind).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "warden/core/handle.h"
#include "warden/core/submission_clock.h"
#include "warden/resources/registry.h"

namespace warden::resources::detail {

// A GPU object whose handle is gone and whose last submission has not retired yet.
struct PendingRelease {
  Serial release_after{};  // last_used, or for owned objects at least the serial being recorded
  Serial last_used{};
  ResourceKind kind = ResourceKind::None;
  void* object = nullptr;
  Ownership ownership = Ownership::Owned;
  uint32_t index = 0;
  uint32_t generation = 0;
  // For RegistryOptions::on_release only: null without one. A pointer, not a string, so that an
  // entry moves as a few words on every destroy.
  std::unique_ptr<std::string> label{};
};

// In release_after order, oldest first: push() keeps it so. The entries live in items_ from
// head_ on; the front is taken by moving head_, and the space before it is reused once the
// queue empties, or given back once it is more than half the vector.
class PendingReleases {
 public:
  bool empty() const { return head_ == items_.size(); }
  size_t size() const { return items_.size() - head_; }
  const PendingRelease& front() const { return items_[head_]; }

  // Serials arrive in order nearly always: an owned object waits for the submission being
  // recorded, the newest serial, so it goes at the back. A borrowed object waits only for its
  // own last use, which can be older than what is queued; it goes in its place, so that it is
  // released when its own serial retired rather than behind a newer one.
  void push(PendingRelease pending) {
    if (empty() || items_.back().release_after <= pending.release_after) {
      items_.push_back(std::move(pending));
      return;
    }
    auto later = std::upper_bound(items_.begin() + static_cast<std::ptrdiff_t>(head_), items_.end(),
                                  pending.release_after,
                                  [](Serial after, const PendingRelease& queued) { return after < queued.release_after; });
    items_.insert(later, std::move(pending));
  }
  // The front entry, taken out of the queue.
  PendingRelease take_front() {
    PendingRelease taken = std::move(items_[head_++]);
    if (head_ == items_.size()) {
      items_.clear();  // keeps the capacity: the next entries reuse it
      head_ = 0;
    } else if (head_ >= kCompactAfter && head_ * 2 >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
    return taken;
  }

 private:
  // A queue that never empties (an object destroyed every frame, released two frames later)
  // moves its entries down once this many are spent, at most once per as many takes.
  static constexpr size_t kCompactAfter = 64;
  std::vector<PendingRelease> items_;
  size_t head_ = 0;
};

}  // namespace warden::resources::detail
