// The upload ring on the GL backend: what lands in the layers is byte-identical to what was
// staged (rows padded to 256 bytes in the ring), a staging buffer is mapped again only after
// the submission that read it retired, and nothing on the way waits.
#include <gmock/gmock.h>

#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "support/gpu_test.h"
#include "support/error_object.h"
#include "support/messages.h"
#include "support/poll_until.h"
#include "warden/gpu/queue_clock.h"
#include "warden/tiles/upload_ring.h"
#include "warden/gpu/objects.h"

namespace warden::tiles {
namespace {

using ::testing::HasSubstr;
using testing::FailsWith;
using testing::NamesKind;
using testing::NamesLabel;
using testing::GlDeviceTest;
using State = UploadRing::BufferState;


// One comparable value per stage() outcome: "staged", "turned away" or the error's message.
std::string outcome(const Result<bool>& staged) {
  if (!staged) return staged.error().message;
  return *staged ? "staged" : "turned away";
}

class UploadRingTest : public GlDeviceTest {
 protected:
  void SetUp() override {
    GlDeviceTest::SetUp();
    ASSERT_NE(dev, nullptr);
    clock = std::make_unique<gpu::QueueClock>(dev->procs(), dev->context->instance(), dev->queue.get());
  }
  void TearDown() override {
    clock.reset();
    GlDeviceTest::TearDown();
  }

  gpu::Ref<WGPUTexture> make_array(uint32_t size, uint32_t layers) { return make_array(*dev, size, layers); }
  static gpu::Ref<WGPUTexture> make_array(testing::TestDevice& on, uint32_t size, uint32_t layers) {
    const gpu::Procs& p = on.procs();
    WGPUTextureDescriptor desc{};
    desc.dimension = WGPUTextureDimension_2D;
    desc.mipLevelCount = 1;
    desc.sampleCount = 1;
    desc.size = {size, size, layers};
    desc.format = WGPUTextureFormat_RGBA8Unorm;
    desc.usage = WGPUTextureUsage_CopyDst | WGPUTextureUsage_CopySrc;
    return gpu::Ref<WGPUTexture>(&p, p.DeviceCreateTexture(on.device.get(), &desc));
  }

  static std::vector<uint8_t> pattern(uint32_t size, uint8_t seed) {
    std::vector<uint8_t> texels(size_t{size} * size * 4);
    for (size_t i = 0; i < texels.size(); ++i) texels[i] = static_cast<uint8_t>(i * 13 + seed);
    return texels;
  }

  // Submits `encoder` through the clock; returns the serial it received.
  Serial submit(WGPUCommandEncoder encoder) {
    const gpu::Procs& p = dev->procs();
    WGPUCommandBuffer commands = p.CommandEncoderFinish(encoder, nullptr);
    Serial s = clock->submit(commands);
    p.CommandBufferRelease(commands);
    return s;
  }

  // Layer `layer` of `texture` as packed rows (blocking readback: test only).
  std::vector<uint8_t> read_layer(WGPUTexture texture, uint32_t size, uint32_t layer) {
    return read_layer(*dev, texture, size, layer);
  }
  std::vector<uint8_t> read_layer(testing::TestDevice& on, WGPUTexture texture, uint32_t size, uint32_t layer) {
    const gpu::Procs& p = on.procs();
    const uint32_t pitch = aligned_row_pitch(size, 4);
    WGPUBufferDescriptor desc{};
    desc.size = uint64_t{pitch} * size;
    desc.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
    gpu::Ref<WGPUBuffer> readback(&p, p.DeviceCreateBuffer(on.device.get(), &desc));
    gpu::Ref<WGPUCommandEncoder> encoder(&p, p.DeviceCreateCommandEncoder(on.device.get(), nullptr));
    gpu::copy_image_to_buffer(p, encoder.get(), texture, readback.get(), size, size, pitch, 0, layer);
    submit(encoder.get());
    auto bytes = on.context->read_mapped(readback.get(), desc.size, testing::kSafetyNet);
    EXPECT_TRUE(bytes.ok()) << bytes.error().message;
    std::vector<uint8_t> packed;
    if (!bytes.ok()) return packed;
    for (uint32_t y = 0; y < size; ++y) {
      packed.insert(packed.end(), bytes->begin() + y * pitch, bytes->begin() + y * pitch + size * 4);
    }
    return packed;
  }

