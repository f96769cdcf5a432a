// Proof for what the registry's creation path rests on (docs/adr/0043): Dawn hands an error no
// error scope caught to the device's uncaptured-error callback on the thread that made the
// failing call, before that call returns, for the rejections a creation or a queue write meets
// (a descriptor the device refuses, WGSL that does not compile, a write out of range), on every backend here, and from
// a second thread of a synchronized device. gpu::ErrorCapture relies on it.
#include <gmock/gmock.h>

#include <atomic>
#include <string>
#include <thread>

#include "support/gpu_test.h"

namespace warden::gpu {
namespace {

// What the device's callback saw: how many errors, of which type, on which thread.
struct Seen {
  std::atomic<int> count{0};
  std::atomic<WGPUErrorType> type{WGPUErrorType_NoError};
  std::thread::id thread{};
  std::string message;
};

struct Opened {
  Ref<WGPUDevice> device;
  Ref<WGPUQueue> queue;
};

Opened open_with(Context& ctx, BackendChoice backend, Seen& seen) {
  auto adapter = ctx.select_adapter(backend);
  if (!adapter) {
    ADD_FAILURE() << adapter.error().message;
    return {};
  }
  DeviceOptions options;
  options.label = "abi uncaptured error";
  options.required_features = {WGPUFeatureName_ImplicitDeviceSynchronization};
  options.callbacks.on_uncaptured_error = [&seen](WGPUErrorType type, std::string_view message) {
    seen.thread = std::this_thread::get_id();
    seen.message = std::string(message);
    seen.type = type;
    seen.count.fetch_add(1);
  };
  auto device = ctx.request_device(adapter->adapter.get(), std::move(options));
  if (!device) {
    ADD_FAILURE() << device.error().message;
    return {};
  }
  Opened opened;
  opened.queue = Ref<WGPUQueue>(&ctx.procs(), ctx.procs().DeviceGetQueue(device->get()));
  opened.device = std::move(*device);
  return opened;
}

// Null, and the pixel tests' backend: GL here, Vulkan where WARDEN_TEST_BACKEND=vulkan.
std::vector<BackendChoice> backends() { return {BackendChoice::Null, warden::testing::pixel_test_backend()}; }

// Runs `fail` and checks that the callback saw exactly one error of `type` on this thread by the
// time it returned.
template <typename Fail>
void expect_reported_within_call(Seen& seen, WGPUErrorType type, const char* what, Fail&& fail) {
  const int before = seen.count.load();
  fail();
  EXPECT_EQ(seen.count.load(), before + 1) << what << ": the error was not reported before the call returned";
  EXPECT_EQ(seen.type.load(), type) << what << ": " << seen.message;
  EXPECT_EQ(seen.thread, std::this_thread::get_id()) << what;
}

TEST(AbiUncapturedError, ARejectedCallIsReportedOnItsThreadBeforeItReturns) {
  Context* ctx = warden::testing::shared_context();
  ASSERT_NE(ctx, nullptr);
  const Procs& p = ctx->procs();
  for (BackendChoice backend : backends()) {
    SCOPED_TRACE(to_string(backend));
    Seen seen;
    Opened opened = open_with(*ctx, backend, seen);
    ASSERT_TRUE(opened.device);
    WGPUDevice device = opened.device.get();

    expect_reported_within_call(seen, WGPUErrorType_Validation, "buffer with MapRead and Storage", [&] {
      WGPUBufferDescriptor d{};
      d.size = 16;
      d.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_Storage;
      Ref<WGPUBuffer> b(&p, p.DeviceCreateBuffer(device, &d));
    });
    expect_reported_within_call(seen, WGPUErrorType_Validation, "texture with a zero width", [&] {
      WGPUTextureDescriptor d{};
      d.size = {0, 4, 1};
      d.format = WGPUTextureFormat_RGBA8Unorm;
      d.usage = WGPUTextureUsage_TextureBinding;
      d.dimension = WGPUTextureDimension_2D;
      d.mipLevelCount = 1;
      d.sampleCount = 1;
      Ref<WGPUTexture> t(&p, p.DeviceCreateTexture(device, &d));
    });
    expect_reported_within_call(seen, WGPUErrorType_Validation, "WGSL that does not compile", [&] {
      WGPUShaderSourceWGSL wgsl{};
      wgsl.chain.sType = WGPUSType_ShaderSourceWGSL;
      wgsl.code = string_view("fn main( {");
      WGPUShaderModuleDescriptor d{};
      d.nextInChain = &wgsl.chain;
      Ref<WGPUShaderModule> m(&p, p.DeviceCreateShaderModule(device, &d));
    });
    expect_reported_within_call(seen, WGPUErrorType_Validation, "a queue write past a buffer's end", [&] {
      WGPUBufferDescriptor d{};
      d.size = 4;
      d.usage = WGPUBufferUsage_CopyDst;
      Ref<WGPUBuffer> b(&p, p.DeviceCreateBuffer(device, &d));
      const uint32_t words[4] = {};
      p.QueueWriteBuffer(opened.queue.get(), b.get(), 0, words, sizeof(words));
    });
    // From a second thread of the synchronized device: reported there, not here.
    std::thread::id worker_id;
    int before = seen.count.load();
    int during = -1;
    std::thread worker([&] {
      worker_id = std::this_thread::get_id();
      WGPUBufferDescriptor d{};
      d.size = 16;
      d.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_Storage;
      Ref<WGPUBuffer> b(&p, p.DeviceCreateBuffer(device, &d));
      during = seen.count.load();
    });
    worker.join();
    EXPECT_EQ(during, before + 1) << "the worker's error was not reported before its call returned";
    EXPECT_EQ(seen.thread, worker_id);
    opened.queue.reset();
    opened.device.reset();
    ctx->process_events();
  }
}

}  // namespace
}  // namespace warden::gpu
