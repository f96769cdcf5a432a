// Scenario: the tile frame streaming fetched tiles through an engine::TileLayer, their level 0
// written on the frame thread (TileLayerOptions::upload_threads = 0, today's deliver) against 4
// upload threads, in one run on one device.
// A pan over zoom 10: 8 x 8 visible tiles of 256 x 256 RGBA8 with full mip chains, the view one
// column further every two frames (4 new tiles a frame). A fetcher thread of its own answers
// every fetch with a copy of a prepared image (the stand-in for a decode), so no fetch or decode
// work falls on the frame thread in either run; tiles kept in memory are off
// (cpu_cache_budget_bytes 0), so every upload is a fetched tile. At most two frames in flight,
// learned by polling.
// Prints: tile_upload_frame_thread_us_threads_{0,4}: the frame thread's time in the layer's
// frame calls (begin_frame, request, dispatch, deliver) per tile made resident over the
// measured frames: what the frame thread pays per uploaded tile; their ratio
// tile_upload_frame_thread_threads_4_over_0 (below 1: the threads take work off the frame
// thread); tile_upload_threads_frame_ms_{0,4} (mean frame, draw and submit included) and
// tile_upload_threads_tiles_{0,4} (tiles made resident while measured), for the record; and
// tile_upload_threads_backend.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench_support.h"
#include "warden/engine/engine.h"
#include "warden/engine/tile_layer.h"
#include "warden/gpu/objects.h"
#include "warden/tiles/sizing.h"

namespace {

using namespace warden;
using tiles::TileKey;
using Clock = std::chrono::steady_clock;

constexpr uint32_t kTile = 256;
constexpr uint32_t kGrid = 8;
constexpr uint32_t kZoom = 10;
constexpr uint32_t kTargetSize = 128;  // small: the frame's CPU cost, not llvmpipe's fill rate
constexpr uint32_t kThreads = 4;
constexpr int kWarmupFrames = 12;
constexpr int kMeasuredFrames = 120;

// Answers fetches on a thread of its own with a copy of one of a few prepared images.
class FetcherThread final : public tiles::TileFetcher {
 public:
  FetcherThread() : images_(make_images()), thread_([this] { run(); }) {}
  ~FetcherThread() override {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  FetcherThread(const FetcherThread&) = delete;
  FetcherThread& operator=(const FetcherThread&) = delete;

  void fetch(tiles::TileReply reply) override {
    {
      std::lock_guard lock(mutex_);
      replies_.push_back(std::move(reply));
    }
    wake_.notify_one();
  }

 private:
  static std::vector<std::vector<uint8_t>> make_images() {
    std::vector<std::vector<uint8_t>> images;
    for (uint32_t i = 0; i < 4; ++i) {
      std::vector<uint8_t> t(size_t{kTile} * kTile * 4);
      for (uint32_t y = 0; y < kTile; ++y) {
        for (uint32_t x = 0; x < kTile; ++x) {
          uint8_t* px = &t[(size_t{y} * kTile + x) * 4];
          px[0] = static_cast<uint8_t>(x + i * 31);
          px[1] = static_cast<uint8_t>(y + i * 57);
          px[2] = static_cast<uint8_t>(((x / 32 + y / 32 + i) % 2) * 255);
          px[3] = 255;
        }
      }
      images.push_back(std::move(t));
    }
    return images;
  }
  void run() {
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stopping_ || !replies_.empty(); });
      if (stopping_) return;
      tiles::TileReply reply = std::move(replies_.front());
      replies_.pop_front();
      lock.unlock();
      const TileKey key = reply.ticket().key;
      reply.deliver(images_[(key.x * 3 + key.y) % images_.size()]);
      lock.lock();
    }
  }

  const std::vector<std::vector<uint8_t>> images_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<tiles::TileReply> replies_;
  bool stopping_ = false;
  std::thread thread_;
};

struct Measured {
  double frame_thread_us_per_tile = 0;
  double frame_ms = 0;
  uint64_t tiles = 0;
};

