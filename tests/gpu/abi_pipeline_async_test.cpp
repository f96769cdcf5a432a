// Proves the asynchronous pipeline-creation declarations against the real library: the
// statuses (success, validation error, cancelled), the callback's argument order and both
// userdata pointers, and that a pipeline delivered by the callback draws.
#include <gmock/gmock.h>

#include <chrono>
#include <string>
#include <type_traits>

#include "support/gpu_test.h"
#include "support/poll_until.h"
#include "warden/gpu/objects.h"

namespace warden::gpu {
namespace {

using testing::GlDeviceTest;
using testing::NullDeviceTest;
using ::testing::HasSubstr;


template <typename Pipeline>
struct AsyncOutcome {
  int calls = 0;
  WGPUCreatePipelineAsyncStatus status{};
  Pipeline pipeline = nullptr;
  std::string message;
  void* userdata2 = nullptr;
};

template <typename Pipeline>
using AsyncCallbackInfo = std::conditional_t<std::is_same_v<Pipeline, WGPURenderPipeline>,
                                             WGPUCreateRenderPipelineAsyncCallbackInfo,
                                             WGPUCreateComputePipelineAsyncCallbackInfo>;

template <typename Pipeline>
AsyncCallbackInfo<Pipeline> collect_into(AsyncOutcome<Pipeline>& out, WGPUCallbackMode mode, void* userdata2) {
  AsyncCallbackInfo<Pipeline> info{};
  info.mode = mode;
  info.userdata1 = &out;
  info.userdata2 = userdata2;
  info.callback = [](WGPUCreatePipelineAsyncStatus s, Pipeline p, WGPUStringView m, void* u1, void* u2) {
    auto* o = static_cast<AsyncOutcome<Pipeline>*>(u1);
    ++o->calls;
    o->status = s;
    o->pipeline = p;
    o->message = std::string(gpu::to_std(m));
    o->userdata2 = u2;
  };
  return info;
}

Ref<WGPUShaderModule> compute_module(const Procs& p, WGPUDevice device) {
  return Ref<WGPUShaderModule>(&p, create_wgsl_module(p, device, "@compute @workgroup_size(1) fn main() {}\n", "async"));
}

TEST_F(NullDeviceTest, CreateComputePipelineAsyncDeliversSuccessAndBothUserdata) {
  const Procs& p = dev->procs();
  auto module = compute_module(p, dev->device.get());
  WGPUComputePipelineDescriptor desc{};
  desc.compute.module = module.get();
  desc.compute.entryPoint = gpu::string_view("main");
  AsyncOutcome<WGPUComputePipeline> out;
  int marker = 0;
  WGPUFuture f = p.DeviceCreateComputePipelineAsync(dev->device.get(), &desc, collect_into(out, WGPUCallbackMode_WaitAnyOnly, &marker));
  EXPECT_NE(f.id, 0u);
  ASSERT_TRUE(dev->context->wait(f, testing::kSafetyNet).ok());
  EXPECT_EQ(out.calls, 1);
  EXPECT_EQ(out.status, WGPUCreatePipelineAsyncStatus_Success);
  EXPECT_EQ(out.userdata2, &marker);
  EXPECT_TRUE(out.message.empty()) << out.message;
  ASSERT_NE(out.pipeline, nullptr);
  Ref<WGPUComputePipeline> pipeline(&p, out.pipeline);
  Ref<WGPUBindGroupLayout> layout(&p, p.ComputePipelineGetBindGroupLayout(pipeline.get(), 0));
  EXPECT_NE(layout.get(), nullptr);
  EXPECT_TRUE(dev->take_errors().empty());
}

TEST_F(NullDeviceTest, CreatePipelineAsyncReportsValidationErrorWithTheMessageAndNoPipeline) {
  const Procs& p = dev->procs();
  auto module = compute_module(p, dev->device.get());
  WGPUComputePipelineDescriptor desc{};
  desc.label = gpu::string_view("async label");
  desc.compute.module = module.get();
  desc.compute.entryPoint = gpu::string_view("no_such_entry");
  AsyncOutcome<WGPUComputePipeline> out;
  ASSERT_TRUE(dev->context->wait(
      p.DeviceCreateComputePipelineAsync(dev->device.get(), &desc, collect_into(out, WGPUCallbackMode_WaitAnyOnly, nullptr)),
      testing::kSafetyNet).ok());
  EXPECT_EQ(out.calls, 1);
  EXPECT_EQ(out.status, WGPUCreatePipelineAsyncStatus_ValidationError);
  EXPECT_EQ(out.pipeline, nullptr);
  EXPECT_THAT(out.message, HasSubstr("no_such_entry"));
  // The error went to the callback, not to the device's uncaptured-error callback.
  EXPECT_TRUE(dev->take_errors().empty());
}

TEST_F(NullDeviceTest, AllowProcessEventsCallbackArrivesFromProcessEventsNotFromTheCall) {
  const Procs& p = dev->procs();
  auto module = compute_module(p, dev->device.get());
  WGPUComputePipelineDescriptor desc{};
  desc.compute.module = module.get();
  desc.compute.entryPoint = gpu::string_view("main");
  AsyncOutcome<WGPUComputePipeline> out;
  (void)p.DeviceCreateComputePipelineAsync(dev->device.get(), &desc, collect_into(out, WGPUCallbackMode_AllowProcessEvents, nullptr));
  EXPECT_EQ(out.calls, 0) << "a callback in AllowProcessEvents mode never runs inside the call";
  const auto deadline = std::chrono::steady_clock::now() + testing::kSafetyNet;
  while (out.calls == 0 && std::chrono::steady_clock::now() < deadline) dev->context->process_events();
  ASSERT_EQ(out.calls, 1);
  EXPECT_EQ(out.status, WGPUCreatePipelineAsyncStatus_Success);
  Ref<WGPUComputePipeline> pipeline(&p, out.pipeline);
  EXPECT_NE(pipeline.get(), nullptr);
}

TEST(AbiPipelineAsync, DroppingTheInstanceCancelsAPendingCallback) {
  Context* shared = testing::shared_context();
  ASSERT_NE(shared, nullptr);
  AsyncOutcome<WGPUComputePipeline> out;
  {
    auto own = Context::create(shared->library_ptr());
    ASSERT_TRUE(own.ok()) << own.error().message;
    auto opened = own.value()->open_device(BackendChoice::Null);
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    const Procs& p = own.value()->procs();
    auto module = compute_module(p, opened->device.get());
    WGPUComputePipelineDescriptor desc{};
    desc.compute.module = module.get();
    desc.compute.entryPoint = gpu::string_view("main");
    (void)p.DeviceCreateComputePipelineAsync(opened->device.get(), &desc,
                                             collect_into(out, WGPUCallbackMode_AllowProcessEvents, nullptr));
    module.reset();
    opened->queue.reset();
    opened->device.reset();
    opened->adapter.adapter.reset();
  }  // the instance goes here, with the callback never delivered by ProcessEvents
  EXPECT_EQ(out.calls, 1);
  EXPECT_EQ(out.status, WGPUCreatePipelineAsyncStatus_CallbackCancelled);
  EXPECT_EQ(out.pipeline, nullptr);
}

TEST_F(GlDeviceTest, RenderPipelineFromTheAsyncCallbackDraws) {
  const Procs& p = dev->procs();
  Ref<WGPUShaderModule> module(&p, create_wgsl_module(p, dev->device.get(), R"(
@vertex fn vs(@builtin(vertex_index) i : u32) -> @builtin(position) vec4<f32> {
  var q = array<vec2<f32>, 3>(vec2<f32>(-1.0, -1.0), vec2<f32>(3.0, -1.0), vec2<f32>(-1.0, 3.0));
  return vec4<f32>(q[i], 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4<f32> { return vec4<f32>(0.0, 1.0, 0.0, 1.0); }
)", "async draw"));
  VsFsPipelineDescription desc(module.get(), WGPUTextureFormat_RGBA8Unorm);
  AsyncOutcome<WGPURenderPipeline> out;
  ASSERT_TRUE(dev->context->wait(p.DeviceCreateRenderPipelineAsync(dev->device.get(), &desc.desc,
                                                                   collect_into(out, WGPUCallbackMode_WaitAnyOnly, nullptr)),
                                 testing::kSafetyNet).ok());
  ASSERT_EQ(out.status, WGPUCreatePipelineAsyncStatus_Success) << out.message;
  Ref<WGPURenderPipeline> pipeline(&p, out.pipeline);
  ASSERT_NE(pipeline.get(), nullptr);

  constexpr uint32_t kSize = 64;  // 64 texels of 4 bytes: rows already 256-byte aligned
  WGPUTextureDescriptor tdesc{};
  tdesc.dimension = WGPUTextureDimension_2D;
  tdesc.mipLevelCount = 1;
  tdesc.sampleCount = 1;
  tdesc.size = {kSize, kSize, 1};
  tdesc.format = WGPUTextureFormat_RGBA8Unorm;
  tdesc.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc;
  Ref<WGPUTexture> target(&p, p.DeviceCreateTexture(dev->device.get(), &tdesc));
  Ref<WGPUTextureView> view(&p, p.TextureCreateView(target.get(), nullptr));
  WGPUBufferDescriptor bdesc{};
  bdesc.size = uint64_t{kSize} * kSize * 4;
  bdesc.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
  Ref<WGPUBuffer> readback(&p, p.DeviceCreateBuffer(dev->device.get(), &bdesc));
  Ref<WGPUCommandEncoder> encoder(&p, p.DeviceCreateCommandEncoder(dev->device.get(), nullptr));
  WGPURenderPassEncoder pass = begin_clear_pass(p, encoder.get(), view.get(), {0.0, 0.0, 0.0, 1.0});
  p.RenderPassEncoderSetPipeline(pass, pipeline.get());
  p.RenderPassEncoderDraw(pass, 3, 1, 0, 0);
  p.RenderPassEncoderEnd(pass);
  p.RenderPassEncoderRelease(pass);
  copy_image_to_buffer(p, encoder.get(), target.get(), readback.get(), kSize, kSize, kSize * 4);
  WGPUCommandBuffer commands = p.CommandEncoderFinish(encoder.get(), nullptr);
  p.QueueSubmit(dev->queue.get(), 1, &commands);
  p.CommandBufferRelease(commands);
  auto pixels = dev->context->read_mapped(readback.get(), bdesc.size, testing::kSafetyNet);
  ASSERT_TRUE(pixels.ok()) << pixels.error().message;
  const uint8_t* centre = pixels->data() + (kSize / 2 * kSize + kSize / 2) * 4;
  EXPECT_EQ(centre[0], 0);
  EXPECT_EQ(centre[1], 255);
  EXPECT_EQ(centre[2], 0);
  EXPECT_TRUE(dev->take_errors().empty());
}

}  // namespace
}  // namespace warden::gpu
