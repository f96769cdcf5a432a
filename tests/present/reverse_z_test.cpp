// Reverse-Z (depth.h, math.h) on the real library (GL): the projection's numbers, and two
// overlapping triangles at different depths, drawn in both orders: the nearer wins both times.
// The same draw with the conventional depth helpers and projection.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "support/gpu_test.h"
#include "warden/present/depth.h"
#include "warden/present/math.h"
#include "warden/present/readback.h"
#include "warden/present/render_target.h"
#include "warden/gpu/objects.h"

namespace warden::present {
namespace {

using ::testing::IsEmpty;
using Rgba = std::array<uint8_t, 4>;

float depth_of(const Mat4& projection, float distance) {
  const Vec4 clip = projection * Vec4{0, 0, -distance, 1};
  return clip.z / clip.w;
}

TEST(ReverseZProjection, NearIsOneFartherIsSmallerAndInfinityIsZero) {
  const Mat4 p = perspective_reverse_z_infinite(std::numbers::pi_v<float> / 2, 1.5f, 0.1f);
  EXPECT_FLOAT_EQ(depth_of(p, 0.1f), 1.0f);
  EXPECT_FLOAT_EQ(depth_of(p, 0.2f), 0.5f);
  EXPECT_FLOAT_EQ(depth_of(p, 1000.0f), 1e-4f);
  EXPECT_GT(depth_of(p, 1e30f), 0.0f);
  EXPECT_LT(depth_of(p, 1e30f), 1e-30f);
  // The aspect ratio divides x, the focal length scales y (90 degrees: 1).
  const Vec4 corner = p * Vec4{1.5f, 1.0f, -1.0f, 1};
  EXPECT_FLOAT_EQ(corner.x / corner.w, 1.0f);
  EXPECT_FLOAT_EQ(corner.y / corner.w, 1.0f);
}

TEST(ReverseZProjection, TheStandardMappingIsTheOtherWayRound) {
  const Mat4 p = perspective_standard(std::numbers::pi_v<float> / 2, 1.0f, 0.1f, 100.0f);
  EXPECT_NEAR(depth_of(p, 0.1f), 0.0f, 1e-6);
  EXPECT_NEAR(depth_of(p, 100.0f), 1.0f, 1e-6);
}

TEST(ReverseZConvention, DepthClearsToZeroAndComparesGreaterEqualInDepth32Float) {
  const WGPUDepthStencilState state = reverse_z_depth_state();
  EXPECT_EQ(state.format, WGPUTextureFormat_Depth32Float);
  EXPECT_EQ(state.depthCompare, WGPUCompareFunction_GreaterEqual);
  EXPECT_EQ(state.depthWriteEnabled, WGPUOptionalBool_True);
  EXPECT_EQ(reverse_z_depth_state(false).depthWriteEnabled, WGPUOptionalBool_False);
  const WGPURenderPassDepthStencilAttachment attachment = reverse_z_depth_attachment(nullptr);
  EXPECT_EQ(attachment.depthClearValue, 0.0f);
  EXPECT_EQ(attachment.depthLoadOp, WGPULoadOp_Clear);
}

TEST(StandardDepthConvention, DepthClearsToOneAndComparesLessInDepth32Float) {
  const WGPUDepthStencilState state = standard_depth_state();
  EXPECT_EQ(state.format, WGPUTextureFormat_Depth32Float);
  EXPECT_EQ(state.depthCompare, WGPUCompareFunction_Less);
  EXPECT_EQ(state.depthWriteEnabled, WGPUOptionalBool_True);
  EXPECT_EQ(state.stencilReadMask, 0xFFFFFFFFu);
  EXPECT_EQ(standard_depth_state(false).depthWriteEnabled, WGPUOptionalBool_False);
  const resources::DepthState description = standard_depth(false);
  EXPECT_EQ(description.format, WGPUTextureFormat_Depth32Float);
  EXPECT_EQ(description.compare, WGPUCompareFunction_Less);
  EXPECT_FALSE(description.write);
  const WGPURenderPassDepthStencilAttachment attachment = standard_depth_attachment(nullptr);
  EXPECT_EQ(attachment.depthClearValue, 1.0f);
  EXPECT_EQ(attachment.depthLoadOp, WGPULoadOp_Clear);
  EXPECT_EQ(attachment.depthStoreOp, WGPUStoreOp_Store);
}

// A triangle in view space at `distance`, scaled with it so that every distance covers the same
// screen triangle, moved right by `shift` (in NDC).
constexpr const char* kTriangleWgsl = R"(
struct Uniforms { clip_from_view : mat4x4<f32> }
@group(0) @binding(0) var<uniform> u : Uniforms;
override distance : f32 = 1.0;
override shift : f32 = 0.0;
override red : f32 = 1.0;
override green : f32 = 0.0;
@vertex fn vs(@builtin(vertex_index) i : u32) -> @builtin(position) vec4<f32> {
  var p = array<vec2<f32>, 3>(vec2<f32>(-0.5, -0.5), vec2<f32>(0.5, -0.5), vec2<f32>(0.0, 0.5));
  let v = vec3<f32>((p[i] + vec2<f32>(shift, 0.0)) * distance, -distance);
  return u.clip_from_view * vec4<f32>(v, 1.0);
}
@fragment fn fs() -> @location(0) vec4<f32> { return vec4<f32>(red, green, 0.0, 1.0); }
)";

class ReverseZTest : public testing::GlDeviceTest {
 protected:
  struct Triangle {
    double distance;
    double shift;
    double red;
    double green;
  };

