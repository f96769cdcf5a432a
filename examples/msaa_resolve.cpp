// Draws a red triangle, 4x multisampled, blended over a blue clear with a constant factor and cut
// to a viewport and a scissor rectangle; resolves it into the single-sampled frame; loses the
// device on purpose, draws again and writes the frame before and after the loss:
//   msaa_resolve before.png after.png
// What it uses: a texture with sample_count 4 rendered into and resolved (the colour
// attachment's resolveTarget) into the frame; a pipeline with sample_count 4 whose blend takes
// WGPUBlendFactor_Constant and OneMinusConstant, the constant set with SetBlendConstant; SetViewport
// and SetScissorRect; debug groups and markers on the encoder and on the pass. Both frames are
// checked, and the program exits 1 naming what is wrong: the triangle's inside is a quarter red
// and three quarters blue (the blend constant's 0.25, not the triangle's own red), its slanted
// edges hold pixels between that and the clear colour (anti-aliased: some of their samples
// covered), and the triangle's part right of the scissor and below the viewport is the clear
// colour.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "example_support.h"
#include "warden/gpu/objects.h"

using namespace warden;
using example::must;

namespace {

constexpr uint32_t kSize = 128;
constexpr uint32_t kSamples = 4;
// The viewport the triangle is drawn into, and the scissor that cuts its right part off (x, y,
// width, height, in pixels of the frame).
constexpr float kViewport[4] = {16, 16, 96, 96};
constexpr uint32_t kScissor[4] = {16, 16, 56, 96};
// The blend constant: the triangle's colour counts for a quarter, the colour under it for the rest.
constexpr WGPUColor kBlendConstant{0.25, 0.25, 0.25, 0.25};

constexpr const char* kShader = R"(
@vertex fn vs(@builtin(vertex_index) v : u32) -> @builtin(position) vec4<f32> {
  var corners = array<vec2<f32>, 3>(vec2<f32>(-0.9, -0.9), vec2<f32>(0.9, -0.9), vec2<f32>(0.0, 0.9));
  return vec4<f32>(corners[v], 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4<f32> { return vec4<f32>(1.0, 0.0, 0.0, 1.0); }
)";

[[noreturn]] void wrong(const std::string& what) {
  std::fprintf(stderr, "%s: %s\n", example::program, what.c_str());
  std::exit(1);
}

bool near(present::Rgba have, present::Rgba want) {
  return std::abs(have.r - want.r) <= 2 && std::abs(have.g - want.g) <= 2 && std::abs(have.b - want.b) <= 2;
}

std::string describe(present::Rgba c) {
  return "(" + std::to_string(c.r) + ", " + std::to_string(c.g) + ", " + std::to_string(c.b) + ")";
}

// Returns the number of anti-aliased pixels of `frame`, or exits naming what is wrong.
int check(const present::Image& frame, const char* name) {
  const present::Rgba clear{0, 0, 255, 255};
  const present::Rgba blended{64, 0, 191, 255};  // 0.25 * red + 0.75 * blue
  const auto expect = [&](uint32_t x, uint32_t y, present::Rgba want, const char* where) {
    if (!near(frame.at(x, y), want)) {
      wrong(std::string(name) + ": pixel (" + std::to_string(x) + ", " + std::to_string(y) + ") " + where + " is " +
            describe(frame.at(x, y)) + ", not " + describe(want));
    }
  };
  expect(50, 90, blended, "inside the triangle and the scissor (blended with the constant 0.25)");
  expect(85, 90, clear, "inside the triangle but right of the scissor");
  expect(30, 110, clear, "under the triangle as a full-frame viewport would draw it, below this viewport");
  expect(4, 4, clear, "outside the viewport");
  // Pixels on the triangle's edges that some but not all of their samples covered: between the
  // blended colour and the clear one. A single-sampled draw has none.
  int partial = 0;
  for (uint32_t y = 0; y < kSize; ++y) {
    for (uint32_t x = 0; x < kSize; ++x) {
      const present::Rgba c = frame.at(x, y);
      partial += c.g == 0 && c.r >= 8 && c.r <= 56 && c.r + c.b >= 250 && c.r + c.b <= 260 ? 1 : 0;
    }
  }
  if (partial < 16) wrong(std::string(name) + ": only " + std::to_string(partial) + " edge pixels are anti-aliased");
  return partial;
}

}  // namespace

int main(int argc, char** argv) {
  example::start("msaa_resolve", argc);
  auto engine = must(engine::Engine::create());  // Vulkan on a GPU, else OpenGL
  resources::Registry& reg = engine->registry();

  // The samples live only during the pass (stored nowhere: the resolve keeps what counts).
  auto samples = must(reg.create_texture({.size = {kSize, kSize, 1},
                                          .usage = WGPUTextureUsage_RenderAttachment,
                                          .sample_count = kSamples,
                                          .label = "samples",
                                          .contents = resources::ContentsSource::None}));
  auto samples_view = must(reg.create_texture_view(samples));
  auto target = must(reg.create_texture({.size = {kSize, kSize, 1},
                                         .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc,
                                         .label = "frame"}));
  auto target_view = must(reg.create_texture_view(target));

  auto module = must(reg.create_shader_module(kShader, "red triangle"));
  auto no_groups = must(reg.create_pipeline_layout({}, "triangle pipeline layout"));
  resources::RenderPipelineDescription draw{.label = "blended triangle", .layout = no_groups, .vertex = {module, "vs", {}}};
  draw.sample_count = kSamples;
  draw.fragment = resources::ShaderStage{module, "fs", {}};
  draw.targets = {resources::ColorTarget{
      .blend = WGPUBlendState{.color = {WGPUBlendOperation_Add, WGPUBlendFactor_Constant, WGPUBlendFactor_OneMinusConstant},
                              .alpha = {WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_Zero}}}};
  auto pipeline = must(reg.create_render_pipeline(draw));

  auto render = [&]() -> Result<Serial> {
    auto frame = engine->begin_frame();
    if (!frame) return frame.error();
    if (auto objects = frame->use(samples_view, target_view, pipeline)) {
      auto [multisampled, resolved, blended] = *objects;
      const gpu::Procs& p = engine->procs();
      WGPUCommandEncoder encoder = frame->encoder();
      p.CommandEncoderPushDebugGroup(encoder, gpu::string_view("msaa frame"));
      p.CommandEncoderInsertDebugMarker(encoder, gpu::string_view("4 samples, resolved into the frame"));
      WGPURenderPassColorAttachment attachment{};
      attachment.view = multisampled;
      attachment.depthSlice = WGPU_DEPTH_SLICE_UNDEFINED;
      attachment.resolveTarget = resolved;
      attachment.loadOp = WGPULoadOp_Clear;
      attachment.storeOp = WGPUStoreOp_Discard;
      attachment.clearValue = {0, 0, 1, 1};
      WGPURenderPassDescriptor described{};
      described.label = gpu::string_view("blended triangle pass");
      described.colorAttachmentCount = 1;
      described.colorAttachments = &attachment;
      WGPURenderPassEncoder pass = p.CommandEncoderBeginRenderPass(encoder, &described);
      p.RenderPassEncoderPushDebugGroup(pass, gpu::string_view("triangle"));
      p.RenderPassEncoderSetPipeline(pass, blended);
      p.RenderPassEncoderSetBlendConstant(pass, &kBlendConstant);
      p.RenderPassEncoderSetViewport(pass, kViewport[0], kViewport[1], kViewport[2], kViewport[3], 0.0f, 1.0f);
      p.RenderPassEncoderSetScissorRect(pass, kScissor[0], kScissor[1], kScissor[2], kScissor[3]);
      p.RenderPassEncoderInsertDebugMarker(pass, gpu::string_view("draw"));
      p.RenderPassEncoderDraw(pass, 3, 1, 0, 0);
      p.RenderPassEncoderPopDebugGroup(pass);
      p.RenderPassEncoderEnd(pass);
      p.RenderPassEncoderRelease(pass);
      p.CommandEncoderPopDebugGroup(encoder);
    }
    return engine->submit(std::move(*frame));
  };
  example::draw_across_a_loss(*engine, render, target, argv[1], argv[2]);

  const int before = check(must(present::read_png(argv[1])), argv[1]);
  const int after = check(must(present::read_png(argv[2])), argv[2]);
  std::printf("msaa_resolve: blended inside, clear outside the scissor and viewport, %d and %d anti-aliased edge pixels\n",
              before, after);
  return 0;
}
