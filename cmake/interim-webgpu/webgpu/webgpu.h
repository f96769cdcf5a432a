/* Temporary: the subset of webgpu.h that warden uses, deleted at integration when the header
 * generated for the pinned Dawn build replaces it. Values and layouts are those proven by
 * tests/gpu/abi_*_test.cpp against bun-webgpu-linux-x64@0.1.7 (docs/adr/0001, 0035). */
#ifndef WEBGPU_H_
#define WEBGPU_H_

#include <stddef.h>
#include <stdint.h>

#define WGPU_STRLEN (SIZE_MAX)
#define WGPU_WHOLE_SIZE (UINT64_MAX)
#define WGPU_WHOLE_MAP_SIZE (SIZE_MAX)
#define WGPU_MIP_LEVEL_COUNT_UNDEFINED (UINT32_MAX)
#define WGPU_ARRAY_LAYER_COUNT_UNDEFINED (UINT32_MAX)
#define WGPU_COPY_STRIDE_UNDEFINED (UINT32_MAX)
#define WGPU_DEPTH_SLICE_UNDEFINED (UINT32_MAX)
#define WGPU_LIMIT_U32_UNDEFINED (UINT32_MAX)
#define WGPU_QUERY_SET_INDEX_UNDEFINED (UINT32_MAX)
#define WGPU_LIMIT_U64_UNDEFINED (UINT64_MAX)

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t WGPUBool;
typedef uint64_t WGPUFlags;

typedef struct WGPUInstanceImpl* WGPUInstance;
typedef struct WGPUAdapterImpl* WGPUAdapter;
typedef struct WGPUDeviceImpl* WGPUDevice;
typedef struct WGPUQueueImpl* WGPUQueue;
typedef struct WGPUBufferImpl* WGPUBuffer;
typedef struct WGPUTextureImpl* WGPUTexture;
typedef struct WGPUTextureViewImpl* WGPUTextureView;
typedef struct WGPUSamplerImpl* WGPUSampler;
typedef struct WGPUShaderModuleImpl* WGPUShaderModule;
typedef struct WGPUBindGroupLayoutImpl* WGPUBindGroupLayout;
typedef struct WGPUPipelineLayoutImpl* WGPUPipelineLayout;
typedef struct WGPUBindGroupImpl* WGPUBindGroup;
typedef struct WGPURenderPipelineImpl* WGPURenderPipeline;
typedef struct WGPUComputePipelineImpl* WGPUComputePipeline;
typedef struct WGPUQuerySetImpl* WGPUQuerySet;
typedef struct WGPUCommandEncoderImpl* WGPUCommandEncoder;
typedef struct WGPUCommandBufferImpl* WGPUCommandBuffer;
typedef struct WGPURenderPassEncoderImpl* WGPURenderPassEncoder;
typedef struct WGPUComputePassEncoderImpl* WGPUComputePassEncoder;
typedef struct WGPUSurfaceImpl* WGPUSurface;
typedef struct WGPURenderBundleImpl* WGPURenderBundle;
typedef struct WGPURenderBundleEncoderImpl* WGPURenderBundleEncoder;

struct WGPUStringView;
struct WGPUChainedStruct;
struct WGPUFuture;
struct WGPUFutureWaitInfo;
struct WGPUExtent3D;
struct WGPUOrigin3D;
struct WGPUColor;
struct WGPUUncapturedErrorCallbackInfo;
struct WGPUInstanceCapabilities;
struct WGPUInstanceDescriptor;
struct WGPUDawnCacheDeviceDescriptor;
struct WGPURequestAdapterOptions;
struct WGPUAdapterInfo;
struct WGPULimits;
struct WGPUSupportedFeatures;
struct WGPUQueueDescriptor;
struct WGPUDeviceDescriptor;
struct WGPUBufferDescriptor;
struct WGPUTextureDescriptor;
struct WGPUTextureBindingViewDimensionDescriptor;
struct WGPUTextureViewDescriptor;
struct WGPUSamplerDescriptor;
struct WGPUQuerySetDescriptor;
struct WGPUShaderSourceWGSL;
struct WGPUShaderModuleDescriptor;
struct WGPUCompilationMessage;
struct WGPUCompilationInfo;
struct WGPUBufferBindingLayout;
struct WGPUSamplerBindingLayout;
struct WGPUTextureBindingLayout;
struct WGPUStorageTextureBindingLayout;
struct WGPUBindGroupLayoutEntry;
struct WGPUBindGroupLayoutDescriptor;
struct WGPUBindGroupEntry;
struct WGPUBindGroupDescriptor;
struct WGPUPipelineLayoutDescriptor;
struct WGPUConstantEntry;
struct WGPUVertexAttribute;
struct WGPUVertexBufferLayout;
struct WGPUVertexState;
struct WGPUPrimitiveState;
struct WGPUStencilFaceState;
struct WGPUDepthStencilState;
struct WGPUMultisampleState;
struct WGPUBlendComponent;
struct WGPUBlendState;
struct WGPUColorTargetState;
struct WGPUFragmentState;
struct WGPURenderPipelineDescriptor;
struct WGPUComputeState;
struct WGPUComputePipelineDescriptor;
struct WGPUCommandEncoderDescriptor;
struct WGPUCommandBufferDescriptor;
struct WGPURenderPassColorAttachment;
struct WGPURenderPassDepthStencilAttachment;
struct WGPUPassTimestampWrites;
struct WGPURenderPassDescriptor;
struct WGPUComputePassDescriptor;
struct WGPUTexelCopyBufferLayout;
struct WGPUTexelCopyBufferInfo;
struct WGPUTexelCopyTextureInfo;
struct WGPUSurfaceSourceXlibWindow;
struct WGPUSurfaceDescriptor;
struct WGPUSurfaceCapabilities;
struct WGPUSurfaceConfiguration;
struct WGPUSurfaceTexture;

typedef enum WGPUSType {
  WGPUSType_ShaderSourceWGSL = 0x00000002,
  WGPUSType_TextureBindingViewDimensionDescriptor = 0x00020001,
  WGPUSType_SurfaceSourceXlibWindow = 0x00000006,
  WGPUSType_DawnInstanceDescriptor = 0x00050006,
  WGPUSType_DawnCacheDeviceDescriptor = 0x00050007,
  WGPUSType_Force32 = 0x7FFFFFFF
} WGPUSType;

typedef enum WGPUBackendType {
  WGPUBackendType_Undefined = 0x00000000,
  WGPUBackendType_Null = 0x00000001,
  WGPUBackendType_Vulkan = 0x00000006,
  WGPUBackendType_OpenGL = 0x00000007,
  WGPUBackendType_OpenGLES = 0x00000008,
  WGPUBackendType_Force32 = 0x7FFFFFFF
} WGPUBackendType;

typedef enum WGPUAdapterType {
  WGPUAdapterType_DiscreteGPU = 0x00000001,
  WGPUAdapterType_CPU = 0x00000003,
  WGPUAdapterType_Unknown = 0x00000004,
  WGPUAdapterType_Force32 = 0x7FFFFFFF
} WGPUAdapterType;

typedef enum WGPUFeatureLevel {
  WGPUFeatureLevel_Undefined = 0x00000000,
  WGPUFeatureLevel_Compatibility = 0x00000001,
  WGPUFeatureLevel_Core = 0x00000002,
  WGPUFeatureLevel_Force32 = 0x7FFFFFFF
} WGPUFeatureLevel;

typedef enum WGPUPowerPreference {
  WGPUPowerPreference_Undefined = 0x00000000,
  WGPUPowerPreference_Force32 = 0x7FFFFFFF
} WGPUPowerPreference;

typedef enum WGPUCallbackMode {
  WGPUCallbackMode_WaitAnyOnly = 0x00000001,
  WGPUCallbackMode_AllowProcessEvents = 0x00000002,
  WGPUCallbackMode_AllowSpontaneous = 0x00000003,
  WGPUCallbackMode_Force32 = 0x7FFFFFFF
} WGPUCallbackMode;

typedef enum WGPURequestAdapterStatus {
  WGPURequestAdapterStatus_Success = 0x00000001,
  WGPURequestAdapterStatus_Unavailable = 0x00000003,
  WGPURequestAdapterStatus_Force32 = 0x7FFFFFFF
} WGPURequestAdapterStatus;

typedef enum WGPURequestDeviceStatus {
  WGPURequestDeviceStatus_Success = 0x00000001,
  WGPURequestDeviceStatus_Error = 0x00000003,
  WGPURequestDeviceStatus_Force32 = 0x7FFFFFFF
} WGPURequestDeviceStatus;

typedef enum WGPUDeviceLostReason {
  WGPUDeviceLostReason_Unknown = 0x00000001,
  WGPUDeviceLostReason_Destroyed = 0x00000002,
  WGPUDeviceLostReason_CallbackCancelled = 0x00000003,
  WGPUDeviceLostReason_FailedCreation = 0x00000004,
  WGPUDeviceLostReason_Force32 = 0x7FFFFFFF
} WGPUDeviceLostReason;

typedef enum WGPUErrorType {
  WGPUErrorType_NoError = 0x00000001,
  WGPUErrorType_Validation = 0x00000002,
  WGPUErrorType_Force32 = 0x7FFFFFFF
} WGPUErrorType;

typedef enum WGPUErrorFilter {
  WGPUErrorFilter_Validation = 0x00000001,
  WGPUErrorFilter_OutOfMemory = 0x00000002,
  WGPUErrorFilter_Internal = 0x00000003,
  WGPUErrorFilter_Force32 = 0x7FFFFFFF
} WGPUErrorFilter;

typedef enum WGPUPopErrorScopeStatus {
  WGPUPopErrorScopeStatus_Success = 0x00000001,
  WGPUPopErrorScopeStatus_Error = 0x00000003,
  WGPUPopErrorScopeStatus_Force32 = 0x7FFFFFFF
} WGPUPopErrorScopeStatus;

typedef enum WGPUQueueWorkDoneStatus {
  WGPUQueueWorkDoneStatus_Success = 0x00000001,
  WGPUQueueWorkDoneStatus_Force32 = 0x7FFFFFFF
} WGPUQueueWorkDoneStatus;

