// The tile layer pool against the real library (GL backend over llvmpipe): pixels come from
// real readbacks, retirement only from QueueClock::poll().
#include "warden/gpu/queue_clock.h"
#include "warden/tiles/tile_gpu.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <vector>

#include "support/gpu_test.h"
#include "support/error_object.h"
#include "support/messages.h"
#include "support/tile_pictures.h"
#include "support/poll_until.h"
#include "warden/tiles/tile_cache.h"
#include "warden/gpu/objects.h"

namespace warden::tiles {
namespace {

using namespace gpu;
using testing::FailsWith;
using testing::NamesKind;
using testing::NamesLabel;
using testing::GlDeviceTest;
using testing::near;
using testing::Rgba;
using testing::show;

constexpr uint32_t kTile = 64;    // 7 mip levels
constexpr uint32_t kTarget = 64;  // 64 x 4 bytes = 256: already the copy row alignment

constexpr Rgba kRed{255, 0, 0, 255}, kGreen{0, 255, 0, 255}, kBlue{0, 0, 255, 255},
    kWhite{255, 255, 255, 255}, kYellow{255, 255, 0, 255};

std::vector<uint8_t> solid(Rgba c) { return testing::solid_tile(c, kTile); }

// Quadrants: top left red, top right green, bottom left blue, bottom right white.
std::vector<uint8_t> quadrants() {
  std::vector<uint8_t> t(kTile * kTile * 4);
  for (uint32_t y = 0; y < kTile; ++y) {
    for (uint32_t x = 0; x < kTile; ++x) {
      const bool right = x >= kTile / 2, bottom = y >= kTile / 2;
      const Rgba& c = bottom ? (right ? kWhite : kBlue) : (right ? kGreen : kRed);
      std::memcpy(&t[(y * kTile + x) * 4], c.data(), 4);
    }
  }
  return t;
}

class TileGpuTest : public GlDeviceTest {
 protected:
  void SetUp() override {
    GlDeviceTest::SetUp();
    const Procs& p = dev->procs();
    WGPUDevice device = dev->device.get();
    resources::RegistryOptions options;
    options.on_release = [this](const resources::ReleaseEvent& e) { released.push_back(e); };
    registry = std::make_unique<resources::Registry>(*dev->context, device, dev->queue.get(), std::move(options));
    clock = &registry->queue_clock();
    auto g = MipGenerator::create(*registry, WGPUTextureFormat_RGBA8Unorm);
    ASSERT_TRUE(g) << g.error().message;
    mips = std::make_unique<MipGenerator>(std::move(g.value()));
    auto r = TileRenderer::create(*registry, WGPUTextureFormat_RGBA8Unorm, 64);
    ASSERT_TRUE(r) << r.error().message;
    renderer = std::make_unique<TileRenderer>(std::move(r.value()));
    WGPUTextureDescriptor tdesc{};
    tdesc.dimension = WGPUTextureDimension_2D;
    tdesc.mipLevelCount = 1;
    tdesc.sampleCount = 1;
    tdesc.label = gpu::string_view("tile test target");
    tdesc.size = {kTarget, kTarget, 1};
    tdesc.format = WGPUTextureFormat_RGBA8Unorm;
    tdesc.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc;
    target = Ref<WGPUTexture>(&p, p.DeviceCreateTexture(device, &tdesc));
    target_view = Ref<WGPUTextureView>(&p, p.TextureCreateView(target.get(), nullptr));
  }
  void TearDown() override {
    if (dev) {
      auto errors = dev->take_errors();
      EXPECT_TRUE(errors.empty()) << errors.front();
    }
    renderer.reset();
    mips.reset();
    target_view.reset();
    target.reset();
    registry.reset();
    GlDeviceTest::TearDown();
  }

  std::unique_ptr<TileArray> make_array(uint32_t layers, MipPath mip_path = MipPath::InArray) {
    auto a = TileArray::create(*mips, {kTile, layers, 0, "test tiles", mip_path});
    EXPECT_TRUE(a) << a.error().message;
    return a ? std::make_unique<TileArray>(std::move(a.value())) : nullptr;
  }

  TileBindGroup bind(const TileArray& array) {
    auto group = renderer->make_bind_group(array);
    EXPECT_TRUE(group) << group.error().message;
    return group ? std::move(*group) : TileBindGroup{};
  }

