// Proves the render-state half of warden's ABI declarations by their effect on real pixels
// (GL over llvmpipe): blend operations and factors, culling, depth comparison, write masks,
// load and store ops, address modes, pipeline-overridable constants and texel copy origins.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "warden/gpu/objects.h"
#include "support/error_scope.h"
#include "support/gpu_test.h"
#include "support/poll_until.h"
#include "warden/gpu/abi.h"
#include "warden/gpu/objects.h"

namespace warden {
namespace {

using namespace gpu;
using testing::GlDeviceTest;
using Rgba = std::array<int, 4>;

constexpr uint32_t kSize = 16;
constexpr uint32_t kRowBytes = 256;

// A full-screen triangle at depth `z` in a fragment colour set by constants or a sampled texel.
constexpr const char* kFullscreenWgsl = R"(
override z : f32 = 0.5;
override r : f32 = 1.0;
override g : f32 = 1.0;
override b : f32 = 1.0;
override a : f32 = 1.0;
@vertex fn vs(@builtin(vertex_index) i : u32) -> @builtin(position) vec4<f32> {
  var p = array<vec2<f32>, 3>(vec2<f32>(-1.0, -1.0), vec2<f32>(3.0, -1.0), vec2<f32>(-1.0, 3.0));
  return vec4<f32>(p[i], z, 1.0);
}
@fragment fn fs() -> @location(0) vec4<f32> { return vec4<f32>(r, g, b, a); }
)";

// The smoke job's counter-clockwise triangle around the centre.
constexpr const char* kCcwTriangleWgsl = R"(
@vertex fn vs(@builtin(vertex_index) i : u32) -> @builtin(position) vec4<f32> {
  var p = array<vec2<f32>, 3>(vec2<f32>(-0.8, -0.8), vec2<f32>(0.8, -0.8), vec2<f32>(0.0, 0.8));
  return vec4<f32>(p[i], 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4<f32> { return vec4<f32>(1.0, 1.0, 1.0, 1.0); }
)";

constexpr const char* kSampleWgsl = R"(
override u : f32 = 0.0;
@group(0) @binding(0) var s : sampler;
@group(0) @binding(1) var t : texture_2d<f32>;
@vertex fn vs(@builtin(vertex_index) i : u32) -> @builtin(position) vec4<f32> {
  var p = array<vec2<f32>, 3>(vec2<f32>(-1.0, -1.0), vec2<f32>(3.0, -1.0), vec2<f32>(-1.0, 3.0));
  return vec4<f32>(p[i], 0.5, 1.0);
}
@fragment fn fs() -> @location(0) vec4<f32> { return textureSampleLevel(t, s, vec2<f32>(u, 0.5), 0.0); }
)";

struct DrawSpec {
  const char* wgsl = kFullscreenWgsl;
  std::vector<std::pair<const char*, double>> constants;
  WGPUColor clear{0, 0, 0, 0};
  WGPULoadOp load = WGPULoadOp_Clear;
  WGPUStoreOp store = WGPUStoreOp_Store;
  bool draw = true;
  const WGPUBlendState* blend = nullptr;
  WGPUColorWriteMask write_mask = WGPUColorWriteMask_All;
  WGPUCullMode cull = WGPUCullMode_None;
  WGPUFrontFace front = WGPUFrontFace_CCW;
  const WGPUDepthStencilState* depth = nullptr;
  float depth_clear = 0.5f;
  WGPUBindGroup (*bind)(testing::TestDevice&, WGPURenderPipeline) = nullptr;
};

class RenderAbiTest : public GlDeviceTest {
 protected:
  void SetUp() override {
    GlDeviceTest::SetUp();
    const Procs& p = dev->procs();
    WGPUTextureDescriptor d{};
    d.dimension = WGPUTextureDimension_2D;
    d.mipLevelCount = 1;
    d.sampleCount = 1;
    d.size = {kSize, kSize, 1};
    d.format = WGPUTextureFormat_RGBA8Unorm;
    d.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc;
    target_ = Ref<WGPUTexture>(&p, p.DeviceCreateTexture(dev->device.get(), &d));
    d.format = WGPUTextureFormat_Depth32Float;
    d.usage = WGPUTextureUsage_RenderAttachment;
    depth_ = Ref<WGPUTexture>(&p, p.DeviceCreateTexture(dev->device.get(), &d));
  }
  void TearDown() override {
    target_.reset();
    depth_.reset();
    GlDeviceTest::TearDown();
  }

