// Proves the asynchronous half of warden's ABI declarations against the real library:
// statuses, callback signatures, futures, adapter and device descriptors, limits.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>

#include "support/error_scope.h"
#include "support/poll_until.h"
#include "warden/gpu/abi.h"
#include "warden/gpu/names.h"

namespace warden {
namespace {

using namespace gpu;
using testing::GlDeviceTest;
using testing::NullDeviceTest;
using testing::shared_context;
using ::testing::HasSubstr;
using ::testing::StartsWith;


struct AdapterOutcome {
  WGPURequestAdapterStatus status{};
  WGPUAdapter adapter = nullptr;
  std::string message;
};

AdapterOutcome request_adapter(WGPUBackendType backend, WGPUFeatureLevel level) {
  Context* ctx = shared_context();
  AdapterOutcome out;
  WGPURequestAdapterOptions options{};
  options.backendType = backend;
  options.featureLevel = level;
  WGPURequestAdapterCallbackInfo cb{};
  cb.mode = WGPUCallbackMode_WaitAnyOnly;
  cb.userdata1 = &out;
  cb.callback = [](WGPURequestAdapterStatus s, WGPUAdapter a, WGPUStringView m, void* u, void*) {
    auto* o = static_cast<AdapterOutcome*>(u);
    o->status = s;
    o->adapter = a;
    o->message = std::string(gpu::to_std(m));
  };
  EXPECT_TRUE(ctx->wait(ctx->procs().InstanceRequestAdapter(ctx->instance(), &options, cb), testing::kSafetyNet).ok());
  return out;
}

TEST(WebGpuAbi, InstanceCapabilitiesRoundTripThroughTheLibrary) {
  const Procs& p = shared_context()->procs();
  WGPUInstanceCapabilities caps{};
  WGPUStatus status = p.GetInstanceCapabilities(&caps);
  EXPECT_EQ(status, WGPUStatus_Success);
  EXPECT_EQ(caps.timedWaitAnyEnable, 1u);
  EXPECT_GT(caps.timedWaitAnyMaxCount, 0u);
  // An unknown chained struct is refused with the other WGPUStatus value.
  WGPUChainedStruct unknown{nullptr, static_cast<WGPUSType>(0x7777)};
  caps.nextInChain = &unknown;
  EXPECT_EQ(p.GetInstanceCapabilities(&caps), WGPUStatus_Error);
}

TEST(WebGpuAbi, RequestAdapterStatusAndFeatureLevel) {
  // Metal (5, not declared by warden) never exists on Linux: Unavailable, not an error.
  auto none = request_adapter(static_cast<WGPUBackendType>(5), WGPUFeatureLevel_Core);
  EXPECT_EQ(none.status, WGPURequestAdapterStatus_Unavailable);
  EXPECT_EQ(none.adapter, nullptr);
  EXPECT_EQ(none.message, "No supported adapters");
  const Procs& p = shared_context()->procs();
  constexpr WGPUFeatureName kCoreFeaturesAndLimits = static_cast<WGPUFeatureName>(18);
  // The Null backend is a Core adapter; GL over llvmpipe only reaches Compatibility.
  auto core = request_adapter(WGPUBackendType_Null, WGPUFeatureLevel_Core);
  ASSERT_EQ(core.status, WGPURequestAdapterStatus_Success);
  EXPECT_EQ(p.AdapterHasFeature(core.adapter, kCoreFeaturesAndLimits), 1u);
  WGPUSupportedFeatures features{};
  p.AdapterGetFeatures(core.adapter, &features);
  bool listed = false;
  for (size_t i = 0; i < features.featureCount; ++i) listed |= features.features[i] == kCoreFeaturesAndLimits;
  EXPECT_TRUE(listed);
  p.SupportedFeaturesFreeMembers(features);
  p.AdapterRelease(core.adapter);
}

TEST(WebGpuAbi, GlAdapterIsCompatibilityOnly) {
  prepare_gl_environment();
  const Procs& p = shared_context()->procs();
  auto core = request_adapter(WGPUBackendType_OpenGL, WGPUFeatureLevel_Core);
  EXPECT_EQ(core.status, WGPURequestAdapterStatus_Unavailable);
  auto compat = request_adapter(WGPUBackendType_OpenGL, WGPUFeatureLevel_Compatibility);
  ASSERT_EQ(compat.status, WGPURequestAdapterStatus_Success);
  EXPECT_EQ(p.AdapterHasFeature(compat.adapter, static_cast<WGPUFeatureName>(18)), 0u);
  p.AdapterRelease(compat.adapter);
}

TEST(WebGpuAbi, AdapterInfoFieldsLandWhereDeclared) {
  prepare_gl_environment();
  const Procs& p = shared_context()->procs();
  struct Case {
    WGPUBackendType backend;
    WGPUFeatureLevel level;
  };
  for (Case c : {Case{WGPUBackendType_Null, WGPUFeatureLevel_Core}, Case{WGPUBackendType_OpenGL, WGPUFeatureLevel_Compatibility},
                 Case{WGPUBackendType_OpenGLES, WGPUFeatureLevel_Compatibility}}) {
    auto got = request_adapter(c.backend, c.level);
    ASSERT_EQ(got.status, WGPURequestAdapterStatus_Success);
    WGPUAdapterInfo info{};
    ASSERT_EQ(p.AdapterGetInfo(got.adapter, &info), WGPUStatus_Success);
    EXPECT_EQ(info.backendType, c.backend);
    if (c.backend == WGPUBackendType_Null) {
      EXPECT_EQ(gpu::to_std(info.device), "Null backend");
      EXPECT_EQ(info.adapterType, WGPUAdapterType_CPU);
    } else {
      // The four strings precede the enums: the GL driver's version lands in `description`.
      std::string description(gpu::to_std(info.description));
      EXPECT_THAT(description, StartsWith("OpenGL version"));
      if (c.backend == WGPUBackendType_OpenGLES) {
        EXPECT_THAT(description, HasSubstr("OpenGL ES"));
      }
      EXPECT_FALSE(gpu::to_std(info.device).empty());
    }
    p.AdapterInfoFreeMembers(info);
    p.AdapterRelease(got.adapter);
  }
}

struct DeviceOutcome {
  WGPURequestDeviceStatus status{};
  WGPUDevice device = nullptr;
  std::string message;
  WGPUDeviceLostReason lost_reason{};
  int lost_calls = 0;
  bool lost_device_pointer_null = false;  // what the lost callback's device argument pointed at
};

// Requests a device with `limits` on the adapter of `backend` (Null unless named), delivering
// every callback into one DeviceOutcome the caller keeps alive until the device has ended.
std::unique_ptr<DeviceOutcome> request_device_with(const WGPULimits* limits,
                                                   WGPUBackendType backend = WGPUBackendType_Null,
                                                   WGPUFeatureLevel level = WGPUFeatureLevel_Core) {
  Context* ctx = shared_context();
  const Procs& p = ctx->procs();
  auto adapter = request_adapter(backend, level);
  EXPECT_EQ(adapter.status, WGPURequestAdapterStatus_Success);
  auto outcome = std::make_unique<DeviceOutcome>();
  DeviceOutcome& out = *outcome;
  WGPUDeviceDescriptor desc{};
  desc.requiredLimits = limits;
  desc.deviceLostCallbackInfo.mode = WGPUCallbackMode_AllowProcessEvents;
  desc.deviceLostCallbackInfo.userdata1 = &out;
  desc.deviceLostCallbackInfo.callback = [](const WGPUDevice* device, WGPUDeviceLostReason r, WGPUStringView, void* u,
                                             void*) {
    auto* o = static_cast<DeviceOutcome*>(u);
    o->lost_reason = r;
    o->lost_device_pointer_null = device == nullptr || *device == nullptr;
    ++o->lost_calls;
  };
  WGPURequestDeviceCallbackInfo cb{};
  cb.mode = WGPUCallbackMode_WaitAnyOnly;
  cb.userdata1 = &out;
  cb.callback = [](WGPURequestDeviceStatus s, WGPUDevice d, WGPUStringView m, void* u, void*) {
    auto* o = static_cast<DeviceOutcome*>(u);
    o->status = s;
    o->device = d;
    o->message = std::string(gpu::to_std(m));
  };
  EXPECT_TRUE(ctx->wait(p.AdapterRequestDevice(adapter.adapter, &desc, cb), testing::kSafetyNet).ok());
  ctx->process_events();
  p.AdapterRelease(adapter.adapter);
  return outcome;
}

TEST(WebGpuAbi, LimitsLayoutIsReadFieldByField) {
  const Procs& p = shared_context()->procs();
  auto adapter = request_adapter(WGPUBackendType_Null, WGPUFeatureLevel_Core);
  ASSERT_EQ(adapter.status, WGPURequestAdapterStatus_Success);
  WGPULimits supported{};
  ASSERT_EQ(p.AdapterGetLimits(adapter.adapter, &supported), WGPUStatus_Success);
  p.AdapterRelease(adapter.adapter);
  EXPECT_EQ(supported.maxTextureDimension2D, 8192u);
  EXPECT_EQ(supported.maxBindGroups, 4u);
  EXPECT_EQ(supported.maxComputeInvocationsPerWorkgroup, 256u);
  // Asking for more than supported in one field makes Dawn name that field: first, a 64-bit
  // one in the middle, and the last two, so every offset in between is pinned.
  struct Case {
    const char* name;
    void (*raise)(WGPULimits&, const WGPULimits&);
  };
  const Case cases[] = {
      {"maxTextureDimension1D", [](WGPULimits& l, const WGPULimits& s) { l.maxTextureDimension1D = s.maxTextureDimension1D + 1; }},
      {"maxBufferSize", [](WGPULimits& l, const WGPULimits& s) { l.maxBufferSize = s.maxBufferSize + 1; }},
      {"maxComputeWorkgroupsPerDimension", [](WGPULimits& l, const WGPULimits& s) { l.maxComputeWorkgroupsPerDimension = s.maxComputeWorkgroupsPerDimension + 1; }},
      {"maxImmediateSize", [](WGPULimits& l, const WGPULimits& s) { l.maxImmediateSize = s.maxImmediateSize + 1; }},
  };
  for (const Case& c : cases) {
    WGPULimits required = supported;
    c.raise(required, supported);
    const auto out = request_device_with(&required);
    EXPECT_EQ(out->status, WGPURequestDeviceStatus_Error) << c.name;
    EXPECT_EQ(out->device, nullptr);
    EXPECT_THAT(out->message, HasSubstr(c.name));
    EXPECT_EQ(out->lost_calls, 1) << "a failed request reports its lost callback once";
    EXPECT_EQ(out->lost_reason, WGPUDeviceLostReason_FailedCreation);
  }
  WGPULimits exact = supported;
  const auto ok = request_device_with(&exact);
  ASSERT_EQ(ok->status, WGPURequestDeviceStatus_Success);
  WGPULimits device_limits{};
  ASSERT_EQ(p.DeviceGetLimits(ok->device, &device_limits), WGPUStatus_Success);
  EXPECT_EQ(device_limits.maxComputeWorkgroupsPerDimension, supported.maxComputeWorkgroupsPerDimension);
  EXPECT_EQ(device_limits.maxBufferSize, supported.maxBufferSize);
  p.DeviceDestroy(ok->device);
  shared_context()->process_events();
  EXPECT_EQ(ok->lost_reason, WGPUDeviceLostReason_Destroyed);
  p.DeviceRelease(ok->device);
}

// webgpu.h's ownership rule, as the pinned Dawn keeps it: releasing the last reference of a
// device ends it at once, as wgpuDeviceDestroy would, whatever of it is still alive (here a
// buffer). Its lost callback runs then, saying Destroyed, and its device argument points at
// null, so a lost handler must know its device by what it registered, never by that argument.
// "Letting a presenting device go" therefore cannot keep it alive (docs/adr/0051).
TEST(WebGpuAbi, ReleasingTheLastReferenceOfADeviceEndsItAtOnceEvenWithABufferAlive) {
  prepare_gl_environment();
  const Procs& p = shared_context()->procs();
  struct Backend {
    WGPUBackendType type;
    WGPUFeatureLevel level;
  };
  for (const Backend backend : {Backend{WGPUBackendType_Null, WGPUFeatureLevel_Core},
                                Backend{WGPUBackendType_OpenGL, WGPUFeatureLevel_Compatibility}}) {
    SCOPED_TRACE(gpu::to_string(backend.type));
    const auto out = request_device_with(nullptr, backend.type, backend.level);
    ASSERT_EQ(out->status, WGPURequestDeviceStatus_Success) << out->message;
    WGPUBufferDescriptor desc{};
    desc.size = 256;
    desc.usage = WGPUBufferUsage_CopyDst;
    WGPUBuffer buffer = p.DeviceCreateBuffer(out->device, &desc);
    ASSERT_NE(buffer, nullptr);
    EXPECT_EQ(out->lost_calls, 0);
    p.DeviceRelease(out->device);  // the last reference: nothing else of warden's holds one
    shared_context()->process_events();
    EXPECT_EQ(out->lost_calls, 1) << "the release ended the device";
    EXPECT_EQ(out->lost_reason, WGPUDeviceLostReason_Destroyed);
    EXPECT_TRUE(out->lost_device_pointer_null);
    p.BufferRelease(buffer);  // still the application's to let go
  }
}

TEST_F(NullDeviceTest, ForceLossReportsUnknownReasonAndMessage) {
  const Procs& p = dev->procs();
  p.DeviceForceLoss(dev->device.get(), WGPUDeviceLostReason_Unknown, gpu::string_view("lost on purpose"));
  dev->context->process_events();
  std::lock_guard lock(dev->mutex);
  EXPECT_TRUE(dev->lost);
  EXPECT_THAT(dev->lost_message, HasSubstr("lost on purpose"));
}

TEST(WebGpuAbi, InstanceReleaseCancelsPendingLostCallbacks) {
  auto ctx = Context::create(shared_context()->library_ptr());
  ASSERT_TRUE(ctx.ok());
  auto adapter = ctx.value()->select_adapter(BackendChoice::Null);
  ASSERT_TRUE(adapter.ok());
  WGPUDeviceLostReason reason{};
  int calls = 0;
  DeviceOptions options;
  options.callbacks.on_lost = [&](WGPUDeviceLostReason r, std::string_view) {
    reason = r;
    ++calls;
  };
  auto device = ctx.value()->request_device(adapter->adapter.get(), options);
  ASSERT_TRUE(device.ok());
  // Release everything without processing events: the instance cancels the callback.
  device->reset();
  adapter->adapter.reset();
  ctx.value().reset();
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(reason, WGPUDeviceLostReason_CallbackCancelled);
}

TEST_F(NullDeviceTest, WaitStatusValues) {
  const Procs& p = dev->procs();
  // A live device's lost future never completes: a zero timeout reports TimedOut.
  WGPUFutureWaitInfo pending{p.DeviceGetLostFuture(dev->device.get()), 0};
  EXPECT_EQ(p.InstanceWaitAny(dev->context->instance(), 1, &pending, 0), WGPUWaitStatus_TimedOut);
  EXPECT_EQ(pending.completed, 0u);
  // A finished future reports Success and marks itself completed.
  testing::ScopeResult scope;
  WGPUPopErrorScopeCallbackInfo cb{};
  cb.mode = WGPUCallbackMode_WaitAnyOnly;
  cb.userdata1 = &scope;
  cb.callback = [](WGPUPopErrorScopeStatus s, WGPUErrorType t, WGPUStringView, void* u, void*) {
    static_cast<testing::ScopeResult*>(u)->status = s;
    static_cast<testing::ScopeResult*>(u)->type = t;
  };
  p.DevicePushErrorScope(dev->device.get(), WGPUErrorFilter_Validation);
  WGPUFutureWaitInfo done{p.DevicePopErrorScope(dev->device.get(), cb), 0};
  EXPECT_EQ(p.InstanceWaitAny(dev->context->instance(), 1, &done, 1'000'000'000), WGPUWaitStatus_Success);
  EXPECT_EQ(done.completed, 1u);
  EXPECT_EQ(scope.status, WGPUPopErrorScopeStatus_Success);
  EXPECT_EQ(scope.type, WGPUErrorType_NoError);
  // An instance created without timed waits refuses a wait with a timeout.
  WGPUInstanceDescriptor plain{};
  WGPUInstance untimed = p.CreateInstance(&plain);
  ASSERT_NE(untimed, nullptr);
  WGPUFutureWaitInfo none{WGPUFuture{1}, 0};
  EXPECT_EQ(p.InstanceWaitAny(untimed, 1, &none, 1000), WGPUWaitStatus_Error);
  p.InstanceRelease(untimed);
}

TEST_F(NullDeviceTest, ErrorScopesFiltersAndUncapturedErrors) {
  const Procs& p = dev->procs();
  auto bad_buffer = [&] {
    WGPUBufferDescriptor d{};
    d.size = 16;
    d.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_Storage;
    p.BufferRelease(p.DeviceCreateBuffer(dev->device.get(), &d));
  };
  // Out-of-memory and internal scopes let a validation error through to the outer scope.
  p.DevicePushErrorScope(dev->device.get(), WGPUErrorFilter_Validation);
  auto oom = testing::capture_errors(*dev, WGPUErrorFilter_OutOfMemory, bad_buffer);
  auto internal = testing::capture_errors(*dev, WGPUErrorFilter_Internal, [] {});
  auto outer = testing::pop_error_scope(*dev);
  EXPECT_EQ(oom.status, WGPUPopErrorScopeStatus_Success);
  EXPECT_EQ(oom.type, WGPUErrorType_NoError);
  EXPECT_EQ(internal.type, WGPUErrorType_NoError);
  EXPECT_EQ(outer.type, WGPUErrorType_Validation);
  EXPECT_THAT(outer.message, HasSubstr("BufferUsage::(MapRead|Storage)"));
  // Nothing left to pop.
  auto empty = testing::pop_error_scope(*dev);
  EXPECT_EQ(empty.status, WGPUPopErrorScopeStatus_Error);
  EXPECT_THAT(empty.message, HasSubstr("No error scopes to pop"));
  // Without a scope the error reaches the device's uncaptured-error callback.
  bad_buffer();
  dev->context->process_events();
  auto errors = dev->take_errors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_THAT(errors[0], HasSubstr("BufferUsage::(MapRead|Storage)"));
}

struct MapOutcome {
  WGPUMapAsyncStatus status{};
  std::string message;
  int calls = 0;
};

WGPUBufferMapCallbackInfo map_callback(MapOutcome* out) {
  WGPUBufferMapCallbackInfo cb{};
  cb.mode = WGPUCallbackMode_AllowProcessEvents;
  cb.userdata1 = out;
  cb.callback = [](WGPUMapAsyncStatus s, WGPUStringView m, void* u, void*) {
    auto* o = static_cast<MapOutcome*>(u);
    o->status = s;
    o->message = std::string(gpu::to_std(m));
    ++o->calls;
  };
  return cb;
}

TEST_F(GlDeviceTest, MapAsyncStatusesAndMapStates) {
  const Procs& p = dev->procs();
  Context& ctx = *dev->context;
  WGPUBufferDescriptor d{};
  d.size = 256;
  d.usage = WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc;
  WGPUBuffer upload = p.DeviceCreateBuffer(dev->device.get(), &d);
  EXPECT_EQ(p.BufferGetMapState(upload), WGPUBufferMapState_Unmapped);
  MapOutcome first;
  p.BufferMapAsync(upload, WGPUMapMode_Write, 0, 256, map_callback(&first));
  EXPECT_EQ(p.BufferGetMapState(upload), WGPUBufferMapState_Pending);
  testing::poll_until([&] { return first.calls != 0; }, [&] { ctx.process_events(); });
  ASSERT_EQ(first.status, WGPUMapAsyncStatus_Success);
  EXPECT_EQ(p.BufferGetMapState(upload), WGPUBufferMapState_Mapped);
  auto* bytes = static_cast<uint8_t*>(p.BufferGetMappedRange(upload, 0, 256));
  ASSERT_NE(bytes, nullptr);
  for (int i = 0; i < 256; ++i) bytes[i] = static_cast<uint8_t>(i);
  p.BufferUnmap(upload);
  EXPECT_EQ(p.BufferGetMapState(upload), WGPUBufferMapState_Unmapped);

  // Reading the written bytes back proves WGPUMapMode_Write wrote and WGPUMapMode_Read reads.
  d.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
  WGPUBuffer readback = p.DeviceCreateBuffer(dev->device.get(), &d);
  WGPUCommandEncoder e = p.DeviceCreateCommandEncoder(dev->device.get(), nullptr);
  p.CommandEncoderCopyBufferToBuffer(e, upload, 0, readback, 0, 256);
  WGPUCommandBuffer cmd = p.CommandEncoderFinish(e, nullptr);
  p.QueueSubmit(dev->queue.get(), 1, &cmd);
  p.CommandBufferRelease(cmd);
  p.CommandEncoderRelease(e);
  auto back = ctx.read_mapped(readback, 256, testing::kSafetyNet);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ((*back)[0], 0);
  EXPECT_EQ((*back)[200], 200);

  // Unmapping before the callback ran aborts the map.
  MapOutcome aborted;
  p.BufferMapAsync(readback, WGPUMapMode_Read, 0, 256, map_callback(&aborted));
  p.BufferUnmap(readback);
  testing::poll_until([&] { return aborted.calls != 0; }, [&] { ctx.process_events(); });
  EXPECT_EQ(aborted.status, WGPUMapAsyncStatus_Aborted);

  // Mapping for the wrong mode is an error naming the mode.
  MapOutcome wrong;
  std::string msg = testing::validation_message(*dev, [&] {
    p.BufferMapAsync(readback, WGPUMapMode_Write, 0, 256, map_callback(&wrong));
  });
  testing::poll_until([&] { return wrong.calls != 0; }, [&] { ctx.process_events(); });
  EXPECT_EQ(wrong.status, WGPUMapAsyncStatus_Error);
  EXPECT_THAT(msg + wrong.message, HasSubstr("MapMode::Write"));

  d.mappedAtCreation = 1;
  d.usage = WGPUBufferUsage_CopySrc;
  WGPUBuffer mapped = p.DeviceCreateBuffer(dev->device.get(), &d);
  EXPECT_EQ(p.BufferGetMapState(mapped), WGPUBufferMapState_Mapped);
  p.BufferUnmap(mapped);
  p.BufferRelease(mapped);
  p.BufferRelease(readback);
  p.BufferRelease(upload);
}

struct CompileOutcome {
  WGPUCompilationInfoRequestStatus status{};
  std::vector<WGPUCompilationMessage> messages;
  std::vector<std::string> texts;
};

CompileOutcome compilation_info(testing::TestDevice& dev, const std::string& code) {
  const Procs& p = dev.procs();
  WGPUShaderSourceWGSL wgsl{};
  wgsl.chain.sType = WGPUSType_ShaderSourceWGSL;
  wgsl.code = gpu::string_view(code);
  WGPUShaderModuleDescriptor sd{};
  sd.nextInChain = &wgsl.chain;
  CompileOutcome out;
  testing::capture_errors(dev, WGPUErrorFilter_Validation, [&] {
    WGPUShaderModule module = p.DeviceCreateShaderModule(dev.device.get(), &sd);
    WGPUCompilationInfoCallbackInfo cb{};
    cb.mode = WGPUCallbackMode_WaitAnyOnly;
    cb.userdata1 = &out;
    cb.callback = [](WGPUCompilationInfoRequestStatus s, const WGPUCompilationInfo* info, void* u, void*) {
      auto* o = static_cast<CompileOutcome*>(u);
      o->status = s;
      for (size_t i = 0; i < info->messageCount; ++i) {
        o->messages.push_back(info->messages[i]);
        o->texts.emplace_back(gpu::to_std(info->messages[i].message));
      }
    };
    EXPECT_TRUE(dev.context->wait(p.ShaderModuleGetCompilationInfo(module, cb), testing::kSafetyNet).ok());
    p.ShaderModuleRelease(module);
  });
  return out;
}

TEST_F(NullDeviceTest, CompilationMessagesCarryTypeLineAndColumn) {
  // Missing ';' at the end of line 3 is reported at the next token: line 4, column 3.
  auto broken = compilation_info(*dev, "fn f() -> i32 {\n  var x = 1;\n  x = 2\n  return x;\n}\n");
  EXPECT_EQ(broken.status, WGPUCompilationInfoRequestStatus_Success);
  ASSERT_EQ(broken.messages.size(), 1u);
  EXPECT_EQ(broken.messages[0].type, WGPUCompilationMessageType_Error);
  EXPECT_EQ(broken.messages[0].lineNum, 4u);
  EXPECT_EQ(broken.messages[0].linePos, 3u);
  EXPECT_THAT(broken.texts[0], HasSubstr("expected ';'"));
  // Unreachable code is a warning, on its own line and column.
  auto warned = compilation_info(*dev, "fn f() -> i32 {\n  return 1;\n  let y = 2;\n}\n");
  ASSERT_EQ(warned.messages.size(), 1u);
  EXPECT_EQ(warned.messages[0].type, WGPUCompilationMessageType_Warning);
  EXPECT_EQ(warned.messages[0].lineNum, 3u);
  EXPECT_EQ(warned.messages[0].linePos, 3u);
  EXPECT_THAT(warned.texts[0], HasSubstr("unreachable"));
}

// Compatibility mode fixes a texture's binding view dimension at creation through a chained
// struct; a bad value in it is refused by name, which proves the sType is read.
TEST_F(GlDeviceTest, TextureBindingViewDimensionDescriptorIsReadFromTheChain) {
  if (dev->adapter.description.feature_level != WGPUFeatureLevel_Compatibility) {
    GTEST_SKIP() << "only Compatibility adapters read the binding view dimension";
  }
  const Procs& p = dev->procs();
  WGPUTextureBindingViewDimensionDescriptor binding{};
  binding.chain.sType = WGPUSType_TextureBindingViewDimensionDescriptor;
  binding.textureBindingViewDimension = WGPUTextureViewDimension_Cube;
  WGPUTextureDescriptor d{};
  d.dimension = WGPUTextureDimension_2D;
  d.mipLevelCount = 1;
  d.sampleCount = 1;
  d.nextInChain = &binding.chain;
  d.size = {4, 4, 2};
  d.format = WGPUTextureFormat_RGBA8Unorm;
  d.usage = WGPUTextureUsage_TextureBinding;
  std::string msg = testing::validation_message(*dev, [&] { p.TextureRelease(p.DeviceCreateTexture(dev->device.get(), &d)); });
  EXPECT_THAT(msg, HasSubstr("TextureViewDimension of Cube is only compatible with depthOrArrayLayers equals 6")) << msg;
  EXPECT_THAT(msg, ::testing::Not(HasSubstr("Unexpected chained struct")));
  binding.textureBindingViewDimension = WGPUTextureViewDimension_2DArray;
  EXPECT_EQ(testing::validation_message(*dev, [&] { p.TextureRelease(p.DeviceCreateTexture(dev->device.get(), &d)); }), "");
}

}  // namespace
}  // namespace warden