  void SetUp() override {
    GlDeviceTest::SetUp();
    ASSERT_NE(dev, nullptr);
    registry = std::make_unique<resources::Registry>(*dev->context, dev->device.get(), dev->queue.get());
    auto colour = RenderTarget::create(*registry, {.width = kSize, .height = kSize});
    ASSERT_TRUE(colour);
    target = std::make_unique<RenderTarget>(std::move(colour.value()));
    auto depth = RenderTarget::create(*registry, {.width = kSize, .height = kSize, .format = kDepthFormat,
                                                  .usage = WGPUTextureUsage_RenderAttachment, .label = "depth"});
    ASSERT_TRUE(depth) << depth.error().message;
    depth_target = std::make_unique<RenderTarget>(std::move(depth.value()));
    auto uniforms = registry->create_buffer({.size = sizeof(Mat4), .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst});
    ASSERT_TRUE(uniforms);
    uniform_buffer = *uniforms;
    auto module = registry->create_shader_module(kTriangleWgsl, "triangles");
    ASSERT_TRUE(module) << module.error().message;
    shader = *module;
    WGPUBindGroupLayoutEntry entry{};
    entry.binding = 0;
    entry.visibility = WGPUShaderStage_Vertex;
    entry.buffer.type = WGPUBufferBindingType_Uniform;
    auto group_layout = registry->create_bind_group_layout({&entry, 1}, "uniforms");
    ASSERT_TRUE(group_layout) << group_layout.error().message;
    const BindGroupLayoutHandle layouts[] = {*group_layout};
    auto pipeline_layout = registry->create_pipeline_layout(layouts, "triangles");
    ASSERT_TRUE(pipeline_layout) << pipeline_layout.error().message;
    layout = *pipeline_layout;
    auto group = registry->create_bind_group({.layout = *group_layout, .entries = {{0, resources::BufferBinding{uniform_buffer}}}});
    ASSERT_TRUE(group) << group.error().message;
    bind_group = *group;
  }
  void TearDown() override {
    registry.reset();
    GlDeviceTest::TearDown();
  }

  WGPURenderPipeline make_pipeline(const Triangle& t) {
    const WGPUConstantEntry vertex_constants[] = {{nullptr, gpu::string_view("distance"), t.distance},
                                                  {nullptr, gpu::string_view("shift"), t.shift}};
    const WGPUConstantEntry fragment_constants[] = {{nullptr, gpu::string_view("red"), t.red},
                                                    {nullptr, gpu::string_view("green"), t.green}};
    gpu::VsFsPipelineDescription p(*registry->resolve(shader));
    p.desc.vertex.constantCount = 2;
    p.desc.vertex.constants = vertex_constants;
    p.fragment.constantCount = 2;
    p.fragment.constants = fragment_constants;
    const WGPUDepthStencilState depth = standard ? standard_depth_state() : reverse_z_depth_state();
    p.desc.depthStencil = &depth;
    p.desc.layout = *registry->resolve(layout);
    return dev->procs().DeviceCreateRenderPipeline(dev->device.get(), &p.desc);
  }

