// engine::TileLayer with upload threads (TileLayerOptions::upload_threads) on the real library
// (GL over llvmpipe; WARDEN_TEST_BACKEND=vulkan on a GPU machine): fetched tiles are handed off,
// written into their layers (by the threads; on GL by the frame thread at hand-off, ADR 0043)
// and published by a later deliver(). The pictures are the frame-thread uploads' pictures; a
// loss while writes are handed off publishes none of them and leaves nothing blank. Pixels come
// from real readbacks.
#include "warden/engine/tile_layer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include <gmock/gmock.h>

#include "support/gpu_test.h"
#include "support/messages.h"
#include "support/poll_until.h"
#include "support/tile_pictures.h"
#include "warden/gpu/objects.h"
#include "warden/present/readback.h"
#include "warden/tiles/sizing.h"

namespace warden::engine {
namespace {

using testing::FailsWith;
using testing::Rgba;
using testing::near;
using tiles::TileKey;

constexpr uint32_t kThreadedTile = 32;
constexpr uint32_t kCells = 4;  // the view: 4 x 4 positions
constexpr uint32_t kCellPixels = 32;
constexpr uint32_t kThreadedTarget = kCells * kCellPixels;
constexpr uint32_t kUploadThreads = 4;
constexpr Rgba kNothingDrawn{0, 0, 0, 255};

// A view of 4 x 4 tiles: all of zoom 2, or the north-west quarter of zoom 3 (whose ancestors
// are the north-west tiles of zoom 2).
struct View {
  uint32_t z = 2;
  std::vector<TileKey> visible() const {
    std::vector<TileKey> keys;
    for (uint32_t y = 0; y < kCells; ++y) {
      for (uint32_t x = 0; x < kCells; ++x) keys.push_back({z, x, y});
    }
    return keys;
  }
  // The visible tiles and every ancestor that stands in for them.
  std::vector<TileKey> wanted() const {
    std::vector<TileKey> keys = visible();
    for (size_t i = 0; i < keys.size(); ++i) {
      if (auto parent = keys[i].parent(); parent && std::find(keys.begin(), keys.end(), *parent) == keys.end()) {
        keys.push_back(*parent);
      }
    }
    return keys;
  }
  double centre() const { return kCells / 2.0 / static_cast<double>(1u << z); }
};

class AnswerAtOnce : public tiles::TileFetcher {
 public:
  void fetch(tiles::TileReply reply) override {
    reply.deliver(testing::solid_tile(testing::key_colour(reply.ticket().key), kThreadedTile));
  }
};

uint64_t one_layer_bytes() {
  return *tiles::texture_bytes(WGPUTextureFormat_RGBA8Unorm, kThreadedTile, kThreadedTile,
                               tiles::full_mip_count(kThreadedTile, kThreadedTile), 1);
}

// Pixels showing black now that showed the map before.
size_t blank_where_the_map_was(const std::vector<uint8_t>& before, const std::vector<uint8_t>& now) {
  size_t blank = 0;
  for (size_t i = 0; i + 4 <= std::min(before.size(), now.size()); i += 4) {
    const bool was_map = !near(Rgba{before[i], before[i + 1], before[i + 2], before[i + 3]}, kNothingDrawn);
    const bool is_black = near(Rgba{now[i], now[i + 1], now[i + 2], now[i + 3]}, kNothingDrawn);
    blank += was_map && is_black;
  }
  return blank;
}

class UploadThreadsScene : public ::testing::Test {
 protected:
  // GL by default: pixels read back. The Null device has none to read, but its queue may be
  // written from several threads, so there the threads themselves write.
  virtual gpu::BackendChoice backend() const { return testing::pixel_test_backend(); }
  bool has_pixels() const { return backend() != gpu::BackendChoice::Null; }

