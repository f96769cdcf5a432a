// Tiles across a device loss (issue 11, "Tiles in custody"): a tile layer set up through the
// Registry (pool, cache, array, mips, renderer) draws the visible tiles of a deterministic
// fetcher; the device is force-lost, the registry rebuilt on a second device, the cache cleared,
// and the frames go on as before. Pixels come from real readbacks (GL over llvmpipe); the
// repeated-loss test runs on the Null backend.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "support/gpu_test.h"
#include "support/messages.h"
#include "support/tile_pictures.h"
#include "support/poll_until.h"
#include "warden/resources/registry.h"
#include "warden/tiles/tile_cache.h"
#include "warden/tiles/tile_gpu.h"
#include "warden/gpu/ledger.h"
#include "warden/gpu/objects.h"

namespace warden::tiles {
namespace {

using testing::FailsWith;
using testing::near;
using testing::Rgba;
using testing::show;
using testing::TestDevice;

constexpr uint32_t kLossTile = 32;    // 6 mip levels
constexpr uint32_t kZoom = 2;     // the view shows the whole of z = 2: 4 x 4 tiles
constexpr uint32_t kGrid = 4;
constexpr uint32_t kOnScreen = 32;              // target pixels per tile
constexpr uint32_t kLossTarget = kGrid * kOnScreen;  // 128 x 4 bytes a row: a multiple of 256
constexpr uint32_t kMaxFetches = 4;
constexpr uint32_t kLayers = 32;
constexpr uint64_t kBudgetTiles = 24;
constexpr Rgba kClear{0, 0, 0, 255};

// A colour no other tile of the pyramid's top three levels has.
std::vector<uint8_t> solid_loss_tile(Rgba c) { return testing::solid_tile(c, kLossTile); }

static_assert(kGrid == 1u << kZoom, "the view is the whole of level kZoom");
std::vector<TileKey> visible_keys() { return testing::tiles_of_level(kZoom); }
// The visible tiles and every ancestor: what the application asks for, so that a coarse tile
// stands in while the fine ones arrive.
std::vector<TileKey> wanted_keys() { return testing::level_and_ancestors(kZoom); }

double distance_to_centre(const TileKey& k) {
  const double side = std::ldexp(1.0, -static_cast<int>(k.z));
  return std::hypot((k.x + 0.5) * side - 0.5, (k.y + 0.5) * side - 0.5);
}

// Answers every fetch at once, on the frame thread, with its tile's colour.
class ImmediateFetcher : public TileFetcher {
 public:
  void fetch(TileReply reply) override {
    ++fetches;
    reply.deliver(solid_loss_tile(testing::key_colour(reply.ticket().key)));
  }
  uint32_t fetches = 0;
};

// What one frame drew at each visible position.
struct FrameResult {
  std::vector<std::optional<TileSource>> sources;  // [visible index]
  std::vector<Rgba> centres;                       // [visible index]: the pixel at its centre (GL only)
  uint32_t loaded = 0;
};

// One tile layer, set up through the Registry as an application (the Engine) holds it. The
// target it draws into is in the registry too.
class TileLayer {
 public:
  explicit TileLayer(resources::Registry& registry, MipPath mip_path = MipPath::InArray)
      : registry_(registry), mip_path_(mip_path) {}

  void build() {
    auto mips = MipGenerator::create(registry_, WGPUTextureFormat_RGBA8Unorm);
    ASSERT_TRUE(mips) << mips.error().message;
    mips_.emplace(std::move(*mips));
    auto array = TileArray::create(*mips_, {kLossTile, kLayers, 0, "loss test tiles", mip_path_});
    ASSERT_TRUE(array) << array.error().message;
    array_.emplace(std::move(*array));
    auto renderer = TileRenderer::create(registry_, WGPUTextureFormat_RGBA8Unorm, kGrid * kGrid);
    ASSERT_TRUE(renderer) << renderer.error().message;
    renderer_.emplace(std::move(*renderer));
    auto group = renderer_->make_bind_group(*array_);
    ASSERT_TRUE(group) << group.error().message;
    group_.emplace(std::move(*group));
    pool_.emplace(kLayers, registry_.clock());
    auto cache = TileCache::create(*pool_, kBudgetTiles * array_->layer_bytes(), array_->layer_bytes(), kMaxFetches);
    ASSERT_TRUE(cache) << cache.error().message;
    cache_.emplace(std::move(*cache));
    resources::TextureDescription target;
    target.label = "loss test target";
    target.size = {kLossTarget, kLossTarget, 1};
    target.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc;
    auto texture = registry_.create_texture(target);
    ASSERT_TRUE(texture) << texture.error().message;
    target_ = *texture;
    auto view = registry_.create_texture_view(target_, {});
    ASSERT_TRUE(view) << view.error().message;
    target_view_ = *view;
  }

