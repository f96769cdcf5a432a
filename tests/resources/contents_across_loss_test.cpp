// What a buffer holds after a device loss (docs/adr/0013): bytes written through the mapping at
// creation are kept once unmap_buffer unmaps them; a buffer the GPU writes comes back with the
// bytes last written through warden, and the report says which ones those are.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "resources/registry_test_support.h"
#include "support/gpu_test.h"
#include "support/messages.h"

namespace warden::resources {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::FailsWith;
using testing::force_loss;
using testing::NullDeviceTest;

constexpr uint32_t kSide = 16;
constexpr uint32_t kRowBytes = 256;

constexpr const char* kTriangleWgsl = R"(
@vertex fn vs(@location(0) position : vec4<f32>) -> @builtin(position) vec4<f32> { return position; }
@fragment fn fs() -> @location(0) vec4<f32> { return vec4<f32>(0.25, 0.5, 0.75, 1.0); }
)";

// A triangle over the lower left half of the target, from a vertex buffer made mapped.
constexpr std::array<float, 12> kPositions = {-1.0f, -1.0f, 0.0f, 1.0f, 1.0f, -1.0f, 0.0f, 1.0f, -1.0f, 1.0f, 0.0f, 1.0f};

struct MappedScene {
  BufferHandle positions;
  TextureHandle target;
  TextureViewHandle target_view;
  BufferHandle readback;
  RenderPipelineHandle pipeline;
};

MappedScene build_mapped_scene(Registry& reg) {
  MappedScene s;
  // Vertex only, no CopyDst: its one way in is the mapping at creation.
  auto positions = reg.create_buffer({sizeof kPositions, WGPUBufferUsage_Vertex, true, "mapped positions"});
  EXPECT_TRUE(positions.ok()) << positions.error().message;
  s.positions = *positions;
  void* mapped = reg.procs().BufferGetMappedRange(*reg.resolve(s.positions), 0, sizeof kPositions);
  EXPECT_NE(mapped, nullptr);
  if (mapped != nullptr) std::memcpy(mapped, kPositions.data(), sizeof kPositions);
  EXPECT_TRUE(reg.unmap_buffer(s.positions).ok());
  s.target = *reg.create_texture({.size = {kSide, kSide, 1},
                                  .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc,
                                  .label = "target"});
  s.target_view = *reg.create_texture_view(s.target, {.label = "target view"});
  s.readback = *reg.create_buffer({kRowBytes * kSide, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, false, "readback"});
  auto module = reg.create_shader_module(kTriangleWgsl, "triangle");
  EXPECT_TRUE(module.ok());
  RenderPipelineDescription d;
  d.label = "triangle";
  d.vertex = {*module, "vs", {}};
  d.vertex_buffers = {VertexLayout{16, WGPUVertexStepMode_Vertex, {VertexAttribute{WGPUVertexFormat_Float32x4, 0, 0}}}};
  d.fragment = ShaderStage{*module, "fs", {}};
  d.targets = {ColorTarget{}};
  auto pipeline = reg.create_render_pipeline(d);
  EXPECT_TRUE(pipeline.ok()) << pipeline.error().message;
  s.pipeline = *pipeline;
  return s;
}

std::vector<uint8_t> render_mapped_scene(Registry& reg, const gpu::Context& context, const MappedScene& s) {
  const gpu::Procs& p = reg.procs();
  auto pipeline = reg.resolve(s.pipeline);
  auto positions = reg.resolve(s.positions);
  auto view = reg.resolve(s.target_view);
  auto target = reg.resolve(s.target);
  auto readback = reg.resolve(s.readback);
  if (!pipeline || !positions || !view || !target || !readback) {
    ADD_FAILURE() << "a scene handle does not resolve";
    return {};
  }
  WGPUCommandEncoder encoder = p.DeviceCreateCommandEncoder(reg.device(), nullptr);
  WGPURenderPassEncoder pass = gpu::begin_clear_pass(p, encoder, *view);
  p.RenderPassEncoderSetPipeline(pass, *pipeline);
  p.RenderPassEncoderSetVertexBuffer(pass, 0, *positions, 0, WGPU_WHOLE_SIZE);
  p.RenderPassEncoderDraw(pass, 3, 1, 0, 0);
  p.RenderPassEncoderEnd(pass);
  p.RenderPassEncoderRelease(pass);
  gpu::copy_image_to_buffer(p, encoder, *target, *readback, kSide, kSide, kRowBytes);
  WGPUCommandBuffer commands = p.CommandEncoderFinish(encoder, nullptr);
  reg.submit(commands);
  p.CommandBufferRelease(commands);
  p.CommandEncoderRelease(encoder);
  auto bytes = context.read_mapped(*readback, kRowBytes * kSide, testing::kSafetyNet);
  EXPECT_TRUE(bytes.ok()) << (bytes.ok() ? "" : bytes.error().message);
  return bytes.ok() ? *bytes : std::vector<uint8_t>{};
}

