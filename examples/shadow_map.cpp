// Draws a floor and a small square hovering above it, seen from straight above, with the square's
// shadow cast by a slanted light, through the warden Engine; loses the device on purpose, keeps
// drawing, and writes the frame before and after the loss:
//   shadow_map before.png after.png
// A first pass renders the scene from the light into a Depth32Float texture (a depth-only
// pipeline: no fragment stage). The main pass binds that texture as texture_depth_2d with a
// comparison sampler (SamplerDescription::compare = LessEqual) and asks textureSampleCompare
// whether each floor point is the nearest thing the light sees. The program checks both frames:
// a floor pixel in the shadow must be darker than lit floor pixels next to it, and the square
// itself lit; anything else is exit status 1 with the reason. The two files are identical (the
// test shadow_map_frames_identical compares them).
#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "example_support.h"
#include "warden/gpu/objects.h"
#include "warden/pipelines/build.h"

using namespace warden;
using example::must;

namespace {

// The world: the floor is y = 0, x and z in [-1, 1]; the square hovers at y = 0.5. The light
// shines down and towards -x at 45 degrees, so a point's shadow falls y to the left of it: the
// light's view shears x by -y and keeps z. Light depth grows away from the light (0.5 - y / 2).
// The camera looks straight down: screen x is world x, screen up is world z.
constexpr const char* kShader = R"(
@group(0) @binding(0) var shadow_map : texture_depth_2d;
@group(0) @binding(1) var shadow_sampler : sampler_comparison;

fn light_clip(world : vec3<f32>) -> vec4<f32> {
  return vec4<f32>(world.x - world.y, world.z, 0.5 - 0.5 * world.y, 1.0);
}

@vertex fn vs_light(@location(0) world : vec3<f32>) -> @builtin(position) vec4<f32> {
  return light_clip(world);
}

struct Out {
  @builtin(position) position : vec4<f32>,
  @location(0) world : vec3<f32>,
  @location(1) albedo : vec3<f32>,
};
@vertex fn vs_main(@location(0) world : vec3<f32>, @location(1) albedo : vec3<f32>) -> Out {
  return Out(vec4<f32>(world.x, world.z, 0.5, 1.0), world, albedo);
}

const kBias = 0.01;  // keeps a surface from shadowing itself where the map's depth rounds up
@fragment fn fs_main(v : Out) -> @location(0) vec4<f32> {
  let light = light_clip(v.world);
  let uv = vec2<f32>(0.5 + 0.5 * light.x, 0.5 - 0.5 * light.y);  // texture rows run down
  let lit = textureSampleCompare(shadow_map, shadow_sampler, uv, light.z - kBias);
  return vec4<f32>(v.albedo * (0.3 + 0.7 * lit), 1.0);
}
)";

constexpr uint32_t kSize = 128;
constexpr uint32_t kShadowSize = 128;

// Two quads, floor first so the square is drawn over it: x y z, r g b per vertex.
constexpr float kFloor[3] = {0.85f, 0.8f, 0.65f};
constexpr float kSquare[3] = {0.85f, 0.25f, 0.2f};
struct Quad {
  float x0, x1, y, z0, z1;
  const float* albedo;
};
constexpr Quad kQuads[] = {{-1.0f, 1.0f, 0.0f, -1.0f, 1.0f, kFloor},     // the floor
                           {-0.2f, 0.2f, 0.5f, 0.1f, 0.5f, kSquare}};    // above it, off centre in z
constexpr uint32_t kVertexCount = 12;

// The pixel showing world point (x, z) on the floor.
constexpr uint32_t pixel_x(float x) { return static_cast<uint32_t>((x + 1.0f) * 0.5f * kSize); }
constexpr uint32_t pixel_y(float z) { return static_cast<uint32_t>((1.0f - z) * 0.5f * kSize); }

int brightness(const present::Rgba& c) { return c.r + c.g + c.b; }

