#include "warden/app/smoke.h"

#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "warden/app/messages.h"
#include "warden/gpu/callback.h"
#include "warden/gpu/objects.h"

namespace warden::app {
namespace {

using namespace gpu;
constexpr std::chrono::milliseconds kTimeout{20000};

// The array is sized, and the dispatch covers it exactly: a runtime-sized array makes Dawn's GL
// backend pass its length through a uniform divided by a `mix(uint, uint, bool)` that GLSL 4.40
// lacks, and NVIDIA's GL (a 4.40 context there) refuses the pipeline ("implicit cast from float
// to uint").
static_assert(kSmokeComputeElements % 64 == 0);
const std::string kDoubleWgsl = fmt::format(R"(
@group(0) @binding(0) var<storage, read_write> values : array<u32, {}>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {{
  values[id.x] = values[id.x] * 2u;
}}
)", kSmokeComputeElements);

constexpr const char* kTriangleWgsl = R"(
@vertex
fn vs(@builtin(vertex_index) i : u32) -> @builtin(position) vec4<f32> {
  var p = array<vec2<f32>, 3>(vec2<f32>(-0.8, -0.8), vec2<f32>(0.8, -0.8), vec2<f32>(0.0, 0.8));
  return vec4<f32>(p[i], 0.0, 1.0);
}
@fragment
fn fs() -> @location(0) vec4<f32> {
  return vec4<f32>(1.0, 0.0, 1.0, 1.0);
}
)";

Ref<WGPUShaderModule> make_module(const Procs& p, WGPUDevice device, const char* code, const char* label) {
  return Ref<WGPUShaderModule>(&p, create_wgsl_module(p, device, code, label));
}

Ref<WGPUBuffer> make_buffer(const Procs& p, WGPUDevice device, uint64_t size, WGPUBufferUsage usage, const char* label) {
  WGPUBufferDescriptor desc{};
  desc.label = gpu::string_view(label);
  desc.size = size;
  desc.usage = usage;
  return Ref<WGPUBuffer>(&p, p.DeviceCreateBuffer(device, &desc));
}

void submit(const Procs& p, WGPUQueue queue, WGPUCommandEncoder encoder) {
  WGPUCommandBuffer commands = p.CommandEncoderFinish(encoder, nullptr);
  p.QueueSubmit(queue, 1, &commands);
  p.CommandBufferRelease(commands);
}

Result<void> run_compute(const Context& ctx, WGPUDevice device, WGPUQueue queue, SmokeReport& report) {
  const Procs& p = ctx.procs();
  const uint64_t bytes = uint64_t{kSmokeComputeElements} * sizeof(uint32_t);
  std::vector<uint32_t> input(kSmokeComputeElements);
  for (uint32_t i = 0; i < kSmokeComputeElements; ++i) input[i] = i * 3u + 1u;

  auto module = make_module(p, device, kDoubleWgsl.c_str(), "smoke double");
  WGPUComputePipelineDescriptor pdesc{};
  pdesc.label = gpu::string_view("smoke double");
  pdesc.compute.module = module.get();
  pdesc.compute.entryPoint = gpu::string_view("main");
  Ref<WGPUComputePipeline> pipeline(&p, p.DeviceCreateComputePipeline(device, &pdesc));
  auto storage = make_buffer(p, device, bytes, WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, "smoke values");
  auto readback = make_buffer(p, device, bytes, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, "smoke readback");

  Ref<WGPUBindGroupLayout> layout(&p, p.ComputePipelineGetBindGroupLayout(pipeline.get(), 0));
  WGPUBindGroupEntry entry{};
  entry.binding = 0;
  entry.buffer = storage.get();
  entry.size = bytes;
  WGPUBindGroupDescriptor bdesc{};
  bdesc.layout = layout.get();
  bdesc.entryCount = 1;
  bdesc.entries = &entry;
  Ref<WGPUBindGroup> group(&p, p.DeviceCreateBindGroup(device, &bdesc));

  auto start = std::chrono::steady_clock::now();
  p.QueueWriteBuffer(queue, storage.get(), 0, input.data(), bytes);
  Ref<WGPUCommandEncoder> encoder(&p, p.DeviceCreateCommandEncoder(device, nullptr));
  WGPUComputePassEncoder pass = p.CommandEncoderBeginComputePass(encoder.get(), nullptr);
  p.ComputePassEncoderSetPipeline(pass, pipeline.get());
  p.ComputePassEncoderSetBindGroup(pass, 0, group.get(), 0, nullptr);
  p.ComputePassEncoderDispatchWorkgroups(pass, kSmokeComputeElements / 64, 1, 1);
  p.ComputePassEncoderEnd(pass);
  p.ComputePassEncoderRelease(pass);
  p.CommandEncoderCopyBufferToBuffer(encoder.get(), storage.get(), 0, readback.get(), 0, bytes);
  submit(p, queue, encoder.get());
  auto data = ctx.read_mapped(readback.get(), bytes, kTimeout);
  if (!data) return data.error();
  report.compute_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

  const auto* out = reinterpret_cast<const uint32_t*>(data->data());
  report.compute_elements = kSmokeComputeElements;
  for (uint32_t i = 0; i < kSmokeComputeElements; ++i) {
    if (out[i] != input[i] * 2u) ++report.compute_mismatches;
  }
  return {};
}

Result<void> run_render(const Context& ctx, WGPUDevice device, WGPUQueue queue, SmokeReport& report) {
  const Procs& p = ctx.procs();
  constexpr uint32_t kSize = kSmokeTargetSize;
  constexpr uint32_t kRowBytes = kSize * 4;  // 256: already the copy alignment
  const WGPUColor clear{0.0, 0.0, 1.0, 1.0};
  report.expected_clear = {0, 0, 255, 255};
  report.expected_triangle = {255, 0, 255, 255};

  WGPUTextureDescriptor tdesc{};
  tdesc.dimension = WGPUTextureDimension_2D;
  tdesc.mipLevelCount = 1;
  tdesc.sampleCount = 1;
  tdesc.label = gpu::string_view("smoke target");
  tdesc.size = {kSize, kSize, 1};
  tdesc.format = WGPUTextureFormat_RGBA8Unorm;
  tdesc.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc;
  Ref<WGPUTexture> target(&p, p.DeviceCreateTexture(device, &tdesc));
  Ref<WGPUTextureView> view(&p, p.TextureCreateView(target.get(), nullptr));

  auto module = make_module(p, device, kTriangleWgsl, "smoke triangle");
  VsFsPipelineDescription rdesc(module.get());
  rdesc.desc.label = gpu::string_view("smoke triangle");
  Ref<WGPURenderPipeline> pipeline(&p, p.DeviceCreateRenderPipeline(device, &rdesc.desc));

  auto readback = make_buffer(p, device, uint64_t{kRowBytes} * kSize, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, "smoke pixels");
  Ref<WGPUCommandEncoder> encoder(&p, p.DeviceCreateCommandEncoder(device, nullptr));
  WGPURenderPassEncoder pass = begin_clear_pass(p, encoder.get(), view.get(), clear);
  p.RenderPassEncoderSetPipeline(pass, pipeline.get());
  p.RenderPassEncoderDraw(pass, 3, 1, 0, 0);
  p.RenderPassEncoderEnd(pass);
  p.RenderPassEncoderRelease(pass);
  copy_image_to_buffer(p, encoder.get(), target.get(), readback.get(), kSize, kSize, kRowBytes);
  submit(p, queue, encoder.get());
  auto pixels = ctx.read_mapped(readback.get(), uint64_t{kRowBytes} * kSize, kTimeout);
  if (!pixels) return pixels.error();
  auto pixel_at = [&](uint32_t x, uint32_t y) {
    std::array<uint8_t, 4> px{};
    std::memcpy(px.data(), pixels->data() + y * kRowBytes + x * 4, 4);
    return px;
  };
  report.center_pixel = pixel_at(kSize / 2, kSize / 2);
  report.corner_pixel = pixel_at(0, 0);
  return {};
}

}  // namespace

