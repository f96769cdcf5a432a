// The description fields that reach webgpu.h's sampler, texture and render pipeline structs
// (issue 21): each is shown to arrive by a rule the library checks or by pixels read back, and
// a compare sampler and a stencil pipeline behave the same after a rebuild on a new device.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "resources/registry_test_support.h"
#include "support/gpu_test.h"
#include "support/messages.h"

namespace warden::resources {
namespace {

using ::testing::HasSubstr;
using testing::FailsWith;
using testing::GlDeviceTest;
using testing::NullDeviceTest;

constexpr uint32_t kTargetSide = 4;  // every target is 4x4
constexpr uint32_t kTargetRowBytes = 256;
using Pixel = std::array<uint8_t, 4>;
constexpr Pixel kRed{255, 0, 0, 255};
constexpr Pixel kBlack{0, 0, 0, 255};

constexpr const char* kFullScreenVertex = R"(
@vertex fn vs_full(@builtin(vertex_index) i : u32) -> @builtin(position) vec4<f32> {
  let p = array<vec2<f32>, 3>(vec2<f32>(-1.0, -1.0), vec2<f32>(3.0, -1.0), vec2<f32>(-1.0, 3.0));
  return vec4<f32>(p[i], 0.0, 1.0);
}
)";

// The map holds 0.5 everywhere (a cleared depth attachment): with Less, reference 0.25 passes
// and 0.75 fails, so red is 1 and green 0; another compare function gives other channels.
constexpr const char* kCompareFragment = R"(
@group(0) @binding(0) var depth_map : texture_depth_2d;
@group(0) @binding(1) var shadow : sampler_comparison;
@fragment fn fs() -> @location(0) vec4<f32> {
  let passes = textureSampleCompare(depth_map, shadow, vec2<f32>(0.5, 0.5), 0.25);
  let fails = textureSampleCompare(depth_map, shadow, vec2<f32>(0.5, 0.5), 0.75);
  return vec4<f32>(passes, fails, 0.0, 1.0);
}
)";

constexpr const char* kStencilShaders = R"(
@vertex fn vs_left(@builtin(vertex_index) i : u32) -> @builtin(position) vec4<f32> {
  let p = array<vec2<f32>, 6>(vec2<f32>(-1.0, -1.0), vec2<f32>(0.0, -1.0), vec2<f32>(-1.0, 1.0),
                              vec2<f32>(-1.0, 1.0), vec2<f32>(0.0, -1.0), vec2<f32>(0.0, 1.0));
  return vec4<f32>(p[i], 0.0, 1.0);
}
@fragment fn fs_red() -> @location(0) vec4<f32> { return vec4<f32>(1.0, 0.0, 0.0, 1.0); }
)";

// Samples a 2x2 texture outside [0, 1] on both axes: Repeat reads column/row 0, ClampToEdge 1.
constexpr const char* kOutsideFragment = R"(
@group(0) @binding(0) var image : texture_2d<f32>;
@group(0) @binding(1) var pick : sampler;
@fragment fn fs() -> @location(0) vec4<f32> { return textureSampleLevel(image, pick, vec2<f32>(1.25, 1.25), 0.0); }
)";

template <typename H>
H take(Result<H> result) {
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message);
  return result.ok() ? result.value() : H{};
}

template <typename H>
auto object(const Registry& reg, H handle) {
  auto resolved = reg.resolve(handle);
  EXPECT_TRUE(resolved.ok()) << (resolved.ok() ? "" : resolved.error().message);
  return resolved.ok() ? resolved.value() : nullptr;
}

TextureHandle color_target(Registry& reg, const char* label) {
  return take(reg.create_texture({.size = {kTargetSide, kTargetSide, 1},
                                  .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc,
                                  .label = label}));
}

// What one render pass draws into: a color view (and its resolve target), a depth(-stencil) view.
struct PassTargets {
  WGPUTextureView color = nullptr;
  WGPUTextureView resolve = nullptr;
  WGPUTextureView depth = nullptr;
  bool stencil = false;
  float depth_clear = 1.0f;
};

// Clears every attachment (color to opaque black, stencil to 0) and begins the pass.
WGPURenderPassEncoder begin_pass(const gpu::Procs& p, WGPUCommandEncoder encoder, const PassTargets& t) {
  WGPURenderPassColorAttachment color{};
  color.view = t.color;
  color.resolveTarget = t.resolve;
  color.depthSlice = WGPU_DEPTH_SLICE_UNDEFINED;
  color.loadOp = WGPULoadOp_Clear;
  color.storeOp = WGPUStoreOp_Store;
  color.clearValue = {0.0, 0.0, 0.0, 1.0};
  WGPURenderPassDepthStencilAttachment depth{};
  depth.view = t.depth;
  depth.depthLoadOp = WGPULoadOp_Clear;
  depth.depthStoreOp = WGPUStoreOp_Store;
  depth.depthClearValue = t.depth_clear;
  if (t.stencil) {
    depth.stencilLoadOp = WGPULoadOp_Clear;
    depth.stencilStoreOp = WGPUStoreOp_Store;
  }
  WGPURenderPassDescriptor d{};
  d.colorAttachmentCount = t.color != nullptr ? 1 : 0;
  d.colorAttachments = &color;
  d.depthStencilAttachment = t.depth != nullptr ? &depth : nullptr;
  return p.CommandEncoderBeginRenderPass(encoder, &d);
}