  WGPUTexture texture_of(const TileArray& array) {
    auto texture = registry->resolve(array.texture());
    EXPECT_TRUE(texture) << texture.error().message;
    return texture ? *texture : nullptr;
  }

  Ref<WGPUCommandEncoder> encoder() {
    return Ref<WGPUCommandEncoder>(&dev->procs(), dev->procs().DeviceCreateCommandEncoder(dev->device.get(), nullptr));
  }

  // Records a pass drawing `instances` with one bind group and one draw, then a copy of the
  // target into a new readback buffer (returned).
  Ref<WGPUBuffer> record_draw(WGPUCommandEncoder enc, const TileBindGroup& group, const std::vector<TileInstance>& instances) {
    const Procs& p = dev->procs();
    EXPECT_TRUE(renderer->write_instances(instances));
    WGPURenderPassEncoder pass = begin_clear_pass(p, enc, target_view.get(), {0, 0, 0, 0});
    auto drawn = renderer->draw(pass, group, static_cast<uint32_t>(instances.size()));
    EXPECT_TRUE(drawn) << drawn.error().message;
    p.RenderPassEncoderEnd(pass);
    p.RenderPassEncoderRelease(pass);
    WGPUBufferDescriptor bdesc{};
    bdesc.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
    bdesc.size = uint64_t{kTarget} * kTarget * 4;
    Ref<WGPUBuffer> readback(&p, p.DeviceCreateBuffer(dev->device.get(), &bdesc));
    copy_image_to_buffer(p, enc, target.get(), readback.get(), kTarget, kTarget, kTarget * 4);
    return readback;
  }

  Serial submit(WGPUCommandEncoder enc) {
    WGPUCommandBuffer commands = dev->procs().CommandEncoderFinish(enc, nullptr);
    Serial s = registry->submit(commands);
    dev->procs().CommandBufferRelease(commands);
    return s;
  }

  void expect_layers_recycled_together_show_their_new_tiles(MipPath mip_path);

  std::vector<uint8_t> read(WGPUBuffer buffer) {
    auto bytes = dev->context->read_mapped(buffer, uint64_t{kTarget} * kTarget * 4, testing::kSafetyNet);
    EXPECT_TRUE(bytes) << bytes.error().message;
    return bytes ? std::move(bytes.value()) : std::vector<uint8_t>(uint64_t{kTarget} * kTarget * 4);
  }

  static Rgba pixel(const std::vector<uint8_t>& image, uint32_t x, uint32_t y) {
    Rgba c;
    std::memcpy(c.data(), &image[(y * kTarget + x) * 4], 4);
    return c;
  }

  // Non-blocking polls only, bounded so a hang shows as a failure.
  void poll_until_retired(Serial s) {
    ASSERT_TRUE(testing::poll_until([&] { return clock->clock().is_retired(s); }, [&] { clock->poll(); }));
  }

  // Every texel of every mip level of `layer`, read back.
  std::vector<std::vector<uint8_t>> read_levels(const TileArray& array, LayerIndex layer) {
    const Procs& p = dev->procs();
    std::vector<Ref<WGPUBuffer>> buffers;
    auto enc = encoder();
    for (uint32_t m = 0; m < array.mip_levels(); ++m) {
      const uint32_t size = kTile >> m;
      WGPUBufferDescriptor bdesc{};
      bdesc.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
      bdesc.size = uint64_t{256} * size;
      buffers.emplace_back(&p, p.DeviceCreateBuffer(dev->device.get(), &bdesc));
      copy_image_to_buffer(p, enc.get(), texture_of(array), buffers.back().get(), size, size, 256, m, layer);
    }
    submit(enc.get());
    std::vector<std::vector<uint8_t>> levels;
    for (uint32_t m = 0; m < array.mip_levels(); ++m) {
      const uint32_t size = kTile >> m;
      auto bytes = dev->context->read_mapped(buffers[m].get(), uint64_t{256} * size, testing::kSafetyNet);
      EXPECT_TRUE(bytes);
      std::vector<uint8_t> texels;
      for (uint32_t y = 0; bytes && y < size; ++y) {
        texels.insert(texels.end(), bytes->begin() + y * 256, bytes->begin() + y * 256 + size * 4);
      }
      levels.push_back(std::move(texels));
    }
    return levels;
  }

