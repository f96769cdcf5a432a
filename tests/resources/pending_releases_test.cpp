// detail::PendingReleases (src/resources/pending_releases.h): oldest serial first whatever the
// order entries arrive in, and a queue that never empties keeps its entries through the
// compactions that take back its spent space.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <random>

#include "resources/pending_releases.h"

namespace warden::resources::detail {
namespace {

PendingRelease entry(uint64_t after, uint32_t index) {
  PendingRelease p;
  p.release_after = Serial{after};
  p.index = index;
  return p;
}

TEST(PendingReleases, AnOlderSerialGoesInItsPlaceAndEqualSerialsKeepTheirOrder) {
  PendingReleases queue;
  queue.push(entry(5, 0));
  queue.push(entry(7, 1));
  queue.push(entry(3, 2));  // a borrowed object's own last use, older than what is queued
  queue.push(entry(5, 3));  // equal to the first: after it
  ASSERT_EQ(queue.size(), 4u);
  const uint32_t expected[] = {2, 0, 3, 1};
  for (uint32_t index : expected) {
    ASSERT_FALSE(queue.empty());
    EXPECT_EQ(queue.take_front().index, index);
  }
  EXPECT_TRUE(queue.empty());
}

TEST(PendingReleases, AQueueThatNeverEmptiesAgreesWithADequeThroughEveryCompaction) {
  PendingReleases queue;
  std::deque<PendingRelease> model;  // what the queue replaced, as the reference
  std::mt19937 random(7);
  uint64_t serial = 1;
  uint32_t next_index = 0;
  for (int step = 0; step < 20'000; ++step) {
    // A backlog of 5-40 entries: pushes and takes interleave, the front never catches up.
    if (model.size() < 5 || (model.size() < 40 && random() % 2 == 0)) {
      const uint64_t after = random() % 8 == 0 && serial > 3 ? serial - 3 : serial++;
      queue.push(entry(after, next_index));
      PendingRelease copy = entry(after, next_index++);
      auto at = model.end();
      while (at != model.begin() && (at - 1)->release_after > copy.release_after) --at;
      model.insert(at, std::move(copy));
    } else {
      ASSERT_EQ(queue.front().index, model.front().index) << "step " << step;
      EXPECT_EQ(queue.take_front().index, model.front().index);
      model.pop_front();
    }
    ASSERT_EQ(queue.size(), model.size());
  }
}

}  // namespace
}  // namespace warden::resources::detail
