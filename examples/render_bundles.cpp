// Draws a 4x4 grid of coloured quads through the warden Engine from a render bundle: one
// pipeline, one instance buffer (each quad's corner and colour), sixteen draws, each from its own
// range of the buffer, recorded once by a callback and replayed every frame with
// RenderPassEncoderExecuteBundles. It loses the device on purpose, keeps drawing, and writes the
// frame before and after the loss:
//   render_bundles before.png after.png
// The bundle is a device object: after the loss warden records it again on the new device by
// calling the same callback, under the same handle. The program checks each quad's colour and
// the gaps between them in both frames, and that the callback ran exactly twice (at create, and
// once by the rebuild); anything else ends it with the reason, exit status 1.
#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include "example_support.h"
#include "warden/gpu/objects.h"

using namespace warden;
using example::must;

constexpr const char* kShader = R"(
struct Out { @builtin(position) position : vec4<f32>, @location(0) color : vec4<f32> };
@vertex fn vs(@builtin(vertex_index) v : u32, @location(0) corner : vec2<f32>, @location(1) color : vec4<f32>) -> Out {
  var square = array<vec2<f32>, 6>(vec2<f32>(0.0, 0.0), vec2<f32>(1.0, 0.0), vec2<f32>(0.0, 1.0),
                                   vec2<f32>(0.0, 1.0), vec2<f32>(1.0, 0.0), vec2<f32>(1.0, 1.0));
  return Out(vec4<f32>(corner + square[v] * 0.375, 0.0, 1.0), color);
}
@fragment fn fs(v : Out) -> @location(0) vec4<f32> { return v.color; }
)";

constexpr uint32_t kSize = 64;
constexpr uint32_t kGrid = 4;  // quads across and down
constexpr uint32_t kQuads = kGrid * kGrid;

// Quad (column, row)'s colour, row 0 at the top: every quad differs from its neighbours.
std::array<uint8_t, 3> quad_color(uint32_t column, uint32_t row) {
  return {static_cast<uint8_t>(60 * column + 40), static_cast<uint8_t>(60 * row + 40),
          static_cast<uint8_t>((column + row) % 2 == 0 ? 255 : 0)};
}

// Each quad's colour at its centre, and the clear colour (black) in the gaps between quads.
void check_grid(const present::Image& image, const char* when) {
  auto at = [&](uint32_t x, uint32_t y) { return &image.rgba[(size_t{y} * image.width + x) * 4]; };
  const uint32_t cell = kSize / kGrid;  // a quad covers 3/4 of its cell from the cell's left and bottom
  for (uint32_t row = 0; row < kGrid; ++row) {
    for (uint32_t column = 0; column < kGrid; ++column) {
      const uint8_t* centre = at(column * cell + cell * 3 / 8, row * cell + cell * 5 / 8);
      const auto want = quad_color(column, row);
      if (centre[0] != want[0] || centre[1] != want[1] || centre[2] != want[2] || centre[3] != 255) {
        example::fail(make_error(ErrorKind::Internal,
                                 std::string(when) + ": quad (" + std::to_string(column) + ", " +
                                     std::to_string(row) + ") is not its colour: the bundle did not draw it"));
      }
      const uint8_t* gap = at(column * cell + cell - 1, row * cell);
      if (gap[0] != 0 || gap[1] != 0 || gap[2] != 0) {
        example::fail(make_error(ErrorKind::Internal, std::string(when) + ": the gap right of quad (" +
                                                          std::to_string(column) + ", " + std::to_string(row) +
                                                          ") is not the clear colour"));
      }
    }
  }
}

