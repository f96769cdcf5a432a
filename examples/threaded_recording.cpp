// Records one frame on four threads through the warden Engine: each recording thread takes the
// objects its pass draws with from their handles (Registry::resolve, and Registry::touch so that
// they are kept for the frame's submission), records a render pass into a command encoder of its
// own and finishes it; the frame thread clears the frame in its own encoder and submits its
// commands and the four command buffers in one Engine::submit. It loses the device on purpose,
// keeps drawing, and writes the frame before and after the loss:
//   threaded_recording before.png after.png
// Each thread draws one horizontal band of the frame in its own colour, through a viewport that
// leaves the right quarter of the frame to the clear colour. The program checks each band's
// colour, the clear colour right of it, and that every band was recorded on a thread of its own
// other than the frame thread, in both frames; anything else ends it with the reason, exit
// status 1.
#include <array>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "example_support.h"
#include "warden/gpu/objects.h"

using namespace warden;
using example::must;

namespace {

constexpr uint32_t kSize = 64;
constexpr uint32_t kThreads = 4;
constexpr uint32_t kBand = kSize / kThreads;  // rows of each thread's band
constexpr uint32_t kBandWidth = kSize * 3 / 4;  // the rest of each row keeps the clear colour

// A triangle that covers the whole viewport, in the colour of the band's instance.
constexpr const char* kShader = R"(
struct Out { @builtin(position) position : vec4<f32>, @location(0) color : vec4<f32> };
@vertex fn vs(@builtin(vertex_index) v : u32, @location(0) color : vec4<f32>) -> Out {
  var corners = array<vec2<f32>, 3>(vec2<f32>(-1.0, -1.0), vec2<f32>(3.0, -1.0), vec2<f32>(-1.0, 3.0));
  return Out(vec4<f32>(corners[v], 0.0, 1.0), color);
}
@fragment fn fs(v : Out) -> @location(0) vec4<f32> { return v.color; }
)";

