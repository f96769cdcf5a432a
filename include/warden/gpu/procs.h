/// @file
/// The proc table: one field for every entry point of the webgpu.h warden was built with,
/// resolved once with dlsym. Nothing above the gpu layer calls dlsym; everything calls through a
/// Procs.
#pragma once

#include <string>

#include "warden/gpu/abi.h"

namespace warden::gpu {

/// The entry points warden itself calls: X(return type, name without the "wgpu" prefix,
/// parameter list). They are required: Library::load() refuses a library that lacks one, naming
/// it. Every other entry of the table (WARDEN_WEBGPU_PROCS, generated from the header) is
/// resolved when the library exports it and left null, and named by Library::absent_procs(),
/// when it does not (docs/adr/0038).
/// With the reference ledger on, each entry of the table is a trampoline that counts the
/// references the call hands out or gives back, by the rule in docs/adr/0011 (object return
/// types, AddRef, Release, callbacks delivering objects, out-parameters handing out objects:
/// src/gpu/counting_procs.cpp).
#define WARDEN_GPU_PROCS(X)                                                                     \
  /* instance */                                                                                    \
  X(WGPUInstance, CreateInstance, (WGPUInstanceDescriptor const *))                                 \
  X(WGPUStatus, GetInstanceCapabilities, (WGPUInstanceCapabilities*))                               \
  X(WGPUFuture, InstanceRequestAdapter, (WGPUInstance, WGPURequestAdapterOptions const *, WGPURequestAdapterCallbackInfo)) \
  X(void, InstanceProcessEvents, (WGPUInstance))                                                    \
  X(WGPUWaitStatus, InstanceWaitAny, (WGPUInstance, size_t, WGPUFutureWaitInfo*, uint64_t))         \
  X(void, InstanceRelease, (WGPUInstance))                                                          \
  /* adapter */                                                                                     \
  X(WGPUStatus, AdapterGetInfo, (WGPUAdapter, WGPUAdapterInfo*))                                    \
  X(void, AdapterInfoFreeMembers, (WGPUAdapterInfo))                                                \
  X(WGPUStatus, AdapterGetLimits, (WGPUAdapter, WGPULimits*))                                       \
  X(void, AdapterGetFeatures, (WGPUAdapter, WGPUSupportedFeatures*))                                \
  X(WGPUBool, AdapterHasFeature, (WGPUAdapter, WGPUFeatureName))                                    \
  X(void, SupportedFeaturesFreeMembers, (WGPUSupportedFeatures))                                    \
  X(WGPUFuture, AdapterRequestDevice, (WGPUAdapter, WGPUDeviceDescriptor const *, WGPURequestDeviceCallbackInfo)) \
  X(void, AdapterRelease, (WGPUAdapter))                                                            \
  /* device */                                                                                      \
  X(WGPUBuffer, DeviceCreateBuffer, (WGPUDevice, WGPUBufferDescriptor const *))                     \
  X(WGPUTexture, DeviceCreateTexture, (WGPUDevice, WGPUTextureDescriptor const *))                  \
  X(WGPUSampler, DeviceCreateSampler, (WGPUDevice, WGPUSamplerDescriptor const *))                  \
  X(WGPUShaderModule, DeviceCreateShaderModule, (WGPUDevice, WGPUShaderModuleDescriptor const *))   \
  X(WGPUBindGroupLayout, DeviceCreateBindGroupLayout, (WGPUDevice, WGPUBindGroupLayoutDescriptor const *)) \
  X(WGPUPipelineLayout, DeviceCreatePipelineLayout, (WGPUDevice, WGPUPipelineLayoutDescriptor const *)) \
  X(WGPUBindGroup, DeviceCreateBindGroup, (WGPUDevice, WGPUBindGroupDescriptor const *))            \
  X(WGPURenderPipeline, DeviceCreateRenderPipeline, (WGPUDevice, WGPURenderPipelineDescriptor const *)) \
  X(WGPUComputePipeline, DeviceCreateComputePipeline, (WGPUDevice, WGPUComputePipelineDescriptor const *)) \
  X(WGPUQuerySet, DeviceCreateQuerySet, (WGPUDevice, WGPUQuerySetDescriptor const *))               \
  X(WGPUCommandEncoder, DeviceCreateCommandEncoder, (WGPUDevice, WGPUCommandEncoderDescriptor const *)) \
  X(WGPUQueue, DeviceGetQueue, (WGPUDevice))                                                        \
  X(WGPUStatus, DeviceGetLimits, (WGPUDevice, WGPULimits*))                                         \
  X(WGPUStatus, DeviceGetAdapterInfo, (WGPUDevice, WGPUAdapterInfo*))                               \
  X(WGPUBool, DeviceHasFeature, (WGPUDevice, WGPUFeatureName))                                      \
  X(void, DevicePushErrorScope, (WGPUDevice, WGPUErrorFilter))                                      \
  X(WGPUFuture, DevicePopErrorScope, (WGPUDevice, WGPUPopErrorScopeCallbackInfo))                   \
  X(WGPUFuture, DeviceGetLostFuture, (WGPUDevice))                                                  \
  X(void, DeviceForceLoss, (WGPUDevice, WGPUDeviceLostReason, WGPUStringView))                      \
  X(void, DeviceTick, (WGPUDevice))                                                                 \
  X(void, DeviceDestroy, (WGPUDevice))                                                              \
  X(void, DeviceAddRef, (WGPUDevice))                                                               \
  X(void, DeviceRelease, (WGPUDevice))                                                              \
  /* queue */                                                                                       \
  X(void, QueueSubmit, (WGPUQueue, size_t, WGPUCommandBuffer const *))                              \
  X(void, QueueWriteBuffer, (WGPUQueue, WGPUBuffer, uint64_t, void const *, size_t))                \
  X(void, QueueWriteTexture, (WGPUQueue, WGPUTexelCopyTextureInfo const *, void const *, size_t, WGPUTexelCopyBufferLayout const *, WGPUExtent3D const *)) \
  X(WGPUFuture, QueueOnSubmittedWorkDone, (WGPUQueue, WGPUQueueWorkDoneCallbackInfo))               \
  X(void, QueueRelease, (WGPUQueue))                                                                \
  /* buffer */                                                                                      \
  X(WGPUFuture, BufferMapAsync, (WGPUBuffer, WGPUMapMode, size_t, size_t, WGPUBufferMapCallbackInfo)) \
  X(void*, BufferGetMappedRange, (WGPUBuffer, size_t, size_t))                                      \
  X(void const *, BufferGetConstMappedRange, (WGPUBuffer, size_t, size_t))                          \
  X(void, BufferUnmap, (WGPUBuffer))                                                                \
  X(uint64_t, BufferGetSize, (WGPUBuffer))                                                          \
  X(WGPUBufferUsage, BufferGetUsage, (WGPUBuffer))                                                  \
  X(WGPUBufferMapState, BufferGetMapState, (WGPUBuffer))                                            \
  X(void, BufferDestroy, (WGPUBuffer))                                                              \
  X(void, BufferAddRef, (WGPUBuffer))                                                               \
  X(void, BufferRelease, (WGPUBuffer))                                                              \
  /* texture */                                                                                     \
  X(WGPUTextureView, TextureCreateView, (WGPUTexture, WGPUTextureViewDescriptor const *))           \
  X(WGPUTextureFormat, TextureGetFormat, (WGPUTexture))                                             \
  X(uint32_t, TextureGetWidth, (WGPUTexture))                                                       \
  X(uint32_t, TextureGetHeight, (WGPUTexture))                                                      \
  X(uint32_t, TextureGetDepthOrArrayLayers, (WGPUTexture))                                          \
  X(uint32_t, TextureGetMipLevelCount, (WGPUTexture))                                               \
  X(uint32_t, TextureGetSampleCount, (WGPUTexture))                                                 \
  X(WGPUTextureDimension, TextureGetDimension, (WGPUTexture))                                       \
  X(WGPUTextureUsage, TextureGetUsage, (WGPUTexture))                                               \
  X(void, TextureDestroy, (WGPUTexture))                                                            \
  X(void, TextureAddRef, (WGPUTexture))                                                             \
  X(void, TextureRelease, (WGPUTexture))                                                            \
  X(void, TextureViewAddRef, (WGPUTextureView))                                                     \
  X(void, TextureViewRelease, (WGPUTextureView))                                                    \
  /* other objects */                                                                               \
  X(void, SamplerAddRef, (WGPUSampler))                                                             \
  X(void, SamplerRelease, (WGPUSampler))                                                            \
  X(WGPUFuture, ShaderModuleGetCompilationInfo, (WGPUShaderModule, WGPUCompilationInfoCallbackInfo)) \
  X(void, ShaderModuleAddRef, (WGPUShaderModule))                                                   \
  X(void, ShaderModuleRelease, (WGPUShaderModule))                                                  \
  X(void, BindGroupLayoutAddRef, (WGPUBindGroupLayout))                                             \
  X(void, BindGroupLayoutRelease, (WGPUBindGroupLayout))                                            \
  X(void, PipelineLayoutAddRef, (WGPUPipelineLayout))                                               \
  X(void, PipelineLayoutRelease, (WGPUPipelineLayout))                                              \
  X(void, BindGroupAddRef, (WGPUBindGroup))                                                         \
  X(void, BindGroupRelease, (WGPUBindGroup))                                                        \
  X(WGPUBindGroupLayout, RenderPipelineGetBindGroupLayout, (WGPURenderPipeline, uint32_t))          \
  X(void, RenderPipelineAddRef, (WGPURenderPipeline))                                               \
  X(void, RenderPipelineRelease, (WGPURenderPipeline))                                              \
  X(WGPUBindGroupLayout, ComputePipelineGetBindGroupLayout, (WGPUComputePipeline, uint32_t))        \
  X(void, ComputePipelineAddRef, (WGPUComputePipeline))                                             \
  X(void, ComputePipelineRelease, (WGPUComputePipeline))                                            \
  X(WGPUQueryType, QuerySetGetType, (WGPUQuerySet))                                                 \
  X(uint32_t, QuerySetGetCount, (WGPUQuerySet))                                                     \
  X(void, QuerySetDestroy, (WGPUQuerySet))                                                          \
  X(void, QuerySetAddRef, (WGPUQuerySet))                                                           \
  X(void, QuerySetRelease, (WGPUQuerySet))                                                          \
  /* recording */                                                                                   \
  X(WGPURenderPassEncoder, CommandEncoderBeginRenderPass, (WGPUCommandEncoder, WGPURenderPassDescriptor const *)) \
  X(WGPUComputePassEncoder, CommandEncoderBeginComputePass, (WGPUCommandEncoder, WGPUComputePassDescriptor const *)) \
  X(void, CommandEncoderCopyBufferToBuffer, (WGPUCommandEncoder, WGPUBuffer, uint64_t, WGPUBuffer, uint64_t, uint64_t)) \
  X(void, CommandEncoderCopyBufferToTexture, (WGPUCommandEncoder, WGPUTexelCopyBufferInfo const *, WGPUTexelCopyTextureInfo const *, WGPUExtent3D const *)) \
  X(void, CommandEncoderCopyTextureToBuffer, (WGPUCommandEncoder, WGPUTexelCopyTextureInfo const *, WGPUTexelCopyBufferInfo const *, WGPUExtent3D const *)) \
  X(void, CommandEncoderCopyTextureToTexture, (WGPUCommandEncoder, WGPUTexelCopyTextureInfo const *, WGPUTexelCopyTextureInfo const *, WGPUExtent3D const *)) \
  X(void, CommandEncoderClearBuffer, (WGPUCommandEncoder, WGPUBuffer, uint64_t, uint64_t))          \
  X(WGPUCommandBuffer, CommandEncoderFinish, (WGPUCommandEncoder, WGPUCommandBufferDescriptor const *)) \
  X(void, CommandEncoderRelease, (WGPUCommandEncoder))                                              \
  X(void, CommandBufferRelease, (WGPUCommandBuffer))                                                \
  X(void, RenderPassEncoderSetPipeline, (WGPURenderPassEncoder, WGPURenderPipeline))                \
  X(void, RenderPassEncoderSetBindGroup, (WGPURenderPassEncoder, uint32_t, WGPUBindGroup, size_t, uint32_t const *)) \
  X(void, RenderPassEncoderSetVertexBuffer, (WGPURenderPassEncoder, uint32_t, WGPUBuffer, uint64_t, uint64_t)) \
  X(void, RenderPassEncoderSetIndexBuffer, (WGPURenderPassEncoder, WGPUBuffer, WGPUIndexFormat, uint64_t, uint64_t)) \
  X(void, RenderPassEncoderSetViewport, (WGPURenderPassEncoder, float, float, float, float, float, float)) \
  X(void, RenderPassEncoderSetScissorRect, (WGPURenderPassEncoder, uint32_t, uint32_t, uint32_t, uint32_t)) \
  X(void, RenderPassEncoderDraw, (WGPURenderPassEncoder, uint32_t, uint32_t, uint32_t, uint32_t))   \
  X(void, RenderPassEncoderDrawIndexed, (WGPURenderPassEncoder, uint32_t, uint32_t, uint32_t, int32_t, uint32_t)) \
  X(void, RenderPassEncoderEnd, (WGPURenderPassEncoder))                                            \
  X(void, RenderPassEncoderRelease, (WGPURenderPassEncoder))                                        \
  X(void, ComputePassEncoderSetPipeline, (WGPUComputePassEncoder, WGPUComputePipeline))             \
  X(void, ComputePassEncoderSetBindGroup, (WGPUComputePassEncoder, uint32_t, WGPUBindGroup, size_t, uint32_t const *)) \
  X(void, ComputePassEncoderDispatchWorkgroups, (WGPUComputePassEncoder, uint32_t, uint32_t, uint32_t)) \
  X(void, ComputePassEncoderEnd, (WGPUComputePassEncoder))                                          \
  X(void, ComputePassEncoderRelease, (WGPUComputePassEncoder))                                      \
  X(WGPURenderBundleEncoder, DeviceCreateRenderBundleEncoder, (WGPUDevice, WGPURenderBundleEncoderDescriptor const *)) \
  X(WGPURenderBundle, RenderBundleEncoderFinish, (WGPURenderBundleEncoder, WGPURenderBundleDescriptor const *)) \
  X(void, RenderBundleAddRef, (WGPURenderBundle))                                                   \
  X(void, RenderBundleRelease, (WGPURenderBundle))                                                  \
  X(void, RenderBundleEncoderAddRef, (WGPURenderBundleEncoder))                                     \
  X(void, RenderBundleEncoderRelease, (WGPURenderBundleEncoder))                                    \
  /* surface (presentation) */                                                                      \
  X(WGPUSurface, InstanceCreateSurface, (WGPUInstance, WGPUSurfaceDescriptor const *))              \
  X(WGPUAdapter, DeviceGetAdapter, (WGPUDevice)) /* a new reference: what the surface is queried with */ \
  X(WGPUStatus, SurfaceGetCapabilities, (WGPUSurface, WGPUAdapter, WGPUSurfaceCapabilities*))       \
  X(void, SurfaceCapabilitiesFreeMembers, (WGPUSurfaceCapabilities))                                \
  X(void, SurfaceConfigure, (WGPUSurface, WGPUSurfaceConfiguration const *))                        \
  X(void, SurfaceGetCurrentTexture, (WGPUSurface, WGPUSurfaceTexture*))                             \
  X(void, SurfacePresent, (WGPUSurface))                                                            \
  X(void, SurfaceUnconfigure, (WGPUSurface))                                                        \
  X(void, SurfaceAddRef, (WGPUSurface))                                                             \
  X(void, SurfaceRelease, (WGPUSurface))                                                            \
  /* asynchronous pipeline creation */                                                              \
  X(WGPUFuture, DeviceCreateRenderPipelineAsync, (WGPUDevice, WGPURenderPipelineDescriptor const *, WGPUCreateRenderPipelineAsyncCallbackInfo)) \
  X(WGPUFuture, DeviceCreateComputePipelineAsync, (WGPUDevice, WGPUComputePipelineDescriptor const *, WGPUCreateComputePipelineAsyncCallbackInfo))

/// The proc table: one function pointer per WARDEN_WEBGPU_PROCS entry (every WGPUProc of the
/// header, in the list's order), filled by Library::load(); null where the library does not
/// export the entry (Library::absent_procs(), Library::require()).
struct Procs {
#define WARDEN_GPU_PROC_FIELD(Ret, Name, Params) WGPUProc##Name Name = nullptr;
  WARDEN_WEBGPU_PROCS(WARDEN_GPU_PROC_FIELD)
#undef WARDEN_GPU_PROC_FIELD
};

}  // namespace warden::gpu