Result<Measured> run(engine::Engine& engine, TextureViewHandle target, uint32_t upload_threads) {
  auto layer_bytes = tiles::texture_bytes(WGPUTextureFormat_RGBA8Unorm, kTile, kTile, tiles::full_mip_count(kTile, kTile), 1);
  if (!layer_bytes) return layer_bytes.error();
  engine::TileLayerOptions options;
  options.tile_size = kTile;
  options.budget_bytes = 2 * kGrid * kGrid * *layer_bytes;
  options.max_instances = kGrid * kGrid;
  options.max_fetches_in_flight = 16;
  options.cpu_cache_budget_bytes = 0;
  options.upload_threads = upload_threads;
  options.label = fmt::format("tile upload threads {}", upload_threads);
  auto made = engine::TileLayer::create(engine, options);
  if (!made) return made.error();
  engine::TileLayer& layer = **made;
  FetcherThread fetcher;
  const gpu::Procs& p = engine.procs();

  double tile_calls_s = 0, frames_s = 0;
  uint64_t tiles_at_start = 0;
  for (int frame = 0; frame < kWarmupFrames + kMeasuredFrames; ++frame) {
    if (frame == kWarmupFrames) tiles_at_start = layer.counters().tiles_uploaded;
    const bool measured = frame >= kWarmupFrames;
    // At most two frames in flight, without blocking.
    engine.poll();
    while (engine.registry().clock().in_flight() > 2) engine.poll();
    const auto frame_start = Clock::now();
    auto f = engine.begin_frame();
    if (!f) return f.error();
    const uint32_t column = static_cast<uint32_t>(frame / 2);
    std::vector<TileKey> visible;
    for (uint32_t y = 0; y < kGrid; ++y) {
      for (uint32_t x = column; x < column + kGrid; ++x) visible.push_back({kZoom, x, y});
    }
    const double tiles_across = static_cast<double>(1u << kZoom);
    const auto calls_start = Clock::now();
    if (auto begun = layer.begin_frame({visible, (column + kGrid / 2.0) / tiles_across, kGrid / 2.0 / tiles_across});
        !begun) {
      return begun.error();
    }
    for (const TileKey& key : visible) {
      if (auto requested = layer.request(key); !requested) return requested.error();
    }
    if (auto dispatched = layer.dispatch(fetcher); !dispatched) return dispatched.error();
    auto delivered = layer.deliver(*f);
    if (!delivered) return delivered.error();
    if (!delivered->failed.empty()) return delivered->failed.front().second;
    const auto calls_end = Clock::now();
    std::vector<tiles::TileInstance> instances;
    for (uint32_t i = 0; i < visible.size(); ++i) {
      auto source = layer.draw_source(visible[i]);
      if (!source) continue;
      const float cell = static_cast<float>(kTargetSize) / kGrid;
      instances.push_back(engine::TileLayer::place(*source, static_cast<float>(i % kGrid) * cell,
                                                   static_cast<float>(i / kGrid) * cell, cell, kTargetSize, kTargetSize));
    }
    auto view = engine.registry().resolve(target);
    if (!view) return view.error();
    WGPURenderPassEncoder pass = gpu::begin_clear_pass(p, f->encoder(), *view, {0, 0, 0, 1});
    auto drawn = layer.draw(pass, instances);
    p.RenderPassEncoderEnd(pass);
    p.RenderPassEncoderRelease(pass);
    if (!drawn) return drawn.error();
    if (auto submitted = engine.submit(std::move(*f)); !submitted) return submitted.error();
    if (measured) {
      tile_calls_s += std::chrono::duration<double>(calls_end - calls_start).count();
      frames_s += std::chrono::duration<double>(Clock::now() - frame_start).count();
    }
  }
  Measured m;
  m.tiles = layer.counters().tiles_uploaded - tiles_at_start;
  m.frame_thread_us_per_tile = m.tiles > 0 ? tile_calls_s * 1e6 / static_cast<double>(m.tiles) : 0;
  m.frame_ms = frames_s * 1e3 / kMeasuredFrames;
  return m;
}

}  // namespace

int main() {
  auto backend = bench::requested_backend();
  if (!backend) return bench::exit_for("tile_upload_threads_scenario", backend.error());
  engine::EngineOptions options;
  options.device.backend = *backend;
  options.device.label = "tile upload threads scenario";
  auto made = engine::Engine::create(std::move(options));
  if (!made) return bench::exit_for("tile_upload_threads_scenario", made.error());
  engine::Engine& engine = **made;
  auto texture = engine.registry().create_texture({.size = {kTargetSize, kTargetSize, 1},
                                                   .usage = WGPUTextureUsage_RenderAttachment,
                                                   .label = "tile upload threads target"});
  if (!texture) return bench::exit_for("tile_upload_threads_scenario", texture.error());
  auto view = engine.registry().create_texture_view(*texture);
  if (!view) return bench::exit_for("tile_upload_threads_scenario", view.error());

  nlohmann::json out;
  double per_tile[2] = {};
  int index = 0;
  for (uint32_t threads : {0u, kThreads}) {
    auto m = run(engine, *view, threads);
    if (!m) return bench::exit_for("tile_upload_threads_scenario", m.error());
    per_tile[index++] = m->frame_thread_us_per_tile;
    out[fmt::format("tile_upload_frame_thread_us_threads_{}", threads)] = m->frame_thread_us_per_tile;
    out[fmt::format("tile_upload_threads_frame_ms_{}", threads)] = m->frame_ms;
    out[fmt::format("tile_upload_threads_tiles_{}", threads)] = m->tiles;
    fmt::print(stderr, "tile_upload_threads_scenario: {} upload threads: {:.1f} us of the frame thread per tile, {} tiles, "
               "{:.2f} ms a frame\n", threads, m->frame_thread_us_per_tile, m->tiles, m->frame_ms);
  }
  if (per_tile[0] > 0) out[fmt::format("tile_upload_frame_thread_threads_{}_over_0", kThreads)] = per_tile[1] / per_tile[0];
  out["tile_upload_threads_backend"] = gpu::to_string(engine.backend());
  (void)engine.registry().destroy_texture_view(*view);
  (void)engine.registry().destroy_texture(*texture);
  fmt::print("{}\n", out.dump());
  return 0;
}
