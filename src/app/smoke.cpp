#include "warden/app/smoke.h"

#include <chrono>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "warden/app/messages.h"
#include "warden/gpu/callback.h"
#include "warden/gpu/objects.h"

namespace warden::app {
namespace {

using namespace gpu;
constexpr std::chrono::milliseconds kTimeout{20000};

constexpr const char* kDoubleWgsl = R"(
@group(0) @binding(0) var<storage, read_write> values : array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  if (id.x < arrayLength(&values)) {
    values[id.x] = values[id.x] * 2u;
  }
}
)";

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

Ref<ShaderModule> make_module(const Procs& p, Device device, const char* code, const char* label) {
  return Ref<ShaderModule>(&p, create_wgsl_module(p, device, code, label));
}

Ref<Buffer> make_buffer(const Procs& p, Device device, uint64_t size, Flags usage, const char* label) {
  BufferDescriptor desc;
  desc.label = label;
  desc.size = size;
  desc.usage = usage;
  return Ref<Buffer>(&p, p.DeviceCreateBuffer(device, &desc));
}

void submit(const Procs& p, Queue queue, CommandEncoder encoder) {
  CommandBuffer commands = p.CommandEncoderFinish(encoder, nullptr);
  p.QueueSubmit(queue, 1, &commands);
  p.CommandBufferRelease(commands);
}

Result<void> run_compute(const Context& ctx, Device device, Queue queue, SmokeReport& report) {
  const Procs& p = ctx.procs();
  const uint64_t bytes = uint64_t{kSmokeComputeElements} * sizeof(uint32_t);
  std::vector<uint32_t> input(kSmokeComputeElements);
  for (uint32_t i = 0; i < kSmokeComputeElements; ++i) input[i] = i * 3u + 1u;

  auto module = make_module(p, device, kDoubleWgsl, "smoke double");
  ComputePipelineDescriptor pdesc;
  pdesc.label = "smoke double";
  pdesc.compute.module = module.get();
  pdesc.compute.entryPoint = "main";
  Ref<ComputePipeline> pipeline(&p, p.DeviceCreateComputePipeline(device, &pdesc));
  auto storage = make_buffer(p, device, bytes, BufferUsage::Storage | BufferUsage::CopyDst | BufferUsage::CopySrc, "smoke values");
  auto readback = make_buffer(p, device, bytes, BufferUsage::MapRead | BufferUsage::CopyDst, "smoke readback");

  Ref<BindGroupLayout> layout(&p, p.ComputePipelineGetBindGroupLayout(pipeline.get(), 0));
  BindGroupEntry entry;
  entry.binding = 0;
  entry.buffer = storage.get();
  entry.size = bytes;
  BindGroupDescriptor bdesc;
  bdesc.layout = layout.get();
  bdesc.entryCount = 1;
  bdesc.entries = &entry;
  Ref<BindGroup> group(&p, p.DeviceCreateBindGroup(device, &bdesc));

  auto start = std::chrono::steady_clock::now();
  p.QueueWriteBuffer(queue, storage.get(), 0, input.data(), bytes);
  Ref<CommandEncoder> encoder(&p, p.DeviceCreateCommandEncoder(device, nullptr));
  ComputePassEncoder pass = p.CommandEncoderBeginComputePass(encoder.get(), nullptr);
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

Result<void> run_render(const Context& ctx, Device device, Queue queue, SmokeReport& report) {
  const Procs& p = ctx.procs();
  constexpr uint32_t kSize = kSmokeTargetSize;
  constexpr uint32_t kRowBytes = kSize * 4;  // 256: already the copy alignment
  const Color clear{0.0, 0.0, 1.0, 1.0};
  report.expected_clear = {0, 0, 255, 255};
  report.expected_triangle = {255, 0, 255, 255};

  TextureDescriptor tdesc;
  tdesc.label = "smoke target";
  tdesc.size = {kSize, kSize, 1};
  tdesc.format = TextureFormat::RGBA8Unorm;
  tdesc.usage = TextureUsage::RenderAttachment | TextureUsage::CopySrc;
  Ref<Texture> target(&p, p.DeviceCreateTexture(device, &tdesc));
  Ref<TextureView> view(&p, p.TextureCreateView(target.get(), nullptr));

  auto module = make_module(p, device, kTriangleWgsl, "smoke triangle");
  VsFsPipelineDescription rdesc(module.get());
  rdesc.desc.label = "smoke triangle";
  Ref<RenderPipeline> pipeline(&p, p.DeviceCreateRenderPipeline(device, &rdesc.desc));

  auto readback = make_buffer(p, device, uint64_t{kRowBytes} * kSize, BufferUsage::MapRead | BufferUsage::CopyDst, "smoke pixels");
  Ref<CommandEncoder> encoder(&p, p.DeviceCreateCommandEncoder(device, nullptr));
  RenderPassEncoder pass = begin_clear_pass(p, encoder.get(), view.get(), clear);
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

Result<SmokeReport> run_smoke(const Context& ctx, Device device) {
  const Procs& p = ctx.procs();
  Ref<Queue> queue(&p, p.DeviceGetQueue(device));
  SmokeReport report;
  // Validation errors surface through an error scope so a broken declaration names itself.
  p.DevicePushErrorScope(device, ErrorFilter::Validation);
  auto compute = run_compute(ctx, device, queue.get(), report);
  auto render = compute ? run_render(ctx, device, queue.get(), report) : Result<void>(compute.error());
  struct Popped {
    ErrorType type = ErrorType::NoError;
    std::string message;
  } popped;
  auto on_popped = [&popped](PopErrorScopeStatus, ErrorType type, StringView message) {
    popped.type = type;
    popped.message = std::string(message.view());
  };
  const auto cb = borrowed_callback<PopErrorScopeCallbackInfo>(CallbackMode::WaitAnyOnly, on_popped);
  auto waited = ctx.wait(p.DevicePopErrorScope(device, cb), kTimeout);
  if (!render) return render.error();
  if (!waited) return waited.error();
  if (popped.type != ErrorType::NoError) {
    return make_error(
        ErrorKind::Validation, MessageId::SmokeJobGpuError,
        fmt::format("smoke job raised a {} error: {}", static_cast<uint32_t>(popped.type), popped.message));
  }
  return report;
}

}  // namespace warden::app
