// The scene of issue 11, built through the Registry so that it can be rebuilt after a device
// loss: a compute pipeline writes a storage buffer of positions that the render pipeline reads
// as its vertex buffer; a CPU-written vertex buffer of texture coordinates; a uniform buffer; a
// texture with a full mip chain, each level a different colour; a sampler; bind groups. One
// frame renders into a 16x16 target and reads it back.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "warden/pipelines/build.h"
#include "warden/resources/registry.h"
#include "warden/gpu/objects.h"
#include "support/poll_until.h"

namespace warden::testing {

inline constexpr const char* kLossSceneWgsl = R"(
struct Positions { p : array<vec4<f32>, 3> };
@group(0) @binding(0) var<storage, read_write> out_positions : Positions;
@compute @workgroup_size(1) fn make_positions() {
  out_positions.p[0] = vec4<f32>(-1.0, -1.0, 0.0, 1.0);
  out_positions.p[1] = vec4<f32>( 3.0, -1.0, 0.0, 1.0);
  out_positions.p[2] = vec4<f32>(-1.0,  3.0, 0.0, 1.0);
}

struct Uniforms { tint : vec4<f32>, lod : vec4<f32> };
@group(0) @binding(0) var<uniform> u : Uniforms;
@group(0) @binding(1) var t : texture_2d<f32>;
@group(0) @binding(2) var s : sampler;
struct VertexOut { @builtin(position) position : vec4<f32>, @location(0) uv : vec2<f32> };
@vertex fn vs(@location(0) position : vec4<f32>, @location(1) uv : vec2<f32>) -> VertexOut {
  return VertexOut(position, uv);
}
@fragment fn fs(v : VertexOut) -> @location(0) vec4<f32> {
  return u.tint * textureSampleLevel(t, s, v.uv, u.lod.x);
}
)";

inline constexpr uint32_t kSceneSize = 16;
inline constexpr uint32_t kSceneRowBytes = 256;
inline constexpr uint32_t kSceneTextureSize = 8;  // mips 8, 4, 2, 1

struct LossScene {
  BufferHandle positions;  // storage, written by the compute pass, read as vertices
  BufferHandle uvs;
  BufferHandle uniforms;
  BufferHandle readback;
  TextureHandle texture;
  TextureViewHandle texture_view;
  SamplerHandle sampler;
  TextureHandle target;
  TextureViewHandle target_view;
  ShaderModuleHandle module;
  BindGroupLayoutHandle compute_layout;
  BindGroupLayoutHandle render_layout;
  PipelineLayoutHandle compute_pipeline_layout;
  PipelineLayoutHandle render_pipeline_layout;
  BindGroupHandle compute_group;
  BindGroupHandle render_group;
  ComputePipelineHandle compute;
  RenderPipelineHandle render;

  // What the application writes: the same bytes every time it is asked.
  static std::vector<float> uv_data() { return {0.0f, 0.0f, 2.0f, 0.0f, 0.0f, 2.0f}; }
  static std::array<float, 8> uniform_data() { return {1.0f, 0.5f, 1.0f, 1.0f, 1.0f, 0, 0, 0}; }  // lod 1
  static std::vector<uint8_t> mip_data(uint32_t mip) {
    const uint32_t side = kSceneTextureSize >> mip;
    std::vector<uint8_t> texels(side * side * 4);
    for (uint32_t i = 0; i < side * side; ++i) {
      texels[i * 4 + 0] = static_cast<uint8_t>(40 + 60 * mip + (i % side) * 8);
      texels[i * 4 + 1] = static_cast<uint8_t>(200 - 50 * mip);
      texels[i * 4 + 2] = static_cast<uint8_t>((i / side) * 16);
      texels[i * 4 + 3] = 255;
    }
    return texels;
  }
  static Result<void> write_uvs(resources::Registry& reg, BufferHandle h) {
    auto data = uv_data();
    return reg.write_buffer(h, 0, data.data(), data.size() * sizeof(float));
  }
  static Result<void> write_uniforms(resources::Registry& reg, BufferHandle h) {
    auto data = uniform_data();
    return reg.write_buffer(h, 0, data.data(), sizeof(data));
  }
  static Result<void> write_texture(resources::Registry& reg, TextureHandle h) {
    for (uint32_t mip = 0; (kSceneTextureSize >> mip) > 0; ++mip) {
      const uint32_t side = kSceneTextureSize >> mip;
      auto texels = mip_data(mip);
      resources::TextureWrite where{.mip_level = mip, .size = {side, side, 1}, .bytes_per_row = side * 4};
      if (auto w = reg.write_texture(h, where, texels.data(), texels.size()); !w) return w;
    }
    return {};
  }
};

