// Draws a grey wall, a red square behind it and a green square in front of its corner, counting
// with occlusion queries the samples each square passes the depth test with; loses the device on
// purpose, draws again and writes the frame before and after the loss:
//   occlusion_query before.png after.png
// What it uses: a query set of type Occlusion made through the registry (remade after the loss
// like any object), the render pass's occlusionQuerySet, BeginOcclusionQuery/EndOcclusionQuery
// around each square's draw, ResolveQuerySet into a QueryResolve buffer, copied to a MapRead
// buffer and read back. Where the device offers WGPUFeatureName_TimestampQuery, a second query
// set of type Timestamp takes the pass's timestampWrites, and the end must not come before the
// beginning; where it does not (Dawn's OpenGL), the program says so and measures no time. Both
// frames are checked, and the program exits 1 naming what is wrong: the hidden square's query
// counted 0 samples and the visible one's more than 0 (Dawn's OpenGL answers 1: it asks only
// whether any sample passed, which a WebGPU occlusion query allows), and the pictures show the
// wall and the green square but no red.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "example_support.h"
#include "warden/gpu/objects.h"

using namespace warden;
using example::must;

namespace {

constexpr uint32_t kSize = 128;
constexpr uint32_t kQueries = 2;  // 0: the hidden square, 1: the visible one
constexpr uint64_t kResultBytes = kQueries * sizeof(uint64_t);

// Three squares, two triangles each: x y z (depth), r g b.
constexpr uint32_t kFloatsPerVertex = 6;
constexpr uint32_t kVerticesPerSquare = 6;
constexpr float kGrey = 128.0f / 255.0f;  // stored exactly in the 8-bit target
std::vector<float> squares() {
  struct Square {
    float x0, y0, x1, y1, z, r, g, b;
  };
  const Square all[] = {
      {-0.6f, -0.6f, 0.6f, 0.6f, 0.5f, kGrey, kGrey, kGrey},  // the wall, drawn first
      {-0.3f, -0.3f, 0.3f, 0.3f, 0.8f, 1.0f, 0.0f, 0.0f},  // behind the wall, inside its outline
      {0.3f, 0.3f, 0.9f, 0.9f, 0.2f, 0.0f, 1.0f, 0.0f},    // in front of the wall's corner
  };
  std::vector<float> vertices;
  for (const Square& s : all) {
    const float corners[6][2] = {{s.x0, s.y0}, {s.x1, s.y0}, {s.x0, s.y1}, {s.x0, s.y1}, {s.x1, s.y0}, {s.x1, s.y1}};
    for (const auto& c : corners) vertices.insert(vertices.end(), {c[0], c[1], s.z, s.r, s.g, s.b});
  }
  return vertices;
}

constexpr const char* kShader = R"(
struct Out { @builtin(position) position : vec4<f32>, @location(0) colour : vec3<f32> };
@vertex fn vs(@location(0) position : vec3<f32>, @location(1) colour : vec3<f32>) -> Out {
  return Out(vec4<f32>(position, 1.0), colour);
}
@fragment fn fs(v : Out) -> @location(0) vec4<f32> { return vec4<f32>(v.colour, 1.0); }
)";

[[noreturn]] void wrong(const std::string& what) {
  std::fprintf(stderr, "%s: %s\n", example::program, what.c_str());
  std::exit(1);
}

// What one frame's queries gave.
struct Counts {
  uint64_t hidden = 0, visible = 0;
};

void check_counts(const Counts& counts, const char* which) {
  if (counts.hidden != 0) {
    wrong(std::string(which) + ": the square behind the wall passed " + std::to_string(counts.hidden) +
          " samples; a hidden draw passes none");
  }
  if (counts.visible == 0) wrong(std::string(which) + ": the square in front of the wall passed no samples");
}

