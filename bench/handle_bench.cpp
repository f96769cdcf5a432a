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
// raw_churn_ns (the same Dawn create + destroy + release without it), on the Null backend. The
// registry's destroy lets go of the buffer at a later frame boundary (submit + poll, which the
// churning thread runs every 64 churns as the frame thread), as in an application: the release
// is counted there.
//
// Curves (issue 14): handle_resolve_ns_<N> and raw_pointer_ns_<N> (the same lookups), and
// registry_churn_ns_<N> / raw_churn_ns_<N>, with N = 1,000, 10,000, 100,000 and 1,000,000
// live objects, each N a world of its own (a registry holding N buffers).
//
// Threads (issue 24), with T = 1, 2, 4 and 8 threads running at once, the same work on each:
//   handle_resolve_ns_threads_<T>  resolve over the 100,000-buffer world above, each thread
//                                  walking the random order from its own offset;
//   raw_pointer_ns_threads_<T>     the same walk through raw pointers (the host's own scaling);
//   registry_churn_ns_threads_<T>  create + destroy through the registry, on every thread, while
//                                  the frame thread (the benchmark's own) runs frame boundaries
//                                  (submit + poll: the releases happen there, as in an
//                                  application whose loading threads work during its frames);
//   raw_churn_ns_threads_<T>       the same with raw Dawn calls, the frame thread running the
//                                  same boundaries with raw calls (raw_frame_boundary).
//   registry_churn_device_ns_threads_<T>, raw_churn_device_ns_threads_<T>
//                                  the same two churns on the machine's own device (the backend
//                                  WARDEN_BENCH_BACKEND names, else the best there is: Vulkan on
//                                  a GPU host), where Dawn's create and destroy do a driver's
//                                  work: what an application streaming assets pays. The Null
//                                  device above does none, which lays the registry's own cost bare.
//                                  Skipped on GL and GLES (churn_world_or_skip says why).
// A key is the wall-clock time from the first thread's start to the last one's end, per
// operation of one thread: it stays flat as T grows while the threads share nothing and have a
// core each, and T / key is the throughput of all of them together. The churns run on a Null
// device of their own, requested with WGPUFeatureName_ImplicitDeviceSynchronization (Dawn takes
// calls from several threads only then; its lock costs the single thread too, so T = 1 is
// measured on that device as well rather than taken from raw_churn_ns).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <latch>
#include <map>
#include <string>
#include <tuple>
#include <memory>
#include <numeric>
#include <random>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "bench_support.h"
#include "run_on_threads.h"
#include "warden/resources/registry.h"
#include "warden/gpu/context.h"

namespace {

using namespace warden;
using bench::run_on_threads;

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
  std::atomic<uint32_t> churn_failures{0};  // creations registry_churn_once saw fail

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
  std::string backend;  // the device's backend, as the results name it

  // One world per size and device, made on first use and kept: repetitions of every size
  // interleave. `synchronized`: the device takes Dawn calls from several threads. `on_machine`:
  // the machine's own device (bench::requested_backend) rather than Null.
  static HandleBenchWorld& get(uint32_t live = kLiveHandles, bool synchronized = false, bool on_machine = false) {
    // Never destroyed: at exit the library's own statics may go first, and a registry ending
    // after them would call into what is gone. The process ends right after the benchmarks.
    static auto& worlds = *new std::map<std::tuple<uint32_t, bool, bool>, std::unique_ptr<HandleBenchWorld>>;
    auto& world = worlds[{live, synchronized, on_machine}];
    if (!world) world = make(live, synchronized, on_machine);
    return *world;
  }

