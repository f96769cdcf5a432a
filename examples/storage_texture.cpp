// Computes a picture into a texture on the GPU and draws it, magnified, through the warden
// Engine; loses the device on purpose, keeps drawing, and writes the frame before and after the
// loss:
//   storage_texture before.png after.png
// Each frame, a compute pass writes every texel of a 64x64 rgba8unorm texture through a
// write-only storage texture binding (textureStore; StorageTextureLayout, the texture made with
// StorageBinding) from a formula of its coordinates; a render pass then samples that texture
// (TextureBinding, a nearest sampler) over a 128x128 target, each texel covering 2x2 pixels. The
// program checks every pixel of both frames against the formula; a wrong pixel is exit status 1
// with the reason. The two files are identical (storage_texture_frames_identical).
#include <cstdio>
#include <cstdint>

#include "example_support.h"
#include "warden/gpu/objects.h"
#include "warden/pipelines/build.h"

using namespace warden;
using example::must;

namespace {

constexpr uint32_t kTexels = 64;     // the computed texture's side
constexpr uint32_t kWorkgroup = 8;   // its workgroups' side, as the shader declares it
constexpr uint32_t kSize = 128;      // the frame's side: each texel covers 2x2 pixels

constexpr const char* kShader = R"(
@group(0) @binding(0) var picture : texture_storage_2d<rgba8unorm, write>;

// The formula: red and green ramp along x and y, blue is an 8x8-texel checkerboard. Every value
// is a whole number of 255ths, so the unorm texel holds it exactly.
@compute @workgroup_size(8, 8)
fn compute(@builtin(global_invocation_id) id : vec3<u32>) {
  let texel = vec4<u32>(id.x * 4u, id.y * 4u, ((id.x / 8u + id.y / 8u) % 2u) * 255u, 255u);
  textureStore(picture, id.xy, vec4<f32>(texel) / 255.0);
}

@group(0) @binding(0) var computed : texture_2d<f32>;
@group(0) @binding(1) var nearest : sampler;

// One triangle that covers the whole target.
@vertex fn vs_full(@builtin(vertex_index) i : u32) -> @builtin(position) vec4<f32> {
  let corner = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4<f32>(corner * 2.0 - 1.0, 0.0, 1.0);
}
@fragment fn fs_show(@builtin(position) position : vec4<f32>) -> @location(0) vec4<f32> {
  return textureSample(computed, nearest, position.xy / 128.0);
}
)";

// The formula, on the CPU: texel (x, y) of the computed texture.
present::Rgba expected_texel(uint32_t x, uint32_t y) {
  return {static_cast<uint8_t>(x * 4), static_cast<uint8_t>(y * 4),
          static_cast<uint8_t>((x / 8 + y / 8) % 2 == 0 ? 0 : 255), 255};
}