// Records `draw`, copies each of `targets` (4x4 RGBA8) to a buffer, submits and reads it back:
// kTargetSide rows of kTargetRowBytes per target, in order. Empty on a failure (with a test failure).
std::vector<uint8_t> draw_and_read(Registry& reg, const gpu::Context& context, std::vector<WGPUTexture> targets,
                                   const std::function<void(WGPUCommandEncoder)>& draw) {
  const gpu::Procs& p = reg.procs();
  const uint64_t image_bytes = uint64_t{kTargetRowBytes} * kTargetSide;
  WGPUBufferDescriptor bd{};
  bd.size = image_bytes * targets.size();
  bd.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
  gpu::Ref<WGPUBuffer> readback(&p, p.DeviceCreateBuffer(reg.device(), &bd));
  WGPUCommandEncoder encoder = p.DeviceCreateCommandEncoder(reg.device(), nullptr);
  draw(encoder);
  for (size_t i = 0; i < targets.size(); ++i) {
    WGPUTexelCopyTextureInfo source{};
    source.texture = targets[i];
    source.aspect = WGPUTextureAspect_All;
    WGPUTexelCopyBufferInfo destination{};
    destination.buffer = readback.get();
    destination.layout.offset = image_bytes * i;
    destination.layout.bytesPerRow = kTargetRowBytes;
    destination.layout.rowsPerImage = kTargetSide;
    const WGPUExtent3D size{kTargetSide, kTargetSide, 1};
    p.CommandEncoderCopyTextureToBuffer(encoder, &source, &destination, &size);
  }
  WGPUCommandBuffer commands = p.CommandEncoderFinish(encoder, nullptr);
  reg.submit(commands);
  p.CommandBufferRelease(commands);
  p.CommandEncoderRelease(encoder);
  auto bytes = context.read_mapped(readback.get(), bd.size, testing::kSafetyNet);
  EXPECT_TRUE(bytes.ok()) << (bytes.ok() ? "" : bytes.error().message);
  return bytes.ok() ? bytes.value() : std::vector<uint8_t>{};
}

Pixel pixel(const std::vector<uint8_t>& bytes, uint32_t x, uint32_t y, uint32_t image = 0) {
  const size_t at = size_t{image} * kTargetRowBytes * kTargetSide + size_t{y} * kTargetRowBytes + size_t{x} * 4;
  if (bytes.size() < at + 4) return {};
  return {bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]};
}

std::vector<WGPUBindGroupLayoutEntry> depth_and_sampler_entries(WGPUSamplerBindingType sampler) {
  std::vector<WGPUBindGroupLayoutEntry> entries(2);
  entries[0].binding = 0;
  entries[0].visibility = WGPUShaderStage_Fragment;
  entries[0].texture.sampleType = WGPUTextureSampleType_Depth;
  entries[0].texture.viewDimension = WGPUTextureViewDimension_2D;
  entries[1].binding = 1;
  entries[1].visibility = WGPUShaderStage_Fragment;
  entries[1].sampler.type = sampler;
  return entries;
}

// ---- samplers --------------------------------------------------------------------------------

TEST_F(NullDeviceTest, ACompareSamplerBindsToAComparisonBindingWhereAnOrdinaryOneIsRefused) {
  auto reg = testing::make_registry(*dev);
  const TextureHandle depth = take(reg->create_texture(
      {.size = {kTargetSide, kTargetSide, 1}, .format = WGPUTextureFormat_Depth32Float, .usage = WGPUTextureUsage_TextureBinding}));
  const TextureViewHandle view = take(reg->create_texture_view(depth));
  const BindGroupLayoutHandle layout =
      take(reg->create_bind_group_layout(depth_and_sampler_entries(WGPUSamplerBindingType_Comparison), "shadow layout"));
  const SamplerHandle compare = take(reg->create_sampler({.compare = WGPUCompareFunction_Less, .label = "shadow"}));
  const SamplerHandle ordinary = take(reg->create_sampler({.label = "ordinary"}));

  EXPECT_TRUE(reg->create_bind_group({layout, {{0, view}, {1, compare}}, "with compare"}).ok());
  auto refused = reg->create_bind_group({layout, {{0, view}, {1, ordinary}}, "with ordinary"});
  ASSERT_THAT(refused, FailsWith(MessageId::CreateRejected));
  EXPECT_THAT(refused.error().message, HasSubstr("create_bind_group \"with ordinary\": the device rejected it"));
  EXPECT_THAT(refused.error().message, HasSubstr("Comparison"));
}

