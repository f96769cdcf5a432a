// run_on_threads: the threaded benchmarks' harness (handle_bench.cpp, churn_ladder_bench.cpp).
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <latch>
#include <thread>
#include <type_traits>
#include <vector>

namespace warden::bench {

// Each benchmark iteration starts `threads` threads that begin together and run `work(thread)`,
// `operations` operations each. The iteration's time (manual) is the wall-clock time from the
// first thread's start to the last one's end, per operation of one thread: ns per operation on
// each thread when they all ran side by side, and that times the threads sharing a core where
// there are fewer cores than threads (no thread's own clock would show that if the scheduler ran
// them one after another). The iteration count is fixed: Google Benchmark would size it from the
// per-operation time as if an iteration were one operation.
// `frame`, when given, runs every 0.5 ms on the calling thread (the frame thread) until every
// worker is done, as an application's frames go on while its loading threads work.
template <typename Work, typename Frame = std::nullptr_t>
void run_on_threads(benchmark::State& state, uint32_t threads, uint32_t operations, Work work,
                    Frame frame = nullptr) {
  using Clock = std::chrono::steady_clock;
  std::vector<Clock::time_point> begun(threads), ended(threads);
  for (auto _ : state) {
    // The latch blocks instead of spinning: on a machine with fewer cores than threads, spinning
    // threads would starve the one still starting them.
    std::latch started(threads);
    std::atomic<uint32_t> done{0};
    {
      std::vector<std::jthread> running;
      running.reserve(threads);
      for (uint32_t t = 0; t < threads; ++t) {
        running.emplace_back([&, t] {
          started.arrive_and_wait();
          begun[t] = Clock::now();
          work(t);
          ended[t] = Clock::now();
          done.fetch_add(1, std::memory_order_release);
        });
      }
      if constexpr (!std::is_same_v<Frame, std::nullptr_t>) {
        // Paced like frames (2,000 a second, faster than any display), not a spin that would
        // hold the registry's lock against the workers all the time.
        while (done.load(std::memory_order_acquire) < threads) {
          frame();
          std::this_thread::sleep_for(std::chrono::microseconds(500));
        }
      }
    }  // joined
    const auto wall = *std::max_element(ended.begin(), ended.end()) - *std::min_element(begun.begin(), begun.end());
    state.SetIterationTime(std::chrono::duration<double>(wall).count() / operations);
  }
}

}  // namespace warden::bench