 private:
  static std::unique_ptr<HandleBenchWorld> make(uint32_t live, bool synchronized, bool on_machine) {
    auto made = std::make_unique<HandleBenchWorld>();
    HandleBenchWorld& w = *made;
    w.live = live;
    auto opened = bench::open_world_device(synchronized, on_machine);
    if (!opened) {
      w.error = opened.error().message;
      return made;
    }
    w.context = std::move(opened->context);
    w.gpu = std::move(opened->gpu);
    w.backend = bench::backend_name(w.gpu);
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

// The world for `live` objects, or null after telling Google Benchmark why there is none.
HandleBenchWorld* world_or_skip(benchmark::State& state, uint32_t live = kLiveHandles, bool synchronized = false,
                                bool on_machine = false) {
  auto& w = HandleBenchWorld::get(live, synchronized, on_machine);
  if (w.error.empty()) return &w;
  state.SkipWithError(w.error.c_str());
  return nullptr;
}

// Visits the objects in the shared random order, one lookup per iteration: lookup(w, i) uses
// the variant's i-th reference.
template <typename Lookup>
void run_lookups(benchmark::State& state, Lookup lookup, uint32_t live = kLiveHandles) {
  auto* world = world_or_skip(state, live);
  if (world == nullptr) return;
  auto& w = *world;
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

// One create + destroy of a buffer, through the registry or with raw Dawn calls.
void registry_churn_once(HandleBenchWorld& w) {
  auto h = w.registry->create_buffer({4, WGPUBufferUsage_CopyDst, false, "churn"});
  benchmark::DoNotOptimize(h);
  if (h.ok()) {
    (void)w.registry->destroy_buffer(*h);
  } else {
    w.churn_failures.fetch_add(1, std::memory_order_relaxed);
  }
}
// A churn whose creations failed measured the failure path: the benchmark says so instead.
void skip_if_churn_failed(benchmark::State& state, HandleBenchWorld& w) {
  if (const uint32_t failed = w.churn_failures.exchange(0); failed != 0) {
    state.SkipWithError(fmt::format("{} creations failed in the churn", failed).c_str());
  }
}
// The frame thread's boundary an application runs every frame: an (empty) submission, then a
// poll, which lets go of what was destroyed once the submission it waited for retired. Without
// it a destroyed buffer would wait for ever, and the churn would measure the heap growing.
void frame_boundary(HandleBenchWorld& w) {
  (void)w.registry->submit(nullptr, 0);
  w.registry->poll();
}
// The same frame boundary with raw Dawn calls: the application's frames go on beside the raw
// churn too. A real device frees what was destroyed when its queue moves on (Dawn's Tick, in
// the submission and the event processing), so without frames the raw churn would leave that
// work undone while the registry's frames paid for it.
void raw_frame_boundary(HandleBenchWorld& w) {
  const auto& p = w.context->procs();
  p.QueueSubmit(w.gpu.queue.get(), 0, nullptr);
  p.InstanceProcessEvents(w.context->instance());
}
// One frame boundary every this many churns on the thread that churns alone (the frame thread).
constexpr uint32_t kChurnsPerFrame = 64;
WGPUBufferDescriptor raw_churn_descriptor() {
  WGPUBufferDescriptor d{};
  d.label = gpu::string_view("churn");
  d.size = 4;
  d.usage = WGPUBufferUsage_CopyDst;
  return d;
}
void raw_churn_once(HandleBenchWorld& w, const WGPUBufferDescriptor& d) {
  const auto& p = w.context->procs();
  WGPUBuffer b = p.DeviceCreateBuffer(w.gpu.device.get(), &d);
  benchmark::DoNotOptimize(b);
  p.BufferDestroy(b);
  p.BufferRelease(b);
}

void registry_churn(benchmark::State& state, uint32_t live) {
  auto* world = world_or_skip(state, live);
  if (world == nullptr) return;
  auto& w = *world;
  uint32_t n = 0;
  for (auto _ : state) {
    registry_churn_once(w);
    if (++n % kChurnsPerFrame == 0) frame_boundary(w);
  }
  skip_if_churn_failed(state, w);
}
void raw_churn(benchmark::State& state, uint32_t live) {
  auto* world = world_or_skip(state, live);
  if (world == nullptr) return;
  auto& w = *world;
  const WGPUBufferDescriptor d = raw_churn_descriptor();
  for (auto _ : state) raw_churn_once(w, d);
}
void registry_churn_ns(benchmark::State& state) { registry_churn(state, kLiveHandles); }
void raw_churn_ns(benchmark::State& state) { raw_churn(state, kLiveHandles); }
void registry_churn_curve(benchmark::State& state) { registry_churn(state, static_cast<uint32_t>(state.range(0))); }
void raw_churn_curve(benchmark::State& state) { raw_churn(state, static_cast<uint32_t>(state.range(0))); }
BENCHMARK(registry_churn_ns);
BENCHMARK(raw_churn_ns);

// The churn in its phases, to see where a host spends a registry churn's time: each iteration
// makes kPhaseBatch buffers, destroys them, then runs the frame boundary that lets them go, and
// reports the time of one phase per object (manual time; the other phases run untimed). A fixed
// iteration count: Google Benchmark would size it from the per-object time as if an iteration
// were one object.
//   registry_create_ns   create_buffer
//   registry_destroy_ns  destroy_buffer (the buffer waits for the submission being recorded)
//   registry_release_ns  the frame boundary (submit + poll) that releases them, per buffer
//   raw_create_ns        Dawn's create, raw_release_ns Dawn's destroy + release
constexpr uint32_t kPhaseBatch = 1024;
enum class ChurnPhase { Create, Destroy, Release };
template <ChurnPhase timed>
void registry_churn_phase(benchmark::State& state) {
  auto* world = world_or_skip(state);
  if (world == nullptr) return;
  auto& w = *world;
  using Clock = std::chrono::steady_clock;
  std::vector<BufferHandle> made;
  made.reserve(kPhaseBatch);
  for (auto _ : state) {
    const auto t0 = Clock::now();
    for (uint32_t n = 0; n < kPhaseBatch; ++n) {
      auto h = w.registry->create_buffer({4, WGPUBufferUsage_CopyDst, false, "churn"});
      if (h.ok()) made.push_back(*h);
    }
    const auto t1 = Clock::now();
    for (BufferHandle h : made) (void)w.registry->destroy_buffer(h);
    made.clear();
    const auto t2 = Clock::now();
    frame_boundary(w);
    const auto t3 = Clock::now();
    const auto spent = timed == ChurnPhase::Create ? t1 - t0 : timed == ChurnPhase::Destroy ? t2 - t1 : t3 - t2;
    state.SetIterationTime(std::chrono::duration<double>(spent).count() / kPhaseBatch);
  }
}
template <bool create_timed>
void raw_churn_phase(benchmark::State& state) {
  auto* world = world_or_skip(state);
  if (world == nullptr) return;
  auto& w = *world;
  using Clock = std::chrono::steady_clock;
  const auto& p = w.context->procs();
  const WGPUBufferDescriptor d = raw_churn_descriptor();
  std::vector<WGPUBuffer> made(kPhaseBatch);
  for (auto _ : state) {
    const auto t0 = Clock::now();
    for (WGPUBuffer& b : made) b = p.DeviceCreateBuffer(w.gpu.device.get(), &d);
    const auto t1 = Clock::now();
    for (WGPUBuffer b : made) {
      p.BufferDestroy(b);
      p.BufferRelease(b);
    }
    const auto t2 = Clock::now();
    state.SetIterationTime(std::chrono::duration<double>(create_timed ? t1 - t0 : t2 - t1).count() / kPhaseBatch);
  }
}
BENCHMARK(registry_churn_phase<ChurnPhase::Create>)->Name("registry_create_ns")->UseManualTime()->Iterations(200);
BENCHMARK(registry_churn_phase<ChurnPhase::Destroy>)->Name("registry_destroy_ns")->UseManualTime()->Iterations(200);
BENCHMARK(registry_churn_phase<ChurnPhase::Release>)->Name("registry_release_ns")->UseManualTime()->Iterations(200);
BENCHMARK(raw_churn_phase<true>)->Name("raw_create_ns")->UseManualTime()->Iterations(200);
BENCHMARK(raw_churn_phase<false>)->Name("raw_release_ns")->UseManualTime()->Iterations(200);

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

// ---- threads ----------------------------------------------------------------------------------

constexpr uint32_t kResolvesPerThread = 1u << 20;
constexpr uint32_t kChurnsPerThread = 2048;

// run_lookups from `threads` threads at once over the 100,000-object world: each thread walks
// its own stretch of the random order, so no two read the same slot together.
template <typename Lookup>
void run_lookups_on_threads(benchmark::State& state, Lookup lookup) {
  const auto threads = static_cast<uint32_t>(state.range(0));
  auto* world = world_or_skip(state);
  if (world == nullptr) return;
  auto& w = *world;
  run_on_threads(state, threads, kResolvesPerThread, [&](uint32_t thread) {
    uint32_t i = static_cast<uint32_t>(uint64_t{w.live} * thread / threads);
    uintptr_t folded = 0;  // as run_lookups: the lookup's last load must happen
    for (uint32_t n = 0; n < kResolvesPerThread; ++n) {
      folded ^= reinterpret_cast<uintptr_t>(lookup(w, i));
      asm volatile("" : "+r"(folded));
      if (++i == w.live) i = 0;
    }
    benchmark::DoNotOptimize(folded);
  });
}
void handle_resolve_threads(benchmark::State& state) {
  run_lookups_on_threads(state, [](HandleBenchWorld& w, uint32_t i) {
    auto r = w.registry->resolve(w.handles[i]);
    return r.ok() ? *r : nullptr;
  });
}
// The same walk through raw pointers: what the host's memory system does to N threads reading
// at once, with no registry in the way (the baseline resolve_threads_8_over_1 is read against).
void raw_pointer_threads(benchmark::State& state) {
  run_lookups_on_threads(state, [](HandleBenchWorld& w, uint32_t i) { return w.raw[i]->object; });
}
// The threaded churns' world: the Null device's, or (`on_machine`) the machine's own. Not on a
// device that takes calls on one thread (GL, GLES): there the registry carries a loading
// thread's creation to the frame thread's next poll (docs/threads.md), and a buffer destroyed
// before that is never made, so the two churns would not do the same work.
HandleBenchWorld* churn_world_or_skip(benchmark::State& state, bool on_machine) {
  auto* world = world_or_skip(state, kLiveHandles, /*synchronized=*/true, on_machine);
  if (world == nullptr || !on_machine) return world;
  const WGPUBackendType backend = world->gpu.adapter.description.backend;
  if (backend == WGPUBackendType_OpenGL || backend == WGPUBackendType_OpenGLES) {
    state.SkipWithError(fmt::format("{}: the device takes calls on one thread, so the registry makes a loading "
                                    "thread's buffers on the frame thread and the churns are not alike",
                                    world->backend)
                            .c_str());
    return nullptr;
  }
  state.SetLabel(world->backend);
  return world;
}

// The churns from threads, on the Null device or (`on_machine`) the machine's own.
template <bool on_machine>
void registry_churn_threads(benchmark::State& state) {
  const auto threads = static_cast<uint32_t>(state.range(0));
  auto* world = churn_world_or_skip(state, on_machine);
  if (world == nullptr) return;
  auto& w = *world;
  run_on_threads(
      state, threads, kChurnsPerThread,
      [&](uint32_t) {
        for (uint32_t n = 0; n < kChurnsPerThread; ++n) registry_churn_once(w);
      },
      [&] { frame_boundary(w); });
  frame_boundary(w);  // what the last frames left waiting
  skip_if_churn_failed(state, w);
}
template <bool on_machine>
void raw_churn_threads(benchmark::State& state) {
  const auto threads = static_cast<uint32_t>(state.range(0));
  auto* world = churn_world_or_skip(state, on_machine);
  if (world == nullptr) return;
  auto& w = *world;
  const WGPUBufferDescriptor d = raw_churn_descriptor();
  run_on_threads(
      state, threads, kChurnsPerThread,
      [&](uint32_t) {
        for (uint32_t n = 0; n < kChurnsPerThread; ++n) raw_churn_once(w, d);
      },
      [&] { raw_frame_boundary(w); });
}
// Named per thread count ("handle_resolve_ns_threads_8"), the key bench_main reads off the name.
void add_thread_counts(benchmark::internal::Benchmark* b) {
  for (int threads : {1, 2, 4, 8}) b->Arg(threads);
}
BENCHMARK(handle_resolve_threads)->Name("handle_resolve_ns_threads")->Apply(add_thread_counts)->UseManualTime()
    ->Iterations(16)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(raw_pointer_threads)->Name("raw_pointer_ns_threads")->Apply(add_thread_counts)->UseManualTime()
    ->Iterations(16)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(registry_churn_threads<false>)->Name("registry_churn_ns_threads")->Apply(add_thread_counts)->UseManualTime()
    ->Iterations(6)->Repetitions(3)->ReportAggregatesOnly(true);
BENCHMARK(raw_churn_threads<false>)->Name("raw_churn_ns_threads")->Apply(add_thread_counts)->UseManualTime()
    ->Iterations(6)->Repetitions(3)->ReportAggregatesOnly(true);
BENCHMARK(registry_churn_threads<true>)->Name("registry_churn_device_ns_threads")->Apply(add_thread_counts)
    ->UseManualTime()->Iterations(6)->Repetitions(3)->ReportAggregatesOnly(true);
BENCHMARK(raw_churn_threads<true>)->Name("raw_churn_device_ns_threads")->Apply(add_thread_counts)->UseManualTime()
    ->Iterations(6)->Repetitions(3)->ReportAggregatesOnly(true);

}  // namespace