// What the frame must show; the reason it does not, or null.
const char* wrong_in(const present::Image& frame) {
  // The square's shadow lies 0.5 to its left: x in [-0.7, -0.3], z in [0.1, 0.5].
  const present::Rgba shadow = frame.at(pixel_x(-0.5f), pixel_y(0.3f));
  const present::Rgba mirrored_z = frame.at(pixel_x(-0.5f), pixel_y(-0.3f));  // lit; shadow if v were flipped
  const present::Rgba mirrored_x = frame.at(pixel_x(0.5f), pixel_y(0.3f));    // lit; shadow if the light came from -x
  const present::Rgba square = frame.at(pixel_x(0.0f), pixel_y(0.3f));
  if (brightness(mirrored_z) != brightness(mirrored_x)) return "the lit floor is not evenly lit";
  if (brightness(shadow) * 2 > brightness(mirrored_z)) return "the floor in the square's shadow is not darker than the lit floor";
  if (brightness(mirrored_z) < 3 * 255 / 2) return "the lit floor is dark";
  if (square.r < 200 || square.g > 80) return "the square is not drawn lit";
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  example::start("shadow_map", argc);
  auto engine = must(engine::Engine::create());  // Vulkan on a GPU, else OpenGL
  resources::Registry& reg = engine->registry();

  float vertices[kVertexCount * 6];
  float* v = vertices;
  for (const Quad& q : kQuads) {
    const float corners[6][2] = {{q.x0, q.z0}, {q.x1, q.z0}, {q.x1, q.z1}, {q.x0, q.z0}, {q.x1, q.z1}, {q.x0, q.z1}};
    for (const auto& corner : corners) {
      const float vertex[6] = {corner[0], q.y, corner[1], q.albedo[0], q.albedo[1], q.albedo[2]};
      v = std::copy(vertex, vertex + 6, v);
    }
  }
  auto vertex_buffer = must(reg.create_buffer(
      {.size = sizeof vertices, .usage = WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, .label = "floor and square"}));
  must(reg.write_buffer(vertex_buffer, 0, vertices, sizeof vertices));

  // The light's depth: written as an attachment in the first pass, read as a texture in the
  // second. Every frame renders it afresh, so on a new device it may come back empty (None).
  auto shadow_map = must(reg.create_texture({.size = {kShadowSize, kShadowSize, 1},
                                             .format = WGPUTextureFormat_Depth32Float,
                                             .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_TextureBinding,
                                             .label = "shadow map",
                                             .contents = resources::ContentsSource::None}));
  auto shadow_view = must(reg.create_texture_view(shadow_map, {.label = "shadow map view"}));
  // Linear filters make the comparison a 2x2 percentage-closer filter: soft shadow edges.
  auto shadow_sampler = must(reg.create_sampler({.mag_filter = WGPUFilterMode_Linear,
                                                 .min_filter = WGPUFilterMode_Linear,
                                                 .compare = WGPUCompareFunction_LessEqual,
                                                 .label = "shadow sampler"}));
  auto target = must(reg.create_texture({.size = {kSize, kSize, 1},
                                         .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc,
                                         .label = "frame"}));
  auto target_view = must(reg.create_texture_view(target));
  auto module = must(reg.create_shader_module(kShader, "shadow map"));

  const resources::LayoutEntry shadow_entries[] = {
      {.binding = 0,
       .visibility = WGPUShaderStage_Fragment,
       .type = resources::TextureLayout{.sample_type = WGPUTextureSampleType_Depth}},
      {.binding = 1,
       .visibility = WGPUShaderStage_Fragment,
       .type = resources::SamplerLayout{.type = WGPUSamplerBindingType_Comparison}},
  };
  auto layout = must(reg.create_bind_group_layout(pipelines::translate_layout_entries(shadow_entries), "shadow layout"));
  BindGroupLayoutHandle layouts[] = {layout};
  auto pipeline_layout = must(reg.create_pipeline_layout(layouts, "shaded pipeline layout"));
  auto group = must(reg.create_bind_group({layout, {{0, shadow_view}, {1, shadow_sampler}}, "shadow group"}));

  const resources::VertexLayout vertex_layout{
      24, WGPUVertexStepMode_Vertex, {{WGPUVertexFormat_Float32x3, 0, 0}, {WGPUVertexFormat_Float32x3, 12, 1}}};
  // Depth only: no fragment stage and no colour target; the nearest surface's depth stays.
  auto depth_pipeline = must(reg.create_render_pipeline({.label = "light's view",
                                                         .vertex = {module, "vs_light", {}},
                                                         .vertex_buffers = {vertex_layout},
                                                         .depth = resources::DepthState{.format = WGPUTextureFormat_Depth32Float}}));
  auto shaded_pipeline = must(reg.create_render_pipeline({.label = "shaded",
                                                          .layout = pipeline_layout,
                                                          .vertex = {module, "vs_main", {}},
                                                          .vertex_buffers = {vertex_layout},
                                                          .fragment = resources::ShaderStage{module, "fs_main", {}},
                                                          .targets = {resources::ColorTarget{}}}));

  auto render = [&]() -> Result<Serial> {
    auto frame = engine->begin_frame();
    if (!frame) return frame.error();
    if (auto objects = frame->use(shadow_view, depth_pipeline, target_view, shaded_pipeline, group, vertex_buffer)) {
      auto [depth_view, light_view, view, shaded, bindings, quads] = *objects;
      const gpu::Procs& p = engine->procs();

      WGPURenderPassDepthStencilAttachment depth{};
      depth.view = depth_view;
      depth.depthLoadOp = WGPULoadOp_Clear;
      depth.depthStoreOp = WGPUStoreOp_Store;
      depth.depthClearValue = 1.0f;
      WGPURenderPassDescriptor light_pass{};
      light_pass.label = gpu::string_view("light's view");
      light_pass.depthStencilAttachment = &depth;
      WGPURenderPassEncoder pass = p.CommandEncoderBeginRenderPass(frame->encoder(), &light_pass);
      p.RenderPassEncoderSetPipeline(pass, light_view);
      p.RenderPassEncoderSetVertexBuffer(pass, 0, quads, 0, WGPU_WHOLE_SIZE);
      p.RenderPassEncoderDraw(pass, kVertexCount, 1, 0, 0);
      p.RenderPassEncoderEnd(pass);
      p.RenderPassEncoderRelease(pass);

      pass = gpu::begin_clear_pass(p, frame->encoder(), view, {0.1, 0.1, 0.15, 1.0});
      p.RenderPassEncoderSetPipeline(pass, shaded);
      p.RenderPassEncoderSetBindGroup(pass, 0, bindings, 0, nullptr);
      p.RenderPassEncoderSetVertexBuffer(pass, 0, quads, 0, WGPU_WHOLE_SIZE);
      p.RenderPassEncoderDraw(pass, kVertexCount, 1, 0, 0);
      p.RenderPassEncoderEnd(pass);
      p.RenderPassEncoderRelease(pass);
    }
    return engine->submit(std::move(*frame));
  };
  example::draw_across_a_loss(*engine, render, target, argv[1], argv[2]);

  for (const char* path : {argv[1], argv[2]}) {
    if (const char* wrong = wrong_in(must(present::read_png(path)))) {
      std::fprintf(stderr, "shadow_map: %s: %s\n", path, wrong);
      return 1;
    }
  }
  return 0;
}
