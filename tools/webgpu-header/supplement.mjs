// What bun-webgpu's tables lack or get wrong for the pinned Dawn build, written by warden
// (docs/adr/0032-webgpu-h-generated-from-the-pinned-library.md). Pure data: generate.mjs reads it.
//
// Types are written in the header's own spelling (`WGPUTexture`, `WGPUTextureDescriptor const *`).
// Everything here that warden's tests do not prove is marked "unproven" in the header, like the
// tables' own values: see `proven` at the end.

// The tables' variable names for enums whose header name is not `WGPU<var>` minus a `Def` suffix,
// and tables that are not enums of the library (bun's own, or generic ones a supplement enum
// replaces).
export const enumTableNames = {
  PowerPreference: 'WGPUPowerPreference',
  AsyncStatus: 'WGPUMapAsyncStatus',
  QueueWorkDoneStatus: 'WGPUQueueWorkDoneStatus',
  PopErrorScopeStatus: 'WGPUPopErrorScopeStatus',
  RequestDeviceStatus: 'WGPURequestDeviceStatus',
  RequestAdapterStatus: 'WGPURequestAdapterStatus',
  WGPUWGSLLanguageFeatureNameDef: 'WGPUWGSLLanguageFeatureName',
};
export const flagTableNames = {
  WGPUColorWriteMask: 'WGPUColorWriteMask',
  TextureUsageFlags: 'WGPUTextureUsage',
  BufferUsageFlags: 'WGPUBufferUsage',
  ShaderStageFlags: 'WGPUShaderStage',
  MapModeFlags: 'WGPUMapMode',
};
// bun's own structs, and the generic callback info the concrete ones below replace.
export const skippedStructTables = ['ZWGPUWorkaroundCopyTextureAndMapStruct', 'WGPUCallbackInfoStruct', 'WGPUChainedStructStruct'];

// Corrections of the tables' values, each proven by a test against the library.
export const enumValueCorrections = {
  // tests/gpu/abi_* (TextureBindingViewDimensionDescriptor): this build reads 0x20000 as
  // CompatibilityModeLimits; the tables' 0x20000 is a newer ABI's number.
  WGPUSType: { TextureBindingViewDimensionDescriptor: 0x00020001, CompatibilityModeLimits: 0x00020000 },
};

// Enums the tables do not have at all.
export const enums = {
  WGPUAdapterType: { DiscreteGPU: 1, IntegratedGPU: 2, CPU: 3, Unknown: 4 },
  WGPUPresentMode: { Undefined: 0, Fifo: 1, FifoRelaxed: 2, Immediate: 3, Mailbox: 4 },
  WGPUCompositeAlphaMode: { Auto: 0, Opaque: 1, Premultiplied: 2, Unpremultiplied: 3, Inherit: 4 },
  WGPUSurfaceGetCurrentTextureStatus: { SuccessOptimal: 1, SuccessSuboptimal: 2, Timeout: 3, Outdated: 4, Lost: 5, Error: 6 },
  WGPUCompilationInfoRequestStatus: { Success: 1, CallbackCancelled: 2 },
  WGPUCompilationMessageType: { Error: 1, Warning: 2, Info: 3 },
  WGPUCreatePipelineAsyncStatus: { Success: 1, CallbackCancelled: 2, ValidationError: 3, InternalError: 4 },
  WGPUWaitStatus: { Success: 1, TimedOut: 2, Error: 3 },
  WGPUStatus: { Success: 1, Error: 2 },
  WGPUBufferMapState: { Unmapped: 1, Pending: 2, Mapped: 3 },
  WGPULoggingType: { Verbose: 1, Info: 2, Warning: 3, Error: 4 },
  WGPUExternalTextureRotation: { Rotate0Degrees: 1, Rotate90Degrees: 2, Rotate180Degrees: 3, Rotate270Degrees: 4 },
  WGPUAlphaMode: { Opaque: 1, Premultiplied: 2, Unpremultiplied: 3 },
  WGPUSharedFenceType: { VkSemaphoreOpaqueFD: 1, SyncFD: 2, VkSemaphoreZirconHandle: 3, DXGISharedHandle: 4, MTLSharedEvent: 5, EGLSync: 6 },
  WGPUSubgroupMatrixComponentType: { F32: 1, F16: 2, U32: 3, I32: 4 },
};
export const flags = {
  WGPUHeapProperty: { None: 0, DeviceLocal: 0x1, HostVisible: 0x2, HostCoherent: 0x4, HostUncached: 0x8, HostCached: 0x10 },
};

// Field types the tables cannot name (object pointers, flag sets stored as u64, untyped
// pointers), as `Struct.field` or, for every struct, `*.field`.
export const fieldTypes = {
  '*.nextInChain': 'WGPUChainedStruct *',
  '*.buffer': 'WGPUBuffer',
  '*.sampler': 'WGPUSampler',
  '*.textureView': 'WGPUTextureView',
  '*.view': 'WGPUTextureView',
  '*.resolveTarget': 'WGPUTextureView',
  '*.module': 'WGPUShaderModule',
  '*.querySet': 'WGPUQuerySet',
  '*.occlusionQuerySet': 'WGPUQuerySet',
  '*.texture': 'WGPUTexture',
  '*.userdata1': 'void *',
  '*.userdata2': 'void *',
  'WGPUStringView.length': 'size_t',
  'WGPURequestAdapterOptions.compatibleSurface': 'WGPUSurface',
  'WGPUAdapterInfo.backendType': 'WGPUBackendType',
  'WGPUAdapterInfo.adapterType': 'WGPUAdapterType',
  'WGPUBufferDescriptor.usage': 'WGPUBufferUsage',
  'WGPUTextureDescriptor.usage': 'WGPUTextureUsage',
  'WGPUTextureViewDescriptor.usage': 'WGPUTextureUsage',
  'WGPUBindGroupLayoutEntry.visibility': 'WGPUShaderStage',
  'WGPUColorTargetState.writeMask': 'WGPUColorWriteMask',
  'WGPUBindGroupDescriptor.layout': 'WGPUBindGroupLayout',
  'WGPUPipelineLayoutDescriptor.bindGroupLayouts': 'WGPUBindGroupLayout const *',
  'WGPURenderPipelineDescriptor.layout': 'WGPUPipelineLayout',
  'WGPUComputePipelineDescriptor.layout': 'WGPUPipelineLayout',
  'WGPUDeviceDescriptor.deviceLostCallbackInfo': 'WGPUDeviceLostCallbackInfo',
  'WGPUUncapturedErrorCallbackInfo.callback': 'WGPUUncapturedErrorCallback',
  // Proven by warden's tests (tests/gpu/abi_render_test.cpp): an OptionalBool, not the tables' bool.
  'WGPUDepthStencilState.depthWriteEnabled': 'WGPUOptionalBool',
};