class MappedAtCreationAcrossLoss : public testing::GlDeviceTest {};

// A vertex buffer written through its mapping at creation and unmapped through warden draws the
// same triangle after a loss: its bytes were kept, and the rebuild writes them back through a
// mapping (the buffer has no CopyDst), reporting nothing lost.
TEST_F(MappedAtCreationAcrossLoss, BytesWrittenThroughTheMappingAreKeptAtUnmapAndDrawTheSameAfterALoss) {
  auto second = testing::open_test_device(testing::pixel_test_backend());
  ASSERT_NE(second, nullptr);
  auto reg = testing::make_registry(*dev);
  const MappedScene scene = build_mapped_scene(*reg);
  EXPECT_EQ(reg->live_counts().kept_content_bytes, sizeof kPositions);
  const std::vector<uint8_t> before = render_mapped_scene(*reg, *dev->context, scene);
  ASSERT_EQ(before.size(), kRowBytes * kSide);
  const uint8_t* inside = &before[(kSide - 2) * kRowBytes + 1 * 4];  // lower left: covered
  EXPECT_EQ(inside[3], 255);
  EXPECT_NEAR(inside[1], 128, 1);

  force_loss(*dev, *reg);
  const RebuildReport report = reg->rebuild(second->device.get(), second->queue.get(), 2);
  EXPECT_TRUE(report.failed.empty()) << report.failed.front();
  EXPECT_THAT(report.contents_lost.buffers, Not(Contains(scene.positions)));
  EXPECT_EQ(render_mapped_scene(*reg, *second->context, scene), before);
  EXPECT_TRUE(second->take_errors().empty());
  reg.reset();
  testing::close_device(second);
}

constexpr const char* kOverwriteWgsl = R"(
@group(0) @binding(0) var<storage, read_write> words : array<u32, 4>;
@compute @workgroup_size(1) fn overwrite() {
  for (var i = 0u; i < 4u; i = i + 1u) { words[i] = 9u; }
}
)";

// The words of `buffer` now: copied into a readback buffer and read (blocking: tests only).
std::vector<uint32_t> read_words(Registry& reg, const gpu::Context& context, BufferHandle buffer) {
  const gpu::Procs& p = reg.procs();
  auto readback = reg.create_buffer({16, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, false, "words readback"});
  if (!readback) return {};
  WGPUCommandEncoder encoder = p.DeviceCreateCommandEncoder(reg.device(), nullptr);
  p.CommandEncoderCopyBufferToBuffer(encoder, *reg.resolve(buffer), 0, *reg.resolve(*readback), 0, 16);
  WGPUCommandBuffer commands = p.CommandEncoderFinish(encoder, nullptr);
  reg.submit(commands);
  p.CommandBufferRelease(commands);
  p.CommandEncoderRelease(encoder);
  auto bytes = context.read_mapped(*reg.resolve(*readback), 16, testing::kSafetyNet);
  EXPECT_TRUE(bytes.ok()) << (bytes.ok() ? "" : bytes.error().message);
  (void)reg.destroy_buffer(*readback);
  if (!bytes.ok()) return {};
  std::vector<uint32_t> words(4);
  std::memcpy(words.data(), bytes->data(), 16);
  return words;
}

class GpuWrittenAcrossLoss : public testing::GlDeviceTest {};

