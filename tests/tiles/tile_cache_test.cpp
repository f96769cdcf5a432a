#include "warden/tiles/tile_cache.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "support/messages.h"
#include "tiles/tile_cache_fill.h"
#include "warden/tiles/sizing.h"

namespace warden::tiles {
namespace {

using test::fill_ok;

using warden::testing::FailsWith;

// ---- byte accounting and sizing ---------------------------------------------------------------

TEST(TileBytes, FullMipChainOfEveryLayerIsCounted) {
  EXPECT_EQ(full_mip_count(256, 256), 9u);
  EXPECT_EQ(full_mip_count(1, 1), 1u);
  EXPECT_EQ(full_mip_count(300, 200), 9u);
  // 256^2 + 128^2 + ... + 1^2 = 87381 texels.
  EXPECT_EQ(*texture_bytes(WGPUTextureFormat_RGBA8Unorm, 256, 256, 9, 1), 87381u * 4);
  EXPECT_EQ(*texture_bytes(WGPUTextureFormat_RGBA8Unorm, 256, 256, 9, 64), 87381u * 4 * 64);
  EXPECT_EQ(*texture_bytes(WGPUTextureFormat_RGBA16Float, 256, 256, 1, 2), 256u * 256 * 8 * 2);
  EXPECT_EQ(*texture_bytes(WGPUTextureFormat_R8Unorm, 4, 2, 3, 1), 8u + 2 + 1);  // 4x2, 2x1, 1x1
}

TEST(TileBytes, BadTexturesAreErrorsNamingTheProblem) {
  auto mips = texture_bytes(WGPUTextureFormat_RGBA8Unorm, 256, 256, 10, 1);
  ASSERT_FALSE(mips);
  EXPECT_THAT(mips, FailsWith(MessageId::TextureBytesMipLevelsOutOfRange));
  EXPECT_NE(mips.error().message.find("10 mip levels"), std::string::npos) << mips.error().message;
  EXPECT_THAT(texture_bytes(WGPUTextureFormat_RGBA8Unorm, 0, 256, 1, 1), FailsWith(MessageId::TextureBytesEmpty));
  auto format = texture_bytes(WGPUTextureFormat_Depth24Plus, 4, 4, 1, 1);
  ASSERT_FALSE(format);
  EXPECT_EQ(format.error().kind, ErrorKind::InvalidArgument);
  EXPECT_THAT(format, FailsWith(MessageId::TexelSizeUnknown));
}

// The worked example of docs/design.md, tiles rule T4: a 1440-wide window at 512-pixel tiles.
TEST(PoolSizing, SeedWorkedExampleRoundsUpToSixtyFour) {
  auto s = size_layer_pool({.viewport_width = 1440, .viewport_height = 900, .tile_size = 512});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->visible, 12u);   // 4 across x 3 down, not aligned to the grid
  EXPECT_EQ(s->pan_ring, 18u);  // one ring around 4 x 3
  EXPECT_EQ(s->in_flight, 8u);  // 2 submissions x 4 tiles released per frame
  EXPECT_EQ(s->reserve, 4u);
  EXPECT_EQ(s->needed, 42u);
  EXPECT_EQ(s->recommended, 64u);
  // Sixteen visible is a 4 x 4 grid: a window tall enough for four rows.
  auto tall = size_layer_pool({.viewport_width = 1440, .viewport_height = 1080, .tile_size = 512});
  EXPECT_EQ(tall->visible, 16u);
  EXPECT_EQ(tall->recommended, 64u);
}

TEST(PoolSizing, ZeroSizesAreErrorsNamingTheField) {
  auto s = size_layer_pool({.viewport_width = 800, .viewport_height = 600, .tile_size = 0});
  ASSERT_FALSE(s);
  EXPECT_THAT(s, FailsWith(MessageId::LayerPoolSizingZero));
  EXPECT_NE(s.error().message.find("tile_size"), std::string::npos) << s.error().message;
}

// ---- the cache --------------------------------------------------------------------------------

constexpr uint64_t kLayerBytes = 87381u * 4;  // one 256x256 RGBA8 layer with its mip chain

TEST(TileCache, FailedFetchReleasesItsLayer) {
  SubmissionClock clock;
  LayerPool pool(4, clock, 0);
  auto cache = TileCache::create(pool, 4 * kLayerBytes, kLayerBytes);
  ASSERT_TRUE(cache);
  auto failed = cache->load({1, 0, 0}, [](const TileKey&, LayerIndex) -> Result<void> {
    return make_error(ErrorKind::Io, "tile server said 503");
  });
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().message, "tile server said 503");
  EXPECT_THAT(failed, FailsWith(MessageId::Application)) << "the fill's own error, as it was made";
  EXPECT_FALSE(cache->is_resident({1, 0, 0}));
  EXPECT_EQ(pool.counts().allocated, 0u);
  EXPECT_EQ(pool.counts().free, 4u);

