// Helpers shared by the registry tests: a registry on a test device, one object of every kind,
// empty submissions and bounded non-blocking drains.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <type_traits>
#include <vector>

#include "support/gpu_test.h"
#include "support/poll_until.h"
#include "warden/pipelines/build.h"
#include "warden/resources/registry.h"
#include "warden/gpu/objects.h"

namespace warden::testing {

inline std::unique_ptr<resources::Registry> make_registry(TestDevice& dev, resources::RegistryOptions options = {}) {
  return std::make_unique<resources::Registry>(*dev.context, dev.device.get(), dev.queue.get(), std::move(options));
}

// Submits an empty command buffer through the registry's clock.
inline Serial submit_empty(resources::Registry& reg, TestDevice& dev) {
  const auto& p = dev.procs();
  WGPUCommandEncoder enc = p.DeviceCreateCommandEncoder(dev.device.get(), nullptr);
  WGPUCommandBuffer cmd = p.CommandEncoderFinish(enc, nullptr);
  Serial s = reg.submit(cmd);
  p.CommandBufferRelease(cmd);
  p.CommandEncoderRelease(enc);
  return s;
}

// Forces the loss Dawn reports for a dead device, checks the device saw it, and lets the
// registry see it.
inline void force_loss(TestDevice& dev, resources::Registry& reg) {
  dev.procs().DeviceForceLoss(dev.device.get(), WGPUDeviceLostReason_Unknown, gpu::string_view("forced by the test"));
  dev.context->process_events();
  ASSERT_TRUE(dev.lost);
  reg.on_device_lost();
}

// Polls (never waits) until `s` retires; a deadline keeps a hang visible.
inline bool poll_until_retired(resources::Registry& reg, Serial s) {
  testing::poll_until([&] { return reg.clock().is_retired(s); }, [&] { reg.poll(); });
  reg.poll();
  return reg.clock().is_retired(s);
}

inline constexpr const char* kKitWgsl = R"(
@group(0) @binding(0) var<uniform> u : vec4<f32>;
@group(0) @binding(1) var t : texture_2d<f32>;
@group(0) @binding(2) var s : sampler;
@vertex fn vs(@builtin(vertex_index) i : u32) -> @builtin(position) vec4<f32> {
  return vec4<f32>(f32(i), 0.0, 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4<f32> {
  return u + textureSample(t, s, vec2<f32>(0.5, 0.5));
}
@compute @workgroup_size(1) fn cs() {}
)";

// A uniform buffer, a float 2D texture and a filtering sampler, seen by the fragment stage.
inline std::vector<WGPUBindGroupLayoutEntry> kit_layout_entries() {
  const resources::LayoutEntry entries[] = {
      {.binding = 0, .visibility = WGPUShaderStage_Fragment, .type = resources::BufferLayout{}},
      {.binding = 1, .visibility = WGPUShaderStage_Fragment, .type = resources::TextureLayout{}},
      {.binding = 2, .visibility = WGPUShaderStage_Fragment, .type = resources::SamplerLayout{}},
  };
  return pipelines::translate_layout_entries(entries);
}

// One object of every kind, made through create_*.
struct Kit {
  BufferHandle buffer;
  TextureHandle texture;
  TextureViewHandle view;
  SamplerHandle sampler;
  ShaderModuleHandle module;
  BindGroupLayoutHandle bind_group_layout;
  PipelineLayoutHandle pipeline_layout;
  BindGroupHandle bind_group;
  RenderPipelineHandle render_pipeline;
  ComputePipelineHandle compute_pipeline;
  QuerySetHandle query_set;
  RenderBundleHandle render_bundle;
};

inline Kit make_kit(resources::Registry& reg) {
  Kit kit;
  auto take = [](auto result) {
    EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message);
    using H = std::decay_t<decltype(result.value())>;
    return result.ok() ? result.value() : H{};
  };
  kit.buffer = take(reg.create_buffer({16, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, false, "kit uniforms"}));
  resources::TextureDescription td;
  td.size = {4, 4, 1};
  td.usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst;
  td.label = "kit texture";
  kit.texture = take(reg.create_texture(td));
  kit.view = take(reg.create_texture_view(kit.texture, {.label = "kit view"}));
  kit.sampler = take(reg.create_sampler({.mag_filter = WGPUFilterMode_Linear,
                                         .min_filter = WGPUFilterMode_Linear,
                                         .label = "kit sampler"}));
  kit.module = take(reg.create_shader_module(kKitWgsl, "kit module"));
  auto entries = kit_layout_entries();
  kit.bind_group_layout = take(reg.create_bind_group_layout(entries, "kit layout"));
  BindGroupLayoutHandle layouts[] = {kit.bind_group_layout};
  kit.pipeline_layout = take(reg.create_pipeline_layout(layouts, "kit pipeline layout"));
  kit.bind_group = take(reg.create_bind_group({kit.bind_group_layout,
                                               {{0, resources::BufferBinding{kit.buffer}},
                                                {1, kit.view},
                                                {2, kit.sampler}},
                                               "kit bind group"}));
  resources::RenderPipelineDescription rp;
  rp.label = "kit render pipeline";
  rp.layout = kit.pipeline_layout;
  rp.vertex = {kit.module, "vs", {}};
  rp.fragment = resources::ShaderStage{kit.module, "fs", {}};
  rp.targets = {resources::ColorTarget{}};
  kit.render_pipeline = take(reg.create_render_pipeline(rp));
  kit.compute_pipeline = take(reg.create_compute_pipeline({"kit compute pipeline", {}, {kit.module, "cs", {}}}));
  kit.query_set = take(reg.create_query_set({WGPUQueryType_Occlusion, 4, "kit queries"}));
  resources::RenderBundleDescription bundle;
  bundle.label = "kit render bundle";
  bundle.color_formats = {WGPUTextureFormat_RGBA8Unorm};
  bundle.record = [pipeline = kit.render_pipeline, group = kit.bind_group](resources::RenderBundleRecording& r) -> Result<void> {
    auto p = r.resolve(pipeline);
    auto g = r.resolve(group);
    if (!p || !g) return (!p ? p.error() : g.error());
    r.procs().RenderBundleEncoderSetPipeline(r.encoder(), *p);
    r.procs().RenderBundleEncoderSetBindGroup(r.encoder(), 0, *g, 0, nullptr);
    r.procs().RenderBundleEncoderDraw(r.encoder(), 3, 1, 0, 0);
    return {};
  };
  kit.render_bundle = take(reg.create_render_bundle(bundle));
  return kit;
}

}  // namespace warden::testing
