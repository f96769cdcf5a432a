#include "warden/demo/folder_tiles.h"

#include <gtest/gtest.h>

#include <fstream>

#include "support/messages.h"
#include "warden/demo/messages.h"
#include "warden/demo/tile_server.h"

namespace warden::demo {
namespace {

using namespace std::chrono_literals;
using tiles::TileKey;
using warden::testing::FailsWith;

// A slippy folder with one good tile (0/0/0.png), a corrupt one (1/0/0.jpg: not a JPEG), a
// truncated PNG (1/1/0.png) and a missing one (1/0/1).
class TileFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = std::filesystem::temp_directory_path() /
          ("warden-tiles-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "0" / "0");
    std::filesystem::create_directories(dir / "1" / "0");
    std::filesystem::create_directories(dir / "1" / "1");
    good = present::Image::filled(256, 256, present::Rgba{20, 120, 40, 255});
    good.set(7, 9, present::Rgba{250, 1, 2, 255});
    ASSERT_TRUE(present::write_png(good, dir / "0/0/0.png"));
    std::ofstream(dir / "1/0/0.jpg", std::ios::binary) << "this is not a JPEG";
    ASSERT_TRUE(present::write_png(good, dir / "1/1/0.png"));
    std::filesystem::resize_file(dir / "1/1/0.png", 100);
    auto opened = FolderTiles::open(dir, log);
    ASSERT_TRUE(opened) << opened.error().message;
    tiles = std::move(*opened);
  }
  void TearDown() override { std::filesystem::remove_all(dir); }

  std::filesystem::path dir;
  present::Image good;
  Diagnostics log;
  std::unique_ptr<FolderTiles> tiles;
};

TEST_F(TileFolder, GoodTileDecodesToItsTexels) {
  auto tile = tiles->produce({0, 0, 0});
  ASSERT_TRUE(tile) << tile.error().message;
  EXPECT_EQ(tile->rgba, good.rgba);
  EXPECT_EQ(tiles->failures(), 0u);
  EXPECT_TRUE(log.entries().empty());
}

TEST_F(TileFolder, MissingAndCorruptTilesAreErrorsOnThatTileOnly) {
  auto missing = tiles->produce({1, 0, 1});
  ASSERT_THAT(missing, FailsWith(MessageId::FolderTileMissing));
  EXPECT_EQ(missing.error().kind, ErrorKind::NotFound);
  EXPECT_NE(missing.error().message.find("tile 1/0/1"), std::string::npos) << missing.error().message;
  EXPECT_NE(missing.error().message.find((dir / "1/0/1").string()), std::string::npos) << missing.error().message;

  auto not_jpeg = tiles->produce({1, 0, 0});
  ASSERT_THAT(not_jpeg, FailsWith(MessageId::JpegUnreadable)) << "the decoder's id, with the tile named";
  EXPECT_EQ(not_jpeg.error().kind, ErrorKind::InvalidArgument);
  EXPECT_NE(not_jpeg.error().message.find("1/0/0.jpg: not a readable JPEG"), std::string::npos) << not_jpeg.error().message;

  auto truncated = tiles->produce({1, 1, 0});
  ASSERT_THAT(truncated, FailsWith(MessageId::PngReadFailed));
  EXPECT_EQ(truncated.error().kind, ErrorKind::InvalidArgument) << "a file that is there, not a PNG";
  EXPECT_NE(truncated.error().message.find("1/1/0.png: not a readable PNG"), std::string::npos) << truncated.error().message;

  EXPECT_TRUE(tiles->produce({0, 0, 0})) << "the good tile still loads";
  EXPECT_EQ(tiles->failures(), 3u);
  EXPECT_EQ(tiles->failed_tiles(), 3u);
}

TEST_F(TileFolder, AFailingTileIsCountedEveryTimeAndNamedInTheLogOnce) {
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(tiles->produce({1, 0, 1}));
    EXPECT_FALSE(tiles->produce({1, 0, 0}));
  }
  EXPECT_EQ(tiles->failures(), 6u);
  EXPECT_EQ(tiles->failed_tiles(), 2u);
  auto entries = log.entries();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].severity, Severity::Warning);
  EXPECT_EQ(entries[0].id, MessageId::FolderTileMissing) << "the entry carries the tile's error id";
  EXPECT_EQ(entries[1].id, MessageId::JpegUnreadable);
  EXPECT_NE(entries[0].message.find("tile 1/0/1"), std::string::npos) << entries[0].message;
  EXPECT_NE(entries[1].message.find("tile 1/0/0"), std::string::npos) << entries[1].message;
}

TEST_F(TileFolder, ATileOfAnotherSizeIsAnErrorNamingBothSizes) {
  ASSERT_TRUE(present::write_png(present::Image::filled(300, 200, present::Rgba{}), dir / "1/1/1.png"));
  auto tile = tiles->produce({1, 1, 1});
  ASSERT_THAT(tile, FailsWith(MessageId::FolderTileWrongSize));
  EXPECT_NE(tile.error().message.find("is 300x200, expected 256x256"), std::string::npos) << tile.error().message;
}

TEST_F(TileFolder, ThroughTheFetcherTheRunGoesOnPastBadTiles) {
  auto fetcher = TileServer::start(*tiles, {0ms, 0.0, 1});
  ASSERT_TRUE(fetcher);
  for (TileKey key : {TileKey{1, 0, 0}, TileKey{1, 0, 1}, TileKey{0, 0, 0}, TileKey{1, 1, 0}}) (*fetcher)->request(key);
  ASSERT_TRUE((*fetcher)->wait_for_completed(4, 30s));
  auto done = (*fetcher)->take_completed();
  ASSERT_EQ(done.size(), 4u);
  EXPECT_THAT(done[0].image, FailsWith(MessageId::JpegUnreadable));
  EXPECT_THAT(done[1].image, FailsWith(MessageId::FolderTileMissing));
  EXPECT_TRUE(done[2].image);
  EXPECT_THAT(done[3].image, FailsWith(MessageId::PngReadFailed));
  EXPECT_EQ(tiles->failures(), 3u);
}

TEST(FolderTilesOpen, AFolderThatDoesNotExistIsAnErrorNamingIt) {
  Diagnostics log;
  auto opened = FolderTiles::open("/nonexistent/tiles", log);
  ASSERT_THAT(opened, FailsWith(MessageId::TileFolderMissing));
  EXPECT_EQ(opened.error().kind, ErrorKind::NotFound);
  EXPECT_NE(opened.error().message.find("/nonexistent/tiles"), std::string::npos);
}

TEST(ImageFiles, UnknownExtensionAndMissingFilesAreNamed) {
  auto gif = read_image("/tmp/a.gif");
  ASSERT_THAT(gif, FailsWith(MessageId::ImageFormatUnknown));
  EXPECT_NE(gif.error().message.find("a.gif: not an image"), std::string::npos);
  auto jpeg = read_jpeg("/nonexistent/x.jpg");
  ASSERT_THAT(jpeg, FailsWith(MessageId::JpegUnopenable));
  EXPECT_EQ(jpeg.error().kind, ErrorKind::NotFound);
  auto png = present::read_png("/nonexistent/x.png");
  ASSERT_THAT(png, FailsWith(MessageId::PngReadFailed));
  EXPECT_EQ(png.error().kind, ErrorKind::NotFound);
}

}  // namespace
}  // namespace warden::demo
