// Host memcpy bandwidth: the ceiling any upload path can reach, measured in the same run.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

namespace {

void BM_memcpy(benchmark::State& state) {
  const size_t bytes = 64u << 20;  // 64 MB: the tile upload benchmark's working set
  std::vector<char> src(bytes, 1), dst(bytes, 0);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), bytes);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.counters["memcpy_gbps"] = benchmark::Counter(
      static_cast<double>(bytes) * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_memcpy)->UseRealTime()->MinTime(0.5);

}  // namespace