TEST_F(NullDeviceTest, SamplerRulesTheLibraryChecksRefuseTheFieldsInItsWords) {
  auto reg = testing::make_registry(*dev);
  auto lod = reg->create_sampler({.lod_min_clamp = 4.0f, .lod_max_clamp = 2.0f, .label = "inverted lod"});
  ASSERT_THAT(lod, FailsWith(MessageId::CreateRejected));
  EXPECT_THAT(lod.error().message, HasSubstr("create_sampler \"inverted lod\": the device rejected it"));
  EXPECT_THAT(lod.error().message, HasSubstr("LOD min clamp (4.000000) is larger than the max clamp (2.000000)"));
  auto anisotropic = reg->create_sampler({.max_anisotropy = 4, .label = "nearest anisotropic"});
  ASSERT_THAT(anisotropic, FailsWith(MessageId::CreateRejected));
  EXPECT_THAT(anisotropic.error().message, HasSubstr("create_sampler \"nearest anisotropic\": the device rejected it"));
  EXPECT_THAT(anisotropic.error().message, HasSubstr("nisotropy"));
  // The same anisotropy with every filter Linear is what the library allows.
  EXPECT_TRUE(reg->create_sampler({.mag_filter = WGPUFilterMode_Linear,
                                   .min_filter = WGPUFilterMode_Linear,
                                   .mipmap_filter = WGPUMipmapFilterMode_Linear,
                                   .max_anisotropy = 4,
                                   .label = "linear anisotropic"})
                  .ok());
}

// A 2x2 texture red, green / blue, white sampled at (1.25, 1.25): u Repeat and v ClampToEdge read
// blue, u ClampToEdge and v Repeat read green; one mode on both axes would read red or white.
TEST_F(GlDeviceTest, PerAxisAddressModesOverrideTheCommonOne) {
  auto reg = testing::make_registry(*dev);
  const TextureHandle image = take(reg->create_texture(
      {.size = {2, 2, 1}, .usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst, .label = "quadrants"}));
  const std::array<uint8_t, 16> texels = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
  ASSERT_TRUE(reg->write_texture(image, {.size = {2, 2, 1}, .bytes_per_row = 8}, texels.data(), texels.size()).ok());
  const TextureViewHandle view = take(reg->create_texture_view(image));
  const SamplerHandle u_repeats = take(reg->create_sampler(
      {.address_mode = WGPUAddressMode_ClampToEdge, .address_mode_u = WGPUAddressMode_Repeat, .label = "u repeats"}));
  const SamplerHandle v_repeats = take(reg->create_sampler(
      {.address_mode = WGPUAddressMode_Repeat, .address_mode_u = WGPUAddressMode_ClampToEdge, .label = "v repeats"}));
  const ShaderModuleHandle module =
      take(reg->create_shader_module(std::string(kFullScreenVertex) + kOutsideFragment, "outside"));
  std::vector<WGPUBindGroupLayoutEntry> entries(2);
  entries[0].binding = 0;
  entries[0].visibility = WGPUShaderStage_Fragment;
  entries[0].texture.sampleType = WGPUTextureSampleType_Float;
  entries[0].texture.viewDimension = WGPUTextureViewDimension_2D;
  entries[1].binding = 1;
  entries[1].visibility = WGPUShaderStage_Fragment;
  entries[1].sampler.type = WGPUSamplerBindingType_Filtering;
  const BindGroupLayoutHandle layout = take(reg->create_bind_group_layout(entries, "outside layout"));
  const BindGroupLayoutHandle layouts[] = {layout};
  const PipelineLayoutHandle pipeline_layout = take(reg->create_pipeline_layout(layouts, "outside pipeline layout"));
  const RenderPipelineHandle pipeline = take(reg->create_render_pipeline({.label = "outside",
                                                                          .layout = pipeline_layout,
                                                                          .vertex = {.module = module, .entry_point = "vs_full"},
                                                                          .fragment = ShaderStage{.module = module, .entry_point = "fs"},
                                                                          .targets = {ColorTarget{}}}));
  const BindGroupHandle groups[] = {take(reg->create_bind_group({layout, {{0, view}, {1, u_repeats}}, "u group"})),
                                    take(reg->create_bind_group({layout, {{0, view}, {1, v_repeats}}, "v group"}))};
  const TextureHandle targets[] = {color_target(*reg, "u target"), color_target(*reg, "v target")};
  const gpu::Procs& p = reg->procs();
  auto bytes = draw_and_read(*reg, *dev->context, {object(*reg, targets[0]), object(*reg, targets[1])},
                             [&](WGPUCommandEncoder encoder) {
                               for (int i = 0; i < 2; ++i) {
                                 gpu::Ref<WGPUTextureView> color(&p, p.TextureCreateView(object(*reg, targets[i]), nullptr));
                                 WGPURenderPassEncoder pass = begin_pass(p, encoder, {.color = color.get()});
                                 p.RenderPassEncoderSetPipeline(pass, object(*reg, pipeline));
                                 p.RenderPassEncoderSetBindGroup(pass, 0, object(*reg, groups[i]), 0, nullptr);
                                 p.RenderPassEncoderDraw(pass, 3, 1, 0, 0);
                                 p.RenderPassEncoderEnd(pass);
                                 p.RenderPassEncoderRelease(pass);
                               }
                             });
  EXPECT_EQ(pixel(bytes, 1, 1, 0), (Pixel{0, 0, 255, 255}));
  EXPECT_EQ(pixel(bytes, 1, 1, 1), (Pixel{0, 255, 0, 255}));
  EXPECT_TRUE(dev->take_errors().empty());
}

