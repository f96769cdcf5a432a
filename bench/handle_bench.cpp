// Handle resolve against the usual alternatives, on the same 100,000 live objects visited in the
// same random order, one lookup per iteration, all in one run:
//   handle_resolve_ns  Registry::resolve(BufferHandle): kind+registry check, generation check
//   raw_pointer_ns     Entry* -> object (no safety at all)
//   unordered_map_ns   std::unordered_map<uint64_t, Entry*> lookup by the handle's bits
//   shared_ptr_ns      std::shared_ptr<Entry> -> object
// The raw pointer, the map and the shared_ptr reach the same heap-allocated Entry objects.
//   raw_pointer_packed_ns  the raw pointer's best case, the Entry objects packed in one array:
//                          reported so the comparison does not rest on the allocation pattern.
// Every variant yields the same WGPUBuffer. Targets (docs/lifecycle-in-detail.md): resolve
// within 1.5x of the raw pointer, at least 5x faster than the map.
//
// What is timed is the lookup and nothing else the variants would not share:
//   - each variant walks its own array of references (handles, Entry*, shared_ptr) already laid
//     out in the random order, front to back. Reaching the reference through a second shuffled
//     index (as an earlier version did) added one random read to every variant, the same in
//     all, which hid the lookups' differences under a common cost;
//   - each variant runs as 9 repetitions interleaved at random with the others' and reports the
//     median, so a burst of load from the rest of the machine lands on every variant alike.
//
// Churn: registry_churn_ns (create_buffer + destroy_buffer through the registry) against
// raw_churn_ns (the same Dawn create + destroy + release without it), on the Null backend.
//
// Curves (issue 14): handle_resolve_ns_<N> and raw_pointer_ns_<N> (the same lookups), and
// registry_churn_ns_<N> / raw_churn_ns_<N>, with N = 1,000, 10,000, 100,000 and 1,000,000
// live objects, each N a world of its own (a registry holding N buffers).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <unordered_map>
#include <vector>

#include "warden/resources/registry.h"
#include "warden/gpu/context.h"

