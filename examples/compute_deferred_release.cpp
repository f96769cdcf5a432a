// A compute job, recorded in an Engine frame, whose input buffer is destroyed right after the
// work that reads it is submitted. The handle dies at once; the GPU buffer is released only once the GPU is done with
// it (deferred release), which the registry's pending and released counts show. The shader
// doubles 4096 numbers; the program reads them back and exits 1 on any mismatch.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "warden/engine/engine.h"

using namespace warden;

namespace {

constexpr uint32_t kCount = 4096;
constexpr uint64_t kBytes = kCount * sizeof(uint32_t);
constexpr std::chrono::seconds kTimeout{20};

constexpr const char* kDoubleWgsl = R"(
@group(0) @binding(0) var<storage, read_write> values : array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  values[id.x] = values[id.x] * 2u;
}
)";

int fail(const char* step, const Error& error) {
  std::fprintf(stderr, "compute_deferred_release: %s: %s\n", step, error.message.c_str());
  return 1;
}

}  // namespace

int main() {
  uint32_t released = 0;
  engine::EngineOptions options;
  options.registry.on_release = [&released](const resources::ReleaseEvent&) { ++released; };
  auto created = engine::Engine::create(std::move(options));  // Vulkan on a GPU, else OpenGL
  if (!created) return fail("open a device", created.error());
  engine::Engine& engine = **created;
  resources::Registry& registry = engine.registry();
  std::printf("device: %s\n", engine.adapter_name().c_str());

  // The pipeline: one storage buffer at binding 0, visible to the compute stage.
  WGPUBindGroupLayoutEntry entry{};
  entry.binding = 0;
  entry.visibility = WGPUShaderStage_Compute;
  entry.buffer.type = WGPUBufferBindingType_Storage;
  auto group_layout = registry.create_bind_group_layout({&entry, 1}, "values layout");
  if (!group_layout) return fail("bind group layout", group_layout.error());
  auto pipeline_layout = registry.create_pipeline_layout({&*group_layout, 1}, "double layout");
  if (!pipeline_layout) return fail("pipeline layout", pipeline_layout.error());
  auto module = registry.create_shader_module(kDoubleWgsl, "double");
  if (!module) return fail("shader", module.error());
  auto pipeline = registry.create_compute_pipeline({"double", *pipeline_layout, {*module, "main", {}}});
  if (!pipeline) return fail("pipeline", pipeline.error());

  // The data: the input lives in `values`; the result is copied to `readback` for the CPU.
  std::vector<uint32_t> input(kCount);
  for (uint32_t i = 0; i < kCount; ++i) input[i] = i * 7 + 1;
  auto values = registry.create_buffer(
      {.size = kBytes, .usage = WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, .label = "values"});
  if (!values) return fail("values buffer", values.error());
  auto readback = registry.create_buffer({.size = kBytes, .usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, .label = "readback"});
  if (!readback) return fail("readback buffer", readback.error());
  if (auto written = registry.write_buffer(*values, 0, input.data(), kBytes); !written) {
    return fail("write values", written.error());
  }
  auto group = registry.create_bind_group({*group_layout, {{0, resources::BufferBinding{*values}}}, "values group"});
  if (!group) return fail("bind group", group.error());

  // Record: double in place, then copy to the readback buffer. frame->use() gives the objects
  // and marks each as used by the frame's submission (the group stands for the buffer it binds).
  auto frame = engine.begin_frame();
  if (!frame) return fail("begin frame", frame.error());
  auto objects = frame->use(*pipeline, *group, *values, *readback);
  if (!objects) return fail("use", objects.error());
  auto [doubling, bindings, values_buffer, readback_buffer] = *objects;
  const gpu::Procs& p = engine.procs();
  WGPUComputePassEncoder pass = p.CommandEncoderBeginComputePass(frame->encoder(), nullptr);
  p.ComputePassEncoderSetPipeline(pass, doubling);
  p.ComputePassEncoderSetBindGroup(pass, 0, bindings, 0, nullptr);
  p.ComputePassEncoderDispatchWorkgroups(pass, kCount / 64, 1, 1);
  p.ComputePassEncoderEnd(pass);
  p.ComputePassEncoderRelease(pass);
  p.CommandEncoderCopyBufferToBuffer(frame->encoder(), values_buffer, 0, readback_buffer, 0, kBytes);
  auto submitted = engine.submit(std::move(*frame));
  if (!submitted) return fail("submit", submitted.error());

  // Destroyed while the GPU may still be running the work: the handles are dead now...
  if (auto destroyed = registry.destroy_bind_group(*group); !destroyed) return fail("destroy group", destroyed.error());
  if (auto destroyed = registry.destroy_buffer(*values); !destroyed) return fail("destroy values", destroyed.error());
  if (registry.resolve(*values).ok()) {
    std::fprintf(stderr, "compute_deferred_release: the destroyed buffer's handle still resolves\n");
    return 1;
  }
  // ...the objects wait. An owned object goes once the submission being recorded when it was
  // destroyed has retired (work recorded before that submit may still use it): the next frame's.
  const size_t pending_after_destroy = registry.pending_release_count();
  const uint32_t released_after_destroy = released;
  std::printf("submitted #%llu, destroyed 'values' and its group: pending %zu, released %u (until #%llu retires)\n",
              static_cast<unsigned long long>(submitted->value), pending_after_destroy, released_after_destroy,
              static_cast<unsigned long long>(registry.clock().recording().value));

  // The next frame's submission (empty here). A frame loop calls engine.poll() once a frame
  // and never waits; a tool like this one may block until the queue is idle.
  auto next = engine.begin_frame();
  if (!next) return fail("begin frame", next.error());
  auto next_frame = engine.submit(std::move(*next));
  if (!next_frame) return fail("submit", next_frame.error());
  if (auto idle = engine.context().wait_queue_idle(engine.queue(), kTimeout); !idle) return fail("wait", idle.error());
  engine.poll();
  std::printf("after submission #%llu retired: pending %zu, released %u\n",
              static_cast<unsigned long long>(next_frame->value), registry.pending_release_count(), released);

  // Outside a frame, the object behind a handle comes from resolve(), checked like any Result.
  auto mappable = registry.resolve(*readback);
  if (!mappable) return fail("read back", mappable.error());
  auto bytes = engine.context().read_mapped(*mappable, kBytes, kTimeout);
  if (!bytes) return fail("read back", bytes.error());
  std::vector<uint32_t> output(kCount);
  std::memcpy(output.data(), bytes->data(), kBytes);
  uint32_t mismatches = 0;
  for (uint32_t i = 0; i < kCount; ++i) mismatches += output[i] != input[i] * 2 ? 1 : 0;

  const bool deferred = pending_after_destroy == 2 && released_after_destroy == 0;
  const bool drained = registry.pending_release_count() == 0 && released == 2;
  // The poll above told (on stderr) and counted any command the device refused.
  const bool whole = engine.counters().frames_with_errors == 0 && engine.counters().uncaptured_errors == 0;
  std::printf("%u of %u values doubled; release %s; %s\n", kCount - mismatches, kCount,
              deferred && drained ? "deferred, then done" : "NOT as expected",
              whole ? "no command refused" : "commands REFUSED by the device");
  return mismatches == 0 && deferred && drained && whole ? 0 : 1;
}
