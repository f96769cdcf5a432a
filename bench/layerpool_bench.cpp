// LayerPool against the reference pool of tests/harness/ (scan the free list from the back,
// splice: docs/design.md, tiles rule T5), same operations, same run. One operation = acquire + touch + release of a layer,
// then one submission; retirement lags `layers / 2` submissions behind, so half of the pool is
// released-but-in-flight at every acquire (the case the reference's scan walks through).
// Keys: layerpool_ns_<layers>, layerpool_reference_ns_<layers> (ns per operation), layers =
// 64, 256, 1024, 4096, 16384, 65536.
#include <benchmark/benchmark.h>

#include "harness/reference_layer_pool.h"
#include "warden/tiles/layer_pool.h"

namespace {

using warden::Serial;
using warden::SubmissionClock;
using warden::tiles::LayerPool;
using warden::tiles::ReferenceLayerPool;

struct Warden {
  LayerPool pool;
  Warden(uint32_t n, const SubmissionClock& c) : pool(n, c, 0) {}
  std::optional<uint32_t> acquire() { return pool.acquire(); }
  void touch(uint32_t l) { (void)pool.touch(l); }
  void release(uint32_t l) { (void)pool.release(l); }
};
struct Reference {
  ReferenceLayerPool pool;
  Reference(uint32_t n, const SubmissionClock& c) : pool(n, c) {}
  std::optional<uint32_t> acquire() { return pool.acquire(); }
  void touch(uint32_t l) { pool.touch(l); }
  void release(uint32_t l) { pool.release(l); }
};

template <typename Pool>
bool one_operation(Pool& pool, SubmissionClock& clock, uint64_t lag) {
  auto layer = pool.acquire();
  if (!layer) return false;
  pool.touch(*layer);
  pool.release(*layer);
  Serial submitted = clock.on_submitted();
  if (submitted.value > lag) clock.retire_through(Serial{submitted.value - lag});
  return true;
}

template <typename Pool>
void run(benchmark::State& state) {
  const uint32_t layers = static_cast<uint32_t>(state.range(0));
  const uint64_t lag = layers / 2;
  SubmissionClock clock;
  Pool pool(layers, clock);
  // Reach the steady state (half the layers in flight) before timing.
  for (uint64_t i = 0; i < 2 * uint64_t{layers}; ++i) one_operation(pool, clock, lag);
  for (auto _ : state) {
    if (!one_operation(pool, clock, lag)) {
      state.SkipWithError("acquire found no layer");
      break;
    }
  }
}

void layerpool_ns(benchmark::State& state) { run<Warden>(state); }
void layerpool_reference_ns(benchmark::State& state) { run<Reference>(state); }

}  // namespace

// The curve (issue 14): 64 ... 65,536 layers, both pools; the reference's scan makes its
// largest points slow, so they run for less time.
BENCHMARK(layerpool_ns)->RangeMultiplier(4)->Range(64, 65536)->MinTime(0.1);
BENCHMARK(layerpool_reference_ns)->RangeMultiplier(4)->Range(64, 65536)->MinTime(0.1);