Result<SmokeReport> run_smoke(const Context& ctx, WGPUDevice device) {
  const Procs& p = ctx.procs();
  Ref<WGPUQueue> queue(&p, p.DeviceGetQueue(device));
  SmokeReport report;
  // Validation errors surface through an error scope so a broken declaration names itself.
  p.DevicePushErrorScope(device, WGPUErrorFilter_Validation);
  auto compute = run_compute(ctx, device, queue.get(), report);
  auto render = compute ? run_render(ctx, device, queue.get(), report) : Result<void>(compute.error());
  struct Popped {
    WGPUErrorType type = WGPUErrorType_NoError;
    std::string message;
  } popped;
  auto on_popped = [&popped](WGPUPopErrorScopeStatus, WGPUErrorType type, WGPUStringView message) {
    popped.type = type;
    popped.message = std::string(gpu::to_std(message));
  };
  const auto cb = borrowed_callback<WGPUPopErrorScopeCallbackInfo>(WGPUCallbackMode_WaitAnyOnly, on_popped);
  auto waited = ctx.wait(p.DevicePopErrorScope(device, cb), kTimeout);
  if (!render) return render.error();
  if (!waited) return waited.error();
  if (popped.type != WGPUErrorType_NoError) {
    return make_error(
        ErrorKind::Validation, MessageId::SmokeJobGpuError,
        fmt::format("smoke job raised a {} error: {}", static_cast<uint32_t>(popped.type), popped.message));
  }
  return report;
}

}  // namespace warden::app