// Builds the scene; `source` says where the uvs, uniforms and texture come from after a loss.
inline LossScene build_loss_scene(resources::Registry& reg, resources::ContentsSource source) {
  LossScene s;
  auto take = [](auto result) {
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message);
    using H = std::decay_t<decltype(result.value())>;
    return result.ok() ? result.value() : H{};
  };
  s.positions = take(reg.create_buffer({3 * 16, WGPUBufferUsage_Storage | WGPUBufferUsage_Vertex, false, "positions"}));
  resources::BufferDescription uvs{6 * 4, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, false, "uvs", source};
  if (source == resources::ContentsSource::Callback) uvs.refill = [](resources::Registry& r, BufferHandle h) { (void)LossScene::write_uvs(r, h); };
  s.uvs = take(reg.create_buffer(uvs));
  resources::BufferDescription uniforms{32, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, false, "uniforms", source};
  if (source == resources::ContentsSource::Callback) {
    uniforms.refill = [](resources::Registry& r, BufferHandle h) { (void)LossScene::write_uniforms(r, h); };
  }
  s.uniforms = take(reg.create_buffer(uniforms));
  s.readback = take(reg.create_buffer({kSceneRowBytes * kSceneSize, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, false, "readback"}));
  resources::TextureDescription texture{.size = {kSceneTextureSize, kSceneTextureSize, 1},
                      .usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst,
                      .mip_level_count = 4,
                      .label = "mipped texture",
                      .contents = source};
  if (source == resources::ContentsSource::Callback) {
    texture.refill = [](resources::Registry& r, TextureHandle h) { (void)LossScene::write_texture(r, h); };
  }
  s.texture = take(reg.create_texture(texture));
  s.texture_view = take(reg.create_texture_view(s.texture, {.label = "mipped view"}));
  s.sampler = take(reg.create_sampler({.mipmap_filter = WGPUMipmapFilterMode_Nearest, .label = "sampler"}));
  s.target = take(reg.create_texture({.size = {kSceneSize, kSceneSize, 1},
                                      .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc,
                                      .label = "target"}));
  s.target_view = take(reg.create_texture_view(s.target, {.label = "target view"}));
  s.module = take(reg.create_shader_module(kLossSceneWgsl, "scene module"));

  const resources::LayoutEntry compute_entries[] = {
      {.binding = 0, .visibility = WGPUShaderStage_Compute,
       .type = resources::BufferLayout{.type = WGPUBufferBindingType_Storage}},
  };
  s.compute_layout = take(reg.create_bind_group_layout(pipelines::translate_layout_entries(compute_entries), "compute layout"));
  const resources::LayoutEntry render_entries[] = {
      {.binding = 0, .visibility = WGPUShaderStage_Fragment, .type = resources::BufferLayout{}},
      {.binding = 1, .visibility = WGPUShaderStage_Fragment, .type = resources::TextureLayout{}},
      {.binding = 2, .visibility = WGPUShaderStage_Fragment, .type = resources::SamplerLayout{}},
  };
  s.render_layout = take(reg.create_bind_group_layout(pipelines::translate_layout_entries(render_entries), "render layout"));
  BindGroupLayoutHandle compute_layouts[] = {s.compute_layout};
  s.compute_pipeline_layout = take(reg.create_pipeline_layout(compute_layouts, "compute pipeline layout"));
  BindGroupLayoutHandle render_layouts[] = {s.render_layout};
  s.render_pipeline_layout = take(reg.create_pipeline_layout(render_layouts, "render pipeline layout"));
  s.compute_group = take(reg.create_bind_group({s.compute_layout, {{0, resources::BufferBinding{s.positions}}}, "compute group"}));
  s.render_group = take(reg.create_bind_group(
      {s.render_layout, {{0, resources::BufferBinding{s.uniforms}}, {1, s.texture_view}, {2, s.sampler}}, "render group"}));
  s.compute = take(reg.create_compute_pipeline({"make positions", s.compute_pipeline_layout,
                                                {s.module, "make_positions", {}}}));
  resources::RenderPipelineDescription render;
  render.label = "draw";
  render.layout = s.render_pipeline_layout;
  render.vertex = {s.module, "vs", {}};
  render.vertex_buffers = {
      resources::VertexLayout{16, WGPUVertexStepMode_Vertex, {resources::VertexAttribute{WGPUVertexFormat_Float32x4, 0, 0}}},
      resources::VertexLayout{8, WGPUVertexStepMode_Vertex, {resources::VertexAttribute{WGPUVertexFormat_Float32x2, 0, 1}}}};
  render.fragment = resources::ShaderStage{s.module, "fs", {}};
  render.targets = {resources::ColorTarget{}};
  s.render = take(reg.create_render_pipeline(render));

  EXPECT_TRUE(LossScene::write_uvs(reg, s.uvs).ok());
  EXPECT_TRUE(LossScene::write_uniforms(reg, s.uniforms).ok());
  EXPECT_TRUE(LossScene::write_texture(reg, s.texture).ok());
  return s;
}

