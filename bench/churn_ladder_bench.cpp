// The registry's create + destroy in its phases (issue 40, item 6): a ladder of churns, each
// rung one buffer made and destroyed per iteration on one thread, each adding one of the
// registry's promises to the rung below it, and the registry itself at the top. The difference
// between two rungs is what that promise costs; the top rung over the one below it is the rest
// of the registry's bookkeeping. Every rung runs a frame boundary every kLadderChurnsPerFrame
// churns, as an application's frames go on while it creates.
//
//   churn_ladder_raw_ns       Dawn's create, destroy, release; raw frames (empty submit, events)
//   churn_ladder_lock_ns      + the registry's lock, taken around the create and the destroy
//                             (RegistryLock, as Registry's facade takes it: twice a churn)
//   churn_ladder_checks_ns    + the description's checks (the size, the usage, the device's
//                             limits: resources::broken_buffer_rule)
//   churn_ladder_capture_ns   + the error capture around Dawn's create (ADR 0043: a creation the
//                             device rejects is an error, not a handle)
//   churn_ladder_record_ns    + the record: a generational slot (core::Pool), the recipe (the
//                             BufferDescription with its label) copied into it, the handle
//   churn_ladder_pending_ns   + the pending release: the destroy queues the buffer until the
//                             submission being recorded retires, and the frame boundary submits
//                             through a QueueClock (a work-done callback a submit) and lets go of
//                             what retired
//   churn_ladder_registry_ns  the Registry's create_buffer + destroy_buffer, submit + poll
//
// Each rung in two arrangements: the churn and its frames on one thread (the keys above), and,
// suffixed _threads_1, the churn on a loading thread while the frame thread runs a frame every
// 0.5 ms (run_on_threads.h), the arrangement of registry_churn[_device]_ns_threads_1 and of
// issue 40's target. In the second a frame's releases meet the loading thread's creations on
// the registry's lock and on Dawn's device lock.
//
// Each key twice: on the Null device (no driver work: the registry's own cost laid bare) and,
// suffixed _device, on the machine's device (WARDEN_BENCH_BACKEND, else the best there is:
// Vulkan on a GPU host). Every device is opened with ImplicitDeviceSynchronization, as the
// threaded churns' are (registry_churn_*_threads_1 in handle_bench.cpp), so the rungs pay Dawn's
// own lock as those do.
//
// The ratio bench_main derives: churn_ladder_registry_vs_raw[_device] (raw over registry: the
// throughput ratio issue 40's target reads, at least 0.8). A rung's own cost is its key less
// the key of the rung below it.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <thread>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "bench_support.h"
#include "run_on_threads.h"
#include "gpu/error_capture.h"
#include "resources/registry_lock.h"
#include "resources/requests.h"
#include "warden/core/handle.h"
#include "warden/core/pool.h"
#include "warden/gpu/context.h"
#include "warden/gpu/queue_clock.h"
#include "warden/resources/registry.h"

namespace {

using namespace warden;

constexpr uint32_t kLadderChurnsPerFrame = 64;
constexpr uint32_t kLadderCapacity = 4096;  // live buffers at most: a frame's worth is 64

// One device, its queue clock and a registry on it, per device kind (Null or the machine's).
struct LadderWorld {
  std::unique_ptr<gpu::Context> context;
  gpu::OpenedDevice gpu;
  WGPULimits limits{};
  std::unique_ptr<resources::Registry> registry;
  std::string error;

  static LadderWorld& get(bool on_machine) {
    // Never destroyed: at exit the library's statics may go first (as in handle_bench.cpp).
    static auto& worlds = *new std::map<bool, std::unique_ptr<LadderWorld>>;
    auto& world = worlds[on_machine];
    if (!world) world = make(on_machine);
    return *world;
  }

 private:
  static std::unique_ptr<LadderWorld> make(bool on_machine) {
    auto made = std::make_unique<LadderWorld>();
    LadderWorld& w = *made;
    auto opened = bench::open_world_device(/*synchronized=*/true, on_machine);
    if (!opened) {
      w.error = opened.error().message;
      return made;
    }
    w.context = std::move(opened->context);
    w.gpu = std::move(opened->gpu);
    w.context->procs().DeviceGetLimits(w.gpu.device.get(), &w.limits);
    resources::RegistryOptions registry_options;
    registry_options.buffer_capacity = kLadderCapacity;
    w.registry = std::make_unique<resources::Registry>(*w.context, w.gpu.device.get(), w.gpu.queue.get(),
                                                       registry_options);
    return made;
  }
};

// `threaded`: the churn runs on a thread other than the frame thread, which a device that takes
// calls on one thread (GL, GLES) does not allow (the threaded churns in handle_bench.cpp skip it
// for the same reason).
LadderWorld* ladder_world_or_skip(benchmark::State& state, bool on_machine, bool threaded) {
  auto& w = LadderWorld::get(on_machine);
  if (!w.error.empty()) {
    state.SkipWithError(w.error.c_str());
    return nullptr;
  }
  const std::string backend = bench::backend_name(w.gpu);
  const WGPUBackendType type = w.gpu.adapter.description.backend;
  if (threaded && (type == WGPUBackendType_OpenGL || type == WGPUBackendType_OpenGLES)) {
    state.SkipWithError(fmt::format("{}: the device takes calls on one thread", backend).c_str());
    return nullptr;
  }
  state.SetLabel(backend);
  return &w;
}

// The rungs, each including every one below it.
enum class Rung { Raw, Lock, Checks, Capture, Record, Pending };

// What a rung keeps between churns: the slots and recipes of the record rung, the pending
// releases and the queue clock of the pending rung.
struct LadderState {
  explicit LadderState(LadderWorld& world)
      : w(world),
        slots(kLadderCapacity, HandleLayout::owner_bits(ResourceKind::Buffer, 1)),
        recipes(kLadderCapacity),
        clock(world.context->procs(), world.context->instance(), world.gpu.queue.get()) {}

