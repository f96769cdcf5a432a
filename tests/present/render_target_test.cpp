// Offscreen render targets and readback to an image and a PNG file, on the real library (GL).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include <fmt/format.h>

#include "support/gpu_test.h"
#include "support/error_object.h"
#include "support/messages.h"
#include "warden/present/readback.h"
#include "warden/present/render_target.h"
#include "warden/gpu/objects.h"

namespace warden::present {
namespace {

using ::testing::Each;
using testing::FailsWith;
using testing::NamesKind;
using testing::NamesLabel;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using Rgba = std::array<uint8_t, 4>;

class RenderTargetTest : public testing::GlDeviceTest {
 protected:
  void SetUp() override {
    GlDeviceTest::SetUp();
    ASSERT_NE(dev, nullptr);
    registry = std::make_unique<resources::Registry>(*dev->context, dev->device.get(), dev->queue.get());
  }
  void TearDown() override {
    registry.reset();
    GlDeviceTest::TearDown();
  }

  void clear(const RenderTarget& target, WGPUColor colour) {
    const gpu::Procs& procs = dev->procs();
    WGPUCommandEncoder encoder = procs.DeviceCreateCommandEncoder(dev->device.get(), nullptr);
    WGPURenderPassEncoder pass = gpu::begin_clear_pass(procs, encoder, *registry->resolve(target.view()), colour);
    procs.RenderPassEncoderEnd(pass);
    procs.RenderPassEncoderRelease(pass);
    WGPUCommandBuffer commands = procs.CommandEncoderFinish(encoder, nullptr);
    registry->touch(target.view());
    registry->touch(target.texture());
    registry->submit(commands);
    procs.CommandBufferRelease(commands);
    procs.CommandEncoderRelease(encoder);
  }

  static std::vector<Rgba> pixels(const Image& image) {
    std::vector<Rgba> out;
    for (uint32_t y = 0; y < image.height; ++y)
      for (uint32_t x = 0; x < image.width; ++x) out.push_back(image.pixel(x, y));
    return out;
  }