void check_picture(const present::Image& frame, const char* name) {
  const auto expect = [&](uint32_t x, uint32_t y, present::Rgba want, const char* what) {
    if (frame.at(x, y) != want) wrong(std::string(name) + ": no " + what + " at (" + std::to_string(x) + ", " + std::to_string(y) + ")");
  };
  expect(64, 64, {128, 128, 128, 255}, "wall in front of the red square");
  expect(100, 25, {0, 255, 0, 255}, "green square");
  expect(4, 4, {0, 0, 0, 255}, "clear colour");
  for (uint32_t y = 0; y < kSize; ++y) {
    for (uint32_t x = 0; x < kSize; ++x) {
      if (frame.at(x, y).r > 200) wrong(std::string(name) + ": the hidden red square shows at (" + std::to_string(x) + ", " + std::to_string(y) + ")");
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  example::start("occlusion_query", argc);
  engine::EngineOptions options;
  options.device.optional_features.push_back(WGPUFeatureName_TimestampQuery);  // where the adapter has it
  auto engine = must(engine::Engine::create(std::move(options)));  // Vulkan on a GPU, else OpenGL
  resources::Registry& reg = engine->registry();
  const gpu::Procs& p = engine->procs();
  const bool timestamps = p.DeviceHasFeature(engine->device(), WGPUFeatureName_TimestampQuery) != 0;
  if (!timestamps) {
    std::printf("occlusion_query: the %s device does not offer WGPUFeatureName_TimestampQuery; no timestamps written\n",
                engine->adapter_name().c_str());
  }

  const std::vector<float> vertices = squares();
  const uint64_t vertex_bytes = vertices.size() * sizeof(float);
  auto vertex_buffer = must(reg.create_buffer({.size = vertex_bytes,
                                               .usage = WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst,
                                               .label = "squares"}));
  must(reg.write_buffer(vertex_buffer, 0, vertices.data(), vertex_bytes));
  auto target = must(reg.create_texture({.size = {kSize, kSize, 1},
                                         .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc,
                                         .label = "frame"}));
  auto target_view = must(reg.create_texture_view(target));
  auto depth = must(reg.create_texture({.size = {kSize, kSize, 1},
                                        .format = WGPUTextureFormat_Depth24Plus,
                                        .usage = WGPUTextureUsage_RenderAttachment,
                                        .label = "depth",
                                        .contents = resources::ContentsSource::None}));
  auto depth_view = must(reg.create_texture_view(depth));

  auto occlusion = must(reg.create_query_set({.type = WGPUQueryType_Occlusion, .count = kQueries, .label = "occlusion"}));
  // The results, resolved on the GPU, then copied where the CPU can map them.
  auto resolved = must(reg.create_buffer({.size = kResultBytes,
                                          .usage = WGPUBufferUsage_QueryResolve | WGPUBufferUsage_CopySrc,
                                          .label = "occlusion results",
                                          .contents = resources::ContentsSource::None}));
  auto readback = must(reg.create_buffer({.size = kResultBytes,
                                          .usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst,
                                          .label = "occlusion readback",
                                          .contents = resources::ContentsSource::None}));
  QuerySetHandle times{};
  BufferHandle times_resolved{}, times_readback{};
  if (timestamps) {
    times = must(reg.create_query_set({.type = WGPUQueryType_Timestamp, .count = 2, .label = "pass times"}));
    times_resolved = must(reg.create_buffer({.size = 2 * sizeof(uint64_t),
                                             .usage = WGPUBufferUsage_QueryResolve | WGPUBufferUsage_CopySrc,
                                             .label = "pass time results",
                                             .contents = resources::ContentsSource::None}));
    times_readback = must(reg.create_buffer({.size = 2 * sizeof(uint64_t),
                                             .usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst,
                                             .label = "pass time readback",
                                             .contents = resources::ContentsSource::None}));
  }

  auto module = must(reg.create_shader_module(kShader, "squares"));
  auto no_groups = must(reg.create_pipeline_layout({}, "squares pipeline layout"));
  resources::RenderPipelineDescription draw{.label = "depth-tested squares", .layout = no_groups, .vertex = {module, "vs", {}}};
  draw.vertex_buffers = {{kFloatsPerVertex * sizeof(float), WGPUVertexStepMode_Vertex,
                          {{WGPUVertexFormat_Float32x3, 0, 0}, {WGPUVertexFormat_Float32x3, 12, 1}}}};
  draw.depth = resources::DepthState{};  // Depth24Plus, written, Less
  draw.fragment = resources::ShaderStage{module, "fs", {}};
  draw.targets = {resources::ColorTarget{}};
  auto pipeline = must(reg.create_render_pipeline(draw));

  std::vector<Counts> counted;  // one per submitted frame
  std::vector<uint64_t> pass_times;  // nanoseconds from the pass's beginning to its end, per frame

  auto render = [&]() -> Result<Serial> {
    auto frame = engine->begin_frame();
    if (!frame) return frame.error();
    auto objects = frame->use(target_view, depth_view, pipeline, vertex_buffer, occlusion, resolved, readback);
    // The timestamp objects only where they were made: use() refuses a null handle.
    WGPUQuerySet time_set = nullptr;
    WGPUBuffer time_results = nullptr, time_readback = nullptr;
    if (objects && timestamps) {
      if (auto timing = frame->use(times, times_resolved, times_readback)) {
        std::tie(time_set, time_results, time_readback) = *timing;
      }
    }
    if (objects && !frame->failure()) {
      auto [view, depth_attachment, squares_pipeline, squares_buffer, query_set, results, mappable] = *objects;
      WGPUCommandEncoder encoder = frame->encoder();
      WGPURenderPassColorAttachment colour{};
      colour.view = view;
      colour.depthSlice = WGPU_DEPTH_SLICE_UNDEFINED;
      colour.loadOp = WGPULoadOp_Clear;
      colour.storeOp = WGPUStoreOp_Store;
      colour.clearValue = {0, 0, 0, 1};
      WGPURenderPassDepthStencilAttachment depth_stencil{};
      depth_stencil.view = depth_attachment;
      depth_stencil.depthLoadOp = WGPULoadOp_Clear;
      depth_stencil.depthStoreOp = WGPUStoreOp_Discard;
      depth_stencil.depthClearValue = 1.0f;
      WGPUPassTimestampWrites time_writes{};
      time_writes.querySet = time_set;
      time_writes.beginningOfPassWriteIndex = 0;
      time_writes.endOfPassWriteIndex = 1;
      WGPURenderPassDescriptor described{};
      described.label = gpu::string_view("occlusion pass");
      described.colorAttachmentCount = 1;
      described.colorAttachments = &colour;
      described.depthStencilAttachment = &depth_stencil;
      described.occlusionQuerySet = query_set;
      described.timestampWrites = timestamps ? &time_writes : nullptr;
      WGPURenderPassEncoder pass = p.CommandEncoderBeginRenderPass(encoder, &described);
      p.RenderPassEncoderSetPipeline(pass, squares_pipeline);
      p.RenderPassEncoderSetVertexBuffer(pass, 0, squares_buffer, 0, WGPU_WHOLE_SIZE);
      p.RenderPassEncoderDraw(pass, kVerticesPerSquare, 1, 0, 0);  // the wall fills the depth buffer
      p.RenderPassEncoderBeginOcclusionQuery(pass, 0);
      p.RenderPassEncoderDraw(pass, kVerticesPerSquare, 1, kVerticesPerSquare, 0);
      p.RenderPassEncoderEndOcclusionQuery(pass);
      p.RenderPassEncoderBeginOcclusionQuery(pass, 1);
      p.RenderPassEncoderDraw(pass, kVerticesPerSquare, 1, 2 * kVerticesPerSquare, 0);
      p.RenderPassEncoderEndOcclusionQuery(pass);
      p.RenderPassEncoderEnd(pass);
      p.RenderPassEncoderRelease(pass);
      p.CommandEncoderResolveQuerySet(encoder, query_set, 0, kQueries, results, 0);
      p.CommandEncoderCopyBufferToBuffer(encoder, results, 0, mappable, 0, kResultBytes);
      if (timestamps) {
        p.CommandEncoderResolveQuerySet(encoder, time_set, 0, 2, time_results, 0);
        p.CommandEncoderCopyBufferToBuffer(encoder, time_results, 0, time_readback, 0, 2 * sizeof(uint64_t));
      }
    }
    auto submitted = engine->submit(std::move(*frame));
    if (!submitted) return submitted;
    // Blocking, as a tool may: what this frame's queries counted.
    const auto bytes = must(engine->context().read_mapped(must(reg.resolve(readback)), kResultBytes,
                                                          present::kReadbackTimeout));
    uint64_t samples[kQueries];
    std::memcpy(samples, bytes.data(), kResultBytes);
    counted.push_back({samples[0], samples[1]});
    if (timestamps) {
      const auto stamps = must(engine->context().read_mapped(must(reg.resolve(times_readback)), 2 * sizeof(uint64_t),
                                                             present::kReadbackTimeout));
      uint64_t t[2];
      std::memcpy(t, stamps.data(), sizeof t);
      // A written timestamp is the GPU's clock, never 0; Dawn may round it to a coarser step, so a
      // short pass can begin and end in the same one.
      if (t[0] == 0) wrong("no timestamp was written at the beginning of the pass (it reads 0)");
      if (t[1] < t[0]) wrong("the pass ended (timestamp " + std::to_string(t[1]) + ") before it began (" + std::to_string(t[0]) + ")");
      pass_times.push_back(t[1] - t[0]);
    }
    return submitted;
  };
  example::draw_across_a_loss(*engine, render, target, argv[1], argv[2]);

  check_counts(counted.front(), "before the loss");
  check_counts(counted.back(), "after the loss");
  check_picture(must(present::read_png(argv[1])), argv[1]);
  check_picture(must(present::read_png(argv[2])), argv[2]);
  std::printf("occlusion_query: hidden square %llu samples, visible square %llu (before), %llu and %llu (after)\n",
              static_cast<unsigned long long>(counted.front().hidden), static_cast<unsigned long long>(counted.front().visible),
              static_cast<unsigned long long>(counted.back().hidden), static_cast<unsigned long long>(counted.back().visible));
  if (timestamps) {
    std::printf("occlusion_query: the pass took %llu ns before the loss, %llu ns after\n",
                static_cast<unsigned long long>(pass_times.front()), static_cast<unsigned long long>(pass_times.back()));
  }
  return 0;
}