// ---- textures --------------------------------------------------------------------------------

TEST_F(NullDeviceTest, ViewFormatsLetATextureHaveAnSrgbViewThatIsRefusedWithoutThem) {
  auto reg = testing::make_registry(*dev);
  const TextureHandle listed = take(reg->create_texture({.size = {kTargetSide, kTargetSide, 1},
                                                         .usage = WGPUTextureUsage_TextureBinding,
                                                         .view_formats = {WGPUTextureFormat_RGBA8UnormSrgb},
                                                         .label = "with srgb view"}));
  const TextureHandle unlisted = take(reg->create_texture(
      {.size = {kTargetSide, kTargetSide, 1}, .usage = WGPUTextureUsage_TextureBinding, .label = "without srgb view"}));
  EXPECT_TRUE(reg->create_texture_view(listed, {.format = WGPUTextureFormat_RGBA8UnormSrgb, .label = "srgb"}).ok());
  auto refused = reg->create_texture_view(unlisted, {.format = WGPUTextureFormat_RGBA8UnormSrgb, .label = "srgb too"});
  ASSERT_THAT(refused, FailsWith(MessageId::CreateRejected));
  EXPECT_THAT(refused.error().message, HasSubstr("create_texture_view \"srgb too\": the device rejected it"));
}

// ---- render pipelines ------------------------------------------------------------------------

// A 4x multisampled draw of a red full-screen triangle: mask 0 lets no sample be written (the
// resolve stays black), all ones covers every pixel.
TEST_F(GlDeviceTest, SampleMaskZeroDrawsNothingAndAllOnesDrawsEverything) {
  auto reg = testing::make_registry(*dev);
  const ShaderModuleHandle module =
      take(reg->create_shader_module(std::string(kFullScreenVertex) + kStencilShaders, "red"));
  auto pipeline = [&](uint32_t mask) {
    return take(reg->create_render_pipeline({.label = "masked",
                                             .vertex = {.module = module, .entry_point = "vs_full"},
                                             .sample_count = 4,
                                             .sample_mask = mask,
                                             .fragment = ShaderStage{.module = module, .entry_point = "fs_red"},
                                             .targets = {ColorTarget{}}}));
  };
  const RenderPipelineHandle pipelines[] = {pipeline(0), pipeline(0xFFFFFFFF)};
  const TextureHandle multisampled = take(reg->create_texture({.size = {kTargetSide, kTargetSide, 1},
                                                               .usage = WGPUTextureUsage_RenderAttachment,
                                                               .sample_count = 4,
                                                               .label = "multisampled"}));
  const TextureHandle resolved[] = {color_target(*reg, "mask 0"), color_target(*reg, "mask all")};
  const gpu::Procs& p = reg->procs();
  auto bytes = draw_and_read(*reg, *dev->context, {object(*reg, resolved[0]), object(*reg, resolved[1])},
                             [&](WGPUCommandEncoder encoder) {
                               gpu::Ref<WGPUTextureView> color(&p, p.TextureCreateView(object(*reg, multisampled), nullptr));
                               for (int i = 0; i < 2; ++i) {
                                 gpu::Ref<WGPUTextureView> resolve(&p, p.TextureCreateView(object(*reg, resolved[i]), nullptr));
                                 WGPURenderPassEncoder pass = begin_pass(p, encoder, {.color = color.get(), .resolve = resolve.get()});
                                 p.RenderPassEncoderSetPipeline(pass, object(*reg, pipelines[i]));
                                 p.RenderPassEncoderDraw(pass, 3, 1, 0, 0);
                                 p.RenderPassEncoderEnd(pass);
                                 p.RenderPassEncoderRelease(pass);
                               }
                             });
  EXPECT_EQ(pixel(bytes, 1, 1, 0), kBlack);
  EXPECT_EQ(pixel(bytes, 1, 1, 1), kRed);
  EXPECT_TRUE(dev->take_errors().empty());
}