  std::unique_ptr<resources::Registry> registry;
};

TEST_F(RenderTargetTest, ResizeKeepsBothHandlesAndTheNewSizeRendersAndReadsBack) {
  auto target = RenderTarget::create(*registry, {.width = 32, .height = 16, .label = "offscreen"});
  ASSERT_TRUE(target) << target.error().message;
  const TextureHandle texture = target->texture();
  const TextureViewHandle view = target->view();
  clear(*target, {1, 0, 0, 1});
  auto red = read_image(*dev->context, *registry, target->texture());
  ASSERT_TRUE(red) << red.error().message;
  EXPECT_EQ(red->width, 32u);
  EXPECT_EQ(red->height, 16u);
  EXPECT_THAT(pixels(*red), Each(Rgba{255, 0, 0, 255}));

  ASSERT_TRUE(target->resize(70, 45));  // rows of 280 bytes: the readback re-packs 512-byte rows
  EXPECT_EQ(target->texture(), texture);
  EXPECT_EQ(target->view(), view);
  EXPECT_TRUE(registry->is_alive(texture));
  clear(*target, {0, 1, 0, 1});
  auto green = read_image(*dev->context, *registry, target->texture());
  ASSERT_TRUE(green) << green.error().message;
  EXPECT_EQ(green->width, 70u);
  EXPECT_EQ(green->height, 45u);
  EXPECT_THAT(pixels(*green), Each(Rgba{0, 255, 0, 255}));

  // The 32x16 texture and its view went to deferred release and are let go once retired.
  ASSERT_TRUE(dev->context->wait_queue_idle(dev->queue.get(), kReadbackTimeout));
  registry->poll();
  EXPECT_EQ(registry->pending_release_count(), 0u);
  EXPECT_EQ(registry->live_counts().of(ResourceKind::Texture), 1u);
  EXPECT_THAT(dev->take_errors(), IsEmpty());
}

TEST_F(RenderTargetTest, BgraTargetsReadBackAsRgbaAndUnreadableFormatsAreNamed) {
  auto bgra = RenderTarget::create(*registry, {.width = 8, .height = 8, .format = WGPUTextureFormat_BGRA8Unorm});
  ASSERT_TRUE(bgra) << bgra.error().message;
  clear(*bgra, {1, 0.6, 0, 1});  // 0.6 * 255 is 153 under any conforming rounding (0.5 is not)
  auto image = read_image(*dev->context, *registry, bgra->texture());
  ASSERT_TRUE(image) << image.error().message;
  EXPECT_THAT(pixels(*image), Each(Rgba{255, 153, 0, 255}));

  auto hdr = RenderTarget::create(*registry, {.width = 8, .height = 8, .format = WGPUTextureFormat_RGBA16Float});
  ASSERT_TRUE(hdr) << hdr.error().message;
  ASSERT_TRUE(hdr->resize(20, 4));
  EXPECT_EQ(hdr->format(), WGPUTextureFormat_RGBA16Float);
  auto refused = read_image(*dev->context, *registry, hdr->texture());
  ASSERT_THAT(refused, FailsWith(MessageId::ReadImageFormatUnreadable));
  EXPECT_THAT(refused.error().message, HasSubstr("format rgba16float is not readable"));
  EXPECT_THAT(dev->take_errors(), IsEmpty());
}

TEST_F(RenderTargetTest, ZeroAreaIsRefused) {
  auto none = RenderTarget::create(*registry, {.width = 0, .height = 8, .label = "flat"});
  ASSERT_THAT(none, FailsWith(MessageId::RenderTargetZeroSize));
  EXPECT_THAT(none, NamesKind("render target"));
  EXPECT_THAT(none, NamesLabel("flat"));
  EXPECT_THAT(none.error().message, HasSubstr("size 0x8 has no area"));
  auto target = RenderTarget::create(*registry, {.width = 4, .height = 4, .label = "flat"});
  ASSERT_TRUE(target);
  auto resized = target->resize(4, 0);
  ASSERT_THAT(resized, FailsWith(MessageId::RenderTargetZeroSize));
  EXPECT_THAT(resized.error().message, HasSubstr("size 4x0 has no area"));
  EXPECT_EQ(target->width(), 4u);
}

TEST_F(RenderTargetTest, PngRoundTripsTheReadbackAndBadPathsAreNamed) {
  auto target = RenderTarget::create(*registry, {.width = 5, .height = 3});
  ASSERT_TRUE(target);
  clear(*target, {0, 0, 1, 1});
  auto image = read_image(*dev->context, *registry, target->texture());
  ASSERT_TRUE(image);
  const auto path = std::filesystem::temp_directory_path() / fmt::format("warden_png_{}.png", ::getpid());
  ASSERT_TRUE(write_png(*image, path.string()));
  auto back = read_png(path.string());
  std::filesystem::remove(path);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->width, 5u);
  EXPECT_EQ(back->height, 3u);
  EXPECT_EQ(back->rgba, image->rgba);

  auto bad = write_png(*image, "/nonexistent-dir/x.png");
  ASSERT_THAT(bad, FailsWith(MessageId::PngWriteFailed));
  EXPECT_THAT(bad.error().message, HasSubstr("write_png /nonexistent-dir/x.png"));
  auto missing = read_png("/nonexistent-dir/x.png");
  ASSERT_THAT(missing, FailsWith(MessageId::PngReadFailed));
  EXPECT_THAT(missing.error().message, HasSubstr("read_png /nonexistent-dir/x.png"));
  EXPECT_EQ(missing.error().kind, ErrorKind::NotFound);
  const Image short_rows{5, 3, std::vector<uint8_t>(5 * 3 * 4 - 1)};
  auto refused = write_png(short_rows, path.string());
  ASSERT_THAT(refused, FailsWith(MessageId::PngImageSizeMismatch));
  EXPECT_EQ(refused.error().kind, ErrorKind::InvalidArgument);
  EXPECT_FALSE(std::filesystem::exists(path)) << "nothing written for a refused image";
}

}  // namespace
}  // namespace warden::present
