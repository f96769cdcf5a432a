// Debug draw: the CPU accumulator's shapes, and the drawer on the real library (GL): a steady set
// of lines for 1,000 frames grows the buffer only in the first, and the lines land in a
// readback where they were drawn.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <numbers>

#include "support/gpu_test.h"
#include "support/error_object.h"
#include "support/messages.h"
#include "warden/debugdraw/debug_drawer.h"
#include "warden/present/readback.h"
#include "warden/present/render_target.h"

namespace warden::debugdraw {
namespace {

using ::testing::IsEmpty;
using Rgba = std::array<uint8_t, 4>;

TEST(LineList, ShapesAreTheirEdges) {
  LineList lines;
  lines.line({0, 0, 0}, {1, 2, 3}, kWhite);
  EXPECT_EQ(lines.line_count(), 1u);
  lines.box({-1, -1, -1}, {1, 1, 1}, kYellow);
  EXPECT_EQ(lines.line_count(), 13u);
  float total_length = 0;
  for (size_t i = 2; i < lines.vertices().size(); i += 2) {
    const auto& a = lines.vertices()[i];
    const auto& b = lines.vertices()[i + 1];
    total_length += std::abs(a.x - b.x) + std::abs(a.y - b.y) + std::abs(a.z - b.z);
    EXPECT_EQ(a.colour, kYellow);
  }
  EXPECT_FLOAT_EQ(total_length, 24.0f) << "12 axis-aligned edges of length 2";

  lines.clear();
  lines.axes({1, 1, 1}, 2);
  ASSERT_EQ(lines.line_count(), 3u);
  EXPECT_EQ(lines.vertices()[1].x, 3.0f);
  EXPECT_EQ(lines.vertices()[1].colour, kRed);
  EXPECT_EQ(lines.vertices()[3].y, 3.0f);
  EXPECT_EQ(lines.vertices()[3].colour, kGreen);
  EXPECT_EQ(lines.vertices()[5].z, 3.0f);
  EXPECT_EQ(lines.vertices()[5].colour, kBlue);
}

TEST(LineList, FrustumCornersSitOnTheNearAndFarPlanes) {
  LineList lines;
  lines.frustum(present::translation({0, 0, 10}), std::numbers::pi_v<float> / 2, 2.0f, 1.0f, 4.0f, kWhite);
  ASSERT_EQ(lines.line_count(), 12u);
  float min_x = 1e9f, max_x = -1e9f, min_z = 1e9f, max_z = -1e9f;
  for (const LineVertex& v : lines.vertices()) {
    min_x = std::min(min_x, v.x);
    max_x = std::max(max_x, v.x);
    min_z = std::min(min_z, v.z);
    max_z = std::max(max_z, v.z);
  }
  EXPECT_FLOAT_EQ(max_z, 9.0f) << "near plane 1 in front of a camera at z=10 looking down -z";
  EXPECT_FLOAT_EQ(min_z, 6.0f);
  EXPECT_FLOAT_EQ(max_x, 8.0f) << "far half-width: 4 * tan(45 deg) * aspect 2";
  EXPECT_FLOAT_EQ(min_x, -8.0f);
}

TEST(LineList, ClearKeepsTheStorage) {
  LineList lines;
  for (int i = 0; i < 100; ++i) lines.line({0, 0, 0}, {1, 1, 1}, kWhite);
  const LineVertex* storage = lines.vertices().data();
  lines.clear();
  for (int i = 0; i < 100; ++i) lines.line({0, 0, 0}, {1, 1, 1}, kWhite);
  EXPECT_EQ(lines.vertices().data(), storage);
}

class DebugDrawerTest : public testing::GlDeviceTest {
 protected:
  void SetUp() override {
    GlDeviceTest::SetUp();
    ASSERT_NE(dev, nullptr);
    registry = std::make_unique<resources::Registry>(*dev->context, dev->device.get(), dev->queue.get());
    auto colour = present::RenderTarget::create(*registry, {.width = kSize, .height = kSize});
    ASSERT_TRUE(colour);
    target = std::make_unique<present::RenderTarget>(std::move(colour.value()));
    auto depth = present::RenderTarget::create(*registry, {.width = kSize, .height = kSize, .format = present::kDepthFormat,
                                                           .usage = WGPUTextureUsage_RenderAttachment, .label = "depth"});
    ASSERT_TRUE(depth);
    depth_target = std::make_unique<present::RenderTarget>(std::move(depth.value()));
  }
  void TearDown() override {
    registry.reset();
    GlDeviceTest::TearDown();
  }

  // One frame: clear colour and depth, draw the uploaded lines, submit.
  void render(DebugDrawer& drawer) {
    const gpu::Procs& procs = dev->procs();
    WGPURenderPassColorAttachment colour{};
    colour.depthSlice = WGPU_DEPTH_SLICE_UNDEFINED;
    colour.view = *registry->resolve(target->view());
    colour.loadOp = WGPULoadOp_Clear;
    colour.storeOp = WGPUStoreOp_Store;
    colour.clearValue = {0, 0, 0, 1};
    const auto depth = present::reverse_z_depth_attachment(*registry->resolve(depth_target->view()));
    WGPURenderPassDescriptor desc{};
    desc.colorAttachmentCount = 1;
    desc.colorAttachments = &colour;
    desc.depthStencilAttachment = &depth;
    WGPUCommandEncoder encoder = procs.DeviceCreateCommandEncoder(dev->device.get(), nullptr);
    WGPURenderPassEncoder pass = procs.CommandEncoderBeginRenderPass(encoder, &desc);
    drawer.draw(pass);
    procs.RenderPassEncoderEnd(pass);
    procs.RenderPassEncoderRelease(pass);
    WGPUCommandBuffer commands = procs.CommandEncoderFinish(encoder, nullptr);
    registry->touch(target->view());
    registry->touch(depth_target->view());
    registry->submit(commands);
    procs.CommandBufferRelease(commands);
    procs.CommandEncoderRelease(encoder);
    registry->poll();
  }