  // An exception thrown by the fetch takes the same path.
  EXPECT_THROW((void)cache->load({1, 1, 0}, [](const TileKey&, LayerIndex) -> Result<void> {
    throw std::runtime_error("decoder crashed");
  }), std::runtime_error);
  EXPECT_EQ(pool.counts().allocated, 0u);
  EXPECT_TRUE(pool.check_invariants());

  // Every layer is still usable afterwards: nothing leaked.
  for (uint32_t x = 0; x < 4; ++x) {
    EXPECT_EQ(*cache->load({2, x, 0}, fill_ok()), LoadStatus::Loaded);
  }
}

TEST(TileCache, EvictsLeastRecentlyUsedToStayInBudget) {
  SubmissionClock clock;
  LayerPool pool(8, clock, 0);
  auto cache = TileCache::create(pool, 3 * kLayerBytes, kLayerBytes);
  ASSERT_TRUE(cache);
  ASSERT_EQ(*cache->load({2, 0, 0}, fill_ok()), LoadStatus::Loaded);
  ASSERT_EQ(*cache->load({2, 1, 0}, fill_ok()), LoadStatus::Loaded);
  ASSERT_EQ(*cache->load({2, 2, 0}, fill_ok()), LoadStatus::Loaded);
  ASSERT_TRUE(cache->draw_source({2, 0, 0}));  // (2,0,0) is now the most recently used
  ASSERT_EQ(*cache->load({2, 3, 0}, fill_ok()), LoadStatus::Loaded);
  EXPECT_FALSE(cache->is_resident({2, 1, 0})) << "least recently used goes first";
  EXPECT_TRUE(cache->is_resident({2, 0, 0}));
  EXPECT_EQ(cache->resident_bytes(), 3 * kLayerBytes);
  EXPECT_EQ(cache->evictions(), 1u);
}

TEST(TileCache, FallsBackToNearestResidentAncestorWithItsSubRectangle) {
  SubmissionClock clock;
  LayerPool pool(4, clock, 0);
  auto cache = TileCache::create(pool, 4 * kLayerBytes, kLayerBytes);
  ASSERT_EQ(*cache->load({0, 0, 0}, fill_ok()), LoadStatus::Loaded);
  auto s = cache->draw_source({2, 3, 1});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->drawn, (TileKey{0, 0, 0}));
  EXPECT_EQ(s->levels_up, 2u);
  EXPECT_FLOAT_EQ(s->scale, 0.25f);
  EXPECT_FLOAT_EQ(s->u0, 0.75f);
  EXPECT_FLOAT_EQ(s->v0, 0.25f);
  EXPECT_EQ(pool.last_use(s->layer), clock.recording()) << "drawing touches the layer";

  ASSERT_EQ(*cache->load({1, 1, 0}, fill_ok()), LoadStatus::Loaded);
  s = cache->draw_source({2, 3, 1});
  EXPECT_EQ(s->drawn, (TileKey{1, 1, 0}));
  EXPECT_FLOAT_EQ(s->scale, 0.5f);
  EXPECT_FLOAT_EQ(s->u0, 0.5f);
  EXPECT_FLOAT_EQ(s->v0, 0.5f);

  EXPECT_FALSE(cache->load({1, 2, 0}, fill_ok())) << "x must be below 2^z";
}

