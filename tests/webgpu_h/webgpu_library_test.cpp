// warden::webgpu driven through its exported webgpu.h entry points, as a C++ program written for
// webgpu.h would: real Dawn (GL over llvmpipe for pixels, Null for validation-only checks).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <webgpu/webgpu.h>
#include <webgpu/warden_procs.inc>

#include "support/xvfb.h"
#include "warden/gpu/objects.h"
#include "warden/webgpu_h/warden_webgpu.h"

namespace {

// The library's own exports as a proc table, so that the tests call warden's gpu:: helpers
// (create_wgsl_module, begin_clear_pass, copy_image_to_buffer) through warden::webgpu.
const warden::gpu::Procs& exported() {
  static const warden::gpu::Procs table = [] {
    warden::gpu::Procs procs{};
#define WARDEN_TEST_EXPORTED_PROC(Ret, Name, Params) procs.Name = &wgpu##Name;
    WARDEN_WEBGPU_PROCS(WARDEN_TEST_EXPORTED_PROC)
#undef WARDEN_TEST_EXPORTED_PROC
    return procs;
  }();
  return table;
}

WGPUStringView text(const char* s) { return WGPUStringView{s, WGPU_STRLEN}; }

std::string words(WGPUStringView s) {
  if (s.data == nullptr) return {};
  return s.length == WGPU_STRLEN ? std::string(s.data) : std::string(s.data, s.length);
}

// What a test's device reported.
struct Heard {
  std::vector<std::string> errors;
  std::vector<WardenRecoveryEvent> recovery;
  std::vector<WGPUDeviceLostReason> lost;
  std::vector<WGPUBuffer> contents_lost_buffers;
};

// An instance, an adapter of `backend` and a device with a recovery callback, all through the
// exported entry points.
class Library {
 public:
  explicit Library(WGPUBackendType backend, uint32_t max_losses = 0) {
    instance = wgpuCreateInstance(nullptr);
    if (instance == nullptr) return;
    WGPURequestAdapterOptions options{};
    options.backendType = backend;
    WGPURequestAdapterCallbackInfo adapter_info{};
    adapter_info.mode = WGPUCallbackMode_AllowSpontaneous;
    adapter_info.callback = [](WGPURequestAdapterStatus, WGPUAdapter adapter, WGPUStringView, void* self, void*) {
      static_cast<Library*>(self)->adapter = adapter;
    };
    adapter_info.userdata1 = this;
    wgpuInstanceRequestAdapter(instance, &options, adapter_info);
    if (adapter == nullptr) return;

    WardenDeviceExtras extras = WARDEN_DEVICE_EXTRAS_INIT;
    extras.maxLosses = max_losses;
    extras.userdata = &heard;
    extras.recoveryCallback = [](WGPUDevice, const WardenRecoveryInfo* info, void* userdata) {
      auto* heard = static_cast<Heard*>(userdata);
      heard->recovery.push_back(info->event);
      for (size_t i = 0; i < info->bufferCount; ++i) heard->contents_lost_buffers.push_back(info->buffers[i]);
    };
    WGPUDeviceDescriptor desc{};
    desc.nextInChain = &extras.chain;
    desc.uncapturedErrorCallbackInfo.userdata1 = &heard;
    desc.uncapturedErrorCallbackInfo.callback = [](const WGPUDevice*, WGPUErrorType, WGPUStringView message, void* h,
                                                   void*) { static_cast<Heard*>(h)->errors.push_back(words(message)); };
    desc.deviceLostCallbackInfo.mode = WGPUCallbackMode_AllowSpontaneous;
    desc.deviceLostCallbackInfo.userdata1 = &heard;
    desc.deviceLostCallbackInfo.callback = [](const WGPUDevice*, WGPUDeviceLostReason reason, WGPUStringView, void* h,
                                              void*) { static_cast<Heard*>(h)->lost.push_back(reason); };
    WGPURequestDeviceCallbackInfo device_info{};
    device_info.mode = WGPUCallbackMode_AllowSpontaneous;
    device_info.userdata1 = this;
    device_info.callback = [](WGPURequestDeviceStatus, WGPUDevice device, WGPUStringView, void* self, void*) {
      static_cast<Library*>(self)->device = device;
    };
    wgpuAdapterRequestDevice(adapter, &desc, device_info);
    if (device != nullptr) queue = wgpuDeviceGetQueue(device);
  }
  ~Library() {
    if (queue != nullptr) wgpuQueueRelease(queue);
    if (device != nullptr) wgpuDeviceRelease(device);
    if (adapter != nullptr) wgpuAdapterRelease(adapter);
    if (instance != nullptr) wgpuInstanceRelease(instance);
  }
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;

  WGPUBuffer buffer(uint64_t size, WGPUBufferUsage usage, const char* label) const {
    WGPUBufferDescriptor desc{};
    desc.label = text(label);
    desc.size = size;
    desc.usage = usage;
    return wgpuDeviceCreateBuffer(device, &desc);
  }

  void lose(const char* why = "rehearsed by a test") {
    wgpuDeviceForceLoss(device, WGPUDeviceLostReason_Unknown, text(why));
    wgpuInstanceProcessEvents(instance);
  }

  // A loss, then ProcessEvents until warden has recovered from it (a bounded number of times).
  bool lose_and_recover() {
    const uint64_t recoveries = wardenDeviceGetRecoveryCount(device);
    lose();
    return recover_from(recoveries);
  }

  // What another device request of this adapter for `desc` was answered.
  struct DeviceAnswer {
    bool called = false;
    WGPURequestDeviceStatus status = WGPURequestDeviceStatus_Success;
    WGPUDevice device = nullptr;
    std::string message;
  };
  DeviceAnswer request_device(const WGPUDeviceDescriptor& desc) const {
    DeviceAnswer answer;
    WGPURequestDeviceCallbackInfo info{};
    info.mode = WGPUCallbackMode_AllowProcessEvents;
    info.userdata1 = &answer;
    info.callback = [](WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message, void* out, void*) {
      *static_cast<DeviceAnswer*>(out) = {true, status, device, words(message)};
    };
    wgpuAdapterRequestDevice(adapter, &desc, info);
    for (int i = 0; i < 100 && !answer.called; ++i) wgpuInstanceProcessEvents(instance);
    return answer;
  }

  // ProcessEvents until the device has had one recovery more than `recoveries`.
  bool recover_from(uint64_t recoveries) const {
    for (int i = 0; i < 5000 && wardenDeviceGetRecoveryCount(device) == recoveries; ++i) {
      wgpuInstanceProcessEvents(instance);
    }
    return wardenDeviceGetRecoveryCount(device) == recoveries + 1;
  }

  // A bind group of `layout` with the one `entry`.
  WGPUBindGroup group_of(WGPUBindGroupLayout layout, const WGPUBindGroupEntry& entry) const {
    WGPUBindGroupDescriptor desc = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    desc.layout = layout;
    desc.entryCount = 1;
    desc.entries = &entry;
    return wgpuDeviceCreateBindGroup(device, &desc);
  }