  ~TileLayer() {
    if (cache_) (void)cache_->clear();
    (void)registry_.destroy_texture_view(target_view_);
    (void)registry_.destroy_texture(target_);
  }

  // One frame as the application runs it after a loss as before: begin_frame, request what is
  // wanted, dispatch, deliver, draw what draw_source says. With `read` the target is read back.
  FrameResult frame(TestDevice& dev, bool read) {
    FrameResult result;
    const gpu::Procs& p = registry_.procs();
    registry_.poll();
    const std::vector<TileKey> visible = visible_keys();
    EXPECT_TRUE(cache_->begin_frame({visible, 0.5, 0.5}));
    for (const TileKey& key : wanted_keys()) EXPECT_TRUE(cache_->request(key));
    EXPECT_TRUE(cache_->dispatch(fetcher_));
    gpu::Ref<WGPUCommandEncoder> encoder(&p, p.DeviceCreateCommandEncoder(registry_.device(), nullptr));
    auto report = cache_->deliver([&](const TileKey& key, LayerIndex layer, std::span<const uint8_t> texels) -> Result<void> {
      if (auto uploaded = array_->upload(encoder.get(), layer, texels); !uploaded) return uploaded;
      delivered_.insert(key);
      arrived_in_frame_.emplace(key, frame_);
      return pool_->touch(layer);  // the mip passes are recorded into this frame
    });
    EXPECT_TRUE(report) << report.error().message;
    if (report) {
      EXPECT_TRUE(report->failed.empty());
      result.loaded = report->loaded;
    }
    std::vector<TileInstance> instances;
    for (size_t i = 0; i < visible.size(); ++i) {
      auto source = cache_->draw_source(visible[i]);
      result.sources.push_back(source);
      if (!source) continue;
      // Never garbage: a layer draw_source hands out holds a tile delivered since the last clear.
      EXPECT_TRUE(delivered_.contains(source->drawn)) << to_string(source->drawn) << " drawn but never delivered";
      TileInstance t = place_tile(static_cast<float>(visible[i].x * kOnScreen), static_cast<float>(visible[i].y * kOnScreen),
                                  kOnScreen, kLossTarget, kLossTarget);
      t.u0 = source->u0;
      t.v0 = source->v0;
      t.uv_scale = source->scale;
      t.layer = source->layer;
      instances.push_back(t);
    }
    EXPECT_LE(cache_->resident_bytes(), cache_->budget_bytes());
    EXPECT_TRUE(renderer_->write_instances(instances));
    auto view = registry_.resolve(target_view_);
    EXPECT_TRUE(view) << view.error().message;
    if (!view) return result;
    WGPURenderPassEncoder pass = gpu::begin_clear_pass(p, encoder.get(), *view, {0, 0, 0, 1});
    auto drawn = renderer_->draw(pass, *group_, static_cast<uint32_t>(instances.size()));
    EXPECT_TRUE(drawn) << drawn.error().message;
    p.RenderPassEncoderEnd(pass);
    p.RenderPassEncoderRelease(pass);
    gpu::Ref<WGPUBuffer> readback;
    if (read) {
      WGPUBufferDescriptor desc{};
      desc.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
      desc.size = uint64_t{kLossTarget} * kLossTarget * 4;
      readback = gpu::Ref<WGPUBuffer>(&p, p.DeviceCreateBuffer(registry_.device(), &desc));
      gpu::copy_image_to_buffer(p, encoder.get(), *registry_.resolve(target_), readback.get(), kLossTarget, kLossTarget,
                                kLossTarget * 4);
    }
    WGPUCommandBuffer commands = p.CommandEncoderFinish(encoder.get(), nullptr);
    registry_.submit(commands);
    p.CommandBufferRelease(commands);
    ++frame_;
    if (!read) return result;
    auto bytes = dev.context->read_mapped(readback.get(), uint64_t{kLossTarget} * kLossTarget * 4, testing::kSafetyNet);
    EXPECT_TRUE(bytes) << bytes.error().message;
    for (const TileKey& key : visible) {
      const uint32_t x = key.x * kOnScreen + kOnScreen / 2, y = key.y * kOnScreen + kOnScreen / 2;
      Rgba c{};
      if (bytes) std::memcpy(c.data(), &(*bytes)[(size_t{y} * kLossTarget + x) * 4], 4);
      result.centres.push_back(c);
    }
    return result;
  }

