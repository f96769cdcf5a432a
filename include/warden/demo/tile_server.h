// TileServer: a stand-in for a slow, sometimes failing tile server. Requests queue on the frame
// thread and return at once; one worker thread waits the configured latency, then produces the tile from a TileProvider,
// or fails it on purpose at the configured rate. The frame thread collects finished tiles with
// take_completed(), which never blocks (docs/design.md, invariant 1).
//
// Injected failures are deterministic for a seed: whether the n-th request of a tile fails is
// a hash of (seed, z, x, y, n), decided on the requesting thread, so the same run fails the
// same fetches whatever the worker's timing.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "warden/core/result.h"
#include "warden/demo/tile_provider.h"

namespace warden::demo {

/// How the TileServer fakes a network.
struct FetchOptions {
  std::chrono::milliseconds latency{0};  ///< per tile, before it is produced
  double failure_rate = 0.0;             ///< in [0, 1]: the share of fetches failed on purpose
  /// Seeds the injected failures.
  uint64_t seed = 1;
};

/// A fetch that completed.
struct FetchedTile {
  /// The tile asked for.
  tiles::TileKey key;
  Result<present::Image> image;  ///< the provider's error, or an injected one
};

/// Fetches tiles from a TileProvider on a worker thread, with a latency and injected failures.
class TileServer {
 public:
  /// A failure rate outside [0, 1] (or not a number) or a negative latency is an
  /// InvalidArgument error naming the value. The provider must outlive the server.
  static Result<std::unique_ptr<TileServer>> start(TileProvider& provider, FetchOptions options);
  /// Stops the worker (see stop()).
  ~TileServer();
  TileServer(const TileServer&) = delete;
  TileServer& operator=(const TileServer&) = delete;

  /// Queues `key` unless it is already queued or being produced; never blocks on the worker.
  /// False when it was not queued (already pending, or the server stopped).
  bool request(const tiles::TileKey& key);
  /// Every tile finished since the last call, in the order finished; never blocks.
  std::vector<FetchedTile> take_completed();
  /// Tools and tests only: waits up to `timeout` until `count` tiles are finished and not yet
  /// taken; false on timeout.
  bool wait_for_completed(size_t count, std::chrono::milliseconds timeout);

  /// Queued or being produced, not yet finished.
  size_t pending() const;
  /// Fetches failed on purpose so far.
  uint64_t injected_failures() const;
  /// Abandons queued requests and the latency wait in progress, and joins the worker (a tile
  /// being produced is finished, then dropped). Returns how many were abandoned. Idempotent.
  size_t stop();

 private:
  TileServer(TileProvider& provider, FetchOptions options) : provider_(&provider), options_(options) {}
  struct Request {
    tiles::TileKey key;
    bool inject_failure = false;
  };
  void run();
  bool should_fail(const tiles::TileKey& key, uint64_t attempt) const;

  TileProvider* provider_;
  FetchOptions options_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;      // worker: a request or stop
  std::condition_variable finished_;  // wait_for_completed: a tile finished
  std::deque<Request> queue_;
  std::unordered_set<tiles::TileKey, tiles::TileKeyHash> pending_;
  std::unordered_map<tiles::TileKey, uint64_t, tiles::TileKeyHash> attempts_;  // requesting thread only
  std::vector<FetchedTile> completed_;
  uint64_t injected_failures_ = 0;
  bool stopping_ = false;
  std::thread worker_;  // last: started once everything above exists
};

}  // namespace warden::demo
