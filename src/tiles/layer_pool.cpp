#include "warden/tiles/layer_pool.h"

#include <algorithm>
#include <cassert>

#include <fmt/format.h>

namespace warden::tiles {
LayerPool::LayerPool(uint32_t layer_count, const SubmissionClock& clock, uint32_t reserve)
    : layer_count_(layer_count),
      reserve_(std::min(reserve, layer_count)),
      clock_(clock),
      state_(layer_count, State::Free),
      last_use_(layer_count, Serial{}),
      next_(layer_count, kNone) {
  for (LayerIndex i = 0; i < layer_count; ++i) push(free_, i);
  in_flight_base_ = clock_.retired().next();
}

void LayerPool::push(List& list, LayerIndex layer) {
  next_[layer] = kNone;
  if (list.tail == kNone) {
    list.head = layer;
  } else {
    next_[list.tail] = layer;
  }
  list.tail = layer;
  ++list.size;
}

LayerIndex LayerPool::pop(List& list) {
  LayerIndex layer = list.head;
  list.head = next_[layer];
  if (list.head == kNone) list.tail = kNone;
  next_[layer] = kNone;
  --list.size;
  return layer;
}

void LayerPool::splice(List& into, List& from) {
  if (from.size == 0) return;
  if (into.tail == kNone) {
    into.head = from.head;
  } else {
    next_[into.tail] = from.head;
  }
  into.tail = from.tail;
  into.size += from.size;
  from = List{};
}

void LayerPool::collect_retired() {
  const Serial retired = clock_.retired();
  // Each bucket is visited once in its life, so this is O(1) amortised per release/submit.
  while (!in_flight_.empty() && in_flight_base_ <= retired) {
    List& bucket = in_flight_.front();
    for (LayerIndex l = bucket.head; l != kNone; l = next_[l]) state_[l] = State::Free;
    in_flight_count_ -= bucket.size;
    splice(free_, bucket);
    in_flight_.pop_front();
    in_flight_base_ = in_flight_base_.next();
  }
  if (in_flight_.empty()) in_flight_base_ = retired.next();
}

std::optional<LayerIndex> LayerPool::acquire(Priority priority) {
  if (!can_acquire(priority)) return std::nullopt;
  LayerIndex layer = pop(free_);
  state_[layer] = State::Allocated;
  ++allocated_count_;
  debug_check_counts();
  return layer;
}

bool LayerPool::can_acquire(Priority priority) {
  collect_retired();
  return free_.size > (priority == Priority::Urgent ? 0 : reserve_);
}

bool LayerPool::can_acquire_after_releasing(LayerIndex layer, Priority priority) {
  if (!is_allocated(layer) || !clock_.is_retired(last_use_[layer])) return false;
  collect_retired();
  return free_.size + 1 > (priority == Priority::Urgent ? 0 : reserve_);
}

Result<void> LayerPool::check_allocated(LayerIndex layer, const char* operation) const {
  if (layer >= layer_count_) {
    return make_error(ErrorKind::InvalidArgument, MessageId::LayerPoolLayerOutOfRange,
                      fmt::format("{} of layer {}: the pool has {} layers", operation, layer, layer_count_));
  }
  if (state_[layer] != State::Allocated) {
    return make_error(ErrorKind::Refused, MessageId::LayerPoolLayerNotAllocated,
                      fmt::format("{} of layer {}: the layer is {}, not allocated (only a layer handed "
                                  "out by acquire and not yet released may be {})",
                                  operation, layer,
                                  state_[layer] == State::InFlight ? "released (still in flight)" : "free",
                                  std::string_view(operation) == "touch" ? "touched" : "released"));
  }
  return {};
}

Result<void> LayerPool::touch(LayerIndex layer) {
  if (auto ok = check_allocated(layer, "touch"); !ok) return ok;
  last_use_[layer] = clock_.recording();
  newest_touch_ = std::max(newest_touch_, last_use_[layer]);
  return {};
}

Result<void> LayerPool::release(LayerIndex layer) {
  if (auto ok = check_allocated(layer, "release"); !ok) return ok;
  collect_retired();  // afterwards in_flight_base_ == retired + 1
  --allocated_count_;
  const Serial last = last_use_[layer];
  if (clock_.is_retired(last)) {
    state_[layer] = State::Free;
    push(free_, layer);
  } else {
    state_[layer] = State::InFlight;
    const size_t bucket = last.value - in_flight_base_.value;
    if (bucket >= in_flight_.size()) in_flight_.resize(bucket + 1);
    push(in_flight_[bucket], layer);
    ++in_flight_count_;
  }
  debug_check_counts();
  return {};
}

bool LayerPool::is_allocated(LayerIndex layer) const {
  return layer < layer_count_ && state_[layer] == State::Allocated;
}

Serial LayerPool::last_use(LayerIndex layer) const {
  return layer < layer_count_ ? last_use_[layer] : Serial{};
}

LayerPoolCounts LayerPool::counts() {
  collect_retired();
  return LayerPoolCounts{free_.size, in_flight_count_, allocated_count_};
}

void LayerPool::debug_check_counts() const {
#ifndef NDEBUG
  assert(free_.size + in_flight_count_ + allocated_count_ == layer_count_ &&
         "LayerPool: free + in flight + allocated != layer count");
#endif
}

Result<void> LayerPool::check_invariants() const {
  auto fail = [](std::string message) {
    return make_error(ErrorKind::Internal, MessageId::LayerPoolInvariantBroken,
                      "LayerPool invariant broken: " + std::move(message));
  };
  if (free_.size + in_flight_count_ + allocated_count_ != layer_count_) {
    return fail(fmt::format("free {} + in flight {} + allocated {} != {} layers", free_.size,
                            in_flight_count_, allocated_count_, layer_count_));
  }
  std::vector<uint8_t> seen(layer_count_, 0);
  // Walks one list; a cycle or a layer on two lists shows up as a layer seen twice.
  auto walk = [&](const List& list, State expected, std::optional<Serial> serial,
                  const char* name) -> Result<void> {
    uint32_t n = 0;
    for (LayerIndex l = list.head; l != kNone; l = next_[l]) {
      if (l >= layer_count_) return fail(fmt::format("{} list holds layer {} (out of range)", name, l));
      if (seen[l]++) return fail(fmt::format("layer {} is on two lists (or {} list loops)", l, name));
      if (state_[l] != expected) return fail(fmt::format("layer {} on the {} list has another state", l, name));
      if (serial && last_use_[l] != *serial) {
        return fail(fmt::format("layer {} waits for serial {} but was last read by {}", l,
                                serial->value, last_use_[l].value));
      }
      if (expected == State::Free && !clock_.is_retired(last_use_[l])) {
        return fail(fmt::format("free layer {} was last read by serial {}, not retired (retired {})",
                                l, last_use_[l].value, clock_.retired().value));
      }
      ++n;
    }
    if (n != list.size) return fail(fmt::format("{} list counts {} but holds {}", name, list.size, n));
    return {};
  };
  if (auto ok = walk(free_, State::Free, std::nullopt, "free"); !ok) return ok;
  uint32_t in_flight = 0;
  Serial serial = in_flight_base_;
  for (const List& bucket : in_flight_) {
    if (auto ok = walk(bucket, State::InFlight, serial, "in-flight"); !ok) return ok;
    in_flight += bucket.size;
    serial = serial.next();
  }
  if (in_flight != in_flight_count_) {
    return fail(fmt::format("in-flight buckets hold {} layers, counted {}", in_flight, in_flight_count_));
  }
  uint32_t allocated = 0;
  for (LayerIndex l = 0; l < layer_count_; ++l) {
    if (state_[l] == State::Allocated) {
      if (seen[l]) return fail(fmt::format("allocated layer {} is also on a list", l));
      ++allocated;
    } else if (!seen[l]) {
      return fail(fmt::format("layer {} is neither allocated nor on a list (leaked)", l));
    }
  }
  if (allocated != allocated_count_) {
    return fail(fmt::format("{} layers are allocated, counted {}", allocated, allocated_count_));
  }
  return {};
}

}  // namespace warden::tiles
