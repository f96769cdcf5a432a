// warden::webgpu from several threads, as Dawn's contract with implicit device synchronization
// allows: objects made, written and recorded on worker threads, submitted on the device's thread,
// and all of it made again after a loss. Also run under ThreadSanitizer (`make test-tsan`).
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <webgpu/webgpu.h>

#include "warden/webgpu_h/warden_webgpu.h"

namespace {

WGPUStringView words_of(const char* s) { return WGPUStringView{s, WGPU_STRLEN}; }

TEST(WebgpuLibraryThreads, ObjectsMadeAndRecordedOnFourThreadsSurviveALoss) {
  WGPUInstance instance = wgpuCreateInstance(nullptr);
  ASSERT_NE(instance, nullptr);
  WGPURequestAdapterOptions options{};
  options.backendType = WGPUBackendType_Null;
  WGPUAdapter adapter = nullptr;
  WGPURequestAdapterCallbackInfo adapter_info{};
  adapter_info.mode = WGPUCallbackMode_AllowSpontaneous;
  adapter_info.userdata1 = &adapter;
  adapter_info.callback = [](WGPURequestAdapterStatus, WGPUAdapter a, WGPUStringView, void* out, void*) {
    *static_cast<WGPUAdapter*>(out) = a;
  };
  wgpuInstanceRequestAdapter(instance, &options, adapter_info);
  ASSERT_NE(adapter, nullptr);
  std::atomic<int> errors{0};
  WardenDeviceExtras extras = WARDEN_DEVICE_EXTRAS_INIT;
  extras.maxLosses = 4;
  WGPUDeviceDescriptor desc{};
  desc.nextInChain = &extras.chain;
  desc.uncapturedErrorCallbackInfo.userdata1 = &errors;
  desc.uncapturedErrorCallbackInfo.callback = [](const WGPUDevice*, WGPUErrorType, WGPUStringView message, void* count,
                                                 void*) {
    ++*static_cast<std::atomic<int>*>(count);
    ADD_FAILURE() << std::string(message.data, message.length == WGPU_STRLEN ? std::strlen(message.data) : message.length);
  };
  WGPUDevice device = nullptr;
  WGPURequestDeviceCallbackInfo device_info{};
  device_info.mode = WGPUCallbackMode_AllowSpontaneous;
  device_info.userdata1 = &device;
  device_info.callback = [](WGPURequestDeviceStatus, WGPUDevice d, WGPUStringView, void* out, void*) {
    *static_cast<WGPUDevice*>(out) = d;
  };
  wgpuAdapterRequestDevice(adapter, &desc, device_info);
  ASSERT_NE(device, nullptr);
  WGPUQueue queue = wgpuDeviceGetQueue(device);

  constexpr int kThreads = 4;
  constexpr int kBuffersPerThread = 25;
  std::vector<std::vector<WGPUBuffer>> buffers(kThreads);
  std::vector<WGPUCommandBuffer> recorded(kThreads);
  std::vector<std::thread> workers;
  for (int t = 0; t < kThreads; ++t) {
    workers.emplace_back([&, t] {
      WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(device, nullptr);
      for (int i = 0; i < kBuffersPerThread; ++i) {
        WGPUBufferDescriptor bd{};
        bd.label = words_of("threaded");
        bd.size = 64;
        bd.usage = WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst;
        WGPUBuffer buffer = wgpuDeviceCreateBuffer(device, &bd);
        const uint32_t value = static_cast<uint32_t>(t * 1000 + i);
        wgpuQueueWriteBuffer(queue, buffer, 0, &value, sizeof value);
        if (i > 0) wgpuCommandEncoderCopyBufferToBuffer(encoder, buffers[t].back(), 0, buffer, 4, 4);
        buffers[t].push_back(buffer);
      }
      recorded[t] = wgpuCommandEncoderFinish(encoder, nullptr);
      wgpuCommandEncoderRelease(encoder);
    });
  }
  for (std::thread& w : workers) w.join();
  wgpuQueueSubmit(queue, recorded.size(), recorded.data());
  for (WGPUCommandBuffer c : recorded) wgpuCommandBufferRelease(c);

  const uint64_t recoveries = wardenDeviceGetRecoveryCount(device);
  wgpuDeviceForceLoss(device, WGPUDeviceLostReason_Unknown, words_of("rehearsed with threads"));
  for (int i = 0; i < 5000 && wardenDeviceGetRecoveryCount(device) == recoveries; ++i) wgpuInstanceProcessEvents(instance);
  EXPECT_EQ(wardenDeviceGetRecoveryCount(device), recoveries + 1);
  // Every buffer made on the worker threads is back and usable on the new device, from them too.
  workers.clear();
  for (int t = 0; t < kThreads; ++t) {
    workers.emplace_back([&, t] {
      for (WGPUBuffer buffer : buffers[t]) {
        EXPECT_EQ(wgpuBufferGetSize(buffer), 64u);
        wgpuBufferRelease(buffer);
      }
    });
  }
  for (std::thread& w : workers) w.join();
  wgpuInstanceProcessEvents(instance);
  EXPECT_EQ(errors.load(), 0);
  wgpuQueueRelease(queue);
  wgpuDeviceRelease(device);
  wgpuAdapterRelease(adapter);
  wgpuInstanceRelease(instance);
}

}  // namespace
