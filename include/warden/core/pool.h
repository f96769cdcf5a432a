/// @file
/// Pool<T>: generational slots with a capacity fixed at creation, read from any thread.
///
/// A slot is live or free; its generation says which occupant a handle refers to. Releasing
/// an occupant bumps the generation at once, so every handle to it goes stale even if the slot
/// is reused in the next call. A slot whose generation would pass the limit is exhausted: given up
/// for good instead of wrapping (docs/adr/0002): a wrapped generation would make a handle from four
/// billion occupants ago valid again.
///
/// Each slot stores the exact 64-bit handle that names its live occupant (kind, registry,
/// index, generation). A free slot stores its next generation with the index field inverted,
/// and a slot never handed out stores zero: a lookup reaches slot i only with index field i, so
/// no live handle at all, forged or not, equals a slot that is not live.
///
/// Threads (docs/adr/0042): the slot array is allocated whole at creation (the capacity rounded
/// up to a power of two) and never moves, so a lookup masks the index instead of checking a
/// bound, and find()/load() run on any thread without a lock, wait-free: two atomic loads and a
/// compare. Everything that changes the pool (acquire, release, exchange) belongs to one writer
/// at a time; the owner serialises writers (the Registry's lock).
#pragma once

// clang says whether it instruments threads through __has_feature; gcc defines __SANITIZE_THREAD__.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define WARDEN_POOL_HAS_TSAN 1
#endif
#endif
#ifndef WARDEN_POOL_HAS_TSAN
/// 1 where clang instruments this build with ThreadSanitizer (gcc says so with
/// __SANITIZE_THREAD__): Pool's reads are then the atomic loads TSan can see.
#define WARDEN_POOL_HAS_TSAN 0
#endif

#include <algorithm>
#include <atomic>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "warden/core/handle.h"

namespace warden {

namespace detail {
/// Memory for a pool's slot array of `bytes`, on large pages where it is 2 MiB or more and the
/// system gives them (src/core/pool.cpp); throws std::bad_alloc. Freed with free_slot_array.
void* allocate_slot_array(size_t bytes);
/// Frees what allocate_slot_array returned.
void free_slot_array(void* memory);
/// A pool's slot array: `count` atomic words, zero, each a slot's key or value.
template <typename Word>
struct SlotArrayFree {
  void operator()(std::atomic<Word>* words) const { free_slot_array(words); }
};
template <typename Word>
using SlotArray = std::unique_ptr<std::atomic<Word>[], SlotArrayFree<Word>>;
template <typename Word>
SlotArray<Word> make_slot_array(size_t count) {
  static_assert(std::is_trivially_destructible_v<std::atomic<Word>>, "freed without destructors");
  auto* words = static_cast<std::atomic<Word>*>(allocate_slot_array(count * sizeof(std::atomic<Word>)));
  std::uninitialized_value_construct_n(words, count);  // every slot zero: never handed out
  return SlotArray<Word>(words);
}
}  // namespace detail

/// Where an occupant lives in a Pool, and the handle bits that name it.
struct SlotId {
  /// The slot.
  uint32_t index = 0;
  /// The occupant's generation.
  uint32_t generation = 0;
  uint64_t bits = 0;  ///< the handle that names this occupant
};

template <typename T>
/// Generational slots holding T, with a capacity fixed at creation (see the file comment). T is
/// a word stored atomically: a GPU object's pointer, or a small number.
class Pool {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(uint64_t),
                "a Pool holds a word it can store atomically");

 public:
  /// `owner_bits` (HandleLayout::owner_bits) are written into every handle the pool issues;
  /// their kind must not be None. `generation_limit` is the last generation a slot may carry;
  /// tests lower it to exhaust a slot in a few steps. Every slot's first occupant
  /// gets `first_generation`: a registry that reuses an earlier registry's id starts above every
  /// generation that one issued, so none of its handles can match (docs/adr/0002).
  Pool(uint32_t capacity, uint64_t owner_bits,
       uint32_t generation_limit = HandleLayout::kMaxGeneration, uint32_t first_generation = 1)
      : capacity_(capacity),
        index_mask_(std::bit_ceil(std::max(capacity, 1u)) - 1),
        keys_(detail::make_slot_array<uint64_t>(size_t{index_mask_} + 1)),
        values_(detail::make_slot_array<T>(size_t{index_mask_} + 1)),
        owner_bits_(owner_bits),
        generation_limit_(generation_limit),
        first_generation_(first_generation) {
    assert(capacity <= HandleLayout::kMaxSlots);
    assert(first_generation >= 1 && first_generation <= generation_limit);
    assert((owner_bits & ~HandleLayout::kOwnerMask) == 0);
    assert((owner_bits >> HandleLayout::kKindShift & HandleLayout::kKindMask) != 0);
  }
  /// Moves the slots; the moved-from pool holds none. Not while any other thread reads it.
  Pool(Pool&&) noexcept = default;
  /// The same, by assignment.
  Pool& operator=(Pool&&) noexcept = default;