int main(int argc, char** argv) {
  example::start("render_bundles", argc);
  auto engine = must(engine::Engine::create());  // Vulkan on a GPU, else OpenGL
  resources::Registry& reg = engine->registry();

  // Each quad: its bottom-left corner in clip space, then its colour. Row 0 is the top row.
  std::vector<float> instances;
  for (uint32_t row = 0; row < kGrid; ++row) {
    for (uint32_t column = 0; column < kGrid; ++column) {
      const auto color = quad_color(column, row);
      const float x = -1.0f + 0.5f * static_cast<float>(column);
      const float y = 1.0f - 0.5f * static_cast<float>(row + 1);
      instances.insert(instances.end(), {x, y, color[0] / 255.0f, color[1] / 255.0f, color[2] / 255.0f, 1.0f});
    }
  }
  const uint64_t instance_bytes = instances.size() * sizeof(float);
  auto instance_buffer = must(reg.create_buffer({.size = instance_bytes,
                                                 .usage = WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst,
                                                 .label = "quad instances"}));
  must(reg.write_buffer(instance_buffer, 0, instances.data(), instance_bytes));
  auto target = must(reg.create_texture({.size = {kSize, kSize, 1},
                                         .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc,
                                         .label = "frame"}));
  auto target_view = must(reg.create_texture_view(target));
  auto module = must(reg.create_shader_module(kShader, "quads"));
  resources::RenderPipelineDescription draw{.label = "quads", .vertex = {module, "vs", {}}};
  draw.vertex_buffers = {{24, WGPUVertexStepMode_Instance,
                          {{WGPUVertexFormat_Float32x2, 0, 0}, {WGPUVertexFormat_Float32x4, 8, 1}}}};
  draw.fragment = resources::ShaderStage{module, "fs", {}};
  draw.targets = {resources::ColorTarget{}};
  auto pipeline = must(reg.create_render_pipeline(draw));

  // The bundle's commands, recorded on whichever device the registry is on when warden calls.
  int recorded = 0;
  resources::RenderBundleDescription grid{.label = "quad grid", .color_formats = {WGPUTextureFormat_RGBA8Unorm}};
  grid.record = [&](resources::RenderBundleRecording& r) -> Result<void> {
    ++recorded;
    auto quads = r.resolve(pipeline);
    if (!quads) return quads.error();
    auto corners = r.resolve(instance_buffer);
    if (!corners) return corners.error();
    const gpu::Procs& p = r.procs();
    p.RenderBundleEncoderSetPipeline(r.encoder(), *quads);
    for (uint32_t quad = 0; quad < kQuads; ++quad) {
      p.RenderBundleEncoderSetVertexBuffer(r.encoder(), 0, *corners, quad * 24, 24);
      p.RenderBundleEncoderDraw(r.encoder(), 6, 1, 0, 0);
    }
    return {};
  };
  auto bundle = must(reg.create_render_bundle(grid));

  // One frame: the pass replays the bundle. Its submission, or why there was none.
  auto render = [&]() -> Result<Serial> {
    auto frame = engine->begin_frame();
    if (!frame) return frame.error();
    if (auto objects = frame->use(target_view, bundle)) {
      auto [view, quads] = *objects;
      const gpu::Procs& p = engine->procs();
      WGPURenderPassEncoder pass = gpu::begin_clear_pass(p, frame->encoder(), view);
      p.RenderPassEncoderExecuteBundles(pass, 1, &quads);
      p.RenderPassEncoderEnd(pass);
      p.RenderPassEncoderRelease(pass);
    }
    return engine->submit(std::move(*frame));  // dropped, with the reason, when use() failed
  };
  must(render());
  check_grid(must(present::read_image(engine->context(), reg, target)), "before the loss");
  example::draw_across_a_loss(*engine, render, target, argv[1], argv[2]);
  check_grid(must(present::read_image(engine->context(), reg, target)), "after the loss");
  if (recorded != 2) {
    example::fail(make_error(ErrorKind::Internal, "the bundle was recorded " + std::to_string(recorded) +
                                                      " time(s); once at create and once after the loss expected"));
  }
  std::printf("render_bundles: %u quads from one bundle, recorded %d times\n", kQuads, recorded);
  return 0;
}