  LadderWorld& w;
  resources::RegistryLock lock;
  Pool<WGPUBuffer> slots;
  std::vector<std::optional<resources::BufferDescription>> recipes;
  gpu::QueueClock clock;
  struct Pending {
    WGPUBuffer buffer;
    Serial after;
  };
  std::vector<Pending> pending;
  uint32_t failures = 0;
};

const gpu::Procs& procs_of(const LadderState& s) { return s.w.context->procs(); }

void let_go(const LadderState& s, WGPUBuffer buffer) {
  procs_of(s).BufferDestroy(buffer);
  procs_of(s).BufferRelease(buffer);
}

// One churn at rung R: what create_buffer and destroy_buffer do up to that rung.
// Not inlined: a profile (callgrind) attributes each rung's instructions to its own function.
template <Rung R>
[[gnu::noinline]] void ladder_churn_once(LadderState& s) {
  const gpu::Procs& p = procs_of(s);
  const resources::BufferDescription desc{4, WGPUBufferUsage_CopyDst, false, "churn"};
  WGPUBuffer buffer = nullptr;
  BufferHandle handle;
  {
    std::optional<std::lock_guard<resources::RegistryLock>> held;
    if constexpr (R >= Rung::Lock) held.emplace(s.lock);
    if constexpr (R >= Rung::Checks) {
      if (desc.size == 0 || desc.usage == WGPUBufferUsage_None ||
          resources::broken_buffer_rule(desc, s.w.limits).has_value()) {
        ++s.failures;
        return;
      }
    }
    WGPUBufferDescriptor d{};
    d.label = gpu::string_view(desc.label);
    d.size = desc.size;
    d.usage = desc.usage;
    if constexpr (R >= Rung::Capture) {
      gpu::ErrorCapture capture(s.w.gpu.device.get());
      buffer = p.DeviceCreateBuffer(s.w.gpu.device.get(), &d);
      if (capture.caught()) {
        if (buffer != nullptr) p.BufferRelease(buffer);
        ++s.failures;
        return;
      }
    } else {
      buffer = p.DeviceCreateBuffer(s.w.gpu.device.get(), &d);
    }
    benchmark::DoNotOptimize(buffer);
    if constexpr (R >= Rung::Record) {
      auto slot = s.slots.acquire(buffer);
      if (!slot) {
        let_go(s, buffer);
        ++s.failures;
        return;
      }
      s.recipes[slot->index].emplace(desc);
      handle = BufferHandle::make(slot->index, slot->generation, 1);
      benchmark::DoNotOptimize(handle);
    }
  }
  std::optional<std::lock_guard<resources::RegistryLock>> held;
  if constexpr (R >= Rung::Lock) held.emplace(s.lock);
  if constexpr (R >= Rung::Record) {
    if (!s.slots.contains(handle.bits())) {
      ++s.failures;
      return;
    }
    buffer = s.slots.release(handle.index()).value;
    s.recipes[handle.index()].reset();
  }
  if constexpr (R >= Rung::Pending) {
    s.pending.push_back({buffer, s.clock.clock().recording()});
  } else {
    let_go(s, buffer);
  }
}

// The frame boundary at rung R: raw below the pending rung, the queue clock's from it (what
// Registry::submit and Registry::poll do, less the registry).
template <Rung R>
[[gnu::noinline]] void ladder_frame(LadderState& s) {
  if constexpr (R >= Rung::Pending) {
    std::lock_guard held(s.lock);
    s.clock.submit(nullptr, 0);
    const Serial retired = s.clock.poll();
    size_t done = 0;
    while (done < s.pending.size() && s.pending[done].after <= retired) let_go(s, s.pending[done++].buffer);
    s.pending.erase(s.pending.begin(), s.pending.begin() + static_cast<std::ptrdiff_t>(done));
  } else {
    if constexpr (R >= Rung::Lock) s.lock.lock();
    procs_of(s).QueueSubmit(s.w.gpu.queue.get(), 0, nullptr);
    procs_of(s).InstanceProcessEvents(s.w.context->instance());
    if constexpr (R >= Rung::Lock) s.lock.unlock();
  }
}

// Runs `churn` and `frame` (one churn, one frame boundary) in the arrangement asked for.
constexpr uint32_t kLadderChurnsPerThread = 2048;
template <typename Churn, typename Frame>
void run_ladder(benchmark::State& state, bool threaded, Churn churn, Frame frame) {
  if (threaded) {
    bench::run_on_threads(
        state, 1, kLadderChurnsPerThread,
        [&](uint32_t) {
          for (uint32_t n = 0; n < kLadderChurnsPerThread; ++n) churn();
        },
        frame);
    return;
  }
  uint32_t n = 0;
  for (auto _ : state) {
    churn();
    if (++n % kLadderChurnsPerFrame == 0) frame();
  }
}

template <Rung R, bool on_machine, bool threaded>
void churn_ladder(benchmark::State& state) {
  auto* world = ladder_world_or_skip(state, on_machine, threaded);
  if (world == nullptr) return;
  LadderState s(*world);
  run_ladder(state, threaded, [&] { ladder_churn_once<R>(s); }, [&] { ladder_frame<R>(s); });
  // Untimed: whatever still waits, so the next rung starts from an empty device.
  while (!s.pending.empty()) {
    ladder_frame<R>(s);
    std::this_thread::yield();
  }
  if (s.failures != 0) state.SkipWithError(fmt::format("{} churns failed", s.failures).c_str());
}

template <bool on_machine, bool threaded>
void churn_ladder_registry(benchmark::State& state) {
  auto* world = ladder_world_or_skip(state, on_machine, threaded);
  if (world == nullptr) return;
  resources::Registry& registry = *world->registry;
  std::atomic<uint32_t> failures{0};
  auto frame = [&] {
    (void)registry.submit(nullptr, 0);
    registry.poll();
  };
  run_ladder(
      state, threaded,
      [&] {
        auto h = registry.create_buffer({4, WGPUBufferUsage_CopyDst, false, "churn"});
        benchmark::DoNotOptimize(h);
        if (h.ok()) {
          (void)registry.destroy_buffer(*h);
        } else {
          failures.fetch_add(1, std::memory_order_relaxed);
        }
      },
      frame);
  frame();
  if (failures != 0) state.SkipWithError(fmt::format("{} creations failed", failures.load()).c_str());
}

// Medians of repetitions interleaved with the other rungs' (bench_main reports the median). The
// threaded arrangement runs a fixed count of iterations of kLadderChurnsPerThread churns (manual
// time per churn), as the threaded churns in handle_bench.cpp do.
#define WARDEN_LADDER_RUNG(fn, name) BENCHMARK(fn)->Name(name)->Repetitions(9)->MinTime(0.1)->ReportAggregatesOnly(true)
#define WARDEN_LADDER_RUNG_THREADED(fn, name) \
  BENCHMARK(fn)->Name(name)->UseManualTime()->Iterations(8)->Repetitions(9)->ReportAggregatesOnly(true)
#define WARDEN_LADDER(rung, key)                                                                    \
  WARDEN_LADDER_RUNG((churn_ladder<Rung::rung, false, false>), "churn_ladder_" key "_ns");           \
  WARDEN_LADDER_RUNG((churn_ladder<Rung::rung, true, false>), "churn_ladder_" key "_device_ns");     \
  WARDEN_LADDER_RUNG_THREADED((churn_ladder<Rung::rung, false, true>), "churn_ladder_" key "_ns_threads_1"); \
  WARDEN_LADDER_RUNG_THREADED((churn_ladder<Rung::rung, true, true>), "churn_ladder_" key "_device_ns_threads_1")
WARDEN_LADDER(Raw, "raw");
WARDEN_LADDER(Lock, "lock");
WARDEN_LADDER(Checks, "checks");
WARDEN_LADDER(Capture, "capture");
WARDEN_LADDER(Record, "record");
WARDEN_LADDER(Pending, "pending");
WARDEN_LADDER_RUNG((churn_ladder_registry<false, false>), "churn_ladder_registry_ns");
WARDEN_LADDER_RUNG((churn_ladder_registry<true, false>), "churn_ladder_registry_device_ns");
WARDEN_LADDER_RUNG_THREADED((churn_ladder_registry<false, true>), "churn_ladder_registry_ns_threads_1");
WARDEN_LADDER_RUNG_THREADED((churn_ladder_registry<true, true>), "churn_ladder_registry_device_ns_threads_1");
#undef WARDEN_LADDER
#undef WARDEN_LADDER_RUNG_THREADED
#undef WARDEN_LADDER_RUNG

}  // namespace
