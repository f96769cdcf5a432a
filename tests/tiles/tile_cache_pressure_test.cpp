// The TileCache under pressure (issue 16): the defects found by driving it from outside, each
// reproduced exactly, and the rules that replace them.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "warden/tiles/sizing.h"
#include "warden/tiles/tile_cache.h"
#include "tiles/tile_cache_fill.h"
#include "support/messages.h"

namespace warden::tiles {
namespace {

using test::fill_ok;
using test::kLayer;

using warden::testing::FailsWith;

// The example: pool of 3 layers, reserve 0, budget of 3 tiles. The three tiles are
// drawn (their layers are read by the frame being recorded), one is evicted, and a new load
// finds no free layer. Nothing the budget did not require may go: Deferred, 2 resident, twice.
TEST(TileCachePressure, DeferredLoadEvictsNothingTheBudgetDidNotRequire) {
  SubmissionClock clock;
  LayerPool pool(3, clock, 0);
  auto cache = TileCache::create(pool, 3 * kLayer, kLayer);
  ASSERT_TRUE(cache);
  for (TileKey k : {TileKey{1, 0, 0}, TileKey{1, 1, 0}, TileKey{1, 0, 1}}) {
    ASSERT_EQ(*cache->load(k, fill_ok()), LoadStatus::Loaded);
  }
  for (TileKey k : {TileKey{1, 0, 0}, TileKey{1, 1, 0}, TileKey{1, 0, 1}}) ASSERT_TRUE(cache->draw_source(k));
  ASSERT_TRUE(cache->evict({1, 0, 1}));

  auto first = cache->load({1, 1, 1}, fill_ok());
  ASSERT_TRUE(first);
  EXPECT_EQ(*first, LoadStatus::Deferred);
  EXPECT_EQ(cache->resident_count(), 2u) << "the first retry dropped a just-drawn tile";
  auto second = cache->load({1, 1, 1}, fill_ok());
  ASSERT_TRUE(second);
  EXPECT_EQ(*second, LoadStatus::Deferred);
  EXPECT_EQ(cache->resident_count(), 2u) << "the second retry dropped another";
  EXPECT_TRUE(cache->is_resident({1, 0, 0}));
  EXPECT_TRUE(cache->is_resident({1, 1, 0}));

  // Once the frame that read them retires, the load evicts exactly the one tile it needs.
  clock.on_submitted();
  clock.retire_through(clock.last_submitted());
  EXPECT_EQ(*cache->load({1, 1, 1}, fill_ok()), LoadStatus::Loaded);
  EXPECT_EQ(cache->resident_count(), 3u);
  EXPECT_TRUE(pool.check_invariants());
}

// Budget of 2 tiles, 2 resident: a fill that loads its parent would leave 3 resident.
TEST(TileCachePressure, FillThatLoadsAnotherTileIsRefusedAndTheBudgetHolds) {
  SubmissionClock clock;
  LayerPool pool(8, clock, 0);
  auto cache = TileCache::create(pool, 2 * kLayer, kLayer);
  ASSERT_TRUE(cache);
  ASSERT_EQ(*cache->load({2, 0, 0}, fill_ok()), LoadStatus::Loaded);
  ASSERT_EQ(*cache->load({2, 1, 0}, fill_ok()), LoadStatus::Loaded);
  TileCache& c = *cache;
  std::optional<Result<LoadStatus>> inner;
  auto outer = c.load({2, 3, 3}, [&](const TileKey& key, LayerIndex) -> Result<void> {
    inner = c.load(*key.parent(), fill_ok());
    return {};
  });
  ASSERT_TRUE(inner.has_value());
  ASSERT_FALSE(*inner) << "a load from inside a fill must be refused";
  EXPECT_EQ(inner->error().kind, ErrorKind::Refused);
  EXPECT_THAT(*inner, FailsWith(MessageId::TileCacheCalledInsideCallback));
  EXPECT_NE(inner->error().message.find("inside a fill"), std::string::npos) << inner->error().message;
  ASSERT_TRUE(outer);
  EXPECT_EQ(*outer, LoadStatus::Loaded);
  EXPECT_LE(c.resident_count(), 2u);
  EXPECT_LE(c.resident_bytes(), c.budget_bytes());
  EXPECT_FALSE(c.is_resident({1, 1, 1}));
  EXPECT_EQ(pool.allocated_count(), c.resident_count()) << "every allocated layer belongs to a resident tile";
  EXPECT_TRUE(pool.check_invariants());
}

// A fill that loads (or evicts) the very key being filled: before, the insert failed silently,
// a layer leaked and a stale LRU entry crashed a later eviction (ASan: SEGV in the scan).
TEST(TileCachePressure, FillThatLoadsOrEvictsItsOwnKeyLeaksNothing) {
  SubmissionClock clock;
  LayerPool pool(4, clock, 0);
  auto cache = TileCache::create(pool, 2 * kLayer, kLayer);
  ASSERT_TRUE(cache);
  TileCache& c = *cache;
  std::vector<Error> refused;
  auto status = c.load({3, 1, 1}, [&](const TileKey& key, LayerIndex) -> Result<void> {
    if (auto again = c.load(key, fill_ok()); !again) refused.push_back(again.error());
    if (auto gone = c.evict(key); !gone) refused.push_back(gone.error());
    return {};
  });
  ASSERT_TRUE(status);
  EXPECT_EQ(*status, LoadStatus::Loaded);
  ASSERT_EQ(refused.size(), 2u);
  for (const Error& e : refused) {
    EXPECT_EQ(e.kind, ErrorKind::Refused) << e.message;
    EXPECT_THAT(e, FailsWith(MessageId::TileCacheCalledInsideCallback));
  }
  EXPECT_EQ(c.resident_count(), 1u);
  EXPECT_EQ(pool.allocated_count(), 1u) << "a layer leaked";
  // Later evictions walk only live entries.
  for (uint32_t x = 0; x < 8; ++x) ASSERT_TRUE(c.load({3, x, 0}, fill_ok()));
  EXPECT_EQ(c.resident_count(), 2u);
  EXPECT_EQ(pool.allocated_count(), 2u);
  EXPECT_TRUE(pool.check_invariants());
}

TEST(TileCachePressure, SizesWhoseByteProductsOverflowAreRefused) {
  SubmissionClock clock;
  LayerPool pool(4, clock, 0);
  const uint64_t huge_layer = uint64_t{1} << 63;
  auto cache = TileCache::create(pool, std::numeric_limits<uint64_t>::max(), huge_layer);
  ASSERT_FALSE(cache) << "4 layers of 2^63 bytes cannot be counted in 64 bits";
  EXPECT_EQ(cache.error().kind, ErrorKind::InvalidArgument);
  EXPECT_THAT(cache, FailsWith(MessageId::TileCacheByteCountOverflow));

  // At the largest size that can be counted, the count is exact and never wraps.
  LayerPool one(1, clock, 0);
  auto exact = TileCache::create(one, std::numeric_limits<uint64_t>::max(), huge_layer);
  ASSERT_TRUE(exact);
  ASSERT_EQ(*exact->load({0, 0, 0}, fill_ok()), LoadStatus::Loaded);
  EXPECT_EQ(exact->resident_bytes(), huge_layer);
}

// The layer size handed to the cache comes from texture_bytes: it must not wrap either.
TEST(TileCachePressure, TextureBytesThatOverflowAreRefused) {
  auto huge = texture_bytes(WGPUTextureFormat_RGBA32Float, 1u << 31, 1u << 31, 1, 1);
  ASSERT_FALSE(huge) << "2^31 x 2^31 x 16 bytes is 2^66";
  EXPECT_EQ(huge.error().kind, ErrorKind::InvalidArgument);
  EXPECT_THAT(huge, FailsWith(MessageId::TextureBytesOverflow));
  auto layers = texture_bytes(WGPUTextureFormat_RGBA8Unorm, 1u << 16, 1u << 16, 1, 1u << 31);
  ASSERT_FALSE(layers) << "2^34 bytes a layer x 2^31 layers";
  EXPECT_THAT(layers, FailsWith(MessageId::TextureBytesOverflow));
  EXPECT_EQ(*texture_bytes(WGPUTextureFormat_RGBA8Unorm, 1u << 16, 1u << 16, 1, 1), uint64_t{1} << 34);
}

TEST(TileCachePressure, TileCacheIsMoveOnly) {
  EXPECT_FALSE(std::is_copy_constructible_v<TileCache>);
  EXPECT_FALSE(std::is_copy_assignable_v<TileCache>);
  EXPECT_TRUE(std::is_move_constructible_v<TileCache>);
  EXPECT_TRUE(std::is_move_assignable_v<TileCache>);

  // A moved cache keeps its tiles and its LRU order, and frees layers once.
  SubmissionClock clock;
  LayerPool pool(4, clock, 0);
  auto made = TileCache::create(pool, 2 * kLayer, kLayer);
  ASSERT_TRUE(made);
  TileCache cache = std::move(*made);
  ASSERT_EQ(*cache.load({1, 0, 0}, fill_ok()), LoadStatus::Loaded);
  ASSERT_EQ(*cache.load({1, 1, 0}, fill_ok()), LoadStatus::Loaded);
  ASSERT_TRUE(cache.draw_source({1, 0, 0}));
  TileCache moved = std::move(cache);
  ASSERT_EQ(*moved.load({1, 1, 1}, fill_ok()), LoadStatus::Loaded);
  EXPECT_FALSE(moved.is_resident({1, 1, 0})) << "least recently used goes first";
  EXPECT_TRUE(moved.is_resident({1, 0, 0}));
  EXPECT_EQ(pool.allocated_count(), 2u);
}

// The docs' loop (`for (k : leaving) cache.evict(k)`) used to drop the pinned root.
TEST(TileCachePressure, PinnedTileSurvivesEvictUntilUnpinned) {
  SubmissionClock clock;
  LayerPool pool(4, clock, 0);
  auto cache = TileCache::create(pool, 4 * kLayer, kLayer);
  ASSERT_TRUE(cache);
  ASSERT_EQ(*cache->load({0, 0, 0}, fill_ok()), LoadStatus::Loaded);
  ASSERT_TRUE(cache->pin({0, 0, 0}));
  auto refused = cache->evict({0, 0, 0});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::Refused);
  EXPECT_THAT(refused, FailsWith(MessageId::TileEvictPinned));
  EXPECT_TRUE(cache->is_resident({0, 0, 0}));
  ASSERT_TRUE(cache->draw_source({5, 17, 3}));

