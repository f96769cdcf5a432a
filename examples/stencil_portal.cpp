// Draws a checkerboard seen only through a diamond-shaped "portal" cut out of the stencil buffer,
// through the warden Engine; loses the device on purpose, keeps drawing, and writes the frame
// before and after the loss:
//   stencil_portal before.png after.png
// One render pass with a Depth24PlusStencil8 attachment, its stencil cleared to 0. The first draw
// is the portal: its stencil state replaces the stored value with the pass's reference
// (RenderPassEncoderSetStencilReference, 1) and its colour target writes nothing. The second draw
// covers the whole target with the checkerboard, but its stencil test (Equal to the reference)
// lets only the portal's pixels through. The program checks both frames pixel by pixel: inside
// the diamond the checkerboard exactly, outside it the clear colour; anything else is exit
// status 1 with the reason. The two files are identical (stencil_portal_frames_identical).
#include <cstdio>
#include <cstdint>

#include "example_support.h"
#include "warden/gpu/objects.h"

using namespace warden;
using example::must;

namespace {

constexpr const char* kShader = R"(
// The portal: a diamond, |x| + |y| < 0.6 in clip space, as two triangles.
const kPortal = array<vec2<f32>, 6>(vec2(0.0, 0.6), vec2(-0.6, 0.0), vec2(0.6, 0.0),
                                    vec2(0.0, -0.6), vec2(0.6, 0.0), vec2(-0.6, 0.0));
@vertex fn vs_portal(@builtin(vertex_index) i : u32) -> @builtin(position) vec4<f32> {
  return vec4<f32>(kPortal[i], 0.0, 1.0);
}
@fragment fn fs_portal() -> @location(0) vec4<f32> {
  return vec4<f32>(1.0, 0.0, 1.0, 1.0);  // never seen: the portal's colour writes are off
}

// One triangle that covers the whole target.
@vertex fn vs_full(@builtin(vertex_index) i : u32) -> @builtin(position) vec4<f32> {
  let corner = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4<f32>(corner * 2.0 - 1.0, 0.0, 1.0);
}
// 8x8-pixel squares of two colours, by framebuffer position (top left is 0, 0).
@fragment fn fs_checker(@builtin(position) position : vec4<f32>) -> @location(0) vec4<f32> {
  let cell = (u32(position.x) / 8u + u32(position.y) / 8u) % 2u;
  return select(vec4<f32>(240.0, 200.0, 40.0, 255.0), vec4<f32>(40.0, 90.0, 220.0, 255.0), cell == 1u) / 255.0;
}
)";

constexpr uint32_t kSize = 128;
constexpr present::Rgba kClear{20, 20, 30, 255};
constexpr present::Rgba kCheckerEven{240, 200, 40, 255};
constexpr present::Rgba kCheckerOdd{40, 90, 220, 255};

// How far pixel (x, y)'s centre lies inside the portal's edge, in clip-space units (negative:
// outside).
float inside_portal(uint32_t x, uint32_t y) {
  const float clip_x = (static_cast<float>(x) + 0.5f) * 2.0f / kSize - 1.0f;
  const float clip_y = 1.0f - (static_cast<float>(y) + 0.5f) * 2.0f / kSize;
  return 0.6f - (clip_x < 0 ? -clip_x : clip_x) - (clip_y < 0 ? -clip_y : clip_y);
}

