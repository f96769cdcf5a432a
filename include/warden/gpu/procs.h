/// @file
/// The proc table: every webgpu.h entry point warden calls, resolved once with dlsym.
/// Nothing above the gpu layer calls dlsym; everything calls through a Procs.
#pragma once

#include <string>

#include "warden/gpu/abi.h"

namespace warden::gpu {

/// X(return type, name without the "wgpu" prefix, parameter list). One list generates the
/// table's fields, the loader and the tests that check each symbol resolves.
/// With the reference ledger on, each entry is a trampoline that counts the references the call
/// hands out or gives back, by the rule in docs/adr/0011 (object return types, AddRef, Release,
/// request callbacks). An entry that hands out an object through an out-parameter needs its
/// own overload in src/gpu/counting_procs.cpp.
#define WARDEN_GPU_PROCS(X)                                                                     \
  /* instance */                                                                               \
  X(Instance, CreateInstance, (const InstanceDescriptor*))                                     \
  X(Status, GetInstanceCapabilities, (InstanceCapabilities*))                                  \
  X(Future, InstanceRequestAdapter, (Instance, const RequestAdapterOptions*, RequestAdapterCallbackInfo)) \
  X(void, InstanceProcessEvents, (Instance))                                                   \
  X(WaitStatus, InstanceWaitAny, (Instance, size_t, FutureWaitInfo*, uint64_t))                \
  X(void, InstanceRelease, (Instance))                                                         \
  /* adapter */                                                                                \
  X(Status, AdapterGetInfo, (Adapter, AdapterInfo*))                                           \
  X(void, AdapterInfoFreeMembers, (AdapterInfo))                                               \
  X(Status, AdapterGetLimits, (Adapter, Limits*))                                              \
  X(void, AdapterGetFeatures, (Adapter, SupportedFeatures*))                                   \
  X(Bool, AdapterHasFeature, (Adapter, FeatureName))                                           \
  X(void, SupportedFeaturesFreeMembers, (SupportedFeatures))                                   \
  X(Future, AdapterRequestDevice, (Adapter, const DeviceDescriptor*, RequestDeviceCallbackInfo)) \
  X(void, AdapterRelease, (Adapter))                                                           \
  /* device */                                                                                 \
  X(Buffer, DeviceCreateBuffer, (Device, const BufferDescriptor*))                             \
  X(Texture, DeviceCreateTexture, (Device, const TextureDescriptor*))                          \
  X(Sampler, DeviceCreateSampler, (Device, const SamplerDescriptor*))                          \
  X(ShaderModule, DeviceCreateShaderModule, (Device, const ShaderModuleDescriptor*))           \
  X(BindGroupLayout, DeviceCreateBindGroupLayout, (Device, const BindGroupLayoutDescriptor*))  \
  X(PipelineLayout, DeviceCreatePipelineLayout, (Device, const PipelineLayoutDescriptor*))     \
  X(BindGroup, DeviceCreateBindGroup, (Device, const BindGroupDescriptor*))                    \
  X(RenderPipeline, DeviceCreateRenderPipeline, (Device, const RenderPipelineDescriptor*))     \
  X(ComputePipeline, DeviceCreateComputePipeline, (Device, const ComputePipelineDescriptor*))  \
  X(QuerySet, DeviceCreateQuerySet, (Device, const QuerySetDescriptor*))                       \
  X(CommandEncoder, DeviceCreateCommandEncoder, (Device, const CommandEncoderDescriptor*))      \
  X(Queue, DeviceGetQueue, (Device))                                                           \
  X(Status, DeviceGetLimits, (Device, Limits*))                                                \
  X(Status, DeviceGetAdapterInfo, (Device, AdapterInfo*))                                      \
  X(Bool, DeviceHasFeature, (Device, FeatureName))                                             \
  X(void, DevicePushErrorScope, (Device, ErrorFilter))                                         \
  X(Future, DevicePopErrorScope, (Device, PopErrorScopeCallbackInfo))                          \
  X(Future, DeviceGetLostFuture, (Device))                                                     \
  X(void, DeviceForceLoss, (Device, DeviceLostReason, StringView))                             \
  X(void, DeviceTick, (Device))                                                                \
  X(void, DeviceDestroy, (Device))                                                             \
  X(void, DeviceAddRef, (Device))                                                              \
  X(void, DeviceRelease, (Device))                                                             \
  /* queue */                                                                                  \
  X(void, QueueSubmit, (Queue, size_t, const CommandBuffer*))                                  \
  X(void, QueueWriteBuffer, (Queue, Buffer, uint64_t, const void*, size_t))                   \
  X(void, QueueWriteTexture, (Queue, const TexelCopyTextureInfo*, const void*, size_t, const TexelCopyBufferLayout*, const Extent3D*)) \
  X(Future, QueueOnSubmittedWorkDone, (Queue, QueueWorkDoneCallbackInfo))                      \
  X(void, QueueRelease, (Queue))                                                               \
  /* buffer */                                                                                 \
  X(Future, BufferMapAsync, (Buffer, Flags, size_t, size_t, BufferMapCallbackInfo))           \
  X(void*, BufferGetMappedRange, (Buffer, size_t, size_t))                                     \
  X(const void*, BufferGetConstMappedRange, (Buffer, size_t, size_t))                          \
  X(void, BufferUnmap, (Buffer))                                                               \
  X(uint64_t, BufferGetSize, (Buffer))                                                         \
  X(Flags, BufferGetUsage, (Buffer))                                                           \
  X(BufferMapState, BufferGetMapState, (Buffer))                                               \
  X(void, BufferDestroy, (Buffer))                                                             \
  X(void, BufferAddRef, (Buffer))                                                              \
  X(void, BufferRelease, (Buffer))                                                             \
  /* texture */                                                                                \
  X(TextureView, TextureCreateView, (Texture, const TextureViewDescriptor*))                   \
  X(TextureFormat, TextureGetFormat, (Texture))                                                \
  X(uint32_t, TextureGetWidth, (Texture))                                                      \
  X(uint32_t, TextureGetHeight, (Texture))                                                     \
  X(uint32_t, TextureGetDepthOrArrayLayers, (Texture))                                         \
  X(uint32_t, TextureGetMipLevelCount, (Texture))                                              \
  X(uint32_t, TextureGetSampleCount, (Texture))                                                \
  X(TextureDimension, TextureGetDimension, (Texture))                                          \
  X(Flags, TextureGetUsage, (Texture))                                                         \
  X(void, TextureDestroy, (Texture))                                                           \
  X(void, TextureAddRef, (Texture))                                                            \
  X(void, TextureRelease, (Texture))                                                           \
  X(void, TextureViewAddRef, (TextureView))                                                    \
  X(void, TextureViewRelease, (TextureView))                                                   \
  /* other objects */                                                                          \
  X(void, SamplerAddRef, (Sampler))                                                            \
  X(void, SamplerRelease, (Sampler))                                                           \
  X(Future, ShaderModuleGetCompilationInfo, (ShaderModule, CompilationInfoCallbackInfo))       \
  X(void, ShaderModuleAddRef, (ShaderModule))                                                  \
  X(void, ShaderModuleRelease, (ShaderModule))                                                 \
  X(void, BindGroupLayoutAddRef, (BindGroupLayout))                                            \
  X(void, BindGroupLayoutRelease, (BindGroupLayout))                                           \
  X(void, PipelineLayoutAddRef, (PipelineLayout))                                              \
  X(void, PipelineLayoutRelease, (PipelineLayout))                                             \
  X(void, BindGroupAddRef, (BindGroup))                                                        \
  X(void, BindGroupRelease, (BindGroup))                                                       \
  X(BindGroupLayout, RenderPipelineGetBindGroupLayout, (RenderPipeline, uint32_t))             \
  X(void, RenderPipelineAddRef, (RenderPipeline))                                              \
  X(void, RenderPipelineRelease, (RenderPipeline))                                             \
  X(BindGroupLayout, ComputePipelineGetBindGroupLayout, (ComputePipeline, uint32_t))           \
  X(void, ComputePipelineAddRef, (ComputePipeline))                                            \
  X(void, ComputePipelineRelease, (ComputePipeline))                                           \
  X(QueryType, QuerySetGetType, (QuerySet))                                                    \
  X(uint32_t, QuerySetGetCount, (QuerySet))                                                    \
  X(void, QuerySetDestroy, (QuerySet))                                                         \
  X(void, QuerySetAddRef, (QuerySet))                                                          \
  X(void, QuerySetRelease, (QuerySet))                                                         \
  /* recording */                                                                              \
  X(RenderPassEncoder, CommandEncoderBeginRenderPass, (CommandEncoder, const RenderPassDescriptor*)) \
  X(ComputePassEncoder, CommandEncoderBeginComputePass, (CommandEncoder, const ComputePassDescriptor*)) \
  X(void, CommandEncoderCopyBufferToBuffer, (CommandEncoder, Buffer, uint64_t, Buffer, uint64_t, uint64_t)) \
  X(void, CommandEncoderCopyBufferToTexture, (CommandEncoder, const TexelCopyBufferInfo*, const TexelCopyTextureInfo*, const Extent3D*)) \
  X(void, CommandEncoderCopyTextureToBuffer, (CommandEncoder, const TexelCopyTextureInfo*, const TexelCopyBufferInfo*, const Extent3D*)) \
  X(void, CommandEncoderCopyTextureToTexture, (CommandEncoder, const TexelCopyTextureInfo*, const TexelCopyTextureInfo*, const Extent3D*)) \
  X(void, CommandEncoderClearBuffer, (CommandEncoder, Buffer, uint64_t, uint64_t))             \
  X(CommandBuffer, CommandEncoderFinish, (CommandEncoder, const CommandBufferDescriptor*))      \
  X(void, CommandEncoderRelease, (CommandEncoder))                                             \
  X(void, CommandBufferRelease, (CommandBuffer))                                               \
  X(void, RenderPassEncoderSetPipeline, (RenderPassEncoder, RenderPipeline))                   \
  X(void, RenderPassEncoderSetBindGroup, (RenderPassEncoder, uint32_t, BindGroup, size_t, const uint32_t*)) \
  X(void, RenderPassEncoderSetVertexBuffer, (RenderPassEncoder, uint32_t, Buffer, uint64_t, uint64_t)) \
  X(void, RenderPassEncoderSetIndexBuffer, (RenderPassEncoder, Buffer, IndexFormat, uint64_t, uint64_t)) \
  X(void, RenderPassEncoderSetViewport, (RenderPassEncoder, float, float, float, float, float, float)) \
  X(void, RenderPassEncoderSetScissorRect, (RenderPassEncoder, uint32_t, uint32_t, uint32_t, uint32_t)) \
  X(void, RenderPassEncoderDraw, (RenderPassEncoder, uint32_t, uint32_t, uint32_t, uint32_t))  \
  X(void, RenderPassEncoderDrawIndexed, (RenderPassEncoder, uint32_t, uint32_t, uint32_t, int32_t, uint32_t)) \
  X(void, RenderPassEncoderEnd, (RenderPassEncoder))                                           \
  X(void, RenderPassEncoderRelease, (RenderPassEncoder))                                       \
  X(void, ComputePassEncoderSetPipeline, (ComputePassEncoder, ComputePipeline))                \
  X(void, ComputePassEncoderSetBindGroup, (ComputePassEncoder, uint32_t, BindGroup, size_t, const uint32_t*)) \
  X(void, ComputePassEncoderDispatchWorkgroups, (ComputePassEncoder, uint32_t, uint32_t, uint32_t)) \
  X(void, ComputePassEncoderEnd, (ComputePassEncoder))                                         \
  X(void, ComputePassEncoderRelease, (ComputePassEncoder))                                     \
  /* surface (presentation) */                                                                 \
  X(Surface, InstanceCreateSurface, (Instance, const SurfaceDescriptor*))                      \
  X(Adapter, DeviceGetAdapter, (Device)) /* a new reference: what the surface is queried with */ \
  X(Status, SurfaceGetCapabilities, (Surface, Adapter, SurfaceCapabilities*))                  \
  X(void, SurfaceCapabilitiesFreeMembers, (SurfaceCapabilities))                               \
  X(void, SurfaceConfigure, (Surface, const SurfaceConfiguration*))                            \
  X(void, SurfaceGetCurrentTexture, (Surface, SurfaceTexture*))                                \
  X(void, SurfacePresent, (Surface))                                                           \
  X(void, SurfaceUnconfigure, (Surface))                                                       \
  X(void, SurfaceAddRef, (Surface))                                                            \
  X(void, SurfaceRelease, (Surface))                                                           \
  /* asynchronous pipeline creation */                                                         \
  X(Future, DeviceCreateRenderPipelineAsync, (Device, const RenderPipelineDescriptor*, CreateRenderPipelineAsyncCallbackInfo)) \
  X(Future, DeviceCreateComputePipelineAsync, (Device, const ComputePipelineDescriptor*, CreateComputePipelineAsyncCallbackInfo))

/// The proc table: one function pointer per WARDEN_GPU_PROCS entry, filled by Library::load().
struct Procs {
#define WARDEN_GPU_PROC_FIELD(Ret, Name, Params) Ret(*Name) Params = nullptr;
  WARDEN_GPU_PROCS(WARDEN_GPU_PROC_FIELD)
#undef WARDEN_GPU_PROC_FIELD
};

}  // namespace warden::gpu