// A scripted pan and zoom over a pyramid, two submissions in flight, a budget far smaller than
// the pyramid: the budget is never exceeded and every tile position draws something.
TEST(TileCache, ScriptedPanAndZoomStaysInBudgetAndNeverDrawsBlank) {
  SubmissionClock clock;
  constexpr uint32_t kBudgetLayers = 40;
  LayerPool pool(kBudgetLayers + 16, clock, LayerPool::kDefaultReserve);
  auto cache = TileCache::create(pool, kBudgetLayers * kLayerBytes, kLayerBytes);
  ASSERT_TRUE(cache);
  ASSERT_EQ(*cache->load({0, 0, 0}, fill_ok()), LoadStatus::Loaded);
  ASSERT_TRUE(cache->pin({0, 0, 0}));

  constexpr double kViewport = 1024, kTile = 256;  // 4 x 4 tiles visible (5 x 5 misaligned)
  uint64_t loads = 0, deferred = 0, ancestors = 0, positions = 0;
  for (int frame = 0; frame < 400; ++frame) {
    // Zoom 2 -> 7 and back, while panning diagonally; zoom grows 1/40 of a level per frame.
    const double t = frame < 200 ? frame / 40.0 : (400 - frame) / 40.0;
    const uint32_t z = 2 + static_cast<uint32_t>(std::floor(t));
    const double world = std::ldexp(kTile, static_cast<int>(z));  // pyramid width in pixels at z
    const double cx = world * (0.3 + 0.002 * (frame % 200)), cy = world * 0.45;
    const double left = std::max(0.0, cx - kViewport / 2), top = std::max(0.0, cy - kViewport / 2);
    const uint32_t x0 = static_cast<uint32_t>(left / kTile), y0 = static_cast<uint32_t>(top / kTile);
    const uint32_t x1 = std::min<uint32_t>((1u << z) - 1, static_cast<uint32_t>((left + kViewport) / kTile));
    const uint32_t y1 = std::min<uint32_t>((1u << z) - 1, static_cast<uint32_t>((top + kViewport) / kTile));

    clock.retire_through(Serial{clock.last_submitted().value >= 2 ? clock.last_submitted().value - 2 : 0});
    // At most four uploads a frame, like a decoder that keeps up with a pan.
    int budget_uploads = 4;
    for (uint32_t y = y0; y <= y1; ++y) {
      for (uint32_t x = x0; x <= x1; ++x) {
        if (cache->is_resident({z, x, y}) || budget_uploads == 0) continue;
        auto status = cache->load({z, x, y}, fill_ok());
        ASSERT_TRUE(status);
        if (*status == LoadStatus::Loaded) ++loads, --budget_uploads;
        if (*status == LoadStatus::Deferred) ++deferred;
        ASSERT_LE(cache->resident_bytes(), cache->budget_bytes()) << "frame " << frame;
      }
    }
    for (uint32_t y = y0; y <= y1; ++y) {
      for (uint32_t x = x0; x <= x1; ++x) {
        auto source = cache->draw_source({z, x, y});
        ASSERT_TRUE(source.has_value()) << "blank tile z" << z << "/" << x << "/" << y << " at frame " << frame;
        ancestors += source->levels_up > 0;
        ++positions;
      }
    }
    clock.on_submitted();
    ASSERT_LE(cache->resident_bytes(), cache->budget_bytes());
    ASSERT_TRUE(pool.check_invariants());
  }
  EXPECT_TRUE(cache->is_resident({0, 0, 0})) << "the pinned root is never evicted";
  // The script really exercised eviction and fallback.
  EXPECT_GT(cache->evictions(), 100u);
  EXPECT_GT(ancestors, 0u);
  EXPECT_LT(ancestors, positions);
  EXPECT_GT(loads, 200u);
  (void)deferred;
}

}  // namespace
}  // namespace warden::tiles
