// The instance, adapters, devices and futures of warden's webgpu.h library.
#include <chrono>
#include <thread>

#include <fmt/format.h>

#include "webgpu_h/entries.h"
#include "webgpu_h/library.h"

namespace warden::webgpu_h {

WGPUProc exported_proc(std::string_view name);

namespace {

// The backend a request names, as warden chooses adapters: none named is warden's Auto (Vulkan
// on a GPU, else OpenGL, then OpenGL ES), not Dawn's default, which this Dawn build answers
// with its Null adapter.
std::optional<gpu::BackendChoice> backend_choice(WGPUBackendType backend) {
  switch (backend) {
    case WGPUBackendType_Undefined: return gpu::BackendChoice::Auto;
    case WGPUBackendType_Vulkan: return gpu::BackendChoice::Vulkan;
    case WGPUBackendType_OpenGL: return gpu::BackendChoice::GL;
    case WGPUBackendType_OpenGLES: return gpu::BackendChoice::GLES;
    case WGPUBackendType_Null: return gpu::BackendChoice::Null;
    default: return std::nullopt;
  }
}

// Where a Dawn callback of a forwarded asynchronous call goes: the application's callback, run
// when the instance's future says so.
template <typename Info>
struct Relay {
  FutureTable* futures;
  WGPUFuture future;
  Info info;
};

}  // namespace

WGPUInstance Entry<ProcId::CreateInstance>::call(const WGPUInstanceDescriptor*) {
  std::string why;
  Instance* instance = Instance::create(&why);
  if (instance == nullptr) {
    std::fprintf(stderr, "warden webgpu: wgpuCreateInstance: %s\n", why.c_str());
    return nullptr;
  }
  return to_app<WGPUInstance>(instance);
}

WGPUStatus Entry<ProcId::GetInstanceCapabilities>::call(WGPUInstanceCapabilities* capabilities) {
  if (capabilities == nullptr) return WGPUStatus_Error;
  // Every wait is served by warden's own futures (FutureTable), with a timeout.
  capabilities->timedWaitAnyEnable = 1;
  capabilities->timedWaitAnyMaxCount = 64;
  return WGPUStatus_Success;
}

WGPUProc Entry<ProcId::GetProcAddress>::call(WGPUStringView name) { return exported_proc(gpu::to_std(name)); }

WGPUFuture Entry<ProcId::InstanceRequestAdapter>::call(WGPUInstance instance, const WGPURequestAdapterOptions* options,
                                                       WGPURequestAdapterCallbackInfo info) {
  Instance* self = checked<Instance>(instance, Kind::Instance, ProcId::InstanceRequestAdapter);
  if (self == nullptr) return WGPUFuture{0};
  const WGPUFuture future = self->futures().add(info.mode);
  const WGPUBackendType backend = options != nullptr ? options->backendType : WGPUBackendType_Undefined;
  WGPUAdapter adapter = nullptr;
  std::string message;
  WGPURequestAdapterStatus status = WGPURequestAdapterStatus_Unavailable;
  if (auto choice = backend_choice(backend)) {
    auto selected = self->context().select_adapter(*choice);
    if (selected) {
      adapter = to_app<WGPUAdapter>(new Adapter(*self, std::move(*selected), *choice));
      status = WGPURequestAdapterStatus_Success;
    } else {
      message = selected.error().message;
    }
  } else {
    message = fmt::format("warden's webgpu.h library serves the Vulkan, OpenGL, OpenGL ES and Null backends, "
                          "not backend type {}", static_cast<int>(backend));
  }
  self->futures().complete(future, [info, status, adapter, message] {
    if (info.callback != nullptr) {
      info.callback(status, adapter, gpu::string_view(message), info.userdata1, info.userdata2);
    } else if (adapter != nullptr) {
      reinterpret_cast<Object*>(adapter)->release();
    }
  });
  return future;
}

void Entry<ProcId::InstanceProcessEvents>::call(WGPUInstance instance) {
  if (Instance* self = checked<Instance>(instance, Kind::Instance, ProcId::InstanceProcessEvents)) self->process_events();
}

WGPUWaitStatus Entry<ProcId::InstanceWaitAny>::call(WGPUInstance instance, size_t count, WGPUFutureWaitInfo* futures,
                                                    uint64_t timeout_ns) {
  Instance* self = checked<Instance>(instance, Kind::Instance, ProcId::InstanceWaitAny);
  if (self == nullptr) return WGPUWaitStatus_Error;
  for (size_t i = 0; i < count; ++i) {
    if (self->futures().unknown(futures[i].future)) return WGPUWaitStatus_Error;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds(timeout_ns);
  for (;;) {
    if (self->pump_and_check(count, futures)) return WGPUWaitStatus_Success;
    if (timeout_ns == 0 || std::chrono::steady_clock::now() >= deadline) return WGPUWaitStatus_TimedOut;
    gpu::count_blocking_wait();
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

WGPUFuture Entry<ProcId::AdapterRequestDevice>::call(WGPUAdapter adapter, const WGPUDeviceDescriptor* desc,
                                                     WGPURequestDeviceCallbackInfo info) {
  Adapter* self = checked<Adapter>(adapter, Kind::Adapter, ProcId::AdapterRequestDevice);
  if (self == nullptr) return WGPUFuture{0};
  const WGPUFuture future = self->instance().futures().add(info.mode);
  std::string why;
  Device* device = Device::create(*self, desc, &why);
  const WGPURequestDeviceStatus status = device != nullptr ? WGPURequestDeviceStatus_Success : WGPURequestDeviceStatus_Error;
  self->instance().futures().complete(future, [info, status, device, why] {
    WGPUDevice app = to_app<WGPUDevice>(device);
    if (info.callback != nullptr) {
      info.callback(status, app, gpu::string_view(why), info.userdata1, info.userdata2);
    } else if (device != nullptr) {
      device->release();
    }
  });
  return future;
}

WGPUDevice Entry<ProcId::AdapterCreateDevice>::call(WGPUAdapter adapter, const WGPUDeviceDescriptor* desc) {
  Adapter* self = checked<Adapter>(adapter, Kind::Adapter, ProcId::AdapterCreateDevice);
  if (self == nullptr) return nullptr;
  std::string why;
  Device* device = Device::create(*self, desc, &why);
  if (device == nullptr) std::fprintf(stderr, "warden webgpu: wgpuAdapterCreateDevice: %s\n", why.c_str());
  return to_app<WGPUDevice>(device);
}

WGPUInstance Entry<ProcId::AdapterGetInstance>::call(WGPUAdapter adapter) {
  Adapter* self = checked<Adapter>(adapter, Kind::Adapter, ProcId::AdapterGetInstance);
  if (self == nullptr) return nullptr;
  self->instance().add_ref();
  return to_app<WGPUInstance>(&self->instance());
}

WGPUAdapter Entry<ProcId::DeviceGetAdapter>::call(WGPUDevice device) {
  Device* self = checked<Device>(device, Kind::Device, ProcId::DeviceGetAdapter);
  if (self == nullptr) return nullptr;
  self->adapter().add_ref();
  return to_app<WGPUAdapter>(&self->adapter());
}

WGPUQueue Entry<ProcId::DeviceGetQueue>::call(WGPUDevice device) {
  Device* self = checked<Device>(device, Kind::Device, ProcId::DeviceGetQueue);
  if (self == nullptr) return nullptr;
  self->add_ref();  // the queue's references are its device's
  return to_app<WGPUQueue>(&self->queue());
}

WGPUFuture Entry<ProcId::DeviceGetLostFuture>::call(WGPUDevice device) {
  Device* self = checked<Device>(device, Kind::Device, ProcId::DeviceGetLostFuture);
  return self != nullptr ? self->lost_future() : WGPUFuture{0};
}

WGPUFuture Entry<ProcId::DevicePopErrorScope>::call(WGPUDevice device, WGPUPopErrorScopeCallbackInfo info) {
  Device* self = checked<Device>(device, Kind::Device, ProcId::DevicePopErrorScope);
  if (self == nullptr) return WGPUFuture{0};
  FutureTable& futures = self->instance().futures();
  const WGPUFuture future = futures.add(info.mode);
  WGPUDevice current = self->ready_device();
  if (current == nullptr) {
    std::string why;
    (void)self->dawn(&why);
    futures.complete(future, [info, why] {
      if (info.callback != nullptr) {
        info.callback(WGPUPopErrorScopeStatus_Error, WGPUErrorType_NoError, gpu::string_view(why), info.userdata1,
                      info.userdata2);
      }
    });
    return future;
  }
  auto* relay = new Relay<WGPUPopErrorScopeCallbackInfo>{&futures, future, info};
  WGPUPopErrorScopeCallbackInfo dawn_info{};
  dawn_info.mode = dawn_mode(info.mode);
  dawn_info.userdata1 = relay;
  dawn_info.callback = [](WGPUPopErrorScopeStatus status, WGPUErrorType type, WGPUStringView message, void* userdata1,
                          void*) {
    auto* r = static_cast<Relay<WGPUPopErrorScopeCallbackInfo>*>(userdata1);
    const std::string words(gpu::to_std(message));
    const WGPUPopErrorScopeCallbackInfo app = r->info;
    r->futures->complete(r->future, [app, status, type, words] {
      if (app.callback != nullptr) app.callback(status, type, gpu::string_view(words), app.userdata1, app.userdata2);
    });
    delete r;
  };
  self->procs().DevicePopErrorScope(current, dawn_info);
  return future;
}

void Entry<ProcId::DeviceSetLoggingCallback>::call(WGPUDevice device, WGPULoggingCallbackInfo info) {
  Device* self = checked<Device>(device, Kind::Device, ProcId::DeviceSetLoggingCallback);
  if (self == nullptr) return;
  // Its callback names no object: Dawn's current device takes it as it is.
  if (WGPUDevice current = self->ready_device()) self->procs().DeviceSetLoggingCallback(current, info);
}

void Entry<ProcId::DeviceTick>::call(WGPUDevice device) {
  if (Device* self = checked<Device>(device, Kind::Device, ProcId::DeviceTick)) self->poll();
}

void Entry<ProcId::DeviceDestroy>::call(WGPUDevice device) {
  if (Device* self = checked<Device>(device, Kind::Device, ProcId::DeviceDestroy)) self->destroy();
}

void Entry<ProcId::DeviceForceLoss>::call(WGPUDevice device, WGPUDeviceLostReason, WGPUStringView message) {
  Device* self = checked<Device>(device, Kind::Device, ProcId::DeviceForceLoss);
  // A loss warden recovers from: applications and tests rehearse one this way. The state settles
  // in the call: what was recorded until now belongs to a lost generation.
  if (self != nullptr) self->force_loss(gpu::to_std(message));
}

}  // namespace warden::webgpu_h