// The scene the loss test draws twice: a compare sampler reading a depth map, and a stencil
// pipeline pair (the first raises the stencil to 1 where it draws, the second draws only where
// it is not 0).
struct CompareAndStencilScene {
  TextureHandle depth_map;
  TextureViewHandle depth_map_view;
  SamplerHandle shadow;
  BindGroupLayoutHandle shadow_layout;
  PipelineLayoutHandle shadow_pipeline_layout;
  BindGroupHandle shadow_group;
  ShaderModuleHandle module;
  RenderPipelineHandle compare;
  TextureHandle stencil;
  TextureViewHandle stencil_view;
  RenderPipelineHandle mark;
  RenderPipelineHandle masked;
  TextureHandle compare_target;
  TextureHandle stencil_target;
};

CompareAndStencilScene build_scene(Registry& reg) {
  CompareAndStencilScene s;
  s.depth_map = take(reg.create_texture({.size = {kTargetSide, kTargetSide, 1},
                                         .format = WGPUTextureFormat_Depth32Float,
                                         .usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_RenderAttachment,
                                         .label = "depth map"}));
  s.depth_map_view = take(reg.create_texture_view(s.depth_map, {.label = "depth map view"}));
  s.shadow = take(reg.create_sampler({.compare = WGPUCompareFunction_Less, .label = "shadow"}));
  s.shadow_layout =
      take(reg.create_bind_group_layout(depth_and_sampler_entries(WGPUSamplerBindingType_Comparison), "shadow layout"));
  const BindGroupLayoutHandle layouts[] = {s.shadow_layout};
  s.shadow_pipeline_layout = take(reg.create_pipeline_layout(layouts, "shadow pipeline layout"));
  s.shadow_group = take(reg.create_bind_group({s.shadow_layout, {{0, s.depth_map_view}, {1, s.shadow}}, "shadow group"}));
  s.module = take(reg.create_shader_module(std::string(kFullScreenVertex) + kCompareFragment + kStencilShaders, "scene"));
  s.compare = take(reg.create_render_pipeline({.label = "compare",
                                               .layout = s.shadow_pipeline_layout,
                                               .vertex = {.module = s.module, .entry_point = "vs_full"},
                                               .fragment = ShaderStage{.module = s.module, .entry_point = "fs"},
                                               .targets = {ColorTarget{}}}));
  s.stencil = take(reg.create_texture({.size = {kTargetSide, kTargetSide, 1},
                                       .format = WGPUTextureFormat_Depth24PlusStencil8,
                                       .usage = WGPUTextureUsage_RenderAttachment,
                                       .label = "stencil"}));
  s.stencil_view = take(reg.create_texture_view(s.stencil, {.label = "stencil view"}));
  DepthState write_one{.format = WGPUTextureFormat_Depth24PlusStencil8, .write = false, .compare = WGPUCompareFunction_Always};
  write_one.stencil_front.passOp = WGPUStencilOperation_IncrementClamp;
  s.mark = take(reg.create_render_pipeline({.label = "mark",
                                            .vertex = {.module = s.module, .entry_point = "vs_left"},
                                            .depth = write_one,
                                            .fragment = ShaderStage{.module = s.module, .entry_point = "fs_red"},
                                            .targets = {ColorTarget{.write_mask = WGPUColorWriteMask_None}}}));
  DepthState test_one{.format = WGPUTextureFormat_Depth24PlusStencil8, .write = false, .compare = WGPUCompareFunction_Always};
  test_one.stencil_front.compare = WGPUCompareFunction_NotEqual;  // to the pass's reference, 0
  s.masked = take(reg.create_render_pipeline({.label = "masked",
                                              .vertex = {.module = s.module, .entry_point = "vs_full"},
                                              .depth = test_one,
                                              .fragment = ShaderStage{.module = s.module, .entry_point = "fs_red"},
                                              .targets = {ColorTarget{}}}));
  s.compare_target = color_target(reg, "compare target");
  s.stencil_target = color_target(reg, "stencil target");
  return s;
}

// Clears the depth map to 0.5, draws the compare pass, then the stencil passes; both targets back.
std::vector<uint8_t> render_scene(Registry& reg, const gpu::Context& context, const CompareAndStencilScene& s) {
  const gpu::Procs& p = reg.procs();
  return draw_and_read(reg, context, {object(reg, s.compare_target), object(reg, s.stencil_target)},
                       [&](WGPUCommandEncoder encoder) {
                         WGPURenderPassEncoder clear =
                             begin_pass(p, encoder, {.depth = object(reg, s.depth_map_view), .depth_clear = 0.5f});
                         p.RenderPassEncoderEnd(clear);
                         p.RenderPassEncoderRelease(clear);

                         gpu::Ref<WGPUTextureView> compare_view(&p, p.TextureCreateView(object(reg, s.compare_target), nullptr));
                         WGPURenderPassEncoder compare = begin_pass(p, encoder, {.color = compare_view.get()});
                         p.RenderPassEncoderSetPipeline(compare, object(reg, s.compare));
                         p.RenderPassEncoderSetBindGroup(compare, 0, object(reg, s.shadow_group), 0, nullptr);
                         p.RenderPassEncoderDraw(compare, 3, 1, 0, 0);
                         p.RenderPassEncoderEnd(compare);
                         p.RenderPassEncoderRelease(compare);

                         gpu::Ref<WGPUTextureView> stencil_color(&p, p.TextureCreateView(object(reg, s.stencil_target), nullptr));
                         WGPURenderPassEncoder pass = begin_pass(
                             p, encoder, {.color = stencil_color.get(), .depth = object(reg, s.stencil_view), .stencil = true});
                         p.RenderPassEncoderSetPipeline(pass, object(reg, s.mark));
                         p.RenderPassEncoderDraw(pass, 6, 1, 0, 0);
                         p.RenderPassEncoderSetPipeline(pass, object(reg, s.masked));
                         p.RenderPassEncoderDraw(pass, 3, 1, 0, 0);
                         p.RenderPassEncoderEnd(pass);
                         p.RenderPassEncoderRelease(pass);
                       });
}

