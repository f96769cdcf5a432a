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

Ref<WGPUShaderModule> module(const Procs& p, WGPUDevice device, const char* code) {
  WGPUShaderSourceWGSL wgsl{};
  wgsl.chain.sType = WGPUSType_ShaderSourceWGSL;
  wgsl.code = WGPUStringView{code, WGPU_STRLEN};
  WGPUShaderModuleDescriptor desc{};
  desc.nextInChain = &wgsl.chain;
  return Ref<WGPUShaderModule>(&p, p.DeviceCreateShaderModule(device, &desc));
}

Ref<WGPURenderPipeline> instance_pipeline(const Procs& p, WGPUDevice device, WGPUShaderModule m,
                                      WGPUVertexFormat color_format, WGPUVertexFormat half_format) {
  WGPUVertexAttribute attrs[2]{};
  attrs[0].format = color_format;
  attrs[0].offset = 0;
  attrs[0].shaderLocation = 0;
  attrs[1].format = half_format;
  attrs[1].offset = 16;
  attrs[1].shaderLocation = 1;
  WGPUVertexBufferLayout layout{};
  layout.stepMode = WGPUVertexStepMode_Instance;
  layout.arrayStride = sizeof(Instance);
  layout.attributeCount = 2;
  layout.attributes = attrs;
  VsFsPipelineDescription desc(m);
  desc.desc.vertex.bufferCount = 1;
  desc.desc.vertex.buffers = &layout;
  return Ref<WGPURenderPipeline>(&p, p.DeviceCreateRenderPipeline(device, &desc.desc));
}

