// What warden's hand-written mirror (include/warden/gpu/abi.h, procs.h) declared when the
// generator was written: each value, struct layout and entry point is proven against the library by
// tests/gpu/abi_*_test.cpp, which now compile against the generated header (docs/adr/0035), so
// they prove these declarations there. Only these lose the header's "unproven" mark.
export const proven = {
  // Enums whose every value a test hands to the library, taking the values from the generated
  // list of enumerators, so that a value the header gains is proven with the rest
  // (tests/gpu/abi_every_value_test.cpp); after each, the values that stay unproven: numbers the
  // pinned library prints bare, knowing no such type, and one whose struct it reads but the
  // header lacks.
  "everyValueOf": {
    "WGPUTextureFormat": [],
    "WGPUVertexFormat": [],
    "WGPUSType": [
      "SurfaceColorManagement",
      "RequestAdapterWebXROptions",
      "AdapterPropertiesSubgroups",
      "EmscriptenSurfaceSourceCanvasHTMLSelector",
      "DawnExperimentalImmediateDataLimits",
      "DawnInjectedInvalidSType"
    ]
  },
  "enums": {
    "WGPUSType": [
      "ShaderSourceWGSL",
      "TextureBindingViewDimensionDescriptor",
      "SurfaceSourceXlibWindow",
      "DawnInstanceDescriptor",
      "DawnCacheDeviceDescriptor"
    ],
    "WGPUBackendType": [
      "Undefined",
      "Null",
      "Vulkan",
      "OpenGL",
      "OpenGLES"
    ],
    "WGPUAdapterType": [
      "DiscreteGPU",
      "CPU",
      "Unknown"
    ],
    "WGPUFeatureLevel": [
      "Undefined",
      "Compatibility",
      "Core"
    ],
    "WGPUPowerPreference": [
      "Undefined"
    ],
    "WGPUCallbackMode": [
      "WaitAnyOnly",
      "AllowProcessEvents",
      "AllowSpontaneous"
    ],
    "WGPURequestAdapterStatus": [
      "Success",
      "Unavailable"
    ],
    "WGPURequestDeviceStatus": [
      "Success",
      "Error"
    ],
    "WGPUDeviceLostReason": [
      "Unknown",
      "Destroyed",
      "CallbackCancelled",
      "FailedCreation"
    ],
    "WGPUErrorType": [
      "NoError",
      "Validation"
    ],
    "WGPUErrorFilter": [
      "Validation",
      "OutOfMemory",
      "Internal"
    ],
    "WGPUPopErrorScopeStatus": [
      "Success",
      "Error"
    ],
    "WGPUQueueWorkDoneStatus": [
      "Success"
    ],
    "WGPUMapAsyncStatus": [
      "Success",
      "Error",
      "Aborted"
    ],
    "WGPUCompilationInfoRequestStatus": [
      "Success",
      "CallbackCancelled"
    ],
    "WGPUCompilationMessageType": [
      "Error",
      "Warning",
      "Info"
    ],
    "WGPUWaitStatus": [
      "Success",
      "TimedOut",
      "Error"
    ],
    "WGPUStatus": [
      "Success",
      "Error"
    ],
    "WGPUBufferMapState": [
      "Unmapped",
      "Pending",
      "Mapped"
    ],
    "WGPUOptionalBool": [
      "False",
      "True",
      "Undefined"
    ],
    "WGPUPresentMode": [
      "Undefined",
      "Fifo",
      "FifoRelaxed",
      "Immediate",
      "Mailbox"
    ],
    "WGPUCompositeAlphaMode": [
      "Auto",
      "Opaque",
      "Premultiplied",
      "Unpremultiplied",
      "Inherit"
    ],
    "WGPUSurfaceGetCurrentTextureStatus": [
      "SuccessOptimal",
      "SuccessSuboptimal",
      "Timeout",
      "Outdated",
      "Lost",
      "Error"
    ],
    "WGPUTextureFormat": [
      "Undefined",
      "R8Unorm",
      "R32Float",
      "R32Uint",
      "RGBA8Unorm",
      "RGBA8UnormSrgb",
      "RGBA8Sint",
      "BGRA8Unorm",
      "RGBA16Float",
      "RGBA32Float",
      "Depth24Plus",
      "Depth32Float"
    ],
    "WGPUTextureDimension": [
      "Undefined",
      "1D",
      "2D",
      "3D"
    ],
    "WGPUTextureViewDimension": [
      "Undefined",
      "1D",
      "2D",
      "2DArray",
      "Cube",
      "CubeArray",
      "3D"
    ],
    "WGPUTextureAspect": [
      "All",
      "StencilOnly",
      "DepthOnly"
    ],
    "WGPUTextureSampleType": [
      "BindingNotUsed",
      "Float",
      "UnfilterableFloat",
      "Depth",
      "Sint",
      "Uint"
    ],
    "WGPUSamplerBindingType": [
      "BindingNotUsed",
      "Filtering",
      "NonFiltering",
      "Comparison"
    ],
    "WGPUBufferBindingType": [
      "BindingNotUsed",
      "Uniform",
      "Storage",
      "ReadOnlyStorage"
    ],
    "WGPUStorageTextureAccess": [
      "BindingNotUsed",
      "WriteOnly",
      "ReadOnly",
      "ReadWrite"
    ],
    "WGPUAddressMode": [
      "Undefined",
      "ClampToEdge",
      "Repeat",
      "MirrorRepeat"
    ],
    "WGPUFilterMode": [
      "Undefined",
      "Nearest",
      "Linear"
    ],
    "WGPUMipmapFilterMode": [
      "Undefined",
      "Nearest",
      "Linear"
    ],
    "WGPUCompareFunction": [
      "Undefined",
      "Never",
      "Less",
      "Equal",
      "LessEqual",
      "Greater",
      "NotEqual",
      "GreaterEqual",
      "Always"
    ],
    "WGPUVertexFormat": [
      "Float32",
      "Float32x2",
      "Float32x3",
      "Float32x4",
      "Uint32",
      "Uint32x4"
    ],
    "WGPUVertexStepMode": [
      "Undefined",
      "Vertex",
      "Instance"
    ],
    "WGPUPrimitiveTopology": [
      "Undefined",
      "PointList",
      "LineList",
      "LineStrip",
      "TriangleList",
      "TriangleStrip"
    ],
    "WGPUIndexFormat": [
      "Undefined",
      "Uint16",
      "Uint32"
    ],
    "WGPUFrontFace": [
      "Undefined",
      "CCW",
      "CW"
    ],
    "WGPUCullMode": [
      "Undefined",
      "None",
      "Front",
      "Back"
    ],
    "WGPUBlendOperation": [
      "Undefined",
      "Add",
      "Subtract",
      "ReverseSubtract",
      "Min",
      "Max"
    ],
    "WGPUBlendFactor": [
      "Undefined",
      "Zero",
      "One",
      "Src",
      "OneMinusSrc",
      "SrcAlpha",
      "OneMinusSrcAlpha",
      "Dst",
      "OneMinusDst",
      "DstAlpha",
      "OneMinusDstAlpha"
    ],
    "WGPUStencilOperation": [
      "Undefined"
    ],
    "WGPULoadOp": [
      "Undefined",
      "Load",
      "Clear"
    ],
    "WGPUStoreOp": [
      "Undefined",
      "Store",
      "Discard"
    ],
    "WGPUQueryType": [
      "Occlusion",
      "Timestamp"
    ],
    "WGPULoggingType": [
      "Verbose",
      "Info",
      "Warning",
      "Error"
    ],
    "WGPUCreatePipelineAsyncStatus": [
      "Success",
      "CallbackCancelled",
      "ValidationError",
      "InternalError"
    ],
    "WGPUFeatureName": [
      "ImplicitDeviceSynchronization"
    ],
    "WGPUBufferUsage": [
      "None",
      "MapRead",
      "MapWrite",
      "CopySrc",
      "CopyDst",
      "Index",
      "Vertex",
      "Uniform",
      "Storage",
      "Indirect",
      "QueryResolve"
    ],
    "WGPUTextureUsage": [
      "None",
      "CopySrc",
      "CopyDst",
      "TextureBinding",
      "StorageBinding",
      "RenderAttachment"
    ],
    "WGPUShaderStage": [
      "None",
      "Vertex",
      "Fragment",
      "Compute"
    ],
    "WGPUColorWriteMask": [
      "None",
      "Red",
      "Green",
      "Blue",
      "Alpha",
      "All"
    ],
    "WGPUMapMode": [
      "None",
      "Read",
      "Write"
    ]
  },
  "structs": [
    // Its bundles draw what the same draws in a pass do: tests/resources/render_bundle_test.cpp.
    "WGPURenderBundleEncoderDescriptor",
    "WGPUAdapterInfo",
    "WGPUBindGroupDescriptor",
    "WGPUBindGroupEntry",
    "WGPUBindGroupLayoutDescriptor",
    "WGPUBindGroupLayoutEntry",
    "WGPUBlendComponent",
    "WGPUBlendState",
    "WGPUBufferBindingLayout",
    "WGPUBufferDescriptor",
    "WGPUBufferMapCallback",
    "WGPUBufferMapCallbackInfo",
    "WGPUChainedStruct",
    "WGPUColor",
    "WGPUColorTargetState",
    "WGPUCommandBufferDescriptor",
    "WGPUCommandEncoderDescriptor",
    "WGPUCompilationInfo",
    "WGPUCompilationInfoCallback",
    "WGPUCompilationInfoCallbackInfo",
    "WGPUCompilationMessage",
    "WGPUComputePassDescriptor",
    "WGPUComputePipelineDescriptor",
    "WGPUComputeState",
    "WGPUConstantEntry",
    "WGPUCreateComputePipelineAsyncCallback",
    "WGPUCreateComputePipelineAsyncCallbackInfo",
    "WGPUCreateRenderPipelineAsyncCallback",
    "WGPUCreateRenderPipelineAsyncCallbackInfo",
    "WGPUDawnCacheDeviceDescriptor",
    "WGPUDawnInstanceDescriptor",
    "WGPUDawnLoadCacheDataFunction",
    "WGPUDawnStoreCacheDataFunction",
    "WGPUDepthStencilState",
    "WGPUDeviceDescriptor",
    "WGPUDeviceLostCallback",
    "WGPUDeviceLostCallbackInfo",
    "WGPUExtent3D",
    "WGPUFragmentState",
    "WGPUFuture",
    "WGPUFutureWaitInfo",
    "WGPUInstanceCapabilities",
    "WGPUInstanceDescriptor",
    "WGPULimits",
    "WGPULoggingCallback",
    "WGPULoggingCallbackInfo",
    "WGPUMultisampleState",
    "WGPUOrigin3D",
    "WGPUPassTimestampWrites",
    "WGPUPipelineLayoutDescriptor",
    "WGPUPopErrorScopeCallback",
    "WGPUPopErrorScopeCallbackInfo",
    "WGPUPrimitiveState",
    "WGPUQuerySetDescriptor",
    "WGPUQueueDescriptor",
    "WGPUQueueWorkDoneCallback",
    "WGPUQueueWorkDoneCallbackInfo",
    "WGPURenderPassColorAttachment",
    "WGPURenderPassDepthStencilAttachment",
    "WGPURenderPassDescriptor",
    "WGPURenderPipelineDescriptor",
    "WGPURequestAdapterCallback",
    "WGPURequestAdapterCallbackInfo",
    "WGPURequestAdapterOptions",
    "WGPURequestDeviceCallback",
    "WGPURequestDeviceCallbackInfo",
    "WGPUSamplerBindingLayout",
    "WGPUSamplerDescriptor",
    "WGPUShaderModuleDescriptor",
    "WGPUShaderSourceWGSL",
    "WGPUStencilFaceState",
    "WGPUStorageTextureBindingLayout",
    "WGPUStringView",
    "WGPUSupportedFeatures",
    "WGPUSurfaceCapabilities",
    "WGPUSurfaceConfiguration",
    "WGPUSurfaceDescriptor",
    "WGPUSurfaceSourceXlibWindow",
    "WGPUSurfaceTexture",
    "WGPUTexelCopyBufferInfo",
    "WGPUTexelCopyBufferLayout",
    "WGPUTexelCopyTextureInfo",
    "WGPUTextureBindingLayout",
    "WGPUTextureBindingViewDimensionDescriptor",
    "WGPUTextureDescriptor",
    "WGPUTextureViewDescriptor",
    "WGPUUncapturedErrorCallback",
    "WGPUUncapturedErrorCallbackInfo",
    "WGPUVertexAttribute",
    "WGPUVertexBufferLayout",
    "WGPUVertexState"
  ],
  "functions": [
    // Called, with their effect checked, by tests/gpu/procs_test.cpp, tests/gpu/ledger_test.cpp,
    // tests/resources/render_bundle_test.cpp and the examples (examples/gpu_driven.cpp,
    // msaa_resolve.cpp, occlusion_query.cpp, render_bundles.cpp, stencil_portal.cpp):
    "CommandEncoderInsertDebugMarker",
    "CommandEncoderPopDebugGroup",
    "CommandEncoderPushDebugGroup",
    "CommandEncoderResolveQuerySet",
    "ComputePassEncoderDispatchWorkgroupsIndirect",
    "DeviceCreateErrorExternalTexture",
    "DeviceCreateRenderBundleEncoder",
    "ExternalTextureRelease",
    "RenderBundleAddRef",
    "RenderBundleEncoderDraw",
    "RenderBundleEncoderFinish",
    "RenderBundleEncoderRelease",
    "RenderBundleEncoderSetPipeline",
    "RenderBundleEncoderSetVertexBuffer",
    "RenderBundleRelease",
    "RenderPassEncoderBeginOcclusionQuery",
    "RenderPassEncoderDrawIndexedIndirect",
    "RenderPassEncoderDrawIndirect",
    "RenderPassEncoderEndOcclusionQuery",
    "RenderPassEncoderExecuteBundles",
    "RenderPassEncoderInsertDebugMarker",
    "RenderPassEncoderPopDebugGroup",
    "RenderPassEncoderPushDebugGroup",
    "RenderPassEncoderSetBlendConstant",
    "RenderPassEncoderSetStencilReference",
    // The entry points the hand-written mirror declared:
    "AdapterGetFeatures",
    "AdapterGetInfo",
    "AdapterGetLimits",
    "AdapterHasFeature",
    "AdapterInfoFreeMembers",
    "AdapterRelease",
    "AdapterRequestDevice",
    "BindGroupAddRef",
    "BindGroupLayoutAddRef",
    "BindGroupLayoutRelease",
    "BindGroupRelease",
    "BufferAddRef",
    "BufferDestroy",
    "BufferGetConstMappedRange",
    "BufferGetMapState",
    "BufferGetMappedRange",
    "BufferGetSize",
    "BufferGetUsage",
    "BufferMapAsync",
    "BufferRelease",
    "BufferUnmap",
    "CommandBufferRelease",
    "CommandEncoderBeginComputePass",
    "CommandEncoderBeginRenderPass",
    "CommandEncoderClearBuffer",
    "CommandEncoderCopyBufferToBuffer",
    "CommandEncoderCopyBufferToTexture",
    "CommandEncoderCopyTextureToBuffer",
    "CommandEncoderCopyTextureToTexture",
    "CommandEncoderFinish",
    "CommandEncoderRelease",
    "ComputePassEncoderDispatchWorkgroups",
    "ComputePassEncoderEnd",
    "ComputePassEncoderRelease",
    "ComputePassEncoderSetBindGroup",
    "ComputePassEncoderSetPipeline",
    "ComputePipelineAddRef",
    "ComputePipelineGetBindGroupLayout",
    "ComputePipelineRelease",
    "CreateInstance",
    "DeviceAddRef",
    "DeviceCreateBindGroup",
    "DeviceCreateBindGroupLayout",
    "DeviceCreateBuffer",
    "DeviceCreateCommandEncoder",
    "DeviceCreateComputePipeline",
    "DeviceCreateComputePipelineAsync",
    "DeviceCreatePipelineLayout",
    "DeviceCreateQuerySet",
    "DeviceCreateRenderPipeline",
    "DeviceCreateRenderPipelineAsync",
    "DeviceCreateSampler",
    "DeviceCreateShaderModule",
    "DeviceCreateTexture",
    "DeviceDestroy",
    "DeviceForceLoss",
    "DeviceGetAdapter",
    "DeviceGetAdapterInfo",
    "DeviceGetLimits",
    "DeviceGetLostFuture",
    "DeviceGetQueue",
    "DeviceHasFeature",
    "DevicePopErrorScope",
    "DevicePushErrorScope",
    "DeviceRelease",
    "DeviceTick",
    "GetInstanceCapabilities",
    "InstanceCreateSurface",
    "InstanceProcessEvents",
    "InstanceRelease",
    "InstanceRequestAdapter",
    "InstanceWaitAny",
    "PipelineLayoutAddRef",
    "PipelineLayoutRelease",
    "QuerySetAddRef",
    "QuerySetDestroy",
    "QuerySetGetCount",
    "QuerySetGetType",
    "QuerySetRelease",
    "QueueOnSubmittedWorkDone",
    "QueueRelease",
    "QueueSubmit",
    "QueueWriteBuffer",
    "QueueWriteTexture",
    "RenderPassEncoderDraw",
    "RenderPassEncoderDrawIndexed",
    "RenderPassEncoderEnd",
    "RenderPassEncoderRelease",
    "RenderPassEncoderSetBindGroup",
    "RenderPassEncoderSetIndexBuffer",
    "RenderPassEncoderSetPipeline",
    "RenderPassEncoderSetScissorRect",
    "RenderPassEncoderSetVertexBuffer",
    "RenderPassEncoderSetViewport",
    "RenderPipelineAddRef",
    "RenderPipelineGetBindGroupLayout",
    "RenderPipelineRelease",
    "SamplerAddRef",
    "SamplerRelease",
    "ShaderModuleAddRef",
    "ShaderModuleGetCompilationInfo",
    "ShaderModuleRelease",
    "SupportedFeaturesFreeMembers",
    "SurfaceAddRef",
    "SurfaceCapabilitiesFreeMembers",
    "SurfaceConfigure",
    "SurfaceGetCapabilities",
    "SurfaceGetCurrentTexture",
    "SurfacePresent",
    "SurfaceRelease",
    "SurfaceUnconfigure",
    "TextureAddRef",
    "TextureCreateView",
    "TextureDestroy",
    "TextureGetDepthOrArrayLayers",
    "TextureGetDimension",
    "TextureGetFormat",
    "TextureGetHeight",
    "TextureGetMipLevelCount",
    "TextureGetSampleCount",
    "TextureGetUsage",
    "TextureGetWidth",
    "TextureRelease",
    "TextureViewAddRef",
    "TextureViewRelease"
  ]
};
