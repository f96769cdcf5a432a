/// @file
/// Pool<T>: generational slots with a capacity fixed at creation.
///
/// A slot is live or free; its generation says which occupant a handle refers to. Releasing
/// an occupant bumps the generation at once, so every handle to it goes stale even if the slot
/// is reused in the next call. A slot whose generation would pass the limit is retired for good
/// instead of wrapping (docs/adr/0002): a wrapped generation would make a handle from four
/// billion occupants ago valid again.
///
/// Each slot stores the exact 64-bit handle that names its live occupant (kind, registry,
/// index, generation). A free slot stores its next generation with the index field inverted:
/// a lookup reaches slot i only with index field i, so no value at all, forged or not, equals
/// a free slot's key. The whole check of a resolve (right kind, right registry, alive, right
/// generation) is one bounds check and one 64-bit compare.
#pragma once

#include <cassert>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "warden/core/handle.h"

namespace warden {

/// Where an occupant lives in a Pool, and the handle bits that name it.
struct SlotId {
  /// The slot.
  uint32_t index = 0;
  /// The occupant's generation.
  uint32_t generation = 0;
  uint64_t bits = 0;  ///< the handle that names this occupant
};

template <typename T>
/// Generational slots holding T, with a capacity fixed at creation (see the file comment).
class Pool {
 public:
  /// `owner_bits` (HandleLayout::owner_bits) are written into every handle the pool issues;
  /// their kind must not be None. `generation_limit` is the last generation a slot may carry;
  /// tests lower it to reach the retirement rule in a few steps. Every slot's first occupant
  /// gets `first_generation`: a registry that reuses an earlier registry's id starts above every
  /// generation that one issued, so none of its handles can match (docs/adr/0002).
  Pool(uint32_t capacity, uint64_t owner_bits,
       uint32_t generation_limit = HandleLayout::kMaxGeneration, uint32_t first_generation = 1)
      : capacity_(capacity),
        owner_bits_(owner_bits),
        generation_limit_(generation_limit),
        first_generation_(first_generation) {
    assert(capacity <= HandleLayout::kMaxSlots);
    assert(first_generation >= 1 && first_generation <= generation_limit);
    assert((owner_bits & ~HandleLayout::kOwnerMask) == 0);
    assert((owner_bits >> HandleLayout::kKindShift & HandleLayout::kKindMask) != 0);
  }

  /// The most slots this pool will ever have.
  uint32_t capacity() const { return capacity_; }
  /// Slots holding a live occupant now.
  uint32_t live_count() const { return live_; }
  /// Slots given up because their generation reached the limit.
  uint32_t retired_slots() const { return retired_; }
  /// The generation every slot's first occupant gets.
  uint32_t first_generation() const { return first_generation_; }
  /// The highest generation any occupant was given; 0 before the first acquire.
  uint32_t highest_generation_issued() const { return highest_issued_; }

  /// Stores `value` in a free slot; nullopt when every usable slot is taken.
  std::optional<SlotId> acquire(T value) {
    uint32_t index;
    if (!free_.empty()) {
      index = free_.back();
      free_.pop_back();
    } else if (slots_.size() < capacity_) {  // retired slots stay in slots_, never free
      index = static_cast<uint32_t>(slots_.size());
      slots_.push_back(Slot{free_key(index, first_generation_), T{}});
      slot_count_ = index + 1;
    } else {
      return std::nullopt;
    }
    Slot& slot = slots_[index];
    assert(!is_live(slot));
    const uint32_t generation = generation_of(slot.key);
    slot.key = live_key(index, generation);
    slot.value = std::move(value);
    ++live_;
    if (generation > highest_issued_) highest_issued_ = generation;
    return SlotId{index, generation, slot.key};
  }