  /// The most slots this pool will ever have.
  uint32_t capacity() const { return capacity_; }
  /// Slots holding a live occupant now.
  uint32_t live_count() const { return live_; }
  /// Exhausted slots: given up because their generation reached the limit.
  uint32_t exhausted_slots() const { return exhausted_; }
  /// The name exhausted_slots() had before (docs/design.md, "Glossary").
  [[deprecated("renamed exhausted_slots()")]] uint32_t retired_slots() const { return exhausted_slots(); }
  /// The generation every slot's first occupant gets.
  uint32_t first_generation() const { return first_generation_; }
  /// The highest generation any occupant was given; 0 before the first acquire.
  uint32_t highest_generation_issued() const { return highest_issued_; }

  /// Stores `value` in a free slot; nullopt when every usable slot is taken. Writer.
  std::optional<SlotId> acquire(T value) {
    uint32_t index;
    uint32_t generation;
    if (!free_.empty()) {
      index = free_.back();
      free_.pop_back();
      generation = generation_of(keys_[index].load(std::memory_order_relaxed));
    } else if (handed_out_ < capacity_) {  // exhausted slots count as handed out, never free
      index = handed_out_++;
      generation = first_generation_;
    } else {
      return std::nullopt;
    }
    const uint64_t key = live_key(index, generation);
    // Value first, then the key that makes it findable (load() reads them the other way round).
    values_[index].store(value, std::memory_order_release);
    keys_[index].store(key, std::memory_order_release);
    ++live_;
    if (generation > highest_issued_) highest_issued_ = generation;
    return SlotId{index, generation, key};
  }

  /// What release() hands back.
  struct Released {
    /// The occupant, moved out of its slot.
    T value{};
    bool slot_exhausted = false;  ///< the generation reached the limit; the slot is never reused
  };
  /// Ends the occupant of a live slot; its handles go stale at once. Writer.
  Released release(uint32_t index) {
    assert(index < handed_out_ && is_live(keys_[index].load(std::memory_order_relaxed)));
    const uint32_t generation = generation_of(keys_[index].load(std::memory_order_relaxed));
    Released out{};
    --live_;
    if (generation >= generation_limit_) {
      // Keeps the last generation, marked free: no later acquire takes it, no handle matches.
      keys_[index].store(free_key(index, generation), std::memory_order_release);
      ++exhausted_;
      out.slot_exhausted = true;
    } else {
      keys_[index].store(free_key(index, generation + 1), std::memory_order_release);
      free_.push_back(index);
    }
    out.value = values_[index].exchange(T{}, std::memory_order_acq_rel);
    return out;
  }

  /// The value of the live occupant the handle bits name, or T{} when they name none. The hot
  /// path of every resolve, on any thread: the value, then the key, both from one slot, and one
  /// compare. Reading the value first is what makes a concurrent release and re-acquire of the
  /// slot safe: a value stored by a later occupant is published after the key that ended this
  /// one, so the key read next no longer matches (docs/adr/0042).
  T load(uint64_t handle_bits) const {
    const size_t index = handle_bits & index_mask_;
    if constexpr (kPlainLoads) {
      // value = values_[index]; if (keys_[index] != handle_bits) value = 0: two loads in this
      // order, the compare folded into the second and no branch.
      uint64_t value;
      __asm__ __volatile__(
          "movq %[stored], %[value]\n\t"
          "cmpq %[key], %[handle]\n\t"
          "cmovneq %[none], %[value]"
          : [value] "=&r"(value)
          : [stored] "m"(values_[index]), [key] "m"(keys_[index]), [handle] "r"(handle_bits),
            [none] "r"(uint64_t{0})
          : "cc");
      return std::bit_cast<T>(value);
    } else {
      const T value = read_value(index);
      return read_key_after(index, value) == handle_bits ? value : T{};
    }
  }
  /// Whether the handle bits name the live occupant of their slot (whatever its value).
  bool contains(uint64_t handle_bits) const {
    return is_live(handle_bits) && keys_[handle_bits & index_mask_].load(std::memory_order_acquire) == handle_bits;
  }
  /// The value of the live occupant the handle bits name; nullopt when they name none.
  std::optional<T> find(uint64_t handle_bits) const {
    const size_t index = handle_bits & index_mask_;
    const T value = read_value(index);
    // A live key always has owner bits: the null handle matches a never-used slot's zero, not an occupant.
    if (!is_live(handle_bits) || read_key_after(index, value) != handle_bits) return std::nullopt;
    return value;
  }
  /// The same, from parts (this pool's kind and registry).
  std::optional<T> find(uint32_t index, uint32_t generation) const { return find(live_key(index, generation)); }
  /// Replaces the value of the live occupant the handle bits name; the old value. Writer.
  T exchange(uint64_t handle_bits, T value) {
    assert(contains(handle_bits));
    return values_[handle_bits & index_mask_].exchange(value, std::memory_order_acq_rel);
  }