  std::unique_ptr<gpu::QueueClock> clock;
};

TEST(UploadRingPitch, RowsAreRoundedUpToTheCopyAlignment) {
  EXPECT_EQ(aligned_row_pitch(64, 4), 256u);
  EXPECT_EQ(aligned_row_pitch(100, 4), 512u);
  EXPECT_EQ(aligned_row_pitch(256, 4), 1024u);
  EXPECT_EQ(aligned_row_pitch(1, 4), 256u);
}

TEST_F(UploadRingTest, LayersReadBackByteIdenticalToTheStagedTilesWithPaddedRows) {
  constexpr uint32_t kSize = 100;  // 400-byte rows, 512 apart in the ring
  auto array = make_array(kSize, 3);
  auto ring = UploadRing::create(dev->procs(), dev->device.get(), {kSize, 4, 2, 4, "test ring"});
  ASSERT_TRUE(ring.ok()) << ring.error().message;
  ASSERT_EQ((*ring)->row_pitch(), 512u);
  const auto first = pattern(kSize, 1), third = pattern(kSize, 99);
  ASSERT_EQ(outcome((*ring)->stage(array.get(), 0, first)), "staged");
  ASSERT_EQ(outcome((*ring)->stage(array.get(), 2, third)), "staged");
  const gpu::Procs& p = dev->procs();
  gpu::Ref<WGPUCommandEncoder> encoder(&p, p.DeviceCreateCommandEncoder(dev->device.get(), nullptr));
  (*ring)->record(encoder.get(), clock->clock().recording());
  submit(encoder.get());

  EXPECT_EQ(read_layer(array.get(), kSize, 0), first);
  EXPECT_EQ(read_layer(array.get(), kSize, 2), third);
  EXPECT_TRUE(dev->take_errors().empty());
}

TEST_F(UploadRingTest, ABufferIsMappedAgainOnlyAfterTheSubmissionThatReadItRetired) {
  constexpr uint32_t kSize = 64;
  auto array = make_array(kSize, 2);
  auto ring = UploadRing::create(dev->procs(), dev->device.get(), {kSize, 4, 1, 1, "one buffer"});
  ASSERT_TRUE(ring.ok()) << ring.error().message;
  UploadRing& r = **ring;
  const auto tile = pattern(kSize, 5);
  ASSERT_EQ(outcome(r.stage(array.get(), 0, tile)), "staged");
  // The only buffer is full: the next tile is turned away, not waited for.
  EXPECT_EQ(outcome(r.stage(array.get(), 1, tile)), "turned away");
  EXPECT_EQ(r.turned_away(), 1u);

  const gpu::Procs& p = dev->procs();
  gpu::Ref<WGPUCommandEncoder> encoder(&p, p.DeviceCreateCommandEncoder(dev->device.get(), nullptr));
  const Serial reader = clock->clock().recording();
  r.record(encoder.get(), reader);
  EXPECT_EQ(r.state(0), State::InFlight);
  r.recycle(clock->clock());  // recorded, not even submitted
  EXPECT_EQ(r.state(0), State::InFlight);
  EXPECT_EQ(submit(encoder.get()), reader);
  r.recycle(clock->clock());  // submitted, not known to be retired
  EXPECT_EQ(r.state(0), State::InFlight);
  EXPECT_EQ(outcome(r.stage(array.get(), 1, tile)), "turned away");

  // Only the clock's retirement releases it; the map completes in a later ProcessEvents.
  bool saw_mapping = false;
  const auto deadline = std::chrono::steady_clock::now() + testing::kSafetyNet;
  while (r.state(0) != State::Mapped && std::chrono::steady_clock::now() < deadline) {
    clock->poll();
    const bool retired = clock->clock().is_retired(reader);
    r.recycle(clock->clock());
    if (r.state(0) == State::Mapping) {
      EXPECT_TRUE(retired);
      saw_mapping = true;
    } else if (r.state(0) == State::InFlight) {
      EXPECT_FALSE(retired);
    }
    std::this_thread::yield();
  }
  EXPECT_TRUE(saw_mapping);
  ASSERT_EQ(r.state(0), State::Mapped);
  ASSERT_EQ(outcome(r.stage(array.get(), 1, tile)), "staged");
  gpu::Ref<WGPUCommandEncoder> second(&p, p.DeviceCreateCommandEncoder(dev->device.get(), nullptr));
  r.record(second.get(), clock->clock().recording());
  submit(second.get());
  EXPECT_EQ(read_layer(array.get(), kSize, 1), tile);
}

TEST_F(UploadRingTest, FramesThroughTheRingMakeNoBlockingWait) {
  constexpr uint32_t kSize = 64;
  auto array = make_array(kSize, 8);
  auto ring = UploadRing::create(dev->procs(), dev->device.get(), {kSize, 4, 3, 2, "frames"});
  ASSERT_TRUE(ring.ok()) << ring.error().message;
  const gpu::Procs& p = dev->procs();
  const auto tile = pattern(kSize, 7);
  const uint64_t waits = gpu::blocking_wait_count();
  uint64_t staged = 0;
  for (int frame = 0; frame < 60; ++frame) {
    clock->poll();
    (*ring)->recycle(clock->clock());
    for (uint32_t i = 0; i < 2; ++i) {
      auto ok = (*ring)->stage(array.get(), (frame * 2 + i) % 8, tile);
      ASSERT_TRUE(ok.ok()) << ok.error().message;
      staged += *ok;
    }
    gpu::Ref<WGPUCommandEncoder> encoder(&p, p.DeviceCreateCommandEncoder(dev->device.get(), nullptr));
    (*ring)->record(encoder.get(), clock->clock().recording());
    submit(encoder.get());
  }
  EXPECT_EQ(gpu::blocking_wait_count(), waits);
  EXPECT_GT(staged, 0u);
  EXPECT_TRUE(dev->take_errors().empty());
}

// The ring is not rebuilt after a device loss (docs/adr/0018): its buffers are the lost
// device's, and a buffer waiting to be mapped again never is. The application drops it (nothing
// waits, nothing crashes) and makes a ring on the new device, which uploads as before.
TEST_F(UploadRingTest, AfterALossTheRingIsMadeAgainOnTheNewDevice) {
  constexpr uint32_t kSize = 64;
  auto second = testing::open_test_device(testing::pixel_test_backend());
  ASSERT_NE(second, nullptr);
  {
    auto array = make_array(kSize, 2);
    auto ring = UploadRing::create(dev->procs(), dev->device.get(), {kSize, 4, 2, 1, "lost ring"});
    ASSERT_TRUE(ring.ok()) << ring.error().message;
    const auto tile = pattern(kSize, 3);
    const gpu::Procs& p = dev->procs();
    ASSERT_EQ(outcome((*ring)->stage(array.get(), 0, tile)), "staged");
    gpu::Ref<WGPUCommandEncoder> encoder(&p, p.DeviceCreateCommandEncoder(dev->device.get(), nullptr));
    (*ring)->record(encoder.get(), clock->clock().recording());
    submit(encoder.get());
    ASSERT_EQ(outcome((*ring)->stage(array.get(), 1, tile)), "staged");  // staged when the loss comes

    p.DeviceForceLoss(dev->device.get(), WGPUDeviceLostReason_Unknown, gpu::string_view("forced by the test"));
    dev->context->process_events();
    ASSERT_TRUE(dev->lost);
    clock->rebind(second->queue.get());
    for (int i = 0; i < 20; ++i) {
      clock->poll();
      dev->context->process_events();
      (*ring)->recycle(clock->clock());
    }
    EXPECT_NE((*ring)->state(0), State::Mapped) << "a lost device maps nothing again";
    ring->reset();  // a map still pending ends with the buffer; its callback finds nothing
    dev->context->process_events();
  }

  auto array = make_array(*second, kSize, 2);
  auto ring = UploadRing::create(second->procs(), second->device.get(), {kSize, 4, 2, 1, "new ring"});
  ASSERT_TRUE(ring.ok()) << ring.error().message;
  const auto tile = pattern(kSize, 11);
  ASSERT_EQ(outcome((*ring)->stage(array.get(), 1, tile)), "staged");
  const gpu::Procs& p = second->procs();
  gpu::Ref<WGPUCommandEncoder> encoder(&p, p.DeviceCreateCommandEncoder(second->device.get(), nullptr));
  (*ring)->record(encoder.get(), clock->clock().recording());
  submit(encoder.get());
  EXPECT_EQ(read_layer(*second, array.get(), kSize, 1), tile);
  EXPECT_TRUE(second->take_errors().empty());
  ring->reset();
  array.reset();
  second->queue.reset();
  second->device.reset();
  second->adapter.adapter.reset();
  second->context->process_events();
}

TEST_F(UploadRingTest, BadInputIsRefusedWithTheNumbers) {
  auto empty = UploadRing::create(dev->procs(), dev->device.get(), {64, 4, 0, 2, "no buffers"});
  ASSERT_THAT(empty, FailsWith(MessageId::UploadRingZeroSize));
  EXPECT_EQ(empty.error().kind, ErrorKind::InvalidArgument);
  EXPECT_THAT(empty, NamesKind("upload ring"));
  EXPECT_THAT(empty, NamesLabel("no buffers"));
  auto ring = UploadRing::create(dev->procs(), dev->device.get(), {64, 4, 1, 1, "sized"});
  ASSERT_TRUE(ring.ok()) << ring.error().message;
  auto array = make_array(64, 1);
  std::vector<uint8_t> short_tile(100);
  auto staged = (*ring)->stage(array.get(), 0, short_tile);
  ASSERT_THAT(staged, FailsWith(MessageId::TileTexelsSizeMismatch));
  EXPECT_EQ(staged.error().kind, ErrorKind::InvalidArgument);
  EXPECT_THAT(staged.error().message, HasSubstr("100 bytes, expected 16384"));
}

}  // namespace
}  // namespace warden::tiles