// The frame's colour where no band is: opaque black.
constexpr WGPUColor kClear{0.0, 0.0, 0.0, 1.0};
// Band t's colour: every band differs from the others and from the clear colour (black).
constexpr std::array<std::array<uint8_t, 3>, kThreads> kColors{{{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {255, 255, 0}}};

// What one recording thread hands back: its command buffer, or why it has none.
struct Recorded {
  gpu::Ref<WGPUCommandBuffer> commands{};
  std::optional<Error> failure{};
  std::thread::id thread{};
};

// The objects a recording thread draws with.
struct BandObjects {
  RenderPipelineHandle pipeline;
  BufferHandle color;  // one instance: the band's colour
  TextureViewHandle target;
};

// Runs on a recording thread: band `band`'s pass, into an encoder of its own on `device`.
Recorded record_band(resources::Registry& reg, const gpu::Procs& p, WGPUDevice device, const BandObjects& objects,
                     uint32_t band) {
  Recorded out;
  out.thread = std::this_thread::get_id();
  auto pipeline = reg.resolve(objects.pipeline);
  auto color = reg.resolve(objects.color);
  auto target = reg.resolve(objects.target);
  if (!pipeline || !color || !target) {
    out.failure = !pipeline ? pipeline.error() : !color ? color.error() : target.error();
    return out;
  }
  // Kept for the submission being recorded: a destroy meanwhile waits for it.
  reg.touch(objects.pipeline);
  reg.touch(objects.color);
  reg.touch(objects.target);
  const std::string label = "band " + std::to_string(band);
  WGPUCommandEncoderDescriptor encoder_desc{};
  encoder_desc.label = gpu::string_view(label);
  gpu::Ref<WGPUCommandEncoder> encoder(&p, p.DeviceCreateCommandEncoder(device, &encoder_desc));
  // The frame thread's commands clear the frame before this pass runs: load what is there.
  WGPURenderPassColorAttachment attachment{};
  attachment.view = *target;
  attachment.depthSlice = WGPU_DEPTH_SLICE_UNDEFINED;
  attachment.loadOp = WGPULoadOp_Load;
  attachment.storeOp = WGPUStoreOp_Store;
  WGPURenderPassDescriptor pass_desc{};
  pass_desc.label = gpu::string_view(label);
  pass_desc.colorAttachmentCount = 1;
  pass_desc.colorAttachments = &attachment;
  WGPURenderPassEncoder pass = p.CommandEncoderBeginRenderPass(encoder.get(), &pass_desc);
  p.RenderPassEncoderSetViewport(pass, 0, static_cast<float>(band * kBand), kBandWidth, kBand, 0, 1);
  p.RenderPassEncoderSetPipeline(pass, *pipeline);
  p.RenderPassEncoderSetVertexBuffer(pass, 0, *color, 0, 16);
  p.RenderPassEncoderDraw(pass, 3, 1, 0, 0);
  p.RenderPassEncoderEnd(pass);
  p.RenderPassEncoderRelease(pass);
  out.commands = gpu::Ref<WGPUCommandBuffer>(&p, p.CommandEncoderFinish(encoder.get(), nullptr));
  return out;
}

// Each band's colour in its middle, and the clear colour right of it.
void check_bands(const present::Image& image, const char* when) {
  auto at = [&](uint32_t x, uint32_t y) { return &image.rgba[(size_t{y} * image.width + x) * 4]; };
  for (uint32_t band = 0; band < kThreads; ++band) {
    const uint32_t y = band * kBand + kBand / 2;
    const uint8_t* inside = at(kBandWidth / 2, y);
    const auto& want = kColors[band];
    if (inside[0] != want[0] || inside[1] != want[1] || inside[2] != want[2] || inside[3] != 255) {
      example::fail(make_error(ErrorKind::Internal, std::string(when) + ": band " + std::to_string(band) +
                                                        " is not its colour: its thread's pass did not draw it"));
    }
    const uint8_t* right = at((kBandWidth + kSize) / 2, y);
    if (right[0] != 0 || right[1] != 0 || right[2] != 0 || right[3] != 255) {
      example::fail(make_error(ErrorKind::Internal, std::string(when) + ": right of band " + std::to_string(band) +
                                                        " is not the clear colour"));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  example::start("threaded_recording", argc);
  auto engine = must(engine::Engine::create());  // Vulkan on a GPU, else OpenGL
  resources::Registry& reg = engine->registry();

  auto target = must(reg.create_texture({.size = {kSize, kSize, 1},
                                         .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc,
                                         .label = "frame"}));
  auto target_view = must(reg.create_texture_view(target));
  auto module = must(reg.create_shader_module(kShader, "bands"));
  resources::RenderPipelineDescription draw{.label = "bands", .vertex = {module, "vs", {}}};
  draw.vertex_buffers = {{16, WGPUVertexStepMode_Instance, {{WGPUVertexFormat_Float32x4, 0, 0}}}};
  draw.fragment = resources::ShaderStage{module, "fs", {}};
  draw.targets = {resources::ColorTarget{}};
  auto pipeline = must(reg.create_render_pipeline(draw));
  std::array<BandObjects, kThreads> bands{};
  for (uint32_t band = 0; band < kThreads; ++band) {
    const auto& c = kColors[band];
    const float color[4] = {c[0] / 255.0f, c[1] / 255.0f, c[2] / 255.0f, 1.0f};
    auto buffer = must(reg.create_buffer({.size = sizeof color,
                                          .usage = WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst,
                                          .label = "band " + std::to_string(band) + " colour"}));
    must(reg.write_buffer(buffer, 0, color, sizeof color));
    bands[band] = {pipeline, buffer, target_view};
  }

  // The threads that recorded the last frame's bands, by band.
  std::array<std::thread::id, kThreads> recorded_on{};
  // One frame: the frame thread clears the frame, four threads record a band each, and the frame
  // thread submits everything at once. Its submission, or why there was none.
  auto render = [&]() -> Result<Serial> {
    auto frame = engine->begin_frame();
    if (!frame) return frame.error();
    if (auto view = frame->use(target_view)) {
      const gpu::Procs& p = engine->procs();
      WGPURenderPassEncoder pass = gpu::begin_clear_pass(p, frame->encoder(), *view, kClear);
      p.RenderPassEncoderEnd(pass);
      p.RenderPassEncoderRelease(pass);
    }
    // The recording threads' encoders belong to the frame's device; the frame thread neither
    // polls nor forces a loss while they record, so it is the device submit() checks.
    const gpu::Procs& procs = engine->procs();
    const WGPUDevice device = engine->device();
    std::array<Recorded, kThreads> recorded{};
    {
      // A thread per band and frame keeps the example short; an application keeps its threads.
      std::vector<std::jthread> threads;
      for (uint32_t band = 0; band < kThreads; ++band) {
        threads.emplace_back([&, band] { recorded[band] = record_band(reg, procs, device, bands[band], band); });
      }
    }  // joined
    std::vector<WGPUCommandBuffer> commands;
    for (uint32_t band = 0; band < kThreads; ++band) {
      if (recorded[band].failure) return *recorded[band].failure;  // the frame is dropped unsubmitted
      commands.push_back(recorded[band].commands.get());
      recorded_on[band] = recorded[band].thread;
    }
    return engine->submit(std::move(*frame), commands);
  };
  // Each band on a thread of its own, none of them the frame thread.
  auto check_threads = [&](const char* when) {
    for (uint32_t band = 0; band < kThreads; ++band) {
      bool own = recorded_on[band] != std::thread::id{} && recorded_on[band] != std::this_thread::get_id();
      for (uint32_t other = 0; other < band; ++other) own = own && recorded_on[band] != recorded_on[other];
      if (!own) {
        example::fail(make_error(ErrorKind::Internal, std::string(when) + ": band " + std::to_string(band) +
                                                          " was not recorded on a thread of its own"));
      }
    }
  };

  must(render());
  check_bands(must(present::read_image(engine->context(), reg, target)), "before the loss");
  check_threads("before the loss");
  example::draw_across_a_loss(*engine, render, target, argv[1], argv[2]);
  check_bands(must(present::read_image(engine->context(), reg, target)), "after the loss");
  check_threads("after the loss");
  std::printf("threaded_recording: %u bands recorded on %u threads, submitted in one submit per frame\n", kThreads,
              kThreads);
  return 0;
}