  // Renders one pass as `spec` says and returns the centre pixel; no validation error allowed.
  Rgba draw(const DrawSpec& spec) {
    const Procs& p = dev->procs();
    WGPUDevice device = dev->device.get();
    Rgba result{-1, -1, -1, -1};
    std::string errors = testing::validation_message(*dev, [&] {
      Ref<WGPUShaderModule> module(&p, create_wgsl_module(p, device, spec.wgsl, "render probe"));
      std::vector<WGPUConstantEntry> constants;
      for (const auto& [key, value] : spec.constants) {
        WGPUConstantEntry c{};
        c.key = gpu::string_view(key);
        c.value = value;
        constants.push_back(c);
      }
      gpu::VsFsPipelineDescription desc(module.get());
      desc.color.blend = spec.blend;
      desc.color.writeMask = spec.write_mask;
      desc.fragment.constantCount = constants.size();
      desc.fragment.constants = constants.data();
      desc.desc.vertex.constantCount = constants.size();
      desc.desc.vertex.constants = constants.data();
      desc.desc.primitive.cullMode = spec.cull;
      desc.desc.primitive.frontFace = spec.front;
      desc.desc.depthStencil = spec.depth;
      Ref<WGPURenderPipeline> pipeline(&p, p.DeviceCreateRenderPipeline(device, &desc.desc));
      Ref<WGPUBindGroup> group(&p, spec.bind ? spec.bind(*dev, pipeline.get()) : nullptr);

      Ref<WGPUTextureView> view(&p, p.TextureCreateView(target_.get(), nullptr));
      Ref<WGPUTextureView> depth_view(&p, p.TextureCreateView(depth_.get(), nullptr));
      WGPURenderPassColorAttachment attachment{};
      attachment.depthSlice = WGPU_DEPTH_SLICE_UNDEFINED;
      attachment.view = view.get();
      attachment.loadOp = spec.load;
      attachment.storeOp = spec.store;
      attachment.clearValue = spec.clear;
      WGPURenderPassDepthStencilAttachment depth_attachment{};
      depth_attachment.view = depth_view.get();
      depth_attachment.depthLoadOp = WGPULoadOp_Clear;
      depth_attachment.depthStoreOp = WGPUStoreOp_Store;
      depth_attachment.depthClearValue = spec.depth_clear;
      WGPURenderPassDescriptor pass_desc{};
      pass_desc.colorAttachmentCount = 1;
      pass_desc.colorAttachments = &attachment;
      pass_desc.depthStencilAttachment = spec.depth ? &depth_attachment : nullptr;
      Ref<WGPUCommandEncoder> encoder(&p, p.DeviceCreateCommandEncoder(device, nullptr));
      WGPURenderPassEncoder pass = p.CommandEncoderBeginRenderPass(encoder.get(), &pass_desc);
      if (spec.draw) {
        p.RenderPassEncoderSetPipeline(pass, pipeline.get());
        if (group) p.RenderPassEncoderSetBindGroup(pass, 0, group.get(), 0, nullptr);
        p.RenderPassEncoderDraw(pass, 3, 1, 0, 0);
      }
      p.RenderPassEncoderEnd(pass);
      p.RenderPassEncoderRelease(pass);
      result = read_centre(encoder.get());
    });
    EXPECT_EQ(errors, "");
    return result;
  }

  // Copies the target after whatever `encoder` recorded, submits, and reads the centre texel.
  Rgba read_centre(WGPUCommandEncoder encoder) {
    const Procs& p = dev->procs();
    WGPUBufferDescriptor bd{};
    bd.size = kRowBytes * kSize;
    bd.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
    Ref<WGPUBuffer> readback(&p, p.DeviceCreateBuffer(dev->device.get(), &bd));
    WGPUTexelCopyTextureInfo src{};
    src.aspect = WGPUTextureAspect_All;
    src.texture = target_.get();
    WGPUTexelCopyBufferInfo dst{};
    dst.layout.rowsPerImage = WGPU_COPY_STRIDE_UNDEFINED;
    dst.buffer = readback.get();
    dst.layout.bytesPerRow = kRowBytes;
    WGPUExtent3D extent{kSize, kSize, 1};
    p.CommandEncoderCopyTextureToBuffer(encoder, &src, &dst, &extent);
    WGPUCommandBuffer commands = p.CommandEncoderFinish(encoder, nullptr);
    p.QueueSubmit(dev->queue.get(), 1, &commands);
    p.CommandBufferRelease(commands);
    auto bytes = dev->context->read_mapped(readback.get(), bd.size, testing::kSafetyNet);
    EXPECT_TRUE(bytes.ok());
    if (!bytes) return {-1, -1, -1, -1};
    const uint8_t* px = bytes->data() + (kSize / 2) * kRowBytes + (kSize / 2) * 4;
    return {px[0], px[1], px[2], px[3]};
  }

