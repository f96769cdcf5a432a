// TileCache's fills that finish later (hand_off, finish_fill): what the engine's tile layer
// builds its upload threads on. A filling tile holds its layer and counts against the budget,
// is never drawn or evicted, and a cancelled fill keeps its layer until its writer is done.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "warden/tiles/tile_cache.h"
#include "tiles/tile_cache_fill.h"
#include "support/messages.h"

namespace warden::tiles {
namespace {

using test::fill_ok;
using test::kLayer;
using warden::testing::FailsWith;

struct ParkedFetcher : TileFetcher {
  std::vector<TileReply> replies;
  void fetch(TileReply reply) override { replies.push_back(std::move(reply)); }
};

// A hand-off that keeps what it was given, as the upload threads' queue does.
struct HandedOffWrites {
  std::vector<FillTicket> tickets;
  std::vector<std::vector<uint8_t>> texels;
  TileCache::HandOff hand_off() {
    return [this](const FillTicket& ticket, std::vector<uint8_t> given) -> Result<void> {
      tickets.push_back(ticket);
      texels.push_back(std::move(given));
      return {};
    };
  }
};

// Requests and fetches `keys` (one frame, all visible) and answers every fetch with one byte.
void fetch_and_answer_all(TileCache& cache, ParkedFetcher& fetcher, const std::vector<TileKey>& keys) {
  ASSERT_TRUE(cache.begin_frame({keys}));
  for (const TileKey& key : keys) ASSERT_TRUE(cache.request(key));
  ASSERT_TRUE(cache.dispatch(fetcher));
  for (TileReply& reply : fetcher.replies) reply.deliver({static_cast<uint8_t>(reply.ticket().key.x)});
  fetcher.replies.clear();
}

// One cache over a pool of 4 layers, with a parked fetcher and a hand-off that keeps what it got.
class TileCacheHandOff : public ::testing::Test {
 protected:
  void SetUp() override { make_cache(4); }
  // Replaces the cache by one whose budget is `layers` layers.
  void make_cache(uint64_t layers) {
    auto made = TileCache::create(pool, layers * kLayer, kLayer);
    ASSERT_TRUE(made) << made.error().message;
    cache.emplace(std::move(made).value());
  }

