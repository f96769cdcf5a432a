#include "warden/demo/mercator_tiler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "support/messages.h"
#include "warden/demo/mercator.h"
#include "warden/demo/messages.h"
#include "warden/demo/stamp.h"

namespace warden::demo {
namespace {

using tiles::TileKey;
using warden::testing::FailsWith;

// The mean colour of the 9x9 texels around a place, in the tile of `zoom` that holds it.
struct Mean {
  double r = 0, g = 0, b = 0;
};
Mean mean_colour_at(MercatorTiler& tiler, LatLon place, uint32_t zoom) {
  const WorldPixel at = to_world_pixel(place, zoom);
  const auto tx = static_cast<uint32_t>(at.x / 256), ty = static_cast<uint32_t>(at.y / 256);
  auto tile = tiler.produce({zoom, tx, ty});
  EXPECT_TRUE(tile) << tile.error().message;
  if (!tile) return {};
  const auto px = static_cast<int>(at.x - tx * 256.0), py = static_cast<int>(at.y - ty * 256.0);
  Mean mean;
  for (int dy = -4; dy <= 4; ++dy) {
    for (int dx = -4; dx <= 4; ++dx) {
      present::Rgba c = tile->at(static_cast<uint32_t>(std::clamp(px + dx, 0, 255)), static_cast<uint32_t>(std::clamp(py + dy, 0, 255)));
      mean.r += c.r / 81.0;
      mean.g += c.g / 81.0;
      mean.b += c.b / 81.0;
    }
  }
  return mean;
}

class BlueMarbleTiles : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto loaded = BlueMarble::load();
    ASSERT_TRUE(loaded) << loaded.error().message;
    earth = new BlueMarble(std::move(*loaded));
  }
  static void TearDownTestSuite() {
    delete earth;
    earth = nullptr;
  }
  static BlueMarble* earth;
};
BlueMarble* BlueMarbleTiles::earth = nullptr;

TEST_F(BlueMarbleTiles, DecodesTheXplanetImagesAtTheirSize) {
  EXPECT_EQ(earth->day.source().width, 2048u);
  EXPECT_EQ(earth->day.source().height, 1024u);
  EXPECT_EQ(earth->night.source().width, 2048u);
  // 2048 source pixels span the world at zoom 3 (256 * 8): deeper zooms are upsampled.
  EXPECT_EQ(earth->day.native_zoom(), 3u);
}

TEST_F(BlueMarbleTiles, OceanIsBlueAndDesertIsNot) {
  // The South Pacific, far from any island, and the middle of the Sahara, at zoom 2 (source
  // resolution) and zoom 6 (upsampled).
  for (uint32_t zoom : {2u, 6u}) {
    Mean ocean = mean_colour_at(earth->day, {-30.0, -130.0}, zoom);
    EXPECT_GT(ocean.b, ocean.r + 20) << "zoom " << zoom;
    EXPECT_GT(ocean.b, ocean.g) << "zoom " << zoom;
    Mean sahara = mean_colour_at(earth->day, {23.0, 12.0}, zoom);
    EXPECT_GT(sahara.r, sahara.b + 20) << "zoom " << zoom;
  }
}

TEST_F(BlueMarbleTiles, TheNightLayerIsDarkWhereTheDayLayerIsBright) {
  Mean day = mean_colour_at(earth->day, {23.0, 12.0}, 4);
  Mean night = mean_colour_at(earth->night, {23.0, 12.0}, 4);
  EXPECT_LT(night.r + night.g + night.b, 90.0) << night.r << " " << night.g << " " << night.b;
  EXPECT_GT(day.r + day.g + day.b, night.r + night.g + night.b + 200) << day.r << " " << day.g << " " << day.b;
}

TEST_F(BlueMarbleTiles, TileOutsideThePyramidIsAnErrorNamingIt) {
  auto tile = earth->day.produce({2, 4, 0});
  ASSERT_THAT(tile, FailsWith(MessageId::TileSourceKeyOutside));
  EXPECT_EQ(tile.error().kind, ErrorKind::InvalidArgument);
  EXPECT_NE(tile.error().message.find("tile 2/4/0"), std::string::npos) << tile.error().message;
  EXPECT_THAT(earth->day.produce({kMaxSourceZoom + 1, 0, 0}), FailsWith(MessageId::TileSourceZoomTooDeep));
}

TEST(BlueMarbleLoad, MissingImagesNameTheFileAndThePackage) {
  auto loaded = BlueMarble::load("/nonexistent/xplanet");
  ASSERT_THAT(loaded, FailsWith(MessageId::JpegUnopenable));
  EXPECT_EQ(loaded.error().kind, ErrorKind::NotFound);
  EXPECT_NE(loaded.error().message.find("/nonexistent/xplanet/earth.jpg"), std::string::npos) << loaded.error().message;
  EXPECT_NE(loaded.error().message.find("xplanet-images"), std::string::npos);
}

