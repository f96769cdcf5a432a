/// @file
/// LayerPool: the layers of one texture_2d_array, recycled under the submission clock.
///
/// A layer is in exactly one of three states:
///   allocated  handed out by acquire(), owned by its caller until release();
///   in flight  released, but the last submission that read it has not retired;
///   free       released and retired: the only layers acquire() may hand out.
/// The pool is the only allocator of layers (docs/design.md, tiles rule T2):
/// a layer can never be handed out twice, and nothing is ever destroyed here.
///
/// touch(layer) records the submission being *recorded* (clock.recording()), not the last one
/// submitted: a command buffer recorded but not yet submitted already reads the layer
/// (DESIGN "What the hazard really is").
///
/// acquire() and release() are O(1) amortised at any layer count: released layers wait in
/// buckets keyed by their last-use serial and move, a whole bucket at a time, onto the free
/// list once that serial retires (docs/adr/0005).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "warden/core/result.h"
#include "warden/core/submission_clock.h"

namespace warden::tiles {

/// The index of one layer of the array, 0 to layer_count() - 1.
using LayerIndex = uint32_t;

/// Normal acquires leave `reserve` free layers untouched; Urgent ones (a fast zoom that would
/// otherwise show a blank map) may take them.
enum class Priority { Normal, Urgent };

/// How many layers are in each state; the three add up to the layer count.
struct LayerPoolCounts {
  uint32_t free = 0;       ///< released and retired
  uint32_t in_flight = 0;  ///< released, last reader not retired yet
  uint32_t allocated = 0;  ///< handed out
};

/// The layers of one texture_2d_array, recycled under the submission clock (see the file's
/// description above): a layer is handed out only once its last reader retired. Not thread-safe.
class LayerPool {
 public:
  static constexpr uint32_t kDefaultReserve = 4;  ///< docs/design.md, tiles rule T3

  /// `clock` must outlive the pool; it is the only source of retirement.
  LayerPool(uint32_t layer_count, const SubmissionClock& clock, uint32_t reserve = kDefaultReserve);

  /// A layer whose last reader has retired, or nullopt when none may be handed out now (not an
  /// error: the tile renders from an ancestor this frame and is tried again next frame).
  std::optional<LayerIndex> acquire(Priority priority = Priority::Normal);
  /// Whether acquire(priority) would hand out a layer now.
  bool can_acquire(Priority priority = Priority::Normal);
  /// Whether it would right after release(layer): true only when `layer` is allocated and its
  /// last reader has retired, so releasing it makes it free at once (not in flight).
  bool can_acquire_after_releasing(LayerIndex layer, Priority priority = Priority::Normal);
  /// Records that the frame being recorded reads `layer`. Only an allocated layer may be
  /// touched: a released layer must not be read by new work.
  Result<void> touch(LayerIndex layer);
  /// Puts an allocated layer back. Nothing is destroyed; the layer becomes free once its last
  /// reader retires.
  Result<void> release(LayerIndex layer);

  /// Whether `layer` is handed out now; false for an index out of range.
  bool is_allocated(LayerIndex layer) const;
  /// The serial of the last submission that read `layer` (Serial{0}: never read).
  Serial last_use(LayerIndex layer) const;
  /// The newest serial any layer was touched with: the array may be destroyed once it retired.
  Serial last_use_of_any() const { return newest_touch_; }

  /// How many layers the pool manages.
  uint32_t layer_count() const { return layer_count_; }
  /// How many layers are handed out now.
  uint32_t allocated_count() const { return allocated_count_; }
  /// How many free layers only Urgent acquires may take.
  uint32_t reserve() const { return reserve_; }
  /// Counts after moving everything that has retired onto the free list.
  LayerPoolCounts counts();

  /// free + in flight + allocated == layer count, and every list agrees with every layer's
  /// state. O(layers); runs on demand (and once per second in a development loop). Debug builds
  /// check the cheap form (the counts add up) after every operation.
  Result<void> check_invariants() const;

 private:
  enum class State : uint8_t { Free, InFlight, Allocated };
  static constexpr LayerIndex kNone = UINT32_MAX;

  // An intrusive singly linked list threaded through next_: splicing a bucket is O(1).
  struct List {
    LayerIndex head = kNone;
    LayerIndex tail = kNone;
    uint32_t size = 0;
  };
  void push(List& list, LayerIndex layer);
  LayerIndex pop(List& list);
  void splice(List& into, List& from);
  // Moves every bucket whose serial has retired onto the free list.
  void collect_retired();
  Result<void> check_allocated(LayerIndex layer, const char* operation) const;
  void debug_check_counts() const;

  uint32_t layer_count_;
  uint32_t reserve_;
  const SubmissionClock& clock_;
  std::vector<State> state_;
  std::vector<Serial> last_use_;
  std::vector<LayerIndex> next_;
  List free_;
  // in_flight_[i] holds the released layers last read by serial in_flight_base_ + i.
  std::deque<List> in_flight_;
  Serial in_flight_base_{1};
  uint32_t in_flight_count_ = 0;
  uint32_t allocated_count_ = 0;
  Serial newest_touch_{};
};

}  // namespace warden::tiles