  SubmissionClock clock;
  LayerPool pool{4, clock, 0};
  std::optional<TileCache> cache;  // after the pool: ends first
  ParkedFetcher fetcher;
  HandedOffWrites writes;
};

TEST_F(TileCacheHandOff, AFillHoldsItsLayerUndrawnUntilFinishedThenIsResident) {
  fetch_and_answer_all(*cache, fetcher, {{1, 0, 0}});
  auto report = cache->hand_off(writes.hand_off());
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_EQ(report->handed_off, 1u);
  EXPECT_EQ(report->loaded, 0u);
  ASSERT_EQ(writes.tickets.size(), 1u);
  EXPECT_EQ(writes.texels[0], std::vector<uint8_t>{0}) << "the arrived texels, handed over";
  const FillTicket ticket = writes.tickets[0];
  EXPECT_TRUE(pool.is_allocated(ticket.layer));
  EXPECT_EQ(cache->fetches_in_flight(), 0u) << "the fetch's slot is free while the fill runs";
  EXPECT_TRUE(cache->is_filling({1, 0, 0}));
  EXPECT_FALSE(cache->is_resident({1, 0, 0}));
  EXPECT_FALSE(cache->peek({1, 0, 0})) << "a layer still being written is never drawn";
  EXPECT_EQ(*cache->request({1, 0, 0}), RequestStatus::Pending) << "no second fetch while it fills";
  ParkedFetcher again;
  EXPECT_EQ(*cache->dispatch(again), 0u);

  std::vector<LayerIndex> published;
  auto done = cache->finish_fill(ticket, {}, fill_ok(&published));
  ASSERT_TRUE(done) << done.error().message;
  EXPECT_EQ(*done, ReplyOutcome::Loaded);
  EXPECT_EQ(published, std::vector<LayerIndex>{ticket.layer});
  EXPECT_EQ(cache->layer_of({1, 0, 0}), ticket.layer);
  EXPECT_FALSE(cache->is_filling({1, 0, 0}));
  EXPECT_EQ(cache->filling_count(), 0u);
  EXPECT_THAT(cache->finish_fill(ticket, {}, fill_ok()), FailsWith(MessageId::TileFillUnknown))
      << "a fill finishes once";
  EXPECT_TRUE(pool.check_invariants());
}

TEST_F(TileCacheHandOff, FillsCountAgainstTheBudgetAndAreNeverEvicted) {
  make_cache(2);
  fetch_and_answer_all(*cache, fetcher, {{2, 0, 0}, {2, 1, 0}, {2, 2, 0}});
  auto report = cache->hand_off(writes.hand_off());
  ASSERT_TRUE(report);
  EXPECT_EQ(report->handed_off, 2u) << "a budget of two tiles: two fills";
  EXPECT_EQ(report->waiting, 1u) << "the third waits: no fill is evicted for it";
  EXPECT_EQ(pool.allocated_count(), 2u);
  EXPECT_EQ(cache->filling_count(), 2u);
  EXPECT_EQ(*cache->load({0, 0, 0}, fill_ok()), LoadStatus::Held) << "nor for a load";
  for (const FillTicket& ticket : writes.tickets) ASSERT_TRUE(cache->finish_fill(ticket, {}, fill_ok()));
  EXPECT_EQ(cache->resident_count(), 2u);
  EXPECT_LE(cache->resident_bytes(), cache->budget_bytes());
}

TEST_F(TileCacheHandOff, AClearCancelsFillsWhoseLayersReturnOnlyWhenTheirWritesEndUnpublished) {
  fetch_and_answer_all(*cache, fetcher, {{1, 0, 0}, {1, 1, 0}});
  ASSERT_TRUE(cache->hand_off(writes.hand_off()));
  ASSERT_EQ(writes.tickets.size(), 2u);

  ASSERT_TRUE(cache->clear());  // a device loss while both are written
  EXPECT_FALSE(cache->is_filling({1, 0, 0}));
  EXPECT_EQ(cache->filling_count(), 2u) << "cancelled, still being written";
  EXPECT_EQ(pool.allocated_count(), 2u) << "a layer being written is not handed out again";
  // Retired or not, a layer being written stays allocated.
  clock.on_submitted();
  clock.retire_through(clock.last_submitted());
  EXPECT_EQ(pool.counts().free, 2u);

  bool published = false;
  auto publish = [&](const TileKey&, LayerIndex) -> Result<void> {
    published = true;
    return {};
  };
  auto first = cache->finish_fill(writes.tickets[0], {}, publish);
  ASSERT_TRUE(first);
  EXPECT_EQ(*first, ReplyOutcome::Stale);
  auto second = cache->finish_fill(writes.tickets[1], make_error(ErrorKind::DeviceFailed, MessageId::TileDeviceLost, "lost"),
                                   publish);
  ASSERT_TRUE(second) << "a cancelled fill's failed write is stale, not a failed fetch";
  EXPECT_EQ(*second, ReplyOutcome::Stale);
  EXPECT_FALSE(published) << "nothing of a cancelled fill is published";
  EXPECT_EQ(cache->resident_count(), 0u);
  EXPECT_EQ(cache->filling_count(), 0u);
  EXPECT_EQ(pool.allocated_count(), 0u);
  EXPECT_EQ(cache->stale_completions(), 2u);
  EXPECT_EQ(cache->failed_fetches(), 0u);
  EXPECT_TRUE(pool.check_invariants());
}

TEST_F(TileCacheHandOff, EvictCancelsAFillAndAFailedWriteReleasesItsLayer) {
  fetch_and_answer_all(*cache, fetcher, {{1, 0, 0}, {1, 1, 0}});
  ASSERT_TRUE(cache->hand_off(writes.hand_off()));
  ASSERT_EQ(writes.tickets.size(), 2u);
  const FillTicket evicted = writes.tickets[0].key == TileKey{1, 0, 0} ? writes.tickets[0] : writes.tickets[1];
  const FillTicket failing = writes.tickets[0].key == TileKey{1, 0, 0} ? writes.tickets[1] : writes.tickets[0];

  ASSERT_TRUE(cache->evict({1, 0, 0}));
  EXPECT_TRUE(pool.is_allocated(evicted.layer)) << "until its write returns";
  EXPECT_EQ(*cache->finish_fill(evicted, {}, fill_ok()), ReplyOutcome::Stale);
  EXPECT_FALSE(pool.is_allocated(evicted.layer));
  EXPECT_FALSE(cache->is_resident({1, 0, 0}));

  EXPECT_THAT(cache->finish_fill(failing, make_error(ErrorKind::Io, MessageId::TileDeviceLost, "the write failed"),
                                 fill_ok()),
              FailsWith(MessageId::TileDeviceLost));
  EXPECT_FALSE(pool.is_allocated(failing.layer));
  EXPECT_FALSE(cache->is_resident(failing.key));
  EXPECT_EQ(cache->failed_fetches(), 1u);
  EXPECT_EQ(*cache->request(failing.key), RequestStatus::Queued) << "the tile may be asked for again";
  EXPECT_TRUE(pool.check_invariants());
}

TEST_F(TileCacheHandOff, APublishThatFailsReleasesTheLayerAndAFillLoadedMeanwhileIsStale) {
  fetch_and_answer_all(*cache, fetcher, {{1, 0, 0}, {1, 1, 0}});
  ASSERT_TRUE(cache->hand_off(writes.hand_off()));
  ASSERT_EQ(writes.tickets.size(), 2u);

  auto refused = [](const TileKey&, LayerIndex) -> Result<void> {
    return make_error(ErrorKind::DeviceFailed, MessageId::TileDeviceLost, "no mip chain");
  };
  EXPECT_THAT(cache->finish_fill(writes.tickets[0], {}, refused), FailsWith(MessageId::TileDeviceLost));
  EXPECT_FALSE(pool.is_allocated(writes.tickets[0].layer));
  EXPECT_FALSE(cache->is_resident(writes.tickets[0].key));

  // Loaded another way (from memory) while its fill ran: the fill's layer goes back.
  ASSERT_EQ(*cache->load(writes.tickets[1].key, fill_ok()), LoadStatus::Loaded);
  EXPECT_EQ(*cache->finish_fill(writes.tickets[1], {}, fill_ok()), ReplyOutcome::Stale);
  EXPECT_FALSE(pool.is_allocated(writes.tickets[1].layer));
  EXPECT_TRUE(cache->is_resident(writes.tickets[1].key));
  EXPECT_EQ(pool.allocated_count(), 1u);
  EXPECT_TRUE(pool.check_invariants());
}

TEST_F(TileCacheHandOff, AHandOffThatFailsReleasesTheLayerAndFailsTheFetch) {
  fetch_and_answer_all(*cache, fetcher, {{1, 0, 0}});
  auto report = cache->hand_off([](const FillTicket&, std::vector<uint8_t>) -> Result<void> {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileTexelsSizeMismatch, "one byte is no tile");
  });
  ASSERT_TRUE(report);
  ASSERT_EQ(report->failed.size(), 1u);
  EXPECT_THAT(report->failed[0].second, FailsWith(MessageId::TileTexelsSizeMismatch));
  EXPECT_EQ(report->handed_off, 0u);
  EXPECT_EQ(pool.allocated_count(), 0u);
  EXPECT_EQ(cache->fetches_in_flight(), 0u);
  EXPECT_EQ(cache->filling_count(), 0u);
}

TEST_F(TileCacheHandOff, TheCacheMayNotBeChangedFromInsideAHandOff) {
  fetch_and_answer_all(*cache, fetcher, {{1, 0, 0}});
  std::optional<Result<void>> inner;
  ASSERT_TRUE(cache->hand_off([&](const FillTicket& ticket, std::vector<uint8_t>) -> Result<void> {
    inner = cache->evict(ticket.key);
    return {};
  }));
  ASSERT_TRUE(inner.has_value());
  EXPECT_THAT(*inner, FailsWith(MessageId::TileCacheCalledInsideCallback));
  EXPECT_TRUE(cache->is_filling({1, 0, 0}));
}

}  // namespace
}  // namespace warden::tiles