  void SetUp() override {
    EngineOptions options;
    options.device.backend = backend();
    auto made = Engine::create(std::move(options));
    ASSERT_TRUE(made) << made.error().message;
    engine = std::move(*made);
    auto texture = engine->registry().create_texture({.size = {kThreadedTarget, kThreadedTarget, 1},
                                                      .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc,
                                                      .label = "upload threads test target"});
    ASSERT_TRUE(texture) << texture.error().message;
    target = *texture;
    auto view = engine->registry().create_texture_view(target);
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

  Result<std::unique_ptr<TileLayer>> make_layer(uint32_t upload_threads) {
    TileLayerOptions options;
    options.tile_size = kThreadedTile;
    options.max_instances = kCells * kCells;
    options.max_fetches_in_flight = 4;
    options.in_flight_headroom = 8;
    options.budget_bytes = 32 * one_layer_bytes();
    options.upload_threads = upload_threads;
    options.label = "upload threads test";
    return TileLayer::create(*engine, options);
  }

  struct Drawn {
    bool recorded = false;  // false: the engine had no device
    std::vector<std::optional<tiles::TileSource>> sources;
    tiles::DeliverReport report;
  };

  Drawn frame(const View& view) {
    Drawn drawn;
    engine->poll();
    auto f = engine->begin_frame();
    if (!f) return drawn;
    drawn.recorded = true;
    const std::vector<TileKey> visible = view.visible();
    EXPECT_TRUE(layer->begin_frame({visible, view.centre(), view.centre()}));
    for (const TileKey& key : view.wanted()) EXPECT_TRUE(layer->request(key));
    EXPECT_TRUE(layer->dispatch(fetcher));
    auto report = layer->deliver(*f);
    EXPECT_TRUE(report) << report.error().message;
    if (report) drawn.report = *report;
    std::vector<tiles::TileInstance> instances;
    for (size_t i = 0; i < visible.size(); ++i) {
      auto source = layer->draw_source(visible[i]);
      drawn.sources.push_back(source);
      if (!source) continue;
      instances.push_back(TileLayer::place(*source, static_cast<float>(i % kCells * kCellPixels),
                                           static_cast<float>(i / kCells * kCellPixels), kCellPixels, kThreadedTarget,
                                           kThreadedTarget));
    }
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

  std::vector<uint8_t> pixels() {
    auto image = present::read_image(engine->context(), engine->registry(), target);
    EXPECT_TRUE(image) << image.error().message;
    return image ? image->rgba : std::vector<uint8_t>{};
  }

  // Each position shows what draw_source named (its tile or an ancestor, never a layer still
  // being written, never another tile's texels), or black when nothing is resident.
  void expect_named_tiles(const Drawn& drawn, const View& view, const std::vector<uint8_t>& image, uint32_t index) {
    const std::vector<TileKey> visible = view.visible();
    ASSERT_EQ(image.size(), size_t{kThreadedTarget} * kThreadedTarget * 4);
    for (size_t i = 0; i < visible.size(); ++i) {
      const size_t x = i % kCells * kCellPixels + kCellPixels / 2, y = i / kCells * kCellPixels + kCellPixels / 2;
      Rgba got;
      std::memcpy(got.data(), &image[(y * kThreadedTarget + x) * 4], 4);
      const Rgba expected = drawn.sources[i] ? testing::key_colour(drawn.sources[i]->drawn) : kNothingDrawn;
      EXPECT_TRUE(near(got, expected)) << "frame " << index << ", " << tiles::to_string(visible[i]) << ": "
                                       << testing::show(got) << ", expected " << testing::show(expected);
    }
  }

  static bool all_as_themselves(const Drawn& drawn) {
    return drawn.recorded && std::all_of(drawn.sources.begin(), drawn.sources.end(),
                                         [](const auto& s) { return s.has_value() && s->levels_up == 0; });
  }

  // Frames of `view` until every position draws its own tile; each frame's pixels checked.
  // The upload threads finish in their own time, so frames are paced by a millisecond.
  std::vector<uint8_t> settle(const View& view) {
    const auto deadline = std::chrono::steady_clock::now() + testing::kSafetyNet;
    for (uint32_t index = 0; std::chrono::steady_clock::now() < deadline; ++index) {
      const Drawn drawn = frame(view);
      if (!drawn.recorded) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        continue;
      }
      std::vector<uint8_t> image = has_pixels() ? pixels() : std::vector<uint8_t>{};
      if (has_pixels()) expect_named_tiles(drawn, view, image, index);
      if (all_as_themselves(drawn)) return image;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ADD_FAILURE() << "the view never settled";
    return {};
  }

  // Zoom 2 settled, then zoom 3 asked for: its tiles are handed off, and the device is lost
  // before any is published. None of them is ever published; on the next device the first
  // frame shows the map wherever it did before (from memory) and the view settles again.
  void lose_while_handed_off() {
    settle(View{2});
    const Drawn zooming = frame(View{3});
    ASSERT_TRUE(zooming.recorded);
    ASSERT_GT(zooming.report.handed_off, 0u);
    const std::vector<uint8_t> before = has_pixels() ? pixels() : std::vector<uint8_t>{};
    if (has_pixels()) expect_named_tiles(zooming, View{3}, before, 0);
    const size_t handed_off = layer->uploads_in_progress();
    ASSERT_EQ(handed_off, zooming.report.handed_off) << "none published yet, none from before";

    ASSERT_TRUE(engine->force_device_loss("upload threads test"));
    EXPECT_THAT(engine->begin_frame(), FailsWith(MessageId::EngineDeviceLost));
    engine->poll();  // lets go of the device's objects, then tells the layer (ADR 0055)
    EXPECT_EQ(layer->cache().resident_count(), 0u);
    Drawn drawn = frame(View{3});
    const auto deadline = std::chrono::steady_clock::now() + testing::kSafetyNet;
    for (; !drawn.recorded && std::chrono::steady_clock::now() < deadline; drawn = frame(View{3})) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ASSERT_TRUE(drawn.recorded) << engine->message();
    EXPECT_EQ(engine->device_generation(), 2u);
    if (has_pixels()) {
      const std::vector<uint8_t> first = pixels();
      expect_named_tiles(drawn, View{3}, first, 1);
      EXPECT_EQ(blank_where_the_map_was(before, first), 0u)
          << "pixels of the first frame after the loss show black where the map was";
    }
    // Zoom 3's tiles fetched again this frame are published by a later deliver: one drawn now
    // could only be a write handed off on the lost device.
    for (const auto& source : drawn.sources) {
      ASSERT_TRUE(source.has_value()) << "a position the map covered before the loss is blank";
      EXPECT_LT(source->drawn.z, 3u) << tiles::to_string(source->drawn) << " published from before the loss";
    }

    settle(View{3});
    // The dropped writes' threads may still be returning them: frames until all are back.
    EXPECT_TRUE(testing::poll_until([&] { return layer->uploads_in_progress() == 0; }, [&] { (void)frame(View{3}); }));
    EXPECT_EQ(layer->counters().stale_uploads, handed_off) << "every write handed off before the loss was dropped unpublished";
    EXPECT_EQ(layer->counters().fetch_failures, 0u);
    EXPECT_EQ(layer->pool().allocated_count(), layer->cache().resident_count())
        << "the layers of the dropped writes went back to the pool";
    EXPECT_TRUE(layer->pool().check_invariants());
  }

  std::unique_ptr<Engine> engine;
  std::unique_ptr<TileLayer> layer;
  TextureHandle target;
  TextureViewHandle target_view;
  AnswerAtOnce fetcher;
};

TEST_F(UploadThreadsScene, TilesHandedToUploadThreadsDrawTheFrameThreadsPixels) {
  std::vector<std::vector<uint8_t>> settled;
  for (const View& view : {View{2}, View{3}}) {
    for (uint32_t threads : {0u, kUploadThreads}) {
      auto made = make_layer(threads);
      ASSERT_TRUE(made) << made.error().message;
      layer = std::move(*made);
      const bool gl = engine->backend() == WGPUBackendType_OpenGL || engine->backend() == WGPUBackendType_OpenGLES;
      EXPECT_EQ(layer->uploads_on_threads(), threads > 0 && !gl) << "GL's writes stay on the frame thread";
      settled.push_back(settle(view));
      const TileLayerCounters& counters = layer->counters();
      const uint64_t wanted = view.wanted().size();
      if (threads == 0) {
        EXPECT_EQ(counters.uploads_handed_off, 0u);
      } else {
        EXPECT_EQ(counters.uploads_handed_off, wanted) << "every fetched tile went through the upload threads";
      }
      EXPECT_EQ(counters.tiles_uploaded, wanted);
      EXPECT_EQ(counters.fetch_failures, 0u);
      EXPECT_EQ(layer->cache().resident_count(), wanted);
      EXPECT_EQ(layer->texel_cache().count(), wanted) << "published tiles' texels are kept in memory";
      EXPECT_EQ(layer->uploads_in_progress(), 0u);
      EXPECT_TRUE(layer->pool().check_invariants());
      layer.reset();
    }
  }
  ASSERT_EQ(settled.size(), 4u);
  EXPECT_EQ(blank_where_the_map_was(settled[0], settled[0]), 0u) << "the settled view is the map everywhere";
  EXPECT_EQ(settled[1], settled[0]) << "zoom 2: upload threads drew other pixels than frame-thread uploads";
  EXPECT_EQ(settled[3], settled[2]) << "zoom 3: upload threads drew other pixels than frame-thread uploads";
}

TEST_F(UploadThreadsScene, ALossWhileWritesAreHandedOffPublishesNoneOfThemAndLeavesNothingBlank) {
  auto made = make_layer(kUploadThreads);
  ASSERT_TRUE(made) << made.error().message;
  layer = std::move(*made);
  lose_while_handed_off();
}

TEST_F(UploadThreadsScene, ALayerDestroyedWithWritesHandedOffLetsGoOfEverything) {
  auto made = make_layer(kUploadThreads);
  ASSERT_TRUE(made) << made.error().message;
  layer = std::move(*made);
  const Drawn drawn = frame(View{2});
  ASSERT_TRUE(drawn.recorded);
  EXPECT_GT(layer->uploads_in_progress(), 0u);
  // The threads are joined and their writes' references released here; the reference ledger
  // checks at the end of the test that nothing of Dawn's is left.
  layer.reset();
  engine->poll();
}

// The same on the Null device, where the upload threads write while the frame thread records
// and submits (no pixels to read there): the threads' writes publish every tile, a loss drops
// every write handed off before it, and nothing of Dawn's is left behind (the ledger checks).
class UploadThreadsOnNull : public UploadThreadsScene {
 protected:
  gpu::BackendChoice backend() const override { return gpu::BackendChoice::Null; }
};

TEST_F(UploadThreadsOnNull, TheThreadsWriteEveryTileAndALossDropsTheWritesHandedOffBeforeIt) {
  auto made = make_layer(kUploadThreads);
  ASSERT_TRUE(made) << made.error().message;
  layer = std::move(*made);
  ASSERT_TRUE(layer->uploads_on_threads());
  settle(View{2});
  EXPECT_EQ(layer->counters().uploads_handed_off, View{2}.wanted().size());
  EXPECT_EQ(layer->counters().tiles_uploaded, View{2}.wanted().size());
  lose_while_handed_off();
}

TEST(TileLayerUploadThreads, AreRefusedOnADeviceWithoutImplicitSynchronization) {
  EngineOptions options;
  options.device.backend = testing::pixel_test_backend();
  options.hot_reload = false;  // the only reason the engine asks for the feature
  auto engine = Engine::create(std::move(options));
  ASSERT_TRUE(engine) << engine.error().message;
  ASSERT_FALSE((*engine)->procs().DeviceHasFeature((*engine)->device(), WGPUFeatureName_ImplicitDeviceSynchronization));
  TileLayerOptions layer_options;
  layer_options.tile_size = kThreadedTile;
  layer_options.budget_bytes = 8 * one_layer_bytes();
  layer_options.upload_threads = 2;
  EXPECT_THAT(TileLayer::create(**engine, layer_options), FailsWith(MessageId::TileLayerUploadThreadsNeedImplicitSync));
  layer_options.upload_threads = 0;
  EXPECT_TRUE(TileLayer::create(**engine, layer_options)) << "without upload threads the layer needs no such device";
}

}  // namespace
}  // namespace warden::engine