typedef enum WGPUMapAsyncStatus {
  WGPUMapAsyncStatus_Success = 0x00000001,
  WGPUMapAsyncStatus_Error = 0x00000003,
  WGPUMapAsyncStatus_Aborted = 0x00000004,
  WGPUMapAsyncStatus_Force32 = 0x7FFFFFFF
} WGPUMapAsyncStatus;

typedef enum WGPUCompilationInfoRequestStatus {
  WGPUCompilationInfoRequestStatus_Success = 0x00000001,
  WGPUCompilationInfoRequestStatus_CallbackCancelled = 0x00000002,
  WGPUCompilationInfoRequestStatus_Force32 = 0x7FFFFFFF
} WGPUCompilationInfoRequestStatus;

typedef enum WGPUCompilationMessageType {
  WGPUCompilationMessageType_Error = 0x00000001,
  WGPUCompilationMessageType_Warning = 0x00000002,
  WGPUCompilationMessageType_Info = 0x00000003,
  WGPUCompilationMessageType_Force32 = 0x7FFFFFFF
} WGPUCompilationMessageType;

typedef enum WGPUWaitStatus {
  WGPUWaitStatus_Success = 0x00000001,
  WGPUWaitStatus_TimedOut = 0x00000002,
  WGPUWaitStatus_Error = 0x00000003,
  WGPUWaitStatus_Force32 = 0x7FFFFFFF
} WGPUWaitStatus;

typedef enum WGPUStatus {
  WGPUStatus_Success = 0x00000001,
  WGPUStatus_Error = 0x00000002,
  WGPUStatus_Force32 = 0x7FFFFFFF
} WGPUStatus;

typedef enum WGPUBufferMapState {
  WGPUBufferMapState_Unmapped = 0x00000001,
  WGPUBufferMapState_Pending = 0x00000002,
  WGPUBufferMapState_Mapped = 0x00000003,
  WGPUBufferMapState_Force32 = 0x7FFFFFFF
} WGPUBufferMapState;

typedef enum WGPUOptionalBool {
  WGPUOptionalBool_False = 0x00000000,
  WGPUOptionalBool_True = 0x00000001,
  WGPUOptionalBool_Undefined = 0x00000002,
  WGPUOptionalBool_Force32 = 0x7FFFFFFF
} WGPUOptionalBool;

typedef enum WGPUPresentMode {
  WGPUPresentMode_Undefined = 0x00000000,
  WGPUPresentMode_Fifo = 0x00000001,
  WGPUPresentMode_FifoRelaxed = 0x00000002,
  WGPUPresentMode_Immediate = 0x00000003,
  WGPUPresentMode_Mailbox = 0x00000004,
  WGPUPresentMode_Force32 = 0x7FFFFFFF
} WGPUPresentMode;

typedef enum WGPUCompositeAlphaMode {
  WGPUCompositeAlphaMode_Auto = 0x00000000,
  WGPUCompositeAlphaMode_Opaque = 0x00000001,
  WGPUCompositeAlphaMode_Premultiplied = 0x00000002,
  WGPUCompositeAlphaMode_Unpremultiplied = 0x00000003,
  WGPUCompositeAlphaMode_Inherit = 0x00000004,
  WGPUCompositeAlphaMode_Force32 = 0x7FFFFFFF
} WGPUCompositeAlphaMode;

typedef enum WGPUSurfaceGetCurrentTextureStatus {
  WGPUSurfaceGetCurrentTextureStatus_SuccessOptimal = 0x00000001,
  WGPUSurfaceGetCurrentTextureStatus_SuccessSuboptimal = 0x00000002,
  WGPUSurfaceGetCurrentTextureStatus_Timeout = 0x00000003,
  WGPUSurfaceGetCurrentTextureStatus_Outdated = 0x00000004,
  WGPUSurfaceGetCurrentTextureStatus_Lost = 0x00000005,
  WGPUSurfaceGetCurrentTextureStatus_Error = 0x00000006,
  WGPUSurfaceGetCurrentTextureStatus_Force32 = 0x7FFFFFFF
} WGPUSurfaceGetCurrentTextureStatus;

typedef enum WGPUTextureFormat {
  WGPUTextureFormat_Undefined = 0x00000000,
  WGPUTextureFormat_R8Unorm = 0x00000001,
  WGPUTextureFormat_R32Float = 0x0000000C,
  WGPUTextureFormat_R32Uint = 0x0000000D,
  WGPUTextureFormat_RGBA8Unorm = 0x00000012,
  WGPUTextureFormat_RGBA8UnormSrgb = 0x00000013,
  WGPUTextureFormat_RGBA8Sint = 0x00000016,
  WGPUTextureFormat_BGRA8Unorm = 0x00000017,
  WGPUTextureFormat_RGBA16Float = 0x00000022,
  WGPUTextureFormat_RGBA32Float = 0x00000023,
  WGPUTextureFormat_Depth24Plus = 0x00000028,
  WGPUTextureFormat_Depth32Float = 0x0000002A,
  WGPUTextureFormat_Force32 = 0x7FFFFFFF
} WGPUTextureFormat;

typedef enum WGPUTextureDimension {
  WGPUTextureDimension_Undefined = 0x00000000,
  WGPUTextureDimension_1D = 0x00000001,
  WGPUTextureDimension_2D = 0x00000002,
  WGPUTextureDimension_3D = 0x00000003,
  WGPUTextureDimension_Force32 = 0x7FFFFFFF
} WGPUTextureDimension;

typedef enum WGPUTextureViewDimension {
  WGPUTextureViewDimension_Undefined = 0x00000000,
  WGPUTextureViewDimension_1D = 0x00000001,
  WGPUTextureViewDimension_2D = 0x00000002,
  WGPUTextureViewDimension_2DArray = 0x00000003,
  WGPUTextureViewDimension_Cube = 0x00000004,
  WGPUTextureViewDimension_CubeArray = 0x00000005,
  WGPUTextureViewDimension_3D = 0x00000006,
  WGPUTextureViewDimension_Force32 = 0x7FFFFFFF
} WGPUTextureViewDimension;

typedef enum WGPUTextureAspect {
  WGPUTextureAspect_All = 0x00000001,
  WGPUTextureAspect_StencilOnly = 0x00000002,
  WGPUTextureAspect_DepthOnly = 0x00000003,
  WGPUTextureAspect_Force32 = 0x7FFFFFFF
} WGPUTextureAspect;

typedef enum WGPUTextureSampleType {
  WGPUTextureSampleType_BindingNotUsed = 0x00000000,
  WGPUTextureSampleType_Float = 0x00000002,
  WGPUTextureSampleType_UnfilterableFloat = 0x00000003,
  WGPUTextureSampleType_Depth = 0x00000004,
  WGPUTextureSampleType_Sint = 0x00000005,
  WGPUTextureSampleType_Uint = 0x00000006,
  WGPUTextureSampleType_Force32 = 0x7FFFFFFF
} WGPUTextureSampleType;

typedef enum WGPUSamplerBindingType {
  WGPUSamplerBindingType_BindingNotUsed = 0x00000000,
  WGPUSamplerBindingType_Filtering = 0x00000002,
  WGPUSamplerBindingType_NonFiltering = 0x00000003,
  WGPUSamplerBindingType_Comparison = 0x00000004,
  WGPUSamplerBindingType_Force32 = 0x7FFFFFFF
} WGPUSamplerBindingType;

typedef enum WGPUBufferBindingType {
  WGPUBufferBindingType_BindingNotUsed = 0x00000000,
  WGPUBufferBindingType_Uniform = 0x00000002,
  WGPUBufferBindingType_Storage = 0x00000003,
  WGPUBufferBindingType_ReadOnlyStorage = 0x00000004,
  WGPUBufferBindingType_Force32 = 0x7FFFFFFF
} WGPUBufferBindingType;

typedef enum WGPUStorageTextureAccess {
  WGPUStorageTextureAccess_BindingNotUsed = 0x00000000,
  WGPUStorageTextureAccess_WriteOnly = 0x00000002,
  WGPUStorageTextureAccess_ReadOnly = 0x00000003,
  WGPUStorageTextureAccess_ReadWrite = 0x00000004,
  WGPUStorageTextureAccess_Force32 = 0x7FFFFFFF
} WGPUStorageTextureAccess;

typedef enum WGPUAddressMode {
  WGPUAddressMode_Undefined = 0x00000000,
  WGPUAddressMode_ClampToEdge = 0x00000001,
  WGPUAddressMode_Repeat = 0x00000002,
  WGPUAddressMode_MirrorRepeat = 0x00000003,
  WGPUAddressMode_Force32 = 0x7FFFFFFF
} WGPUAddressMode;

typedef enum WGPUFilterMode {
  WGPUFilterMode_Undefined = 0x00000000,
  WGPUFilterMode_Nearest = 0x00000001,
  WGPUFilterMode_Linear = 0x00000002,
  WGPUFilterMode_Force32 = 0x7FFFFFFF
} WGPUFilterMode;

typedef enum WGPUMipmapFilterMode {
  WGPUMipmapFilterMode_Undefined = 0x00000000,
  WGPUMipmapFilterMode_Nearest = 0x00000001,
  WGPUMipmapFilterMode_Linear = 0x00000002,
  WGPUMipmapFilterMode_Force32 = 0x7FFFFFFF
} WGPUMipmapFilterMode;

typedef enum WGPUCompareFunction {
  WGPUCompareFunction_Undefined = 0x00000000,
  WGPUCompareFunction_Never = 0x00000001,
  WGPUCompareFunction_Less = 0x00000002,
  WGPUCompareFunction_Equal = 0x00000003,
  WGPUCompareFunction_LessEqual = 0x00000004,
  WGPUCompareFunction_Greater = 0x00000005,
  WGPUCompareFunction_NotEqual = 0x00000006,
  WGPUCompareFunction_GreaterEqual = 0x00000007,
  WGPUCompareFunction_Always = 0x00000008,
  WGPUCompareFunction_Force32 = 0x7FFFFFFF
} WGPUCompareFunction;

typedef enum WGPUVertexFormat {
  WGPUVertexFormat_Float32 = 0x0000001C,
  WGPUVertexFormat_Float32x2 = 0x0000001D,
  WGPUVertexFormat_Float32x3 = 0x0000001E,
  WGPUVertexFormat_Float32x4 = 0x0000001F,
  WGPUVertexFormat_Uint32 = 0x00000020,
  WGPUVertexFormat_Uint32x4 = 0x00000023,
  WGPUVertexFormat_Force32 = 0x7FFFFFFF
} WGPUVertexFormat;

