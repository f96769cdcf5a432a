// Pool<T>: generational slots with a capacity fixed at creation.
//
// A slot is reserved or free; its generation says which occupant a handle refers to. Releasing
// an occupant bumps the generation at once, so every handle to it goes stale even if the slot
// is reused in the next call. A slot whose generation would pass the limit is retired for good
// instead of wrapping (docs/adr/0002): a wrapped generation would make a handle from four
// billion occupants ago valid again.
#pragma once

#include <cassert>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "warden/core/handle.h"

namespace warden {

struct SlotId {
  uint32_t index = 0;
  uint32_t generation = 0;
};

template <typename T>
class Pool {
 public:
  // `generation_limit` is the last generation a slot may carry; tests lower it to reach the
  // retirement rule in a few steps.
  explicit Pool(uint32_t capacity, uint32_t generation_limit = HandleLayout::kMaxGeneration)
      : capacity_(capacity), generation_limit_(generation_limit) {
    assert(capacity <= HandleLayout::kMaxSlots);
    assert(generation_limit >= 1);
  }

  uint32_t capacity() const { return capacity_; }
  uint32_t live_count() const { return live_; }
  // Slots given up because their generation reached the limit.
  uint32_t retired_slots() const { return retired_; }

  // Stores `value` in a free slot; nullopt when every usable slot is taken.
  std::optional<SlotId> acquire(T value) {
    uint32_t index;
    if (!free_.empty()) {
      index = free_.back();
      free_.pop_back();
    } else if (slots_.size() < capacity_) {  // retired slots stay in slots_, never free
      index = static_cast<uint32_t>(slots_.size());
      slots_.push_back(Slot{});
    } else {
      return std::nullopt;
    }
    Slot& slot = slots_[index];
    assert(!slot.alive);
    slot.alive = true;
    slot.value = std::move(value);
    ++live_;
    return SlotId{index, slot.generation};
  }

  struct Released {
    T value;
    bool slot_retired = false;  // the generation reached the limit; the slot is never reused
  };
  // Ends the occupant of a live slot; its handles go stale at once.
  Released release(uint32_t index) {
    assert(index < slots_.size() && slots_[index].alive);
    Slot& slot = slots_[index];
    Released out{std::exchange(slot.value, T{}), false};
    slot.alive = false;
    --live_;
    if (slot.generation >= generation_limit_) {
      ++retired_;
      out.slot_retired = true;
    } else {
      ++slot.generation;
      free_.push_back(index);
    }
    return out;
  }

  // The live occupant `id` names, or null. This is the hot path of every resolve.
  const T* find(uint32_t index, uint32_t generation) const {
    if (index >= slots_.size()) return nullptr;
    const Slot& slot = slots_[index];
    return slot.generation == generation && slot.alive ? &slot.value : nullptr;
  }
  T* find(uint32_t index, uint32_t generation) {
    return const_cast<T*>(std::as_const(*this).find(index, generation));
  }

  // What a slot holds now, for error messages about a handle that did not match.
  struct SlotState {
    bool exists = false;  // the index was ever handed out
    bool alive = false;
    uint32_t generation = 0;  // of the live occupant, or of the next one when free
  };
  SlotState state(uint32_t index) const {
    if (index >= slots_.size()) return {};
    return {true, slots_[index].alive, slots_[index].generation};
  }

  template <typename F>  // F(SlotId, T&)
  void for_each_live(F&& f) {
    for (uint32_t i = 0; i < slots_.size(); ++i) {
      if (slots_[i].alive) f(SlotId{i, slots_[i].generation}, slots_[i].value);
    }
  }

 private:
  // Kept small and dense: resolve touches only this array.
  struct Slot {
    uint32_t generation = 1;
    bool alive = false;
    T value{};
  };
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_;  // LIFO: a freed slot is reused first, with a new generation
  uint32_t capacity_;
  uint32_t generation_limit_;
  uint32_t live_ = 0;
  uint32_t retired_ = 0;
};

}  // namespace warden