// Structural corrections of the tables' structs for this build.
export const structCorrections = {
  // This build's Limits ends at maxImmediateSize (152 bytes): the tables' four per-stage
  // storage limits belong to a newer ABI, and a library that writes them is refused at load.
  WGPULimits: { dropFieldsAfter: 'maxImmediateSize' },
  // The tables' padding field is the library's bindingArraySize (0: not an array).
  WGPUBindGroupLayoutEntry: { rename: { _alignment0: 'bindingArraySize' } },
};

// Callback function types: [return type, parameters].
export const callbacks = {
  WGPURequestAdapterCallback: ['void', 'WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message, void * userdata1, void * userdata2'],
  WGPURequestDeviceCallback: ['void', 'WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message, void * userdata1, void * userdata2'],
  WGPUDeviceLostCallback: ['void', 'WGPUDevice const * device, WGPUDeviceLostReason reason, WGPUStringView message, void * userdata1, void * userdata2'],
  WGPUUncapturedErrorCallback: ['void', 'WGPUDevice const * device, WGPUErrorType type, WGPUStringView message, void * userdata1, void * userdata2'],
  WGPUPopErrorScopeCallback: ['void', 'WGPUPopErrorScopeStatus status, WGPUErrorType type, WGPUStringView message, void * userdata1, void * userdata2'],
  WGPUQueueWorkDoneCallback: ['void', 'WGPUQueueWorkDoneStatus status, WGPUStringView message, void * userdata1, void * userdata2'],
  WGPUBufferMapCallback: ['void', 'WGPUMapAsyncStatus status, WGPUStringView message, void * userdata1, void * userdata2'],
  WGPUCompilationInfoCallback: ['void', 'WGPUCompilationInfoRequestStatus status, struct WGPUCompilationInfo const * compilationInfo, void * userdata1, void * userdata2'],
  WGPUCreateRenderPipelineAsyncCallback: ['void', 'WGPUCreatePipelineAsyncStatus status, WGPURenderPipeline pipeline, WGPUStringView message, void * userdata1, void * userdata2'],
  WGPUCreateComputePipelineAsyncCallback: ['void', 'WGPUCreatePipelineAsyncStatus status, WGPUComputePipeline pipeline, WGPUStringView message, void * userdata1, void * userdata2'],
  WGPULoggingCallback: ['void', 'WGPULoggingType type, WGPUStringView message, void * userdata1, void * userdata2'],
  WGPUDawnLoadCacheDataFunction: ['size_t', 'void const * key, size_t keySize, void * value, size_t valueSize, void * userdata'],
  WGPUDawnStoreCacheDataFunction: ['void', 'void const * key, size_t keySize, void const * value, size_t valueSize, void * userdata'],
};
// Callback infos with a mode (`{nextInChain, mode, callback, userdata1, userdata2}`), by callback.
export const callbackInfos = [
  'RequestAdapter', 'RequestDevice', 'DeviceLost', 'PopErrorScope', 'QueueWorkDone', 'BufferMap',
  'CompilationInfo', 'CreateRenderPipelineAsync', 'CreateComputePipelineAsync',
];

