// A compute job whose input buffer is destroyed right after the work that reads it is
// submitted. The handle dies at once; the GPU buffer is released only once the GPU is done with
// it (deferred release), which the registry's pending and released counts show. The shader
// doubles 4096 numbers; the program reads them back and exits 1 on any mismatch.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "warden/resources/registry.h"
#include "warden/gpu/context.h"

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
  auto context = gpu::Context::create();
  if (!context) return fail("load webgpu", context.error());
  const gpu::Context& ctx = **context;
  auto opened = ctx.open_device(gpu::BackendChoice::Auto);
  if (!opened) return fail("open device", opened.error());
  std::printf("device: %s\n", opened->adapter.description.device.c_str());

  uint32_t released = 0;
  resources::RegistryOptions options;
  options.on_release = [&released](const resources::ReleaseEvent&) { ++released; };
  resources::Registry registry(ctx, opened->device.get(), opened->queue.get(), options);

  // The pipeline: one storage buffer at binding 0, visible to the compute stage.
  gpu::BindGroupLayoutEntry entry{};
  entry.binding = 0;
  entry.visibility = gpu::ShaderStage::Compute;
  entry.buffer.type = gpu::BufferBindingType::Storage;
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
  namespace usage = gpu::BufferUsage;
  auto values = registry.create_buffer({kBytes, usage::Storage | usage::CopySrc | usage::CopyDst, false, "values"});
  if (!values) return fail("values buffer", values.error());
  auto readback = registry.create_buffer({kBytes, usage::MapRead | usage::CopyDst, false, "readback"});
  if (!readback) return fail("readback buffer", readback.error());
  if (auto written = registry.write_buffer(*values, 0, input.data(), kBytes); !written) {
    return fail("write values", written.error());
  }
  auto group = registry.create_bind_group({*group_layout, {{0, resources::BufferBinding{*values}}}, "values group"});
  if (!group) return fail("bind group", group.error());

  // Record: double in place, then copy to the readback buffer. touch() marks each object as
  // used by the submission being recorded (the group stands for the buffer it binds).
  const gpu::Procs& p = ctx.procs();
  gpu::CommandEncoder encoder = p.DeviceCreateCommandEncoder(registry.device(), nullptr);
  gpu::ComputePassEncoder pass = p.CommandEncoderBeginComputePass(encoder, nullptr);
  p.ComputePassEncoderSetPipeline(pass, *registry.resolve(*pipeline));
  p.ComputePassEncoderSetBindGroup(pass, 0, *registry.resolve(*group), 0, nullptr);
  p.ComputePassEncoderDispatchWorkgroups(pass, kCount / 64, 1, 1);
  p.ComputePassEncoderEnd(pass);
  p.ComputePassEncoderRelease(pass);
  p.CommandEncoderCopyBufferToBuffer(encoder, *registry.resolve(*values), 0, *registry.resolve(*readback), 0, kBytes);
  registry.touch(*values);
  registry.touch(*readback);
  registry.touch(*pipeline);
  registry.touch(*group);
  gpu::CommandBuffer commands = p.CommandEncoderFinish(encoder, nullptr);
  const Serial submitted = registry.submit(commands);
  p.CommandBufferRelease(commands);
  p.CommandEncoderRelease(encoder);

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
              static_cast<unsigned long long>(submitted.value), pending_after_destroy, released_after_destroy,
              static_cast<unsigned long long>(registry.clock().recording().value));

  // The next frame's submission (empty here). A frame loop calls registry.poll() once a frame
  // and never waits; a tool like this one may block until the queue is idle.
  const Serial next_frame = registry.submit(nullptr, 0);
  if (auto idle = ctx.wait_queue_idle(registry.queue(), kTimeout); !idle) return fail("wait", idle.error());
  registry.poll();
  std::printf("after submission #%llu retired: pending %zu, released %u\n",
              static_cast<unsigned long long>(next_frame.value), registry.pending_release_count(), released);

  auto bytes = ctx.read_mapped(*registry.resolve(*readback), kBytes, kTimeout);
  if (!bytes) return fail("read back", bytes.error());
  std::vector<uint32_t> output(kCount);
  std::memcpy(output.data(), bytes->data(), kBytes);
  uint32_t mismatches = 0;
  for (uint32_t i = 0; i < kCount; ++i) mismatches += output[i] != input[i] * 2 ? 1 : 0;

  const bool deferred = pending_after_destroy == 2 && released_after_destroy == 0;
  const bool drained = registry.pending_release_count() == 0 && released == 2;
  std::printf("%u of %u values doubled; release %s\n", kCount - mismatches, kCount,
              deferred && drained ? "deferred, then done" : "NOT as expected");
  return mismatches == 0 && deferred && drained ? 0 : 1;
}