  /// What release() hands back.
  struct Released {
    /// The occupant, moved out of its slot.
    T value{};
    bool slot_retired = false;  ///< the generation reached the limit; the slot is never reused
  };
  /// Ends the occupant of a live slot; its handles go stale at once.
  Released release(uint32_t index) {
    assert(index < slots_.size() && is_live(slots_[index]));
    Slot& slot = slots_[index];
    Released out{std::exchange(slot.value, T{}), false};
    const uint32_t generation = generation_of(slot.key);
    --live_;
    if (generation >= generation_limit_) {
      // Keeps the last generation, marked free: no later acquire takes it, no handle matches.
      slot.key = free_key(index, generation);
      ++retired_;
      out.slot_retired = true;
    } else {
      slot.key = free_key(index, generation + 1);
      free_.push_back(index);
    }
    return out;
  }

  /// The live occupant the handle bits name, or null. This is the hot path of every resolve:
  /// two loads from the pool (slot array, slot count), a bounds check and one compare.
  const T* find(uint64_t handle_bits) const {
    const uint32_t index = static_cast<uint32_t>(handle_bits & HandleLayout::kIndexMask);
    if (index >= slot_count_) return nullptr;
    const Slot& slot = slots_.data()[index];
    return slot.key == handle_bits ? &slot.value : nullptr;
  }
  /// The same as the const find(), for changing the occupant.
  T* find(uint64_t handle_bits) { return const_cast<T*>(std::as_const(*this).find(handle_bits)); }
  /// The same, from parts (this pool's kind and registry).
  const T* find(uint32_t index, uint32_t generation) const { return find(live_key(index, generation)); }

  /// What a slot holds now, for error messages about a handle that did not match.
  struct SlotState {
    bool exists = false;  ///< the index was ever handed out
    /// The slot holds a live occupant.
    bool alive = false;
    uint32_t generation = 0;  ///< of the live occupant, or of the next one when free
  };
  /// What slot `index` holds now; a default SlotState when it was never handed out.
  SlotState state(uint32_t index) const {
    if (index >= slots_.size()) return {};
    return {true, is_live(slots_[index]), generation_of(slots_[index].key)};
  }

  template <typename F>  // F(SlotId, T&)
  /// Calls f(SlotId, T&) for every live occupant, in slot order.
  void for_each_live(F&& f) {
    for (uint32_t i = 0; i < slots_.size(); ++i) {
      Slot& slot = slots_[i];
      if (is_live(slot)) f(SlotId{i, generation_of(slot.key), slot.key}, slot.value);
    }
  }

 private:
  // Kept small and dense: resolve touches only this array.
  struct Slot {
    uint64_t key{};  // live_key of the occupant, or free_key when free
    T value{};
  };
  static uint32_t generation_of(uint64_t key) {
    return static_cast<uint32_t>(key >> HandleLayout::kGenerationShift & HandleLayout::kGenerationMask);
  }
  static uint64_t free_key(uint32_t index, uint32_t generation) {
    return (~uint64_t{index} & HandleLayout::kIndexMask) << HandleLayout::kIndexShift |
           uint64_t{generation} << HandleLayout::kGenerationShift;
  }
  uint64_t live_key(uint32_t index, uint32_t generation) const {
    return uint64_t{index} << HandleLayout::kIndexShift | owner_bits_ |
           uint64_t{generation} << HandleLayout::kGenerationShift;
  }
  static bool is_live(const Slot& slot) { return (slot.key & HandleLayout::kOwnerMask) != 0; }

  std::vector<Slot> slots_;
  // slots_.size(), kept as a word of its own: the bounds check in find reads it directly
  // instead of computing (end - begin) / sizeof(Slot).
  uint32_t slot_count_ = 0;
  std::vector<uint32_t> free_;  // LIFO: a freed slot is reused first, with a new generation
  uint32_t capacity_;
  uint64_t owner_bits_;
  uint32_t generation_limit_;
  uint32_t first_generation_;
  uint32_t highest_issued_ = 0;
  uint32_t live_ = 0;
  uint32_t retired_ = 0;
};

}  // namespace warden