// On a uniform source every texel of a tile is that colour except its stamp, so two tiles
// differ exactly where their stamps differ.
TEST(MercatorTilerStamp, EveryTileCarriesItsOwnStamp) {
  auto tiler = MercatorTiler::create(present::Image::filled(64, 32, present::Rgba{10, 80, 160, 255}));
  ASSERT_TRUE(tiler) << tiler.error().message;
  std::set<std::vector<uint8_t>> seen;
  for (TileKey key : {TileKey{2, 1, 1}, TileKey{2, 1, 2}, TileKey{2, 2, 1}, TileKey{5, 17, 9}, TileKey{0, 0, 0}}) {
    auto tile = tiler->produce(key);
    ASSERT_TRUE(tile) << tile.error().message;
    EXPECT_TRUE(seen.insert(tile->rgba).second) << "tile " << stamp_text(key) << " looks like another tile";
    size_t white = 0, source = 0;
    for (uint32_t y = 0; y < 256; ++y) {
      for (uint32_t x = 0; x < 256; ++x) {
        present::Rgba c = tile->at(x, y);
        if (c == present::Rgba{255, 255, 255, 255}) ++white;
        if (c == present::Rgba{10, 80, 160, 255}) ++source;
      }
    }
    EXPECT_GT(white, 0u) << stamp_text(key);
    EXPECT_EQ(tile->at(4, 4), (present::Rgba{0, 0, 0, 255})) << "the stamp's box starts at (4, 4)";
    EXPECT_GT(source, 256u * 256 * 9 / 10) << "the stamp is small";
  }
}

TEST(Stamp, DrawsDigitsAndRefusesOtherCharacters) {
  present::Image image = present::Image::filled(40, 20, present::Rgba{1, 2, 3, 255});
  ASSERT_TRUE(draw_stamp(image, "1/0", 0, 0, 1));
  // Glyph texel scale 1: box 0..12 x 0..6; the '1' glyph's top row is .#. at x 1..3, y 1.
  EXPECT_EQ(image.at(2, 1), (present::Rgba{255, 255, 255, 255}));
  EXPECT_EQ(image.at(1, 1), (present::Rgba{0, 0, 0, 255}));
  EXPECT_EQ(image.at(20, 10), (present::Rgba{1, 2, 3, 255}));
  auto bad = draw_stamp(image, "3/x/1", 0, 0);
  ASSERT_THAT(bad, FailsWith(MessageId::StampGlyphMissing));
  EXPECT_NE(bad.error().message.find("'x'"), std::string::npos) << bad.error().message;
  // Clipped at the edges, not written past them.
  present::Image small = present::Image::filled(5, 5, present::Rgba{});
  EXPECT_TRUE(draw_stamp(small, "123", 3, 3, 4));
}

TEST(MercatorTilerUpsampling, DeeperThanTheSourceBlendsNeighbouringTexels) {
  // Left half black, right half white: at zoom 8 the tile on the prime meridian at the equator
  // shows a ramp across the boundary, not one hard step.
  present::Image source = present::Image::filled(4, 2, present::Rgba{0, 0, 0, 255});
  for (uint32_t y = 0; y < 2; ++y) {
    source.set(2, y, present::Rgba{255, 255, 255, 255});
    source.set(3, y, present::Rgba{255, 255, 255, 255});
  }
  auto tiler = MercatorTiler::create(source);
  ASSERT_TRUE(tiler);
  EXPECT_EQ(tiler->native_zoom(), 0u);
  // Tile 2/1/1 spans longitudes -90..0: from the centre of texel 0 (-135) to that of texel 1
  // (-45) it ramps up, then towards texel 2 (+45), so intermediate greys fill the row.
  auto tile = tiler->produce({2, 1, 1});
  ASSERT_TRUE(tile);
  std::set<uint8_t> greys;
  for (uint32_t x = 0; x < 256; ++x) greys.insert(tile->at(x, 200).r);
  EXPECT_GT(greys.size(), 50u);
}

TEST(MercatorTilerCreate, EmptySourceOrZeroTileSizeIsAnError) {
  EXPECT_THAT(MercatorTiler::create(present::Image{}), FailsWith(MessageId::MercatorSourceEmpty));
  EXPECT_THAT(MercatorTiler::create(present::Image::filled(2, 1, present::Rgba{}), 0), FailsWith(MessageId::TileSourceSizeZero));
}

}  // namespace
}  // namespace warden::demo
