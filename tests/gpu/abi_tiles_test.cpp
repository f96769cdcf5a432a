// Proves the declarations the tile layer relies on against the real library: the instance step
// mode, the vertex formats of the instance data, and the Compatibility-mode texture binding
// view dimension chained on a texture_2d_array.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstring>

#include "support/error_scope.h"
#include "support/gpu_test.h"
#include "support/poll_until.h"
#include "warden/gpu/ref.h"
#include "warden/gpu/objects.h"

namespace warden {
namespace {

using namespace gpu;
using testing::GlDeviceTest;

constexpr const char* kInstanceWgsl = R"(
struct VOut {
  @builtin(position) pos : vec4<f32>,
  @location(0) color : vec4<f32>,
};
@vertex
fn vs(@builtin(vertex_index) v : u32, @location(0) color : vec4<f32>, @location(1) half : u32) -> VOut {
  // A triangle covering the left (half 0) or right (half 1) half of the target.
  var p = array<vec2<f32>, 3>(vec2<f32>(0.0, -3.0), vec2<f32>(0.0, 3.0), vec2<f32>(2.0, 0.0));
  let x = select(-1.0, 0.0, half == 1u);
  var out : VOut;
  out.pos = vec4<f32>(p[v].x * 0.5 + x, p[v].y, 0.0, 1.0);
  out.color = color;
  return out;
}
@fragment
fn fs(in : VOut) -> @location(0) vec4<f32> { return in.color; }
)";

struct Instance {
  float color[4];
  uint32_t half;
};
static_assert(sizeof(Instance) == 20);

Ref<ShaderModule> module(const Procs& p, Device device, const char* code) {
  ShaderSourceWGSL wgsl;
  wgsl.code = StringView(code, kStrlen);
  ShaderModuleDescriptor desc;
  desc.nextInChain = &wgsl.chain;
  return Ref<ShaderModule>(&p, p.DeviceCreateShaderModule(device, &desc));
}

Ref<RenderPipeline> instance_pipeline(const Procs& p, Device device, ShaderModule m,
                                      VertexFormat color_format, VertexFormat half_format) {
  VertexAttribute attrs[2];
  attrs[0].format = color_format;
  attrs[0].offset = 0;
  attrs[0].shaderLocation = 0;
  attrs[1].format = half_format;
  attrs[1].offset = 16;
  attrs[1].shaderLocation = 1;
  VertexBufferLayout layout;
  layout.stepMode = VertexStepMode::Instance;
  layout.arrayStride = sizeof(Instance);
  layout.attributeCount = 2;
  layout.attributes = attrs;
  VsFsPipelineDescription desc(m);
  desc.desc.vertex.bufferCount = 1;
  desc.desc.vertex.buffers = &layout;
  return Ref<RenderPipeline>(&p, p.DeviceCreateRenderPipeline(device, &desc.desc));
}

// Two instances of one three-vertex draw: each half of the target shows its own instance's
// colour, so the attribute advanced per instance (Instance = 2) and both formats were read as
// declared (Float32x4 = 31 as four floats, Uint32 = 32 as one integer).
TEST_F(GlDeviceTest, AbiInstanceStepModeAndInstanceVertexFormatsDrawPerInstance) {
  const Procs& p = dev->procs();
  Device device = dev->device.get();
  auto m = module(p, device, kInstanceWgsl);
  auto pipeline = instance_pipeline(p, device, m.get(), VertexFormat::Float32x4, VertexFormat::Uint32);
  const Instance instances[2] = {{{1, 0, 0, 1}, 0}, {{0, 0, 1, 1}, 1}};
  BufferDescriptor vdesc;
  vdesc.usage = BufferUsage::Vertex | BufferUsage::CopyDst;
  vdesc.size = sizeof(instances);
  Ref<Buffer> vertices(&p, p.DeviceCreateBuffer(device, &vdesc));
  p.QueueWriteBuffer(dev->queue.get(), vertices.get(), 0, instances, sizeof(instances));

  constexpr uint32_t kSize = 64;
  TextureDescriptor tdesc;
  tdesc.size = {kSize, kSize, 1};
  tdesc.format = TextureFormat::RGBA8Unorm;
  tdesc.usage = TextureUsage::RenderAttachment | TextureUsage::CopySrc;
  Ref<Texture> target(&p, p.DeviceCreateTexture(device, &tdesc));
  Ref<TextureView> view(&p, p.TextureCreateView(target.get(), nullptr));
  BufferDescriptor rdesc;
  rdesc.usage = BufferUsage::MapRead | BufferUsage::CopyDst;
  rdesc.size = kSize * kSize * 4;
  Ref<Buffer> readback(&p, p.DeviceCreateBuffer(device, &rdesc));

  std::string errors = testing::validation_message(*dev, [&] {
    Ref<CommandEncoder> enc(&p, p.DeviceCreateCommandEncoder(device, nullptr));
    RenderPassEncoder pass = begin_clear_pass(p, enc.get(), view.get());
    p.RenderPassEncoderSetPipeline(pass, pipeline.get());
    p.RenderPassEncoderSetVertexBuffer(pass, 0, vertices.get(), 0, kWholeSize);
    p.RenderPassEncoderDraw(pass, 3, 2, 0, 0);
    p.RenderPassEncoderEnd(pass);
    p.RenderPassEncoderRelease(pass);
    copy_image_to_buffer(p, enc.get(), target.get(), readback.get(), kSize, kSize, kSize * 4);
    CommandBuffer commands = p.CommandEncoderFinish(enc.get(), nullptr);
    p.QueueSubmit(dev->queue.get(), 1, &commands);
    p.CommandBufferRelease(commands);
  });
  EXPECT_EQ(errors, "");
  auto pixels = dev->context->read_mapped(readback.get(), kSize * kSize * 4, warden::testing::kSafetyNet);
  ASSERT_TRUE(pixels) << pixels.error().message;
  auto at = [&](uint32_t x, uint32_t y) {
    std::array<uint8_t, 4> c{};
    std::memcpy(c.data(), pixels->data() + (y * kSize + x) * 4, 4);
    return c;
  };
  EXPECT_EQ(at(16, 32), (std::array<uint8_t, 4>{255, 0, 0, 255}));
  EXPECT_EQ(at(48, 32), (std::array<uint8_t, 4>{0, 0, 255, 255}));
}

// Swapping the two formats makes Dawn name each one it received.
TEST_F(GlDeviceTest, AbiInstanceVertexFormatsAreNamedByDawn) {
  const Procs& p = dev->procs();
  Device device = dev->device.get();
  auto m = module(p, device, kInstanceWgsl);
  std::string message = testing::validation_message(*dev, [&] {
    auto pipeline = instance_pipeline(p, device, m.get(), VertexFormat::Uint32, VertexFormat::Uint32);
  });
  EXPECT_NE(message.find("VertexFormat::Uint32"), std::string::npos) << message;
  message = testing::validation_message(*dev, [&] {
    auto pipeline = instance_pipeline(p, device, m.get(), VertexFormat::Float32x4, VertexFormat::Float32x4);
  });
  EXPECT_NE(message.find("VertexFormat::Float32x4"), std::string::npos) << message;
}

// In Compatibility mode a one-layer texture binds as 2D unless created with the chained
// TextureBindingViewDimensionDescriptor (sType 0x20001) saying 2DArray.
TEST_F(GlDeviceTest, AbiTextureBindingViewDimensionDescriptorAllowsArrayBinding) {
  const Procs& p = dev->procs();
  Device device = dev->device.get();
  BindGroupLayoutEntry entry;
  entry.binding = 0;
  entry.visibility = ShaderStage::Fragment;
  entry.texture.sampleType = TextureSampleType::Float;
  entry.texture.viewDimension = TextureViewDimension::e2DArray;
  BindGroupLayoutDescriptor ldesc;
  ldesc.entryCount = 1;
  ldesc.entries = &entry;
  Ref<BindGroupLayout> layout(&p, p.DeviceCreateBindGroupLayout(device, &ldesc));

  auto bind = [&](bool chained) {
    TextureBindingViewDimensionDescriptor bound_as;
    bound_as.textureBindingViewDimension = TextureViewDimension::e2DArray;
    TextureDescriptor tdesc;
    tdesc.nextInChain = chained ? &bound_as.chain : nullptr;
    tdesc.size = {4, 4, 1};
    tdesc.format = TextureFormat::RGBA8Unorm;
    tdesc.usage = TextureUsage::TextureBinding;
    return testing::validation_message(*dev, [&] {
      Ref<Texture> texture(&p, p.DeviceCreateTexture(device, &tdesc));
      TextureViewDescriptor vdesc;
      vdesc.dimension = TextureViewDimension::e2DArray;
      Ref<TextureView> view(&p, p.TextureCreateView(texture.get(), &vdesc));
      BindGroupEntry bentry;
      bentry.binding = 0;
      bentry.textureView = view.get();
      BindGroupDescriptor bdesc;
      bdesc.layout = layout.get();
      bdesc.entryCount = 1;
      bdesc.entries = &bentry;
      Ref<BindGroup> group(&p, p.DeviceCreateBindGroup(device, &bdesc));
    });
  };
  EXPECT_EQ(bind(true), "");
  std::string unchained = bind(false);
  EXPECT_NE(unchained.find("textureBindingViewDimension (TextureViewDimension::e2D)"), std::string::npos)
      << unchained;
}

}  // namespace
}  // namespace warden
