#include "warden/core/pool.h"

#include <gtest/gtest.h>

#include <vector>

namespace warden {
namespace {

constexpr uint64_t kOwner = HandleLayout::owner_bits(ResourceKind::Buffer, 1);

TEST(Pool, GenerationsStartAtOneAndBumpOnRelease) {
  Pool<int> pool(4, kOwner);
  auto a = pool.acquire(10);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->generation, 1u);
  ASSERT_TRUE(pool.find(a->index, a->generation));
  EXPECT_EQ(*pool.find(a->index, a->generation), 10);
  EXPECT_EQ(pool.release(a->index).value, 10);
  EXPECT_FALSE(pool.find(a->index, a->generation));
  auto b = pool.acquire(20);  // the freed slot is reused first, under a new generation
  ASSERT_TRUE(b);
  EXPECT_EQ(b->index, a->index);
  EXPECT_EQ(b->generation, 2u);
  EXPECT_FALSE(pool.find(a->index, a->generation));
  EXPECT_EQ(pool.live_count(), 1u);
}

// A registry that reuses an earlier registry's id starts every slot above what that one issued.
TEST(Pool, EverySlotStartsAtTheFirstGenerationAndTheHighestIssuedIsKept) {
  Pool<int> pool(4, kOwner, HandleLayout::kMaxGeneration, /*first_generation=*/100);
  EXPECT_EQ(pool.highest_generation_issued(), 0u);
  auto a = pool.acquire(1);
  auto b = pool.acquire(2);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->generation, 100u);
  EXPECT_EQ(b->generation, 100u);
  pool.release(a->index);
  auto c = pool.acquire(3);
  EXPECT_EQ(c->generation, 101u);
  EXPECT_EQ(pool.highest_generation_issued(), 101u);
  // What an earlier holder of the id issued in these slots does not match.
  for (uint32_t g = 1; g < 100; ++g) {
    EXPECT_FALSE(pool.find(a->index, g));
    EXPECT_FALSE(pool.find(b->index, g));
  }
}

TEST(Pool, FullPoolRefusesUntilASlotIsFreed) {
  Pool<int> pool(2, kOwner);
  auto a = pool.acquire(1);
  ASSERT_TRUE(a);
  ASSERT_TRUE(pool.acquire(2));
  EXPECT_FALSE(pool.acquire(3));
  pool.release(a->index);
  EXPECT_TRUE(pool.acquire(3));
}

TEST(Pool, SlotWhoseGenerationReachesTheLimitIsExhaustedForGood) {
  Pool<int> pool(1, kOwner, /*generation_limit=*/3);
  for (uint32_t g = 1; g <= 3; ++g) {
    auto id = pool.acquire(0);
    ASSERT_TRUE(id);
    EXPECT_EQ(id->generation, g);
    EXPECT_EQ(pool.release(id->index).slot_exhausted, g == 3);
  }
  EXPECT_EQ(pool.exhausted_slots(), 1u);
  EXPECT_FALSE(pool.acquire(0));  // never wraps back to generation 1
  EXPECT_FALSE(pool.find(0, 1));
  EXPECT_FALSE(pool.find(0, 3));
}

TEST(Pool, FindRejectsIndicesNeverHandedOutAndFreeSlots) {
  Pool<int> pool(8, kOwner);
  EXPECT_FALSE(pool.find(0, 1));
  EXPECT_FALSE(pool.find(7, 1));
  auto a = pool.acquire(5);
  pool.release(a->index);
  // A forged handle carrying the next generation must not match a free slot.
  EXPECT_FALSE(pool.find(a->index, 2));
  EXPECT_FALSE(pool.state(a->index).alive);
  EXPECT_EQ(pool.state(a->index).generation, 2u);
  EXPECT_FALSE(pool.state(3).exists);
}

TEST(Pool, IssuedBitsAreTheHandleAndOnlyTheyMatch) {
  Pool<int> pool(4, kOwner);
  auto a = pool.acquire(7);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->bits, BufferHandle::make(a->index, a->generation, 1).bits());
  ASSERT_TRUE(pool.find(a->bits));
  // Same index and generation, another registry or kind: no match.
  EXPECT_FALSE(pool.find(BufferHandle::make(a->index, a->generation, 2).bits()));
  EXPECT_FALSE(pool.find(TextureHandle::make(a->index, a->generation, 1).bits()));
  EXPECT_FALSE(pool.find(uint64_t{0}));  // the null handle
  // A free slot matches no value at all, whatever kind, registry or generation it carries.
  pool.release(a->index);
  for (uint64_t owner : {uint64_t{0}, kOwner}) {
    for (uint32_t g = 0; g < 4; ++g) {
      uint64_t forged = uint64_t{a->index} | owner | uint64_t{g} << 32;
      EXPECT_FALSE(pool.find(forged)) << g;
    }
  }
}

TEST(Pool, FindMatchesOnlySlotsHandedOutWhateverTheIndexField) {
  Pool<int> pool(8, kOwner);
  auto a = pool.acquire(1);
  auto b = pool.acquire(2);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(pool.find(b->bits), pool.find(b->index, b->generation));
  // Indices past the slots handed out, and past the capacity and the index field, find nothing.
  for (uint32_t index : {2u, 7u, 8u, HandleLayout::kMaxSlots - 1}) {
    EXPECT_FALSE(pool.find(index, 1)) << index;
    EXPECT_FALSE(pool.state(index).exists) << index;
  }
  auto c = pool.acquire(3);  // the next slot handed out becomes findable
  ASSERT_TRUE(c);
  EXPECT_EQ(c->index, 2u);
  ASSERT_TRUE(pool.find(c->bits));
  EXPECT_EQ(*pool.find(c->bits), 3);
  EXPECT_EQ(*pool.find(a->bits), 1);
}

TEST(Pool, ForEachLiveVisitsOnlyLiveSlots) {
  Pool<int> pool(4, kOwner);
  auto a = pool.acquire(1);
  pool.acquire(2);
  pool.acquire(3);
  pool.release(a->index);
  int sum = 0;
  pool.for_each_live([&](SlotId, int v) { sum += v; });
  EXPECT_EQ(sum, 5);
}

}  // namespace
}  // namespace warden
