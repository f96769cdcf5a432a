// engine::TileLayer on the real library (GL over llvmpipe): a 4x4 view of zoom 2 drawn through
// the Engine's frame API from an immediate fetcher; the device force-lost; the engine recovers
// alone and the layer's frame loop brings the tiles back. Pixels come from real readbacks.
#include "warden/engine/tile_layer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <gmock/gmock.h>

#include "support/gpu_test.h"
#include "support/messages.h"
#include "support/tile_pictures.h"
#include "support/poll_until.h"
#include "warden/present/readback.h"
#include "warden/tiles/sizing.h"
#include "warden/gpu/objects.h"

namespace warden::engine {
namespace {

using testing::FailsWith;
using testing::Rgba;
using testing::near;
using tiles::TileKey;

constexpr uint32_t kTile = 32;
constexpr uint32_t kZoom = 2;
constexpr uint32_t kGrid = 4;                     // the view: every tile of z = 2
constexpr uint32_t kOnScreen = 32;
constexpr uint32_t kTarget = kGrid * kOnScreen;   // 128 pixels: rows of 512 bytes
constexpr uint32_t kMaxFetches = 4;
constexpr uint32_t kBudgetTiles = 24;
constexpr Rgba kClear{0, 0, 0, 255};
// The wanted set is the 16 visible tiles, the 4 of z = 1 and the root; an immediate fetcher
// answers kMaxFetches a frame, so ceil(21 / 4) frames bring them all; two frames of slack.
constexpr uint32_t kFramesToAllVisible = (21 + kMaxFetches - 1) / kMaxFetches + 2;

static_assert(kGrid == 1u << kZoom, "the view is the whole of level kZoom");
std::vector<TileKey> visible_keys() { return testing::tiles_of_level(kZoom); }
std::vector<TileKey> wanted_keys() { return testing::level_and_ancestors(kZoom); }

class ImmediateFetcher : public tiles::TileFetcher {
 public:
  void fetch(tiles::TileReply reply) override {
    reply.deliver(testing::solid_tile(testing::key_colour(reply.ticket().key), kTile));
  }
};

struct KeyLess {
  bool operator()(const TileKey& a, const TileKey& b) const { return std::tie(a.z, a.x, a.y) < std::tie(b.z, b.x, b.y); }
};

uint64_t layer_bytes() {
  return *tiles::texture_bytes(WGPUTextureFormat_RGBA8Unorm, kTile, kTile, tiles::full_mip_count(kTile, kTile), 1);
}

// The application: an engine, one tile layer, a target it draws into (in the registry too).
class TileLayerScene : public ::testing::Test {
 protected:
  void SetUp() override {
    EngineOptions options;
    options.device.backend = testing::pixel_test_backend();
    auto made = Engine::create(std::move(options));
    ASSERT_TRUE(made) << made.error().message;
    engine = std::move(*made);
    TileLayerOptions layer_options;
    layer_options.tile_size = kTile;
    layer_options.max_instances = kGrid * kGrid;
    layer_options.max_fetches_in_flight = kMaxFetches;
    layer_options.in_flight_headroom = 8;
    layer_options.label = "test tiles";
    layer_options.budget_bytes = kBudgetTiles * layer_bytes();
    auto made_layer = TileLayer::create(*engine, layer_options);
    ASSERT_TRUE(made_layer) << made_layer.error().message;
    layer = std::move(*made_layer);
    resources::Registry& reg = engine->registry();
    auto texture = reg.create_texture({.size = {kTarget, kTarget, 1},
                                       .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc,
                                       .label = "tile layer test target"});
    ASSERT_TRUE(texture) << texture.error().message;
    target = *texture;
    auto view = reg.create_texture_view(target);
    ASSERT_TRUE(view) << view.error().message;
    target_view = *view;
  }

  void TearDown() override {
    if (!engine) return;
    layer.reset();
    (void)engine->registry().destroy_texture_view(target_view);
    (void)engine->registry().destroy_texture(target);
    engine.reset();
  }

