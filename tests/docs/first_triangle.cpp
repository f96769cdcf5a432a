// The first program of docs/getting-started.md: draw a triangle into an offscreen target through
// the Engine, read it back and write it to a PNG; then lose the device on purpose and draw again:
// the Engine makes every object again under the same handle, and the picture is the same.
#include <chrono>
#include <cstdio>
#include <thread>

#include "warden/engine/engine.h"
#include "warden/gpu/objects.h"
#include "warden/present/readback.h"
#include "warden/present/render_target.h"

namespace {

constexpr const char* kTriangleWgsl = R"(
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let corners = array(vec2f(0.0, 0.8), vec2f(-0.8, -0.8), vec2f(0.8, -0.8));
  return vec4f(corners[i], 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0, 0.5, 0.0, 1.0); }
)";

int fail(const warden::Error& error) {
  std::fprintf(stderr, "first_triangle: %s\n", error.message.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace warden;
  const char* png_path = argc > 1 ? argv[1] : "triangle.png";

  // 1. The Engine loads the WebGPU library and opens a device: a GPU through Vulkan when there
  //    is one, else OpenGL (Mesa's llvmpipe on a machine without a GPU). Its Registry keeps
  //    every GPU object behind a handle, across devices.
  auto created = engine::Engine::create();
  if (!created) return fail(created.error());
  engine::Engine& engine = **created;
  resources::Registry& reg = engine.registry();

  // 2. The objects, made once and kept by handle.
  auto target = present::RenderTarget::create(reg, {.width = 64, .height = 64});
  if (!target) return fail(target.error());
  auto shader = reg.create_shader_module(kTriangleWgsl, "triangle");
  if (!shader) return fail(shader.error());
  auto pipeline = reg.create_render_pipeline({
      .label = "triangle",
      .vertex = {.module = *shader, .entry_point = "vs"},
      .fragment = resources::ShaderStage{.module = *shader, .entry_point = "fs"},
      .targets = {resources::ColorTarget{.format = target->format()}},
  });
  if (!pipeline) return fail(pipeline.error());

  // 3. One frame: an encoder from the engine, the objects from frame->use(handles). An object
  //    that cannot be used (lost with its device, a destroyed handle) is an error, never a
  //    crash: record nothing with it, and submit() drops the frame and says which and why.
  auto draw = [&]() -> Result<Serial> {
    auto frame = engine.begin_frame();
    if (!frame) return frame.error();  // no device right now (it is being rebuilt)
    if (auto objects = frame->use(target->view(), *pipeline)) {
      auto [view, triangle] = *objects;
      const gpu::Procs& procs = engine.procs();
      WGPURenderPassEncoder pass = gpu::begin_clear_pass(procs, frame->encoder(), view, {0.0, 0.0, 0.25, 1.0});
      procs.RenderPassEncoderSetPipeline(pass, triangle);
      procs.RenderPassEncoderDraw(pass, 3, 1, 0, 0);
      procs.RenderPassEncoderEnd(pass);
      procs.RenderPassEncoderRelease(pass);
    }
    return engine.submit(std::move(*frame));
  };

  // 4. Draw, polling between tries (poll() is where a lost device is noticed and the next one
  //    made ready), for at most ten seconds; then read the target back (a blocking wait: fine
  //    in a tool, never in a frame).
  auto draw_and_read = [&]() -> Result<present::Image> {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    for (auto drawn = draw(); !drawn; drawn = draw()) {
      if (std::chrono::steady_clock::now() > deadline) return drawn.error();
      engine.poll();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return present::read_image(engine.context(), reg, target->texture());
  };

  auto before = draw_and_read();
  if (!before) return fail(before.error());
  if (auto written = present::write_png(*before, png_path); !written) return fail(written.error());

  // 5. What a driver reset would do: the device is gone. The handles stay valid.
  if (auto lost = engine.force_device_loss("the first program pulls the plug"); !lost) return fail(lost.error());
  auto after = draw_and_read();
  if (!after) return fail(after.error());

  const auto centre = before->pixel(32, 40), corner = before->pixel(0, 0);
  std::printf("first_triangle: wrote %s; centre %u,%u,%u corner %u,%u,%u; after the loss (generation %llu) %s\n",
              png_path, centre[0], centre[1], centre[2], corner[0], corner[1], corner[2],
              static_cast<unsigned long long>(engine.device_generation()),
              after->rgba == before->rgba ? "the same picture" : "a DIFFERENT picture");
  if (centre[0] != 255 || centre[2] != 0 || corner[0] != 0 || corner[2] < 60 || corner[2] > 68) {
    std::fprintf(stderr, "first_triangle: the pixels are not the triangle and the clear colour\n");
    return 1;
  }
  engine.poll();  // tells and counts what the device refused in the frames above
  if (engine.counters().frames_with_errors > 0) return 1;  // blank frames are identical too
  return after->rgba == before->rgba ? 0 : 1;
}
