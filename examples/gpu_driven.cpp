// Draws a 4x4 grid of shapes whose number and placement the GPU decides, loses the device on
// purpose, draws again and writes the frame before and after the loss:
//   gpu_driven before.png after.png
// Each frame, a compute pass reads sixteen candidates (triangle or square, shown or culled) and
// writes the indirect arguments of everything after it into one buffer (usage Storage|Indirect):
// the instance count of a DrawIndirect (triangles), that of a DrawIndexedIndirect (squares, from
// an index buffer) and the workgroup count of a DispatchWorkgroupsIndirect. That dispatch, one
// workgroup per shown candidate, writes each shape's place and colour into the instance buffers
// the draws read. The CPU records the same commands every frame and never learns the counts,
// except to check them: the program reads the arguments back and checks every cell of both
// frames (a shown triangle, a shown square and a culled cell each look as they must), and exits
// 1 naming the first thing that is wrong.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "example_support.h"
#include "warden/gpu/objects.h"
#include "warden/pipelines/build.h"

using namespace warden;
using example::must;

namespace {

constexpr uint32_t kSize = 128;
constexpr uint32_t kCandidates = 16;  // a 4x4 grid of 32-pixel cells
constexpr uint32_t kCell = kSize / 4;

// Candidate i: {kind (0 triangle, 1 square), shown (1) or culled (0), unused, unused}; a uniform
// array's elements are 16 bytes apart.
constexpr uint32_t kScene[kCandidates][4] = {
    {0, 1, 0, 0}, {1, 1, 0, 0}, {0, 0, 0, 0}, {0, 1, 0, 0},  //
    {1, 1, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {0, 1, 0, 0},  //
    {1, 1, 0, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}, {1, 1, 0, 0},  //
    {0, 0, 0, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0},  //
};

// The indirect arguments, in u32s: DrawIndirect at 0 (vertexCount, instanceCount, firstVertex,
// firstInstance), DrawIndexedIndirect at 4 (indexCount, instanceCount, firstIndex, baseVertex,
// firstInstance), DispatchWorkgroupsIndirect at 9 (x, y, z).
constexpr uint64_t kDrawOffset = 0;
constexpr uint64_t kDrawIndexedOffset = 4 * 4;
constexpr uint64_t kDispatchOffset = 9 * 4;
constexpr uint64_t kArgsBytes = 12 * 4;

// One instance as the place pass writes it and the draws read it (WGSL's layout: the colour is
// 16-byte aligned).
constexpr uint64_t kInstanceStride = 32;

constexpr const char* kPlanShader = R"(
@group(0) @binding(0) var<uniform> scene : array<vec4<u32>, 16>;
@group(0) @binding(1) var<storage, read_write> args : array<u32, 12>;
// [triangles shown, squares shown, then the shown candidates: triangles first]
@group(0) @binding(2) var<storage, read_write> chosen : array<u32, 18>;

@compute @workgroup_size(1) fn plan() {
  var triangles = 0u;
  for (var i = 0u; i < 16u; i++) {
    if (scene[i].y == 1u && scene[i].x == 0u) { chosen[2u + triangles] = i; triangles++; }
  }
  var squares = 0u;
  for (var i = 0u; i < 16u; i++) {
    if (scene[i].y == 1u && scene[i].x == 1u) { chosen[2u + triangles + squares] = i; squares++; }
  }
  chosen[0] = triangles;
  chosen[1] = squares;
  args[0] = 3u; args[1] = triangles; args[2] = 0u; args[3] = 0u;
  args[4] = 6u; args[5] = squares; args[6] = 0u; args[7] = 0u; args[8] = 0u;
  args[9] = triangles + squares; args[10] = 1u; args[11] = 1u;
}
)";

constexpr const char* kPlaceShader = R"(
struct Instance { centre : vec2<f32>, colour : vec4<f32> };
@group(0) @binding(0) var<storage, read> chosen : array<u32, 18>;
@group(0) @binding(1) var<storage, read_write> triangles : array<Instance, 16>;
@group(0) @binding(2) var<storage, read_write> squares : array<Instance, 16>;

@compute @workgroup_size(1) fn place(@builtin(workgroup_id) id : vec3<u32>) {
  let k = id.x;
  let c = chosen[2u + k];
  let centre = vec2<f32>(-0.75 + 0.5 * f32(c % 4u), 0.75 - 0.5 * f32(c / 4u));
  // Whole steps of 1/255: the target stores them exactly (the check computes the same).
  let colour = vec4<f32>(f32(40u + 13u * c), f32(200u - 11u * c), f32(60u + 10u * c), 255.0) / 255.0;
  if (k < chosen[0]) {
    triangles[k] = Instance(centre, colour);
  } else {
    squares[k - chosen[0]] = Instance(centre, colour);
  }
}
)";