  struct Drawn {
    bool recorded = false;  // false: the engine had no device (a frame skipped)
    std::vector<std::optional<tiles::TileSource>> sources;
  };

  // One frame of the application's loop.
  Drawn frame() {
    Drawn drawn;
    engine->poll();
    auto f = engine->begin_frame();
    if (!f) return drawn;
    drawn.recorded = true;
    const std::vector<TileKey> visible = visible_keys();
    EXPECT_TRUE(layer->begin_frame({visible, 0.5, 0.5}));
    for (const TileKey& key : wanted_keys()) EXPECT_TRUE(layer->request(key));
    EXPECT_TRUE(layer->dispatch(*source));
    auto report = layer->deliver(*f);
    EXPECT_TRUE(report) << report.error().message;
    std::vector<tiles::TileInstance> instances;
    for (const TileKey& key : visible) {
      auto source = layer->draw_source(key);
      drawn.sources.push_back(source);
      if (!source) continue;
      instances.push_back(TileLayer::place(*source, static_cast<float>(key.x * kOnScreen),
                                           static_cast<float>(key.y * kOnScreen), kOnScreen, kTarget, kTarget));
    }
    EXPECT_TRUE(layer->within_budget()) << layer->cache().resident_bytes() << " > " << layer->cache().budget_bytes();
    const gpu::Procs& p = engine->procs();
    WGPURenderPassEncoder pass = gpu::begin_clear_pass(p, f->encoder(), *engine->registry().resolve(target_view),
                                                        {0, 0, 0, 1});
    auto drew = layer->draw(pass, instances);
    EXPECT_TRUE(drew) << drew.error().message;
    p.RenderPassEncoderEnd(pass);
    p.RenderPassEncoderRelease(pass);
    EXPECT_TRUE(engine->submit(std::move(*f)));
    return drawn;
  }

  // The pixel at each visible tile's centre.
  std::vector<Rgba> centres() {
    auto image = present::read_image(engine->context(), engine->registry(), target);
    EXPECT_TRUE(image) << image.error().message;
    std::vector<Rgba> out;
    for (const TileKey& key : visible_keys()) {
      Rgba c = kClear;
      const uint32_t x = key.x * kOnScreen + kOnScreen / 2, y = key.y * kOnScreen + kOnScreen / 2;
      if (image) std::memcpy(c.data(), &image->rgba[(size_t{y} * kTarget + x) * 4], 4);
      out.push_back(c);
    }
    return out;
  }

  // Each position shows exactly what draw_source named: its own tile or an ancestor (never a
  // layer's stale texels, never another tile), or the clear colour when nothing is resident.
  void expect_tiles_or_ancestors(const Drawn& drawn, uint32_t index) {
    const std::vector<Rgba> got = centres();
    const std::vector<TileKey> visible = visible_keys();
    for (size_t i = 0; i < visible.size(); ++i) {
      const Rgba expected = drawn.sources[i] ? testing::key_colour(drawn.sources[i]->drawn) : kClear;
      EXPECT_TRUE(near(got[i], expected)) << "frame " << index << ", " << tiles::to_string(visible[i]);
      if (drawn.sources[i]) {
        bool ancestor = false;
        for (std::optional<TileKey> k = visible[i]; k; k = k->parent()) ancestor = ancestor || *k == drawn.sources[i]->drawn;
        EXPECT_TRUE(ancestor) << tiles::to_string(visible[i]) << " drawn from " << tiles::to_string(drawn.sources[i]->drawn);
      }
    }
  }

  static bool all_as_themselves(const Drawn& drawn) {
    return drawn.recorded && std::all_of(drawn.sources.begin(), drawn.sources.end(),
                                         [](const auto& s) { return s.has_value() && s->levels_up == 0; });
  }

