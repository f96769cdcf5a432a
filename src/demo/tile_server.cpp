#include "warden/demo/messages.h"
#include "warden/demo/tile_server.h"

#include <fmt/format.h>

#include <cmath>
#include <utility>

namespace warden::demo {
namespace {

// SplitMix64's finaliser: a good 64-bit mix, so neighbouring tiles fail independently.
uint64_t mix(uint64_t v) {
  v += 0x9e3779b97f4a7c15ULL;
  v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9ULL;
  v = (v ^ (v >> 27)) * 0x94d049bb133111ebULL;
  return v ^ (v >> 31);
}

}  // namespace

Result<std::unique_ptr<TileServer>> TileServer::start(TileProvider& provider, FetchOptions options) {
  if (!(options.failure_rate >= 0.0 && options.failure_rate <= 1.0)) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileFetchFailureRateOutOfRange,
                      fmt::format("tile fetch failure rate {} is outside [0, 1]", options.failure_rate));
  }
  if (options.latency.count() < 0) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileFetchLatencyNegative,
                      fmt::format("tile fetch latency {} ms is negative", options.latency.count()));
  }
  std::unique_ptr<TileServer> server(new TileServer(provider, options));
  server->worker_ = std::thread([raw = server.get()] { raw->run(); });
  return server;
}

TileServer::~TileServer() { (void)stop(); }

bool TileServer::should_fail(const tiles::TileKey& key, uint64_t attempt) const {
  if (options_.failure_rate <= 0.0) return false;
  uint64_t h = mix(options_.seed);
  for (uint64_t part : {uint64_t{key.z}, uint64_t{key.x}, uint64_t{key.y}, attempt}) h = mix(h ^ part);
  // The top 53 bits as a uniform double in [0, 1).
  return std::ldexp(static_cast<double>(h >> 11), -53) < options_.failure_rate;
}

bool TileServer::request(const tiles::TileKey& key) {
  std::lock_guard lock(mutex_);
  if (stopping_ || pending_.contains(key)) return false;
  const uint64_t attempt = attempts_[key]++;
  pending_.insert(key);
  queue_.push_back({key, should_fail(key, attempt)});
  wake_.notify_one();
  return true;
}

std::vector<FetchedTile> TileServer::take_completed() {
  std::lock_guard lock(mutex_);
  return std::exchange(completed_, {});
}

bool TileServer::wait_for_completed(size_t count, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return finished_.wait_for(lock, timeout, [&] { return completed_.size() >= count; });
}

size_t TileServer::pending() const {
  std::lock_guard lock(mutex_);
  return pending_.size();
}

uint64_t TileServer::injected_failures() const {
  std::lock_guard lock(mutex_);
  return injected_failures_;
}

size_t TileServer::stop() {
  size_t abandoned = 0;
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && !worker_.joinable()) return 0;
    stopping_ = true;
    abandoned = pending_.size();
    queue_.clear();
    pending_.clear();
  }
  wake_.notify_all();
  if (worker_.joinable()) worker_.join();
  return abandoned;
}

void TileServer::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    const Request request = queue_.front();
    queue_.pop_front();
    // The latency wait ends early on stop; the request is then abandoned (stop() counted it).
    if (wake_.wait_for(lock, options_.latency, [&] { return stopping_; })) return;
    lock.unlock();
    Result<present::Image> image =
        request.inject_failure
            ? Result<present::Image>(make_error(
                  ErrorKind::Io, MessageId::TileFetchInjectedFailure,
                  fmt::format("tile {}/{}/{}: fetch failed on purpose (failure rate {}, seed {})",
                              request.key.z, request.key.x, request.key.y, options_.failure_rate, options_.seed)))
            : provider_->produce(request.key);
    lock.lock();
    if (stopping_) return;
    if (request.inject_failure) ++injected_failures_;
    pending_.erase(request.key);
    completed_.push_back({request.key, std::move(image)});
    finished_.notify_all();
  }
}

}  // namespace warden::demo