  /// What a slot holds now, for error messages about a handle that did not match.
  struct SlotState {
    bool exists = false;  ///< the index was ever handed out
    /// The slot holds a live occupant.
    bool alive = false;
    uint32_t generation = 0;  ///< of the live occupant, or of the next one when free
  };
  /// What slot `index` holds now; a default SlotState when it was never handed out.
  SlotState state(uint32_t index) const {
    if (index >= handed_out_) return {};
    const uint64_t key = keys_[index].load(std::memory_order_acquire);
    return {true, is_live(key), generation_of(key)};
  }

  template <typename F>  // F(SlotId, T)
  /// Calls f(SlotId, T) for every live occupant, in slot order. Writer (or under the writers' lock).
  void for_each_live(F&& f) const {
    for (uint32_t i = 0; i < handed_out_; ++i) {
      const uint64_t key = keys_[i].load(std::memory_order_relaxed);
      if (is_live(key)) f(SlotId{i, generation_of(key), key}, values_[i].load(std::memory_order_relaxed));
    }
  }

 private:
  // The reader's two loads: the value, then the key (see load()). On x86-64 every load is an
  // acquire load in hardware, so these are plain loads written in asm: a compiler treats each
  // atomic access as a barrier that no other load crosses, and would reload the caller's
  // loop-invariant words (this pool's arrays and mask) around every lookup. The key's asm takes
  // the value as an operand, so it is issued after it. Elsewhere, and under ThreadSanitizer
  // (which sees atomics, not asm), they are the atomic loads they stand for.
#if defined(__x86_64__) && !defined(__SANITIZE_THREAD__) && !WARDEN_POOL_HAS_TSAN
  static constexpr bool kPlainLoads = sizeof(T) == sizeof(uint64_t);
#else
  static constexpr bool kPlainLoads = false;
#endif
  T read_value(size_t index) const {
    if constexpr (kPlainLoads) {
      T value;
      __asm__ __volatile__("movq %1, %0" : "=r"(value) : "m"(values_[index]));
      return value;
    } else {
      return values_[index].load(std::memory_order_acquire);
    }
  }
  uint64_t read_key_after(size_t index, T value) const {
    if constexpr (kPlainLoads) {
      uint64_t key;
      __asm__ __volatile__("movq %1, %0" : "=r"(key) : "m"(keys_[index]), "r"(value));
      return key;
    } else {
      (void)value;
      return keys_[index].load(std::memory_order_relaxed);
    }
  }
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
  static bool is_live(uint64_t key) { return (key & HandleLayout::kOwnerMask) != 0; }

  uint32_t capacity_;
  // The slot arrays' size less one (a power of two less one): the lookup's index mask. A masked
  // index past the slots handed out reaches a slot whose key holds another index, or zero.
  uint32_t index_mask_;
  // Slot i is keys_[i] and values_[i]: the key is the live occupant's handle (live_key), its
  // next generation when free (free_key), or zero when never used. Two arrays rather than one of
  // pairs: a lookup addresses each with one scaled index.
  detail::SlotArray<uint64_t> keys_;
  detail::SlotArray<T> values_;
  // Writer state, under the owner's lock.
  uint32_t handed_out_ = 0;        // slots 0..handed_out_-1 were ever given an occupant
  std::vector<uint32_t> free_;    // LIFO: a freed slot is reused first, with a new generation
  uint64_t owner_bits_;
  uint32_t generation_limit_;
  uint32_t first_generation_;
  uint32_t highest_issued_ = 0;
  uint32_t live_ = 0;
  uint32_t exhausted_ = 0;
};

}  // namespace warden