// Two instances of one three-vertex draw: each half of the target shows its own instance's
// colour, so the attribute advanced per instance (Instance = 2) and both formats were read as
// declared (Float32x4 = 31 as four floats, Uint32 = 32 as one integer).
TEST_F(GlDeviceTest, AbiInstanceStepModeAndInstanceVertexFormatsDrawPerInstance) {
  const Procs& p = dev->procs();
  WGPUDevice device = dev->device.get();
  auto m = module(p, device, kInstanceWgsl);
  auto pipeline = instance_pipeline(p, device, m.get(), WGPUVertexFormat_Float32x4, WGPUVertexFormat_Uint32);
  const Instance instances[2] = {{{1, 0, 0, 1}, 0}, {{0, 0, 1, 1}, 1}};
  WGPUBufferDescriptor vdesc{};
  vdesc.usage = WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst;
  vdesc.size = sizeof(instances);
  Ref<WGPUBuffer> vertices(&p, p.DeviceCreateBuffer(device, &vdesc));
  p.QueueWriteBuffer(dev->queue.get(), vertices.get(), 0, instances, sizeof(instances));

  constexpr uint32_t kSize = 64;
  WGPUTextureDescriptor tdesc{};
  tdesc.dimension = WGPUTextureDimension_2D;
  tdesc.mipLevelCount = 1;
  tdesc.sampleCount = 1;
  tdesc.size = {kSize, kSize, 1};
  tdesc.format = WGPUTextureFormat_RGBA8Unorm;
  tdesc.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc;
  Ref<WGPUTexture> target(&p, p.DeviceCreateTexture(device, &tdesc));
  Ref<WGPUTextureView> view(&p, p.TextureCreateView(target.get(), nullptr));
  WGPUBufferDescriptor rdesc{};
  rdesc.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
  rdesc.size = kSize * kSize * 4;
  Ref<WGPUBuffer> readback(&p, p.DeviceCreateBuffer(device, &rdesc));

  std::string errors = testing::validation_message(*dev, [&] {
    Ref<WGPUCommandEncoder> enc(&p, p.DeviceCreateCommandEncoder(device, nullptr));
    WGPURenderPassEncoder pass = begin_clear_pass(p, enc.get(), view.get());
    p.RenderPassEncoderSetPipeline(pass, pipeline.get());
    p.RenderPassEncoderSetVertexBuffer(pass, 0, vertices.get(), 0, WGPU_WHOLE_SIZE);
    p.RenderPassEncoderDraw(pass, 3, 2, 0, 0);
    p.RenderPassEncoderEnd(pass);
    p.RenderPassEncoderRelease(pass);
    copy_image_to_buffer(p, enc.get(), target.get(), readback.get(), kSize, kSize, kSize * 4);
    WGPUCommandBuffer commands = p.CommandEncoderFinish(enc.get(), nullptr);
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
  WGPUDevice device = dev->device.get();
  auto m = module(p, device, kInstanceWgsl);
  std::string message = testing::validation_message(*dev, [&] {
    auto pipeline = instance_pipeline(p, device, m.get(), WGPUVertexFormat_Uint32, WGPUVertexFormat_Uint32);
  });
  EXPECT_NE(message.find("VertexFormat::Uint32"), std::string::npos) << message;
  message = testing::validation_message(*dev, [&] {
    auto pipeline = instance_pipeline(p, device, m.get(), WGPUVertexFormat_Float32x4, WGPUVertexFormat_Float32x4);
  });
  EXPECT_NE(message.find("VertexFormat::Float32x4"), std::string::npos) << message;
}

// In Compatibility mode a one-layer texture binds as 2D unless created with the chained
// WGPUTextureBindingViewDimensionDescriptor (sType 0x20001) saying 2DArray; a Core adapter binds
// it as its view says, chain or not.
TEST_F(GlDeviceTest, AbiTextureBindingViewDimensionDescriptorAllowsArrayBinding) {
  const Procs& p = dev->procs();
  WGPUDevice device = dev->device.get();
  WGPUBindGroupLayoutEntry entry{};
  entry.binding = 0;
  entry.visibility = WGPUShaderStage_Fragment;
  entry.texture.sampleType = WGPUTextureSampleType_Float;
  entry.texture.viewDimension = WGPUTextureViewDimension_2DArray;
  WGPUBindGroupLayoutDescriptor ldesc{};
  ldesc.entryCount = 1;
  ldesc.entries = &entry;
  Ref<WGPUBindGroupLayout> layout(&p, p.DeviceCreateBindGroupLayout(device, &ldesc));

  auto bind = [&](bool chained) {
    WGPUTextureBindingViewDimensionDescriptor bound_as{};
    bound_as.chain.sType = WGPUSType_TextureBindingViewDimensionDescriptor;
    bound_as.textureBindingViewDimension = WGPUTextureViewDimension_2DArray;
    WGPUTextureDescriptor tdesc{};
    tdesc.dimension = WGPUTextureDimension_2D;
    tdesc.mipLevelCount = 1;
    tdesc.sampleCount = 1;
    tdesc.nextInChain = chained ? &bound_as.chain : nullptr;
    tdesc.size = {4, 4, 1};
    tdesc.format = WGPUTextureFormat_RGBA8Unorm;
    tdesc.usage = WGPUTextureUsage_TextureBinding;
    return testing::validation_message(*dev, [&] {
      Ref<WGPUTexture> texture(&p, p.DeviceCreateTexture(device, &tdesc));
      WGPUTextureViewDescriptor vdesc{};
      vdesc.mipLevelCount = WGPU_MIP_LEVEL_COUNT_UNDEFINED;
      vdesc.arrayLayerCount = WGPU_ARRAY_LAYER_COUNT_UNDEFINED;
      vdesc.aspect = WGPUTextureAspect_All;
      vdesc.dimension = WGPUTextureViewDimension_2DArray;
      Ref<WGPUTextureView> view(&p, p.TextureCreateView(texture.get(), &vdesc));
      WGPUBindGroupEntry bentry{};
      bentry.size = WGPU_WHOLE_SIZE;
      bentry.binding = 0;
      bentry.textureView = view.get();
      WGPUBindGroupDescriptor bdesc{};
      bdesc.layout = layout.get();
      bdesc.entryCount = 1;
      bdesc.entries = &bentry;
      Ref<WGPUBindGroup> group(&p, p.DeviceCreateBindGroup(device, &bdesc));
    });
  };
  EXPECT_EQ(bind(true), "");
  std::string unchained = bind(false);
  if (dev->adapter.description.feature_level == WGPUFeatureLevel_Compatibility) {
    EXPECT_NE(unchained.find("textureBindingViewDimension (TextureViewDimension::e2D)"), std::string::npos)
        << unchained;
  } else {
    // A Core adapter (NVIDIA's GL offers one) binds by the view alone: the chain is not needed.
    EXPECT_EQ(unchained, "");
  }
}

}  // namespace
}  // namespace warden