namespace {

using namespace warden;

constexpr uint32_t kLiveHandles = 100'000;  // the unsuffixed keys
constexpr uint32_t kCurveSizes[] = {1'000, 10'000, 100'000, 1'000'000};

struct Entry {
  WGPUBuffer object = nullptr;
};

// One Null-backend device and registry shared by every benchmark in this file.
struct HandleBenchWorld {
  std::unique_ptr<gpu::Context> context;
  gpu::OpenedDevice gpu;
  std::unique_ptr<resources::Registry> registry;
  std::string error;

  // The raw pointer's best case, for the record: the objects packed in one array.
  std::vector<Entry> packed;
  std::unordered_map<uint64_t, Entry*> map;

  // What each variant walks: its references to the same objects in the one random order.
  // The raw pointer, the map and the shared_ptr reach the same heap objects (owned by `shared`),
  // allocated one by one in creation order, as an application's objects are.
  std::vector<BufferHandle> handles;
  std::vector<Entry*> raw;
  std::vector<Entry*> raw_packed;
  std::vector<std::shared_ptr<Entry>> shared;

  uint32_t live = 0;

  // One world per size, made on first use and kept: repetitions of every size interleave.
  static HandleBenchWorld& get(uint32_t live = kLiveHandles) {
    static std::map<uint32_t, std::unique_ptr<HandleBenchWorld>> worlds;
    auto& world = worlds[live];
    if (!world) world = make(live);
    return *world;
  }

 private:
  static std::unique_ptr<HandleBenchWorld> make(uint32_t live) {
    auto made = std::make_unique<HandleBenchWorld>();
    HandleBenchWorld& w = *made;
    w.live = live;
    auto ctx = gpu::Context::create();
    if (!ctx) {
      w.error = ctx.error().message;
      return made;
    }
    w.context = std::move(ctx.value());
    auto opened = w.context->open_device(gpu::BackendChoice::Null);
    if (!opened) {
      w.error = opened.error().message;
      return made;
    }
    w.gpu = std::move(opened.value());
    resources::RegistryOptions options;
    options.buffer_capacity = live + 1024;
    w.registry = std::make_unique<resources::Registry>(*w.context, w.gpu.device.get(), w.gpu.queue.get(), options);
    w.packed.resize(live);  // never grows again: the pointers below stay valid
    std::vector<BufferHandle> handles_by_creation;
    std::vector<std::shared_ptr<Entry>> shared_by_creation;
    for (uint32_t i = 0; i < live; ++i) {
      auto h = w.registry->create_buffer({4, WGPUBufferUsage_CopyDst, false, "bench"});
      if (!h) {
        w.error = h.error().message;
        return made;
      }
      handles_by_creation.push_back(*h);
      const WGPUBuffer object = *w.registry->resolve(*h);
      shared_by_creation.push_back(std::make_shared<Entry>(Entry{object}));
      w.map.emplace(h->bits(), shared_by_creation.back().get());
      w.packed[i].object = object;
    }
    std::vector<uint32_t> order(live);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin(), order.end(), std::mt19937(42));
    for (uint32_t k : order) {
      w.handles.push_back(handles_by_creation[k]);
      w.raw.push_back(shared_by_creation[k].get());
      w.raw_packed.push_back(&w.packed[k]);
      w.shared.push_back(std::move(shared_by_creation[k]));
    }
    return made;
  }
};

// Visits the objects in the shared random order, one lookup per iteration: lookup(w, i) uses
// the variant's i-th reference.
template <typename Lookup>
void run_lookups(benchmark::State& state, Lookup lookup, uint32_t live = kLiveHandles) {
  auto& w = HandleBenchWorld::get(live);
  if (!w.error.empty()) {
    state.SkipWithError(w.error.c_str());
    return;
  }
  uint32_t i = 0;
  // Folding every object into an accumulator forces the lookup's last load to happen (a bare
  // DoNotOptimize of the result let the compiler skip the raw pointer's dereference). The
  // barrier keeps the accumulator in a register without clobbering memory, so loop-invariant
  // loads (vector data pointers, the pool's slot array) may stay hoisted, as in real code.
  uintptr_t folded = 0;
  for (auto _ : state) {
    folded ^= reinterpret_cast<uintptr_t>(lookup(w, i));
    asm volatile("" : "+r"(folded));
    if (++i == w.live) i = 0;
  }
  benchmark::DoNotOptimize(folded);
}

void handle_resolve_ns(benchmark::State& state) {
  run_lookups(state, [](HandleBenchWorld& w, uint32_t i) {
    auto r = w.registry->resolve(w.handles[i]);
    return r.ok() ? *r : nullptr;
  });
}
void raw_pointer_ns(benchmark::State& state) {
  run_lookups(state, [](HandleBenchWorld& w, uint32_t i) { return w.raw[i]->object; });
}
void raw_pointer_packed_ns(benchmark::State& state) {
  run_lookups(state, [](HandleBenchWorld& w, uint32_t i) { return w.raw_packed[i]->object; });
}
void unordered_map_ns(benchmark::State& state) {
  run_lookups(state, [](HandleBenchWorld& w, uint32_t i) {
    auto it = w.map.find(w.handles[i].bits());
    return it != w.map.end() ? it->second->object : nullptr;
  });
}
void shared_ptr_ns(benchmark::State& state) {
  run_lookups(state, [](HandleBenchWorld& w, uint32_t i) { return w.shared[i]->object; });
}
// Medians of interleaved repetitions (bench_main reports a benchmark's median when it has one).
constexpr int kLookupRepetitions = 9;
constexpr double kLookupSecondsPerRepetition = 0.1;
#define WARDEN_LOOKUP_BENCHMARK(fn)                   \
  BENCHMARK(fn)                                       \
      ->Repetitions(kLookupRepetitions)               \
      ->MinTime(kLookupSecondsPerRepetition)          \
      ->ReportAggregatesOnly(true)
WARDEN_LOOKUP_BENCHMARK(handle_resolve_ns);
WARDEN_LOOKUP_BENCHMARK(raw_pointer_ns);
WARDEN_LOOKUP_BENCHMARK(raw_pointer_packed_ns);
WARDEN_LOOKUP_BENCHMARK(unordered_map_ns);
WARDEN_LOOKUP_BENCHMARK(shared_ptr_ns);
#undef WARDEN_LOOKUP_BENCHMARK

void registry_churn(benchmark::State& state, uint32_t live) {
  auto& w = HandleBenchWorld::get(live);
  if (!w.error.empty()) {
    state.SkipWithError(w.error.c_str());
    return;
  }
  for (auto _ : state) {
    auto h = w.registry->create_buffer({4, WGPUBufferUsage_CopyDst, false, "churn"});
    benchmark::DoNotOptimize(h);
    if (h.ok()) (void)w.registry->destroy_buffer(*h);
  }
}
void raw_churn(benchmark::State& state, uint32_t live) {
  auto& w = HandleBenchWorld::get(live);
  if (!w.error.empty()) {
    state.SkipWithError(w.error.c_str());
    return;
  }
  const auto& p = w.context->procs();
  WGPUBufferDescriptor d{};
  d.label = gpu::string_view("churn");
  d.size = 4;
  d.usage = WGPUBufferUsage_CopyDst;
  for (auto _ : state) {
    WGPUBuffer b = p.DeviceCreateBuffer(w.gpu.device.get(), &d);
    benchmark::DoNotOptimize(b);
    p.BufferDestroy(b);
    p.BufferRelease(b);
  }
}
void registry_churn_ns(benchmark::State& state) { registry_churn(state, kLiveHandles); }
void raw_churn_ns(benchmark::State& state) { raw_churn(state, kLiveHandles); }
void registry_churn_curve(benchmark::State& state) { registry_churn(state, static_cast<uint32_t>(state.range(0))); }
void raw_churn_curve(benchmark::State& state) { raw_churn(state, static_cast<uint32_t>(state.range(0))); }
BENCHMARK(registry_churn_ns);
BENCHMARK(raw_churn_ns);

// The curves: resolve and raw pointer at each size, as interleaved medians like the above.
void handle_resolve_curve(benchmark::State& state) {
  run_lookups(state, [](HandleBenchWorld& w, uint32_t i) {
    auto r = w.registry->resolve(w.handles[i]);
    return r.ok() ? *r : nullptr;
  }, static_cast<uint32_t>(state.range(0)));
}
void raw_pointer_curve(benchmark::State& state) {
  run_lookups(state, [](HandleBenchWorld& w, uint32_t i) { return w.raw[i]->object; },
              static_cast<uint32_t>(state.range(0)));
}
void add_sizes(benchmark::internal::Benchmark* b) {
  for (uint32_t n : kCurveSizes) b->Arg(n);
}
BENCHMARK(handle_resolve_curve)->Name("handle_resolve_ns")->Apply(add_sizes)->Repetitions(5)->MinTime(0.05)->ReportAggregatesOnly(true);
BENCHMARK(raw_pointer_curve)->Name("raw_pointer_ns")->Apply(add_sizes)->Repetitions(5)->MinTime(0.05)->ReportAggregatesOnly(true);
BENCHMARK(registry_churn_curve)->Name("registry_churn_ns")->Apply(add_sizes)->MinTime(0.1);
BENCHMARK(raw_churn_curve)->Name("raw_churn_ns")->Apply(add_sizes)->MinTime(0.1);

}  // namespace