// A storage buffer written through write_buffer and then by the GPU comes back with the bytes
// written through warden, not the GPU's and not zeroed; the report lists it as lost and says it
// holds kept bytes. One with ContentsSource::None comes back zeroed and is listed as lost only.
TEST_F(GpuWrittenAcrossLoss, AStorageBufferComesBackWithItsLastBytesWrittenThroughWardenAndTheReportSaysSo) {
  auto second = testing::open_test_device(testing::pixel_test_backend());
  ASSERT_NE(second, nullptr);
  auto reg = testing::make_registry(*dev);
  const WGPUBufferUsage usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
  auto kept = reg->create_buffer({16, usage, false, "kept words"});
  auto unkept = reg->create_buffer({16, usage, false, "unkept words", ContentsSource::None});
  ASSERT_TRUE(kept.ok() && unkept.ok());
  const std::array<uint32_t, 4> written = {1, 2, 3, 4};
  ASSERT_TRUE(reg->write_buffer(*kept, 0, written.data(), 16).ok());
  ASSERT_TRUE(reg->write_buffer(*unkept, 0, written.data(), 16).ok());

  const LayoutEntry entries[] = {
      {.binding = 0, .visibility = WGPUShaderStage_Compute, .type = BufferLayout{.type = WGPUBufferBindingType_Storage}}};
  auto layout = reg->create_bind_group_layout(pipelines::translate_layout_entries(entries), "words layout");
  ASSERT_TRUE(layout.ok());
  BindGroupLayoutHandle layouts[] = {*layout};
  auto pipeline_layout = reg->create_pipeline_layout(layouts, "words pipeline layout");
  auto module = reg->create_shader_module(kOverwriteWgsl, "overwrite");
  ASSERT_TRUE(pipeline_layout.ok() && module.ok());
  auto pipeline = reg->create_compute_pipeline({"overwrite", *pipeline_layout, {*module, "overwrite", {}}});
  ASSERT_TRUE(pipeline.ok()) << pipeline.error().message;
  auto kept_group = reg->create_bind_group({*layout, {{0, BufferBinding{*kept}}}, "kept group"});
  auto unkept_group = reg->create_bind_group({*layout, {{0, BufferBinding{*unkept}}}, "unkept group"});
  ASSERT_TRUE(kept_group.ok() && unkept_group.ok());
  const gpu::Procs& p = reg->procs();
  WGPUCommandEncoder encoder = p.DeviceCreateCommandEncoder(reg->device(), nullptr);
  WGPUComputePassEncoder pass = p.CommandEncoderBeginComputePass(encoder, nullptr);
  p.ComputePassEncoderSetPipeline(pass, *reg->resolve(*pipeline));
  for (BindGroupHandle group : {*kept_group, *unkept_group}) {
    p.ComputePassEncoderSetBindGroup(pass, 0, *reg->resolve(group), 0, nullptr);
    p.ComputePassEncoderDispatchWorkgroups(pass, 1, 1, 1);
  }
  p.ComputePassEncoderEnd(pass);
  p.ComputePassEncoderRelease(pass);
  WGPUCommandBuffer commands = p.CommandEncoderFinish(encoder, nullptr);
  reg->submit(commands);
  p.CommandBufferRelease(commands);
  p.CommandEncoderRelease(encoder);
  const std::vector<uint32_t> gpu_wrote = {9, 9, 9, 9};
  ASSERT_EQ(read_words(*reg, *dev->context, *kept), gpu_wrote);

  force_loss(*dev, *reg);
  const RebuildReport report = reg->rebuild(second->device.get(), second->queue.get(), 2);
  EXPECT_TRUE(report.failed.empty()) << report.failed.front();
  EXPECT_THAT(report.contents_lost.buffers, Contains(*kept));
  EXPECT_THAT(report.contents_lost.buffers, Contains(*unkept));
  EXPECT_EQ(report.contents_lost.buffers_with_kept_bytes, std::vector<BufferHandle>{*kept});
  EXPECT_EQ(read_words(*reg, *second->context, *kept), std::vector<uint32_t>(written.begin(), written.end()));
  EXPECT_EQ(read_words(*reg, *second->context, *unkept), std::vector<uint32_t>(4, 0u));
  EXPECT_TRUE(second->take_errors().empty());
  reg.reset();
  testing::close_device(second);
}

// unmap_buffer of a buffer that is not mapped says so; one unmapped behind warden's back keeps
// nothing and is reported lost.
TEST_F(NullDeviceTest, UnmapBufferRefusesABufferThatIsNotMappedAndABufferUnmappedElsewhereIsReportedLost) {
  auto reg = testing::make_registry(*dev);
  auto plain = reg->create_buffer({16, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, false, "never mapped"});
  ASSERT_TRUE(plain.ok());
  auto refused = reg->unmap_buffer(*plain);
  EXPECT_THAT(refused, FailsWith(MessageId::UnmapBufferNotMapped));
  EXPECT_EQ(refused.error().kind, ErrorKind::InvalidArgument);
  EXPECT_THAT(refused.error().message, HasSubstr("\"never mapped\""));

  auto elsewhere = reg->create_buffer({16, WGPUBufferUsage_Vertex, true, "unmapped elsewhere"});
  ASSERT_TRUE(elsewhere.ok());
  reg->procs().BufferUnmap(*reg->resolve(*elsewhere));
  EXPECT_EQ(reg->live_counts().kept_content_bytes, 0u);
  force_loss(*dev, *reg);
  auto second = testing::open_test_device(gpu::BackendChoice::Null);
  ASSERT_NE(second, nullptr);
  const RebuildReport report = reg->rebuild(second->device.get(), second->queue.get(), 2);
  EXPECT_THAT(report.contents_lost.buffers, Contains(*elsewhere));
  EXPECT_THAT(report.contents_lost.buffers, Not(Contains(*plain)));
  reg.reset();
  testing::close_device(second);
}

}  // namespace
}  // namespace warden::resources
