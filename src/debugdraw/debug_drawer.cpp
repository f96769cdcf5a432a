#include "warden/debugdraw/debug_drawer.h"

#include <cstring>

#include <fmt/format.h>

namespace warden::debugdraw {
namespace {

constexpr const char* kLinesWgsl = R"(
struct Frame { clip_from_world : mat4x4<f32> }
@group(0) @binding(0) var<uniform> frame : Frame;
struct Out {
  @builtin(position) position : vec4<f32>,
  @location(0) colour : vec4<f32>,
}
@vertex fn vs(@location(0) position : vec3<f32>, @location(1) colour : u32) -> Out {
  var out : Out;
  out.position = frame.clip_from_world * vec4<f32>(position, 1.0);
  out.colour = unpack4x8unorm(colour);
  return out;
}
@fragment fn fs(in : Out) -> @location(0) vec4<f32> { return in.colour; }
)";

constexpr uint64_t kMatrixBytes = sizeof(present::Mat4::m);
constexpr WGPUBufferUsage kBufferUsage = WGPUBufferUsage_Vertex | WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst;

}  // namespace

resources::BufferDescription DebugDrawer::buffer_description(uint64_t size) {
  // After a device loss the buffer is written again from staging_, which holds the last upload
  // already: no copy kept in the registry, written every frame. The drawer owns the buffer, so
  // the recipe (and `this` in it) goes with the drawer.
  return {.size = size,
          .usage = kBufferUsage,
          .label = options_.label + " lines",
          .contents = resources::ContentsSource::Callback,
          .refill = [this](resources::Registry& registry, BufferHandle buffer) {
            if (staging_.empty()) return;
            (void)registry.write_buffer(buffer, 0, staging_.data(), staging_.size());
          }};
}

Result<std::unique_ptr<DebugDrawer>> DebugDrawer::create(resources::Registry& registry, DebugDrawerOptions options) {
  if (options.initial_capacity_bytes <= kVertexOffset) {
    const ErrorObject drawer{"debug drawer", {}, {}, options.label};
    return make_error(ErrorKind::InvalidArgument, MessageId::DebugDrawerCapacityTooSmall, drawer,
                      fmt::format("{} \"{}\": initial capacity {} bytes leaves no room for vertices "
                                  "after the {}-byte matrix block", drawer.kind, *drawer.label, options.initial_capacity_bytes,
                                  kVertexOffset));
  }
  std::unique_ptr<DebugDrawer> drawer(new DebugDrawer(registry, std::move(options)));
  if (auto built = drawer->build(); !built) return built.error();
  return drawer;
}

Result<void> DebugDrawer::build() {
  const std::string& label = options_.label;
  auto shader = registry_.create_shader_module(kLinesWgsl, label);
  if (!shader) return shader.error();
  shader_ = *shader;

  WGPUBindGroupLayoutEntry entry{};
  entry.binding = 0;
  entry.visibility = WGPUShaderStage_Vertex;
  entry.buffer.type = WGPUBufferBindingType_Uniform;
  entry.buffer.minBindingSize = kMatrixBytes;
  auto group_layout = registry_.create_bind_group_layout({&entry, 1}, label);
  if (!group_layout) return group_layout.error();
  group_layout_ = *group_layout;
  const BindGroupLayoutHandle layouts[] = {group_layout_};
  auto pipeline_layout = registry_.create_pipeline_layout(layouts, label);
  if (!pipeline_layout) return pipeline_layout.error();
  pipeline_layout_ = *pipeline_layout;

  resources::RenderPipelineDescription desc;
  desc.label = label;
  desc.layout = pipeline_layout_;
  desc.vertex = {shader_, "vs", {}};
  desc.vertex_buffers = {{sizeof(LineVertex), WGPUVertexStepMode_Vertex,
                          {{WGPUVertexFormat_Float32x3, offsetof(LineVertex, x), 0},
                           {WGPUVertexFormat_Uint32, offsetof(LineVertex, colour), 1}}}};
  desc.topology = WGPUPrimitiveTopology_LineList;
  // Lines sit on surfaces: they are tested against the scene's depth but do not write it.
  if (options_.depth_test) desc.depth = present::reverse_z_depth(/*write=*/false);
  desc.fragment = resources::ShaderStage{shader_, "fs", {}};
  desc.targets = {resources::ColorTarget{.format = options_.colour_format}};
  auto pipeline = registry_.create_render_pipeline(desc);
  if (!pipeline) return pipeline.error();
  pipeline_ = *pipeline;

  auto buffer = registry_.create_buffer(buffer_description(options_.initial_capacity_bytes));
  if (!buffer) return buffer.error();
  buffer_ = *buffer;
  capacity_ = options_.initial_capacity_bytes;
  auto group = registry_.create_bind_group(
      {.layout = group_layout_, .entries = {{0, resources::BufferBinding{buffer_, 0, kMatrixBytes}}}, .label = label});
  if (!group) return group.error();
  bind_group_ = *group;
  return {};
}

