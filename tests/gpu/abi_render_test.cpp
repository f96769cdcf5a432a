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
constexpr auto kTimeout = warden::testing::kSafetyNet;

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
  Color clear{0, 0, 0, 0};
  LoadOp load = LoadOp::Clear;
  StoreOp store = StoreOp::Store;
  bool draw = true;
  const BlendState* blend = nullptr;
  Flags write_mask = ColorWriteMask::All;
  CullMode cull = CullMode::None;
  FrontFace front = FrontFace::CCW;
  const DepthStencilState* depth = nullptr;
  float depth_clear = 0.5f;
  BindGroup (*bind)(testing::TestDevice&, RenderPipeline) = nullptr;
};

class RenderAbiTest : public GlDeviceTest {
 protected:
  void SetUp() override {
    GlDeviceTest::SetUp();
    const Procs& p = dev->procs();
    TextureDescriptor d;
    d.size = {kSize, kSize, 1};
    d.format = TextureFormat::RGBA8Unorm;
    d.usage = TextureUsage::RenderAttachment | TextureUsage::CopySrc;
    target_ = Ref<Texture>(&p, p.DeviceCreateTexture(dev->device.get(), &d));
    d.format = TextureFormat::Depth32Float;
    d.usage = TextureUsage::RenderAttachment;
    depth_ = Ref<Texture>(&p, p.DeviceCreateTexture(dev->device.get(), &d));
  }
  void TearDown() override {
    target_.reset();
    depth_.reset();
    GlDeviceTest::TearDown();
  }