// One frame: compute, draw, copy to the readback buffer, submit, then read it (blocking: tests
// only). Empty on any failure (with a test failure).
inline std::vector<uint8_t> render_loss_scene(resources::Registry& reg, const gpu::Context& context, const LossScene& s) {
  const gpu::Procs& p = reg.procs();
  auto get = [](auto result) { return result.ok() ? result.value() : nullptr; };
  auto compute = get(reg.resolve(s.compute));
  auto render = get(reg.resolve(s.render));
  auto target = get(reg.resolve(s.target));
  auto readback = get(reg.resolve(s.readback));
  if (!compute || !render || !target || !readback) {
    ADD_FAILURE() << "a scene handle does not resolve";
    return {};
  }
  WGPUCommandEncoder encoder = p.DeviceCreateCommandEncoder(reg.device(), nullptr);
  WGPUComputePassEncoder cpass = p.CommandEncoderBeginComputePass(encoder, nullptr);
  p.ComputePassEncoderSetPipeline(cpass, compute);
  p.ComputePassEncoderSetBindGroup(cpass, 0, get(reg.resolve(s.compute_group)), 0, nullptr);
  p.ComputePassEncoderDispatchWorkgroups(cpass, 1, 1, 1);
  p.ComputePassEncoderEnd(cpass);
  p.ComputePassEncoderRelease(cpass);
  WGPURenderPassEncoder rpass = gpu::begin_clear_pass(p, encoder, get(reg.resolve(s.target_view)));
  p.RenderPassEncoderSetPipeline(rpass, render);
  p.RenderPassEncoderSetBindGroup(rpass, 0, get(reg.resolve(s.render_group)), 0, nullptr);
  p.RenderPassEncoderSetVertexBuffer(rpass, 0, get(reg.resolve(s.positions)), 0, WGPU_WHOLE_SIZE);
  p.RenderPassEncoderSetVertexBuffer(rpass, 1, get(reg.resolve(s.uvs)), 0, WGPU_WHOLE_SIZE);
  p.RenderPassEncoderDraw(rpass, 3, 1, 0, 0);
  p.RenderPassEncoderEnd(rpass);
  p.RenderPassEncoderRelease(rpass);
  gpu::copy_image_to_buffer(p, encoder, target, readback, kSceneSize, kSceneSize, kSceneRowBytes);
  WGPUCommandBuffer commands = p.CommandEncoderFinish(encoder, nullptr);
  reg.touch(s.render_group);
  reg.touch(s.compute_group);
  reg.submit(commands);
  p.CommandBufferRelease(commands);
  p.CommandEncoderRelease(encoder);
  auto bytes = context.read_mapped(readback, kSceneRowBytes * kSceneSize, warden::testing::kSafetyNet);
  EXPECT_TRUE(bytes.ok()) << (bytes.ok() ? "" : bytes.error().message);
  return bytes.ok() ? bytes.value() : std::vector<uint8_t>{};
}

// What every scene handle resolves to now (null where it does not): object identities, to
// compare with release events.
inline std::vector<const void*> resolved_objects(resources::Registry& reg, const LossScene& s) {
  std::vector<const void*> out;
  auto add = [&](auto handle) {
    auto r = reg.resolve(handle);
    out.push_back(r.ok() ? static_cast<const void*>(r.value()) : nullptr);
  };
  add(s.positions), add(s.uvs), add(s.uniforms), add(s.readback), add(s.texture), add(s.texture_view);
  add(s.sampler), add(s.target), add(s.target_view), add(s.module), add(s.compute_layout), add(s.render_layout);
  add(s.compute_pipeline_layout), add(s.render_pipeline_layout), add(s.compute_group), add(s.render_group);
  add(s.compute), add(s.render);
  return out;
}

}  // namespace warden::testing