// Structs the tables do not define, in declaration order after the tables' (a struct may use
// only structs declared before it; the generator checks). Fields: 'Type name'.
export const structs = {
  WGPUFuture: ['uint64_t id'],
  WGPUFutureWaitInfo: ['WGPUFuture future', 'WGPUBool completed'],
  WGPUOrigin2D: ['uint32_t x', 'uint32_t y'],
  WGPUExtent2D: ['uint32_t width', 'uint32_t height'],
  WGPUInstanceCapabilities: ['WGPUChainedStruct * nextInChain', 'WGPUBool timedWaitAnyEnable', 'size_t timedWaitAnyMaxCount'],
  WGPUInstanceDescriptor: ['WGPUChainedStruct * nextInChain', 'WGPUInstanceCapabilities capabilities'],
  WGPULoggingCallbackInfo: ['WGPUChainedStruct * nextInChain', 'WGPULoggingCallback callback', 'void * userdata1', 'void * userdata2'],
  // A C++ struct in Dawn (dawn::native::DawnInstanceDescriptor) whose count sits in the chain
  // header's padding, so it cannot begin with a WGPUChainedStruct; backendValidationLevel is
  // Dawn's C++ enum (0 full, 1 partial, 2 disabled). Layout proven by tests/cli/info_test.cpp.
  WGPUDawnInstanceDescriptor: ['WGPUChainedStruct * nextInChain', 'WGPUSType sType', 'uint32_t additionalRuntimeSearchPathsCount',
    'char const * const * additionalRuntimeSearchPaths', 'void * platform', 'uint32_t backendValidationLevel',
    'WGPUBool beginCaptureOnStartup', 'WGPULoggingCallbackInfo loggingCallbackInfo'],
  WGPUDawnTogglesDescriptor: ['WGPUChainedStruct chain', 'size_t enabledToggleCount', 'char const * const * enabledToggles',
    'size_t disabledToggleCount', 'char const * const * disabledToggles'],
  WGPUDawnCacheDeviceDescriptor: ['WGPUChainedStruct chain', 'WGPUStringView isolationKey', 'WGPUDawnLoadCacheDataFunction loadDataFunction',
    'WGPUDawnStoreCacheDataFunction storeDataFunction', 'void * functionUserdata'],
  WGPUTextureBindingViewDimensionDescriptor: ['WGPUChainedStruct chain', 'WGPUTextureViewDimension textureBindingViewDimension'],
  WGPUCompilationMessage: ['WGPUChainedStruct * nextInChain', 'WGPUStringView message', 'WGPUCompilationMessageType type',
    'uint64_t lineNum', 'uint64_t linePos', 'uint64_t offset', 'uint64_t length'],
  WGPUCompilationInfo: ['WGPUChainedStruct * nextInChain', 'size_t messageCount', 'WGPUCompilationMessage const * messages'],
  WGPUShaderSourceSPIRV: ['WGPUChainedStruct chain', 'uint32_t codeSize', 'uint32_t const * code'],
  WGPUSurfaceDescriptor: ['WGPUChainedStruct * nextInChain', 'WGPUStringView label'],
  WGPUSurfaceSourceXlibWindow: ['WGPUChainedStruct chain', 'void * display', 'uint64_t window'],
  WGPUSurfaceSourceWaylandSurface: ['WGPUChainedStruct chain', 'void * display', 'void * surface'],
  WGPUSurfaceSourceXCBWindow: ['WGPUChainedStruct chain', 'void * connection', 'uint32_t window'],
  WGPUSurfaceSourceMetalLayer: ['WGPUChainedStruct chain', 'void * layer'],
  WGPUSurfaceSourceWindowsHWND: ['WGPUChainedStruct chain', 'void * hinstance', 'void * hwnd'],
  WGPUSurfaceSourceAndroidNativeWindow: ['WGPUChainedStruct chain', 'void * window'],
  WGPUSurfaceCapabilities: ['WGPUChainedStruct * nextInChain', 'WGPUTextureUsage usages', 'size_t formatCount', 'WGPUTextureFormat const * formats',
    'size_t presentModeCount', 'WGPUPresentMode const * presentModes', 'size_t alphaModeCount', 'WGPUCompositeAlphaMode const * alphaModes'],
  WGPUSurfaceConfiguration: ['WGPUChainedStruct * nextInChain', 'WGPUDevice device', 'WGPUTextureFormat format', 'WGPUTextureUsage usage',
    'uint32_t width', 'uint32_t height', 'size_t viewFormatCount', 'WGPUTextureFormat const * viewFormats',
    'WGPUCompositeAlphaMode alphaMode', 'WGPUPresentMode presentMode'],
  WGPUSurfaceTexture: ['WGPUChainedStruct * nextInChain', 'WGPUTexture texture', 'WGPUSurfaceGetCurrentTextureStatus status'],
  WGPURenderPassMaxDrawCount: ['WGPUChainedStruct chain', 'uint64_t maxDrawCount'],
  WGPUExternalTextureDescriptor: ['WGPUChainedStruct * nextInChain', 'WGPUStringView label', 'WGPUTextureView plane0', 'WGPUTextureView plane1',
    'WGPUOrigin2D cropOrigin', 'WGPUExtent2D cropSize', 'WGPUExtent2D apparentSize', 'WGPUBool doYuvToRgbConversionOnly',
    'float const * yuvToRgbConversionMatrix', 'float const * srcTransferFunctionParameters', 'float const * dstTransferFunctionParameters',
    'float const * gamutConversionMatrix', 'WGPUBool mirrored', 'WGPUExternalTextureRotation rotation'],
  WGPUExternalTextureBindingEntry: ['WGPUChainedStruct chain', 'WGPUExternalTexture externalTexture'],
  WGPUImageCopyExternalTexture: ['WGPUChainedStruct * nextInChain', 'WGPUExternalTexture externalTexture', 'WGPUOrigin3D origin', 'WGPUExtent2D naturalSize'],
  WGPUCopyTextureForBrowserOptions: ['WGPUChainedStruct * nextInChain', 'WGPUBool flipY', 'WGPUBool needsColorSpaceConversion',
    'WGPUAlphaMode srcAlphaMode', 'float const * srcTransferFunctionParameters', 'float const * conversionMatrix',
    'float const * dstTransferFunctionParameters', 'WGPUAlphaMode dstAlphaMode', 'WGPUBool internalUsage'],
  WGPUYCbCrVkDescriptor: ['WGPUChainedStruct chain', 'uint32_t vkFormat', 'uint32_t vkYCbCrModel', 'uint32_t vkYCbCrRange',
    'uint32_t vkComponentSwizzleRed', 'uint32_t vkComponentSwizzleGreen', 'uint32_t vkComponentSwizzleBlue', 'uint32_t vkComponentSwizzleAlpha',
    'uint32_t vkXChromaOffset', 'uint32_t vkYChromaOffset', 'WGPUFilterMode vkChromaFilter', 'WGPUBool forceExplicitReconstruction',
    'uint64_t externalFormat'],
  WGPUAHardwareBufferProperties: ['WGPUYCbCrVkDescriptor yCbCrInfo'],
  WGPUDawnFormatCapabilities: ['WGPUChainedStruct * nextInChain'],
  WGPUDawnDrmFormatProperties: ['uint64_t modifier', 'uint32_t modifierPlaneCount'],
  WGPUDawnDrmFormatCapabilities: ['WGPUChainedStruct chain', 'size_t propertiesCount', 'WGPUDawnDrmFormatProperties const * properties'],
  WGPUMemoryHeapInfo: ['WGPUHeapProperty properties', 'uint64_t size'],
  WGPUAdapterPropertiesMemoryHeaps: ['WGPUChainedStruct chain', 'size_t heapCount', 'WGPUMemoryHeapInfo const * heapInfo'],
  WGPUSubgroupMatrixConfig: ['WGPUSubgroupMatrixComponentType componentType', 'WGPUSubgroupMatrixComponentType resultComponentType',
    'uint32_t M', 'uint32_t N', 'uint32_t K'],
  WGPUAdapterPropertiesSubgroupMatrixConfigs: ['WGPUChainedStruct chain', 'size_t configCount', 'WGPUSubgroupMatrixConfig const * configs'],
  WGPUSharedBufferMemoryDescriptor: ['WGPUChainedStruct * nextInChain', 'WGPUStringView label'],
  WGPUSharedBufferMemoryProperties: ['WGPUChainedStruct * nextInChain', 'WGPUBufferUsage usage', 'uint64_t size'],
  WGPUSharedBufferMemoryBeginAccessDescriptor: ['WGPUChainedStruct * nextInChain', 'WGPUBool initialized', 'size_t fenceCount',
    'WGPUSharedFence const * fences', 'uint64_t const * signaledValues'],
  WGPUSharedBufferMemoryEndAccessState: ['WGPUChainedStruct * nextInChain', 'WGPUBool initialized', 'size_t fenceCount',
    'WGPUSharedFence const * fences', 'uint64_t const * signaledValues'],
  WGPUSharedTextureMemoryDescriptor: ['WGPUChainedStruct * nextInChain', 'WGPUStringView label'],
  WGPUSharedTextureMemoryProperties: ['WGPUChainedStruct * nextInChain', 'WGPUTextureUsage usage', 'WGPUExtent3D size', 'WGPUTextureFormat format'],
  WGPUSharedTextureMemoryBeginAccessDescriptor: ['WGPUChainedStruct * nextInChain', 'WGPUBool concurrentRead', 'WGPUBool initialized',
    'size_t fenceCount', 'WGPUSharedFence const * fences', 'uint64_t const * signaledValues'],
  WGPUSharedTextureMemoryEndAccessState: ['WGPUChainedStruct * nextInChain', 'WGPUBool initialized', 'size_t fenceCount',
    'WGPUSharedFence const * fences', 'uint64_t const * signaledValues'],
  WGPUSharedFenceDescriptor: ['WGPUChainedStruct * nextInChain', 'WGPUStringView label'],
  WGPUSharedFenceExportInfo: ['WGPUChainedStruct * nextInChain', 'WGPUSharedFenceType type'],
};