  // Renders one pass as `spec` says and returns the centre pixel; no validation error allowed.
  Rgba draw(const DrawSpec& spec) {
    const Procs& p = dev->procs();
    Device device = dev->device.get();
    Rgba result{-1, -1, -1, -1};
    std::string errors = testing::validation_message(*dev, [&] {
      Ref<ShaderModule> module(&p, create_wgsl_module(p, device, spec.wgsl, "render probe"));
      std::vector<ConstantEntry> constants;
      for (const auto& [key, value] : spec.constants) {
        ConstantEntry c;
        c.key = key;
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
      Ref<RenderPipeline> pipeline(&p, p.DeviceCreateRenderPipeline(device, &desc.desc));
      Ref<BindGroup> group(&p, spec.bind ? spec.bind(*dev, pipeline.get()) : nullptr);

      Ref<TextureView> view(&p, p.TextureCreateView(target_.get(), nullptr));
      Ref<TextureView> depth_view(&p, p.TextureCreateView(depth_.get(), nullptr));
      RenderPassColorAttachment attachment;
      attachment.view = view.get();
      attachment.loadOp = spec.load;
      attachment.storeOp = spec.store;
      attachment.clearValue = spec.clear;
      RenderPassDepthStencilAttachment depth_attachment;
      depth_attachment.view = depth_view.get();
      depth_attachment.depthLoadOp = LoadOp::Clear;
      depth_attachment.depthStoreOp = StoreOp::Store;
      depth_attachment.depthClearValue = spec.depth_clear;
      RenderPassDescriptor pass_desc;
      pass_desc.colorAttachmentCount = 1;
      pass_desc.colorAttachments = &attachment;
      pass_desc.depthStencilAttachment = spec.depth ? &depth_attachment : nullptr;
      Ref<CommandEncoder> encoder(&p, p.DeviceCreateCommandEncoder(device, nullptr));
      RenderPassEncoder pass = p.CommandEncoderBeginRenderPass(encoder.get(), &pass_desc);
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
  Rgba read_centre(CommandEncoder encoder) {
    const Procs& p = dev->procs();
    BufferDescriptor bd;
    bd.size = kRowBytes * kSize;
    bd.usage = BufferUsage::MapRead | BufferUsage::CopyDst;
    Ref<Buffer> readback(&p, p.DeviceCreateBuffer(dev->device.get(), &bd));
    TexelCopyTextureInfo src;
    src.texture = target_.get();
    TexelCopyBufferInfo dst;
    dst.buffer = readback.get();
    dst.layout.bytesPerRow = kRowBytes;
    Extent3D extent{kSize, kSize, 1};
    p.CommandEncoderCopyTextureToBuffer(encoder, &src, &dst, &extent);
    CommandBuffer commands = p.CommandEncoderFinish(encoder, nullptr);
    p.QueueSubmit(dev->queue.get(), 1, &commands);
    p.CommandBufferRelease(commands);
    auto bytes = dev->context->read_mapped(readback.get(), bd.size, kTimeout);
    EXPECT_TRUE(bytes.ok());
    if (!bytes) return {-1, -1, -1, -1};
    const uint8_t* px = bytes->data() + (kSize / 2) * kRowBytes + (kSize / 2) * 4;
    return {px[0], px[1], px[2], px[3]};
  }

  Ref<Texture> target_;
  Ref<Texture> depth_;
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
  auto factor = [&](BlendFactor f, int c) -> double {
    switch (f) {
      case BlendFactor::Zero: return 0;
      case BlendFactor::One: return 1;
      case BlendFactor::Src: return src[c];
      case BlendFactor::OneMinusSrc: return 1 - src[c];
      case BlendFactor::SrcAlpha: return src[3];
      case BlendFactor::OneMinusSrcAlpha: return 1 - src[3];
      case BlendFactor::Dst: return dst[c];
      case BlendFactor::OneMinusDst: return 1 - dst[c];
      case BlendFactor::DstAlpha: return dst[3];
      case BlendFactor::OneMinusDstAlpha: return 1 - dst[3];
      default: return -1;
    }
  };
  struct Case {
    BlendOperation op;
    BlendFactor src_factor, dst_factor;
  };
  std::vector<Case> cases = {
      {BlendOperation::Add, BlendFactor::One, BlendFactor::Zero},
      {BlendOperation::Add, BlendFactor::Zero, BlendFactor::One},
      {BlendOperation::Add, BlendFactor::Src, BlendFactor::OneMinusSrc},
      {BlendOperation::Add, BlendFactor::SrcAlpha, BlendFactor::OneMinusSrcAlpha},
      {BlendOperation::Add, BlendFactor::Dst, BlendFactor::OneMinusDst},
      {BlendOperation::Add, BlendFactor::DstAlpha, BlendFactor::OneMinusDstAlpha},
      {BlendOperation::Subtract, BlendFactor::One, BlendFactor::SrcAlpha},
      {BlendOperation::ReverseSubtract, BlendFactor::SrcAlpha, BlendFactor::One},
      {BlendOperation::Min, BlendFactor::One, BlendFactor::One},
      {BlendOperation::Max, BlendFactor::One, BlendFactor::One},
  };
  for (const Case& k : cases) {
    BlendState blend;
    blend.color = {k.op, k.src_factor, k.dst_factor};
    blend.alpha = {BlendOperation::Add, BlendFactor::One, BlendFactor::Zero};
    DrawSpec spec;
    spec.clear = {dst[0], dst[1], dst[2], dst[3]};
    spec.constants = {{"r", src[0]}, {"g", src[1]}, {"b", src[2]}, {"a", src[3]}};
    spec.blend = &blend;
    Rgba want{};
    for (int c = 0; c < 3; ++c) {
      double s = src[c] * factor(k.src_factor, c), d = dst[c] * factor(k.dst_factor, c), v = 0;
      switch (k.op) {
        case BlendOperation::Add: v = s + d; break;
        case BlendOperation::Subtract: v = s - d; break;
        case BlendOperation::ReverseSubtract: v = d - s; break;
        case BlendOperation::Min: v = std::min(src[c], dst[c]); break;
        case BlendOperation::Max: v = std::max(src[c], dst[c]); break;
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
    FrontFace front;
    CullMode cull;
    bool visible;
  };
  for (Case k : {Case{FrontFace::CCW, CullMode::None, true}, Case{FrontFace::CCW, CullMode::Back, true},
                 Case{FrontFace::CCW, CullMode::Front, false}, Case{FrontFace::CW, CullMode::Back, false},
                 Case{FrontFace::CW, CullMode::Front, true}}) {
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
    CompareFunction compare;
    bool below, equal, above;
  };
  const Case cases[] = {
      {CompareFunction::Never, false, false, false},      {CompareFunction::Less, true, false, false},
      {CompareFunction::Equal, false, true, false},       {CompareFunction::LessEqual, true, true, false},
      {CompareFunction::Greater, false, false, true},     {CompareFunction::NotEqual, true, false, true},
      {CompareFunction::GreaterEqual, false, true, true}, {CompareFunction::Always, true, true, true},
  };
  for (const Case& k : cases) {
    DepthStencilState depth;
    depth.format = TextureFormat::Depth32Float;
    depth.depthWriteEnabled = OptionalBool::False;
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
  DepthStencilState depth;
  depth.format = TextureFormat::Depth32Float;
  depth.depthCompare = CompareFunction::Always;
  depth.depthWriteEnabled = OptionalBool::True;
  DrawSpec spec;
  spec.depth = &depth;
  EXPECT_TRUE(near(draw(spec), {255, 255, 255, 255}));
  // Undefined is refused for a depth format, naming the field.
  depth.depthWriteEnabled = OptionalBool::Undefined;
  std::string msg = testing::validation_message(*dev, [&] {
    Ref<ShaderModule> module(&p, create_wgsl_module(p, dev->device.get(), kFullscreenWgsl, "depth write probe"));
    gpu::VsFsPipelineDescription pipeline(module.get());
    pipeline.desc.depthStencil = &depth;
    p.RenderPipelineRelease(p.DeviceCreateRenderPipeline(dev->device.get(), &pipeline.desc));
  });
  EXPECT_THAT(msg, ::testing::HasSubstr("depthWriteEnabled"));
}

TEST_F(RenderAbiTest, ColorWriteMaskBitsWriteTheirChannels) {
  struct Case {
    Flags mask;
    Rgba want;
  };
  for (Case k : {Case{ColorWriteMask::Red, {255, 0, 0, 0}}, Case{ColorWriteMask::Green, {0, 255, 0, 0}},
                 Case{ColorWriteMask::Blue, {0, 0, 255, 0}}, Case{ColorWriteMask::Alpha, {0, 0, 0, 255}},
                 Case{ColorWriteMask::None, {0, 0, 0, 0}}, Case{ColorWriteMask::All, {255, 255, 255, 255}}}) {
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
  load.load = LoadOp::Load;
  load.clear = {0, 0, 1, 1};
  EXPECT_TRUE(near(draw(load), {255, 0, 0, 255})) << "Load keeps what the last pass stored";
  DrawSpec discard;
  discard.draw = false;
  discard.clear = {0, 1, 0, 1};
  discard.store = StoreOp::Discard;
  EXPECT_TRUE(near(draw(discard), {0, 0, 0, 0})) << "Discard leaves the attachment zeroed";
}

// A 2x1 texture (red, green) sampled nearest at u = 1.25 and u = 1.75 through a sampler with
// each address mode: the three modes give three different pairs.
BindGroup sampler_group(testing::TestDevice& dev, RenderPipeline pipeline, AddressMode mode) {
  const Procs& p = dev.procs();
  TextureDescriptor td;
  td.size = {2, 1, 1};
  td.format = TextureFormat::RGBA8Unorm;
  td.usage = TextureUsage::TextureBinding | TextureUsage::CopyDst;
  Ref<Texture> texture(&p, p.DeviceCreateTexture(dev.device.get(), &td));
  const uint8_t texels[8] = {255, 0, 0, 255, 0, 255, 0, 255};
  TexelCopyTextureInfo dst;
  dst.texture = texture.get();
  TexelCopyBufferLayout layout;
  layout.bytesPerRow = 8;
  Extent3D extent{2, 1, 1};
  p.QueueWriteTexture(dev.queue.get(), &dst, texels, sizeof texels, &layout, &extent);
  SamplerDescriptor sd;
  sd.addressModeU = mode;
  Ref<Sampler> sampler(&p, p.DeviceCreateSampler(dev.device.get(), &sd));
  Ref<TextureView> view(&p, p.TextureCreateView(texture.get(), nullptr));
  Ref<BindGroupLayout> layout0(&p, p.RenderPipelineGetBindGroupLayout(pipeline, 0));
  BindGroupEntry entries[2];
  entries[0].binding = 0;
  entries[0].sampler = sampler.get();
  entries[1].binding = 1;
  entries[1].textureView = view.get();
  BindGroupDescriptor bd;
  bd.layout = layout0.get();
  bd.entryCount = 2;
  bd.entries = entries;
  return p.DeviceCreateBindGroup(dev.device.get(), &bd);
}

TEST_F(RenderAbiTest, AddressModesWrapTheWayTheirNamesSay) {
  struct Case {
    AddressMode mode;
    BindGroup (*bind)(testing::TestDevice&, RenderPipeline);
    Rgba at_1_25, at_1_75;
  };
  const Rgba red{255, 0, 0, 255}, green{0, 255, 0, 255};
  const Case cases[] = {
      {AddressMode::ClampToEdge, [](testing::TestDevice& d, RenderPipeline rp) { return sampler_group(d, rp, AddressMode::ClampToEdge); }, green, green},
      {AddressMode::Repeat, [](testing::TestDevice& d, RenderPipeline rp) { return sampler_group(d, rp, AddressMode::Repeat); }, red, green},
      {AddressMode::MirrorRepeat, [](testing::TestDevice& d, RenderPipeline rp) { return sampler_group(d, rp, AddressMode::MirrorRepeat); }, green, red},
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
  TextureDescriptor td;
  td.size = {4, 4, 1};
  td.format = TextureFormat::RGBA8Unorm;
  td.usage = TextureUsage::CopyDst | TextureUsage::CopySrc;
  Ref<Texture> texture(&p, p.DeviceCreateTexture(dev->device.get(), &td));
  const uint8_t texel[4] = {10, 20, 30, 40};
  TexelCopyTextureInfo dst;
  dst.texture = texture.get();
  dst.origin = {1, 2, 0};
  TexelCopyBufferLayout layout;
  layout.bytesPerRow = 4;
  Extent3D one{1, 1, 1};
  p.QueueWriteTexture(dev->queue.get(), &dst, texel, sizeof texel, &layout, &one);
  BufferDescriptor bd;
  bd.size = 256 * 4;
  bd.usage = BufferUsage::MapRead | BufferUsage::CopyDst;
  Ref<Buffer> readback(&p, p.DeviceCreateBuffer(dev->device.get(), &bd));
  Ref<CommandEncoder> encoder(&p, p.DeviceCreateCommandEncoder(dev->device.get(), nullptr));
  TexelCopyTextureInfo src;
  src.texture = texture.get();
  TexelCopyBufferInfo out;
  out.buffer = readback.get();
  out.layout.bytesPerRow = 256;
  out.layout.rowsPerImage = 4;
  Extent3D all{4, 4, 1};
  p.CommandEncoderCopyTextureToBuffer(encoder.get(), &src, &out, &all);
  CommandBuffer commands = p.CommandEncoderFinish(encoder.get(), nullptr);
  p.QueueSubmit(dev->queue.get(), 1, &commands);
  p.CommandBufferRelease(commands);
  auto bytes = dev->context->read_mapped(readback.get(), bd.size, kTimeout);
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
