// What a generational check costs on this host, whatever the slots look like: the lookup loop of
// handle_bench.cpp (the same walk, the same accumulator) over plain arrays with no registry
// around them, in four forms, against the raw pointer:
//   slot_layout_raw_ns_<N>             PlainEntry* -> object, the PlainEntry objects allocated one by one
//   slot_layout_two_arrays_ns_<N>      Pool::load itself (docs/adr/0042): a key array and an
//                                      object array, the index masked out of the handle; load
//                                      the object, compare the key, a conditional move to null
//   slot_layout_two_arrays_branch_ns_<N> the same with a branch instead of the conditional move
//   slot_layout_slot16_ns_<N>          key and object side by side in one 16-byte slot, the index
//                                      stored in the handle already scaled by 16 (the mask gives
//                                      the byte offset, so no instruction is added for the
//                                      wider slot): one cache line a lookup instead of two
//   slot_layout_slot16_branch_ns_<N>   the same with the branch
// with N = 1,000 and 10,000 live objects. At 1,000 every array fits in the first-level cache, so
// what is left over the raw pointer is the check's own instructions (the mask, the key's load,
// the compare, the select or branch); docs/PERFORMANCE.md reads the H200 host's figures.
// Each form runs as interleaved repetitions, medians reported, as the resolve benchmarks do.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <vector>

#include "warden/core/handle.h"
#include "warden/core/pool.h"

namespace slot_layout {

struct PlainEntry {
  uintptr_t object = 0;
};

// N live objects in each form, and each form's references to them in one random order.
struct SlotLayoutWorld {
  uint32_t live = 0;
  uint64_t index_mask = 0;    // the two arrays': slots less one
  uint64_t offset_mask = 0;   // the 16-byte slots': the same, scaled by 16
  std::unique_ptr<warden::Pool<uintptr_t>> pool;  // Pool's own two arrays
  std::vector<uint64_t> keys, objects;  // the same two arrays, for the branch
  std::vector<uint64_t> slots;          // the 16-byte slots: object, key, object, key, ...
  std::vector<uint64_t> handles, scaled_handles;
  std::vector<PlainEntry*> raw;
  std::vector<std::unique_ptr<PlainEntry>> entries;  // in creation order, as an application's

  static SlotLayoutWorld& get(uint32_t live) {
    static auto& worlds = *new std::map<uint32_t, std::unique_ptr<SlotLayoutWorld>>;
    auto& world = worlds[live];
    if (!world) world = std::make_unique<SlotLayoutWorld>(live);
    return *world;
  }

  explicit SlotLayoutWorld(uint32_t n) : live(n) {
    uint64_t capacity = 1;
    while (capacity < uint64_t{n} + 1024) capacity <<= 1;  // as the registry's bench world
    index_mask = capacity - 1;
    offset_mask = index_mask << 4;
    keys.assign(capacity, 0);
    objects.assign(capacity, 0);
    slots.assign(capacity * 2, 0);
    const uint64_t owner = warden::HandleLayout::owner_bits(warden::ResourceKind::Buffer, 1);
    pool = std::make_unique<warden::Pool<uintptr_t>>(static_cast<uint32_t>(capacity), owner);
    std::vector<uint64_t> by_creation(n), scaled_by_creation(n);
    for (uint32_t i = 0; i < n; ++i) {
      entries.push_back(std::make_unique<PlainEntry>(PlainEntry{0x10000 + uintptr_t{i} * 64}));
      const uint64_t object = entries.back()->object;
      by_creation[i] = pool->acquire(object)->bits;  // slot i, the first generation
      keys[i] = by_creation[i];
      objects[i] = object;
      // The same handle with its index field scaled by 16 (bits 4-23); kind, registry and
      // generation above them are what they were.
      scaled_by_creation[i] = uint64_t{i} << 4 | (by_creation[i] & ~warden::HandleLayout::kIndexMask);
      slots[2 * i] = object;
      slots[2 * i + 1] = scaled_by_creation[i];
    }
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin(), order.end(), std::mt19937(42));
    for (uint32_t k : order) {
      handles.push_back(by_creation[k]);
      scaled_handles.push_back(scaled_by_creation[k]);
      raw.push_back(entries[k].get());
    }
  }
};

// handle_bench.cpp's loop: one lookup an iteration, folded into an accumulator kept in a register.
template <typename Lookup>
void walk(benchmark::State& state, Lookup lookup) {
  auto& w = SlotLayoutWorld::get(static_cast<uint32_t>(state.range(0)));
  uint32_t i = 0;
  uintptr_t folded = 0;
  for (auto _ : state) {
    folded ^= lookup(w, i);
    asm volatile("" : "+r"(folded));
    if (++i == w.live) i = 0;
  }
  benchmark::DoNotOptimize(folded);
}