// The compare target is red (Less: 0.25 passes, 0.75 fails); the stencil target red on its
// left half, where the mark pipeline raised the stencil, and black on its right.
void expect_scene_pixels(const std::vector<uint8_t>& bytes) {
  for (uint32_t y = 0; y < kTargetSide; ++y) {
    for (uint32_t x = 0; x < kTargetSide; ++x) {
      EXPECT_EQ(pixel(bytes, x, y, 0), kRed) << x << "," << y;
      EXPECT_EQ(pixel(bytes, x, y, 1), x < kTargetSide / 2 ? kRed : kBlack) << x << "," << y;
    }
  }
}

TEST_F(GlDeviceTest, ACompareSamplerAndAStencilPipelineDrawAsDescribedBeforeAndAfterADeviceLoss) {
  auto reg = testing::make_registry(*dev);
  const CompareAndStencilScene scene = build_scene(*reg);
  const std::vector<uint8_t> before = render_scene(*reg, *dev->context, scene);
  expect_scene_pixels(before);
  EXPECT_TRUE(dev->take_errors().empty());

  dev->procs().DeviceForceLoss(dev->device.get(), WGPUDeviceLostReason_Unknown, gpu::string_view("forced by the test"));
  dev->context->process_events();
  ASSERT_TRUE(dev->lost);
  reg->on_device_lost();
  auto second = testing::open_test_device(testing::pixel_test_backend());
  ASSERT_NE(second, nullptr);
  const RebuildReport report = reg->rebuild(second->device.get(), second->queue.get(), 2);
  EXPECT_TRUE(report.failed.empty()) << report.failed.front();
  const std::vector<uint8_t> after = render_scene(*reg, *second->context, scene);
  EXPECT_EQ(after, before);
  EXPECT_TRUE(second->take_errors().empty());
  reg.reset();
  second->queue.reset();
  second->device.reset();
  second->adapter.adapter.reset();
  second->context->process_events();
}

// ---- what the header says a recipe keeps: strip index format, unclipped depth, chains -----------

constexpr const char* kStripShaders = R"(
@vertex fn vs_strip(@builtin(vertex_index) i : u32) -> @builtin(position) vec4<f32> {
  let p = array<vec2<f32>, 4>(vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, -1.0), vec2<f32>(-1.0, 1.0), vec2<f32>(1.0, 1.0));
  return vec4<f32>(p[i], 0.0, 1.0);
}
@fragment fn fs_red() -> @location(0) vec4<f32> { return vec4<f32>(1.0, 0.0, 0.0, 1.0); }
)";

RenderPipelineDescription strip_pipeline(ShaderModuleHandle module, WGPUPrimitiveTopology topology) {
  return {.label = "strip",
          .vertex = {.module = module, .entry_point = "vs_strip"},
          .topology = topology,
          .strip_index_format = WGPUIndexFormat_Uint16,
          .fragment = ShaderStage{.module = module, .entry_point = "fs_red"},
          .targets = {ColorTarget{}}};
}

// Draws the four indices 0..3 with `pipeline` into a cleared 4x4 target and reads it back.
std::vector<uint8_t> draw_strip(Registry& reg, const gpu::Context& context, RenderPipelineHandle pipeline,
                                BufferHandle indices, TextureHandle target) {
  const gpu::Procs& p = reg.procs();
  return draw_and_read(reg, context, {object(reg, target)}, [&](WGPUCommandEncoder encoder) {
    gpu::Ref<WGPUTextureView> color(&p, p.TextureCreateView(object(reg, target), nullptr));
    WGPURenderPassEncoder pass = begin_pass(p, encoder, {.color = color.get()});
    p.RenderPassEncoderSetPipeline(pass, object(reg, pipeline));
    p.RenderPassEncoderSetIndexBuffer(pass, object(reg, indices), WGPUIndexFormat_Uint16, 0, WGPU_WHOLE_SIZE);
    p.RenderPassEncoderDrawIndexed(pass, 4, 1, 0, 0, 0);
    p.RenderPassEncoderEnd(pass);
    p.RenderPassEncoderRelease(pass);
  });
}