  // NDC of a pixel centre of the kSize x kSize target.
  static float ndc_x(uint32_t column) { return 2.0f * (column + 0.5f) / kSize - 1.0f; }
  static float ndc_y(uint32_t row) { return 1.0f - 2.0f * (row + 0.5f) / kSize; }

  static constexpr uint32_t kSize = 64;
  std::unique_ptr<resources::Registry> registry;
  std::unique_ptr<present::RenderTarget> target;
  std::unique_ptr<present::RenderTarget> depth_target;
};

TEST_F(DebugDrawerTest, AThousandFramesOfSteadyLinesGrowOnlyInTheFirstAndTheLinesAreWhereDrawn) {
  auto created = DebugDrawer::create(*registry, {.initial_capacity_bytes = 1024});
  ASSERT_TRUE(created) << created.error().message;
  DebugDrawer& drawer = **created;
  // Clip space is world space here (identity), at depth 0.5: in front of the cleared depth 0.
  const present::Mat4 identity = present::Mat4::identity();
  LineList lines;
  uint64_t grows_after_first = 0;
  for (int frame = 0; frame < 1000; ++frame) {
    lines.clear();
    lines.line({-1, ndc_y(20), 0.5f}, {1, ndc_y(20), 0.5f}, kRed);      // row 20
    lines.line({ndc_x(40), -1, 0.5f}, {ndc_x(40), 1, 0.5f}, kGreen);    // column 40
    for (int i = 0; i < 200; ++i) lines.box({-0.9f, -0.9f, 0.5f}, {-0.8f, -0.8f, 0.5f}, kBlue);
    ASSERT_TRUE(drawer.upload(lines, identity));
    render(drawer);
    if (frame == 0) grows_after_first = drawer.grows();
  }
  EXPECT_GT(grows_after_first, 0u) << "2,404 lines do not fit 1 KiB: the first frame grows";
  EXPECT_EQ(drawer.grows(), grows_after_first) << "steady state: the buffer is reused";
  EXPECT_EQ(drawer.uploads(), 1000u);
  EXPECT_GE(drawer.capacity_bytes(), DebugDrawer::kVertexOffset + 2404 * 2 * sizeof(LineVertex));

  auto image = present::read_image(*dev->context, *registry, target->texture());
  ASSERT_TRUE(image) << image.error().message;
  const Rgba red{255, 0, 0, 255}, green{0, 255, 0, 255}, black{0, 0, 0, 255};
  EXPECT_EQ(image->pixel(10, 20), red);
  EXPECT_EQ(image->pixel(60, 20), red);
  EXPECT_EQ(image->pixel(40, 5), green);
  EXPECT_EQ(image->pixel(40, 55), green);
  EXPECT_EQ(image->pixel(10, 30), black) << "nothing drawn there";
  EXPECT_EQ(image->pixel(50, 50), black);
  EXPECT_THAT(dev->take_errors(), IsEmpty());
}

TEST_F(DebugDrawerTest, TheBufferDoublesUnderTheSameHandleOnlyWhenItMustGrow) {
  auto created = DebugDrawer::create(*registry, {.initial_capacity_bytes = 512});
  ASSERT_TRUE(created);
  DebugDrawer& drawer = **created;
  const BufferHandle buffer = drawer.buffer();
  LineList lines;
  for (int i = 0; i < 8; ++i) lines.line({0, 0, 0}, {1, 1, 0}, kWhite);  // 256 bytes: fits exactly
  ASSERT_TRUE(drawer.upload(lines, present::Mat4::identity()));
  EXPECT_EQ(drawer.grows(), 0u);
  EXPECT_EQ(drawer.capacity_bytes(), 512u);
  lines.line({0, 0, 0}, {1, 1, 0}, kWhite);  // one more line: 544 bytes
  ASSERT_TRUE(drawer.upload(lines, present::Mat4::identity()));
  EXPECT_EQ(drawer.grows(), 1u);
  EXPECT_EQ(drawer.capacity_bytes(), 1024u);
  for (int i = 0; i < 200; ++i) lines.line({0, 0, 0}, {1, 1, 0}, kWhite);  // 6,688 bytes
  ASSERT_TRUE(drawer.upload(lines, present::Mat4::identity()));
  EXPECT_EQ(drawer.grows(), 2u) << "one grow, straight to the doubling that fits";
  EXPECT_EQ(drawer.capacity_bytes(), 8192u);
  EXPECT_EQ(drawer.buffer(), buffer);
  EXPECT_TRUE(registry->is_alive(buffer));
  lines.clear();
  ASSERT_TRUE(drawer.upload(lines, present::Mat4::identity()));
  EXPECT_EQ(drawer.capacity_bytes(), 8192u) << "never shrinks";
}

TEST_F(DebugDrawerTest, ACapacityWithNoRoomForVerticesIsRefused) {
  auto created = DebugDrawer::create(*registry, {.initial_capacity_bytes = 256, .label = "tiny"});
  ASSERT_THAT(created, warden::testing::FailsWith(MessageId::DebugDrawerCapacityTooSmall));
  EXPECT_THAT(created, warden::testing::NamesKind("debug drawer"));
  EXPECT_THAT(created, warden::testing::NamesLabel("tiny"));
  EXPECT_THAT(created.error().message, ::testing::HasSubstr("initial capacity 256 bytes"));
}

}  // namespace
}  // namespace warden::debugdraw