// Every pixel of the frame against the formula; false, with the first wrong pixel named, if one
// is wrong.
bool frame_is_right(const present::Image& frame, const char* path) {
  if (frame.width != kSize || frame.height != kSize) {
    std::fprintf(stderr, "storage_texture: %s is %u x %u, not %u x %u\n", path, frame.width, frame.height, kSize, kSize);
    return false;
  }
  for (uint32_t y = 0; y < kSize; ++y) {
    for (uint32_t x = 0; x < kSize; ++x) {
      const present::Rgba expected = expected_texel(x * kTexels / kSize, y * kTexels / kSize);
      const present::Rgba seen = frame.at(x, y);
      if (seen != expected) {
        std::fprintf(stderr, "storage_texture: %s: pixel %u,%u is %u %u %u %u, not the formula's %u %u %u %u\n", path, x,
                     y, seen.r, seen.g, seen.b, seen.a, expected.r, expected.g, expected.b, expected.a);
        return false;
      }
    }
  }
  std::printf("storage_texture: %s: all %u pixels match the formula\n", path, kSize * kSize);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  example::start("storage_texture", argc);
  auto engine = must(engine::Engine::create());  // Vulkan on a GPU, else OpenGL
  resources::Registry& reg = engine->registry();

  // Written by the compute pass, read by the render pass: both usages. Every frame computes it
  // afresh, so on a new device it may come back zeroed (None): nothing to keep or refill.
  auto picture = must(reg.create_texture({.size = {kTexels, kTexels, 1},
                                          .usage = WGPUTextureUsage_StorageBinding | WGPUTextureUsage_TextureBinding,
                                          .label = "computed picture",
                                          .contents = resources::ContentsSource::None}));
  auto picture_view = must(reg.create_texture_view(picture, {.label = "computed picture view"}));
  auto target = must(reg.create_texture({.size = {kSize, kSize, 1},
                                         .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc,
                                         .label = "frame"}));
  auto target_view = must(reg.create_texture_view(target));
  auto module = must(reg.create_shader_module(kShader, "storage texture"));

  const resources::LayoutEntry write_entries[] = {
      {.binding = 0,
       .visibility = WGPUShaderStage_Compute,
       .type = resources::StorageTextureLayout{.access = WGPUStorageTextureAccess_WriteOnly,
                                               .format = WGPUTextureFormat_RGBA8Unorm}},
  };
  auto write_layout = must(reg.create_bind_group_layout(pipelines::translate_layout_entries(write_entries), "write layout"));
  const BindGroupLayoutHandle write_layouts[] = {write_layout};
  auto write_group = must(reg.create_bind_group({write_layout, {{0, picture_view}}, "write group"}));
  auto compute_pipeline =
      must(reg.create_compute_pipeline({.label = "compute the picture",
                                        .layout = must(reg.create_pipeline_layout(write_layouts, "compute pipeline layout")),
                                        .compute = {module, "compute", {}}}));

  const resources::LayoutEntry show_entries[] = {
      {.binding = 0, .visibility = WGPUShaderStage_Fragment, .type = resources::TextureLayout{}},
      {.binding = 1, .visibility = WGPUShaderStage_Fragment, .type = resources::SamplerLayout{}},
  };
  auto show_layout = must(reg.create_bind_group_layout(pipelines::translate_layout_entries(show_entries), "show layout"));
  const BindGroupLayoutHandle show_layouts[] = {show_layout};
  auto show_group = must(reg.create_bind_group(
      {show_layout, {{0, picture_view}, {1, must(reg.create_sampler({.label = "nearest"}))}}, "show group"}));
  auto show_pipeline =
      must(reg.create_render_pipeline({.label = "show the picture",
                                       .layout = must(reg.create_pipeline_layout(show_layouts, "show pipeline layout")),
                                       .vertex = {module, "vs_full", {}},
                                       .fragment = resources::ShaderStage{module, "fs_show", {}},
                                       .targets = {resources::ColorTarget{}}}));

  auto render = [&]() -> Result<Serial> {
    auto frame = engine->begin_frame();
    if (!frame) return frame.error();
    if (auto objects = frame->use(compute_pipeline, write_group, target_view, show_pipeline, show_group)) {
      auto [computing, writing, view, showing, reading] = *objects;
      const gpu::Procs& p = engine->procs();
      WGPUComputePassEncoder compute = p.CommandEncoderBeginComputePass(frame->encoder(), nullptr);
      p.ComputePassEncoderSetPipeline(compute, computing);
      p.ComputePassEncoderSetBindGroup(compute, 0, writing, 0, nullptr);
      p.ComputePassEncoderDispatchWorkgroups(compute, kTexels / kWorkgroup, kTexels / kWorkgroup, 1);
      p.ComputePassEncoderEnd(compute);
      p.ComputePassEncoderRelease(compute);

      WGPURenderPassEncoder pass = gpu::begin_clear_pass(p, frame->encoder(), view);
      p.RenderPassEncoderSetPipeline(pass, showing);
      p.RenderPassEncoderSetBindGroup(pass, 0, reading, 0, nullptr);
      p.RenderPassEncoderDraw(pass, 3, 1, 0, 0);
      p.RenderPassEncoderEnd(pass);
      p.RenderPassEncoderRelease(pass);
    }
    return engine->submit(std::move(*frame));
  };
  example::draw_across_a_loss(*engine, render, target, argv[1], argv[2]);

  for (const char* path : {argv[1], argv[2]}) {
    if (!frame_is_right(must(present::read_png(path)), path)) return 1;
  }
  return 0;
}
