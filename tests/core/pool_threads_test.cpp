// Pool from several threads: lock-free readers racing the writer (docs/adr/0042). Also run
// under ThreadSanitizer (`make test-tsan`), where the reads are the atomic loads they stand for.
#include "warden/core/pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <thread>
#include <vector>

namespace warden {
namespace {

constexpr uint64_t kRacedOwner = HandleLayout::owner_bits(ResourceKind::Buffer, 1);

// A value is read first and its key second (Pool::load): a reader racing a writer that ends an
// occupant and gives the slot to the next one sees the occupant its handle names or nothing,
// never the next occupant's value. Each value is the bits of the handle of its occupant.
TEST(Pool, ReadersRacingReleaseAndReuseSeeTheirOccupantOrNothing) {
  Pool<uint64_t> pool(4, kRacedOwner);
  std::atomic<bool> done{false};
  std::vector<std::atomic<uint64_t>> published(4);  // the latest handle of each slot, for readers
  std::atomic<uint64_t> wrong{0};
  std::atomic<uint64_t> matched{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 3; ++r) {
    readers.emplace_back([&, r] {
      std::mt19937 rng(static_cast<uint32_t>(r));
      while (!done.load(std::memory_order_relaxed)) {
        const uint64_t bits = published[rng() % 4].load(std::memory_order_acquire);
        if (bits == 0) continue;
        const uint64_t seen = pool.load(bits);
        if (seen != 0 && seen != bits) wrong.fetch_add(1);
        if (seen == bits) matched.fetch_add(1, std::memory_order_relaxed);
      }
    });
  }
  std::vector<SlotId> live;
  std::mt19937 rng(7);
  for (int step = 0; step < 200'000; ++step) {
    if (live.size() < 4 && (live.empty() || rng() % 2 == 0)) {
      // The value is stored before the handle exists: pass the slot's next handle as the value.
      auto id = pool.acquire(0);
      ASSERT_TRUE(id);
      ASSERT_EQ(pool.exchange(id->bits, id->bits), 0u);
      published[id->index].store(id->bits, std::memory_order_release);
      live.push_back(*id);
    } else {
      const size_t k = rng() % live.size();
      EXPECT_EQ(pool.release(live[k].index).value, live[k].bits);
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
    }
  }
  done = true;
  for (auto& t : readers) t.join();
  EXPECT_EQ(wrong.load(), 0u);
  EXPECT_GT(matched.load(), 0u);  // the readers did meet live occupants
}

}  // namespace
}  // namespace warden