  std::unique_ptr<Engine> engine;
  std::unique_ptr<TileLayer> layer;
  TextureHandle target;
  TextureViewHandle target_view;
  ImmediateFetcher fetcher;
  tiles::TileFetcher* source = &fetcher;  // where frame() fetches from
};

TEST_F(TileLayerScene, TilesComeBackWithinTheBoundAfterAForcedLossAncestorsMeanwhileNeverGarbage) {
  ASSERT_NE(layer, nullptr);
  uint32_t cold = 0;
  for (bool all = false; !all && cold < kFramesToAllVisible + 2; ++cold) {
    const Drawn drawn = frame();
    ASSERT_TRUE(drawn.recorded);
    expect_tiles_or_ancestors(drawn, cold);
    all = all_as_themselves(drawn);
  }
  EXPECT_LE(cold, kFramesToAllVisible);
  const std::vector<Rgba> settled_before = centres();
  const TextureHandle array_before = layer->array().texture();

  ASSERT_TRUE(engine->force_device_loss("tile layer test"));
  EXPECT_THAT(engine->begin_frame(), FailsWith(MessageId::EngineDeviceLost));
  EXPECT_EQ(layer->counters().clears, 0u) << "nothing is let go of, nor heard, before the next poll()";
  engine->poll();  // lets go of the device's objects, then tells the observers (ADR 0055)
  EXPECT_EQ(layer->cache().resident_count(), 0u) << "the layer heard of the loss and let go of its tiles";
  EXPECT_EQ(layer->counters().clears, 1u);
  uint32_t skipped = 0;
  Drawn drawn = frame();
  const auto deadline = std::chrono::steady_clock::now() + testing::kSafetyNet;
  for (; !drawn.recorded && std::chrono::steady_clock::now() < deadline; drawn = frame()) {
    ++skipped;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_TRUE(drawn.recorded) << engine->message();
  EXPECT_EQ(engine->device_generation(), 2u);
  EXPECT_EQ(layer->array().texture(), array_before) << "the same handle, rebuilt";
  // Every layer free after the loss: the pool waits for nothing of the lost device.
  uint32_t after = 1;
  expect_tiles_or_ancestors(drawn, 0);
  EXPECT_TRUE(drawn.sources[0].has_value()) << "the root (nearest, coarsest) comes back in the first frame";
  for (bool all = all_as_themselves(drawn); !all && after < kFramesToAllVisible + 2; ++after) {
    drawn = frame();
    ASSERT_TRUE(drawn.recorded);
    expect_tiles_or_ancestors(drawn, after);
    EXPECT_TRUE(std::all_of(drawn.sources.begin(), drawn.sources.end(), [](const auto& s) { return s.has_value(); }))
        << "frame " << after << " after the loss shows the clear colour";
    all = all_as_themselves(drawn);
  }
  EXPECT_LE(after, kFramesToAllVisible) << "frames after recovery until every visible tile is drawn as itself";
  EXPECT_EQ(centres(), settled_before) << "the settled view after the loss is the one before it";
  EXPECT_TRUE(layer->pool().check_invariants());
  EXPECT_EQ(layer->counters().over_budget_frames, 0u);
  RecordProperty("frames_to_all_visible_after_loss", static_cast<int>(after));
  RecordProperty("frames_skipped_while_recovering", static_cast<int>(skipped));
}

// A tile server that has become slow: it counts what it is asked for and answers nothing (the
// replies fail as the test ends).
class SilentFetcher : public tiles::TileFetcher {
 public:
  void fetch(tiles::TileReply reply) override { held.push_back(std::move(reply)); }
  std::vector<tiles::TileReply> held;
};

// The whole target's pixels, RGBA.
std::vector<uint8_t> pixels(Engine& engine, TextureHandle target) {
  auto image = present::read_image(engine.context(), engine.registry(), target);
  EXPECT_TRUE(image) << image.error().message;
  return image ? image->rgba : std::vector<uint8_t>{};
}

// Pixels showing the clear colour now among those that showed the map (not the clear colour) before.
size_t newly_blank(const std::vector<uint8_t>& before, const std::vector<uint8_t>& now) {
  size_t blank = 0;
  for (size_t i = 0; i + 4 <= std::min(before.size(), now.size()); i += 4) {
    const bool was_map = !near(Rgba{before[i], before[i + 1], before[i + 2], before[i + 3]}, kClear);
    const bool is_clear = near(Rgba{now[i], now[i + 1], now[i + 2], now[i + 3]}, kClear);
    blank += was_map && is_clear;
  }
  return blank;
}

// The tile server goes silent at the loss: on the next device, the first frame drawn still
// shows the map everywhere it showed before (the tiles come from memory), and the view settles
// with nothing fetched.
TEST_F(TileLayerScene, TheFirstFrameAfterALossShowsTheMapWhereItWasFromMemoryWithNoFetch) {
  ASSERT_NE(layer, nullptr);
  for (uint32_t i = 0; i < kFramesToAllVisible; ++i) ASSERT_TRUE(frame().recorded);
  ASSERT_TRUE(all_as_themselves(frame()));
  const std::vector<uint8_t> before = pixels(*engine, target);
  ASSERT_EQ(newly_blank(std::vector<uint8_t>(before.size(), 0), before), 0u);
  SilentFetcher silent;
  source = &silent;

  ASSERT_TRUE(engine->force_device_loss("tile layer test"));
  Drawn drawn = frame();
  const auto deadline = std::chrono::steady_clock::now() + testing::kSafetyNet;
  for (; !drawn.recorded && std::chrono::steady_clock::now() < deadline; drawn = frame()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_TRUE(drawn.recorded) << engine->message();
  const std::vector<uint8_t> first = pixels(*engine, target);
  EXPECT_EQ(newly_blank(before, first), 0u) << "pixels of the first frame after the loss show the clear colour";
  expect_tiles_or_ancestors(drawn, 0);

  // Settles within ceil(16 visible / uploads per frame) frames of the first, nothing fetched.
  const uint32_t per_frame = TileLayerOptions{}.memory_uploads_per_frame;
  const uint32_t bound = (kGrid * kGrid + per_frame - 1) / per_frame;
  uint32_t frames_to_settled = 0;
  for (; !all_as_themselves(drawn) && frames_to_settled <= bound + 2; ++frames_to_settled) {
    drawn = frame();
    ASSERT_TRUE(drawn.recorded);
    expect_tiles_or_ancestors(drawn, frames_to_settled + 1);
  }
  EXPECT_LE(frames_to_settled, bound);
  EXPECT_EQ(silent.held.size(), 0u) << "tiles held in memory were fetched again";
  EXPECT_EQ(pixels(*engine, target), before) << "the settled view after the loss is the one before it";
}

// An observer told before the layer keeps a frame of the new device open, so the layer cannot
// record its own frame in device_ready: the first deliver uploads the cover into its frame
// instead, before anything else, and the first frame drawn is still not blank.
class FrameHolder : public GenerationObserver {
 public:
  explicit FrameHolder(Engine& engine) : engine_(engine) {}
  void device_lost(uint64_t) override {}
  void device_ready(uint64_t) override {
    if (auto f = engine_.begin_frame()) held.emplace(std::move(*f));
  }
  std::optional<Frame> held;

 private:
  Engine& engine_;
};

TEST_F(TileLayerScene, ACoverDeviceReadyCouldNotRecordIsUploadedByTheFirstDeliver) {
  ASSERT_NE(layer, nullptr);
  FrameHolder holder(*engine);
  struct Added {
    Engine& engine;
    GenerationObserver& observer;
    ~Added() { engine.remove_observer(observer); }
  } added{*engine, holder};
  layer.reset();
  engine->add_observer(holder);  // told before the layer, which is added after it
  TileLayerOptions options;
  options.tile_size = kTile;
  options.max_instances = kGrid * kGrid;
  options.budget_bytes = kBudgetTiles * layer_bytes();
  options.in_flight_headroom = 8;
  options.label = "after the holder";
  auto made = TileLayer::create(*engine, options);
  ASSERT_TRUE(made) << made.error().message;
  layer = std::move(*made);
  for (uint32_t i = 0; i < kFramesToAllVisible; ++i) ASSERT_TRUE(frame().recorded);
  const std::vector<uint8_t> before = pixels(*engine, target);
  SilentFetcher silent;
  source = &silent;

  ASSERT_TRUE(engine->force_device_loss());
  ASSERT_TRUE(testing::poll_until([&] { return engine->state() == EngineState::Ready; }, [&] { engine->poll(); }));
  ASSERT_TRUE(holder.held.has_value()) << "the holder's frame is open";
  EXPECT_EQ(layer->counters().restored_after_loss, 0u) << "device_ready could record nothing";
  EXPECT_FALSE(layer->cache().is_resident({0, 0, 0}));
  holder.held.reset();  // dropped unsubmitted: the application's frames may begin
  const Drawn drawn = frame();
  ASSERT_TRUE(drawn.recorded);
  EXPECT_EQ(layer->counters().restored_after_loss, 1u) << "the first deliver uploaded the root";
  EXPECT_EQ(newly_blank(before, pixels(*engine, target)), 0u);
  expect_tiles_or_ancestors(drawn, 0);
}

// Uploads per frame bound a burst: with 3 a frame the 16 visible tiles settle in ceil(16 / 3)
// frames of the first one after the loss, never more, the root covering the rest meanwhile.
TEST_F(TileLayerScene, AfterALossTheViewSettlesWithinVisibleOverUploadsPerFrameFrames) {
  ASSERT_NE(layer, nullptr);
  TileLayerOptions options;
  options.tile_size = kTile;
  options.max_instances = kGrid * kGrid;
  options.budget_bytes = kBudgetTiles * layer_bytes();
  options.in_flight_headroom = 8;
  options.memory_uploads_per_frame = 3;
  options.label = "three a frame";
  layer.reset();
  auto made = TileLayer::create(*engine, options);
  ASSERT_TRUE(made) << made.error().message;
  layer = std::move(*made);
  for (uint32_t i = 0; i < kFramesToAllVisible; ++i) ASSERT_TRUE(frame().recorded);
  SilentFetcher silent;
  source = &silent;
  ASSERT_TRUE(engine->force_device_loss());
  ASSERT_TRUE(testing::poll_until([&] { return engine->state() == EngineState::Ready; }, [&] { engine->poll(); }));
  EXPECT_EQ(layer->counters().restored_after_loss, 1u) << "the root alone covers the view";
  EXPECT_TRUE(layer->cache().is_resident({0, 0, 0})) << "the cover is resident before the first frame";
  const uint64_t memory_before = layer->counters().memory_uploads;
  uint32_t frames = 0;
  for (Drawn drawn = frame(); !all_as_themselves(drawn) && frames < 20; ++frames) {
    ASSERT_TRUE(drawn.recorded);
    EXPECT_TRUE(std::all_of(drawn.sources.begin(), drawn.sources.end(), [](const auto& s) { return s.has_value(); }));
    drawn = frame();
  }
  EXPECT_EQ(frames, (kGrid * kGrid + 2) / 3 - 1) << "3 uploads a frame: the 16th visible tile in the 6th frame";
  EXPECT_LE(frames, (kGrid * kGrid + 2) / 3);
  // Every frame used its three uploads: the visible tiles first, two ancestors in the last one.
  EXPECT_EQ(layer->counters().memory_uploads - memory_before, (frames + 1) * 3);
  EXPECT_TRUE(silent.held.empty());
}

// A tile evicted from VRAM comes back from memory: its request starts no fetch and the next
// deliver uploads it.
TEST_F(TileLayerScene, AVramEvictedTileComesBackFromMemoryWithNoFetch) {
  ASSERT_NE(layer, nullptr);
  for (uint32_t i = 0; i < kFramesToAllVisible; ++i) ASSERT_TRUE(frame().recorded);
  const TileKey evicted{kZoom, 1, 2};
  ASSERT_TRUE(layer->cache().evict(evicted));
  ASSERT_FALSE(layer->cache().is_resident(evicted));
  ASSERT_TRUE(layer->texel_cache().contains(evicted));
  SilentFetcher silent;
  source = &silent;
  const uint64_t memory_before = layer->counters().memory_uploads;
  const Drawn drawn = frame();
  EXPECT_TRUE(all_as_themselves(drawn));
  expect_tiles_or_ancestors(drawn, 0);
  EXPECT_TRUE(silent.held.empty()) << "the evicted tile was fetched again";
  EXPECT_EQ(layer->counters().memory_uploads, memory_before + 1);
  ASSERT_TRUE(layer->cache().evict(evicted));
  ASSERT_TRUE(layer->begin_frame({visible_keys(), 0.5, 0.5}));
  EXPECT_EQ(*layer->request(evicted), tiles::RequestStatus::FromMemory);
}

// The layer's memory budget bounds what it keeps, least recently requested out first; 0 keeps
// nothing and every tile not resident is fetched, as before.
TEST_F(TileLayerScene, TheMemoryCacheKeepsItsBudgetLeastRecentlyRequestedOutAndZeroIsOff) {
  ASSERT_NE(layer, nullptr);
  const uint64_t tile_bytes = uint64_t{kTile} * kTile * 4;
  TileLayerOptions options;
  options.tile_size = kTile;
  options.max_instances = kGrid * kGrid;
  options.budget_bytes = kBudgetTiles * layer_bytes();
  options.in_flight_headroom = 8;
  options.cpu_cache_budget_bytes = 5 * tile_bytes + tile_bytes / 2;  // room for 5 tiles
  options.label = "five in memory";
  layer.reset();
  auto made = TileLayer::create(*engine, options);
  ASSERT_TRUE(made) << made.error().message;
  layer = std::move(*made);
  for (uint32_t i = 0; i < kFramesToAllVisible; ++i) ASSERT_TRUE(frame().recorded);
  EXPECT_EQ(layer->texel_cache().count(), 5u);
  EXPECT_LE(layer->texel_cache().bytes(), options.cpu_cache_budget_bytes);
  EXPECT_GT(layer->texel_cache().counts().evictions, 0u);
  // A request is a use: the least recently used tile, asked for, goes to the back; the next
  // tile put then evicts the one that is now least recently used.
  const std::vector<TileKey> held = layer->texel_cache().keys_by_use();
  ASSERT_EQ(held.size(), 5u);
  auto f = engine->begin_frame();
  ASSERT_TRUE(f);
  const TileKey deeper{kZoom + 1, 0, 0};
  ASSERT_TRUE(layer->begin_frame({visible_keys(), 0.5, 0.5}));
  ASSERT_TRUE(layer->request(held[0]));
  std::vector<TileKey> expected(held.begin() + 1, held.end());
  expected.push_back(held[0]);
  EXPECT_EQ(layer->texel_cache().keys_by_use(), expected);
  ASSERT_EQ(*layer->request(deeper), tiles::RequestStatus::Queued);
  ASSERT_TRUE(layer->dispatch(fetcher));
  auto delivered = layer->deliver(*f);
  ASSERT_TRUE(delivered) << delivered.error().message;
  ASSERT_TRUE(engine->submit(std::move(*f)));
  expected.erase(expected.begin());
  expected.push_back(deeper);
  EXPECT_EQ(layer->texel_cache().keys_by_use(), expected);
  EXPECT_FALSE(layer->texel_cache().contains(held[1]));

  options.cpu_cache_budget_bytes = 0;
  options.label = "none in memory";
  layer.reset();
  made = TileLayer::create(*engine, options);
  ASSERT_TRUE(made) << made.error().message;
  layer = std::move(*made);
  for (uint32_t i = 0; i < kFramesToAllVisible; ++i) ASSERT_TRUE(frame().recorded);
  EXPECT_EQ(layer->texel_cache().count(), 0u);
  ASSERT_TRUE(layer->cache().evict(visible_keys()[0]));
  ASSERT_TRUE(layer->begin_frame({visible_keys(), 0.5, 0.5}));
  EXPECT_EQ(*layer->request(visible_keys()[0]), tiles::RequestStatus::Queued);
}

TEST_F(TileLayerScene, TilesKeptInMemoryWithNoUploadsAFrameAreAnErrorNamingBoth) {
  ASSERT_NE(layer, nullptr);
  TileLayerOptions stuck;
  stuck.tile_size = kTile;
  stuck.budget_bytes = 4 * layer_bytes();
  stuck.cpu_cache_budget_bytes = 1 << 20;
  stuck.memory_uploads_per_frame = 0;
  stuck.label = "stuck";
  auto made = TileLayer::create(*engine, stuck);
  ASSERT_THAT(made, FailsWith(MessageId::TileLayerNoMemoryUploads));
  EXPECT_EQ(made.error().kind, ErrorKind::InvalidArgument);
  EXPECT_THAT(made.error().message, ::testing::HasSubstr("tile layer \"stuck\": memory_uploads_per_frame is 0 while 1048576 bytes"));
  stuck.cpu_cache_budget_bytes = 0;  // nothing kept in memory: nothing to upload from it
  EXPECT_TRUE(TileLayer::create(*engine, stuck));
}

// A budget much smaller than the view: tiles are evicted every frame, and resident bytes never
// pass the budget, before or after a loss.
TEST_F(TileLayerScene, TheBudgetHoldsUnderPressureAcrossALoss) {
  ASSERT_NE(layer, nullptr);
  TileLayerOptions small;
  small.tile_size = kTile;
  small.budget_bytes = 6 * layer->cache().layer_bytes();
  small.max_instances = kGrid * kGrid;
  small.max_fetches_in_flight = kMaxFetches;
  small.in_flight_headroom = 4;
  small.label = "small tiles";
  layer.reset();
  auto made = TileLayer::create(*engine, small);
  ASSERT_TRUE(made) << made.error().message;
  layer = std::move(*made);
  for (int i = 0; i < 12; ++i) ASSERT_TRUE(frame().recorded);  // frame() checks the budget
  EXPECT_EQ(layer->cache().resident_count(), 6u);
  ASSERT_TRUE(engine->force_device_loss());
  ASSERT_TRUE(testing::poll_until([&] { return engine->state() == EngineState::Ready; }, [&] { engine->poll(); }));
  for (int i = 0; i < 12; ++i) ASSERT_TRUE(frame().recorded);
  EXPECT_EQ(layer->cache().resident_count(), 6u);
  EXPECT_EQ(layer->counters().over_budget_frames, 0u);
  EXPECT_TRUE(layer->pool().check_invariants());
}

TEST_F(TileLayerScene, ABudgetBelowOneLayerIsAnErrorNamingBoth) {
  ASSERT_NE(layer, nullptr);
  TileLayerOptions tiny;
  tiny.tile_size = kTile;
  tiny.budget_bytes = 100;
  tiny.label = "tiny";
  auto made = TileLayer::create(*engine, tiny);
  ASSERT_THAT(made, FailsWith(MessageId::TileLayerBudgetBelowLayer));
  EXPECT_EQ(made.error().kind, ErrorKind::InvalidArgument);
  EXPECT_NE(made.error().message.find("tile layer \"tiny\": a budget of 100 bytes is below one tile layer"),
            std::string::npos)
      << made.error().message;
}

// A driver reset the engine hears of only when a diagnostics sink polls it from inside deliver
// (a failed fetch is reported there): the cache cannot clear inside its own call, so the layer
// clears as deliver returns, and nothing of the lost device stays resident or is drawn.
class FailingFetcher : public tiles::TileFetcher {
 public:
  void fetch(tiles::TileReply reply) override {
    reply.fail(make_error(ErrorKind::NotFound, MessageId::Application, "no such tile"));
  }
};

TEST_F(TileLayerScene, ALossHeardInsideDeliverLeavesNoTileOfTheLostDeviceResident) {
  ASSERT_NE(layer, nullptr);
  for (uint32_t i = 0; i < kFramesToAllVisible; ++i) ASSERT_TRUE(frame().recorded);
  ASSERT_GT(layer->cache().resident_count(), 0u);
  engine->procs().DeviceForceLoss(engine->device(), WGPUDeviceLostReason_Unknown, gpu::string_view("driver reset"));
  bool polled_inside = false;
  Engine* e = engine.get();
  engine->diagnostics().set_sink([&](const Diagnostic& d) {
    // The failed fetch's report (under its own id, the fetcher's), made inside deliver.
    if (d.id != MessageId::Application || polled_inside) return;
    polled_inside = true;
    e->poll();  // the reset is heard here, inside deliver
  });
  auto f = engine->begin_frame();
  ASSERT_TRUE(f.ok());
  const std::vector<TileKey> deeper = testing::tiles_of_level(kZoom + 1);
  ASSERT_TRUE(layer->begin_frame({deeper, 0.5, 0.5}));
  ASSERT_TRUE(layer->request(deeper[0]));
  FailingFetcher failing;
  ASSERT_TRUE(layer->dispatch(failing));
  auto report = layer->deliver(*f);
  engine->diagnostics().set_sink({});
  ASSERT_TRUE(polled_inside) << "the failed fetch was not reported inside deliver";
  EXPECT_EQ(engine->state(), EngineState::Recovering);
  EXPECT_EQ(layer->cache().resident_count(), 0u) << "tiles of the lost device stayed resident";
  EXPECT_EQ(layer->counters().clears, 1u);
  for (const TileKey& key : visible_keys()) EXPECT_FALSE(layer->draw_source(key).has_value()) << tiles::to_string(key);
  ASSERT_TRUE(testing::poll_until([&] { return engine->state() == EngineState::Ready; }, [&] { engine->poll(); }));
  EXPECT_TRUE(layer->pool().check_invariants());
}

TEST_F(TileLayerScene, AHeadroomAboveTheDevicesLayerCountIsNamedWithoutAnUnderflowedBudget) {
  ASSERT_NE(layer, nullptr);
  WGPULimits limits{};
  engine->procs().DeviceGetLimits(engine->device(), &limits);
  TileLayerOptions greedy;
  greedy.tile_size = kTile;
  greedy.budget_bytes = 4 * layer_bytes();
  greedy.in_flight_headroom = limits.maxTextureArrayLayers + 5;
  greedy.label = "greedy";
  auto made = TileLayer::create(*engine, greedy);
  ASSERT_THAT(made, FailsWith(MessageId::TileLayerHeadroomTooLarge));
  EXPECT_THAT(made.error().message, ::testing::HasSubstr("must be below " + std::to_string(limits.maxTextureArrayLayers)));
  // Just too many layers: the budget it suggests fits the device.
  greedy.in_flight_headroom = limits.maxTextureArrayLayers - 2;
  made = TileLayer::create(*engine, greedy);
  ASSERT_THAT(made, FailsWith(MessageId::TileLayerTooManyLayers));
  EXPECT_THAT(made.error().message, ::testing::HasSubstr("at most " + std::to_string(2 * layer_bytes()) + " bytes fits"));
}

TEST_F(TileLayerScene, ALayerThatOutlivesItsEngineLetsGoWithItAndRefusesCalls) {
  ASSERT_NE(layer, nullptr);
  for (uint32_t i = 0; i < 3; ++i) ASSERT_TRUE(frame().recorded);
  std::vector<std::string> leaks;
  engine->diagnostics().set_sink([&](const Diagnostic& d) {
    if (d.id == MessageId::ResourcesLeakedAtShutdown) leaks.push_back(d.message);
  });
  (void)engine->registry().destroy_texture_view(target_view);
  (void)engine->registry().destroy_texture(target);
  engine.reset();  // the layer is still alive
  EXPECT_THAT(leaks, ::testing::IsEmpty()) << "the layer's objects went with the engine";
  EXPECT_THAT(layer->begin_frame({visible_keys(), 0.5, 0.5}), FailsWith(MessageId::TileLayerEngineGone));
  EXPECT_THAT(layer->request(visible_keys()[0]), FailsWith(MessageId::TileLayerEngineGone));
  EXPECT_FALSE(layer->draw_source(visible_keys()[0]).has_value());
  layer.reset();  // after its engine: nothing of the engine is touched
}

}  // namespace
}  // namespace warden::engine
