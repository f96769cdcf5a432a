// TileCache load + eviction with many pinned tiles (issue 16). One operation loads a tile into
// a full budget, which evicts the one unpinned resident tile; every other resident tile is
// pinned. Pinned tiles live outside the LRU list, so the cost must not grow with their number.
// Keys: tile_cache_load_evict_ns_<pinned> (ns per operation).
#include <benchmark/benchmark.h>

#include "warden/tiles/tile_cache.h"

namespace {

using warden::SubmissionClock;
using warden::tiles::LayerIndex;
using warden::tiles::LayerPool;
using warden::tiles::TileCache;
using warden::tiles::TileKey;

void tile_cache_load_evict_ns(benchmark::State& state) {
  const uint32_t pinned = static_cast<uint32_t>(state.range(0));
  constexpr uint64_t kLayer = 1;
  SubmissionClock clock;
  LayerPool pool(pinned + 2, clock, 0);
  auto made = TileCache::create(pool, (pinned + 1) * kLayer, kLayer);
  if (!made) {
    state.SkipWithError(made.error().message.c_str());
    return;
  }
  TileCache& cache = *made;
  const TileCache::Fill fill = [](const TileKey&, LayerIndex) -> warden::Result<void> { return {}; };
  // Pinned first: in an LRU list they would sit at the back, where the eviction scan starts.
  for (uint32_t i = 0; i < pinned; ++i) {
    (void)cache.load({16, i, 0}, fill);
    (void)cache.pin({16, i, 0});
  }
  uint32_t next = 0;
  for (auto _ : state) {
    auto status = cache.load({20, next++ % (1u << 20), 1}, fill);
    if (!status || *status != warden::tiles::LoadStatus::Loaded) {
      state.SkipWithError("load did not load");
      break;
    }
  }
}

}  // namespace

BENCHMARK(tile_cache_load_evict_ns)->Arg(1)->Arg(4096);