#if defined(__x86_64__)
// The other forms' loads are written as Pool::load writes its own: plain loads in asm, so the
// compiler keeps the loop's invariant words in registers and cannot turn one form into another
// (it makes a select of a branch written in C++). Elsewhere they are the same C++.
uintptr_t check_branch(const uint64_t* objects, const uint64_t* keys, uint64_t index, uint64_t handle) {
  uint64_t value;
  __asm__ __volatile__("movq (%[objects],%[index],8), %[value]"
                       : [value] "=r"(value)
                       : [objects] "r"(objects), [index] "r"(index));
  // asm goto: written in C++, the compiler turns the branch back into a select.
  asm goto("cmpq (%[keys],%[index],8), %[handle]\n\tjne %l[stale]"
           :
           : [keys] "r"(keys), [index] "r"(index), [handle] "r"(handle), "r"(value)
           : "cc"
           : stale);
  return value;
stale:
  return 0;
}
// The 16-byte slot at `base` + `offset`: its object, then its key eight bytes on, addressed from
// the same two registers (no instruction adds them).
uintptr_t check_slot16(const char* base, uint64_t offset, uint64_t handle) {
  uint64_t value;
  __asm__ __volatile__(
      "movq (%[base],%[offset]), %[value]\n\t"
      "cmpq 8(%[base],%[offset]), %[handle]\n\t"
      "cmovneq %[none], %[value]"
      : [value] "=&r"(value)
      : [base] "r"(base), [offset] "r"(offset), [handle] "r"(handle), [none] "r"(uint64_t{0})
      : "cc");
  return value;
}
// The same slot with the branch.
uintptr_t check_slot16_branch(const char* base, uint64_t offset, uint64_t handle) {
  uint64_t value;
  __asm__ __volatile__("movq (%[base],%[offset]), %[value]"
                       : [value] "=r"(value)
                       : [base] "r"(base), [offset] "r"(offset));
  asm goto("cmpq 8(%[base],%[offset]), %[handle]\n\tjne %l[stale]"
           :
           : [base] "r"(base), [offset] "r"(offset), [handle] "r"(handle), "r"(value)
           : "cc"
           : stale);
  return value;
stale:
  return 0;
}
#else
uintptr_t check_select(const uint64_t* object, const uint64_t* key, uint64_t handle) {
  return *key == handle ? *object : 0;
}
uintptr_t check_branch(const uint64_t* objects, const uint64_t* keys, uint64_t index, uint64_t handle) {
  return check_select(&objects[index], &keys[index], handle);
}
uintptr_t check_slot16(const char* base, uint64_t offset, uint64_t handle) {
  const auto* slot = reinterpret_cast<const uint64_t*>(base + offset);
  return check_select(slot, slot + 1, handle);
}
uintptr_t check_slot16_branch(const char* base, uint64_t offset, uint64_t handle) {
  return check_slot16(base, offset, handle);
}
#endif

void slot_layout_raw(benchmark::State& state) {
  walk(state, [](const SlotLayoutWorld& w, uint32_t i) { return w.raw[i]->object; });
}
void slot_layout_two_arrays(benchmark::State& state) {
  walk(state, [](const SlotLayoutWorld& w, uint32_t i) { return w.pool->load(w.handles[i]); });
}
void slot_layout_two_arrays_branch(benchmark::State& state) {
  walk(state, [](const SlotLayoutWorld& w, uint32_t i) {
    const uint64_t handle = w.handles[i];
    const uint64_t index = handle & w.index_mask;
    return check_branch(w.objects.data(), w.keys.data(), index, handle);
  });
}
void slot_layout_slot16(benchmark::State& state) {
  walk(state, [](const SlotLayoutWorld& w, uint32_t i) {
    const uint64_t handle = w.scaled_handles[i];
    return check_slot16(reinterpret_cast<const char*>(w.slots.data()), handle & w.offset_mask, handle);
  });
}
void slot_layout_slot16_branch(benchmark::State& state) {
  walk(state, [](const SlotLayoutWorld& w, uint32_t i) {
    const uint64_t handle = w.scaled_handles[i];
    return check_slot16_branch(reinterpret_cast<const char*>(w.slots.data()), handle & w.offset_mask, handle);
  });
}

#define WARDEN_SLOT_LAYOUT_BENCHMARK(fn, name)                                                     \
  BENCHMARK(fn)->Name(name)->Arg(1'000)->Arg(10'000)->Repetitions(9)->MinTime(0.05)                \
      ->ReportAggregatesOnly(true)
WARDEN_SLOT_LAYOUT_BENCHMARK(slot_layout_raw, "slot_layout_raw_ns");
WARDEN_SLOT_LAYOUT_BENCHMARK(slot_layout_two_arrays, "slot_layout_two_arrays_ns");
WARDEN_SLOT_LAYOUT_BENCHMARK(slot_layout_two_arrays_branch, "slot_layout_two_arrays_branch_ns");
WARDEN_SLOT_LAYOUT_BENCHMARK(slot_layout_slot16, "slot_layout_slot16_ns");
WARDEN_SLOT_LAYOUT_BENCHMARK(slot_layout_slot16_branch, "slot_layout_slot16_branch_ns");
#undef WARDEN_SLOT_LAYOUT_BENCHMARK

}  // namespace slot_layout