typedef enum WGPUVertexStepMode {
  WGPUVertexStepMode_Undefined = 0x00000000,
  WGPUVertexStepMode_Vertex = 0x00000001,
  WGPUVertexStepMode_Instance = 0x00000002,
  WGPUVertexStepMode_Force32 = 0x7FFFFFFF
} WGPUVertexStepMode;

typedef enum WGPUPrimitiveTopology {
  WGPUPrimitiveTopology_Undefined = 0x00000000,
  WGPUPrimitiveTopology_PointList = 0x00000001,
  WGPUPrimitiveTopology_LineList = 0x00000002,
  WGPUPrimitiveTopology_LineStrip = 0x00000003,
  WGPUPrimitiveTopology_TriangleList = 0x00000004,
  WGPUPrimitiveTopology_TriangleStrip = 0x00000005,
  WGPUPrimitiveTopology_Force32 = 0x7FFFFFFF
} WGPUPrimitiveTopology;

typedef enum WGPUIndexFormat {
  WGPUIndexFormat_Undefined = 0x00000000,
  WGPUIndexFormat_Uint16 = 0x00000001,
  WGPUIndexFormat_Uint32 = 0x00000002,
  WGPUIndexFormat_Force32 = 0x7FFFFFFF
} WGPUIndexFormat;

typedef enum WGPUFrontFace {
  WGPUFrontFace_Undefined = 0x00000000,
  WGPUFrontFace_CCW = 0x00000001,
  WGPUFrontFace_CW = 0x00000002,
  WGPUFrontFace_Force32 = 0x7FFFFFFF
} WGPUFrontFace;

typedef enum WGPUCullMode {
  WGPUCullMode_Undefined = 0x00000000,
  WGPUCullMode_None = 0x00000001,
  WGPUCullMode_Front = 0x00000002,
  WGPUCullMode_Back = 0x00000003,
  WGPUCullMode_Force32 = 0x7FFFFFFF
} WGPUCullMode;

typedef enum WGPUBlendOperation {
  WGPUBlendOperation_Undefined = 0x00000000,
  WGPUBlendOperation_Add = 0x00000001,
  WGPUBlendOperation_Subtract = 0x00000002,
  WGPUBlendOperation_ReverseSubtract = 0x00000003,
  WGPUBlendOperation_Min = 0x00000004,
  WGPUBlendOperation_Max = 0x00000005,
  WGPUBlendOperation_Force32 = 0x7FFFFFFF
} WGPUBlendOperation;

typedef enum WGPUBlendFactor {
  WGPUBlendFactor_Undefined = 0x00000000,
  WGPUBlendFactor_Zero = 0x00000001,
  WGPUBlendFactor_One = 0x00000002,
  WGPUBlendFactor_Src = 0x00000003,
  WGPUBlendFactor_OneMinusSrc = 0x00000004,
  WGPUBlendFactor_SrcAlpha = 0x00000005,
  WGPUBlendFactor_OneMinusSrcAlpha = 0x00000006,
  WGPUBlendFactor_Dst = 0x00000007,
  WGPUBlendFactor_OneMinusDst = 0x00000008,
  WGPUBlendFactor_DstAlpha = 0x00000009,
  WGPUBlendFactor_OneMinusDstAlpha = 0x0000000A,
  WGPUBlendFactor_Force32 = 0x7FFFFFFF
} WGPUBlendFactor;

typedef enum WGPUStencilOperation {
  WGPUStencilOperation_Undefined = 0x00000000,
  WGPUStencilOperation_Force32 = 0x7FFFFFFF
} WGPUStencilOperation;

typedef enum WGPULoadOp {
  WGPULoadOp_Undefined = 0x00000000,
  WGPULoadOp_Load = 0x00000001,
  WGPULoadOp_Clear = 0x00000002,
  WGPULoadOp_Force32 = 0x7FFFFFFF
} WGPULoadOp;

typedef enum WGPUStoreOp {
  WGPUStoreOp_Undefined = 0x00000000,
  WGPUStoreOp_Store = 0x00000001,
  WGPUStoreOp_Discard = 0x00000002,
  WGPUStoreOp_Force32 = 0x7FFFFFFF
} WGPUStoreOp;

typedef enum WGPUQueryType {
  WGPUQueryType_Occlusion = 0x00000001,
  WGPUQueryType_Timestamp = 0x00000002,
  WGPUQueryType_Force32 = 0x7FFFFFFF
} WGPUQueryType;

typedef enum WGPULoggingType {
  WGPULoggingType_Verbose = 0x00000001,
  WGPULoggingType_Info = 0x00000002,
  WGPULoggingType_Warning = 0x00000003,
  WGPULoggingType_Error = 0x00000004,
  WGPULoggingType_Force32 = 0x7FFFFFFF
} WGPULoggingType;

typedef enum WGPUCreatePipelineAsyncStatus {
  WGPUCreatePipelineAsyncStatus_Success = 0x00000001,
  WGPUCreatePipelineAsyncStatus_CallbackCancelled = 0x00000002,
  WGPUCreatePipelineAsyncStatus_ValidationError = 0x00000003,
  WGPUCreatePipelineAsyncStatus_InternalError = 0x00000004,
  WGPUCreatePipelineAsyncStatus_Force32 = 0x7FFFFFFF
} WGPUCreatePipelineAsyncStatus;

typedef enum WGPUFeatureName {
  WGPUFeatureName_ShaderF16 = 0x0000000A,
  WGPUFeatureName_ClipDistances = 0x0000000F,
  WGPUFeatureName_DualSourceBlending = 0x00000010,
  WGPUFeatureName_Subgroups = 0x00000011,
  WGPUFeatureName_ImplicitDeviceSynchronization = 0x00050004,
  WGPUFeatureName_Force32 = 0x7FFFFFFF
} WGPUFeatureName;

typedef WGPUFlags WGPUBufferUsage;
static const WGPUBufferUsage WGPUBufferUsage_None = 0x0000000000000000;
static const WGPUBufferUsage WGPUBufferUsage_MapRead = 0x0000000000000001;
static const WGPUBufferUsage WGPUBufferUsage_MapWrite = 0x0000000000000002;
static const WGPUBufferUsage WGPUBufferUsage_CopySrc = 0x0000000000000004;
static const WGPUBufferUsage WGPUBufferUsage_CopyDst = 0x0000000000000008;
static const WGPUBufferUsage WGPUBufferUsage_Index = 0x0000000000000010;
static const WGPUBufferUsage WGPUBufferUsage_Vertex = 0x0000000000000020;
static const WGPUBufferUsage WGPUBufferUsage_Uniform = 0x0000000000000040;
static const WGPUBufferUsage WGPUBufferUsage_Storage = 0x0000000000000080;
static const WGPUBufferUsage WGPUBufferUsage_Indirect = 0x0000000000000100;
static const WGPUBufferUsage WGPUBufferUsage_QueryResolve = 0x0000000000000200;

typedef WGPUFlags WGPUTextureUsage;
static const WGPUTextureUsage WGPUTextureUsage_None = 0x0000000000000000;
static const WGPUTextureUsage WGPUTextureUsage_CopySrc = 0x0000000000000001;
static const WGPUTextureUsage WGPUTextureUsage_CopyDst = 0x0000000000000002;
static const WGPUTextureUsage WGPUTextureUsage_TextureBinding = 0x0000000000000004;
static const WGPUTextureUsage WGPUTextureUsage_StorageBinding = 0x0000000000000008;
static const WGPUTextureUsage WGPUTextureUsage_RenderAttachment = 0x0000000000000010;

typedef WGPUFlags WGPUShaderStage;
static const WGPUShaderStage WGPUShaderStage_None = 0x0000000000000000;
static const WGPUShaderStage WGPUShaderStage_Vertex = 0x0000000000000001;
static const WGPUShaderStage WGPUShaderStage_Fragment = 0x0000000000000002;
static const WGPUShaderStage WGPUShaderStage_Compute = 0x0000000000000004;

typedef WGPUFlags WGPUColorWriteMask;
static const WGPUColorWriteMask WGPUColorWriteMask_None = 0x0000000000000000;
static const WGPUColorWriteMask WGPUColorWriteMask_Red = 0x0000000000000001;
static const WGPUColorWriteMask WGPUColorWriteMask_Green = 0x0000000000000002;
static const WGPUColorWriteMask WGPUColorWriteMask_Blue = 0x0000000000000004;
static const WGPUColorWriteMask WGPUColorWriteMask_Alpha = 0x0000000000000008;
static const WGPUColorWriteMask WGPUColorWriteMask_All = 0x000000000000000F;

typedef WGPUFlags WGPUMapMode;
static const WGPUMapMode WGPUMapMode_None = 0x0000000000000000;
static const WGPUMapMode WGPUMapMode_Read = 0x0000000000000001;
static const WGPUMapMode WGPUMapMode_Write = 0x0000000000000002;

typedef void (*WGPUProc)(void);

typedef struct WGPUStringView {
  char const * data;
  size_t length;
} WGPUStringView;

typedef size_t (*WGPUDawnLoadCacheDataFunction)(void const * key, size_t keySize, void * value, size_t valueSize, void * userdata);
typedef void (*WGPUDawnStoreCacheDataFunction)(void const * key, size_t keySize, void const * value, size_t valueSize, void * userdata);
typedef void (*WGPURequestAdapterCallback)(WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message, void* userdata1, void* userdata2);
typedef void (*WGPURequestDeviceCallback)(WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message, void* userdata1, void* userdata2);
typedef void (*WGPUDeviceLostCallback)(WGPUDevice const * device, WGPUDeviceLostReason reason, WGPUStringView message, void* userdata1, void* userdata2);
typedef void (*WGPUUncapturedErrorCallback)(WGPUDevice const * device, WGPUErrorType type, WGPUStringView message, void* userdata1, void* userdata2);
typedef void (*WGPUPopErrorScopeCallback)(WGPUPopErrorScopeStatus status, WGPUErrorType type, WGPUStringView message, void* userdata1, void* userdata2);
typedef void (*WGPUQueueWorkDoneCallback)(WGPUQueueWorkDoneStatus status, WGPUStringView message, void* userdata1, void* userdata2);
typedef void (*WGPUBufferMapCallback)(WGPUMapAsyncStatus status, WGPUStringView message, void* userdata1, void* userdata2);
typedef void (*WGPUCompilationInfoCallback)(WGPUCompilationInfoRequestStatus status, struct WGPUCompilationInfo const * compilationInfo, void* userdata1, void* userdata2);
typedef void (*WGPULoggingCallback)(WGPULoggingType type, WGPUStringView message, void* userdata1, void* userdata2);
typedef void (*WGPUCreateRenderPipelineAsyncCallback)(WGPUCreatePipelineAsyncStatus status, WGPURenderPipeline pipeline, WGPUStringView message, void* userdata1, void* userdata2);
typedef void (*WGPUCreateComputePipelineAsyncCallback)(WGPUCreatePipelineAsyncStatus status, WGPUComputePipeline pipeline, WGPUStringView message, void* userdata1, void* userdata2);