// A triangle strip of four indices covers the whole target (a list would draw one triangle of
// it); a list topology with a strip index format is refused in the device's words, so the field
// reaches it. After a loss the rebuilt pipeline draws the same, from a recipe that kept the field.
TEST_F(GlDeviceTest, AStripIndexFormatReachesTheDeviceAndTheRebuiltPipelineDrawsTheSameStrip) {
  auto reg = testing::make_registry(*dev);
  const ShaderModuleHandle module = take(reg->create_shader_module(kStripShaders, "strip shaders"));
  const RenderPipelineHandle strip = take(reg->create_render_pipeline(strip_pipeline(module, WGPUPrimitiveTopology_TriangleStrip)));
  auto list = reg->create_render_pipeline(strip_pipeline(module, WGPUPrimitiveTopology_TriangleList));
  EXPECT_THAT(list, FailsWith(MessageId::CreateRejected));
  if (!list.ok()) {
    EXPECT_THAT(list.error().message,
                HasSubstr("StripIndexFormat (IndexFormat::Uint16) is not undefined when using a non-strip primitive "
                          "topology (PrimitiveTopology::TriangleList)"));
  }
  const BufferHandle indices = take(reg->create_buffer({8, WGPUBufferUsage_Index | WGPUBufferUsage_CopyDst, false, "strip indices"}));
  const uint16_t quad[4] = {0, 1, 2, 3};
  ASSERT_TRUE(reg->write_buffer(indices, 0, quad, sizeof(quad)).ok());
  const TextureHandle target = color_target(*reg, "strip target");
  const std::vector<uint8_t> before = draw_strip(*reg, *dev->context, strip, indices, target);
  EXPECT_EQ(pixel(before, 0, 0), kRed);
  EXPECT_EQ(pixel(before, 3, 3), kRed);
  EXPECT_EQ(pixel(before, 0, 3), kRed);
  EXPECT_EQ(pixel(before, 3, 0), kRed);
  (void)dev->take_errors();

  testing::force_loss(*dev, *reg);
  auto second = testing::open_test_device(testing::pixel_test_backend());
  ASSERT_NE(second, nullptr);
  const RebuildReport report = reg->rebuild(second->device.get(), second->queue.get(), 2);
  EXPECT_TRUE(report.failed.empty()) << report.failed.front();
  const auto recipe = reg->recipe(strip);
  ASSERT_TRUE(recipe);
  EXPECT_EQ(recipe->topology, WGPUPrimitiveTopology_TriangleStrip);
  EXPECT_EQ(recipe->strip_index_format, WGPUIndexFormat_Uint16);
  const std::vector<uint8_t> after = draw_strip(*reg, *second->context, strip, indices, target);
  EXPECT_EQ(after, before);
  EXPECT_TRUE(second->take_errors().empty());
  reg.reset();
  testing::close_device(second);
}

// unclipped_depth needs the device feature DepthClipControl, which the test devices do not ask
// for: the device refuses the pipeline's primitive state naming the feature, and takes the same
// pipeline without the field, so the field reaches the device. A pipeline
// made while the device is lost keeps it in its recipe, and the rebuild asks the new device for
// it too (refused the same way there).
TEST_F(NullDeviceTest, UnclippedDepthReachesTheDeviceAtCreationAndAtTheRebuild) {
  auto reg = testing::make_registry(*dev);
  ASSERT_FALSE(reg->procs().DeviceHasFeature(dev->device.get(), WGPUFeatureName_DepthClipControl));
  const ShaderModuleHandle module = take(reg->create_shader_module(kStripShaders, "shaders"));
  RenderPipelineDescription unclipped{.label = "unclipped",
                                      .vertex = {.module = module, .entry_point = "vs_strip"},
                                      .unclipped_depth = true,
                                      .fragment = ShaderStage{.module = module, .entry_point = "fs_red"},
                                      .targets = {ColorTarget{}}};
  auto refused = reg->create_render_pipeline(unclipped);
  ASSERT_THAT(refused, FailsWith(MessageId::CreateRejected));
  EXPECT_THAT(refused.error().message, HasSubstr("FeatureName::DepthClipControl is not supported"));
  EXPECT_THAT(refused.error().message, HasSubstr("While validating primitive state"));
  unclipped.unclipped_depth = false;
  EXPECT_TRUE(reg->create_render_pipeline(unclipped).ok());

  testing::force_loss(*dev, *reg);
  unclipped.unclipped_depth = true;
  auto made_while_lost = reg->create_render_pipeline(unclipped);
  ASSERT_TRUE(made_while_lost.ok()) << made_while_lost.error().message;
  ASSERT_TRUE(reg->recipe(*made_while_lost));
  EXPECT_TRUE(reg->recipe(*made_while_lost)->unclipped_depth);
  auto second = testing::open_test_device(gpu::BackendChoice::Null);
  ASSERT_NE(second, nullptr);
  const RebuildReport report = reg->rebuild(second->device.get(), second->queue.get(), 2);
  ASSERT_EQ(report.failed.size(), 1u);
  EXPECT_THAT(report.failed[0], HasSubstr("FeatureName::DepthClipControl is not supported"));
  EXPECT_EQ(reg->slot_state(*made_while_lost), SlotState::Failed);
  reg.reset();
  testing::close_device(second);
}

