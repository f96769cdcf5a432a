#include "warden/demo/tile_server.h"

#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <tuple>

#include "support/messages.h"
#include "warden/demo/mercator_tiler.h"
#include "warden/demo/messages.h"

namespace warden::demo {
namespace {

using namespace std::chrono_literals;
using tiles::TileKey;
using warden::testing::FailsWith;

// Real tiles, 16 pixels a side, from a small uniform source: cheap enough for a thousand.
MercatorTiler small_tiler() { return std::move(*MercatorTiler::create(present::Image::filled(64, 32, present::Rgba{0, 0, 200, 255}), 16)); }

// Fetches every tile of zoom 5 (1,024 tiles) and returns the keys that failed.
std::set<std::tuple<uint32_t, uint32_t, uint32_t>> failed_keys_of_zoom5(MercatorTiler& tiler, double rate, uint64_t seed) {
  auto server = TileServer::start(tiler, {0ms, rate, seed});
  EXPECT_TRUE(server);
  for (uint32_t x = 0; x < 32; ++x) {
    for (uint32_t y = 0; y < 32; ++y) EXPECT_TRUE((*server)->request({5, x, y}));
  }
  EXPECT_TRUE((*server)->wait_for_completed(1024, 60s));
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> failed;
  for (FetchedTile& tile : (*server)->take_completed()) {
    if (!tile.image) {
      EXPECT_THAT(tile.image, FailsWith(MessageId::TileFetchInjectedFailure));
      failed.insert({tile.key.z, tile.key.x, tile.key.y});
    } else {
      EXPECT_EQ(tile.image->width, 16u);
    }
  }
  EXPECT_EQ((*server)->injected_failures(), failed.size());
  EXPECT_EQ((*server)->pending(), 0u);
  return failed;
}

TEST(TileServer, FailureRateIsHonouredAndTheSameForTheSameSeed) {
  MercatorTiler tiler = small_tiler();
  auto first = failed_keys_of_zoom5(tiler, 0.25, 7);
  // 1,024 fetches at 25%: the mean is 256 and the standard deviation 14.
  EXPECT_GT(first.size(), 200u);
  EXPECT_LT(first.size(), 312u);
  EXPECT_EQ(failed_keys_of_zoom5(tiler, 0.25, 7), first) << "the same seed fails the same tiles";
  EXPECT_NE(failed_keys_of_zoom5(tiler, 0.25, 8), first) << "another seed fails other tiles";
  EXPECT_TRUE(failed_keys_of_zoom5(tiler, 0.0, 7).empty());
  EXPECT_EQ(failed_keys_of_zoom5(tiler, 1.0, 7).size(), 1024u);
}

TEST(TileServer, ARetriedTileIsDecidedAfreshNotFailedForever) {
  MercatorTiler tiler = small_tiler();
  auto server = TileServer::start(tiler, {0ms, 0.5, 3});
  ASSERT_TRUE(server);
  const TileKey key{3, 2, 5};
  int failures = 0, successes = 0;
  for (int attempt = 0; attempt < 40; ++attempt) {
    ASSERT_TRUE((*server)->request(key));
    ASSERT_TRUE((*server)->wait_for_completed(1, 10s));
    auto done = (*server)->take_completed();
    ASSERT_EQ(done.size(), 1u);
    (done[0].image ? successes : failures)++;
  }
  EXPECT_GT(failures, 0);
  EXPECT_GT(successes, 0);
}

TEST(TileServer, DeliversOnTheWorkerWhileTheCallerGoesOn) {
  MercatorTiler tiler = small_tiler();
  auto server = TileServer::start(tiler, {20ms, 0.0, 1});
  ASSERT_TRUE(server);
  EXPECT_TRUE((*server)->request({1, 0, 0}));
  EXPECT_TRUE((*server)->request({1, 1, 1}));
  EXPECT_FALSE((*server)->request({1, 0, 0})) << "a pending tile is not queued twice";
  EXPECT_EQ((*server)->pending(), 2u);
  ASSERT_TRUE((*server)->wait_for_completed(2, 30s));
  auto done = (*server)->take_completed();
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[0].key, (TileKey{1, 0, 0}));
  EXPECT_EQ(done[1].key, (TileKey{1, 1, 1}));
  ASSERT_TRUE(done[0].image);
  EXPECT_EQ(done[0].image->width, 16u);
  EXPECT_EQ((*server)->pending(), 0u);
  EXPECT_TRUE((*server)->take_completed().empty());
  EXPECT_TRUE((*server)->request({1, 0, 0})) << "a finished tile may be requested again";
}

TEST(TileServer, StopAbandonsWaitingRequestsAndJoinsTheWorker) {
  MercatorTiler tiler = small_tiler();
  // An hour of latency: only a stop that interrupts the wait lets this test end.
  auto server = TileServer::start(tiler, {std::chrono::hours(1), 0.0, 1});
  ASSERT_TRUE(server);
  for (uint32_t x = 0; x < 4; ++x) ASSERT_TRUE((*server)->request({2, x, 0}));
  EXPECT_TRUE((*server)->take_completed().empty()) << "nothing is finished before its latency";
  EXPECT_EQ((*server)->stop(), 4u);
  EXPECT_EQ((*server)->stop(), 0u) << "stop is idempotent";
  EXPECT_FALSE((*server)->request({2, 0, 1})) << "a stopped server takes no requests";
  EXPECT_TRUE((*server)->take_completed().empty());
}

TEST(TileServer, DestroyedWithRequestsInFlightShutsDownCleanly) {
  MercatorTiler tiler = small_tiler();
  for (int round = 0; round < 20; ++round) {
    auto server = TileServer::start(tiler, {0ms, 0.5, static_cast<uint64_t>(round)});
    ASSERT_TRUE(server);
    for (uint32_t x = 0; x < 16; ++x) (*server)->request({4, x, 3});
    // Destroyed at once: the worker may be producing a tile; the destructor joins it.
  }
}

TEST(TileServer, BadOptionsAreErrorsNamingTheValue) {
  MercatorTiler tiler = small_tiler();
  auto rate = TileServer::start(tiler, {0ms, 1.5, 1});
  ASSERT_THAT(rate, FailsWith(MessageId::TileFetchFailureRateOutOfRange));
  EXPECT_NE(rate.error().message.find("1.5"), std::string::npos) << rate.error().message;
  auto latency = TileServer::start(tiler, {-5ms, 0.0, 1});
  ASSERT_THAT(latency, FailsWith(MessageId::TileFetchLatencyNegative));
  EXPECT_NE(latency.error().message.find("-5 ms"), std::string::npos) << latency.error().message;
}

TEST(TileServer, ProviderErrorsAreDeliveredAsThatTilesError) {
  MercatorTiler tiler = small_tiler();
  auto server = TileServer::start(tiler, {0ms, 0.0, 1});
  ASSERT_TRUE(server);
  ASSERT_TRUE((*server)->request({1, 5, 0}));
  ASSERT_TRUE((*server)->wait_for_completed(1, 10s));
  auto done = (*server)->take_completed();
  ASSERT_EQ(done.size(), 1u);
  ASSERT_THAT(done[0].image, FailsWith(MessageId::TileSourceKeyOutside)) << "the provider's own error";
  EXPECT_NE(done[0].image.error().message.find("tile 1/5/0"), std::string::npos);
  EXPECT_EQ((*server)->injected_failures(), 0u);
}

}  // namespace
}  // namespace warden::demo