typedef struct WGPUChainedStruct {
  struct WGPUChainedStruct * next;
  WGPUSType sType;
} WGPUChainedStruct;

typedef struct WGPUFuture {
  uint64_t id;
} WGPUFuture;

typedef struct WGPUFutureWaitInfo {
  WGPUFuture future;
  WGPUBool completed;
} WGPUFutureWaitInfo;

typedef struct WGPUExtent3D {
  uint32_t width;
  uint32_t height;
  uint32_t depthOrArrayLayers;
} WGPUExtent3D;

typedef struct WGPUOrigin3D {
  uint32_t x;
  uint32_t y;
  uint32_t z;
} WGPUOrigin3D;

typedef struct WGPUColor {
  double r;
  double g;
  double b;
  double a;
} WGPUColor;

typedef struct WGPURequestAdapterCallbackInfo {
  WGPUChainedStruct * nextInChain;
  WGPUCallbackMode mode;
  WGPURequestAdapterCallback callback;
  void * userdata1;
  void * userdata2;
} WGPURequestAdapterCallbackInfo;

typedef struct WGPURequestDeviceCallbackInfo {
  WGPUChainedStruct * nextInChain;
  WGPUCallbackMode mode;
  WGPURequestDeviceCallback callback;
  void * userdata1;
  void * userdata2;
} WGPURequestDeviceCallbackInfo;

typedef struct WGPUDeviceLostCallbackInfo {
  WGPUChainedStruct * nextInChain;
  WGPUCallbackMode mode;
  WGPUDeviceLostCallback callback;
  void * userdata1;
  void * userdata2;
} WGPUDeviceLostCallbackInfo;

typedef struct WGPUPopErrorScopeCallbackInfo {
  WGPUChainedStruct * nextInChain;
  WGPUCallbackMode mode;
  WGPUPopErrorScopeCallback callback;
  void * userdata1;
  void * userdata2;
} WGPUPopErrorScopeCallbackInfo;

typedef struct WGPUQueueWorkDoneCallbackInfo {
  WGPUChainedStruct * nextInChain;
  WGPUCallbackMode mode;
  WGPUQueueWorkDoneCallback callback;
  void * userdata1;
  void * userdata2;
} WGPUQueueWorkDoneCallbackInfo;

typedef struct WGPUBufferMapCallbackInfo {
  WGPUChainedStruct * nextInChain;
  WGPUCallbackMode mode;
  WGPUBufferMapCallback callback;
  void * userdata1;
  void * userdata2;
} WGPUBufferMapCallbackInfo;

typedef struct WGPUCompilationInfoCallbackInfo {
  WGPUChainedStruct * nextInChain;
  WGPUCallbackMode mode;
  WGPUCompilationInfoCallback callback;
  void * userdata1;
  void * userdata2;
} WGPUCompilationInfoCallbackInfo;

typedef struct WGPUCreateRenderPipelineAsyncCallbackInfo {
  WGPUChainedStruct * nextInChain;
  WGPUCallbackMode mode;
  WGPUCreateRenderPipelineAsyncCallback callback;
  void * userdata1;
  void * userdata2;
} WGPUCreateRenderPipelineAsyncCallbackInfo;

typedef struct WGPUCreateComputePipelineAsyncCallbackInfo {
  WGPUChainedStruct * nextInChain;
  WGPUCallbackMode mode;
  WGPUCreateComputePipelineAsyncCallback callback;
  void * userdata1;
  void * userdata2;
} WGPUCreateComputePipelineAsyncCallbackInfo;

typedef struct WGPUUncapturedErrorCallbackInfo {
  WGPUChainedStruct * nextInChain;
  WGPUUncapturedErrorCallback callback;
  void * userdata1;
  void * userdata2;
} WGPUUncapturedErrorCallbackInfo;

typedef struct WGPUInstanceCapabilities {
  WGPUChainedStruct * nextInChain;
  WGPUBool timedWaitAnyEnable;
  size_t timedWaitAnyMaxCount;
} WGPUInstanceCapabilities;

typedef struct WGPUInstanceDescriptor {
  WGPUChainedStruct * nextInChain;
  WGPUInstanceCapabilities capabilities;
} WGPUInstanceDescriptor;

typedef struct WGPULoggingCallbackInfo {
  WGPUChainedStruct * nextInChain;
  WGPULoggingCallback callback;
  void * userdata1;
  void * userdata2;
} WGPULoggingCallbackInfo;

typedef struct WGPUDawnCacheDeviceDescriptor {
  WGPUChainedStruct chain;
  WGPUStringView isolationKey;
  WGPUDawnLoadCacheDataFunction loadDataFunction;
  WGPUDawnStoreCacheDataFunction storeDataFunction;
  void * functionUserdata;
} WGPUDawnCacheDeviceDescriptor;

typedef struct WGPURequestAdapterOptions {
  WGPUChainedStruct * nextInChain;
  WGPUFeatureLevel featureLevel;
  WGPUPowerPreference powerPreference;
  WGPUBool forceFallbackAdapter;
  WGPUBackendType backendType;
  void * compatibleSurface;
} WGPURequestAdapterOptions;

typedef struct WGPUAdapterInfo {
  WGPUChainedStruct * nextInChain;
  WGPUStringView vendor;
  WGPUStringView architecture;
  WGPUStringView device;
  WGPUStringView description;
  WGPUBackendType backendType;
  WGPUAdapterType adapterType;
  uint32_t vendorID;
  uint32_t deviceID;
  uint32_t subgroupMinSize;
  uint32_t subgroupMaxSize;
} WGPUAdapterInfo;

typedef struct WGPULimits {
  WGPUChainedStruct * nextInChain;
  uint32_t maxTextureDimension1D;
  uint32_t maxTextureDimension2D;
  uint32_t maxTextureDimension3D;
  uint32_t maxTextureArrayLayers;
  uint32_t maxBindGroups;
  uint32_t maxBindGroupsPlusVertexBuffers;
  uint32_t maxBindingsPerBindGroup;
  uint32_t maxDynamicUniformBuffersPerPipelineLayout;
  uint32_t maxDynamicStorageBuffersPerPipelineLayout;
  uint32_t maxSampledTexturesPerShaderStage;
  uint32_t maxSamplersPerShaderStage;
  uint32_t maxStorageBuffersPerShaderStage;
  uint32_t maxStorageTexturesPerShaderStage;
  uint32_t maxUniformBuffersPerShaderStage;
  uint64_t maxUniformBufferBindingSize;
  uint64_t maxStorageBufferBindingSize;
  uint32_t minUniformBufferOffsetAlignment;
  uint32_t minStorageBufferOffsetAlignment;
  uint32_t maxVertexBuffers;
  uint64_t maxBufferSize;
  uint32_t maxVertexAttributes;
  uint32_t maxVertexBufferArrayStride;
  uint32_t maxInterStageShaderVariables;
  uint32_t maxColorAttachments;
  uint32_t maxColorAttachmentBytesPerSample;
  uint32_t maxComputeWorkgroupStorageSize;
  uint32_t maxComputeInvocationsPerWorkgroup;
  uint32_t maxComputeWorkgroupSizeX;
  uint32_t maxComputeWorkgroupSizeY;
  uint32_t maxComputeWorkgroupSizeZ;
  uint32_t maxComputeWorkgroupsPerDimension;
  uint32_t maxImmediateSize;
} WGPULimits;

typedef struct WGPUSupportedFeatures {
  size_t featureCount;
  WGPUFeatureName const * features;
} WGPUSupportedFeatures;

typedef struct WGPUQueueDescriptor {
  WGPUChainedStruct * nextInChain;
  WGPUStringView label;
} WGPUQueueDescriptor;

typedef struct WGPUDeviceDescriptor {
  WGPUChainedStruct * nextInChain;
  WGPUStringView label;
  size_t requiredFeatureCount;
  WGPUFeatureName const * requiredFeatures;
  WGPULimits const * requiredLimits;
  WGPUQueueDescriptor defaultQueue;
  WGPUDeviceLostCallbackInfo deviceLostCallbackInfo;
  WGPUUncapturedErrorCallbackInfo uncapturedErrorCallbackInfo;
} WGPUDeviceDescriptor;

typedef struct WGPUBufferDescriptor {
  WGPUChainedStruct * nextInChain;
  WGPUStringView label;
  WGPUBufferUsage usage;
  uint64_t size;
  WGPUBool mappedAtCreation;
} WGPUBufferDescriptor;

typedef struct WGPUTextureDescriptor {
  WGPUChainedStruct * nextInChain;
  WGPUStringView label;
  WGPUTextureUsage usage;
  WGPUTextureDimension dimension;
  WGPUExtent3D size;
  WGPUTextureFormat format;
  uint32_t mipLevelCount;
  uint32_t sampleCount;
  size_t viewFormatCount;
  WGPUTextureFormat const * viewFormats;
} WGPUTextureDescriptor;

typedef struct WGPUTextureBindingViewDimensionDescriptor {
  WGPUChainedStruct chain;
  WGPUTextureViewDimension textureBindingViewDimension;
} WGPUTextureBindingViewDimensionDescriptor;

typedef struct WGPUTextureViewDescriptor {
  WGPUChainedStruct * nextInChain;
  WGPUStringView label;
  WGPUTextureFormat format;
  WGPUTextureViewDimension dimension;
  uint32_t baseMipLevel;
  uint32_t mipLevelCount;
  uint32_t baseArrayLayer;
  uint32_t arrayLayerCount;
  WGPUTextureAspect aspect;
  WGPUTextureUsage usage;
} WGPUTextureViewDescriptor;

