// The entry points that do more than forward (forward.h): those that hand out warden's objects,
// take structs that name objects, return futures, or keep what a rebuild needs. Each is defined
// in the entries_*.cpp of its family.
#pragma once

#include <type_traits>

#include "webgpu_h/forward.h"

namespace warden::webgpu_h {

// An entry point of warden's own, with the header's exact signature.
#define WARDEN_WEBGPU_OWN_ENTRY(Name)                       \
  template <>                                               \
  struct Entry<ProcId::Name> {                              \
    static std::remove_pointer_t<WGPUProc##Name> call;      \
  };

/// An entry point the library does not serve (docs/webgpu-library.md, "What is not served"): it
/// reports an error naming itself to the device of its first argument and returns null or zero.
template <ProcId Id>
struct Unsupported {
  template <typename... Args>
  static auto call(Args... args) {
    using Ret = decltype((dawn_procs().*Member<Id>::value)(args...));
    Call failed{Id};
    failed.failure = "warden's webgpu.h library does not serve this entry point";
    ((failed.device == nullptr ? (void)(failed.device = device_of_argument(args)) : (void)0), ...);
    failed.report();
    if constexpr (!std::is_void_v<Ret>) return Ret{};
  }
  template <typename T>
  static Device* device_of_argument(T value) {
    if constexpr (IsObject<T>::value) {
      auto* object = value == nullptr ? nullptr : reinterpret_cast<Object*>(value);
      return object != nullptr && object->is_warden_object() ? object->device() : nullptr;
    } else {
      return nullptr;
    }
  }
};
#define WARDEN_WEBGPU_UNSUPPORTED_ENTRY(Name) \
  template <>                                 \
  struct Entry<ProcId::Name> : Unsupported<ProcId::Name> {};

// ---- entries_instance.cpp: instance, adapter, device, futures ----------------------------------
WARDEN_WEBGPU_OWN_ENTRY(CreateInstance)
WARDEN_WEBGPU_OWN_ENTRY(GetInstanceCapabilities)
WARDEN_WEBGPU_OWN_ENTRY(GetProcAddress)
WARDEN_WEBGPU_OWN_ENTRY(InstanceRequestAdapter)
WARDEN_WEBGPU_OWN_ENTRY(InstanceProcessEvents)
WARDEN_WEBGPU_OWN_ENTRY(InstanceWaitAny)
WARDEN_WEBGPU_OWN_ENTRY(AdapterRequestDevice)
WARDEN_WEBGPU_OWN_ENTRY(AdapterCreateDevice)
WARDEN_WEBGPU_OWN_ENTRY(AdapterGetInstance)
WARDEN_WEBGPU_OWN_ENTRY(DeviceGetAdapter)
WARDEN_WEBGPU_OWN_ENTRY(DeviceGetQueue)
WARDEN_WEBGPU_OWN_ENTRY(DeviceGetLostFuture)
WARDEN_WEBGPU_OWN_ENTRY(DevicePopErrorScope)
WARDEN_WEBGPU_OWN_ENTRY(DeviceSetLoggingCallback)
WARDEN_WEBGPU_OWN_ENTRY(DeviceTick)
WARDEN_WEBGPU_OWN_ENTRY(DeviceDestroy)
WARDEN_WEBGPU_OWN_ENTRY(DeviceForceLoss)
WARDEN_WEBGPU_OWN_ENTRY(QueueAddRef)
WARDEN_WEBGPU_OWN_ENTRY(QueueRelease)

// ---- entries_lifetime.cpp: references, labels, destroy, for every kind -----------------------
#define WARDEN_WEBGPU_REFERENCE_ENTRIES(Name) \
  WARDEN_WEBGPU_OWN_ENTRY(Name##AddRef)       \
  WARDEN_WEBGPU_OWN_ENTRY(Name##Release)
#define WARDEN_WEBGPU_REFERENCE_KINDS(X)                                                       \
  X(Instance) X(Adapter) X(Device) X(Buffer) X(Texture) X(TextureView) X(Sampler)               \
  X(ShaderModule) X(BindGroupLayout) X(PipelineLayout) X(BindGroup) X(RenderPipeline)           \
  X(ComputePipeline) X(QuerySet) X(CommandEncoder) X(CommandBuffer) X(RenderPassEncoder)        \
  X(ComputePassEncoder) X(RenderBundle) X(RenderBundleEncoder) X(Surface) X(ExternalTexture)    \
  X(SharedBufferMemory) X(SharedTextureMemory) X(SharedFence)
WARDEN_WEBGPU_REFERENCE_KINDS(WARDEN_WEBGPU_REFERENCE_ENTRIES)
WARDEN_WEBGPU_OWN_ENTRY(BufferDestroy)
WARDEN_WEBGPU_OWN_ENTRY(TextureDestroy)
WARDEN_WEBGPU_OWN_ENTRY(QuerySetDestroy)

// ---- entries_create.cpp: objects made from native descriptors ---------------------------------
WARDEN_WEBGPU_OWN_ENTRY(DeviceCreateBuffer)
WARDEN_WEBGPU_OWN_ENTRY(DeviceCreateTexture)
WARDEN_WEBGPU_OWN_ENTRY(TextureCreateView)
WARDEN_WEBGPU_OWN_ENTRY(DeviceCreateSampler)
WARDEN_WEBGPU_OWN_ENTRY(DeviceCreateShaderModule)
WARDEN_WEBGPU_OWN_ENTRY(DeviceCreateBindGroupLayout)
WARDEN_WEBGPU_OWN_ENTRY(DeviceCreatePipelineLayout)
WARDEN_WEBGPU_OWN_ENTRY(DeviceCreateBindGroup)
WARDEN_WEBGPU_OWN_ENTRY(DeviceCreateRenderPipeline)
WARDEN_WEBGPU_OWN_ENTRY(DeviceCreateComputePipeline)
WARDEN_WEBGPU_OWN_ENTRY(DeviceCreateRenderPipelineAsync)
WARDEN_WEBGPU_OWN_ENTRY(DeviceCreateComputePipelineAsync)
WARDEN_WEBGPU_OWN_ENTRY(DeviceCreateQuerySet)
WARDEN_WEBGPU_OWN_ENTRY(ShaderModuleGetCompilationInfo)

// ---- entries_record.cpp: encoders, passes, the queue, mapping --------------------------------
WARDEN_WEBGPU_OWN_ENTRY(DeviceCreateCommandEncoder)
WARDEN_WEBGPU_OWN_ENTRY(CommandEncoderBeginRenderPass)
WARDEN_WEBGPU_OWN_ENTRY(CommandEncoderBeginComputePass)
WARDEN_WEBGPU_OWN_ENTRY(CommandEncoderCopyBufferToTexture)
WARDEN_WEBGPU_OWN_ENTRY(CommandEncoderCopyTextureToBuffer)
WARDEN_WEBGPU_OWN_ENTRY(CommandEncoderCopyTextureToTexture)
WARDEN_WEBGPU_OWN_ENTRY(CommandEncoderFinish)
WARDEN_WEBGPU_OWN_ENTRY(RenderPassEncoderExecuteBundles)
WARDEN_WEBGPU_OWN_ENTRY(QueueSubmit)
WARDEN_WEBGPU_OWN_ENTRY(QueueWriteBuffer)
WARDEN_WEBGPU_OWN_ENTRY(QueueWriteTexture)
WARDEN_WEBGPU_OWN_ENTRY(QueueOnSubmittedWorkDone)
WARDEN_WEBGPU_OWN_ENTRY(BufferMapAsync)
WARDEN_WEBGPU_OWN_ENTRY(BufferUnmap)

// ---- entries_bundle.cpp: render bundles, recorded as the registry's recipe ------------------
WARDEN_WEBGPU_OWN_ENTRY(DeviceCreateRenderBundleEncoder)
WARDEN_WEBGPU_OWN_ENTRY(RenderBundleEncoderSetPipeline)
WARDEN_WEBGPU_OWN_ENTRY(RenderBundleEncoderSetBindGroup)
WARDEN_WEBGPU_OWN_ENTRY(RenderBundleEncoderSetVertexBuffer)
WARDEN_WEBGPU_OWN_ENTRY(RenderBundleEncoderSetIndexBuffer)
WARDEN_WEBGPU_OWN_ENTRY(RenderBundleEncoderDraw)
WARDEN_WEBGPU_OWN_ENTRY(RenderBundleEncoderDrawIndexed)
WARDEN_WEBGPU_OWN_ENTRY(RenderBundleEncoderDrawIndirect)
WARDEN_WEBGPU_OWN_ENTRY(RenderBundleEncoderDrawIndexedIndirect)
WARDEN_WEBGPU_OWN_ENTRY(RenderBundleEncoderInsertDebugMarker)
WARDEN_WEBGPU_OWN_ENTRY(RenderBundleEncoderPushDebugGroup)
WARDEN_WEBGPU_OWN_ENTRY(RenderBundleEncoderPopDebugGroup)
WARDEN_WEBGPU_OWN_ENTRY(RenderBundleEncoderSetImmediateData)
WARDEN_WEBGPU_OWN_ENTRY(RenderBundleEncoderSetLabel)
WARDEN_WEBGPU_OWN_ENTRY(RenderBundleEncoderFinish)

// ---- entries_derived.cpp: a pipeline's implicit layouts and their groups ---------------------
WARDEN_WEBGPU_OWN_ENTRY(RenderPipelineGetBindGroupLayout)
WARDEN_WEBGPU_OWN_ENTRY(ComputePipelineGetBindGroupLayout)

// ---- entries_surface.cpp: surfaces, a Dawn surface per generation on the same window -----------
WARDEN_WEBGPU_OWN_ENTRY(InstanceCreateSurface)
WARDEN_WEBGPU_OWN_ENTRY(SurfaceGetCapabilities)
WARDEN_WEBGPU_OWN_ENTRY(SurfaceConfigure)
WARDEN_WEBGPU_OWN_ENTRY(SurfaceUnconfigure)
WARDEN_WEBGPU_OWN_ENTRY(SurfaceGetCurrentTexture)
WARDEN_WEBGPU_OWN_ENTRY(SurfacePresent)

// ---- not served yet -------------------------------------------------------------------------
WARDEN_WEBGPU_UNSUPPORTED_ENTRY(TextureCreateErrorView)
WARDEN_WEBGPU_UNSUPPORTED_ENTRY(DeviceCreateErrorBuffer)
WARDEN_WEBGPU_UNSUPPORTED_ENTRY(DeviceCreateErrorExternalTexture)
WARDEN_WEBGPU_UNSUPPORTED_ENTRY(DeviceCreateErrorShaderModule)
WARDEN_WEBGPU_UNSUPPORTED_ENTRY(DeviceCreateErrorTexture)
WARDEN_WEBGPU_UNSUPPORTED_ENTRY(DeviceCreateExternalTexture)
WARDEN_WEBGPU_UNSUPPORTED_ENTRY(DeviceImportSharedBufferMemory)
WARDEN_WEBGPU_UNSUPPORTED_ENTRY(DeviceImportSharedFence)
WARDEN_WEBGPU_UNSUPPORTED_ENTRY(DeviceImportSharedTextureMemory)
WARDEN_WEBGPU_UNSUPPORTED_ENTRY(DeviceValidateTextureDescriptor)
WARDEN_WEBGPU_UNSUPPORTED_ENTRY(QueueCopyExternalTextureForBrowser)
WARDEN_WEBGPU_UNSUPPORTED_ENTRY(QueueCopyTextureForBrowser)
WARDEN_WEBGPU_UNSUPPORTED_ENTRY(SharedBufferMemoryBeginAccess)
WARDEN_WEBGPU_UNSUPPORTED_ENTRY(SharedBufferMemoryCreateBuffer)
WARDEN_WEBGPU_UNSUPPORTED_ENTRY(SharedBufferMemoryEndAccess)
WARDEN_WEBGPU_UNSUPPORTED_ENTRY(SharedBufferMemoryEndAccessStateFreeMembers)
WARDEN_WEBGPU_UNSUPPORTED_ENTRY(SharedTextureMemoryBeginAccess)
WARDEN_WEBGPU_UNSUPPORTED_ENTRY(SharedTextureMemoryCreateTexture)
WARDEN_WEBGPU_UNSUPPORTED_ENTRY(SharedTextureMemoryEndAccess)
WARDEN_WEBGPU_UNSUPPORTED_ENTRY(SharedTextureMemoryEndAccessStateFreeMembers)

}  // namespace warden::webgpu_h