constexpr const char* kDrawShader = R"(
struct Out { @builtin(position) position : vec4<f32>, @location(0) colour : vec4<f32> };
@vertex fn triangle(@builtin(vertex_index) v : u32, @location(0) centre : vec2<f32>,
                    @location(1) colour : vec4<f32>) -> Out {
  var corners = array<vec2<f32>, 3>(vec2<f32>(-0.2, -0.2), vec2<f32>(0.2, -0.2), vec2<f32>(0.0, 0.2));
  return Out(vec4<f32>(centre + corners[v], 0.0, 1.0), colour);
}
@vertex fn square(@builtin(vertex_index) v : u32, @location(0) centre : vec2<f32>,
                  @location(1) colour : vec4<f32>) -> Out {
  var corners = array<vec2<f32>, 4>(vec2<f32>(-0.2, -0.2), vec2<f32>(0.2, -0.2), vec2<f32>(-0.2, 0.2),
                                    vec2<f32>(0.2, 0.2));
  return Out(vec4<f32>(centre + corners[v], 0.0, 1.0), colour);
}
@fragment fn fs(v : Out) -> @location(0) vec4<f32> { return v.colour; }
)";

// The colour the place pass gives candidate c.
present::Rgba colour_of(uint32_t c) {
  return {static_cast<uint8_t>(40 + 13 * c), static_cast<uint8_t>(200 - 11 * c), static_cast<uint8_t>(60 + 10 * c), 255};
}

[[noreturn]] void wrong(const std::string& what) {
  std::fprintf(stderr, "%s: %s\n", example::program, what.c_str());
  std::exit(1);
}

// The arguments the compute pass must have written for kScene.
std::vector<uint32_t> expected_args() {
  uint32_t triangles = 0, squares = 0;
  for (const auto& candidate : kScene) {
    if (candidate[1] == 1) ++(candidate[0] == 0 ? triangles : squares);
  }
  return {3, triangles, 0, 0, 6, squares, 0, 0, 0, triangles + squares, 1, 1};
}