typedef struct WGPUSamplerDescriptor {
  WGPUChainedStruct * nextInChain;
  WGPUStringView label;
  WGPUAddressMode addressModeU;
  WGPUAddressMode addressModeV;
  WGPUAddressMode addressModeW;
  WGPUFilterMode magFilter;
  WGPUFilterMode minFilter;
  WGPUMipmapFilterMode mipmapFilter;
  float lodMinClamp;
  float lodMaxClamp;
  WGPUCompareFunction compare;
  uint16_t maxAnisotropy;
} WGPUSamplerDescriptor;

typedef struct WGPUQuerySetDescriptor {
  WGPUChainedStruct * nextInChain;
  WGPUStringView label;
  WGPUQueryType type;
  uint32_t count;
} WGPUQuerySetDescriptor;

typedef struct WGPUShaderSourceWGSL {
  WGPUChainedStruct chain;
  WGPUStringView code;
} WGPUShaderSourceWGSL;

typedef struct WGPUShaderModuleDescriptor {
  WGPUChainedStruct * nextInChain;
  WGPUStringView label;
} WGPUShaderModuleDescriptor;

typedef struct WGPUCompilationMessage {
  WGPUChainedStruct * nextInChain;
  WGPUStringView message;
  WGPUCompilationMessageType type;
  uint64_t lineNum;
  uint64_t linePos;
  uint64_t offset;
  uint64_t length;
} WGPUCompilationMessage;

typedef struct WGPUCompilationInfo {
  WGPUChainedStruct * nextInChain;
  size_t messageCount;
  WGPUCompilationMessage const * messages;
} WGPUCompilationInfo;

typedef struct WGPUBufferBindingLayout {
  WGPUChainedStruct * nextInChain;
  WGPUBufferBindingType type;
  WGPUBool hasDynamicOffset;
  uint64_t minBindingSize;
} WGPUBufferBindingLayout;

typedef struct WGPUSamplerBindingLayout {
  WGPUChainedStruct * nextInChain;
  WGPUSamplerBindingType type;
} WGPUSamplerBindingLayout;

typedef struct WGPUTextureBindingLayout {
  WGPUChainedStruct * nextInChain;
  WGPUTextureSampleType sampleType;
  WGPUTextureViewDimension viewDimension;
  WGPUBool multisampled;
} WGPUTextureBindingLayout;

typedef struct WGPUStorageTextureBindingLayout {
  WGPUChainedStruct * nextInChain;
  WGPUStorageTextureAccess access;
  WGPUTextureFormat format;
  WGPUTextureViewDimension viewDimension;
} WGPUStorageTextureBindingLayout;

typedef struct WGPUBindGroupLayoutEntry {
  WGPUChainedStruct * nextInChain;
  uint32_t binding;
  WGPUShaderStage visibility;
  uint32_t bindingArraySize;
  WGPUBufferBindingLayout buffer;
  WGPUSamplerBindingLayout sampler;
  WGPUTextureBindingLayout texture;
  WGPUStorageTextureBindingLayout storageTexture;
} WGPUBindGroupLayoutEntry;

typedef struct WGPUBindGroupLayoutDescriptor {
  WGPUChainedStruct * nextInChain;
  WGPUStringView label;
  size_t entryCount;
  WGPUBindGroupLayoutEntry const * entries;
} WGPUBindGroupLayoutDescriptor;

typedef struct WGPUBindGroupEntry {
  WGPUChainedStruct * nextInChain;
  uint32_t binding;
  WGPUBuffer buffer;
  uint64_t offset;
  uint64_t size;
  WGPUSampler sampler;
  WGPUTextureView textureView;
} WGPUBindGroupEntry;

typedef struct WGPUBindGroupDescriptor {
  WGPUChainedStruct * nextInChain;
  WGPUStringView label;
  WGPUBindGroupLayout layout;
  size_t entryCount;
  WGPUBindGroupEntry const * entries;
} WGPUBindGroupDescriptor;

typedef struct WGPUPipelineLayoutDescriptor {
  WGPUChainedStruct * nextInChain;
  WGPUStringView label;
  size_t bindGroupLayoutCount;
  WGPUBindGroupLayout const * bindGroupLayouts;
  uint32_t immediateSize;
} WGPUPipelineLayoutDescriptor;

typedef struct WGPUConstantEntry {
  WGPUChainedStruct * nextInChain;
  WGPUStringView key;
  double value;
} WGPUConstantEntry;

typedef struct WGPUVertexAttribute {
  WGPUChainedStruct * nextInChain;
  WGPUVertexFormat format;
  uint64_t offset;
  uint32_t shaderLocation;
} WGPUVertexAttribute;

typedef struct WGPUVertexBufferLayout {
  WGPUChainedStruct * nextInChain;
  WGPUVertexStepMode stepMode;
  uint64_t arrayStride;
  size_t attributeCount;
  WGPUVertexAttribute const * attributes;
} WGPUVertexBufferLayout;

typedef struct WGPUVertexState {
  WGPUChainedStruct * nextInChain;
  WGPUShaderModule module;
  WGPUStringView entryPoint;
  size_t constantCount;
  WGPUConstantEntry const * constants;
  size_t bufferCount;
  WGPUVertexBufferLayout const * buffers;
} WGPUVertexState;

typedef struct WGPUPrimitiveState {
  WGPUChainedStruct * nextInChain;
  WGPUPrimitiveTopology topology;
  WGPUIndexFormat stripIndexFormat;
  WGPUFrontFace frontFace;
  WGPUCullMode cullMode;
  WGPUBool unclippedDepth;
} WGPUPrimitiveState;

typedef struct WGPUStencilFaceState {
  WGPUCompareFunction compare;
  WGPUStencilOperation failOp;
  WGPUStencilOperation depthFailOp;
  WGPUStencilOperation passOp;
} WGPUStencilFaceState;

typedef struct WGPUDepthStencilState {
  WGPUChainedStruct * nextInChain;
  WGPUTextureFormat format;
  WGPUOptionalBool depthWriteEnabled;
  WGPUCompareFunction depthCompare;
  WGPUStencilFaceState stencilFront;
  WGPUStencilFaceState stencilBack;
  uint32_t stencilReadMask;
  uint32_t stencilWriteMask;
  int32_t depthBias;
  float depthBiasSlopeScale;
  float depthBiasClamp;
} WGPUDepthStencilState;

typedef struct WGPUMultisampleState {
  WGPUChainedStruct * nextInChain;
  uint32_t count;
  uint32_t mask;
  WGPUBool alphaToCoverageEnabled;
} WGPUMultisampleState;

typedef struct WGPUBlendComponent {
  WGPUBlendOperation operation;
  WGPUBlendFactor srcFactor;
  WGPUBlendFactor dstFactor;
} WGPUBlendComponent;

typedef struct WGPUBlendState {
  WGPUBlendComponent color;
  WGPUBlendComponent alpha;
} WGPUBlendState;

typedef struct WGPUColorTargetState {
  WGPUChainedStruct * nextInChain;
  WGPUTextureFormat format;
  WGPUBlendState const * blend;
  WGPUColorWriteMask writeMask;
} WGPUColorTargetState;

typedef struct WGPUFragmentState {
  WGPUChainedStruct * nextInChain;
  WGPUShaderModule module;
  WGPUStringView entryPoint;
  size_t constantCount;
  WGPUConstantEntry const * constants;
  size_t targetCount;
  WGPUColorTargetState const * targets;
} WGPUFragmentState;

typedef struct WGPURenderPipelineDescriptor {
  WGPUChainedStruct * nextInChain;
  WGPUStringView label;
  WGPUPipelineLayout layout;
  WGPUVertexState vertex;
  WGPUPrimitiveState primitive;
  WGPUDepthStencilState const * depthStencil;
  WGPUMultisampleState multisample;
  WGPUFragmentState const * fragment;
} WGPURenderPipelineDescriptor;

typedef struct WGPUComputeState {
  WGPUChainedStruct * nextInChain;
  WGPUShaderModule module;
  WGPUStringView entryPoint;
  size_t constantCount;
  WGPUConstantEntry const * constants;
} WGPUComputeState;

typedef struct WGPUComputePipelineDescriptor {
  WGPUChainedStruct * nextInChain;
  WGPUStringView label;
  WGPUPipelineLayout layout;
  WGPUComputeState compute;
} WGPUComputePipelineDescriptor;

typedef struct WGPUCommandEncoderDescriptor {
  WGPUChainedStruct * nextInChain;
  WGPUStringView label;
} WGPUCommandEncoderDescriptor;

typedef struct WGPUCommandBufferDescriptor {
  WGPUChainedStruct * nextInChain;
  WGPUStringView label;
} WGPUCommandBufferDescriptor;

typedef struct WGPURenderPassColorAttachment {
  WGPUChainedStruct * nextInChain;
  WGPUTextureView view;
  uint32_t depthSlice;
  WGPUTextureView resolveTarget;
  WGPULoadOp loadOp;
  WGPUStoreOp storeOp;
  WGPUColor clearValue;
} WGPURenderPassColorAttachment;

typedef struct WGPURenderPassDepthStencilAttachment {
  WGPUChainedStruct * nextInChain;
  WGPUTextureView view;
  WGPULoadOp depthLoadOp;
  WGPUStoreOp depthStoreOp;
  float depthClearValue;
  WGPUBool depthReadOnly;
  WGPULoadOp stencilLoadOp;
  WGPUStoreOp stencilStoreOp;
  uint32_t stencilClearValue;
  WGPUBool stencilReadOnly;
} WGPURenderPassDepthStencilAttachment;

typedef struct WGPUPassTimestampWrites {
  WGPUChainedStruct * nextInChain;
  WGPUQuerySet querySet;
  uint32_t beginningOfPassWriteIndex;
  uint32_t endOfPassWriteIndex;
} WGPUPassTimestampWrites;

typedef struct WGPURenderPassDescriptor {
  WGPUChainedStruct * nextInChain;
  WGPUStringView label;
  size_t colorAttachmentCount;
  WGPURenderPassColorAttachment const * colorAttachments;
  WGPURenderPassDepthStencilAttachment const * depthStencilAttachment;
  WGPUQuerySet occlusionQuerySet;
  WGPUPassTimestampWrites const * timestampWrites;
} WGPURenderPassDescriptor;