// Object types the tables' FFI table does not reach but the exports do.
export const objects = [
  'Instance', 'Adapter', 'Device', 'Queue', 'Buffer', 'Texture', 'TextureView', 'Sampler', 'ShaderModule',
  'BindGroupLayout', 'PipelineLayout', 'BindGroup', 'RenderPipeline', 'ComputePipeline', 'QuerySet',
  'CommandEncoder', 'CommandBuffer', 'RenderPassEncoder', 'ComputePassEncoder', 'RenderBundle',
  'RenderBundleEncoder', 'Surface', 'ExternalTexture', 'SharedBufferMemory', 'SharedTextureMemory', 'SharedFence',
];

// Every export's signature: `ReturnType Name(Type name, ...)`, Name without the `wgpu` prefix.
// AddRef/Release/SetLabel of every object type are added by the generator (objects above).
export const functions = `
WGPUInstance CreateInstance(WGPUInstanceDescriptor const * descriptor)
WGPUStatus GetInstanceCapabilities(WGPUInstanceCapabilities * capabilities)
WGPUProc GetProcAddress(WGPUStringView procName)
WGPUSurface InstanceCreateSurface(WGPUInstance instance, WGPUSurfaceDescriptor const * descriptor)
WGPUStatus InstanceGetWGSLLanguageFeatures(WGPUInstance instance, WGPUSupportedWGSLLanguageFeatures * features)
WGPUBool InstanceHasWGSLLanguageFeature(WGPUInstance instance, WGPUWGSLLanguageFeatureName feature)
void InstanceProcessEvents(WGPUInstance instance)
WGPUFuture InstanceRequestAdapter(WGPUInstance instance, WGPURequestAdapterOptions const * options, WGPURequestAdapterCallbackInfo callbackInfo)
WGPUWaitStatus InstanceWaitAny(WGPUInstance instance, size_t futureCount, WGPUFutureWaitInfo * futures, uint64_t timeoutNS)
WGPUDevice AdapterCreateDevice(WGPUAdapter adapter, WGPUDeviceDescriptor const * descriptor)
void AdapterGetFeatures(WGPUAdapter adapter, WGPUSupportedFeatures * features)
WGPUStatus AdapterGetFormatCapabilities(WGPUAdapter adapter, WGPUTextureFormat format, WGPUDawnFormatCapabilities * capabilities)
WGPUStatus AdapterGetInfo(WGPUAdapter adapter, WGPUAdapterInfo * info)
WGPUInstance AdapterGetInstance(WGPUAdapter adapter)
WGPUStatus AdapterGetLimits(WGPUAdapter adapter, WGPULimits * limits)
WGPUBool AdapterHasFeature(WGPUAdapter adapter, WGPUFeatureName feature)
WGPUFuture AdapterRequestDevice(WGPUAdapter adapter, WGPUDeviceDescriptor const * descriptor, WGPURequestDeviceCallbackInfo callbackInfo)
void AdapterInfoFreeMembers(WGPUAdapterInfo adapterInfo)
void AdapterPropertiesMemoryHeapsFreeMembers(WGPUAdapterPropertiesMemoryHeaps adapterPropertiesMemoryHeaps)
void AdapterPropertiesSubgroupMatrixConfigsFreeMembers(WGPUAdapterPropertiesSubgroupMatrixConfigs adapterPropertiesSubgroupMatrixConfigs)
void DawnDrmFormatCapabilitiesFreeMembers(WGPUDawnDrmFormatCapabilities dawnDrmFormatCapabilities)
void SupportedFeaturesFreeMembers(WGPUSupportedFeatures supportedFeatures)
void SupportedWGSLLanguageFeaturesFreeMembers(WGPUSupportedWGSLLanguageFeatures supportedWGSLLanguageFeatures)
void SurfaceCapabilitiesFreeMembers(WGPUSurfaceCapabilities surfaceCapabilities)
void SharedBufferMemoryEndAccessStateFreeMembers(WGPUSharedBufferMemoryEndAccessState sharedBufferMemoryEndAccessState)
void SharedTextureMemoryEndAccessStateFreeMembers(WGPUSharedTextureMemoryEndAccessState sharedTextureMemoryEndAccessState)
WGPUBindGroup DeviceCreateBindGroup(WGPUDevice device, WGPUBindGroupDescriptor const * descriptor)
WGPUBindGroupLayout DeviceCreateBindGroupLayout(WGPUDevice device, WGPUBindGroupLayoutDescriptor const * descriptor)
WGPUBuffer DeviceCreateBuffer(WGPUDevice device, WGPUBufferDescriptor const * descriptor)
WGPUCommandEncoder DeviceCreateCommandEncoder(WGPUDevice device, WGPUCommandEncoderDescriptor const * descriptor)
WGPUComputePipeline DeviceCreateComputePipeline(WGPUDevice device, WGPUComputePipelineDescriptor const * descriptor)
WGPUFuture DeviceCreateComputePipelineAsync(WGPUDevice device, WGPUComputePipelineDescriptor const * descriptor, WGPUCreateComputePipelineAsyncCallbackInfo callbackInfo)
WGPUBuffer DeviceCreateErrorBuffer(WGPUDevice device, WGPUBufferDescriptor const * descriptor)
WGPUExternalTexture DeviceCreateErrorExternalTexture(WGPUDevice device)
WGPUShaderModule DeviceCreateErrorShaderModule(WGPUDevice device, WGPUShaderModuleDescriptor const * descriptor, WGPUStringView errorMessage)
WGPUTexture DeviceCreateErrorTexture(WGPUDevice device, WGPUTextureDescriptor const * descriptor)
WGPUExternalTexture DeviceCreateExternalTexture(WGPUDevice device, WGPUExternalTextureDescriptor const * externalTextureDescriptor)
WGPUPipelineLayout DeviceCreatePipelineLayout(WGPUDevice device, WGPUPipelineLayoutDescriptor const * descriptor)
WGPUQuerySet DeviceCreateQuerySet(WGPUDevice device, WGPUQuerySetDescriptor const * descriptor)
WGPURenderBundleEncoder DeviceCreateRenderBundleEncoder(WGPUDevice device, WGPURenderBundleEncoderDescriptor const * descriptor)
WGPURenderPipeline DeviceCreateRenderPipeline(WGPUDevice device, WGPURenderPipelineDescriptor const * descriptor)
WGPUFuture DeviceCreateRenderPipelineAsync(WGPUDevice device, WGPURenderPipelineDescriptor const * descriptor, WGPUCreateRenderPipelineAsyncCallbackInfo callbackInfo)
WGPUSampler DeviceCreateSampler(WGPUDevice device, WGPUSamplerDescriptor const * descriptor)
WGPUShaderModule DeviceCreateShaderModule(WGPUDevice device, WGPUShaderModuleDescriptor const * descriptor)
WGPUTexture DeviceCreateTexture(WGPUDevice device, WGPUTextureDescriptor const * descriptor)
void DeviceDestroy(WGPUDevice device)
void DeviceForceLoss(WGPUDevice device, WGPUDeviceLostReason type, WGPUStringView message)
WGPUStatus DeviceGetAHardwareBufferProperties(WGPUDevice device, void * handle, WGPUAHardwareBufferProperties * properties)
WGPUAdapter DeviceGetAdapter(WGPUDevice device)
WGPUStatus DeviceGetAdapterInfo(WGPUDevice device, WGPUAdapterInfo * adapterInfo)
void DeviceGetFeatures(WGPUDevice device, WGPUSupportedFeatures * features)
WGPUStatus DeviceGetLimits(WGPUDevice device, WGPULimits * limits)
WGPUFuture DeviceGetLostFuture(WGPUDevice device)
WGPUQueue DeviceGetQueue(WGPUDevice device)
WGPUBool DeviceHasFeature(WGPUDevice device, WGPUFeatureName feature)
WGPUSharedBufferMemory DeviceImportSharedBufferMemory(WGPUDevice device, WGPUSharedBufferMemoryDescriptor const * descriptor)
WGPUSharedFence DeviceImportSharedFence(WGPUDevice device, WGPUSharedFenceDescriptor const * descriptor)
WGPUSharedTextureMemory DeviceImportSharedTextureMemory(WGPUDevice device, WGPUSharedTextureMemoryDescriptor const * descriptor)
void DeviceInjectError(WGPUDevice device, WGPUErrorType type, WGPUStringView message)
WGPUFuture DevicePopErrorScope(WGPUDevice device, WGPUPopErrorScopeCallbackInfo callbackInfo)
void DevicePushErrorScope(WGPUDevice device, WGPUErrorFilter filter)
void DeviceSetLoggingCallback(WGPUDevice device, WGPULoggingCallbackInfo callbackInfo)
void DeviceTick(WGPUDevice device)
void DeviceValidateTextureDescriptor(WGPUDevice device, WGPUTextureDescriptor const * descriptor)
void QueueCopyExternalTextureForBrowser(WGPUQueue queue, WGPUImageCopyExternalTexture const * source, WGPUTexelCopyTextureInfo const * destination, WGPUExtent3D const * copySize, WGPUCopyTextureForBrowserOptions const * options)
void QueueCopyTextureForBrowser(WGPUQueue queue, WGPUTexelCopyTextureInfo const * source, WGPUTexelCopyTextureInfo const * destination, WGPUExtent3D const * copySize, WGPUCopyTextureForBrowserOptions const * options)
WGPUFuture QueueOnSubmittedWorkDone(WGPUQueue queue, WGPUQueueWorkDoneCallbackInfo callbackInfo)
void QueueSubmit(WGPUQueue queue, size_t commandCount, WGPUCommandBuffer const * commands)
void QueueWriteBuffer(WGPUQueue queue, WGPUBuffer buffer, uint64_t bufferOffset, void const * data, size_t size)
void QueueWriteTexture(WGPUQueue queue, WGPUTexelCopyTextureInfo const * destination, void const * data, size_t dataSize, WGPUTexelCopyBufferLayout const * dataLayout, WGPUExtent3D const * writeSize)
void BufferDestroy(WGPUBuffer buffer)
void const * BufferGetConstMappedRange(WGPUBuffer buffer, size_t offset, size_t size)
WGPUBufferMapState BufferGetMapState(WGPUBuffer buffer)
void * BufferGetMappedRange(WGPUBuffer buffer, size_t offset, size_t size)
uint64_t BufferGetSize(WGPUBuffer buffer)
WGPUBufferUsage BufferGetUsage(WGPUBuffer buffer)
WGPUFuture BufferMapAsync(WGPUBuffer buffer, WGPUMapMode mode, size_t offset, size_t size, WGPUBufferMapCallbackInfo callbackInfo)
WGPUStatus BufferReadMappedRange(WGPUBuffer buffer, size_t offset, void * data, size_t size)
void BufferUnmap(WGPUBuffer buffer)
WGPUStatus BufferWriteMappedRange(WGPUBuffer buffer, size_t offset, void const * data, size_t size)
WGPUComputePassEncoder CommandEncoderBeginComputePass(WGPUCommandEncoder commandEncoder, WGPUComputePassDescriptor const * descriptor)
WGPURenderPassEncoder CommandEncoderBeginRenderPass(WGPUCommandEncoder commandEncoder, WGPURenderPassDescriptor const * descriptor)
void CommandEncoderClearBuffer(WGPUCommandEncoder commandEncoder, WGPUBuffer buffer, uint64_t offset, uint64_t size)
void CommandEncoderCopyBufferToBuffer(WGPUCommandEncoder commandEncoder, WGPUBuffer source, uint64_t sourceOffset, WGPUBuffer destination, uint64_t destinationOffset, uint64_t size)
void CommandEncoderCopyBufferToTexture(WGPUCommandEncoder commandEncoder, WGPUTexelCopyBufferInfo const * source, WGPUTexelCopyTextureInfo const * destination, WGPUExtent3D const * copySize)
void CommandEncoderCopyTextureToBuffer(WGPUCommandEncoder commandEncoder, WGPUTexelCopyTextureInfo const * source, WGPUTexelCopyBufferInfo const * destination, WGPUExtent3D const * copySize)
void CommandEncoderCopyTextureToTexture(WGPUCommandEncoder commandEncoder, WGPUTexelCopyTextureInfo const * source, WGPUTexelCopyTextureInfo const * destination, WGPUExtent3D const * copySize)
WGPUCommandBuffer CommandEncoderFinish(WGPUCommandEncoder commandEncoder, WGPUCommandBufferDescriptor const * descriptor)
void CommandEncoderInjectValidationError(WGPUCommandEncoder commandEncoder, WGPUStringView message)
void CommandEncoderInsertDebugMarker(WGPUCommandEncoder commandEncoder, WGPUStringView markerLabel)
void CommandEncoderPopDebugGroup(WGPUCommandEncoder commandEncoder)
void CommandEncoderPushDebugGroup(WGPUCommandEncoder commandEncoder, WGPUStringView groupLabel)
void CommandEncoderResolveQuerySet(WGPUCommandEncoder commandEncoder, WGPUQuerySet querySet, uint32_t firstQuery, uint32_t queryCount, WGPUBuffer destination, uint64_t destinationOffset)
void CommandEncoderWriteBuffer(WGPUCommandEncoder commandEncoder, WGPUBuffer buffer, uint64_t bufferOffset, uint8_t const * data, uint64_t size)
void CommandEncoderWriteTimestamp(WGPUCommandEncoder commandEncoder, WGPUQuerySet querySet, uint32_t queryIndex)
void ComputePassEncoderDispatchWorkgroups(WGPUComputePassEncoder computePassEncoder, uint32_t workgroupCountX, uint32_t workgroupCountY, uint32_t workgroupCountZ)
void ComputePassEncoderDispatchWorkgroupsIndirect(WGPUComputePassEncoder computePassEncoder, WGPUBuffer indirectBuffer, uint64_t indirectOffset)
void ComputePassEncoderEnd(WGPUComputePassEncoder computePassEncoder)
void ComputePassEncoderInsertDebugMarker(WGPUComputePassEncoder computePassEncoder, WGPUStringView markerLabel)
void ComputePassEncoderPopDebugGroup(WGPUComputePassEncoder computePassEncoder)
void ComputePassEncoderPushDebugGroup(WGPUComputePassEncoder computePassEncoder, WGPUStringView groupLabel)
void ComputePassEncoderSetBindGroup(WGPUComputePassEncoder computePassEncoder, uint32_t groupIndex, WGPUBindGroup group, size_t dynamicOffsetCount, uint32_t const * dynamicOffsets)
void ComputePassEncoderSetImmediateData(WGPUComputePassEncoder computePassEncoder, uint32_t offset, void const * data, size_t size)
void ComputePassEncoderSetPipeline(WGPUComputePassEncoder computePassEncoder, WGPUComputePipeline pipeline)
void ComputePassEncoderWriteTimestamp(WGPUComputePassEncoder computePassEncoder, WGPUQuerySet querySet, uint32_t queryIndex)
WGPUBindGroupLayout ComputePipelineGetBindGroupLayout(WGPUComputePipeline computePipeline, uint32_t groupIndex)
void ExternalTextureDestroy(WGPUExternalTexture externalTexture)
void ExternalTextureExpire(WGPUExternalTexture externalTexture)
void ExternalTextureRefresh(WGPUExternalTexture externalTexture)
void QuerySetDestroy(WGPUQuerySet querySet)
uint32_t QuerySetGetCount(WGPUQuerySet querySet)
WGPUQueryType QuerySetGetType(WGPUQuerySet querySet)
void RenderBundleEncoderDraw(WGPURenderBundleEncoder renderBundleEncoder, uint32_t vertexCount, uint32_t instanceCount, uint32_t firstVertex, uint32_t firstInstance)
void RenderBundleEncoderDrawIndexed(WGPURenderBundleEncoder renderBundleEncoder, uint32_t indexCount, uint32_t instanceCount, uint32_t firstIndex, int32_t baseVertex, uint32_t firstInstance)
void RenderBundleEncoderDrawIndexedIndirect(WGPURenderBundleEncoder renderBundleEncoder, WGPUBuffer indirectBuffer, uint64_t indirectOffset)
void RenderBundleEncoderDrawIndirect(WGPURenderBundleEncoder renderBundleEncoder, WGPUBuffer indirectBuffer, uint64_t indirectOffset)
WGPURenderBundle RenderBundleEncoderFinish(WGPURenderBundleEncoder renderBundleEncoder, WGPURenderBundleDescriptor const * descriptor)
void RenderBundleEncoderInsertDebugMarker(WGPURenderBundleEncoder renderBundleEncoder, WGPUStringView markerLabel)
void RenderBundleEncoderPopDebugGroup(WGPURenderBundleEncoder renderBundleEncoder)
void RenderBundleEncoderPushDebugGroup(WGPURenderBundleEncoder renderBundleEncoder, WGPUStringView groupLabel)
void RenderBundleEncoderSetBindGroup(WGPURenderBundleEncoder renderBundleEncoder, uint32_t groupIndex, WGPUBindGroup group, size_t dynamicOffsetCount, uint32_t const * dynamicOffsets)
void RenderBundleEncoderSetImmediateData(WGPURenderBundleEncoder renderBundleEncoder, uint32_t offset, void const * data, size_t size)
void RenderBundleEncoderSetIndexBuffer(WGPURenderBundleEncoder renderBundleEncoder, WGPUBuffer buffer, WGPUIndexFormat format, uint64_t offset, uint64_t size)
void RenderBundleEncoderSetPipeline(WGPURenderBundleEncoder renderBundleEncoder, WGPURenderPipeline pipeline)
void RenderBundleEncoderSetVertexBuffer(WGPURenderBundleEncoder renderBundleEncoder, uint32_t slot, WGPUBuffer buffer, uint64_t offset, uint64_t size)
void RenderPassEncoderBeginOcclusionQuery(WGPURenderPassEncoder renderPassEncoder, uint32_t queryIndex)
void RenderPassEncoderDraw(WGPURenderPassEncoder renderPassEncoder, uint32_t vertexCount, uint32_t instanceCount, uint32_t firstVertex, uint32_t firstInstance)
void RenderPassEncoderDrawIndexed(WGPURenderPassEncoder renderPassEncoder, uint32_t indexCount, uint32_t instanceCount, uint32_t firstIndex, int32_t baseVertex, uint32_t firstInstance)
void RenderPassEncoderDrawIndexedIndirect(WGPURenderPassEncoder renderPassEncoder, WGPUBuffer indirectBuffer, uint64_t indirectOffset)
void RenderPassEncoderDrawIndirect(WGPURenderPassEncoder renderPassEncoder, WGPUBuffer indirectBuffer, uint64_t indirectOffset)
void RenderPassEncoderEnd(WGPURenderPassEncoder renderPassEncoder)
void RenderPassEncoderEndOcclusionQuery(WGPURenderPassEncoder renderPassEncoder)
void RenderPassEncoderExecuteBundles(WGPURenderPassEncoder renderPassEncoder, size_t bundleCount, WGPURenderBundle const * bundles)
void RenderPassEncoderInsertDebugMarker(WGPURenderPassEncoder renderPassEncoder, WGPUStringView markerLabel)
void RenderPassEncoderMultiDrawIndexedIndirect(WGPURenderPassEncoder renderPassEncoder, WGPUBuffer indirectBuffer, uint64_t indirectOffset, uint32_t maxDrawCount, WGPUBuffer drawCountBuffer, uint64_t drawCountBufferOffset)
void RenderPassEncoderMultiDrawIndirect(WGPURenderPassEncoder renderPassEncoder, WGPUBuffer indirectBuffer, uint64_t indirectOffset, uint32_t maxDrawCount, WGPUBuffer drawCountBuffer, uint64_t drawCountBufferOffset)
void RenderPassEncoderPixelLocalStorageBarrier(WGPURenderPassEncoder renderPassEncoder)
void RenderPassEncoderPopDebugGroup(WGPURenderPassEncoder renderPassEncoder)
void RenderPassEncoderPushDebugGroup(WGPURenderPassEncoder renderPassEncoder, WGPUStringView groupLabel)
void RenderPassEncoderSetBindGroup(WGPURenderPassEncoder renderPassEncoder, uint32_t groupIndex, WGPUBindGroup group, size_t dynamicOffsetCount, uint32_t const * dynamicOffsets)
void RenderPassEncoderSetBlendConstant(WGPURenderPassEncoder renderPassEncoder, WGPUColor const * color)
void RenderPassEncoderSetImmediateData(WGPURenderPassEncoder renderPassEncoder, uint32_t offset, void const * data, size_t size)
void RenderPassEncoderSetIndexBuffer(WGPURenderPassEncoder renderPassEncoder, WGPUBuffer buffer, WGPUIndexFormat format, uint64_t offset, uint64_t size)
void RenderPassEncoderSetPipeline(WGPURenderPassEncoder renderPassEncoder, WGPURenderPipeline pipeline)
void RenderPassEncoderSetScissorRect(WGPURenderPassEncoder renderPassEncoder, uint32_t x, uint32_t y, uint32_t width, uint32_t height)
void RenderPassEncoderSetStencilReference(WGPURenderPassEncoder renderPassEncoder, uint32_t reference)
void RenderPassEncoderSetVertexBuffer(WGPURenderPassEncoder renderPassEncoder, uint32_t slot, WGPUBuffer buffer, uint64_t offset, uint64_t size)
void RenderPassEncoderSetViewport(WGPURenderPassEncoder renderPassEncoder, float x, float y, float width, float height, float minDepth, float maxDepth)
void RenderPassEncoderWriteTimestamp(WGPURenderPassEncoder renderPassEncoder, WGPUQuerySet querySet, uint32_t queryIndex)
WGPUBindGroupLayout RenderPipelineGetBindGroupLayout(WGPURenderPipeline renderPipeline, uint32_t groupIndex)
WGPUFuture ShaderModuleGetCompilationInfo(WGPUShaderModule shaderModule, WGPUCompilationInfoCallbackInfo callbackInfo)
WGPUStatus SharedBufferMemoryBeginAccess(WGPUSharedBufferMemory sharedBufferMemory, WGPUBuffer buffer, WGPUSharedBufferMemoryBeginAccessDescriptor const * descriptor)
WGPUBuffer SharedBufferMemoryCreateBuffer(WGPUSharedBufferMemory sharedBufferMemory, WGPUBufferDescriptor const * descriptor)
WGPUStatus SharedBufferMemoryEndAccess(WGPUSharedBufferMemory sharedBufferMemory, WGPUBuffer buffer, WGPUSharedBufferMemoryEndAccessState * descriptor)
WGPUStatus SharedBufferMemoryGetProperties(WGPUSharedBufferMemory sharedBufferMemory, WGPUSharedBufferMemoryProperties * properties)
WGPUBool SharedBufferMemoryIsDeviceLost(WGPUSharedBufferMemory sharedBufferMemory)
void SharedFenceExportInfo(WGPUSharedFence sharedFence, WGPUSharedFenceExportInfo * info)
WGPUStatus SharedTextureMemoryBeginAccess(WGPUSharedTextureMemory sharedTextureMemory, WGPUTexture texture, WGPUSharedTextureMemoryBeginAccessDescriptor const * descriptor)
WGPUTexture SharedTextureMemoryCreateTexture(WGPUSharedTextureMemory sharedTextureMemory, WGPUTextureDescriptor const * descriptor)
WGPUStatus SharedTextureMemoryEndAccess(WGPUSharedTextureMemory sharedTextureMemory, WGPUTexture texture, WGPUSharedTextureMemoryEndAccessState * descriptor)
WGPUStatus SharedTextureMemoryGetProperties(WGPUSharedTextureMemory sharedTextureMemory, WGPUSharedTextureMemoryProperties * properties)
WGPUBool SharedTextureMemoryIsDeviceLost(WGPUSharedTextureMemory sharedTextureMemory)
WGPUStatus SurfaceGetCapabilities(WGPUSurface surface, WGPUAdapter adapter, WGPUSurfaceCapabilities * capabilities)
void SurfaceConfigure(WGPUSurface surface, WGPUSurfaceConfiguration const * config)
void SurfaceGetCurrentTexture(WGPUSurface surface, WGPUSurfaceTexture * surfaceTexture)
void SurfacePresent(WGPUSurface surface)
void SurfaceUnconfigure(WGPUSurface surface)
WGPUTextureView TextureCreateErrorView(WGPUTexture texture, WGPUTextureViewDescriptor const * descriptor)
WGPUTextureView TextureCreateView(WGPUTexture texture, WGPUTextureViewDescriptor const * descriptor)
void TextureDestroy(WGPUTexture texture)
uint32_t TextureGetDepthOrArrayLayers(WGPUTexture texture)
WGPUTextureDimension TextureGetDimension(WGPUTexture texture)
WGPUTextureFormat TextureGetFormat(WGPUTexture texture)
uint32_t TextureGetHeight(WGPUTexture texture)
uint32_t TextureGetMipLevelCount(WGPUTexture texture)
uint32_t TextureGetSampleCount(WGPUTexture texture)
WGPUTextureUsage TextureGetUsage(WGPUTexture texture)
uint32_t TextureGetWidth(WGPUTexture texture)
`;
// Object types without a SetLabel export in this build.
export const objectsWithoutSetLabel = ['Instance', 'Adapter', 'SharedFence'];