  ASSERT_TRUE(cache->pin({0, 0, 0}, false));
  EXPECT_TRUE(cache->evict({0, 0, 0}));
  EXPECT_FALSE(cache->is_resident({0, 0, 0}));
}

// load refuses z > 30; draw_source used to draw the root for z = 31 and nothing for z >= 32.
// One rule now: a key outside the pyramid (z > 30, or x or y >= 2^z) has no tile and no
// ancestor, for every call.
TEST(TileCachePressure, DeepZoomsFollowOneRuleForLoadAndDraw) {
  SubmissionClock clock;
  LayerPool pool(4, clock, 0);
  auto cache = TileCache::create(pool, 4 * kLayer, kLayer);
  ASSERT_TRUE(cache);
  ASSERT_EQ(*cache->load({0, 0, 0}, fill_ok()), LoadStatus::Loaded);
  for (uint32_t z : {31u, 32u, 40u}) {
    auto loaded = cache->load({z, 0, 0}, fill_ok());
    ASSERT_FALSE(loaded) << "z" << z;
    EXPECT_THAT(loaded, FailsWith(MessageId::TileKeyOutsidePyramid)) << "z" << z;
    EXPECT_FALSE(cache->draw_source({z, 0, 0})) << "z" << z << " must not draw when load refuses it";
  }
  EXPECT_FALSE(cache->draw_source({2, 4, 0})) << "x >= 2^z";
  // The deepest valid zoom draws its sub-rectangle of the root.
  const uint32_t last = (1u << 30) - 1;
  auto deepest = cache->draw_source({30, last, 0});
  ASSERT_TRUE(deepest);
  EXPECT_EQ(deepest->levels_up, 30u);
  EXPECT_FLOAT_EQ(deepest->scale, 1.0f / static_cast<float>(1u << 30));
  EXPECT_FLOAT_EQ(deepest->u0, static_cast<float>(last) / static_cast<float>(1u << 30));
}

}  // namespace
}  // namespace warden::tiles
