// The first program of docs/getting-started.md: open a device, draw a triangle into an offscreen
// target through the Registry, read it back and write it to a PNG.
#include <cstdio>

#include "warden/present/readback.h"
#include "warden/present/render_target.h"
#include "warden/resources/registry.h"
#include "warden/gpu/context.h"

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

  // 1. Load the WebGPU library and open a device: a GPU through Vulkan when there is one,
  //    else OpenGL (Mesa's llvmpipe on a machine without a GPU).
  auto context = gpu::Context::create();
  if (!context) return fail(context.error());
  auto opened = context.value()->open_device(gpu::BackendChoice::Auto);
  if (!opened) return fail(opened.error());
  const gpu::Procs& procs = context.value()->procs();

  {
    // 2. The Registry keeps every GPU object behind a handle and releases it once the GPU is
    //    done with it. It must not outlive the device and queue it was given.
    resources::Registry registry(*context.value(), opened->device.get(), opened->queue.get());

    auto target = present::RenderTarget::create(registry, {.width = 64, .height = 64});
    if (!target) return fail(target.error());
    auto shader = registry.create_shader_module(kTriangleWgsl, "triangle");
    if (!shader) return fail(shader.error());
    auto pipeline = registry.create_render_pipeline({
        .label = "triangle",
        .vertex = {.module = *shader, .entry_point = "vs"},
        .fragment = resources::ShaderStage{.module = *shader, .entry_point = "fs"},
        .targets = {resources::ColorTarget{.format = target->format()}},
    });
    if (!pipeline) return fail(pipeline.error());

    // 3. Record a pass that clears the target and draws the triangle: handles resolve to the
    //    webgpu.h objects, which the commands use directly.
    gpu::RenderPassColorAttachment colour;
    colour.view = *registry.resolve(target->view());
    colour.loadOp = gpu::LoadOp::Clear;
    colour.storeOp = gpu::StoreOp::Store;
    colour.clearValue = {0.0, 0.0, 0.25, 1.0};
    gpu::RenderPassDescriptor pass_description;
    pass_description.colorAttachmentCount = 1;
    pass_description.colorAttachments = &colour;
    gpu::CommandEncoder encoder = procs.DeviceCreateCommandEncoder(opened->device.get(), nullptr);
    gpu::RenderPassEncoder pass = procs.CommandEncoderBeginRenderPass(encoder, &pass_description);
    procs.RenderPassEncoderSetPipeline(pass, *registry.resolve(*pipeline));
    procs.RenderPassEncoderDraw(pass, 3, 1, 0, 0);
    procs.RenderPassEncoderEnd(pass);
    procs.RenderPassEncoderRelease(pass);
    gpu::CommandBuffer commands = procs.CommandEncoderFinish(encoder, nullptr);
    procs.CommandEncoderRelease(encoder);

    // 4. Submit through the registry (it counts submissions to know when objects retire), then
    //    read the target back (a blocking wait: fine in a tool, never in a frame) and save it.
    registry.submit(commands);
    procs.CommandBufferRelease(commands);
    auto image = present::read_image(*context.value(), registry, target->texture());
    if (!image) return fail(image.error());
    if (auto written = present::write_png(*image, png_path); !written) return fail(written.error());

    const auto centre = image->pixel(32, 40), corner = image->pixel(0, 0);
    std::printf("first_triangle: wrote %s; centre %u,%u,%u corner %u,%u,%u\n", png_path, centre[0], centre[1],
                centre[2], corner[0], corner[1], corner[2]);
    if (centre[0] != 255 || centre[2] != 0 || corner[0] != 0 || corner[2] < 60 || corner[2] > 68) {
      std::fprintf(stderr, "first_triangle: the pixels are not the triangle and the clear colour\n");
      return 1;
    }
  }  // the registry lets go of everything it still holds
  return 0;
}
