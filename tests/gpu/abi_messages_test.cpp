// Proves warden's ABI declarations (include/warden/gpu/abi.h) against the real library by
// making Dawn name what it received: its validation messages print enum values by name
// ("TextureFormat::RGBA8Unorm"), so a declaration with the wrong number fails here by name.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "warden/gpu/objects.h"
#include "support/error_scope.h"
#include "warden/gpu/abi.h"
#include "warden/gpu/objects.h"

namespace warden {
namespace {

using namespace gpu;
using testing::NullDeviceTest;
using testing::validation_message;
using ::testing::HasSubstr;

Texture make_texture(const Procs& p, Device device, TextureFormat format, Flags usage,
                     Extent3D size = {4, 4, 1}, TextureDimension dim = TextureDimension::e2D) {
  TextureDescriptor d;
  d.size = size;
  d.format = format;
  d.usage = usage;
  d.dimension = dim;
  return p.DeviceCreateTexture(device, &d);
}

TEST_F(NullDeviceTest, TextureFormatValuesAreNamedByTheLibrary) {
  const std::vector<std::pair<TextureFormat, const char*>> formats = {
      {TextureFormat::R8Unorm, "R8Unorm"},          {TextureFormat::R32Float, "R32Float"},
      {TextureFormat::R32Uint, "R32Uint"},          {TextureFormat::RGBA8Unorm, "RGBA8Unorm"},
      {TextureFormat::RGBA8UnormSrgb, "RGBA8UnormSrgb"}, {TextureFormat::RGBA8Sint, "RGBA8Sint"},
      {TextureFormat::BGRA8Unorm, "BGRA8Unorm"},    {TextureFormat::RGBA16Float, "RGBA16Float"},
      {TextureFormat::RGBA32Float, "RGBA32Float"},  {TextureFormat::Depth24Plus, "Depth24Plus"},
      {TextureFormat::Depth32Float, "Depth32Float"},
  };
  const auto& p = dev->procs();
  for (const auto& [format, name] : formats) {
    Texture t = make_texture(p, dev->device.get(), format, TextureUsage::TextureBinding);
    EXPECT_EQ(p.TextureGetFormat(t), format) << name;
    // A view in an incompatible format makes Dawn print the texture's own format.
    TextureViewDescriptor v;
    v.format = format == TextureFormat::R8Unorm ? TextureFormat::R32Float : TextureFormat::R8Unorm;
    std::string msg = validation_message(*dev, [&] { p.TextureViewRelease(p.TextureCreateView(t, &v)); });
    EXPECT_THAT(msg, HasSubstr(std::string("texture format (TextureFormat::") + name + ")")) << msg;
    p.TextureRelease(t);
  }
}

TEST_F(NullDeviceTest, BufferUsageBitsAreNamedByTheLibrary) {
  const auto& p = dev->procs();
  // MapRead combines only with CopyDst, so MapRead|X is refused with both bits named.
  const std::vector<std::pair<Flags, const char*>> bits = {
      {BufferUsage::CopySrc, "CopySrc"}, {BufferUsage::Index, "Index"},
      {BufferUsage::Vertex, "Vertex"},   {BufferUsage::Uniform, "Uniform"},
      {BufferUsage::Storage, "Storage"}, {BufferUsage::Indirect, "Indirect"},
      {BufferUsage::QueryResolve, "QueryResolve"},
  };
  auto refused = [&](Flags usage) {
    return validation_message(*dev, [&] {
      BufferDescriptor d;
      d.size = 16;
      d.usage = usage;
      p.BufferRelease(p.DeviceCreateBuffer(dev->device.get(), &d));
    });
  };
  for (const auto& [bit, name] : bits) {
    EXPECT_THAT(refused(BufferUsage::MapRead | bit), HasSubstr(std::string("BufferUsage::(MapRead|") + name + ")"));
  }
  EXPECT_THAT(refused(BufferUsage::MapWrite | BufferUsage::CopyDst | BufferUsage::Storage),
              HasSubstr("BufferUsage::(MapWrite|CopyDst|Storage)"));
  EXPECT_EQ(refused(BufferUsage::MapRead | BufferUsage::CopyDst), "");

  BufferDescriptor d;
  d.size = 64;
  d.usage = BufferUsage::Uniform | BufferUsage::CopyDst;
  Buffer b = p.DeviceCreateBuffer(dev->device.get(), &d);
  EXPECT_EQ(p.BufferGetUsage(b), d.usage);
  EXPECT_EQ(p.BufferGetSize(b), 64u);
  p.BufferRelease(b);
}

TEST_F(NullDeviceTest, TextureUsageBitsAreNamedByTheLibrary) {
  const auto& p = dev->procs();
  Device device = dev->device.get();
  BufferDescriptor bd;
  bd.size = 256 * 4;
  bd.usage = BufferUsage::CopyDst | BufferUsage::CopySrc;
  Buffer buffer = p.DeviceCreateBuffer(device, &bd);
  auto copy_message = [&](Texture t, bool texture_is_source) {
    return validation_message(*dev, [&] {
      CommandEncoder e = p.DeviceCreateCommandEncoder(device, nullptr);
      TexelCopyTextureInfo tex;
      tex.texture = t;
      TexelCopyBufferInfo buf;
      buf.buffer = buffer;
      buf.layout.bytesPerRow = 256;
      Extent3D extent{4, 4, 1};
      if (texture_is_source) {
        p.CommandEncoderCopyTextureToBuffer(e, &tex, &buf, &extent);
      } else {
        p.CommandEncoderCopyBufferToTexture(e, &buf, &tex, &extent);
      }
      p.CommandBufferRelease(p.CommandEncoderFinish(e, nullptr));
      p.CommandEncoderRelease(e);
    });
  };
  const std::vector<std::pair<Flags, const char*>> bits = {
      {TextureUsage::CopyDst, "CopyDst"},
      {TextureUsage::TextureBinding, "TextureBinding"},
      {TextureUsage::StorageBinding, "StorageBinding"},
      {TextureUsage::RenderAttachment, "RenderAttachment"},
  };
  for (const auto& [bit, name] : bits) {
    Texture t = make_texture(p, device, TextureFormat::RGBA8Unorm, bit);
    EXPECT_EQ(p.TextureGetUsage(t), bit);
    EXPECT_THAT(copy_message(t, true),
                HasSubstr(std::string("usage (TextureUsage::") + name + ") doesn't include TextureUsage::CopySrc"));
    p.TextureRelease(t);
  }
  Texture t = make_texture(p, device, TextureFormat::RGBA8Unorm, TextureUsage::CopySrc);
  EXPECT_THAT(copy_message(t, false),
              HasSubstr("usage (TextureUsage::CopySrc) doesn't include TextureUsage::CopyDst"));
  p.TextureRelease(t);
  p.BufferRelease(buffer);
}

TEST_F(NullDeviceTest, TextureAspectValuesAreNamedByTheLibrary) {
  const auto& p = dev->procs();
  Device device = dev->device.get();
  Texture t = make_texture(p, device, TextureFormat::RGBA8Unorm, TextureUsage::CopySrc);
  BufferDescriptor bd;
  bd.size = 256 * 4;
  bd.usage = BufferUsage::CopyDst;
  Buffer b = p.DeviceCreateBuffer(device, &bd);
  for (auto [aspect, name] : {std::pair{TextureAspect::DepthOnly, "DepthOnly"},
                              std::pair{TextureAspect::StencilOnly, "StencilOnly"},
                              std::pair{TextureAspect::All, ""}}) {
    std::string msg = validation_message(*dev, [&] {
      CommandEncoder e = p.DeviceCreateCommandEncoder(device, nullptr);
      TexelCopyTextureInfo src;
      src.texture = t;
      src.aspect = aspect;
      TexelCopyBufferInfo dst;
      dst.buffer = b;
      dst.layout.bytesPerRow = 256;
      Extent3D ex{4, 4, 1};
      p.CommandEncoderCopyTextureToBuffer(e, &src, &dst, &ex);
      p.CommandBufferRelease(p.CommandEncoderFinish(e, nullptr));
      p.CommandEncoderRelease(e);
    });
    if (*name == '\0') {
      EXPECT_EQ(msg, "") << "TextureAspect::All must copy a colour texture";
    } else {
      EXPECT_THAT(msg, HasSubstr(std::string("selected aspect (TextureAspect::") + name + ")"));
    }
  }
  p.BufferRelease(b);
  p.TextureRelease(t);
}

TEST_F(NullDeviceTest, TextureDimensionValuesSelectTheLibrarysSizeLimits) {
  const auto& p = dev->procs();
  auto refused = [&](TextureDimension dim, Extent3D size) {
    return validation_message(*dev, [&] {
      p.TextureRelease(make_texture(p, dev->device.get(), TextureFormat::RGBA8Unorm, TextureUsage::TextureBinding, size, dim));
    });
  };
  // Each dimension has its own maximum extent, which Dawn prints when it is exceeded.
  EXPECT_THAT(refused(TextureDimension::e1D, {4, 4, 1}), HasSubstr("maximum texture size ([Extent3D width:8192, height:1, depthOrArrayLayers:1])"));
  EXPECT_THAT(refused(TextureDimension::e2D, {4, 4, 5000}), HasSubstr("depthOrArrayLayers:256])"));
  EXPECT_THAT(refused(TextureDimension::e3D, {4, 4, 5000}), HasSubstr("maximum texture size ([Extent3D width:2048, height:2048, depthOrArrayLayers:2048])"));
  Texture t = make_texture(p, dev->device.get(), TextureFormat::RGBA8Unorm, TextureUsage::TextureBinding, {8, 4, 3}, TextureDimension::e3D);
  EXPECT_EQ(p.TextureGetDimension(t), TextureDimension::e3D);
  EXPECT_EQ(p.TextureGetWidth(t), 8u);
  EXPECT_EQ(p.TextureGetHeight(t), 4u);
  EXPECT_EQ(p.TextureGetDepthOrArrayLayers(t), 3u);
  EXPECT_EQ(p.TextureGetMipLevelCount(t), 1u);
  EXPECT_EQ(p.TextureGetSampleCount(t), 1u);
  p.TextureRelease(t);
}

// A compute pipeline whose shader declares `decl` at @group(0) @binding(0) against a layout
// holding `entry`: Dawn names both sides of any mismatch.
std::string shader_vs_layout(testing::TestDevice& dev, std::vector<BindGroupLayoutEntry> entries,
                             const std::string& decl, const std::string& use) {
  const auto& p = dev.procs();
  Device device = dev.device.get();
  return validation_message(dev, [&] {
    BindGroupLayoutDescriptor bd;
    bd.entryCount = entries.size();
    bd.entries = entries.data();
    BindGroupLayout layout = p.DeviceCreateBindGroupLayout(device, &bd);
    PipelineLayoutDescriptor pd;
    pd.bindGroupLayoutCount = 1;
    pd.bindGroupLayouts = &layout;
    PipelineLayout pipeline_layout = p.DeviceCreatePipelineLayout(device, &pd);
    std::string code = decl + ";\n@compute @workgroup_size(1) fn main() { " + use + " }";
    ShaderSourceWGSL wgsl;
    wgsl.code = code;
    ShaderModuleDescriptor sd;
    sd.nextInChain = &wgsl.chain;
    ShaderModule module = p.DeviceCreateShaderModule(device, &sd);
    ComputePipelineDescriptor cd;
    cd.layout = pipeline_layout;
    cd.compute.module = module;
    cd.compute.entryPoint = "main";
    p.ComputePipelineRelease(p.DeviceCreateComputePipeline(device, &cd));
    p.ShaderModuleRelease(module);
    p.PipelineLayoutRelease(pipeline_layout);
    p.BindGroupLayoutRelease(layout);
  });
}

BindGroupLayoutEntry compute_entry() {
  BindGroupLayoutEntry e;
  e.binding = 0;
  e.visibility = ShaderStage::Compute;
  return e;
}

TEST_F(NullDeviceTest, BufferBindingTypeValuesAreNamedByTheLibrary) {
  auto e = compute_entry();
  e.buffer.type = BufferBindingType::Uniform;
  EXPECT_THAT(shader_vs_layout(*dev, {e}, "@group(0) @binding(0) var<storage, read_write> v : array<u32>", "v[0] = 1u;"),
              HasSubstr("shader (BufferBindingType::Storage) is not compatible with the type in the layout (BufferBindingType::Uniform)"));
  e.buffer.type = BufferBindingType::ReadOnlyStorage;
  EXPECT_THAT(shader_vs_layout(*dev, {e}, "@group(0) @binding(0) var<uniform> v : vec4<u32>", "_ = v;"),
              HasSubstr("shader (BufferBindingType::Uniform) is not compatible with the type in the layout (BufferBindingType::ReadOnlyStorage)"));
  e.buffer.type = BufferBindingType::Storage;
  EXPECT_EQ(shader_vs_layout(*dev, {e}, "@group(0) @binding(0) var<storage, read_write> v : array<u32>", "v[0] = 1u;"), "");
}

TEST_F(NullDeviceTest, TextureSampleTypeValuesAreNamedByTheLibrary) {
  auto e = compute_entry();
  e.texture.viewDimension = TextureViewDimension::e2D;
  const std::vector<std::pair<TextureSampleType, const char*>> types = {
      {TextureSampleType::Float, "Float"}, {TextureSampleType::UnfilterableFloat, "UnfilterableFloat"},
      {TextureSampleType::Depth, "Depth"}, {TextureSampleType::Sint, "Sint"}};
  for (const auto& [type, name] : types) {
    e.texture.sampleType = type;
    EXPECT_THAT(shader_vs_layout(*dev, {e}, "@group(0) @binding(0) var t : texture_2d<u32>", "_ = textureLoad(t, vec2<i32>(0, 0), 0);"),
                HasSubstr(std::string("layout's texture sample type (TextureSampleType::") + name + ")"));
  }
  e.texture.sampleType = TextureSampleType::Uint;
  EXPECT_THAT(shader_vs_layout(*dev, {e}, "@group(0) @binding(0) var t : texture_2d<f32>", "_ = textureLoad(t, vec2<i32>(0, 0), 0);"),
              HasSubstr("layout's texture sample type (TextureSampleType::Uint)"));
}

TEST_F(NullDeviceTest, TextureViewDimensionValuesAreNamedByTheLibrary) {
  auto e = compute_entry();
  e.texture.sampleType = TextureSampleType::Float;
  const std::vector<std::pair<TextureViewDimension, const char*>> dims = {
      {TextureViewDimension::e1D, "e1D"},   {TextureViewDimension::e2DArray, "e2DArray"},
      {TextureViewDimension::Cube, "Cube"}, {TextureViewDimension::CubeArray, "CubeArray"},
      {TextureViewDimension::e3D, "e3D"}};
  for (const auto& [dim, name] : dims) {
    e.texture.viewDimension = dim;
    std::string msg = shader_vs_layout(*dev, {e}, "@group(0) @binding(0) var t : texture_2d<f32>", "_ = textureLoad(t, vec2<i32>(0, 0), 0);");
    EXPECT_THAT(msg, HasSubstr(std::string("TextureViewDimension::") + name)) << msg;
    EXPECT_THAT(msg, HasSubstr("TextureViewDimension::e2D)")) << msg;
  }
}

TEST_F(NullDeviceTest, SamplerBindingTypeValuesAreReadByTheLibrary) {
  // Dawn prints sampler kinds as "comparison: N"; filtering is proven by pairing the sampler
  // with an unfilterable texture, which only a filtering sampler may not sample.
  auto sampler = compute_entry();
  sampler.sampler.type = SamplerBindingType::Comparison;
  EXPECT_THAT(shader_vs_layout(*dev, {sampler}, "@group(0) @binding(0) var s : sampler", "_ = s;"),
              HasSubstr("in the layout (comparison: 1)"));
  sampler.sampler.type = SamplerBindingType::Filtering;
  EXPECT_THAT(shader_vs_layout(*dev, {sampler}, "@group(0) @binding(0) var s : sampler_comparison", "_ = s;"),
              HasSubstr("in the layout (comparison: 0)"));
  auto texture = compute_entry();
  texture.binding = 1;
  texture.texture.sampleType = TextureSampleType::UnfilterableFloat;
  texture.texture.viewDimension = TextureViewDimension::e2D;
  const std::string decl = "@group(0) @binding(0) var s : sampler; @group(0) @binding(1) var t : texture_2d<f32>";
  const std::string use = "_ = textureSampleLevel(t, s, vec2<f32>(0.5), 0.0);";
  std::string msg = shader_vs_layout(*dev, {sampler, texture}, decl, use);
  EXPECT_THAT(msg, HasSubstr("SamplerBindingType::Filtering")) << msg;
  EXPECT_THAT(msg, HasSubstr("TextureSampleType::UnfilterableFloat")) << msg;
  sampler.sampler.type = SamplerBindingType::NonFiltering;
  EXPECT_EQ(shader_vs_layout(*dev, {sampler, texture}, decl, use), "");
}

TEST_F(NullDeviceTest, StorageTextureAccessValuesAreNamedByTheLibrary) {
  auto e = compute_entry();
  e.storageTexture.format = TextureFormat::R32Float;
  e.storageTexture.viewDimension = TextureViewDimension::e2D;
  e.storageTexture.access = StorageTextureAccess::ReadOnly;
  std::string msg = shader_vs_layout(*dev, {e}, "@group(0) @binding(0) var t : texture_storage_2d<r32float, write>",
                                     "textureStore(t, vec2<i32>(0, 0), vec4<f32>(1.0));");
  EXPECT_THAT(msg, HasSubstr("StorageTextureAccess::WriteOnly")) << msg;
  EXPECT_THAT(msg, HasSubstr("StorageTextureAccess::ReadOnly")) << msg;
  e.storageTexture.access = StorageTextureAccess::WriteOnly;
  msg = shader_vs_layout(*dev, {e}, "@group(0) @binding(0) var t : texture_storage_2d<r32float, read_write>",
                         "textureStore(t, vec2<i32>(0, 0), textureLoad(t, vec2<i32>(1, 1)));");
  EXPECT_THAT(msg, HasSubstr("StorageTextureAccess::ReadWrite")) << msg;
  EXPECT_THAT(msg, HasSubstr("StorageTextureAccess::WriteOnly")) << msg;
}

TEST_F(NullDeviceTest, ShaderStageBitsAreNamedByTheLibrary) {
  auto e = compute_entry();
  e.buffer.type = BufferBindingType::ReadOnlyStorage;
  for (auto [stage, name] : {std::pair{ShaderStage::Vertex, "Vertex"}, std::pair{ShaderStage::Fragment, "Fragment"}}) {
    e.visibility = stage;
    EXPECT_THAT(shader_vs_layout(*dev, {e}, "@group(0) @binding(0) var<storage, read> v : array<u32>", "_ = v[0];"),
                HasSubstr(std::string("Entry point's stage (ShaderStage::Compute) is not in the binding visibility in the layout (ShaderStage::") + name + ")"));
  }
}

TEST_F(NullDeviceTest, PrimitiveTopologyAndIndexFormatValuesAreNamedByTheLibrary) {
  const auto& p = dev->procs();
  Device device = dev->device.get();
  ShaderModule module = create_wgsl_module(p, device,
                                            "@vertex fn vs() -> @builtin(position) vec4<f32> { return vec4<f32>(0.0); }\n"
                                            "@fragment fn fs() -> @location(0) vec4<f32> { return vec4<f32>(1.0); }",
                                            "topology probe");
  auto pipeline_message = [&](PrimitiveTopology topology, IndexFormat strip) {
    return validation_message(*dev, [&] {
      gpu::VsFsPipelineDescription pipeline(module);
      pipeline.desc.primitive.topology = topology;
      pipeline.desc.primitive.stripIndexFormat = strip;
      p.RenderPipelineRelease(p.DeviceCreateRenderPipeline(device, &pipeline.desc));
    });
  };
  for (auto [topology, name] : {std::pair{PrimitiveTopology::PointList, "PointList"},
                                std::pair{PrimitiveTopology::LineList, "LineList"},
                                std::pair{PrimitiveTopology::TriangleList, "TriangleList"}}) {
    EXPECT_THAT(pipeline_message(topology, IndexFormat::Uint16),
                HasSubstr(std::string("StripIndexFormat (IndexFormat::Uint16) is not undefined when using a non-strip primitive topology (PrimitiveTopology::") + name + ")"));
  }
  EXPECT_THAT(pipeline_message(PrimitiveTopology::PointList, IndexFormat::Uint32), HasSubstr("(IndexFormat::Uint32)"));
  // The strip topologies accept a strip index format.
  EXPECT_EQ(pipeline_message(PrimitiveTopology::LineStrip, IndexFormat::Uint32), "");
  EXPECT_EQ(pipeline_message(PrimitiveTopology::TriangleStrip, IndexFormat::Uint16), "");
  p.ShaderModuleRelease(module);
}

TEST_F(NullDeviceTest, SamplerFilterValuesAreNamedByTheLibrary) {
  const auto& p = dev->procs();
  auto message = [&](SamplerDescriptor s) {
    return validation_message(*dev, [&] { p.SamplerRelease(p.DeviceCreateSampler(dev->device.get(), &s)); });
  };
  SamplerDescriptor s;
  s.maxAnisotropy = 4;
  s.magFilter = FilterMode::Linear;
  s.minFilter = FilterMode::Nearest;
  s.mipmapFilter = MipmapFilterMode::Linear;
  EXPECT_THAT(message(s), HasSubstr("minFilter (FilterMode::Nearest), magFilter (FilterMode::Linear) or mipmapFilter (MipmapFilterMode::Linear)"));
  s.minFilter = FilterMode::Linear;
  s.mipmapFilter = MipmapFilterMode::Nearest;
  EXPECT_THAT(message(s), HasSubstr("mipmapFilter (MipmapFilterMode::Nearest)"));
  s.mipmapFilter = MipmapFilterMode::Linear;
  EXPECT_EQ(message(s), "");
  SamplerDescriptor lod;
  lod.lodMinClamp = 5.0f;
  lod.lodMaxClamp = 1.0f;
  EXPECT_THAT(message(lod), HasSubstr("LOD min clamp (5.000000) is larger than the max clamp (1.000000)"));
}

TEST_F(NullDeviceTest, QueryTypeValuesAreReadByTheLibrary) {
  const auto& p = dev->procs();
  QuerySetDescriptor q;
  q.type = QueryType::Timestamp;
  q.count = 2;
  EXPECT_THAT(validation_message(*dev, [&] { p.QuerySetRelease(p.DeviceCreateQuerySet(dev->device.get(), &q)); }),
              HasSubstr("Timestamp query set created without the feature being enabled"));
  q.type = QueryType::Occlusion;
  q.count = 3;
  QuerySet set = p.DeviceCreateQuerySet(dev->device.get(), &q);
  EXPECT_EQ(p.QuerySetGetType(set), QueryType::Occlusion);
  EXPECT_EQ(p.QuerySetGetCount(set), 3u);
  p.QuerySetRelease(set);
}

TEST_F(NullDeviceTest, LabelsTravelAsStringViews) {
  const auto& p = dev->procs();
  BufferDescriptor d;
  d.label = std::string_view("labelled buffer, not null-terminated here", 15);
  d.size = 16;
  d.usage = BufferUsage::MapRead | BufferUsage::Storage;
  std::string msg = validation_message(*dev, [&] { p.BufferRelease(p.DeviceCreateBuffer(dev->device.get(), &d)); });
  EXPECT_THAT(msg, HasSubstr("[Device \"test device\"]"));
  // The device descriptor's label proves DeviceDescriptor.label; the buffer's own label is
  // printed only once the buffer exists, so check it through a later failing use.
  d.usage = BufferUsage::Uniform;
  Buffer b = p.DeviceCreateBuffer(dev->device.get(), &d);
  msg = validation_message(*dev, [&] {
    CommandEncoder e = p.DeviceCreateCommandEncoder(dev->device.get(), nullptr);
    p.CommandEncoderCopyBufferToBuffer(e, b, 0, b, 0, 4);
    p.CommandBufferRelease(p.CommandEncoderFinish(e, nullptr));
    p.CommandEncoderRelease(e);
  });
  EXPECT_THAT(msg, HasSubstr("[Buffer \"labelled buffer\"]"));
  p.BufferRelease(b);
}

}  // namespace
}  // namespace warden