  // The part of a frame that touches every drawn layer for the submission being recorded; the
  // loss comes before that submission, which never happens.
  void record_frame_the_loss_interrupts() {
    registry_.poll();
    for (const TileKey& key : visible_keys()) (void)cache_->draw_source(key);
  }

  void forget_deliveries() {
    delivered_.clear();
    arrived_in_frame_.clear();
    frame_ = 0;
  }

  TileCache& cache() { return *cache_; }
  LayerPool& pool() { return *pool_; }
  const TileArray& array() const { return *array_; }
  TextureHandle target() const { return target_; }
  uint32_t arrival_frame(const TileKey& key) const {
    auto it = arrived_in_frame_.find(key);
    return it == arrived_in_frame_.end() ? UINT32_MAX : it->second;
  }

 private:
  struct KeyLess {
    bool operator()(const TileKey& a, const TileKey& b) const {
      return std::tie(a.z, a.x, a.y) < std::tie(b.z, b.x, b.y);
    }
  };
  resources::Registry& registry_;
  MipPath mip_path_;
  // Declared in the order they are made: destroyed the other way round, users first.
  std::optional<MipGenerator> mips_;
  std::optional<TileArray> array_;
  std::optional<TileRenderer> renderer_;
  std::optional<TileBindGroup> group_;
  std::optional<LayerPool> pool_;
  std::optional<TileCache> cache_;
  TextureHandle target_;
  TextureViewHandle target_view_;
  ImmediateFetcher fetcher_;
  std::set<TileKey, KeyLess> delivered_;
  std::map<TileKey, uint32_t, KeyLess> arrived_in_frame_;
  uint32_t frame_ = 0;
};

// Forces the loss Dawn reports for a dead device.
void force_loss(TestDevice& dev) {
  dev.procs().DeviceForceLoss(dev.device.get(), WGPUDeviceLostReason_Unknown, gpu::string_view("forced by the test"));
  dev.context->process_events();
  ASSERT_TRUE(dev.lost);
}

// Lets go of a device opened inside a test while the test still holds it: its lost callback,
// which points at `dev`, fires from this process_events and not after `dev` is gone.
void close(std::unique_ptr<TestDevice>& dev) {
  if (!dev) return;
  dev->queue.reset();
  dev->device.reset();
  dev->adapter.adapter.reset();
  dev->context->process_events();
  dev.reset();
}

// ceil(wanted / max_fetches_in_flight) frames bring every wanted tile with an immediate fetcher
// (each frame dispatches max_fetches_in_flight and delivers them); two frames of slack.
constexpr uint32_t kFramesToAllVisible = (21 + kMaxFetches - 1) / kMaxFetches + 2;
static_assert(kGrid * kGrid + 4 + 1 == 21, "wanted_keys(): 16 visible, 4 at z = 1, the root");

// Every visible position shows its own tile, an ancestor's or the clear colour, and exactly
// the one draw_source named (nothing else is ever drawn).
void expect_only_delivered_tiles(const FrameResult& frame, uint32_t index) {
  const std::vector<TileKey> visible = visible_keys();
  ASSERT_EQ(frame.centres.size(), visible.size());
  for (size_t i = 0; i < visible.size(); ++i) {
    const Rgba got = frame.centres[i];
    const Rgba expected = frame.sources[i] ? testing::key_colour(frame.sources[i]->drawn) : kClear;
    EXPECT_PRED2(near, got, expected) << "frame " << index << ", " << to_string(visible[i]) << ": " << show(got);
    bool allowed = near(got, kClear);
    for (std::optional<TileKey> k = visible[i]; k; k = k->parent()) allowed = allowed || near(got, testing::key_colour(*k));
    EXPECT_TRUE(allowed) << "frame " << index << ", " << to_string(visible[i]) << " shows " << show(got)
                         << ": neither its tile, an ancestor nor the clear colour";
  }
}

bool all_visible_drawn_as_themselves(const FrameResult& frame) {
  return std::all_of(frame.sources.begin(), frame.sources.end(),
                     [](const auto& s) { return s.has_value() && s->levels_up == 0; });
}

class TilesAcrossLossNull : public testing::NullDeviceTest {};

class TilesAcrossLoss : public testing::GlDeviceTest {
 protected:
  void expect_tiles_come_back_after_a_loss(MipPath mip_path);
};

TEST_F(TilesAcrossLoss, TilesComeBackAfterALossNearestFirstWithAncestorsAndNeverGarbage) {
  expect_tiles_come_back_after_a_loss(MipPath::InArray);
}

// The same with the chains rendered in the scratch array: its texture, views and bind groups
// are the registry's too, so the rebuild brings them back and the frames after the loss
// regenerate chains through them without an error.
TEST_F(TilesAcrossLoss, TilesComeBackAfterALossThroughTheScratchMipPath) {
  expect_tiles_come_back_after_a_loss(MipPath::Scratch);
}

void TilesAcrossLoss::expect_tiles_come_back_after_a_loss(MipPath mip_path) {
  auto second = testing::open_test_device(testing::pixel_test_backend());
  ASSERT_NE(second, nullptr);
  std::vector<resources::ReleaseEvent> released;  // label is not kept: valid only during the call
  resources::RegistryOptions options;
  options.on_release = [&](const resources::ReleaseEvent& e) {
    released.push_back(e);
    released.back().label = {};
  };
  const gpu::ReferenceCounts references_before = gpu::Ledger::process().outstanding();
  {
    resources::Registry registry(*dev->context, dev->device.get(), dev->queue.get(), std::move(options));
    TileLayer layer(registry, mip_path);
    layer.build();
    ASSERT_FALSE(HasFatalFailure());

    // From a cold start: the same bound as after the loss.
    uint32_t cold_frames = 0;
    for (bool all = false; !all && cold_frames < kFramesToAllVisible + 2; ++cold_frames) {
      const FrameResult f = layer.frame(*dev, true);
      expect_only_delivered_tiles(f, cold_frames);
      all = all_visible_drawn_as_themselves(f);
    }
    EXPECT_LE(cold_frames, kFramesToAllVisible);
    layer.frame(*dev, false);  // a second frame reads the layers: some are in flight at the loss

    // The loss comes while a frame is being recorded: its layers are touched for a submission
    // that never happens.
    const resources::LiveCounts live = registry.live_counts();
    const size_t released_before_loss = released.size();
    layer.record_frame_the_loss_interrupts();
    force_loss(*dev);
    registry.on_device_lost();
    // Every tile object was the registry's, and it let go of every one: nothing of the lost
    // device is referenced (the ledger is back where it was before the tile layer was made).
    // (Objects are not told apart by identity: Dawn hands out one object for equal layouts.)
    EXPECT_EQ(released.size() - released_before_loss, live.total());
    EXPECT_EQ(gpu::to_string(gpu::Ledger::process().outstanding() - references_before), "none");

    const resources::RebuildReport report = registry.rebuild(second->device.get(), second->queue.get(), 2);
    EXPECT_TRUE(report.failed.empty()) << report.failed.front();
    EXPECT_TRUE(report.awaiting_owner.empty());
    EXPECT_EQ(report.rebuilt, live.total());
    EXPECT_EQ(registry.live_counts().by_kind, live.by_kind);
    // The tiles (ContentsSource::None), the scratch array when there is one, and the target
    // come back empty; the per-frame instances too; the layer indices, kept, are written again.
    EXPECT_EQ(report.contents_lost.textures.size(), mip_path == MipPath::Scratch ? 3u : 2u);
    EXPECT_TRUE(std::count(report.contents_lost.textures.begin(), report.contents_lost.textures.end(),
                           layer.array().texture()));
    EXPECT_EQ(report.contents_lost.buffers.size(), 1u);

    // The application clears the cache; one poll later every layer is free.
    ASSERT_TRUE(layer.cache().clear());
    layer.forget_deliveries();
    registry.poll();
    const LayerPoolCounts counts = layer.pool().counts();
    EXPECT_EQ(counts.free, kLayers);
    EXPECT_EQ(counts.in_flight, 0u);
    EXPECT_EQ(counts.allocated, 0u);

    // Frames go on as before: the visible tiles come back within the bound, an ancestor stands
    // in from the first frame on, nothing but delivered tiles is ever drawn.
    uint32_t frames = 0;
    for (bool all = false; !all && frames < kFramesToAllVisible + 2; ++frames) {
      const FrameResult f = layer.frame(*second, true);
      expect_only_delivered_tiles(f, frames);
      EXPECT_TRUE(std::all_of(f.sources.begin(), f.sources.end(), [](const auto& s) { return s.has_value(); }))
          << "frame " << frames << " after the loss shows the clear colour: the root comes first";
      all = all_visible_drawn_as_themselves(f);
    }
    EXPECT_LE(frames, kFramesToAllVisible);
    RecordProperty("frames_to_all_visible_after_loss", static_cast<int>(frames));
    RecordProperty("frames_to_all_visible_cold", static_cast<int>(cold_frames));
    // Nearest to the view's centre first.
    const std::vector<TileKey> wanted = wanted_keys();
    for (const TileKey& a : wanted) {
      for (const TileKey& b : wanted) {
        if (distance_to_centre(a) + 1e-9 < distance_to_centre(b)) {
          EXPECT_LE(layer.arrival_frame(a), layer.arrival_frame(b)) << to_string(a) << " is nearer than " << to_string(b);
        }
      }
    }
    EXPECT_EQ(layer.arrival_frame({0, 0, 0}), 0u);
    EXPECT_TRUE(second->take_errors().empty());
  }
  close(second);
}

// The pool after a loss, both ways a loss finds its layers: read by a submitted frame, and
// touched by a frame being recorded whose submit never happens. After clear() and one poll,
// every layer is free: no layer waits for a submission of the lost device.
TEST_F(TilesAcrossLossNull, EveryLayerIsFreeAfterClearAndOnePollWhateverTheLossInterrupted) {
  auto second = testing::open_test_device(gpu::BackendChoice::Null);
  ASSERT_NE(second, nullptr);
  {
    resources::Registry registry(*dev->context, dev->device.get(), dev->queue.get());
    TileLayer layer(registry);
    layer.build();
    ASSERT_FALSE(HasFatalFailure());
    for (int i = 0; i < 6; ++i) layer.frame(*dev, false);
    ASSERT_GT(layer.cache().resident_count(), 0u);
    layer.record_frame_the_loss_interrupts();
    const LayerPoolCounts before = layer.pool().counts();
    EXPECT_EQ(before.allocated, layer.cache().resident_count());
    force_loss(*dev);
    registry.on_device_lost();
    registry.rebuild(second->device.get(), second->queue.get(), 2);
    ASSERT_TRUE(layer.cache().clear());
    registry.poll();
    const LayerPoolCounts after = layer.pool().counts();
    EXPECT_EQ(after.free, kLayers) << after.in_flight << " in flight, " << after.allocated << " allocated";
    EXPECT_TRUE(layer.pool().check_invariants());
  }
  close(second);
}

// Twenty losses in a row on the Null backend: each rebuild gives back the same live counts, the
// same handles resolve, every layer is free after clear, and the frames go on.
TEST_F(TilesAcrossLossNull, TwentyLossesInARowLeaveTheSameLiveCounts) {
  std::unique_ptr<TestDevice> current;
  {
    resources::Registry registry(*dev->context, dev->device.get(), dev->queue.get());
    TileLayer layer(registry);
    layer.build();
    ASSERT_FALSE(HasFatalFailure());
    layer.frame(*dev, false);
    const resources::LiveCounts live = registry.live_counts();
    TestDevice* on = dev.get();
    for (uint64_t generation = 2; generation <= 21; ++generation) {
      auto next = testing::open_test_device(gpu::BackendChoice::Null);
      ASSERT_NE(next, nullptr);
      layer.frame(*on, false);
      layer.record_frame_the_loss_interrupts();
      force_loss(*on);
      registry.on_device_lost();
      const resources::RebuildReport report = registry.rebuild(next->device.get(), next->queue.get(), generation);
      ASSERT_TRUE(report.failed.empty()) << "generation " << generation << ": " << report.failed.front();
      EXPECT_EQ(report.rebuilt, live.total());
      EXPECT_EQ(registry.live_counts().by_kind, live.by_kind) << "generation " << generation;
      EXPECT_EQ(registry.live_counts().kept_content_bytes, live.kept_content_bytes);
      EXPECT_TRUE(registry.resolve(layer.array().texture()));
      ASSERT_TRUE(layer.cache().clear());
      layer.forget_deliveries();
      registry.poll();
      EXPECT_EQ(layer.pool().counts().free, kLayers) << "generation " << generation;
      close(current);  // the lost device (after the first loss): nothing of it is referenced now
      current = std::move(next);
      on = current.get();
      EXPECT_EQ(registry.pending_release_count(), 0u);
    }
    layer.frame(*on, false);
    EXPECT_GT(layer.cache().resident_count(), 0u);
  }
  close(current);
}

// A registry too small for an array's views: an error naming the array and how many views it
// needs; what was made before is destroyed in the registry, nothing stays live.
TEST_F(TilesAcrossLossNull, AnArrayTheRegistryHasNoRoomForIsAnErrorNamingTheViewsItNeeds) {
  resources::RegistryOptions options;
  options.texture_view_capacity = 16;
  resources::Registry registry(*dev->context, dev->device.get(), dev->queue.get(), std::move(options));
  auto mips = MipGenerator::create(registry, WGPUTextureFormat_RGBA8Unorm);
  ASSERT_TRUE(mips) << mips.error().message;
  const resources::LiveCounts before = registry.live_counts();
  auto array = TileArray::create(*mips, {kLossTile, 8, 0, "band z7"});
  ASSERT_FALSE(array);
  EXPECT_EQ(array.error().kind, ErrorKind::PoolFull) << array.error().message;
  EXPECT_THAT(array, FailsWith(MessageId::ResourcePoolFull));
  EXPECT_EQ(TileArray::view_count(8, 6), 46u);
  EXPECT_NE(array.error().message.find("tile array \"band z7\""), std::string::npos) << array.error().message;
  EXPECT_NE(array.error().message.find("46 views"), std::string::npos) << array.error().message;
  EXPECT_EQ(registry.live_counts().by_kind, before.by_kind);
}

// Between the loss and the rebuild every tile call that needs the device says so, and makes,
// writes or records nothing.
TEST_F(TilesAcrossLossNull, TileCallsBetweenLossAndRebuildAreDeviceLostErrors) {
  resources::Registry registry(*dev->context, dev->device.get(), dev->queue.get());
  auto mips = MipGenerator::create(registry, WGPUTextureFormat_RGBA8Unorm);
  ASSERT_TRUE(mips) << mips.error().message;
  auto array = TileArray::create(*mips, {kLossTile, 4, 0, "band z2"});
  ASSERT_TRUE(array) << array.error().message;
  auto renderer = TileRenderer::create(registry, WGPUTextureFormat_RGBA8Unorm, 4);
  ASSERT_TRUE(renderer) << renderer.error().message;
  force_loss(*dev);
  registry.on_device_lost();
  auto expect_lost = [](const Result<void>& r, const char* what) {
    ASSERT_FALSE(r) << what;
    EXPECT_EQ(r.error().kind, ErrorKind::DeviceFailed) << what << ": " << r.error().message;
    EXPECT_THAT(r, FailsWith(MessageId::RegistryDeviceLost)) << what << ": the registry's error, passed on";
    EXPECT_NE(r.error().message.find("device lost (device generation 1), rebuilding"), std::string::npos)
        << what << ": " << r.error().message;
  };
  auto written = array->write_level0(0, solid_loss_tile(kClear));
  expect_lost(written, "write_level0");
  EXPECT_NE(written.error().message.find("\"band z2\" layer 0"), std::string::npos) << written.error().message;
  const TileInstance one[1] = {};
  expect_lost(renderer->write_instances(one), "write_instances");
  auto again = TileArray::create(*mips, {kLossTile, 4, 0, "band z3"});
  ASSERT_THAT(again, FailsWith(MessageId::TileDeviceLost));
  EXPECT_EQ(again.error().kind, ErrorKind::DeviceFailed);
  EXPECT_NE(again.error().message.find("\"band z3\": device lost (device generation 1), rebuilding"), std::string::npos)
      << again.error().message;
}

}  // namespace
}  // namespace warden::tiles