  std::vector<resources::ReleaseEvent> released;  // labels are valid only during the call: not kept
  std::unique_ptr<resources::Registry> registry;
  gpu::QueueClock* clock = nullptr;  // the registry's
  std::unique_ptr<MipGenerator> mips;
  std::unique_ptr<TileRenderer> renderer;
  Ref<WGPUTexture> target;
  Ref<WGPUTextureView> target_view;
};

TileInstance whole_tile(float x, float y, float size, LayerIndex layer) {
  TileInstance t = place_tile(x, y, size, kTarget, kTarget);
  t.layer = layer;
  return t;
}

// Upload A, draw, release, recycle the layer for B, draw B at a coarser level: B everywhere,
// at every level of the chain, never A.
TEST_F(TileGpuTest, RecycledLayerShowsTheNewTileAtEveryMipLevel) {
  auto array = make_array(1);
  ASSERT_TRUE(array);
  EXPECT_EQ(array->mip_levels(), 7u);
  LayerPool pool(1, clock->clock(), 0);
  auto group = bind(*array);

  LayerIndex layer = *pool.acquire();
  auto enc = encoder();
  ASSERT_TRUE(array->upload(enc.get(), layer, solid(kRed)));
  ASSERT_TRUE(pool.touch(layer));
  auto readback = record_draw(enc.get(), group, {whole_tile(0, 0, kTarget, layer)});
  Serial first = submit(enc.get());
  auto image = read(readback.get());
  EXPECT_PRED2(near, pixel(image, 32, 32), kRed) << show(pixel(image, 32, 32));
  ASSERT_TRUE(pool.release(layer));

  poll_until_retired(first);
  auto recycled = pool.acquire();
  ASSERT_EQ(recycled, layer) << "the only layer comes back once its reader retired";
  enc = encoder();
  ASSERT_TRUE(array->upload(enc.get(), layer, solid(kGreen)));
  ASSERT_TRUE(pool.touch(layer));
  // 64 texels into 8 pixels: the sampler reads mip level 3.
  readback = record_draw(enc.get(), group, {whole_tile(0, 0, 8, layer)});
  submit(enc.get());
  image = read(readback.get());
  EXPECT_PRED2(near, pixel(image, 4, 4), kGreen) << show(pixel(image, 4, 4));
  EXPECT_PRED2(near, pixel(image, 32, 32), (Rgba{0, 0, 0, 0})) << "outside the tile: cleared";

  auto levels = read_levels(*array, layer);
  ASSERT_EQ(levels.size(), 7u);
  for (size_t m = 0; m < levels.size(); ++m) {
    for (size_t i = 0; i + 4 <= levels[m].size(); i += 4) {
      Rgba c{levels[m][i], levels[m][i + 1], levels[m][i + 2], levels[m][i + 3]};
      ASSERT_PRED2(near, c, kGreen) << "mip " << m << " texel " << i / 4 << " is " << show(c);
    }
  }
}

// The hazard: a frame recorded before a recycle and submitted after it. The pool refuses to hand
// out the layer the recording frame reads, so that frame still samples A.
TEST_F(TileGpuTest, FrameRecordedBeforeRecycleStillSamplesTheOldTile) {
  auto array = make_array(1);
  ASSERT_TRUE(array);
  LayerPool pool(1, clock->clock(), 0);
  auto group = bind(*array);
  LayerIndex layer = *pool.acquire();
  auto enc = encoder();
  ASSERT_TRUE(array->upload(enc.get(), layer, solid(kRed)));
  ASSERT_TRUE(pool.touch(layer));
  poll_until_retired(submit(enc.get()));

  // Frame 2 is recorded: it reads the layer, and touch marks the submission being recorded.
  auto frame2 = encoder();
  ASSERT_TRUE(pool.touch(layer));
  EXPECT_EQ(pool.last_use(layer), clock->clock().recording());
  auto readback = record_draw(frame2.get(), group, {whole_tile(0, 0, kTarget, layer)});
  // Before it is submitted, the cache evicts A and wants the layer for B.
  ASSERT_TRUE(pool.release(layer));
  EXPECT_FALSE(pool.acquire(Priority::Normal).has_value());
  EXPECT_FALSE(pool.acquire(Priority::Urgent).has_value()) << "its last reader is the unsubmitted frame";
  Serial s2 = submit(frame2.get());
  auto image = read(readback.get());
  EXPECT_PRED2(near, pixel(image, 32, 32), kRed) << "frame 2 must show A, got " << show(pixel(image, 32, 32));

  // Once that frame retired, the layer is B's.
  poll_until_retired(s2);
  ASSERT_EQ(pool.acquire(), layer);
  auto frame3 = encoder();
  ASSERT_TRUE(array->upload(frame3.get(), layer, solid(kGreen)));
  ASSERT_TRUE(pool.touch(layer));
  readback = record_draw(frame3.get(), group, {whole_tile(0, 0, kTarget, layer)});
  submit(frame3.get());
  image = read(readback.get());
  EXPECT_PRED2(near, pixel(image, 32, 32), kGreen) << show(pixel(image, 32, 32));

  // What the refusal prevents, shown on this backend: writing the layer between recording a
  // frame and submitting it changes what that frame samples.
  auto frame4 = encoder();
  readback = record_draw(frame4.get(), group, {whole_tile(0, 0, kTarget, layer)});
  WGPUTexelCopyTextureInfo dst{};
  dst.aspect = WGPUTextureAspect_All;
  dst.texture = texture_of(*array);
  dst.origin = {0, 0, layer};
  WGPUTexelCopyBufferLayout layout{};
  layout.bytesPerRow = kTile * 4;
  layout.rowsPerImage = kTile;
  WGPUExtent3D extent{kTile, kTile, 1};
  auto yellow = solid(kYellow);
  dev->procs().QueueWriteTexture(dev->queue.get(), &dst, yellow.data(), yellow.size(), &layout, &extent);
  submit(frame4.get());
  image = read(readback.get());
  EXPECT_PRED2(near, pixel(image, 32, 32), kYellow) << "the hazard is real: " << show(pixel(image, 32, 32));
}

// Four tile positions, only the root resident: one draw shows each position's quadrant of the
// root, because the sub-rectangle travels in the instance data.
TEST_F(TileGpuTest, AncestorFallbackDrawsEachPositionsPartOfTheRoot) {
  auto array = make_array(4);
  ASSERT_TRUE(array);
  LayerPool pool(4, clock->clock(), 0);
  auto cache = TileCache::create(pool, 4 * array->layer_bytes(), array->layer_bytes());
  ASSERT_TRUE(cache);
  auto enc = encoder();
  auto root = quadrants();
  auto loaded = cache->load({0, 0, 0}, [&](const TileKey&, LayerIndex layer) {
    return array->upload(enc.get(), layer, root);
  });
  ASSERT_TRUE(loaded);
  ASSERT_EQ(*loaded, LoadStatus::Loaded);
  std::vector<TileInstance> instances;
  for (uint32_t y = 0; y < 2; ++y) {
    for (uint32_t x = 0; x < 2; ++x) {
      auto source = cache->draw_source({1, x, y});
      ASSERT_TRUE(source);
      EXPECT_EQ(source->levels_up, 1u);
      TileInstance t = place_tile(x * 32.0f, y * 32.0f, 32, kTarget, kTarget);
      t.u0 = source->u0;
      t.v0 = source->v0;
      t.uv_scale = source->scale;
      t.layer = source->layer;
      instances.push_back(t);
    }
  }
  auto group = bind(*array);
  auto readback = record_draw(enc.get(), group, instances);
  submit(enc.get());
  auto image = read(readback.get());
  EXPECT_PRED2(near, pixel(image, 16, 16), kRed) << show(pixel(image, 16, 16));
  EXPECT_PRED2(near, pixel(image, 48, 16), kGreen) << show(pixel(image, 48, 16));
  EXPECT_PRED2(near, pixel(image, 16, 48), kBlue) << show(pixel(image, 16, 48));
  EXPECT_PRED2(near, pixel(image, 48, 48), kWhite) << show(pixel(image, 48, 48));
}

// A whole band's array is destroyed only once nothing holds a layer, its last reader retired and
// no bind group made from it is left; then no "destroyed texture used in a submit" is possible.
TEST_F(TileGpuTest, BandArrayIsDestroyedOnlyAfterItsLastReaderRetired) {
  auto array = make_array(2);
  ASSERT_TRUE(array);
  LayerPool pool(2, clock->clock(), 0);
  auto group = bind(*array);
  LayerIndex layer = *pool.acquire();
  auto enc = encoder();
  ASSERT_TRUE(array->upload(enc.get(), layer, solid(kBlue)));
  ASSERT_TRUE(pool.touch(layer));
  auto readback = record_draw(enc.get(), group, {whole_tile(0, 0, kTarget, layer)});

  auto held = array->destroy_retired(pool, clock->clock());
  ASSERT_FALSE(held);
  EXPECT_THAT(held, FailsWith(MessageId::TileArrayLayersStillAllocated));
  EXPECT_NE(held.error().message.find("1 layers are still allocated"), std::string::npos) << held.error().message;
  ASSERT_TRUE(pool.release(layer));
  auto recording = array->destroy_retired(pool, clock->clock());
  ASSERT_FALSE(recording) << "the recorded frame still reads it";
  EXPECT_EQ(recording.error().kind, ErrorKind::Refused);
  EXPECT_THAT(recording, FailsWith(MessageId::TileArrayStillInUse));
  Serial s = submit(enc.get());
  EXPECT_FALSE(array->destroy_retired(pool, clock->clock()));
  poll_until_retired(s);
  ASSERT_TRUE(array->destroy_retired(pool, clock->clock()));
  EXPECT_TRUE(array->destroyed());
  // The registry destroys the texture itself, once the submission being recorded at the
  // destroy has retired too.
  auto is_texture_destroyed = [&] {
    return std::any_of(released.begin(), released.end(),
                       [](const resources::ReleaseEvent& e) { return e.kind == ResourceKind::Texture && e.destroyed; });
  };
  EXPECT_FALSE(is_texture_destroyed());
  poll_until_retired(submit(encoder().get()));
  registry->poll();
  // The tile bind group made from the array still names its view, and the view the texture: an
  // object keeps what it was made from (docs/adr/0049), so the texture goes with the group.
  EXPECT_FALSE(is_texture_destroyed());
  EXPECT_EQ(registry->live_counts().kept_for_dependents, 2u) << "the view and its texture";
  group = TileBindGroup{};
  poll_until_retired(submit(encoder().get()));
  registry->poll();
  EXPECT_TRUE(is_texture_destroyed());
  EXPECT_EQ(registry->live_counts().kept_for_dependents, 0u);
  auto image = read(readback.get());
  EXPECT_PRED2(near, pixel(image, 32, 32), kBlue);
  auto destroyed = array->upload(encoder().get(), 0, solid(kRed));
  EXPECT_THAT(destroyed, FailsWith(MessageId::TileArrayDestroyed));
  EXPECT_THAT(destroyed, NamesKind("tile array"));
  EXPECT_THAT(destroyed, NamesLabel("test tiles"));
}

// Bad input is an error naming the array and the value, never a Dawn error object.
TEST_F(TileGpuTest, BadArraysAndUploadsAreErrorsNamingTheProblem) {
  auto none = TileArray::create(*mips, {kTile, 0, 0, "band z3"});
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().kind, ErrorKind::InvalidArgument);
  EXPECT_THAT(none, FailsWith(MessageId::TileArrayLayerCountOutOfRange));
  EXPECT_NE(none.error().message.find("\"band z3\": 0 layers"), std::string::npos) << none.error().message;
  auto huge = TileArray::create(*mips, {kTile, 1u << 20, 0, "band z4"});
  ASSERT_THAT(huge, FailsWith(MessageId::TileArrayLayerCountOutOfRange));
  EXPECT_NE(huge.error().message.find("on this device"), std::string::npos) << huge.error().message;

