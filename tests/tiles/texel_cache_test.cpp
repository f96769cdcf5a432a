#include "warden/tiles/texel_cache.h"

#include <gtest/gtest.h>

#include <vector>

namespace warden::tiles {
namespace {

std::vector<uint8_t> texels(size_t bytes, uint8_t value) { return std::vector<uint8_t>(bytes, value); }

TEST(TexelCache, KeepsWhatWasPutAndGivesItBack) {
  TexelCache cache(1000);
  ASSERT_TRUE(cache.put({1, 0, 1}, texels(100, 7)));
  auto held = cache.take({1, 0, 1});
  ASSERT_TRUE(held.has_value());
  EXPECT_EQ(held->size(), 100u);
  EXPECT_EQ((*held)[99], 7);
  EXPECT_FALSE(cache.take({1, 1, 1}).has_value());
  EXPECT_EQ(cache.bytes(), 100u);
  EXPECT_EQ(cache.count(), 1u);
}

TEST(TexelCache, EvictsLeastRecentlyUsedToStayWithinBudget) {
  TexelCache cache(300);
  ASSERT_TRUE(cache.put({2, 0, 0}, texels(100, 1)));
  ASSERT_TRUE(cache.put({2, 1, 0}, texels(100, 2)));
  ASSERT_TRUE(cache.put({2, 2, 0}, texels(100, 3)));
  // A use moves 2/0/0 to the back: 2/1/0 is now the least recently used.
  ASSERT_TRUE(cache.touch({2, 0, 0}));
  ASSERT_TRUE(cache.put({2, 3, 0}, texels(100, 4)));
  EXPECT_FALSE(cache.contains({2, 1, 0}));
  EXPECT_TRUE(cache.contains({2, 0, 0}));
  EXPECT_EQ(cache.bytes(), 300u);
  EXPECT_EQ(cache.counts().evictions, 1u);
  // take() is a use too.
  ASSERT_TRUE(cache.take({2, 2, 0}).has_value());
  ASSERT_TRUE(cache.put({2, 0, 1}, texels(200, 5)));  // needs two tiles' room
  EXPECT_EQ(cache.keys_by_use(), (std::vector<TileKey>{{2, 2, 0}, {2, 0, 1}}));
  EXPECT_EQ(cache.bytes(), 300u);
  EXPECT_EQ(cache.counts().evictions, 3u);
}

TEST(TexelCache, ReplacingATileCountsItsBytesOnce) {
  TexelCache cache(250);
  ASSERT_TRUE(cache.put({0, 0, 0}, texels(100, 1)));
  ASSERT_TRUE(cache.put({1, 0, 0}, texels(100, 1)));
  ASSERT_TRUE(cache.put({0, 0, 0}, texels(150, 9)));  // replaces, then needs 150: 1/0/0 goes
  EXPECT_EQ(cache.bytes(), 250u);
  EXPECT_EQ(cache.count(), 2u);
  EXPECT_EQ((*cache.take({0, 0, 0}))[0], 9);
}

TEST(TexelCache, ATileLargerThanTheBudgetIsNotKeptAndEvictsNothing) {
  TexelCache cache(100);
  ASSERT_TRUE(cache.put({0, 0, 0}, texels(60, 1)));
  EXPECT_FALSE(cache.put({1, 0, 0}, texels(101, 1)));
  EXPECT_TRUE(cache.contains({0, 0, 0}));
  EXPECT_EQ(cache.counts().rejected, 1u);
  EXPECT_EQ(cache.bytes(), 60u);
}

TEST(TexelCache, ABudgetOfZeroKeepsNothing) {
  TexelCache cache(0);
  EXPECT_FALSE(cache.put({0, 0, 0}, texels(1, 1)));
  EXPECT_EQ(cache.count(), 0u);
  EXPECT_EQ(cache.bytes(), 0u);
}

TEST(TexelCache, EraseAndClearGiveTheBytesBack) {
  TexelCache cache(1000);
  ASSERT_TRUE(cache.put({3, 1, 1}, texels(100, 1)));
  ASSERT_TRUE(cache.put({3, 1, 2}, texels(200, 1)));
  EXPECT_TRUE(cache.erase({3, 1, 1}));
  EXPECT_FALSE(cache.erase({3, 1, 1}));
  EXPECT_EQ(cache.bytes(), 200u);
  cache.clear();
  EXPECT_EQ(cache.bytes(), 0u);
  EXPECT_EQ(cache.count(), 0u);
  EXPECT_FALSE(cache.touch({3, 1, 2}));
}

}  // namespace
}  // namespace warden::tiles