// Every cell of `frame`: a shown triangle covers the cell's centre but not a point near its top
// left corner, a shown square covers both, a culled cell is the clear colour at both.
void check_cells(const present::Image& frame, const char* name) {
  const present::Rgba clear{0, 0, 0, 255};
  for (uint32_t c = 0; c < kCandidates; ++c) {
    const uint32_t cx = kCell / 2 + kCell * (c % 4), cy = kCell / 2 + kCell * (c / 4);
    const present::Rgba centre = frame.at(cx, cy), corner = frame.at(cx - 9, cy - 9);
    const bool shown = kScene[c][1] == 1, square = kScene[c][0] == 1;
    const present::Rgba want_centre = shown ? colour_of(c) : clear;
    const present::Rgba want_corner = shown && square ? colour_of(c) : clear;
    if (centre != want_centre || corner != want_corner) {
      wrong(std::string(name) + ": cell " + std::to_string(c) + " (" + (shown ? "shown " : "culled ") +
            (square ? "square" : "triangle") + ") is not drawn as the compute pass decided");
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  example::start("gpu_driven", argc);
  auto engine = must(engine::Engine::create());  // Vulkan on a GPU, else OpenGL
  resources::Registry& reg = engine->registry();

  // The scene is the CPU's; everything after it the GPU writes every frame, so nothing of it
  // needs keeping across a loss (ContentsSource::None).
  auto scene = must(reg.create_buffer({.size = sizeof kScene,
                                       .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst,
                                       .label = "candidates"}));
  must(reg.write_buffer(scene, 0, kScene, sizeof kScene));
  auto args = must(reg.create_buffer({.size = kArgsBytes,
                                      .usage = WGPUBufferUsage_Storage | WGPUBufferUsage_Indirect | WGPUBufferUsage_CopySrc,
                                      .label = "indirect arguments",
                                      .contents = resources::ContentsSource::None}));
  auto chosen = must(reg.create_buffer({.size = 18 * 4,
                                        .usage = WGPUBufferUsage_Storage,
                                        .label = "chosen candidates",
                                        .contents = resources::ContentsSource::None}));
  auto triangles = must(reg.create_buffer({.size = kCandidates * kInstanceStride,
                                           .usage = WGPUBufferUsage_Storage | WGPUBufferUsage_Vertex,
                                           .label = "triangle instances",
                                           .contents = resources::ContentsSource::None}));
  auto squares = must(reg.create_buffer({.size = kCandidates * kInstanceStride,
                                         .usage = WGPUBufferUsage_Storage | WGPUBufferUsage_Vertex,
                                         .label = "square instances",
                                         .contents = resources::ContentsSource::None}));
  const uint16_t corners[] = {0, 1, 2, 2, 1, 3};
  auto indices = must(reg.create_buffer({.size = sizeof corners,
                                         .usage = WGPUBufferUsage_Index | WGPUBufferUsage_CopyDst,
                                         .label = "square corners"}));
  must(reg.write_buffer(indices, 0, corners, sizeof corners));
  auto args_readback = must(reg.create_buffer({.size = kArgsBytes,
                                               .usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst,
                                               .label = "arguments readback",
                                               .contents = resources::ContentsSource::None}));
  auto target = must(reg.create_texture({.size = {kSize, kSize, 1},
                                         .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc,
                                         .label = "frame"}));
  auto target_view = must(reg.create_texture_view(target));

  // The plan pass: the scene in, the arguments and the chosen candidates out.
  const resources::LayoutEntry plan_entries[] = {
      {.binding = 0, .visibility = WGPUShaderStage_Compute, .type = resources::BufferLayout{}},
      {.binding = 1, .visibility = WGPUShaderStage_Compute, .type = resources::BufferLayout{WGPUBufferBindingType_Storage}},
      {.binding = 2, .visibility = WGPUShaderStage_Compute, .type = resources::BufferLayout{WGPUBufferBindingType_Storage}},
  };
  auto plan_layout = must(reg.create_bind_group_layout(pipelines::translate_layout_entries(plan_entries), "plan layout"));
  BindGroupLayoutHandle plan_layouts[] = {plan_layout};
  auto plan = must(reg.create_compute_pipeline({"plan", must(reg.create_pipeline_layout(plan_layouts, "plan pipeline layout")),
                                                {must(reg.create_shader_module(kPlanShader, "plan")), "plan", {}}}));
  auto plan_group = must(reg.create_bind_group({plan_layout,
                                                {{0, resources::BufferBinding{scene}},
                                                 {1, resources::BufferBinding{args}},
                                                 {2, resources::BufferBinding{chosen}}},
                                                "plan group"}));

  // The place pass: the chosen candidates in, the instances out.
  const resources::LayoutEntry place_entries[] = {
      {.binding = 0, .visibility = WGPUShaderStage_Compute,
       .type = resources::BufferLayout{WGPUBufferBindingType_ReadOnlyStorage}},
      {.binding = 1, .visibility = WGPUShaderStage_Compute, .type = resources::BufferLayout{WGPUBufferBindingType_Storage}},
      {.binding = 2, .visibility = WGPUShaderStage_Compute, .type = resources::BufferLayout{WGPUBufferBindingType_Storage}},
  };
  auto place_layout = must(reg.create_bind_group_layout(pipelines::translate_layout_entries(place_entries), "place layout"));
  BindGroupLayoutHandle place_layouts[] = {place_layout};
  auto place = must(reg.create_compute_pipeline({"place", must(reg.create_pipeline_layout(place_layouts, "place pipeline layout")),
                                                 {must(reg.create_shader_module(kPlaceShader, "place")), "place", {}}}));
  auto place_group = must(reg.create_bind_group({place_layout,
                                                 {{0, resources::BufferBinding{chosen}},
                                                  {1, resources::BufferBinding{triangles}},
                                                  {2, resources::BufferBinding{squares}}},
                                                 "place group"}));

  // The draws: one instance buffer each, read per instance; the corners come from vertex_index.
  auto draw_module = must(reg.create_shader_module(kDrawShader, "shapes"));
  auto no_groups = must(reg.create_pipeline_layout({}, "shapes pipeline layout"));
  resources::RenderPipelineDescription shape{.label = "triangles", .layout = no_groups, .vertex = {draw_module, "triangle", {}}};
  shape.vertex_buffers = {{kInstanceStride, WGPUVertexStepMode_Instance,
                           {{WGPUVertexFormat_Float32x2, 0, 0}, {WGPUVertexFormat_Float32x4, 16, 1}}}};
  shape.fragment = resources::ShaderStage{draw_module, "fs", {}};
  shape.targets = {resources::ColorTarget{}};
  auto triangle_pipeline = must(reg.create_render_pipeline(shape));
  shape.label = "squares";
  shape.vertex.entry_point = "square";
  auto square_pipeline = must(reg.create_render_pipeline(shape));

  const std::vector<uint32_t> want_args = expected_args();
  std::vector<std::vector<uint32_t>> args_seen;  // what each submitted frame's plan pass wrote

  auto render = [&]() -> Result<Serial> {
    auto frame = engine->begin_frame();
    if (!frame) return frame.error();
    if (auto objects = frame->use(plan, plan_group, place, place_group, triangle_pipeline, square_pipeline, args,
                                  triangles, squares, indices, target_view, args_readback)) {
      auto [planner, plan_bindings, placer, place_bindings, triangle_draw, square_draw, arguments, triangle_instances,
            square_instances, index_buffer, view, readback] = *objects;
      const gpu::Procs& p = engine->procs();
      WGPUComputePassEncoder compute = p.CommandEncoderBeginComputePass(frame->encoder(), nullptr);
      p.ComputePassEncoderSetPipeline(compute, planner);
      p.ComputePassEncoderSetBindGroup(compute, 0, plan_bindings, 0, nullptr);
      p.ComputePassEncoderDispatchWorkgroups(compute, 1, 1, 1);
      p.ComputePassEncoderEnd(compute);
      p.ComputePassEncoderRelease(compute);
      // A pass of its own: the arguments the plan wrote are visible to the indirect dispatch.
      compute = p.CommandEncoderBeginComputePass(frame->encoder(), nullptr);
      p.ComputePassEncoderSetPipeline(compute, placer);
      p.ComputePassEncoderSetBindGroup(compute, 0, place_bindings, 0, nullptr);
      p.ComputePassEncoderDispatchWorkgroupsIndirect(compute, arguments, kDispatchOffset);
      p.ComputePassEncoderEnd(compute);
      p.ComputePassEncoderRelease(compute);

      WGPURenderPassEncoder pass = gpu::begin_clear_pass(p, frame->encoder(), view, {0, 0, 0, 1});
      p.RenderPassEncoderSetPipeline(pass, triangle_draw);
      p.RenderPassEncoderSetVertexBuffer(pass, 0, triangle_instances, 0, WGPU_WHOLE_SIZE);
      p.RenderPassEncoderDrawIndirect(pass, arguments, kDrawOffset);
      p.RenderPassEncoderSetPipeline(pass, square_draw);
      p.RenderPassEncoderSetVertexBuffer(pass, 0, square_instances, 0, WGPU_WHOLE_SIZE);
      p.RenderPassEncoderSetIndexBuffer(pass, index_buffer, WGPUIndexFormat_Uint16, 0, WGPU_WHOLE_SIZE);
      p.RenderPassEncoderDrawIndexedIndirect(pass, arguments, kDrawIndexedOffset);
      p.RenderPassEncoderEnd(pass);
      p.RenderPassEncoderRelease(pass);
      p.CommandEncoderCopyBufferToBuffer(frame->encoder(), arguments, 0, readback, 0, kArgsBytes);
    }
    auto submitted = engine->submit(std::move(*frame));
    if (!submitted) return submitted;
    // Blocking, as a tool may: the arguments this frame's plan pass wrote.
    const auto bytes = must(engine->context().read_mapped(must(reg.resolve(args_readback)), kArgsBytes,
                                                          present::kReadbackTimeout));
    std::vector<uint32_t> seen(bytes.size() / 4);
    std::memcpy(seen.data(), bytes.data(), seen.size() * 4);
    args_seen.push_back(std::move(seen));
    return submitted;
  };
  example::draw_across_a_loss(*engine, render, target, argv[1], argv[2]);

  // The first frame and the one after the loss: the arguments, then the pictures.
  for (const auto* seen : {&args_seen.front(), &args_seen.back()}) {
    if (*seen != want_args) wrong("the compute pass wrote other indirect arguments than the scene asks for");
  }
  check_cells(must(present::read_png(argv[1])), argv[1]);
  check_cells(must(present::read_png(argv[2])), argv[2]);
  std::printf("gpu_driven: %u triangles, %u squares and %u workgroups decided on the GPU, drawn in both frames\n",
              want_args[1], want_args[5], want_args[9]);
  return 0;
}