  // One workgroup of `pipeline` with `group` at index 0, submitted.
  void dispatch(WGPUComputePipeline pipeline, WGPUBindGroup group) const {
    WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(device, nullptr);
    WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(encoder, nullptr);
    wgpuComputePassEncoderSetPipeline(pass, pipeline);
    wgpuComputePassEncoderSetBindGroup(pass, 0, group, 0, nullptr);
    wgpuComputePassEncoderDispatchWorkgroups(pass, 1, 1, 1);
    wgpuComputePassEncoderEnd(pass);
    wgpuComputePassEncoderRelease(pass);
    submit(encoder);
  }

  // Maps `buffer` for reading and waits; the map's status.
  WGPUMapAsyncStatus map_read(WGPUBuffer buffer, uint64_t size) const {
    WGPUMapAsyncStatus status = WGPUMapAsyncStatus_Error;
    WGPUBufferMapCallbackInfo info{};
    info.mode = WGPUCallbackMode_WaitAnyOnly;
    info.userdata1 = &status;
    info.callback = [](WGPUMapAsyncStatus s, WGPUStringView, void* out, void*) {
      *static_cast<WGPUMapAsyncStatus*>(out) = s;
    };
    WGPUFutureWaitInfo wait{};
    wait.future = wgpuBufferMapAsync(buffer, WGPUMapMode_Read, 0, size, info);
    wgpuInstanceWaitAny(instance, 1, &wait, 5'000'000'000ull);
    return status;
  }

  // Finishes `encoder`, submits it, and releases both.
  void submit(WGPUCommandEncoder encoder) const {
    WGPUCommandBuffer commands = wgpuCommandEncoderFinish(encoder, nullptr);
    wgpuQueueSubmit(queue, 1, &commands);
    wgpuCommandBufferRelease(commands);
    wgpuCommandEncoderRelease(encoder);
  }

  // Copies the RGBA8 `texture` (width x height) into a readback buffer through `encoder`, submits
  // it, and reads the rows back, 256 bytes each; `copy` false only submits (an unreadable one).
  std::vector<uint8_t> submit_and_read(WGPUCommandEncoder encoder, WGPUTexture texture, uint32_t width, uint32_t height,
                                       bool copy = true) const {
    const uint64_t size = 256ull * height;
    WGPUBuffer readback = buffer(size, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, "pixels");
    if (copy) warden::gpu::copy_image_to_buffer(exported(), encoder, texture, readback, width, height, 256);
    submit(encoder);
    std::vector<uint8_t> pixels;
    if (copy && map_read(readback, size) == WGPUMapAsyncStatus_Success) {
      const auto* mapped = static_cast<const uint8_t*>(wgpuBufferGetConstMappedRange(readback, 0, size));
      pixels.assign(mapped, mapped + size);
      wgpuBufferUnmap(readback);
    }
    wgpuBufferRelease(readback);
    return pixels;
  }

  // Copies `size` bytes of `from` into a new readback buffer and reads them.
  std::vector<uint8_t> read(WGPUBuffer from, uint64_t size) const {
    WGPUBuffer readback = buffer(size, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, "readback");
    WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(device, nullptr);
    wgpuCommandEncoderCopyBufferToBuffer(encoder, from, 0, readback, 0, size);
    submit(encoder);
    std::vector<uint8_t> bytes;
    if (map_read(readback, size) == WGPUMapAsyncStatus_Success) {
      const auto* mapped = static_cast<const uint8_t*>(wgpuBufferGetConstMappedRange(readback, 0, size));
      if (mapped != nullptr) bytes.assign(mapped, mapped + size);
      wgpuBufferUnmap(readback);
    }
    wgpuBufferRelease(readback);
    return bytes;
  }

  WGPUInstance instance = nullptr;
  WGPUAdapter adapter = nullptr;
  WGPUDevice device = nullptr;
  WGPUQueue queue = nullptr;
  Heard heard;
};

bool any_error_says(const Heard& heard, const std::string& what) {
  for (const std::string& e : heard.errors) {
    if (e.find(what) != std::string::npos) return true;
  }
  return false;
}

TEST(WebgpuLibrary, GetProcAddressGivesTheExportedFunctionOfEveryEntryPoint) {
  size_t count = 0;
#define WARDEN_TEST_PROC(Ret, Name, Params)                                                        \
  EXPECT_EQ(wgpuGetProcAddress(text("wgpu" #Name)), reinterpret_cast<WGPUProc>(&wgpu##Name)) << #Name; \
  ++count;
  WARDEN_WEBGPU_PROCS(WARDEN_TEST_PROC)
#undef WARDEN_TEST_PROC
  EXPECT_GT(count, 200u);
  EXPECT_EQ(wgpuGetProcAddress(text("wgpuNoSuchEntryPoint")), nullptr);
}

TEST(WebgpuLibrary, InitializerMacrosCompileAsCxxWithTheStandardsDefaults) {
  // The C++ form of WGPU_<STRUCT>_INIT (a braced temporary); c_initializers.c proves the C form
  // and that Dawn takes the defaults.
  const WGPUTextureViewDescriptor view = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
  EXPECT_EQ(view.mipLevelCount, WGPU_MIP_LEVEL_COUNT_UNDEFINED);
  EXPECT_EQ(view.arrayLayerCount, WGPU_ARRAY_LAYER_COUNT_UNDEFINED);
  const WGPUColorTargetState target = WGPU_COLOR_TARGET_STATE_INIT;
  EXPECT_EQ(target.writeMask, WGPUColorWriteMask_All);
  const WGPUBindGroupEntry entry = WGPU_BIND_GROUP_ENTRY_INIT;
  EXPECT_EQ(entry.size, WGPU_WHOLE_SIZE);
  const WGPUSamplerDescriptor sampler = WGPU_SAMPLER_DESCRIPTOR_INIT;
  EXPECT_EQ(sampler.lodMaxClamp, 32.f);
  EXPECT_EQ(sampler.maxAnisotropy, 1u);
  const WGPUTexelCopyBufferLayout layout = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
  EXPECT_EQ(layout.bytesPerRow, WGPU_COPY_STRIDE_UNDEFINED);
  const WGPUSurfaceSourceXlibWindow xlib = WGPU_SURFACE_SOURCE_XLIB_WINDOW_INIT;
  EXPECT_EQ(xlib.chain.sType, WGPUSType_SurfaceSourceXlibWindow);
}

TEST(WebgpuLibrary, AnAdapterRequestNamingNoBackendGetsWardensAutoChoiceNotDawnsNullAdapter) {
  Library gpu(WGPUBackendType_Undefined);
  ASSERT_NE(gpu.adapter, nullptr);
  WGPUAdapterInfo info{};
  ASSERT_EQ(wgpuAdapterGetInfo(gpu.adapter, &info), WGPUStatus_Success);
  EXPECT_NE(info.backendType, WGPUBackendType_Null);
  wgpuAdapterInfoFreeMembers(info);
}

TEST(WebgpuLibrary, BytesWrittenByTheQueueComeBackAfterEachLoss) {
  Library gpu(WGPUBackendType_OpenGL, 4);
  ASSERT_NE(gpu.device, nullptr);
  WGPUBuffer data = gpu.buffer(256, WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, "data");
  std::vector<uint8_t> bytes(256);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 7 + 3);
  wgpuQueueWriteBuffer(gpu.queue, data, 0, bytes.data(), bytes.size());
  EXPECT_EQ(gpu.read(data, 256), bytes);
  for (int loss = 1; loss <= 3; ++loss) {
    gpu.lose();
    EXPECT_EQ(gpu.read(data, 256), bytes) << "after loss " << loss;
    EXPECT_EQ(wardenDeviceGetGeneration(gpu.device), static_cast<uint64_t>(loss) + 1);
  }
  wgpuBufferRelease(data);
  EXPECT_TRUE(gpu.heard.errors.empty()) << gpu.heard.errors.front();
  EXPECT_TRUE(gpu.heard.lost.empty()) << "the device-lost callback ran for a loss warden recovered from";
}

TEST(WebgpuLibrary, AMapInFlightAtALossCompletesAborted) {
  Library gpu(WGPUBackendType_OpenGL, 4);
  ASSERT_NE(gpu.device, nullptr);
  WGPUBuffer readback = gpu.buffer(64, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, "in flight");
  WGPUMapAsyncStatus status = WGPUMapAsyncStatus_Success;
  bool called = false;
  struct Out {
    WGPUMapAsyncStatus* status;
    bool* called;
  } out{&status, &called};
  WGPUBufferMapCallbackInfo info{};
  info.mode = WGPUCallbackMode_AllowProcessEvents;
  info.userdata1 = &out;
  info.callback = [](WGPUMapAsyncStatus s, WGPUStringView, void* o, void*) {
    *static_cast<Out*>(o)->status = s;
    *static_cast<Out*>(o)->called = true;
  };
  wgpuBufferMapAsync(readback, WGPUMapMode_Read, 0, 64, info);
  gpu.lose();  // before any ProcessEvents could complete the map
  wgpuInstanceProcessEvents(gpu.instance);
  EXPECT_TRUE(called);
  EXPECT_EQ(status, WGPUMapAsyncStatus_Aborted);
  // The buffer itself was made again: it maps on the new device.
  EXPECT_EQ(gpu.map_read(readback, 64), WGPUMapAsyncStatus_Success);
  wgpuBufferUnmap(readback);
  wgpuBufferRelease(readback);
}

TEST(WebgpuLibrary, CommandsRecordedBeforeALossAreDroppedAtSubmitWithTheirName) {
  Library gpu(WGPUBackendType_OpenGL, 4);
  ASSERT_NE(gpu.device, nullptr);
  WGPUBuffer a = gpu.buffer(64, WGPUBufferUsage_CopySrc, "a");
  WGPUBuffer b = gpu.buffer(64, WGPUBufferUsage_CopyDst, "b");
  WGPUCommandEncoderDescriptor desc{};
  desc.label = text("before the loss");
  WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(gpu.device, &desc);
  gpu.lose();
  // Recording on the lost generation is dropped without a word...
  wgpuCommandEncoderCopyBufferToBuffer(encoder, a, 0, b, 0, 64);
  WGPUCommandBuffer commands = wgpuCommandEncoderFinish(encoder, nullptr);
  EXPECT_TRUE(gpu.heard.errors.empty()) << gpu.heard.errors.front();
  // ... and named once, at submit.
  wgpuQueueSubmit(gpu.queue, 1, &commands);
  wgpuInstanceProcessEvents(gpu.instance);
  ASSERT_EQ(gpu.heard.errors.size(), 1u);
  EXPECT_NE(gpu.heard.errors[0].find("wgpuQueueSubmit"), std::string::npos) << gpu.heard.errors[0];
  EXPECT_NE(gpu.heard.errors[0].find("command buffer \"before the loss\""), std::string::npos) << gpu.heard.errors[0];
  EXPECT_NE(gpu.heard.errors[0].find("device generation 1, which was lost"), std::string::npos) << gpu.heard.errors[0];
  wgpuCommandBufferRelease(commands);
  wgpuCommandEncoderRelease(encoder);
  wgpuBufferRelease(a);
  wgpuBufferRelease(b);
}

TEST(WebgpuLibrary, TheDeviceLostCallbackRunsOnceWhenTheDeviceIsDestroyed) {
  Library gpu(WGPUBackendType_Null, 4);
  ASSERT_NE(gpu.device, nullptr);
  ASSERT_TRUE(gpu.lose_and_recover());
  ASSERT_TRUE(gpu.lose_and_recover());
  EXPECT_TRUE(gpu.heard.lost.empty());
  EXPECT_EQ(std::count(gpu.heard.recovery.begin(), gpu.heard.recovery.end(), WardenRecoveryEvent_Lost), 2);
  EXPECT_EQ(std::count(gpu.heard.recovery.begin(), gpu.heard.recovery.end(), WardenRecoveryEvent_Rebuilt), 2);
  wgpuDeviceDestroy(gpu.device);
  ASSERT_EQ(gpu.heard.lost.size(), 1u);
  EXPECT_EQ(gpu.heard.lost[0], WGPUDeviceLostReason_Destroyed);
}

TEST(WebgpuLibrary, GivingUpEndsTheDeviceForGoodAndTellsBothCallbacks) {
  Library gpu(WGPUBackendType_Null, 1);
  ASSERT_NE(gpu.device, nullptr);
  gpu.lose();
  gpu.lose();
  EXPECT_NE(std::find(gpu.heard.recovery.begin(), gpu.heard.recovery.end(), WardenRecoveryEvent_GaveUp),
            gpu.heard.recovery.end());
  ASSERT_EQ(gpu.heard.lost.size(), 1u);
  EXPECT_NE(gpu.heard.lost[0], WGPUDeviceLostReason_Destroyed);
  // Calls on the ended device's objects are errors, not crashes.
  WGPUBuffer late = gpu.buffer(16, WGPUBufferUsage_CopyDst, "after the end");
  EXPECT_NE(late, nullptr);
  wgpuBufferRelease(late);
}

TEST(WebgpuLibrary, ErrorScopesCatchWhatDawnRefusesAsWithDawn) {
  Library gpu(WGPUBackendType_Null);
  ASSERT_NE(gpu.device, nullptr);
  wgpuDevicePushErrorScope(gpu.device, WGPUErrorFilter_Validation);
  WGPUBuffer bad = gpu.buffer(16, WGPUBufferUsage_MapRead | WGPUBufferUsage_MapWrite, "both maps");
  WGPUErrorType caught = WGPUErrorType_NoError;
  WGPUPopErrorScopeCallbackInfo info{};
  info.mode = WGPUCallbackMode_WaitAnyOnly;
  info.userdata1 = &caught;
  info.callback = [](WGPUPopErrorScopeStatus, WGPUErrorType type, WGPUStringView, void* out, void*) {
    *static_cast<WGPUErrorType*>(out) = type;
  };
  WGPUFutureWaitInfo wait{};
  wait.future = wgpuDevicePopErrorScope(gpu.device, info);
  EXPECT_EQ(wgpuInstanceWaitAny(gpu.instance, 1, &wait, 1'000'000'000ull), WGPUWaitStatus_Success);
  EXPECT_EQ(caught, WGPUErrorType_Validation);
  EXPECT_TRUE(gpu.heard.errors.empty()) << "the scope caught it: " << gpu.heard.errors.front();
  // AllowSpontaneous: the scope's answer comes before the pop returns, as with Dawn (a program
  // may read a local the callback writes right after the call, as Dear ImGui's backend does).
  wgpuDevicePushErrorScope(gpu.device, WGPUErrorFilter_Validation);
  WGPUBuffer bad_again = gpu.buffer(16, WGPUBufferUsage_MapRead | WGPUBufferUsage_MapWrite, "both maps again");
  caught = WGPUErrorType_NoError;
  info.mode = WGPUCallbackMode_AllowSpontaneous;
  wgpuDevicePopErrorScope(gpu.device, info);
  EXPECT_EQ(caught, WGPUErrorType_Validation) << "not told before wgpuDevicePopErrorScope returned";
  wgpuBufferRelease(bad_again);
  // The refused buffer is an error object: a call on it is an error naming it, never a crash.
  EXPECT_EQ(wgpuBufferGetSize(bad), 0u);
  wgpuInstanceProcessEvents(gpu.instance);
  EXPECT_TRUE(any_error_says(gpu.heard, "buffer \"both maps\" could not be made"));
  wgpuBufferRelease(bad);
}

TEST(WebgpuLibrary, MisuseIsAnErrorNamingTheCallAndTheObject) {
  Library gpu(WGPUBackendType_Null);
  ASSERT_NE(gpu.device, nullptr);
  WGPUBuffer buffer = gpu.buffer(16, WGPUBufferUsage_CopyDst, "a buffer");
  // A buffer where a texture is expected.
  EXPECT_EQ(wgpuTextureGetWidth(reinterpret_cast<WGPUTexture>(buffer)), 0u);
  wgpuInstanceProcessEvents(gpu.instance);
  EXPECT_TRUE(any_error_says(gpu.heard, "wgpuTextureGetWidth: buffer \"a buffer\" was passed where a texture is expected"));
  // WGSL that does not compile: the module is an error object, and so is a pipeline made of it.
  WGPUShaderModule module = warden::gpu::create_wgsl_module(
      exported(), gpu.device, "@vertex fn vs() -> @builtin(position) vec4f { return nonsense; }", "broken");
  ASSERT_NE(module, nullptr);
  WGPURenderPipelineDescriptor pipeline_desc{};
  pipeline_desc.vertex.module = module;
  pipeline_desc.multisample.count = 1;
  pipeline_desc.multisample.mask = ~0u;
  WGPURenderPipeline pipeline = wgpuDeviceCreateRenderPipeline(gpu.device, &pipeline_desc);
  ASSERT_NE(pipeline, nullptr);
  wgpuInstanceProcessEvents(gpu.instance);
  EXPECT_TRUE(any_error_says(gpu.heard, "wgpuDeviceCreateShaderModule: create_shader_module \"broken\": the device rejected it"));
  EXPECT_TRUE(any_error_says(gpu.heard, "wgpuDeviceCreateRenderPipeline: vertex.module: shader module \"broken\" could not be made"));
  // A module without WGSL says so.
  WGPUShaderModuleDescriptor empty{};
  WGPUShaderModule none = wgpuDeviceCreateShaderModule(gpu.device, &empty);
  wgpuInstanceProcessEvents(gpu.instance);
  EXPECT_TRUE(any_error_says(gpu.heard, "chains no WGPUShaderSourceWGSL"));
  wgpuShaderModuleRelease(none);
  wgpuRenderPipelineRelease(pipeline);
  wgpuShaderModuleRelease(module);
  wgpuBufferRelease(buffer);
}

TEST(WebgpuLibrary, AnAsyncPipelineCompletesWithWardensObjectWhichOutlivesALoss) {
  Library gpu(WGPUBackendType_Null, 4);
  ASSERT_NE(gpu.device, nullptr);
  WGPUShaderModule module = warden::gpu::create_wgsl_module(exported(), gpu.device, "@compute @workgroup_size(1) fn main() {}", "");
  WGPUComputePipelineDescriptor desc{};
  desc.label = text("async");
  desc.compute.module = module;
  WGPUComputePipeline pipeline = nullptr;
  WGPUCreateComputePipelineAsyncCallbackInfo info{};
  info.mode = WGPUCallbackMode_AllowProcessEvents;
  info.userdata1 = &pipeline;
  info.callback = [](WGPUCreatePipelineAsyncStatus status, WGPUComputePipeline made, WGPUStringView, void* out, void*) {
    if (status == WGPUCreatePipelineAsyncStatus_Success) *static_cast<WGPUComputePipeline*>(out) = made;
  };
  wgpuDeviceCreateComputePipelineAsync(gpu.device, &desc, info);
  wgpuShaderModuleRelease(module);
  EXPECT_EQ(pipeline, nullptr) << "AllowProcessEvents: told in ProcessEvents, not before";
  wgpuInstanceProcessEvents(gpu.instance);
  ASSERT_NE(pipeline, nullptr);
  gpu.lose();
  WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(gpu.device, nullptr);
  WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(encoder, nullptr);
  wgpuComputePassEncoderSetPipeline(pass, pipeline);
  wgpuComputePassEncoderDispatchWorkgroups(pass, 1, 1, 1);
  wgpuComputePassEncoderEnd(pass);
  WGPUCommandBuffer commands = wgpuCommandEncoderFinish(encoder, nullptr);
  wgpuQueueSubmit(gpu.queue, 1, &commands);
  wgpuInstanceProcessEvents(gpu.instance);
  EXPECT_TRUE(gpu.heard.errors.empty()) << gpu.heard.errors.front();
  wgpuCommandBufferRelease(commands);
  wgpuComputePassEncoderRelease(pass);
  wgpuCommandEncoderRelease(encoder);
  wgpuComputePipelineRelease(pipeline);
}

TEST(WebgpuLibrary, WhatOnlyTheGpuWroteIsNamedAsLostWithTheApplicationsPointer) {
  Library gpu(WGPUBackendType_Null, 4);
  ASSERT_NE(gpu.device, nullptr);
  WGPUBuffer storage = gpu.buffer(64, WGPUBufferUsage_Storage, "gpu written");
  WGPUBuffer uniform = gpu.buffer(64, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, "queue written");
  ASSERT_TRUE(gpu.lose_and_recover());
  ASSERT_EQ(gpu.heard.contents_lost_buffers.size(), 1u);
  EXPECT_EQ(gpu.heard.contents_lost_buffers[0], storage);
  wgpuBufferRelease(uniform);
  wgpuBufferRelease(storage);
}

// A 16x16 RGBA8 target, a triangle pipeline of one colour, and a readback of the target.
struct Target {
  explicit Target(const Library& gpu) : gpu(gpu) {
    WGPUTextureDescriptor td{};
    td.label = text("bundle target");
    td.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc;
    td.dimension = WGPUTextureDimension_2D;
    td.size = {16, 16, 1};
    td.format = WGPUTextureFormat_RGBA8Unorm;
    td.mipLevelCount = 1;
    td.sampleCount = 1;
    texture = wgpuDeviceCreateTexture(gpu.device, &td);
    view = wgpuTextureCreateView(texture, nullptr);
  }
  ~Target() {
    wgpuTextureViewRelease(view);
    wgpuTextureRelease(texture);
  }
  WGPURenderPipeline pipeline() const {
    WGPUShaderModule module = warden::gpu::create_wgsl_module(exported(), gpu.device,
        "@vertex fn vs(@builtin(vertex_index) i : u32) -> @builtin(position) vec4f {\n"
        "  let p = array(vec2f(-1.0, -1.0), vec2f(3.0, -1.0), vec2f(-1.0, 3.0));\n"
        "  return vec4f(p[i], 0.0, 1.0);\n"
        "}\n"
        "@fragment fn fs() -> @location(0) vec4f { return vec4f(0.25, 0.5, 0.75, 1.0); }\n", "");
    WGPUColorTargetState color{};
    color.format = WGPUTextureFormat_RGBA8Unorm;
    color.writeMask = WGPUColorWriteMask_All;
    WGPUFragmentState fragment{};
    fragment.module = module;
    fragment.targetCount = 1;
    fragment.targets = &color;
    WGPURenderPipelineDescriptor desc{};
    desc.label = text("bundle pipeline");
    desc.vertex.module = module;
    desc.primitive.topology = WGPUPrimitiveTopology_TriangleList;
    desc.multisample.count = 1;
    desc.multisample.mask = ~0u;
    desc.fragment = &fragment;
    WGPURenderPipeline made = wgpuDeviceCreateRenderPipeline(gpu.device, &desc);
    wgpuShaderModuleRelease(module);
    return made;
  }
  // Clears to black, executes `bundle`, and reads the 16x16 pixels back.
  std::vector<uint8_t> draw(WGPURenderBundle bundle) const {
    WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(gpu.device, nullptr);
    WGPURenderPassEncoder pass = warden::gpu::begin_clear_pass(exported(), encoder, view, {0, 0, 0, 1});
    wgpuRenderPassEncoderExecuteBundles(pass, 1, &bundle);
    wgpuRenderPassEncoderEnd(pass);
    wgpuRenderPassEncoderRelease(pass);
    return gpu.submit_and_read(encoder, texture, 16, 16);
  }
  const Library& gpu;
  WGPUTexture texture = nullptr;
  WGPUTextureView view = nullptr;
};

TEST(WebgpuLibrary, ARenderBundleIsRecordedAgainOnEveryNewDeviceAfterItsPipelineWasReleased) {
  Library gpu(WGPUBackendType_OpenGL, 4);
  ASSERT_NE(gpu.device, nullptr);
  Target target(gpu);
  WGPURenderPipeline pipeline = target.pipeline();
  const WGPUTextureFormat format = WGPUTextureFormat_RGBA8Unorm;
  WGPURenderBundleEncoderDescriptor desc{};
  desc.label = text("triangle bundle");
  desc.colorFormatCount = 1;
  desc.colorFormats = &format;
  desc.sampleCount = 1;
  WGPURenderBundleEncoder encoder = wgpuDeviceCreateRenderBundleEncoder(gpu.device, &desc);
  wgpuRenderBundleEncoderSetPipeline(encoder, pipeline);
  wgpuRenderBundleEncoderDraw(encoder, 3, 1, 0, 0);
  WGPURenderBundle bundle = wgpuRenderBundleEncoderFinish(encoder, nullptr);
  wgpuRenderBundleEncoderRelease(encoder);
  wgpuRenderPipelineRelease(pipeline);  // the bundle keeps what it recorded

  const std::vector<uint8_t> before = target.draw(bundle);
  ASSERT_EQ(before.size(), 256u * 16u);
  EXPECT_EQ(before[0], 64);  // the bundle's colour, not the clear
  EXPECT_EQ(before[1], 128);
  for (int loss = 1; loss <= 2; ++loss) {
    gpu.lose();
    EXPECT_EQ(target.draw(bundle), before) << "after loss " << loss;
  }
  EXPECT_TRUE(gpu.heard.errors.empty()) << gpu.heard.errors.front();
  wgpuRenderBundleRelease(bundle);
}

TEST(WebgpuLibrary, ABundleRecordingAnObjectOfAnotherKindFinishesIntoAnErrorNamingIt) {
  Library gpu(WGPUBackendType_Null);
  ASSERT_NE(gpu.device, nullptr);
  WGPUBuffer buffer = gpu.buffer(16, WGPUBufferUsage_Vertex, "not a pipeline");
  const WGPUTextureFormat format = WGPUTextureFormat_RGBA8Unorm;
  WGPURenderBundleEncoderDescriptor desc{};
  desc.colorFormatCount = 1;
  desc.colorFormats = &format;
  WGPURenderBundleEncoder encoder = wgpuDeviceCreateRenderBundleEncoder(gpu.device, &desc);
  wgpuRenderBundleEncoderSetPipeline(encoder, reinterpret_cast<WGPURenderPipeline>(buffer));
  WGPURenderBundle bundle = wgpuRenderBundleEncoderFinish(encoder, nullptr);
  ASSERT_NE(bundle, nullptr);
  wgpuInstanceProcessEvents(gpu.instance);
  EXPECT_TRUE(any_error_says(gpu.heard, "buffer \"not a pipeline\" was passed where a render pipeline is expected"));
  wgpuRenderBundleRelease(bundle);
  wgpuRenderBundleEncoderRelease(encoder);
  wgpuBufferRelease(buffer);
}

TEST(WebgpuLibrary, ReleasingTheDeviceWhileARecoveryIsUnderWayLeavesNoReferenceBehind) {
  // The reference ledger (every test program's) fails the test if a Dawn object is left.
  Library gpu(WGPUBackendType_Null, 4);
  ASSERT_NE(gpu.device, nullptr);
  WGPUBuffer buffer = gpu.buffer(64, WGPUBufferUsage_Storage, "alive at the end");
  gpu.lose();
  wgpuBufferRelease(buffer);
}

TEST(WebgpuLibrary, AQuerySetAndASamplerAreMadeAgainFromTheirDescriptorsAfterALoss) {
  Library gpu(WGPUBackendType_Null, 4);
  ASSERT_NE(gpu.device, nullptr);
  WGPUQuerySetDescriptor query_desc{};
  query_desc.label = text("occlusion");
  query_desc.type = WGPUQueryType_Occlusion;
  query_desc.count = 8;
  WGPUQuerySet queries = wgpuDeviceCreateQuerySet(gpu.device, &query_desc);
  WGPUSamplerDescriptor sampler_desc{};
  sampler_desc.addressModeU = WGPUAddressMode_Repeat;
  sampler_desc.magFilter = WGPUFilterMode_Linear;
  sampler_desc.lodMaxClamp = 8.0f;
  sampler_desc.maxAnisotropy = 1;
  WGPUSampler sampler = wgpuDeviceCreateSampler(gpu.device, &sampler_desc);
  ASSERT_TRUE(gpu.lose_and_recover());
  EXPECT_EQ(wgpuQuerySetGetCount(queries), 8u);
  EXPECT_EQ(wgpuQuerySetGetType(queries), WGPUQueryType_Occlusion);
  wgpuQuerySetDestroy(queries);  // destroyed: a later call is an error naming it
  EXPECT_EQ(wgpuQuerySetGetCount(queries), 0u);
  wgpuInstanceProcessEvents(gpu.instance);
  EXPECT_TRUE(any_error_says(gpu.heard, "query set \"occlusion\" was destroyed"));
  wgpuQuerySetRelease(queries);
  wgpuSamplerRelease(sampler);
}

TEST(WebgpuLibrary, AGroupOfAPipelinesImplicitLayoutIsMadeAgainOnEveryNewDevice) {
  Library gpu(WGPUBackendType_OpenGL, 4);
  ASSERT_NE(gpu.device, nullptr);
  WGPUShaderModule module = warden::gpu::create_wgsl_module(exported(), gpu.device,
      "@group(0) @binding(0) var<storage, read_write> data : array<u32>;\n"
      "@compute @workgroup_size(8) fn main(@builtin(global_invocation_id) id : vec3u) { data[id.x] = id.x * id.x + 5u; }\n", "");
  WGPUComputePipelineDescriptor desc{};
  desc.label = text("auto layout");
  desc.compute.module = module;  // layout null: "auto"
  WGPUComputePipeline pipeline = wgpuDeviceCreateComputePipeline(gpu.device, &desc);
  wgpuShaderModuleRelease(module);
  WGPUBindGroupLayout layout = wgpuComputePipelineGetBindGroupLayout(pipeline, 0);
  ASSERT_NE(layout, nullptr);
  WGPUBuffer data = gpu.buffer(32, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, "squares");
  WGPUBindGroupEntry entry{};
  entry.buffer = data;
  entry.size = WGPU_WHOLE_SIZE;
  WGPUBindGroupDescriptor group_desc{};
  group_desc.label = text("implicit group");
  group_desc.layout = layout;
  group_desc.entryCount = 1;
  group_desc.entries = &entry;
  WGPUBindGroup group = wgpuDeviceCreateBindGroup(gpu.device, &group_desc);
  wgpuBindGroupLayoutRelease(layout);  // the group keeps it
  const auto run = [&] {
    gpu.dispatch(pipeline, group);
    return gpu.read(data, 32);
  };
  std::vector<uint8_t> expected(32);
  for (uint32_t i = 0; i < 8; ++i) {
    const uint32_t value = i * i + 5;
    std::memcpy(expected.data() + i * 4, &value, 4);
  }
  EXPECT_EQ(run(), expected);
  for (int loss = 1; loss <= 2; ++loss) {
    ASSERT_TRUE(gpu.lose_and_recover());
    EXPECT_EQ(run(), expected) << "after loss " << loss;
  }
  EXPECT_TRUE(gpu.heard.errors.empty()) << gpu.heard.errors.front();
  wgpuBindGroupRelease(group);
  wgpuBufferRelease(data);
  wgpuComputePipelineRelease(pipeline);
}

// A window's surface, configured once, presents across losses: the library makes a Dawn surface
// per device generation on the same window, configured as the application configured it.
class WebgpuLibrarySurface : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!warden::testing::display_withheld()) warden::testing::use_xvfb_display();
  }
};

TEST_F(WebgpuLibrarySurface, AConfiguredSurfacePresentsTheSameFrameAcrossLossesUnderXvfb) {
  WARDEN_SKIP_WITHOUT_DISPLAY();
  auto window = warden::testing::X11TestWindow::open(64, 48);
  ASSERT_TRUE(window) << window.error().message;
  Library gpu(WGPUBackendType_OpenGL, 5);
  ASSERT_NE(gpu.device, nullptr);
  WGPUSurfaceSourceXlibWindow source{};
  source.chain.sType = WGPUSType_SurfaceSourceXlibWindow;
  source.display = (*window)->display();
  source.window = (*window)->window();
  WGPUSurfaceDescriptor surface_desc{};
  surface_desc.nextInChain = &source.chain;
  surface_desc.label = text("window");
  WGPUSurface surface = wgpuInstanceCreateSurface(gpu.instance, &surface_desc);
  ASSERT_NE(surface, nullptr);
  WGPUSurfaceCapabilities caps{};
  ASSERT_EQ(wgpuSurfaceGetCapabilities(surface, gpu.adapter, &caps), WGPUStatus_Success);  // before any frame
  ASSERT_GT(caps.formatCount, 0u);
  const bool readable = (caps.usages & WGPUTextureUsage_CopySrc) != 0;
  WGPUSurfaceConfiguration config{};
  config.device = gpu.device;
  config.format = caps.formats[0];
  config.usage = WGPUTextureUsage_RenderAttachment | (readable ? WGPUTextureUsage_CopySrc : WGPUTextureUsage_None);
  config.width = 64;
  config.height = 48;
  config.alphaMode = caps.alphaModes[0];
  config.presentMode = WGPUPresentMode_Fifo;
  wgpuSurfaceCapabilitiesFreeMembers(caps);
  wgpuSurfaceConfigure(surface, &config);

  // One frame: clear the surface's texture, read it back when the surface allows, present.
  const auto frame = [&]() -> std::vector<uint8_t> {
    WGPUSurfaceTexture st{};
    wgpuSurfaceGetCurrentTexture(surface, &st);
    EXPECT_TRUE(st.status == WGPUSurfaceGetCurrentTextureStatus_SuccessOptimal ||
                st.status == WGPUSurfaceGetCurrentTextureStatus_SuccessSuboptimal)
        << "status " << st.status;
    if (st.texture == nullptr) return {};
    WGPUTextureView view = wgpuTextureCreateView(st.texture, nullptr);
    WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(gpu.device, nullptr);
    WGPURenderPassEncoder pass = warden::gpu::begin_clear_pass(exported(), encoder, view, {0.2, 0.4, 0.6, 1.0});
    wgpuRenderPassEncoderEnd(pass);
    wgpuRenderPassEncoderRelease(pass);
    std::vector<uint8_t> pixels = gpu.submit_and_read(encoder, st.texture, 64, 48, readable);
    wgpuSurfacePresent(surface);
    if (!readable) pixels = {1};  // presented, unreadable: one byte says so
    wgpuTextureViewRelease(view);
    wgpuTextureRelease(st.texture);
    return pixels;
  };
  const std::vector<uint8_t> before = frame();
  ASSERT_FALSE(before.empty());
  if (readable) {
    EXPECT_EQ(before.size(), 256u * 48u) << "the surface's texture was not read back";
  }
  for (int loss = 1; loss <= 2; ++loss) {
    ASSERT_TRUE(gpu.lose_and_recover());
    EXPECT_EQ(frame(), before) << "after loss " << loss;
  }
  // A loss between taking the texture and presenting it: that present has nothing to show on
  // the new surface and is dropped without an error; the next frame is the same again.
  WGPUSurfaceTexture taken{};
  wgpuSurfaceGetCurrentTexture(surface, &taken);
  ASSERT_TRUE(gpu.lose_and_recover());
  wgpuSurfacePresent(surface);
  wgpuTextureRelease(taken.texture);
  EXPECT_EQ(frame(), before) << "after a loss mid-frame";
  wgpuInstanceProcessEvents(gpu.instance);
  EXPECT_TRUE(gpu.heard.errors.empty()) << gpu.heard.errors.front();
  wgpuSurfaceUnconfigure(surface);
  wgpuSurfaceRelease(surface);
}

}  // namespace

TEST(WebgpuLibrary, WhatAnotherThreadMakesAndWritesWhileARecoveryIsUnderWayIsThereOnTheNewDevice) {
  // Only the device's thread waits for a recovery; a loader thread that makes objects and writes
  // them meanwhile gets objects the rebuild makes, and writes applied, in order, once the device
  // is back.
  Library gpu(WGPUBackendType_OpenGL, 4);
  ASSERT_NE(gpu.device, nullptr);
  const uint64_t recoveries = wardenDeviceGetRecoveryCount(gpu.device);
  gpu.lose();  // seen; the recovery is under way until the device's thread finishes it
  std::vector<uint32_t> words(8);
  for (uint32_t i = 0; i < words.size(); ++i) words[i] = i * 3 + 1;
  std::vector<uint8_t> texels(4 * 4 * 4);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = static_cast<uint8_t>(i * 9 + 7);
  WGPUBuffer data = nullptr;
  WGPUTexture image = nullptr;
  WGPUComputePipeline pipeline = nullptr;
  WGPUBindGroup group = nullptr;
  std::thread loader([&] {
    data = gpu.buffer(32, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, "loaded");
    const uint32_t stale = 0xdeadbeef;
    wgpuQueueWriteBuffer(gpu.queue, data, 0, &stale, 4);  // overwritten by the next write: order holds
    wgpuQueueWriteBuffer(gpu.queue, data, 0, words.data(), 32);
    WGPUTextureDescriptor texture_desc = WGPU_TEXTURE_DESCRIPTOR_INIT;
    texture_desc.label = text("loaded image");
    texture_desc.size = {4, 4, 1};
    texture_desc.format = WGPUTextureFormat_RGBA8Unorm;
    texture_desc.usage = WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst;
    image = wgpuDeviceCreateTexture(gpu.device, &texture_desc);
    WGPUTexelCopyTextureInfo where = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    where.texture = image;
    WGPUTexelCopyBufferLayout layout = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
    layout.bytesPerRow = 16;
    layout.rowsPerImage = 4;
    const WGPUExtent3D size{4, 4, 1};
    wgpuQueueWriteTexture(gpu.queue, &where, texels.data(), texels.size(), &layout, &size);
    WGPUShaderModule module = warden::gpu::create_wgsl_module(exported(), gpu.device,
        "@group(0) @binding(0) var<storage, read_write> data : array<u32>;\n"
        "@compute @workgroup_size(8) fn main(@builtin(global_invocation_id) id : vec3u) { data[id.x] = data[id.x] * 2u + 1u; }\n",
        "loaded module");
    WGPUBindGroupLayoutEntry entry_layout = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
    entry_layout.binding = 0;
    entry_layout.visibility = WGPUShaderStage_Compute;
    entry_layout.buffer.type = WGPUBufferBindingType_Storage;
    WGPUBindGroupLayoutDescriptor group_layout_desc = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    group_layout_desc.entryCount = 1;
    group_layout_desc.entries = &entry_layout;
    WGPUBindGroupLayout group_layout = wgpuDeviceCreateBindGroupLayout(gpu.device, &group_layout_desc);
    WGPUPipelineLayoutDescriptor pipeline_layout_desc = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    pipeline_layout_desc.bindGroupLayoutCount = 1;
    pipeline_layout_desc.bindGroupLayouts = &group_layout;
    WGPUPipelineLayout pipeline_layout = wgpuDeviceCreatePipelineLayout(gpu.device, &pipeline_layout_desc);
    WGPUComputePipelineDescriptor pipeline_desc = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    pipeline_desc.layout = pipeline_layout;
    pipeline_desc.compute.module = module;
    pipeline = wgpuDeviceCreateComputePipeline(gpu.device, &pipeline_desc);
    WGPUBindGroupEntry entry = WGPU_BIND_GROUP_ENTRY_INIT;
    entry.buffer = data;
    group = gpu.group_of(group_layout, entry);
    // Released as webgpu.h allows: the pipeline and the group keep what they name.
    wgpuShaderModuleRelease(module);
    wgpuPipelineLayoutRelease(pipeline_layout);
    wgpuBindGroupLayoutRelease(group_layout);
  });
  loader.join();
  ASSERT_TRUE(gpu.recover_from(recoveries));
  gpu.dispatch(pipeline, group);
  std::vector<uint8_t> expected(32);
  for (uint32_t i = 0; i < 8; ++i) {
    const uint32_t value = words[i] * 2 + 1;
    std::memcpy(expected.data() + i * 4, &value, 4);
  }
  EXPECT_EQ(gpu.read(data, 32), expected);
  const std::vector<uint8_t> rows = gpu.submit_and_read(wgpuDeviceCreateCommandEncoder(gpu.device, nullptr), image, 4, 4);
  ASSERT_EQ(rows.size(), 256u * 4);
  for (uint32_t y = 0; y < 4; ++y) {
    EXPECT_TRUE(std::equal(texels.begin() + y * 16, texels.begin() + (y + 1) * 16, rows.begin() + y * 256)) << "row " << y;
  }
  wgpuBindGroupRelease(group);
  wgpuComputePipelineRelease(pipeline);
  wgpuTextureRelease(image);
  wgpuBufferRelease(data);
  EXPECT_TRUE(gpu.heard.errors.empty()) << gpu.heard.errors.front();
}

TEST(WebgpuLibrary, ADeviceRequestForAFeatureTheAdapterLacksFailsNamingIt) {
  Library gpu(WGPUBackendType_OpenGL);
  ASSERT_NE(gpu.adapter, nullptr);
  ASSERT_FALSE(wgpuAdapterHasFeature(gpu.adapter, WGPUFeatureName_Depth32FloatStencil8))
      << "this test needs an adapter without depth32float-stencil8 (GL over llvmpipe has none)";
  const WGPUFeatureName wanted = WGPUFeatureName_Depth32FloatStencil8;
  WGPUDeviceDescriptor desc = WGPU_DEVICE_DESCRIPTOR_INIT;
  desc.requiredFeatureCount = 1;
  desc.requiredFeatures = &wanted;
  const Library::DeviceAnswer answer = gpu.request_device(desc);
  ASSERT_TRUE(answer.called);
  EXPECT_EQ(answer.status, WGPURequestDeviceStatus_Error);
  EXPECT_EQ(answer.device, nullptr);
  EXPECT_NE(answer.message.find("depth32float-stencil8"), std::string::npos) << answer.message;
}

TEST(WebgpuLibrary, ATexturesBindingViewDimensionIsKeptForEveryNewDevice) {
  // A compatibility-mode device binds a texture only as the dimension chained at its creation
  // (here a cube); the recipe keeps the chained struct, so the texture made again after a loss
  // binds as a cube too.
  Library gpu(WGPUBackendType_OpenGL, 4);
  ASSERT_NE(gpu.device, nullptr);
  WGPUTextureBindingViewDimensionDescriptor cube{};
  cube.chain.sType = WGPUSType_TextureBindingViewDimensionDescriptor;
  cube.textureBindingViewDimension = WGPUTextureViewDimension_Cube;
  WGPUTextureDescriptor texture_desc = WGPU_TEXTURE_DESCRIPTOR_INIT;
  texture_desc.nextInChain = &cube.chain;
  texture_desc.label = text("sky");
  texture_desc.size = {4, 4, 6};
  texture_desc.format = WGPUTextureFormat_RGBA8Unorm;
  texture_desc.usage = WGPUTextureUsage_TextureBinding;
  WGPUTexture sky = wgpuDeviceCreateTexture(gpu.device, &texture_desc);
  WGPUBindGroupLayoutEntry entry_layout = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
  entry_layout.visibility = WGPUShaderStage_Fragment;
  entry_layout.texture.sampleType = WGPUTextureSampleType_Float;
  entry_layout.texture.viewDimension = WGPUTextureViewDimension_Cube;
  WGPUBindGroupLayoutDescriptor layout_desc = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
  layout_desc.entryCount = 1;
  layout_desc.entries = &entry_layout;
  WGPUBindGroupLayout layout = wgpuDeviceCreateBindGroupLayout(gpu.device, &layout_desc);
  const auto bind_as_cube = [&] {
    WGPUTextureViewDescriptor view_desc = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
    view_desc.dimension = WGPUTextureViewDimension_Cube;
    WGPUTextureView view = wgpuTextureCreateView(sky, &view_desc);
    WGPUBindGroupEntry entry = WGPU_BIND_GROUP_ENTRY_INIT;
    entry.textureView = view;
    WGPUBindGroup group = gpu.group_of(layout, entry);
    wgpuTextureViewRelease(view);
    return group;
  };
  WGPUBindGroup before = bind_as_cube();
  ASSERT_TRUE(gpu.lose_and_recover());
  WGPUBindGroup after = bind_as_cube();
  wgpuInstanceProcessEvents(gpu.instance);
  EXPECT_TRUE(gpu.heard.errors.empty()) << gpu.heard.errors.front();
  wgpuBindGroupRelease(after);
  wgpuBindGroupRelease(before);
  wgpuBindGroupLayoutRelease(layout);
  wgpuTextureRelease(sky);
}

TEST(WebgpuLibrary, AChainedStructWardenDoesNotKeepIsRefusedNamingItsSType) {
  // Dropped, it would be gone from the object warden makes after a loss without a word.
  Library gpu(WGPUBackendType_Null);
  ASSERT_NE(gpu.device, nullptr);
  WGPUChainedStruct stranger{};
  stranger.sType = WGPUSType_ShaderSourceWGSL;  // no buffer takes it
  WGPUBufferDescriptor buffer_desc = WGPU_BUFFER_DESCRIPTOR_INIT;
  buffer_desc.nextInChain = &stranger;
  buffer_desc.label = text("chained");
  buffer_desc.size = 16;
  buffer_desc.usage = WGPUBufferUsage_CopyDst;
  WGPUBuffer buffer = wgpuDeviceCreateBuffer(gpu.device, &buffer_desc);
  ASSERT_NE(buffer, nullptr);  // an error object, as webgpu.h hands out
  wgpuInstanceProcessEvents(gpu.instance);
  char stype[16];
  std::snprintf(stype, sizeof stype, "%#x", static_cast<unsigned>(WGPUSType_ShaderSourceWGSL));
  EXPECT_TRUE(any_error_says(gpu.heard, std::string("the descriptor chains a struct of sType ") + stype)) << stype;
  wgpuBufferRelease(buffer);

  // On a device descriptor: the request fails, saying why.
  WGPUDeviceDescriptor device_desc = WGPU_DEVICE_DESCRIPTOR_INIT;
  device_desc.nextInChain = &stranger;
  const Library::DeviceAnswer answer = gpu.request_device(device_desc);
  ASSERT_TRUE(answer.called);
  EXPECT_EQ(answer.status, WGPURequestDeviceStatus_Error);
  EXPECT_NE(answer.message.find(std::string("the device descriptor chains a struct of sType ") + stype), std::string::npos)
      << answer.message;
}

TEST(WebgpuLibrary, AProgramThatAskedNotToHearOfRecoveriesIsToldOnStderr) {
  // No WardenDeviceExtras: the loss, the rebuild and what came back zeroed are still said.
  Library gpu(WGPUBackendType_Null);
  ASSERT_NE(gpu.adapter, nullptr);
  WGPUDeviceDescriptor desc = WGPU_DEVICE_DESCRIPTOR_INIT;
  desc.label = text("quiet program");
  const Library::DeviceAnswer answer = gpu.request_device(desc);
  ASSERT_NE(answer.device, nullptr) << answer.message;
  WGPUBufferDescriptor buffer_desc = WGPU_BUFFER_DESCRIPTOR_INIT;
  buffer_desc.label = text("results");
  buffer_desc.size = 64;
  buffer_desc.usage = WGPUBufferUsage_Storage;
  WGPUBuffer results = wgpuDeviceCreateBuffer(answer.device, &buffer_desc);
  testing::internal::CaptureStderr();
  wgpuDeviceForceLoss(answer.device, WGPUDeviceLostReason_Unknown, text("rehearsed"));
  for (int i = 0; i < 5000 && wardenDeviceGetRecoveryCount(answer.device) == 0; ++i) wgpuInstanceProcessEvents(gpu.instance);
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(wardenDeviceGetRecoveryCount(answer.device), 1u);
  EXPECT_NE(said.find("device \"quiet program\" was lost on generation 1 ("), std::string::npos) << said;
  EXPECT_NE(said.find("rehearsed"), std::string::npos) << said;
  EXPECT_NE(said.find("device \"quiet program\" was made again, as generation 2"), std::string::npos) << said;
  EXPECT_NE(said.find("what only the GPU wrote is gone (zeroed, or as last written through the queue): buffer \"results\""),
            std::string::npos)
      << said;
  wgpuBufferRelease(results);
  wgpuDeviceRelease(answer.device);
}