// The defaults webgpu.h's WGPU_<STRUCT>_INIT macros give a field where they are not the zero of
// its type (NULL, 0, the enum's 0 value, a flag type's None, WGPU_STRING_VIEW_INIT, a nested
// struct's own INIT): the standard's, field by field. An extension struct's chain gets its own
// sType by rule (generate.mjs, initializers()).
export const initDefaults = {
  WGPUStringView: { length: 'WGPU_STRLEN' },
  WGPUExtent3D: { height: '1', depthOrArrayLayers: '1' },
  WGPUMultisampleState: { count: '1', mask: '0xFFFFFFFF' },
  WGPUPassTimestampWrites: { beginningOfPassWriteIndex: 'WGPU_QUERY_SET_INDEX_UNDEFINED', endOfPassWriteIndex: 'WGPU_QUERY_SET_INDEX_UNDEFINED' },
  WGPURenderBundleEncoderDescriptor: { sampleCount: '1' },
  WGPURenderPassDepthStencilAttachment: { depthClearValue: 'NAN' },
  WGPURenderPassColorAttachment: { depthSlice: 'WGPU_DEPTH_SLICE_UNDEFINED' },
  WGPURenderPassMaxDrawCount: { maxDrawCount: '50000000' },
  WGPUSamplerDescriptor: { lodMaxClamp: '32.f', maxAnisotropy: '1' },
  WGPUSurfaceConfiguration: { usage: 'WGPUTextureUsage_RenderAttachment', alphaMode: 'WGPUCompositeAlphaMode_Auto' },
  WGPUTexelCopyBufferLayout: { bytesPerRow: 'WGPU_COPY_STRIDE_UNDEFINED', rowsPerImage: 'WGPU_COPY_STRIDE_UNDEFINED' },
  WGPUBindGroupEntry: { size: 'WGPU_WHOLE_SIZE' },
  WGPUDepthStencilState: { stencilReadMask: '0xFFFFFFFF', stencilWriteMask: '0xFFFFFFFF' },
  WGPUTextureDescriptor: { mipLevelCount: '1', sampleCount: '1' },
  WGPUColorTargetState: { writeMask: 'WGPUColorWriteMask_All' },
  WGPUTextureViewDescriptor: { mipLevelCount: 'WGPU_MIP_LEVEL_COUNT_UNDEFINED', arrayLayerCount: 'WGPU_ARRAY_LAYER_COUNT_UNDEFINED' },
  // Every limit of WGPULimits and of its extensions is "undefined" unless asked for.
  WGPULimits: 'WGPU_LIMIT_UNDEFINED',
  WGPUCompatibilityModeLimits: 'WGPU_LIMIT_UNDEFINED',
};