  // Draws the triangles in the order given into a cleared colour and depth target, with the
  // projection, depth test and clear of the convention `standard` picks.
  // A near red and a far green triangle overlap: red wins the overlap, and each keeps what only
  // it covers, whichever is drawn first.
  void expect_nearer_triangle_wins() {
    const Triangle near_red{2.0, 0.0, 1.0, 0.0};
    const Triangle far_green{6.0, 0.25, 0.0, 1.0};
    const Rgba red{255, 0, 0, 255}, green{0, 255, 0, 255}, clear{0, 0, 255, 255};
    const auto check = [&](const Image& image) {
      EXPECT_EQ(image.pixel(kOverlapX, kOverlapY), red);
      EXPECT_EQ(image.pixel(kFarOnlyX, kFarOnlyY), green);
      EXPECT_EQ(image.pixel(2, 2), clear);
    };
    check(draw({near_red, far_green}));
    check(draw({far_green, near_red}));
    EXPECT_THAT(dev->take_errors(), IsEmpty());
  }

  Image draw(std::initializer_list<Triangle> triangles) {
    const gpu::Procs& procs = dev->procs();
    const float fovy = std::numbers::pi_v<float> / 2;
    const Mat4 projection = standard ? perspective_standard(fovy, 1.0f, 0.1f, 100.0f)
                                     : perspective_reverse_z_infinite(fovy, 1.0f, 0.1f);
    EXPECT_TRUE(registry->write_buffer(uniform_buffer, 0, projection.m.data(), sizeof projection.m));
    std::vector<WGPURenderPipeline> pipelines;
    for (const Triangle& t : triangles) pipelines.push_back(make_pipeline(t));
    const WGPUBindGroup group = *registry->resolve(bind_group);

    WGPURenderPassColorAttachment colour{};
    colour.depthSlice = WGPU_DEPTH_SLICE_UNDEFINED;
    colour.view = *registry->resolve(target->view());
    colour.loadOp = WGPULoadOp_Clear;
    colour.storeOp = WGPUStoreOp_Store;
    colour.clearValue = {0, 0, 1, 1};
    const WGPUTextureView depth_view = *registry->resolve(depth_target->view());
    const WGPURenderPassDepthStencilAttachment depth =
        standard ? standard_depth_attachment(depth_view) : reverse_z_depth_attachment(depth_view);
    WGPURenderPassDescriptor pass_desc{};
    pass_desc.colorAttachmentCount = 1;
    pass_desc.colorAttachments = &colour;
    pass_desc.depthStencilAttachment = &depth;
    WGPUCommandEncoder encoder = procs.DeviceCreateCommandEncoder(dev->device.get(), nullptr);
    WGPURenderPassEncoder pass = procs.CommandEncoderBeginRenderPass(encoder, &pass_desc);
    for (WGPURenderPipeline pipeline : pipelines) {
      procs.RenderPassEncoderSetPipeline(pass, pipeline);
      procs.RenderPassEncoderSetBindGroup(pass, 0, group, 0, nullptr);
      procs.RenderPassEncoderDraw(pass, 3, 1, 0, 0);
    }
    procs.RenderPassEncoderEnd(pass);
    procs.RenderPassEncoderRelease(pass);
    WGPUCommandBuffer commands = procs.CommandEncoderFinish(encoder, nullptr);
    registry->submit(commands);
    procs.CommandBufferRelease(commands);
    procs.CommandEncoderRelease(encoder);
    for (WGPURenderPipeline pipeline : pipelines) procs.RenderPipelineRelease(pipeline);
    auto image = read_image(*dev->context, *registry, target->texture());
    EXPECT_TRUE(image) << image.error().message;
    return image ? *image : Image{};
  }

  static constexpr uint32_t kSize = 64;
  // In pixels of the 64x64 target (NDC x right, y up; rows top down).
  static constexpr uint32_t kOverlapX = 35, kOverlapY = 38;  // NDC ( 0.1, -0.2): both triangles
  static constexpr uint32_t kFarOnlyX = 48, kFarOnlyY = 44;  // NDC ( 0.5, -0.4): the far one only
  // The conventional depth (standard_depth_*, perspective_standard) instead of reverse-Z.
  bool standard = false;
  std::unique_ptr<resources::Registry> registry;
  std::unique_ptr<RenderTarget> target;
  std::unique_ptr<RenderTarget> depth_target;
  BufferHandle uniform_buffer;
  ShaderModuleHandle shader;
  PipelineLayoutHandle layout;
  BindGroupHandle bind_group;
};

TEST_F(ReverseZTest, TheNearerTriangleWinsInBothDrawingOrders) { expect_nearer_triangle_wins(); }

TEST_F(ReverseZTest, WithTheStandardDepthHelpersTheNearerTriangleWinsInBothDrawingOrders) {
  standard = true;
  expect_nearer_triangle_wins();
}

}  // namespace
}  // namespace warden::present