// Pixel by pixel, what the frame must show; false, with the first wrong pixel named, if it does
// not. Pixels within two pixels of the portal's edge may be either (rasterization rules).
bool frame_is_right(const present::Image& frame, const char* path) {
  constexpr float kEdge = 2.0f * 2.0f / kSize;
  uint32_t inside = 0, outside = 0;
  for (uint32_t y = 0; y < frame.height; ++y) {
    for (uint32_t x = 0; x < frame.width; ++x) {
      const float depth = inside_portal(x, y);
      if (depth > -kEdge && depth < kEdge) continue;
      const present::Rgba expected = depth > 0 ? ((x / 8 + y / 8) % 2 == 0 ? kCheckerEven : kCheckerOdd) : kClear;
      const present::Rgba seen = frame.at(x, y);
      if (seen != expected) {
        std::fprintf(stderr, "stencil_portal: %s: pixel %u,%u (%s the portal) is %u %u %u %u, not %u %u %u %u\n", path, x,
                     y, depth > 0 ? "inside" : "outside", seen.r, seen.g, seen.b, seen.a, expected.r, expected.g,
                     expected.b, expected.a);
        return false;
      }
      ++(depth > 0 ? inside : outside);
    }
  }
  if (inside == 0 || outside == 0) {
    std::fprintf(stderr, "stencil_portal: %s: %u pixels checked inside the portal and %u outside; the frame is not %u x %u\n",
                 path, inside, outside, kSize, kSize);
    return false;
  }
  std::printf("stencil_portal: %s: %u pixels inside the portal show the checkerboard, %u outside the clear colour\n",
              path, inside, outside);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  example::start("stencil_portal", argc);
  auto engine = must(engine::Engine::create());  // Vulkan on a GPU, else OpenGL
  resources::Registry& reg = engine->registry();

  auto target = must(reg.create_texture({.size = {kSize, kSize, 1},
                                         .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc,
                                         .label = "frame"}));
  auto target_view = must(reg.create_texture_view(target));
  auto stencil = must(reg.create_texture({.size = {kSize, kSize, 1},
                                          .format = WGPUTextureFormat_Depth24PlusStencil8,
                                          .usage = WGPUTextureUsage_RenderAttachment,
                                          .label = "depth and stencil"}));
  auto stencil_view = must(reg.create_texture_view(stencil));
  auto module = must(reg.create_shader_module(kShader, "stencil portal"));

  // Both draws leave depth alone; only their stencil states differ. With culling off, back faces
  // follow the same state as front faces.
  constexpr WGPUStencilFaceState kMarkPortal{.compare = WGPUCompareFunction_Always,
                                             .failOp = WGPUStencilOperation_Keep,
                                             .depthFailOp = WGPUStencilOperation_Keep,
                                             .passOp = WGPUStencilOperation_Replace};
  constexpr WGPUStencilFaceState kOnlyInPortal{.compare = WGPUCompareFunction_Equal,
                                               .failOp = WGPUStencilOperation_Keep,
                                               .depthFailOp = WGPUStencilOperation_Keep,
                                               .passOp = WGPUStencilOperation_Keep};
  const resources::DepthState mark{.format = WGPUTextureFormat_Depth24PlusStencil8,
                                   .write = false,
                                   .compare = WGPUCompareFunction_Always,
                                   .stencil_front = kMarkPortal,
                                   .stencil_back = kMarkPortal};
  const resources::DepthState test{.format = WGPUTextureFormat_Depth24PlusStencil8,
                                   .write = false,
                                   .compare = WGPUCompareFunction_Always,
                                   .stencil_front = kOnlyInPortal,
                                   .stencil_back = kOnlyInPortal};
  auto portal = must(reg.create_render_pipeline(
      {.label = "portal",
       .vertex = {module, "vs_portal", {}},
       .depth = mark,
       .fragment = resources::ShaderStage{module, "fs_portal", {}},
       .targets = {resources::ColorTarget{.write_mask = WGPUColorWriteMask_None}}}));
  auto through_portal = must(reg.create_render_pipeline({.label = "through the portal",
                                                         .vertex = {module, "vs_full", {}},
                                                         .depth = test,
                                                         .fragment = resources::ShaderStage{module, "fs_checker", {}},
                                                         .targets = {resources::ColorTarget{}}}));

  auto render = [&]() -> Result<Serial> {
    auto frame = engine->begin_frame();
    if (!frame) return frame.error();
    if (auto objects = frame->use(target_view, stencil_view, portal, through_portal)) {
      auto [view, depth_stencil, mark_portal, checker] = *objects;
      const gpu::Procs& p = engine->procs();
      WGPURenderPassColorAttachment color{};
      color.view = view;
      color.depthSlice = WGPU_DEPTH_SLICE_UNDEFINED;
      color.loadOp = WGPULoadOp_Clear;
      color.storeOp = WGPUStoreOp_Store;
      color.clearValue = {kClear.r / 255.0, kClear.g / 255.0, kClear.b / 255.0, 1.0};
      WGPURenderPassDepthStencilAttachment depth{};
      depth.view = depth_stencil;
      depth.depthLoadOp = WGPULoadOp_Clear;
      depth.depthStoreOp = WGPUStoreOp_Discard;
      depth.depthClearValue = 1.0f;
      depth.stencilLoadOp = WGPULoadOp_Clear;
      depth.stencilStoreOp = WGPUStoreOp_Discard;  // only this pass reads it
      depth.stencilClearValue = 0;
      WGPURenderPassDescriptor desc{};
      desc.label = gpu::string_view("stencil portal");
      desc.colorAttachmentCount = 1;
      desc.colorAttachments = &color;
      desc.depthStencilAttachment = &depth;
      WGPURenderPassEncoder pass = p.CommandEncoderBeginRenderPass(frame->encoder(), &desc);
      p.RenderPassEncoderSetStencilReference(pass, 1);
      p.RenderPassEncoderSetPipeline(pass, mark_portal);
      p.RenderPassEncoderDraw(pass, 6, 1, 0, 0);
      p.RenderPassEncoderSetPipeline(pass, checker);
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
