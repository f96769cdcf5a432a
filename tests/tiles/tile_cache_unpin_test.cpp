// Pinning and the LRU order: a pin and an unpin with no use between them change nothing about
// which tile a load evicts. An unpinned tile goes back where its last use puts it, not to the
// front of the list (tile_cache.h, docs/adr/0008).
#include <gtest/gtest.h>

#include <optional>

#include "warden/tiles/tile_cache.h"
#include "tiles/tile_cache_fill.h"

namespace warden::tiles {
namespace {

using test::fill_ok;
using test::kLayer;

constexpr TileKey kA{1, 0, 0}, kB{1, 1, 0}, kC{1, 0, 1}, kD{1, 1, 1};

class TileCacheUnpin : public ::testing::Test {
 protected:
  // A pool of `layers` layers without a reserve, and a cache with a budget of `budget` tiles.
  void make(uint32_t layers, uint64_t budget) {
    pool.emplace(layers, clock, 0);
    auto made = TileCache::create(*pool, budget * kLayer, kLayer);
    ASSERT_TRUE(made);
    cache.emplace(std::move(*made));
  }
  // A budget of 2 with layers to spare; A loaded, then B: A is the least recently used.
  void a_then_b() {
    make(4, 2);
    ASSERT_EQ(*cache->load(kA, fill_ok()), LoadStatus::Loaded);
    ASSERT_EQ(*cache->load(kB, fill_ok()), LoadStatus::Loaded);
  }
  SubmissionClock clock;
  std::optional<LayerPool> pool;
  std::optional<TileCache> cache;  // after the pool: destroyed first
};

// The minimal case, without begin_frame (plain LRU): budget of 2; load A, load B, pin A,
// unpin A, load C. A is the least recently used and goes; B stays.
TEST_F(TileCacheUnpin, UnpinnedTileKeepsItsPlaceInTheLruOrder) {
  ASSERT_NO_FATAL_FAILURE(a_then_b());
  ASSERT_TRUE(cache->pin(kA));
  ASSERT_TRUE(cache->pin(kA, false));
  ASSERT_EQ(*cache->load(kC, fill_ok()), LoadStatus::Loaded);
  EXPECT_FALSE(cache->is_resident(kA)) << "the pin and unpin made A the most recently used";
  EXPECT_TRUE(cache->is_resident(kB));
  EXPECT_TRUE(cache->is_resident(kC));
}

// What that cost: the victim after the unpin was B, whose layer a frame in flight still reads,
// so the load was Deferred; A's layer had retired, and evicting A loads the tile now.
TEST_F(TileCacheUnpin, UnpinDoesNotTurnALoadableTileIntoADeferredOne) {
  ASSERT_NO_FATAL_FAILURE(make(2, 2));  // no spare layer: a load reuses its victim's layer or waits
  ASSERT_EQ(*cache->load(kA, fill_ok()), LoadStatus::Loaded);
  ASSERT_TRUE(cache->draw_source(kA));
  clock.on_submitted();
  clock.retire_through(clock.last_submitted());  // A's reader is done
  ASSERT_EQ(*cache->load(kB, fill_ok()), LoadStatus::Loaded);
  ASSERT_TRUE(cache->draw_source(kB));
  clock.on_submitted();  // B's reader is still in flight

  ASSERT_TRUE(cache->pin(kA));
  ASSERT_TRUE(cache->pin(kA, false));
  auto loaded = cache->load(kC, fill_ok());
  ASSERT_TRUE(loaded);
  EXPECT_EQ(*loaded, LoadStatus::Loaded) << to_string(*loaded);
  EXPECT_FALSE(cache->is_resident(kA));
  EXPECT_TRUE(cache->is_resident(kB));
  EXPECT_TRUE(cache->is_resident(kC));
}

// A use while pinned counts: the tile comes back as recently used as that use makes it.
TEST_F(TileCacheUnpin, UseWhilePinnedCountsWhenUnpinned) {
  ASSERT_NO_FATAL_FAILURE(a_then_b());
  ASSERT_TRUE(cache->pin(kA));
  ASSERT_TRUE(cache->draw_source(kA));
  ASSERT_TRUE(cache->pin(kA, false));
  ASSERT_EQ(*cache->load(kC, fill_ok()), LoadStatus::Loaded);
  EXPECT_TRUE(cache->is_resident(kA));
  EXPECT_FALSE(cache->is_resident(kB)) << "B was used before A's draw";
}

// The same holds among a frame's protected tiles: they become evictable at the next
// begin_frame in the order of their last use, and a pin and unpin in between does not move one.
TEST_F(TileCacheUnpin, UnpinnedVisibleTileKeepsItsPlaceAmongTheProtected) {
  ASSERT_NO_FATAL_FAILURE(make(8, 3));
  const TileKey visible[] = {kA, kB};
  ASSERT_TRUE(cache->begin_frame({visible}));
  ASSERT_EQ(*cache->load(kA, fill_ok()), LoadStatus::Loaded);
  ASSERT_EQ(*cache->load(kB, fill_ok()), LoadStatus::Loaded);
  ASSERT_EQ(*cache->load(kC, fill_ok()), LoadStatus::Loaded);  // not visible: evictable
  ASSERT_TRUE(cache->pin(kA));
  ASSERT_TRUE(cache->pin(kA, false));
  EXPECT_EQ(cache->protected_count(), 2u) << "an unpinned visible tile is protected again";

  ASSERT_TRUE(cache->begin_frame({}));
  ASSERT_EQ(*cache->load(kD, fill_ok()), LoadStatus::Loaded);
  EXPECT_FALSE(cache->is_resident(kC)) << "not visible last frame: the least recently used";
  ASSERT_EQ(*cache->load({2, 0, 0}, fill_ok()), LoadStatus::Loaded);
  EXPECT_FALSE(cache->is_resident(kA)) << "A was loaded before B, and the pin did not change that";
  EXPECT_TRUE(cache->is_resident(kB));
}

}  // namespace
}  // namespace warden::tiles