DebugDrawer::~DebugDrawer() {
  (void)registry_.destroy_bind_group(bind_group_);
  (void)registry_.destroy_render_pipeline(pipeline_);
  (void)registry_.destroy_pipeline_layout(pipeline_layout_);
  (void)registry_.destroy_bind_group_layout(group_layout_);
  (void)registry_.destroy_shader_module(shader_);
  (void)registry_.destroy_buffer(buffer_);
}

Result<void> DebugDrawer::grow_to(uint64_t needed) {
  uint64_t capacity = capacity_;
  while (capacity < needed) capacity *= 2;
  // Same handle, and a recipe of the new size, so a rebuild after a device loss makes this
  // buffer; the registry makes the bind group again too (it names the buffer object itself).
  // The smaller buffer is let go once the last frame that drew from it retired.
  if (auto grown = registry_.recreate_buffer(buffer_, buffer_description(capacity)); !grown) {
    const Error& error = grown.error();
    if (error.kind != ErrorKind::Validation) return grown;  // the registry's own (limits, device lost): its id
    return make_error(ErrorKind::Validation, MessageId::DebugDrawerBufferNotCreated,
                      fmt::format("debug drawer \"{}\": the device made no {}-byte buffer: {}", options_.label,
                                  capacity, error.message));
  }
  capacity_ = capacity;
  ++grows_;
  return {};
}

Result<void> DebugDrawer::upload(const LineList& lines, const present::Mat4& clip_from_world) {
  const auto vertices = lines.vertices();
  const uint64_t vertex_bytes = vertices.size_bytes();
  const uint64_t needed = kVertexOffset + vertex_bytes;
  if (needed > capacity_) {
    if (auto grown = grow_to(needed); !grown) return grown;
  }
  staging_.resize(needed);
  std::memcpy(staging_.data(), clip_from_world.m.data(), kMatrixBytes);
  if (vertex_bytes > 0) std::memcpy(staging_.data() + kVertexOffset, vertices.data(), vertex_bytes);
  if (auto written = registry_.write_buffer(buffer_, 0, staging_.data(), staging_.size()); !written) return written;
  vertex_count_ = static_cast<uint32_t>(vertices.size());
  ++uploads_;
  return {};
}

void DebugDrawer::draw(WGPURenderPassEncoder pass) {
  if (vertex_count_ == 0) return;
  auto pipeline = registry_.resolve(pipeline_);
  auto group = registry_.resolve(bind_group_);
  auto buffer = registry_.resolve(buffer_);
  // A slot a new device refused is Failed, and the rebuild's report named it: nothing to draw with.
  if (!pipeline || !group || !buffer) return;
  const gpu::Procs& procs = registry_.procs();
  procs.RenderPassEncoderSetPipeline(pass, *pipeline);
  procs.RenderPassEncoderSetBindGroup(pass, 0, *group, 0, nullptr);
  procs.RenderPassEncoderSetVertexBuffer(pass, 0, *buffer, kVertexOffset, uint64_t{vertex_count_} * sizeof(LineVertex));
  procs.RenderPassEncoderDraw(pass, vertex_count_, 1, 0, 0);
  registry_.touch(pipeline_);
  registry_.touch(bind_group_);
  registry_.touch(buffer_);
}

}  // namespace warden::debugdraw