  Ref<WGPUTexture> target_;
  Ref<WGPUTexture> depth_;
};

::testing::AssertionResult near(const Rgba& got, const Rgba& want, int tolerance = 2, int channels = 4) {
  for (int c = 0; c < channels; ++c) {
    if (std::abs(got[c] - want[c]) > tolerance) {
      return ::testing::AssertionFailure() << "got (" << got[0] << "," << got[1] << "," << got[2] << ","
                                           << got[3] << ") want (" << want[0] << "," << want[1] << ","
                                           << want[2] << "," << want[3] << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

TEST_F(RenderAbiTest, BlendOperationsAndFactorsComputeWhatTheirNamesSay) {
  const std::array<double, 4> dst{0.2, 0.4, 0.6, 0.8};
  const std::array<double, 4> src{0.6, 0.3, 0.1, 0.25};
  auto factor = [&](WGPUBlendFactor f, int c) -> double {
    switch (f) {
      case WGPUBlendFactor_Zero: return 0;
      case WGPUBlendFactor_One: return 1;
      case WGPUBlendFactor_Src: return src[c];
      case WGPUBlendFactor_OneMinusSrc: return 1 - src[c];
      case WGPUBlendFactor_SrcAlpha: return src[3];
      case WGPUBlendFactor_OneMinusSrcAlpha: return 1 - src[3];
      case WGPUBlendFactor_Dst: return dst[c];
      case WGPUBlendFactor_OneMinusDst: return 1 - dst[c];
      case WGPUBlendFactor_DstAlpha: return dst[3];
      case WGPUBlendFactor_OneMinusDstAlpha: return 1 - dst[3];
      default: return -1;
    }
  };
  struct Case {
    WGPUBlendOperation op;
    WGPUBlendFactor src_factor, dst_factor;
  };
  std::vector<Case> cases = {
      {WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_Zero},
      {WGPUBlendOperation_Add, WGPUBlendFactor_Zero, WGPUBlendFactor_One},
      {WGPUBlendOperation_Add, WGPUBlendFactor_Src, WGPUBlendFactor_OneMinusSrc},
      {WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_OneMinusSrcAlpha},
      {WGPUBlendOperation_Add, WGPUBlendFactor_Dst, WGPUBlendFactor_OneMinusDst},
      {WGPUBlendOperation_Add, WGPUBlendFactor_DstAlpha, WGPUBlendFactor_OneMinusDstAlpha},
      {WGPUBlendOperation_Subtract, WGPUBlendFactor_One, WGPUBlendFactor_SrcAlpha},
      {WGPUBlendOperation_ReverseSubtract, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_One},
      {WGPUBlendOperation_Min, WGPUBlendFactor_One, WGPUBlendFactor_One},
      {WGPUBlendOperation_Max, WGPUBlendFactor_One, WGPUBlendFactor_One},
  };
  for (const Case& k : cases) {
    WGPUBlendState blend{};
    blend.color = {k.op, k.src_factor, k.dst_factor};
    blend.alpha = {WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_Zero};
    DrawSpec spec;
    spec.clear = {dst[0], dst[1], dst[2], dst[3]};
    spec.constants = {{"r", src[0]}, {"g", src[1]}, {"b", src[2]}, {"a", src[3]}};
    spec.blend = &blend;
    Rgba want{};
    for (int c = 0; c < 3; ++c) {
      double s = src[c] * factor(k.src_factor, c), d = dst[c] * factor(k.dst_factor, c), v = 0;
      switch (k.op) {
        case WGPUBlendOperation_Add: v = s + d; break;
        case WGPUBlendOperation_Subtract: v = s - d; break;
        case WGPUBlendOperation_ReverseSubtract: v = d - s; break;
        case WGPUBlendOperation_Min: v = std::min(src[c], dst[c]); break;
        case WGPUBlendOperation_Max: v = std::max(src[c], dst[c]); break;
        default: v = -1;
      }
      want[c] = static_cast<int>(std::lround(std::clamp(v, 0.0, 1.0) * 255));
    }
    EXPECT_TRUE(near(draw(spec), want, 2, 3)) << "op " << static_cast<int>(k.op) << " src "
                                              << static_cast<int>(k.src_factor) << " dst "
                                              << static_cast<int>(k.dst_factor);
  }
}

TEST_F(RenderAbiTest, CullModeAndFrontFaceCullTheFacesTheirNamesSay) {
  struct Case {
    WGPUFrontFace front;
    WGPUCullMode cull;
    bool visible;
  };
  for (Case k : {Case{WGPUFrontFace_CCW, WGPUCullMode_None, true}, Case{WGPUFrontFace_CCW, WGPUCullMode_Back, true},
                 Case{WGPUFrontFace_CCW, WGPUCullMode_Front, false}, Case{WGPUFrontFace_CW, WGPUCullMode_Back, false},
                 Case{WGPUFrontFace_CW, WGPUCullMode_Front, true}}) {
    DrawSpec spec;
    spec.wgsl = kCcwTriangleWgsl;
    spec.front = k.front;
    spec.cull = k.cull;
    Rgba want = k.visible ? Rgba{255, 255, 255, 255} : Rgba{0, 0, 0, 0};
    EXPECT_TRUE(near(draw(spec), want)) << static_cast<int>(k.front) << "/" << static_cast<int>(k.cull);
  }
}

TEST_F(RenderAbiTest, DepthCompareFunctionsPassExactlyWhereTheirNamesSay) {
  // The triangle is drawn at depth below, equal to and above the cleared 0.5; the pattern of
  // passes identifies each function uniquely.
  struct Case {
    WGPUCompareFunction compare;
    bool below, equal, above;
  };
  const Case cases[] = {
      {WGPUCompareFunction_Never, false, false, false},      {WGPUCompareFunction_Less, true, false, false},
      {WGPUCompareFunction_Equal, false, true, false},       {WGPUCompareFunction_LessEqual, true, true, false},
      {WGPUCompareFunction_Greater, false, false, true},     {WGPUCompareFunction_NotEqual, true, false, true},
      {WGPUCompareFunction_GreaterEqual, false, true, true}, {WGPUCompareFunction_Always, true, true, true},
  };
  for (const Case& k : cases) {
    WGPUDepthStencilState depth{};
    depth.stencilReadMask = 0xFFFFFFFF;
    depth.stencilWriteMask = 0xFFFFFFFF;
    depth.format = WGPUTextureFormat_Depth32Float;
    depth.depthWriteEnabled = WGPUOptionalBool_False;
    depth.depthCompare = k.compare;
    const std::pair<double, bool> probes[] = {{0.25, k.below}, {0.5, k.equal}, {0.75, k.above}};
    for (auto [z, passes] : probes) {
      DrawSpec spec;
      spec.depth = &depth;
      spec.constants = {{"z", z}};
      Rgba want = passes ? Rgba{255, 255, 255, 255} : Rgba{0, 0, 0, 0};
      EXPECT_TRUE(near(draw(spec), want)) << "compare " << static_cast<int>(k.compare) << " at z " << z;
    }
  }
}

TEST_F(RenderAbiTest, DepthWriteEnabledIsAnOptionalBool) {
  const Procs& p = dev->procs();
  WGPUDepthStencilState depth{};
  depth.stencilReadMask = 0xFFFFFFFF;
  depth.stencilWriteMask = 0xFFFFFFFF;
  depth.format = WGPUTextureFormat_Depth32Float;
  depth.depthCompare = WGPUCompareFunction_Always;
  depth.depthWriteEnabled = WGPUOptionalBool_True;
  DrawSpec spec;
  spec.depth = &depth;
  EXPECT_TRUE(near(draw(spec), {255, 255, 255, 255}));
  // Undefined is refused for a depth format, naming the field.
  depth.depthWriteEnabled = WGPUOptionalBool_Undefined;
  std::string msg = testing::validation_message(*dev, [&] {
    Ref<WGPUShaderModule> module(&p, create_wgsl_module(p, dev->device.get(), kFullscreenWgsl, "depth write probe"));
    gpu::VsFsPipelineDescription pipeline(module.get());
    pipeline.desc.depthStencil = &depth;
    p.RenderPipelineRelease(p.DeviceCreateRenderPipeline(dev->device.get(), &pipeline.desc));
  });
  EXPECT_THAT(msg, ::testing::HasSubstr("depthWriteEnabled"));
}

TEST_F(RenderAbiTest, ColorWriteMaskBitsWriteTheirChannels) {
  struct Case {
    WGPUColorWriteMask mask;
    Rgba want;
  };
  for (Case k : {Case{WGPUColorWriteMask_Red, {255, 0, 0, 0}}, Case{WGPUColorWriteMask_Green, {0, 255, 0, 0}},
                 Case{WGPUColorWriteMask_Blue, {0, 0, 255, 0}}, Case{WGPUColorWriteMask_Alpha, {0, 0, 0, 255}},
                 Case{WGPUColorWriteMask_None, {0, 0, 0, 0}}, Case{WGPUColorWriteMask_All, {255, 255, 255, 255}}}) {
    DrawSpec spec;
    spec.write_mask = k.mask;
    EXPECT_TRUE(near(draw(spec), k.want)) << "mask " << k.mask;
  }
}

TEST_F(RenderAbiTest, LoadOpsAndStoreOpsKeepClearOrDropContents) {
  DrawSpec first;
  first.draw = false;
  first.clear = {1, 0, 0, 1};
  EXPECT_TRUE(near(draw(first), {255, 0, 0, 255}));
  DrawSpec load;
  load.draw = false;
  load.load = WGPULoadOp_Load;
  load.clear = {0, 0, 1, 1};
  EXPECT_TRUE(near(draw(load), {255, 0, 0, 255})) << "Load keeps what the last pass stored";
  DrawSpec discard;
  discard.draw = false;
  discard.clear = {0, 1, 0, 1};
  discard.store = WGPUStoreOp_Discard;
  EXPECT_TRUE(near(draw(discard), {0, 0, 0, 0})) << "Discard leaves the attachment zeroed";
}

// A 2x1 texture (red, green) sampled nearest at u = 1.25 and u = 1.75 through a sampler with
// each address mode: the three modes give three different pairs.
WGPUBindGroup sampler_group(testing::TestDevice& dev, WGPURenderPipeline pipeline, WGPUAddressMode mode) {
  const Procs& p = dev.procs();
  WGPUTextureDescriptor td{};
  td.dimension = WGPUTextureDimension_2D;
  td.mipLevelCount = 1;
  td.sampleCount = 1;
  td.size = {2, 1, 1};
  td.format = WGPUTextureFormat_RGBA8Unorm;
  td.usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst;
  Ref<WGPUTexture> texture(&p, p.DeviceCreateTexture(dev.device.get(), &td));
  const uint8_t texels[8] = {255, 0, 0, 255, 0, 255, 0, 255};
  WGPUTexelCopyTextureInfo dst{};
  dst.aspect = WGPUTextureAspect_All;
  dst.texture = texture.get();
  WGPUTexelCopyBufferLayout layout{};
  layout.rowsPerImage = WGPU_COPY_STRIDE_UNDEFINED;
  layout.bytesPerRow = 8;
  WGPUExtent3D extent{2, 1, 1};
  p.QueueWriteTexture(dev.queue.get(), &dst, texels, sizeof texels, &layout, &extent);
  WGPUSamplerDescriptor sd = warden::testing::nearest_clamp_sampler();
  sd.addressModeU = mode;
  Ref<WGPUSampler> sampler(&p, p.DeviceCreateSampler(dev.device.get(), &sd));
  Ref<WGPUTextureView> view(&p, p.TextureCreateView(texture.get(), nullptr));
  Ref<WGPUBindGroupLayout> layout0(&p, p.RenderPipelineGetBindGroupLayout(pipeline, 0));
  WGPUBindGroupEntry entries[2]{};
  entries[0].binding = 0;
  entries[0].size = WGPU_WHOLE_SIZE;
  entries[0].sampler = sampler.get();
  entries[1].binding = 1;
  entries[1].size = WGPU_WHOLE_SIZE;
  entries[1].textureView = view.get();
  WGPUBindGroupDescriptor bd{};
  bd.layout = layout0.get();
  bd.entryCount = 2;
  bd.entries = entries;
  return p.DeviceCreateBindGroup(dev.device.get(), &bd);
}

TEST_F(RenderAbiTest, AddressModesWrapTheWayTheirNamesSay) {
  struct Case {
    WGPUAddressMode mode;
    WGPUBindGroup (*bind)(testing::TestDevice&, WGPURenderPipeline);
    Rgba at_1_25, at_1_75;
  };
  const Rgba red{255, 0, 0, 255}, green{0, 255, 0, 255};
  const Case cases[] = {
      {WGPUAddressMode_ClampToEdge, [](testing::TestDevice& d, WGPURenderPipeline rp) { return sampler_group(d, rp, WGPUAddressMode_ClampToEdge); }, green, green},
      {WGPUAddressMode_Repeat, [](testing::TestDevice& d, WGPURenderPipeline rp) { return sampler_group(d, rp, WGPUAddressMode_Repeat); }, red, green},
      {WGPUAddressMode_MirrorRepeat, [](testing::TestDevice& d, WGPURenderPipeline rp) { return sampler_group(d, rp, WGPUAddressMode_MirrorRepeat); }, green, red},
  };
  for (const Case& k : cases) {
    for (auto [u, want] : {std::pair{1.25, k.at_1_25}, std::pair{1.75, k.at_1_75}}) {
      DrawSpec spec;
      spec.wgsl = kSampleWgsl;
      spec.constants = {{"u", u}};
      spec.bind = k.bind;
      EXPECT_TRUE(near(draw(spec), want)) << "mode " << static_cast<int>(k.mode) << " u " << u;
    }
  }
}

TEST_F(GlDeviceTest, WriteTextureOriginPlacesTexelsAtXThenY) {
  const Procs& p = dev->procs();
  WGPUTextureDescriptor td{};
  td.dimension = WGPUTextureDimension_2D;
  td.mipLevelCount = 1;
  td.sampleCount = 1;
  td.size = {4, 4, 1};
  td.format = WGPUTextureFormat_RGBA8Unorm;
  td.usage = WGPUTextureUsage_CopyDst | WGPUTextureUsage_CopySrc;
  Ref<WGPUTexture> texture(&p, p.DeviceCreateTexture(dev->device.get(), &td));
  const uint8_t texel[4] = {10, 20, 30, 40};
  WGPUTexelCopyTextureInfo dst{};
  dst.aspect = WGPUTextureAspect_All;
  dst.texture = texture.get();
  dst.origin = {1, 2, 0};
  WGPUTexelCopyBufferLayout layout{};
  layout.bytesPerRow = 4;
  layout.rowsPerImage = WGPU_COPY_STRIDE_UNDEFINED;
  WGPUExtent3D one{1, 1, 1};
  p.QueueWriteTexture(dev->queue.get(), &dst, texel, sizeof texel, &layout, &one);
  WGPUBufferDescriptor bd{};
  bd.size = 256 * 4;
  bd.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
  Ref<WGPUBuffer> readback(&p, p.DeviceCreateBuffer(dev->device.get(), &bd));
  Ref<WGPUCommandEncoder> encoder(&p, p.DeviceCreateCommandEncoder(dev->device.get(), nullptr));
  WGPUTexelCopyTextureInfo src{};
  src.aspect = WGPUTextureAspect_All;
  src.texture = texture.get();
  WGPUTexelCopyBufferInfo out{};
  out.buffer = readback.get();
  out.layout.bytesPerRow = 256;
  out.layout.rowsPerImage = 4;
  WGPUExtent3D all{4, 4, 1};
  p.CommandEncoderCopyTextureToBuffer(encoder.get(), &src, &out, &all);
  WGPUCommandBuffer commands = p.CommandEncoderFinish(encoder.get(), nullptr);
  p.QueueSubmit(dev->queue.get(), 1, &commands);
  p.CommandBufferRelease(commands);
  auto bytes = dev->context->read_mapped(readback.get(), bd.size, testing::kSafetyNet);
  ASSERT_TRUE(bytes.ok());
  for (uint32_t y = 0; y < 4; ++y) {
    for (uint32_t x = 0; x < 4; ++x) {
      uint8_t r = (*bytes)[y * 256 + x * 4];
      EXPECT_EQ(r, (x == 1 && y == 2) ? 10 : 0) << x << "," << y;
    }
  }
  EXPECT_EQ((*bytes)[2 * 256 + 1 * 4 + 3], 40);
}

}  // namespace
}  // namespace warden