// A bind group layout entry with nothing set but a chained WGPUExternalTextureBindingLayout is
// an external texture binding: without its chain the device refuses the entry. The registry
// keeps a copy of the chain in the recipe, so the layout is made again after a loss.
TEST_F(NullDeviceTest, ABindGroupLayoutEntrysChainReachesTheDeviceAndIsKeptForTheRebuild) {
  auto reg = testing::make_registry(*dev);
  WGPUExternalTextureBindingLayout external{};
  external.chain.sType = WGPUSType_ExternalTextureBindingLayout;
  WGPUBindGroupLayoutEntry entry{};
  entry.binding = 0;
  entry.visibility = WGPUShaderStage_Fragment;
  entry.nextInChain = &external.chain;
  auto layout = reg->create_bind_group_layout({&entry, 1}, "external");
  ASSERT_TRUE(layout.ok()) << layout.error().message;
  external.chain.sType = WGPUSType_ShaderSourceWGSL;  // the caller's struct changes after the call
  {
    const auto recipe = reg->recipe(*layout);
    ASSERT_TRUE(recipe);
    ASSERT_EQ(recipe->entry_chains.size(), 1u);
    EXPECT_EQ(recipe->entry_chains[0].types(), std::vector<WGPUSType>{WGPUSType_ExternalTextureBindingLayout});
    EXPECT_EQ(recipe->entries[0].nextInChain, nullptr);
  }
  // The same entry without its chain names no binding type.
  entry.nextInChain = nullptr;
  EXPECT_THAT(reg->create_bind_group_layout({&entry, 1}, "no chain"), FailsWith(MessageId::CreateRejected));

  testing::force_loss(*dev, *reg);
  auto second = testing::open_test_device(gpu::BackendChoice::Null);
  ASSERT_NE(second, nullptr);
  const RebuildReport report = reg->rebuild(second->device.get(), second->queue.get(), 2);
  EXPECT_TRUE(report.failed.empty()) << report.failed.front();
  EXPECT_EQ(reg->slot_state(*layout), SlotState::Live);
  reg.reset();
  testing::close_device(second);
}

// A chained struct warden cannot keep (one that names a device object) is refused naming it, and
// a bind group entry's chain reaches the device: on a buffer binding the device takes no chain
// and says so, and takes the same entry without it.
TEST_F(NullDeviceTest, AChainThatCannotBeKeptIsRefusedAndABindGroupEntrysChainReachesTheDevice) {
  auto reg = testing::make_registry(*dev);
  WGPUExternalTextureBindingEntry holds_an_object{};
  holds_an_object.chain.sType = WGPUSType_ExternalTextureBindingEntry;
  WGPUBindGroupLayoutEntry entry{};
  entry.binding = 0;
  entry.visibility = WGPUShaderStage_Fragment;
  entry.buffer.type = WGPUBufferBindingType_Uniform;
  entry.nextInChain = &holds_an_object.chain;
  auto refused = reg->create_bind_group_layout({&entry, 1}, "holds an object");
  ASSERT_THAT(refused, FailsWith(MessageId::ChainStructNotKept));
  EXPECT_THAT(refused.error().message, HasSubstr("create_bind_group_layout \"holds an object\" entry 0 (binding 0)"));
  EXPECT_THAT(refused.error().message, HasSubstr("sType 0x50001"));
  EXPECT_THAT(ChainCopy::of(&holds_an_object.chain), FailsWith(MessageId::ChainStructNotKept));

  entry.nextInChain = nullptr;
  const BindGroupLayoutHandle layout = take(reg->create_bind_group_layout({&entry, 1}, "uniform"));
  const BufferHandle buffer = take(reg->create_buffer({16, WGPUBufferUsage_Uniform, false, "uniforms"}));
  WGPUExternalTextureBindingLayout unexpected{};
  unexpected.chain.sType = WGPUSType_ExternalTextureBindingLayout;
  auto chain = ChainCopy::of(&unexpected.chain);
  ASSERT_TRUE(chain.ok()) << chain.error().message;
  BindGroupEntryDescription chained{0, BufferBinding{buffer}};
  chained.chain = *chain;
  auto group = reg->create_bind_group({layout, {chained}, "chained"});
  ASSERT_THAT(group, FailsWith(MessageId::CreateRejected));
  EXPECT_THAT(group.error().message, HasSubstr("nextInChain must be nullptr"));
  EXPECT_TRUE(reg->create_bind_group({layout, {{0, BufferBinding{buffer}}}, "plain"}).ok());
}

}  // namespace
}  // namespace warden::resources