typedef struct WGPUComputePassDescriptor {
  WGPUChainedStruct * nextInChain;
  WGPUStringView label;
  WGPUPassTimestampWrites const * timestampWrites;
} WGPUComputePassDescriptor;

typedef struct WGPUTexelCopyBufferLayout {
  uint64_t offset;
  uint32_t bytesPerRow;
  uint32_t rowsPerImage;
} WGPUTexelCopyBufferLayout;

typedef struct WGPUTexelCopyBufferInfo {
  WGPUTexelCopyBufferLayout layout;
  WGPUBuffer buffer;
} WGPUTexelCopyBufferInfo;

typedef struct WGPUTexelCopyTextureInfo {
  WGPUTexture texture;
  uint32_t mipLevel;
  WGPUOrigin3D origin;
  WGPUTextureAspect aspect;
} WGPUTexelCopyTextureInfo;

typedef struct WGPUSurfaceSourceXlibWindow {
  WGPUChainedStruct chain;
  void * display;
  uint64_t window;
} WGPUSurfaceSourceXlibWindow;

typedef struct WGPUSurfaceDescriptor {
  WGPUChainedStruct * nextInChain;
  WGPUStringView label;
} WGPUSurfaceDescriptor;

typedef struct WGPUSurfaceCapabilities {
  WGPUChainedStruct * nextInChain;
  WGPUTextureUsage usages;
  size_t formatCount;
  WGPUTextureFormat const * formats;
  size_t presentModeCount;
  WGPUPresentMode const * presentModes;
  size_t alphaModeCount;
  WGPUCompositeAlphaMode const * alphaModes;
} WGPUSurfaceCapabilities;

typedef struct WGPUSurfaceConfiguration {
  WGPUChainedStruct * nextInChain;
  WGPUDevice device;
  WGPUTextureFormat format;
  WGPUTextureUsage usage;
  uint32_t width;
  uint32_t height;
  size_t viewFormatCount;
  WGPUTextureFormat const * viewFormats;
  WGPUCompositeAlphaMode alphaMode;
  WGPUPresentMode presentMode;
} WGPUSurfaceConfiguration;

typedef struct WGPUSurfaceTexture {
  WGPUChainedStruct * nextInChain;
  WGPUTexture texture;
  WGPUSurfaceGetCurrentTextureStatus status;
} WGPUSurfaceTexture;


/* The entry points warden calls, as webgpu.h types them. */
typedef WGPUInstance (*WGPUProcCreateInstance)(WGPUInstanceDescriptor const *);
typedef WGPUStatus (*WGPUProcGetInstanceCapabilities)(WGPUInstanceCapabilities*);
typedef WGPUFuture (*WGPUProcInstanceRequestAdapter)(WGPUInstance, WGPURequestAdapterOptions const *, WGPURequestAdapterCallbackInfo);
typedef void (*WGPUProcInstanceProcessEvents)(WGPUInstance);
typedef WGPUWaitStatus (*WGPUProcInstanceWaitAny)(WGPUInstance, size_t, WGPUFutureWaitInfo*, uint64_t);
typedef void (*WGPUProcInstanceRelease)(WGPUInstance);
typedef WGPUStatus (*WGPUProcAdapterGetInfo)(WGPUAdapter, WGPUAdapterInfo*);
typedef void (*WGPUProcAdapterInfoFreeMembers)(WGPUAdapterInfo);
typedef WGPUStatus (*WGPUProcAdapterGetLimits)(WGPUAdapter, WGPULimits*);
typedef void (*WGPUProcAdapterGetFeatures)(WGPUAdapter, WGPUSupportedFeatures*);
typedef WGPUBool (*WGPUProcAdapterHasFeature)(WGPUAdapter, WGPUFeatureName);
typedef void (*WGPUProcSupportedFeaturesFreeMembers)(WGPUSupportedFeatures);
typedef WGPUFuture (*WGPUProcAdapterRequestDevice)(WGPUAdapter, WGPUDeviceDescriptor const *, WGPURequestDeviceCallbackInfo);
typedef void (*WGPUProcAdapterRelease)(WGPUAdapter);
typedef WGPUBuffer (*WGPUProcDeviceCreateBuffer)(WGPUDevice, WGPUBufferDescriptor const *);
typedef WGPUTexture (*WGPUProcDeviceCreateTexture)(WGPUDevice, WGPUTextureDescriptor const *);
typedef WGPUSampler (*WGPUProcDeviceCreateSampler)(WGPUDevice, WGPUSamplerDescriptor const *);
typedef WGPUShaderModule (*WGPUProcDeviceCreateShaderModule)(WGPUDevice, WGPUShaderModuleDescriptor const *);
typedef WGPUBindGroupLayout (*WGPUProcDeviceCreateBindGroupLayout)(WGPUDevice, WGPUBindGroupLayoutDescriptor const *);
typedef WGPUPipelineLayout (*WGPUProcDeviceCreatePipelineLayout)(WGPUDevice, WGPUPipelineLayoutDescriptor const *);
typedef WGPUBindGroup (*WGPUProcDeviceCreateBindGroup)(WGPUDevice, WGPUBindGroupDescriptor const *);
typedef WGPURenderPipeline (*WGPUProcDeviceCreateRenderPipeline)(WGPUDevice, WGPURenderPipelineDescriptor const *);
typedef WGPUComputePipeline (*WGPUProcDeviceCreateComputePipeline)(WGPUDevice, WGPUComputePipelineDescriptor const *);
typedef WGPUQuerySet (*WGPUProcDeviceCreateQuerySet)(WGPUDevice, WGPUQuerySetDescriptor const *);
typedef WGPUCommandEncoder (*WGPUProcDeviceCreateCommandEncoder)(WGPUDevice, WGPUCommandEncoderDescriptor const *);
typedef WGPUQueue (*WGPUProcDeviceGetQueue)(WGPUDevice);
typedef WGPUStatus (*WGPUProcDeviceGetLimits)(WGPUDevice, WGPULimits*);
typedef WGPUStatus (*WGPUProcDeviceGetAdapterInfo)(WGPUDevice, WGPUAdapterInfo*);
typedef WGPUBool (*WGPUProcDeviceHasFeature)(WGPUDevice, WGPUFeatureName);
typedef void (*WGPUProcDevicePushErrorScope)(WGPUDevice, WGPUErrorFilter);
typedef WGPUFuture (*WGPUProcDevicePopErrorScope)(WGPUDevice, WGPUPopErrorScopeCallbackInfo);
typedef WGPUFuture (*WGPUProcDeviceGetLostFuture)(WGPUDevice);
typedef void (*WGPUProcDeviceForceLoss)(WGPUDevice, WGPUDeviceLostReason, WGPUStringView);
typedef void (*WGPUProcDeviceTick)(WGPUDevice);
typedef void (*WGPUProcDeviceDestroy)(WGPUDevice);
typedef void (*WGPUProcDeviceAddRef)(WGPUDevice);
typedef void (*WGPUProcDeviceRelease)(WGPUDevice);
typedef void (*WGPUProcQueueSubmit)(WGPUQueue, size_t, WGPUCommandBuffer const *);
typedef void (*WGPUProcQueueWriteBuffer)(WGPUQueue, WGPUBuffer, uint64_t, void const *, size_t);
typedef void (*WGPUProcQueueWriteTexture)(WGPUQueue, WGPUTexelCopyTextureInfo const *, void const *, size_t, WGPUTexelCopyBufferLayout const *, WGPUExtent3D const *);
typedef WGPUFuture (*WGPUProcQueueOnSubmittedWorkDone)(WGPUQueue, WGPUQueueWorkDoneCallbackInfo);
typedef void (*WGPUProcQueueRelease)(WGPUQueue);
typedef WGPUFuture (*WGPUProcBufferMapAsync)(WGPUBuffer, WGPUMapMode, size_t, size_t, WGPUBufferMapCallbackInfo);
typedef void* (*WGPUProcBufferGetMappedRange)(WGPUBuffer, size_t, size_t);
typedef void const * (*WGPUProcBufferGetConstMappedRange)(WGPUBuffer, size_t, size_t);
typedef void (*WGPUProcBufferUnmap)(WGPUBuffer);
typedef uint64_t (*WGPUProcBufferGetSize)(WGPUBuffer);
typedef WGPUBufferUsage (*WGPUProcBufferGetUsage)(WGPUBuffer);
typedef WGPUBufferMapState (*WGPUProcBufferGetMapState)(WGPUBuffer);
typedef void (*WGPUProcBufferDestroy)(WGPUBuffer);
typedef void (*WGPUProcBufferAddRef)(WGPUBuffer);
typedef void (*WGPUProcBufferRelease)(WGPUBuffer);
typedef WGPUTextureView (*WGPUProcTextureCreateView)(WGPUTexture, WGPUTextureViewDescriptor const *);
typedef WGPUTextureFormat (*WGPUProcTextureGetFormat)(WGPUTexture);
typedef uint32_t (*WGPUProcTextureGetWidth)(WGPUTexture);
typedef uint32_t (*WGPUProcTextureGetHeight)(WGPUTexture);
typedef uint32_t (*WGPUProcTextureGetDepthOrArrayLayers)(WGPUTexture);
typedef uint32_t (*WGPUProcTextureGetMipLevelCount)(WGPUTexture);
typedef uint32_t (*WGPUProcTextureGetSampleCount)(WGPUTexture);
typedef WGPUTextureDimension (*WGPUProcTextureGetDimension)(WGPUTexture);
typedef WGPUTextureUsage (*WGPUProcTextureGetUsage)(WGPUTexture);
typedef void (*WGPUProcTextureDestroy)(WGPUTexture);
typedef void (*WGPUProcTextureAddRef)(WGPUTexture);
typedef void (*WGPUProcTextureRelease)(WGPUTexture);
typedef void (*WGPUProcTextureViewAddRef)(WGPUTextureView);
typedef void (*WGPUProcTextureViewRelease)(WGPUTextureView);
typedef void (*WGPUProcSamplerAddRef)(WGPUSampler);
typedef void (*WGPUProcSamplerRelease)(WGPUSampler);
typedef WGPUFuture (*WGPUProcShaderModuleGetCompilationInfo)(WGPUShaderModule, WGPUCompilationInfoCallbackInfo);
typedef void (*WGPUProcShaderModuleAddRef)(WGPUShaderModule);
typedef void (*WGPUProcShaderModuleRelease)(WGPUShaderModule);
typedef void (*WGPUProcBindGroupLayoutAddRef)(WGPUBindGroupLayout);
typedef void (*WGPUProcBindGroupLayoutRelease)(WGPUBindGroupLayout);
typedef void (*WGPUProcPipelineLayoutAddRef)(WGPUPipelineLayout);
typedef void (*WGPUProcPipelineLayoutRelease)(WGPUPipelineLayout);
typedef void (*WGPUProcBindGroupAddRef)(WGPUBindGroup);
typedef void (*WGPUProcBindGroupRelease)(WGPUBindGroup);
typedef WGPUBindGroupLayout (*WGPUProcRenderPipelineGetBindGroupLayout)(WGPURenderPipeline, uint32_t);
typedef void (*WGPUProcRenderPipelineAddRef)(WGPURenderPipeline);
typedef void (*WGPUProcRenderPipelineRelease)(WGPURenderPipeline);
typedef WGPUBindGroupLayout (*WGPUProcComputePipelineGetBindGroupLayout)(WGPUComputePipeline, uint32_t);
typedef void (*WGPUProcComputePipelineAddRef)(WGPUComputePipeline);
typedef void (*WGPUProcComputePipelineRelease)(WGPUComputePipeline);
typedef WGPUQueryType (*WGPUProcQuerySetGetType)(WGPUQuerySet);
typedef uint32_t (*WGPUProcQuerySetGetCount)(WGPUQuerySet);
typedef void (*WGPUProcQuerySetDestroy)(WGPUQuerySet);
typedef void (*WGPUProcQuerySetAddRef)(WGPUQuerySet);
typedef void (*WGPUProcQuerySetRelease)(WGPUQuerySet);
typedef WGPURenderPassEncoder (*WGPUProcCommandEncoderBeginRenderPass)(WGPUCommandEncoder, WGPURenderPassDescriptor const *);
typedef WGPUComputePassEncoder (*WGPUProcCommandEncoderBeginComputePass)(WGPUCommandEncoder, WGPUComputePassDescriptor const *);
typedef void (*WGPUProcCommandEncoderCopyBufferToBuffer)(WGPUCommandEncoder, WGPUBuffer, uint64_t, WGPUBuffer, uint64_t, uint64_t);
typedef void (*WGPUProcCommandEncoderCopyBufferToTexture)(WGPUCommandEncoder, WGPUTexelCopyBufferInfo const *, WGPUTexelCopyTextureInfo const *, WGPUExtent3D const *);
typedef void (*WGPUProcCommandEncoderCopyTextureToBuffer)(WGPUCommandEncoder, WGPUTexelCopyTextureInfo const *, WGPUTexelCopyBufferInfo const *, WGPUExtent3D const *);
typedef void (*WGPUProcCommandEncoderCopyTextureToTexture)(WGPUCommandEncoder, WGPUTexelCopyTextureInfo const *, WGPUTexelCopyTextureInfo const *, WGPUExtent3D const *);
typedef void (*WGPUProcCommandEncoderClearBuffer)(WGPUCommandEncoder, WGPUBuffer, uint64_t, uint64_t);
typedef WGPUCommandBuffer (*WGPUProcCommandEncoderFinish)(WGPUCommandEncoder, WGPUCommandBufferDescriptor const *);
typedef void (*WGPUProcCommandEncoderRelease)(WGPUCommandEncoder);
typedef void (*WGPUProcCommandBufferRelease)(WGPUCommandBuffer);
typedef void (*WGPUProcRenderPassEncoderSetPipeline)(WGPURenderPassEncoder, WGPURenderPipeline);
typedef void (*WGPUProcRenderPassEncoderSetBindGroup)(WGPURenderPassEncoder, uint32_t, WGPUBindGroup, size_t, uint32_t const *);
typedef void (*WGPUProcRenderPassEncoderSetVertexBuffer)(WGPURenderPassEncoder, uint32_t, WGPUBuffer, uint64_t, uint64_t);
typedef void (*WGPUProcRenderPassEncoderSetIndexBuffer)(WGPURenderPassEncoder, WGPUBuffer, WGPUIndexFormat, uint64_t, uint64_t);
typedef void (*WGPUProcRenderPassEncoderSetViewport)(WGPURenderPassEncoder, float, float, float, float, float, float);
typedef void (*WGPUProcRenderPassEncoderSetScissorRect)(WGPURenderPassEncoder, uint32_t, uint32_t, uint32_t, uint32_t);
typedef void (*WGPUProcRenderPassEncoderDraw)(WGPURenderPassEncoder, uint32_t, uint32_t, uint32_t, uint32_t);
typedef void (*WGPUProcRenderPassEncoderDrawIndexed)(WGPURenderPassEncoder, uint32_t, uint32_t, uint32_t, int32_t, uint32_t);
typedef void (*WGPUProcRenderPassEncoderEnd)(WGPURenderPassEncoder);
typedef void (*WGPUProcRenderPassEncoderRelease)(WGPURenderPassEncoder);
typedef void (*WGPUProcComputePassEncoderSetPipeline)(WGPUComputePassEncoder, WGPUComputePipeline);
typedef void (*WGPUProcComputePassEncoderSetBindGroup)(WGPUComputePassEncoder, uint32_t, WGPUBindGroup, size_t, uint32_t const *);
typedef void (*WGPUProcComputePassEncoderDispatchWorkgroups)(WGPUComputePassEncoder, uint32_t, uint32_t, uint32_t);
typedef void (*WGPUProcComputePassEncoderEnd)(WGPUComputePassEncoder);
typedef void (*WGPUProcComputePassEncoderRelease)(WGPUComputePassEncoder);
typedef void (*WGPUProcRenderBundleAddRef)(WGPURenderBundle);
typedef void (*WGPUProcRenderBundleRelease)(WGPURenderBundle);
typedef void (*WGPUProcRenderBundleEncoderAddRef)(WGPURenderBundleEncoder);
typedef void (*WGPUProcRenderBundleEncoderRelease)(WGPURenderBundleEncoder);
typedef WGPUSurface (*WGPUProcInstanceCreateSurface)(WGPUInstance, WGPUSurfaceDescriptor const *);
typedef WGPUAdapter (*WGPUProcDeviceGetAdapter)(WGPUDevice);
typedef WGPUStatus (*WGPUProcSurfaceGetCapabilities)(WGPUSurface, WGPUAdapter, WGPUSurfaceCapabilities*);
typedef void (*WGPUProcSurfaceCapabilitiesFreeMembers)(WGPUSurfaceCapabilities);
typedef void (*WGPUProcSurfaceConfigure)(WGPUSurface, WGPUSurfaceConfiguration const *);
typedef void (*WGPUProcSurfaceGetCurrentTexture)(WGPUSurface, WGPUSurfaceTexture*);
typedef void (*WGPUProcSurfacePresent)(WGPUSurface);
typedef void (*WGPUProcSurfaceUnconfigure)(WGPUSurface);
typedef void (*WGPUProcSurfaceAddRef)(WGPUSurface);
typedef void (*WGPUProcSurfaceRelease)(WGPUSurface);
typedef WGPUFuture (*WGPUProcDeviceCreateRenderPipelineAsync)(WGPUDevice, WGPURenderPipelineDescriptor const *, WGPUCreateRenderPipelineAsyncCallbackInfo);
typedef WGPUFuture (*WGPUProcDeviceCreateComputePipelineAsync)(WGPUDevice, WGPUComputePipelineDescriptor const *, WGPUCreateComputePipelineAsyncCallbackInfo);

