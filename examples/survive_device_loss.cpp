// Draws a textured, lit triangle through the warden Engine, loses the device on purpose, keeps
// drawing, and writes the frame before and after the loss:
//   survive_device_loss before.png after.png
// The two files are identical: every object came back under the handle the program holds. An
// object that does not come back ends the program with its name and why, exit status 1.
#include <cstdio>
#include <vector>

#include "example_support.h"
#include "warden/gpu/objects.h"
#include "warden/pipelines/build.h"

using namespace warden;
using example::must;

constexpr const char* kShader = R"(
struct Light { direction : vec4<f32> };
@group(0) @binding(0) var<uniform> light : Light;
@group(0) @binding(1) var albedo : texture_2d<f32>;
@group(0) @binding(2) var albedo_sampler : sampler;
struct Out { @builtin(position) position : vec4<f32>, @location(0) uv : vec2<f32>, @location(1) normal : vec3<f32> };
@vertex fn vs(@location(0) position : vec2<f32>, @location(1) uv : vec2<f32>, @location(2) normal : vec3<f32>) -> Out {
  return Out(vec4<f32>(position, 0.0, 1.0), uv, normal);
}
@fragment fn fs(v : Out) -> @location(0) vec4<f32> {
  let lit = max(dot(normalize(v.normal), normalize(light.direction.xyz)), 0.0) * 0.8 + 0.2;
  return vec4<f32>(textureSample(albedo, albedo_sampler, v.uv).rgb * lit, 1.0);
}
)";

constexpr uint32_t kSize = 128;

int main(int argc, char** argv) {
  example::start("survive_device_loss", argc);
  auto engine = must(engine::Engine::create());  // Vulkan on a GPU, else OpenGL
  resources::Registry& reg = engine->registry();

  // Everything below is made once and kept by handle; warden remakes it after a loss.
  const float vertices[] = {-0.8f, -0.8f, 0, 1, 0, 0, 1,   // x y, u v, normal
                            0.8f,  -0.8f, 1, 1, 1, 0, 1,
                            0.0f,  0.8f,  0.5f, 0, -1, 0, 1};
  auto vertex_buffer = must(reg.create_buffer({.size = sizeof vertices,
                                               .usage = WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst,
                                               .label = "triangle"}));
  must(reg.write_buffer(vertex_buffer, 0, vertices, sizeof vertices));
  const float light[] = {0.3f, 0.5f, 1.0f, 0.0f};
  auto light_buffer = must(reg.create_buffer({.size = sizeof light,
                                              .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst,
                                              .label = "light"}));
  must(reg.write_buffer(light_buffer, 0, light, sizeof light));
  std::vector<uint8_t> checker(8 * 8 * 4);
  for (uint32_t i = 0; i < 64; ++i) {
    const bool dark = ((i % 8) / 2 + (i / 8) / 2) % 2 == 0;
    const uint8_t texel[] = {dark ? uint8_t(40) : uint8_t(230), uint8_t(dark ? 90 : 200), 60, 255};
    std::copy(texel, texel + 4, checker.begin() + i * 4);
  }
  auto texture = must(reg.create_texture({.size = {8, 8, 1},
                                          .usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst,
                                          .label = "checker"}));
  must(reg.write_texture(texture, {.size = {8, 8, 1}, .bytes_per_row = 32}, checker.data(), checker.size()));
  auto target = must(reg.create_texture({.size = {kSize, kSize, 1},
                                         .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc,
                                         .label = "frame"}));
  auto target_view = must(reg.create_texture_view(target));
  auto module = must(reg.create_shader_module(kShader, "lit triangle"));
  // warden's layout entries (a uniform buffer, a float 2D texture, a filtering sampler by
  // default) become webgpu.h's with every field the library reads written.
  const resources::LayoutEntry lit[] = {
      {.binding = 0, .visibility = WGPUShaderStage_Fragment, .type = resources::BufferLayout{}},
      {.binding = 1, .visibility = WGPUShaderStage_Fragment, .type = resources::TextureLayout{}},
      {.binding = 2, .visibility = WGPUShaderStage_Fragment, .type = resources::SamplerLayout{}},
  };
  auto layout = must(reg.create_bind_group_layout(pipelines::translate_layout_entries(lit), "lit layout"));
  BindGroupLayoutHandle layouts[] = {layout};
  auto pipeline_layout = must(reg.create_pipeline_layout(layouts, "lit pipeline layout"));
  auto group = must(reg.create_bind_group({layout,
                                           {{0, resources::BufferBinding{light_buffer}},
                                            {1, must(reg.create_texture_view(texture))},
                                            {2, must(reg.create_sampler({.label = "checker sampler"}))}},
                                           "lit group"}));
  resources::RenderPipelineDescription draw{.label = "lit triangle", .layout = pipeline_layout, .vertex = {module, "vs", {}}};
  draw.vertex_buffers = {{28, WGPUVertexStepMode_Vertex,
                          {{WGPUVertexFormat_Float32x2, 0, 0}, {WGPUVertexFormat_Float32x2, 8, 1},
                           {WGPUVertexFormat_Float32x3, 16, 2}}}};
  draw.fragment = resources::ShaderStage{module, "fs", {}};
  draw.targets = {resources::ColorTarget{}};
  auto pipeline = must(reg.create_render_pipeline(draw));

  // One frame: its submission, or why there was none (no device while the engine recovers; an
  // object that could not be used, named with its label and reason).
  auto render = [&]() -> Result<Serial> {
    auto frame = engine->begin_frame();
    if (!frame) return frame.error();
    if (auto objects = frame->use(target_view, pipeline, group, vertex_buffer)) {
      auto [view, lit, bindings, triangle] = *objects;
      const gpu::Procs& p = engine->procs();
      WGPURenderPassEncoder pass = gpu::begin_clear_pass(p, frame->encoder(), view);
      p.RenderPassEncoderSetPipeline(pass, lit);
      p.RenderPassEncoderSetBindGroup(pass, 0, bindings, 0, nullptr);
      p.RenderPassEncoderSetVertexBuffer(pass, 0, triangle, 0, WGPU_WHOLE_SIZE);
      p.RenderPassEncoderDraw(pass, 3, 1, 0, 0);
      p.RenderPassEncoderEnd(pass);
      p.RenderPassEncoderRelease(pass);
    }
    return engine->submit(std::move(*frame));  // dropped, with the reason, when use() failed
  };
  example::draw_across_a_loss(*engine, render, target, argv[1], argv[2]);
  return 0;
}