  auto array = make_array(2);
  ASSERT_TRUE(array);
  auto enc = encoder();
  auto outside = array->upload(enc.get(), 2, solid(kRed));
  ASSERT_THAT(outside, FailsWith(MessageId::TileArrayLayerOutOfRange));
  EXPECT_NE(outside.error().message.find("layer 2 of 2"), std::string::npos) << outside.error().message;
  std::vector<uint8_t> short_tile(100);
  auto truncated = array->upload(enc.get(), 0, short_tile);
  ASSERT_THAT(truncated, FailsWith(MessageId::TileTexelsSizeMismatch));
  EXPECT_NE(truncated.error().message.find("100 bytes"), std::string::npos) << truncated.error().message;
  std::vector<TileInstance> too_many(renderer->max_instances() + 1);
  EXPECT_THAT(renderer->write_instances(too_many), FailsWith(MessageId::TileRendererTooManyInstances));
}

// Six layers recycled in one frame: their chains are regenerated a level at a time, up to
// max_targets() layers per pass (here 4 + 2). Every level of every layer shows its new tile,
// none the tile it held before, and the layers not handed out keep theirs.
void TileGpuTest::expect_layers_recycled_together_show_their_new_tiles(MipPath mip_path) {
  ASSERT_GE(mips->max_targets(), 1u);
  EXPECT_LE(mips->max_targets(), kMaxLayersPerPass);
  auto array = make_array(8, mip_path);
  ASSERT_TRUE(array);
  EXPECT_EQ(array->mip_path(), mip_path);
  const std::array<Rgba, 6> before{kRed, kGreen, kBlue, kWhite, kYellow, kRed};
  const std::array<Rgba, 6> after{kYellow, kBlue, kWhite, kRed, kGreen, kGreen};
  std::vector<LayerIndex> layers{6, 1, 4, 0, 7, 3};  // not in order, not contiguous
  auto fill = [&](const std::array<Rgba, 6>& colors) {
    auto enc = encoder();
    for (size_t i = 0; i < layers.size(); ++i) {
      ASSERT_TRUE(array->write_level0(layers[i], solid(colors[i])));
    }
    auto ok = array->regenerate_mips(enc.get(), layers);
    ASSERT_TRUE(ok) << ok.error().message;
    poll_until_retired(submit(enc.get()));
  };
  // Layer 2 is never handed out: it keeps what it was given first.
  auto enc = encoder();
  ASSERT_TRUE(array->upload(enc.get(), 2, solid(kBlue)));
  poll_until_retired(submit(enc.get()));
  fill(before);
  fill(after);
  for (size_t i = 0; i < layers.size(); ++i) {
    auto levels = read_levels(*array, layers[i]);
    ASSERT_EQ(levels.size(), 7u);
    for (size_t m = 0; m < levels.size(); ++m) {
      for (size_t t = 0; t + 4 <= levels[m].size(); t += 4) {
        Rgba c{levels[m][t], levels[m][t + 1], levels[m][t + 2], levels[m][t + 3]};
        ASSERT_PRED2(near, c, after[i]) << "layer " << layers[i] << " mip " << m << " texel " << t / 4 << " is " << show(c);
      }
    }
  }
  auto untouched = read_levels(*array, 2);
  for (size_t m = 0; m < untouched.size(); ++m) {
    Rgba c{untouched[m][0], untouched[m][1], untouched[m][2], untouched[m][3]};
    EXPECT_PRED2(near, c, kBlue) << "layer 2 mip " << m << " is " << show(c);
  }
}

TEST_F(TileGpuTest, LayersRecycledTogetherShowTheirNewTilesAtEveryMipLevel) {
  expect_layers_recycled_together_show_their_new_tiles(MipPath::InArray);
}

// The same frame with the chains rendered in the scratch array and copied into the array: the
// same levels, and the layers not handed out keep theirs (no copy lands on the wrong layer).
TEST_F(TileGpuTest, LayersRecycledTogetherThroughTheScratchArrayShowTheirNewTilesAtEveryMipLevel) {
  expect_layers_recycled_together_show_their_new_tiles(MipPath::Scratch);
}

// A scratch array has no render targets of its own: a direct mip pass is refused, naming why;
// a layer outside the array or twice in one group is refused before anything is recorded.
TEST_F(TileGpuTest, ScratchArrayRefusesDirectMipPassesAndBadLayers) {
  auto array = make_array(8, MipPath::Scratch);
  ASSERT_TRUE(array);
  auto enc = encoder();
  const LayerIndex one[] = {1};
  auto direct = array->record_mip_pass(enc.get(), one, 1);
  ASSERT_THAT(direct, FailsWith(MessageId::TileMipPassInScratchArray));
  const LayerIndex outside[] = {2, 8};
  auto out = array->regenerate_mips(enc.get(), outside);
  ASSERT_THAT(out, FailsWith(MessageId::TileArrayLayerOutOfRange));
  EXPECT_NE(out.error().message.find("layer 8 of 8"), std::string::npos) << out.error().message;
  const LayerIndex twice[] = {3, 5, 3};
  auto dup = array->regenerate_mips(enc.get(), twice);
  ASSERT_THAT(dup, FailsWith(MessageId::TileMipLayerTwice));
  EXPECT_NE(dup.error().message.find("layer 3 twice"), std::string::npos) << dup.error().message;
  // Nothing invalid was recorded: the encoder still finishes and submits cleanly.
  submit(enc.get());
}

// A pass names each layer once and writes at most max_targets() of them; anything else is an
// error naming the array, never a Dawn validation error.
TEST_F(TileGpuTest, BadMipPassesAreErrorsNamingTheProblem) {
  auto array = make_array(8);
  ASSERT_TRUE(array);
  auto enc = encoder();
  const LayerIndex twice[] = {3, 5, 3};
  auto dup = array->record_mip_pass(enc.get(), twice, 1);
  ASSERT_THAT(dup, FailsWith(MessageId::TileMipLayerTwice));
  EXPECT_NE(dup.error().message.find("layer 3 twice"), std::string::npos) << dup.error().message;
  std::vector<LayerIndex> wide;
  for (LayerIndex l = 0; l <= mips->max_targets(); ++l) wide.push_back(l);
  auto too_wide = array->record_mip_pass(enc.get(), wide, 1);
  ASSERT_THAT(too_wide, FailsWith(MessageId::TileMipPassWidthOutOfRange));
  const LayerIndex one[] = {1};
  auto level0 = array->record_mip_pass(enc.get(), one, 0);
  ASSERT_THAT(level0, FailsWith(MessageId::TileMipLevelOutOfRange));
  EXPECT_NE(level0.error().message.find("level 0 (1..6)"), std::string::npos) << level0.error().message;
  const LayerIndex outside[] = {8};
  EXPECT_THAT(array->record_mip_pass(enc.get(), outside, 1), FailsWith(MessageId::TileArrayLayerOutOfRange));
  // Nothing invalid was recorded: the encoder still finishes and submits cleanly.
  submit(enc.get());
}

// A pan with the pool, cache and one draw per frame: retirement only from poll(), no blocking
// wait, no layer refused, no validation error.
TEST_F(TileGpuTest, RecycleFrameLoopNeverBlocks) {
  auto array = make_array(48);
  ASSERT_TRUE(array);
  LayerPool pool(48, clock->clock());
  auto cache = TileCache::create(pool, 24 * array->layer_bytes(), array->layer_bytes());
  ASSERT_TRUE(cache);
  auto group = bind(*array);
  std::vector<std::vector<uint8_t>> images{solid(kRed), solid(kGreen), solid(kBlue), solid(kWhite)};
  const uint64_t waits_before = blocking_wait_count();
  uint64_t deferred = 0;
  for (uint32_t frame = 0; frame < 24; ++frame) {
    clock->poll();
    while (clock->clock().in_flight() > 2) clock->poll();  // bounded frames in flight, no wait
    auto enc = encoder();
    std::vector<TileInstance> instances;
    // A 4 x 4 window over z = 5 moving one column right every frame.
    for (uint32_t y = 0; y < 4; ++y) {
      for (uint32_t x = frame; x < frame + 4; ++x) {
        auto status = cache->load({5, x, y}, [&](const TileKey& k, LayerIndex layer) {
          return array->upload(enc.get(), layer, images[(k.x + k.y) % 4]);
        });
        ASSERT_TRUE(status) << status.error().message;
        deferred += *status == LoadStatus::Deferred;
        auto source = cache->draw_source({5, x, y});
        ASSERT_TRUE(source);
        TileInstance t = place_tile((x - frame) * 16.0f, y * 16.0f, 16, kTarget, kTarget);
        t.layer = source->layer;
        instances.push_back(t);
      }
    }
    Ref<WGPUBuffer> readback = record_draw(enc.get(), group, instances);
    submit(enc.get());
    ASSERT_TRUE(pool.check_invariants());
  }
  testing::poll_until([&] { return clock->clock().in_flight() == 0; }, [&] { clock->poll(); });
  EXPECT_EQ(clock->clock().in_flight(), 0u);
  EXPECT_EQ(blocking_wait_count(), waits_before);
  EXPECT_EQ(deferred, 0u);
  EXPECT_GT(cache->evictions(), 0u);
}

}  // namespace
}  // namespace warden::tiles