#if !defined(WGPU_SKIP_DECLARATIONS)
WGPUInstance wgpuCreateInstance(WGPUInstanceDescriptor const *);
WGPUStatus wgpuGetInstanceCapabilities(WGPUInstanceCapabilities*);
WGPUFuture wgpuInstanceRequestAdapter(WGPUInstance, WGPURequestAdapterOptions const *, WGPURequestAdapterCallbackInfo);
void wgpuInstanceProcessEvents(WGPUInstance);
WGPUWaitStatus wgpuInstanceWaitAny(WGPUInstance, size_t, WGPUFutureWaitInfo*, uint64_t);
void wgpuInstanceRelease(WGPUInstance);
WGPUStatus wgpuAdapterGetInfo(WGPUAdapter, WGPUAdapterInfo*);
void wgpuAdapterInfoFreeMembers(WGPUAdapterInfo);
WGPUStatus wgpuAdapterGetLimits(WGPUAdapter, WGPULimits*);
void wgpuAdapterGetFeatures(WGPUAdapter, WGPUSupportedFeatures*);
WGPUBool wgpuAdapterHasFeature(WGPUAdapter, WGPUFeatureName);
void wgpuSupportedFeaturesFreeMembers(WGPUSupportedFeatures);
WGPUFuture wgpuAdapterRequestDevice(WGPUAdapter, WGPUDeviceDescriptor const *, WGPURequestDeviceCallbackInfo);
void wgpuAdapterRelease(WGPUAdapter);
WGPUBuffer wgpuDeviceCreateBuffer(WGPUDevice, WGPUBufferDescriptor const *);
WGPUTexture wgpuDeviceCreateTexture(WGPUDevice, WGPUTextureDescriptor const *);
WGPUSampler wgpuDeviceCreateSampler(WGPUDevice, WGPUSamplerDescriptor const *);
WGPUShaderModule wgpuDeviceCreateShaderModule(WGPUDevice, WGPUShaderModuleDescriptor const *);
WGPUBindGroupLayout wgpuDeviceCreateBindGroupLayout(WGPUDevice, WGPUBindGroupLayoutDescriptor const *);
WGPUPipelineLayout wgpuDeviceCreatePipelineLayout(WGPUDevice, WGPUPipelineLayoutDescriptor const *);
WGPUBindGroup wgpuDeviceCreateBindGroup(WGPUDevice, WGPUBindGroupDescriptor const *);
WGPURenderPipeline wgpuDeviceCreateRenderPipeline(WGPUDevice, WGPURenderPipelineDescriptor const *);
WGPUComputePipeline wgpuDeviceCreateComputePipeline(WGPUDevice, WGPUComputePipelineDescriptor const *);
WGPUQuerySet wgpuDeviceCreateQuerySet(WGPUDevice, WGPUQuerySetDescriptor const *);
WGPUCommandEncoder wgpuDeviceCreateCommandEncoder(WGPUDevice, WGPUCommandEncoderDescriptor const *);
WGPUQueue wgpuDeviceGetQueue(WGPUDevice);
WGPUStatus wgpuDeviceGetLimits(WGPUDevice, WGPULimits*);
WGPUStatus wgpuDeviceGetAdapterInfo(WGPUDevice, WGPUAdapterInfo*);
WGPUBool wgpuDeviceHasFeature(WGPUDevice, WGPUFeatureName);
void wgpuDevicePushErrorScope(WGPUDevice, WGPUErrorFilter);
WGPUFuture wgpuDevicePopErrorScope(WGPUDevice, WGPUPopErrorScopeCallbackInfo);
WGPUFuture wgpuDeviceGetLostFuture(WGPUDevice);
void wgpuDeviceForceLoss(WGPUDevice, WGPUDeviceLostReason, WGPUStringView);
void wgpuDeviceTick(WGPUDevice);
void wgpuDeviceDestroy(WGPUDevice);
void wgpuDeviceAddRef(WGPUDevice);
void wgpuDeviceRelease(WGPUDevice);
void wgpuQueueSubmit(WGPUQueue, size_t, WGPUCommandBuffer const *);
void wgpuQueueWriteBuffer(WGPUQueue, WGPUBuffer, uint64_t, void const *, size_t);
void wgpuQueueWriteTexture(WGPUQueue, WGPUTexelCopyTextureInfo const *, void const *, size_t, WGPUTexelCopyBufferLayout const *, WGPUExtent3D const *);
WGPUFuture wgpuQueueOnSubmittedWorkDone(WGPUQueue, WGPUQueueWorkDoneCallbackInfo);
void wgpuQueueRelease(WGPUQueue);
WGPUFuture wgpuBufferMapAsync(WGPUBuffer, WGPUMapMode, size_t, size_t, WGPUBufferMapCallbackInfo);
void* wgpuBufferGetMappedRange(WGPUBuffer, size_t, size_t);
void const * wgpuBufferGetConstMappedRange(WGPUBuffer, size_t, size_t);
void wgpuBufferUnmap(WGPUBuffer);
uint64_t wgpuBufferGetSize(WGPUBuffer);
WGPUBufferUsage wgpuBufferGetUsage(WGPUBuffer);
WGPUBufferMapState wgpuBufferGetMapState(WGPUBuffer);
void wgpuBufferDestroy(WGPUBuffer);
void wgpuBufferAddRef(WGPUBuffer);
void wgpuBufferRelease(WGPUBuffer);
WGPUTextureView wgpuTextureCreateView(WGPUTexture, WGPUTextureViewDescriptor const *);
WGPUTextureFormat wgpuTextureGetFormat(WGPUTexture);
uint32_t wgpuTextureGetWidth(WGPUTexture);
uint32_t wgpuTextureGetHeight(WGPUTexture);
uint32_t wgpuTextureGetDepthOrArrayLayers(WGPUTexture);
uint32_t wgpuTextureGetMipLevelCount(WGPUTexture);
uint32_t wgpuTextureGetSampleCount(WGPUTexture);
WGPUTextureDimension wgpuTextureGetDimension(WGPUTexture);
WGPUTextureUsage wgpuTextureGetUsage(WGPUTexture);
void wgpuTextureDestroy(WGPUTexture);
void wgpuTextureAddRef(WGPUTexture);
void wgpuTextureRelease(WGPUTexture);
void wgpuTextureViewAddRef(WGPUTextureView);
void wgpuTextureViewRelease(WGPUTextureView);
void wgpuSamplerAddRef(WGPUSampler);
void wgpuSamplerRelease(WGPUSampler);
WGPUFuture wgpuShaderModuleGetCompilationInfo(WGPUShaderModule, WGPUCompilationInfoCallbackInfo);
void wgpuShaderModuleAddRef(WGPUShaderModule);
void wgpuShaderModuleRelease(WGPUShaderModule);
void wgpuBindGroupLayoutAddRef(WGPUBindGroupLayout);
void wgpuBindGroupLayoutRelease(WGPUBindGroupLayout);
void wgpuPipelineLayoutAddRef(WGPUPipelineLayout);
void wgpuPipelineLayoutRelease(WGPUPipelineLayout);
void wgpuBindGroupAddRef(WGPUBindGroup);
void wgpuBindGroupRelease(WGPUBindGroup);
WGPUBindGroupLayout wgpuRenderPipelineGetBindGroupLayout(WGPURenderPipeline, uint32_t);
void wgpuRenderPipelineAddRef(WGPURenderPipeline);
void wgpuRenderPipelineRelease(WGPURenderPipeline);
WGPUBindGroupLayout wgpuComputePipelineGetBindGroupLayout(WGPUComputePipeline, uint32_t);
void wgpuComputePipelineAddRef(WGPUComputePipeline);
void wgpuComputePipelineRelease(WGPUComputePipeline);
WGPUQueryType wgpuQuerySetGetType(WGPUQuerySet);
uint32_t wgpuQuerySetGetCount(WGPUQuerySet);
void wgpuQuerySetDestroy(WGPUQuerySet);
void wgpuQuerySetAddRef(WGPUQuerySet);
void wgpuQuerySetRelease(WGPUQuerySet);
WGPURenderPassEncoder wgpuCommandEncoderBeginRenderPass(WGPUCommandEncoder, WGPURenderPassDescriptor const *);
WGPUComputePassEncoder wgpuCommandEncoderBeginComputePass(WGPUCommandEncoder, WGPUComputePassDescriptor const *);
void wgpuCommandEncoderCopyBufferToBuffer(WGPUCommandEncoder, WGPUBuffer, uint64_t, WGPUBuffer, uint64_t, uint64_t);
void wgpuCommandEncoderCopyBufferToTexture(WGPUCommandEncoder, WGPUTexelCopyBufferInfo const *, WGPUTexelCopyTextureInfo const *, WGPUExtent3D const *);
void wgpuCommandEncoderCopyTextureToBuffer(WGPUCommandEncoder, WGPUTexelCopyTextureInfo const *, WGPUTexelCopyBufferInfo const *, WGPUExtent3D const *);
void wgpuCommandEncoderCopyTextureToTexture(WGPUCommandEncoder, WGPUTexelCopyTextureInfo const *, WGPUTexelCopyTextureInfo const *, WGPUExtent3D const *);
void wgpuCommandEncoderClearBuffer(WGPUCommandEncoder, WGPUBuffer, uint64_t, uint64_t);
WGPUCommandBuffer wgpuCommandEncoderFinish(WGPUCommandEncoder, WGPUCommandBufferDescriptor const *);
void wgpuCommandEncoderRelease(WGPUCommandEncoder);
void wgpuCommandBufferRelease(WGPUCommandBuffer);
void wgpuRenderPassEncoderSetPipeline(WGPURenderPassEncoder, WGPURenderPipeline);
void wgpuRenderPassEncoderSetBindGroup(WGPURenderPassEncoder, uint32_t, WGPUBindGroup, size_t, uint32_t const *);
void wgpuRenderPassEncoderSetVertexBuffer(WGPURenderPassEncoder, uint32_t, WGPUBuffer, uint64_t, uint64_t);
void wgpuRenderPassEncoderSetIndexBuffer(WGPURenderPassEncoder, WGPUBuffer, WGPUIndexFormat, uint64_t, uint64_t);
void wgpuRenderPassEncoderSetViewport(WGPURenderPassEncoder, float, float, float, float, float, float);
void wgpuRenderPassEncoderSetScissorRect(WGPURenderPassEncoder, uint32_t, uint32_t, uint32_t, uint32_t);
void wgpuRenderPassEncoderDraw(WGPURenderPassEncoder, uint32_t, uint32_t, uint32_t, uint32_t);
void wgpuRenderPassEncoderDrawIndexed(WGPURenderPassEncoder, uint32_t, uint32_t, uint32_t, int32_t, uint32_t);
void wgpuRenderPassEncoderEnd(WGPURenderPassEncoder);
void wgpuRenderPassEncoderRelease(WGPURenderPassEncoder);
void wgpuComputePassEncoderSetPipeline(WGPUComputePassEncoder, WGPUComputePipeline);
void wgpuComputePassEncoderSetBindGroup(WGPUComputePassEncoder, uint32_t, WGPUBindGroup, size_t, uint32_t const *);
void wgpuComputePassEncoderDispatchWorkgroups(WGPUComputePassEncoder, uint32_t, uint32_t, uint32_t);
void wgpuComputePassEncoderEnd(WGPUComputePassEncoder);
void wgpuComputePassEncoderRelease(WGPUComputePassEncoder);
void wgpuRenderBundleAddRef(WGPURenderBundle);
void wgpuRenderBundleRelease(WGPURenderBundle);
void wgpuRenderBundleEncoderAddRef(WGPURenderBundleEncoder);
void wgpuRenderBundleEncoderRelease(WGPURenderBundleEncoder);
WGPUSurface wgpuInstanceCreateSurface(WGPUInstance, WGPUSurfaceDescriptor const *);
WGPUAdapter wgpuDeviceGetAdapter(WGPUDevice);
WGPUStatus wgpuSurfaceGetCapabilities(WGPUSurface, WGPUAdapter, WGPUSurfaceCapabilities*);
void wgpuSurfaceCapabilitiesFreeMembers(WGPUSurfaceCapabilities);
void wgpuSurfaceConfigure(WGPUSurface, WGPUSurfaceConfiguration const *);
void wgpuSurfaceGetCurrentTexture(WGPUSurface, WGPUSurfaceTexture*);
void wgpuSurfacePresent(WGPUSurface);
void wgpuSurfaceUnconfigure(WGPUSurface);
void wgpuSurfaceAddRef(WGPUSurface);
void wgpuSurfaceRelease(WGPUSurface);
WGPUFuture wgpuDeviceCreateRenderPipelineAsync(WGPUDevice, WGPURenderPipelineDescriptor const *, WGPUCreateRenderPipelineAsyncCallbackInfo);
WGPUFuture wgpuDeviceCreateComputePipelineAsync(WGPUDevice, WGPUComputePipelineDescriptor const *, WGPUCreateComputePipelineAsyncCallbackInfo);
#endif  /* !defined(WGPU_SKIP_DECLARATIONS) */

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif  /* WEBGPU_H_ */
