/// @file
/// The part of the webgpu.h C API that warden uses, declared in warden's own form.
///
/// These declarations follow the ABI of the Dawn build warden is tested against
/// (bun-webgpu-linux-x64@0.1.7), which is NOT the newest webgpu-headers ABI: enum values,
/// struct field order and some sTypes differ (docs/adr/0001). Every enum value and struct
/// declared here is proven against the real library by tests/gpu/abi_test.cpp; a value added
/// here without a test there is a guess.
///
/// Types live in warden::gpu so that an application may include the real webgpu.h beside
/// warden without clashes. Handles are opaque pointers with distinct types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace warden::gpu {

// ---- opaque objects -------------------------------------------------------------------------
#define WARDEN_GPU_OBJECT_TYPES(X)                                                             \
  X(Instance) X(Adapter) X(Device) X(Queue) X(Buffer) X(Texture) X(TextureView) X(Sampler)     \
  X(ShaderModule) X(BindGroupLayout) X(PipelineLayout) X(BindGroup) X(RenderPipeline)          \
  X(ComputePipeline) X(QuerySet) X(CommandEncoder) X(CommandBuffer) X(RenderPassEncoder)       \
  X(ComputePassEncoder) X(Surface)

#define WARDEN_GPU_DECLARE_OBJECT(Name) \
  struct Name##Impl;                    \
  using Name = Name##Impl*;
WARDEN_GPU_OBJECT_TYPES(WARDEN_GPU_DECLARE_OBJECT)
#undef WARDEN_GPU_DECLARE_OBJECT

/// webgpu.h's WGPUBool: 0 or 1, 32 bits.
using Bool = uint32_t;
/// webgpu.h's WGPUFlags: 64-bit bit sets in this ABI.
using Flags = uint64_t;

/// A StringView length meaning "null-terminated" (WGPU_STRLEN).
inline constexpr size_t kStrlen = SIZE_MAX;
/// "To the end of the buffer" (WGPU_WHOLE_SIZE).
inline constexpr uint64_t kWholeSize = UINT64_MAX;
/// "Every remaining one" / "not given" markers of webgpu.h (WGPU_*_UNDEFINED).
///@{
inline constexpr uint32_t kMipLevelCountUndefined = UINT32_MAX;
inline constexpr uint32_t kArrayLayerCountUndefined = UINT32_MAX;
inline constexpr uint32_t kCopyStrideUndefined = UINT32_MAX;
inline constexpr uint32_t kDepthSliceUndefined = UINT32_MAX;
inline constexpr uint64_t kLimitU64Undefined = UINT64_MAX;
///@}

// ---- enums ----------------------------------------------------------------------------------
/// webgpu.h's WGPUSType: the values this build uses.
enum class SType : uint32_t {
  ShaderSourceWGSL = 0x00000002,
  /// The public tables say 0x20000; this build reads 0x20000 as CompatibilityModeLimits.
  TextureBindingViewDimensionDescriptor = 0x00020001,
  SurfaceSourceXlibWindow = 0x00000006,
};

/// Only values warden uses and its tests prove are declared; a value the library returns that is
/// not declared here prints as a number (gpu/names.cpp).
enum class BackendType : uint32_t { Undefined = 0, Null = 1, Vulkan = 6, OpenGL = 7, OpenGLES = 8 };
/// webgpu.h's WGPUAdapterType: the values this build uses.
enum class AdapterType : uint32_t { DiscreteGPU = 1, CPU = 3, Unknown = 4 };
/// webgpu.h's WGPUFeatureLevel: the values this build uses.
enum class FeatureLevel : uint32_t { Undefined = 0, Compatibility = 1, Core = 2 };
/// webgpu.h's WGPUPowerPreference: the values this build uses.
enum class PowerPreference : uint32_t { Undefined = 0 };
/// AllowSpontaneous: the callback may run inside the call that completes it (the registry's
/// creation scopes: tests/resources CreationScopesSettleInsideTheCallWithoutAWait).
enum class CallbackMode : uint32_t { WaitAnyOnly = 1, AllowProcessEvents = 2, AllowSpontaneous = 3 };
/// webgpu.h's WGPURequestAdapterStatus: the values this build uses.
enum class RequestAdapterStatus : uint32_t { Success = 1, Unavailable = 3 };
/// webgpu.h's WGPURequestDeviceStatus: the values this build uses.
enum class RequestDeviceStatus : uint32_t { Success = 1, Error = 3 };
/// webgpu.h's WGPUDeviceLostReason: the values this build uses.
enum class DeviceLostReason : uint32_t { Unknown = 1, Destroyed = 2, CallbackCancelled = 3, FailedCreation = 4 };
/// webgpu.h's WGPUErrorType: the values this build uses.
enum class ErrorType : uint32_t { NoError = 1, Validation = 2 };
/// webgpu.h's WGPUErrorFilter: the values this build uses.
enum class ErrorFilter : uint32_t { Validation = 1, OutOfMemory = 2, Internal = 3 };
/// webgpu.h's WGPUPopErrorScopeStatus: the values this build uses.
enum class PopErrorScopeStatus : uint32_t { Success = 1, Error = 3 };
/// webgpu.h's WGPUQueueWorkDoneStatus: the values this build uses.
enum class QueueWorkDoneStatus : uint32_t { Success = 1 };
/// webgpu.h's WGPUMapAsyncStatus: the values this build uses.
enum class MapAsyncStatus : uint32_t { Success = 1, Error = 3, Aborted = 4 };
/// webgpu.h's WGPUCompilationInfoRequestStatus: the values this build uses.
enum class CompilationInfoRequestStatus : uint32_t { Success = 1, CallbackCancelled = 2 };
/// webgpu.h's WGPUCompilationMessageType: the values this build uses.
enum class CompilationMessageType : uint32_t { Error = 1, Warning = 2, Info = 3 };
/// webgpu.h's WGPUWaitStatus: the values this build uses.
enum class WaitStatus : uint32_t { Success = 1, TimedOut = 2, Error = 3 };
/// webgpu.h's WGPUStatus: the values this build uses.
enum class Status : uint32_t { Success = 1, Error = 2 };
/// webgpu.h's WGPUBufferMapState: the values this build uses.
enum class BufferMapState : uint32_t { Unmapped = 1, Pending = 2, Mapped = 3 };
/// webgpu.h's WGPUOptionalBool: the values this build uses.
enum class OptionalBool : uint32_t { False = 0, True = 1, Undefined = 2 };

/// webgpu.h's WGPUPresentMode: the values this build uses.
enum class PresentMode : uint32_t { Undefined = 0, Fifo = 1, FifoRelaxed = 2, Immediate = 3, Mailbox = 4 };
/// webgpu.h's WGPUCompositeAlphaMode: the values this build uses.
enum class CompositeAlphaMode : uint32_t {
  Auto = 0, Opaque = 1, Premultiplied = 2, Unpremultiplied = 3, Inherit = 4,
};
/// webgpu.h's WGPUSurfaceGetCurrentTextureStatus: the values this build uses.
enum class SurfaceGetCurrentTextureStatus : uint32_t {
  SuccessOptimal = 1, SuccessSuboptimal = 2, Timeout = 3, Outdated = 4, Lost = 5, Error = 6,
};

/// webgpu.h's WGPUTextureFormat: the values this build uses.
enum class TextureFormat : uint32_t {
  Undefined = 0,
  R8Unorm = 1,
  R32Float = 12,
  R32Uint = 13,
  RGBA8Unorm = 18,
  RGBA8UnormSrgb = 19,
  RGBA8Sint = 22,
  BGRA8Unorm = 23,
  RGBA16Float = 34,
  RGBA32Float = 35,
  Depth24Plus = 40,
  Depth32Float = 42,
};
/// webgpu.h's WGPUTextureDimension: the values this build uses.
enum class TextureDimension : uint32_t { Undefined = 0, e1D = 1, e2D = 2, e3D = 3 };
/// webgpu.h's WGPUTextureViewDimension: the values this build uses.
enum class TextureViewDimension : uint32_t {
  Undefined = 0, e1D = 1, e2D = 2, e2DArray = 3, Cube = 4, CubeArray = 5, e3D = 6,
};
/// webgpu.h's WGPUTextureAspect: the values this build uses.
enum class TextureAspect : uint32_t { All = 1, StencilOnly = 2, DepthOnly = 3 };
/// webgpu.h's WGPUTextureSampleType: the values this build uses.
enum class TextureSampleType : uint32_t {
  BindingNotUsed = 0, Float = 2, UnfilterableFloat = 3, Depth = 4, Sint = 5, Uint = 6,
};
/// webgpu.h's WGPUSamplerBindingType: the values this build uses.
enum class SamplerBindingType : uint32_t {
  BindingNotUsed = 0, Filtering = 2, NonFiltering = 3, Comparison = 4,
};
/// webgpu.h's WGPUBufferBindingType: the values this build uses.
enum class BufferBindingType : uint32_t {
  BindingNotUsed = 0, Uniform = 2, Storage = 3, ReadOnlyStorage = 4,
};
/// webgpu.h's WGPUStorageTextureAccess: the values this build uses.
enum class StorageTextureAccess : uint32_t {
  BindingNotUsed = 0, WriteOnly = 2, ReadOnly = 3, ReadWrite = 4,
};
/// webgpu.h's WGPUAddressMode: the values this build uses.
enum class AddressMode : uint32_t { Undefined = 0, ClampToEdge = 1, Repeat = 2, MirrorRepeat = 3 };
/// webgpu.h's WGPUFilterMode: the values this build uses.
enum class FilterMode : uint32_t { Undefined = 0, Nearest = 1, Linear = 2 };
/// webgpu.h's WGPUMipmapFilterMode: the values this build uses.
enum class MipmapFilterMode : uint32_t { Undefined = 0, Nearest = 1, Linear = 2 };
/// webgpu.h's WGPUCompareFunction: the values this build uses.
enum class CompareFunction : uint32_t {
  Undefined = 0, Never = 1, Less = 2, Equal = 3, LessEqual = 4, Greater = 5, NotEqual = 6,
  GreaterEqual = 7, Always = 8,
};
/// webgpu.h's WGPUVertexFormat: the values this build uses.
enum class VertexFormat : uint32_t { Float32 = 28, Float32x2 = 29, Float32x3 = 30, Float32x4 = 31, Uint32 = 32, Uint32x4 = 35 };
/// webgpu.h's WGPUVertexStepMode: the values this build uses.
enum class VertexStepMode : uint32_t { Undefined = 0, Vertex = 1, Instance = 2 };
/// webgpu.h's WGPUPrimitiveTopology: the values this build uses.
enum class PrimitiveTopology : uint32_t {
  Undefined = 0, PointList = 1, LineList = 2, LineStrip = 3, TriangleList = 4, TriangleStrip = 5,
};
/// webgpu.h's WGPUIndexFormat: the values this build uses.
enum class IndexFormat : uint32_t { Undefined = 0, Uint16 = 1, Uint32 = 2 };
/// webgpu.h's WGPUFrontFace: the values this build uses.
enum class FrontFace : uint32_t { Undefined = 0, CCW = 1, CW = 2 };
/// webgpu.h's WGPUCullMode: the values this build uses.
enum class CullMode : uint32_t { Undefined = 0, None = 1, Front = 2, Back = 3 };
/// webgpu.h's WGPUBlendOperation: the values this build uses.
enum class BlendOperation : uint32_t { Undefined = 0, Add = 1, Subtract = 2, ReverseSubtract = 3, Min = 4, Max = 5 };
/// webgpu.h's WGPUBlendFactor: the values this build uses.
enum class BlendFactor : uint32_t {
  Undefined = 0, Zero = 1, One = 2, Src = 3, OneMinusSrc = 4, SrcAlpha = 5, OneMinusSrcAlpha = 6,
  Dst = 7, OneMinusDst = 8, DstAlpha = 9, OneMinusDstAlpha = 10,
};
/// Stencil is not used by warden: Undefined lets the library apply its defaults (Keep).
enum class StencilOperation : uint32_t { Undefined = 0 };
/// webgpu.h's WGPULoadOp: the values this build uses.
enum class LoadOp : uint32_t { Undefined = 0, Load = 1, Clear = 2 };
/// webgpu.h's WGPUStoreOp: the values this build uses.
enum class StoreOp : uint32_t { Undefined = 0, Store = 1, Discard = 2 };
/// webgpu.h's WGPUQueryType: the values this build uses.
enum class QueryType : uint32_t { Occlusion = 1, Timestamp = 2 };
/// Raw feature numbers: adapters report Dawn-specific ones this header does not name.
using FeatureName = uint32_t;
/// Dawn: every call on the device takes a device-wide lock, so a device may be used from several
/// threads (hot reload compiles on a worker). Proven by tests/gpu/abi_device_sync_test.cpp.
inline constexpr FeatureName kFeatureImplicitDeviceSynchronization = 0x50004;

// ---- bit flags (64-bit in this ABI) ---------------------------------------------------------
namespace BufferUsage {
/// The bits of webgpu.h's WGPUBufferUsage.
///@{
inline constexpr Flags None = 0, MapRead = 0x1, MapWrite = 0x2, CopySrc = 0x4, CopyDst = 0x8,
                       Index = 0x10, Vertex = 0x20, Uniform = 0x40, Storage = 0x80,
                       Indirect = 0x100, QueryResolve = 0x200;
///@}
}
namespace TextureUsage {
/// The bits of webgpu.h's WGPUTextureUsage.
///@{
inline constexpr Flags None = 0, CopySrc = 0x1, CopyDst = 0x2, TextureBinding = 0x4,
                       StorageBinding = 0x8, RenderAttachment = 0x10;
///@}
}
namespace ShaderStage {
/// The bits of webgpu.h's WGPUShaderStage.
///@{
inline constexpr Flags None = 0, Vertex = 0x1, Fragment = 0x2, Compute = 0x4;
///@}
}
namespace ColorWriteMask {
/// The bits of webgpu.h's WGPUColorWriteMask.
///@{
inline constexpr Flags None = 0, Red = 0x1, Green = 0x2, Blue = 0x4, Alpha = 0x8, All = 0xF;
///@}
}
namespace MapMode {
/// The bits of webgpu.h's WGPUMapMode.
///@{
inline constexpr Flags None = 0, Read = 0x1, Write = 0x2;
///@}
}

// ---- small structs --------------------------------------------------------------------------
/// webgpu.h's WGPUStringView: a pointer and a length (kStrlen: null-terminated); converts from C++ strings.
struct StringView {
  /// The first character, or null for an empty or absent string.
  const char* data = nullptr;
  /// Bytes, or kStrlen when `data` is null-terminated.
  size_t length = kStrlen;

  /// The absent string.
  StringView() = default;
  /// `n` bytes at `d`.
  StringView(const char* d, size_t n) : data(d), length(n) {}
  /// Deliberately implicit: labels and WGSL code are passed as std::string_view everywhere.
  /// The characters of `s`, which must outlive the view.
  ///@{
  StringView(std::string_view s) : data(s.data()), length(s.size()) {}  // NOLINT
  /// A null-terminated string.
  StringView(const char* s) : data(s), length(kStrlen) {}               // NOLINT: null-terminated
  StringView(const std::string& s) : data(s.data()), length(s.size()) {}  // NOLINT
  ///@}
  /// The characters as a std::string_view (empty for null).
  std::string_view view() const {
    if (data == nullptr) return {};
    return length == kStrlen ? std::string_view(data) : std::string_view(data, length);
  }
};

/// webgpu.h's WGPUChainedStruct, in this build's layout.
struct ChainedStruct {
  /// A field of webgpu.h's WGPUChainedStruct: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* next = nullptr;
  SType sType{};
  ///@}
};
/// webgpu.h's WGPUChainedStructOut, in this build's layout.
struct ChainedStructOut {
  /// A field of webgpu.h's WGPUChainedStructOut: the WebGPU specification says what it means.
  ///@{
  ChainedStructOut* next = nullptr;
  SType sType{};
  ///@}
};

/// webgpu.h's WGPUFuture, in this build's layout.
struct Future {
  /// A field of webgpu.h's WGPUFuture: the WebGPU specification says what it means.
  ///@{
  uint64_t id = 0;
  ///@}
};
/// webgpu.h's WGPUFutureWaitInfo, in this build's layout.
struct FutureWaitInfo {
  /// A field of webgpu.h's WGPUFutureWaitInfo: the WebGPU specification says what it means.
  ///@{
  Future future{};
  Bool completed = 0;
  ///@}
};

/// webgpu.h's WGPUExtent3D, in this build's layout.
struct Extent3D {
  /// A field of webgpu.h's WGPUExtent3D: the WebGPU specification says what it means.
  ///@{
  uint32_t width = 0;
  uint32_t height = 1;
  uint32_t depthOrArrayLayers = 1;
  ///@}
};
/// webgpu.h's WGPUOrigin3D, in this build's layout.
struct Origin3D {
  /// A field of webgpu.h's WGPUOrigin3D: the WebGPU specification says what it means.
  ///@{
  uint32_t x = 0, y = 0, z = 0;
  ///@}
};
/// webgpu.h's WGPUColor, in this build's layout.
struct Color {
  /// A field of webgpu.h's WGPUColor: the WebGPU specification says what it means.
  ///@{
  double r = 0, g = 0, b = 0, a = 0;
  ///@}
};

// ---- callbacks ------------------------------------------------------------------------------
/// webgpu.h's WGPURequestAdapterCallback.
using RequestAdapterCallback = void (*)(RequestAdapterStatus, Adapter, StringView message,
                                        void* userdata1, void* userdata2);
/// webgpu.h's WGPURequestDeviceCallback.
using RequestDeviceCallback = void (*)(RequestDeviceStatus, Device, StringView message,
                                       void* userdata1, void* userdata2);
/// webgpu.h's WGPUDeviceLostCallback.
using DeviceLostCallback = void (*)(const Device* device, DeviceLostReason, StringView message,
                                    void* userdata1, void* userdata2);
/// webgpu.h's WGPUUncapturedErrorCallback.
using UncapturedErrorCallback = void (*)(const Device* device, ErrorType, StringView message,
                                         void* userdata1, void* userdata2);
/// webgpu.h's WGPUPopErrorScopeCallback.
using PopErrorScopeCallback = void (*)(PopErrorScopeStatus, ErrorType, StringView message,
                                       void* userdata1, void* userdata2);
/// webgpu.h's WGPUQueueWorkDoneCallback.
using QueueWorkDoneCallback = void (*)(QueueWorkDoneStatus, StringView message, void* userdata1,
                                       void* userdata2);
/// webgpu.h's WGPUBufferMapCallback.
using BufferMapCallback = void (*)(MapAsyncStatus, StringView message, void* userdata1,
                                   void* userdata2);
struct CompilationInfo;
/// webgpu.h's WGPUCompilationInfoCallback.
using CompilationInfoCallback = void (*)(CompilationInfoRequestStatus, const CompilationInfo*,
                                         void* userdata1, void* userdata2);

template <typename Fn>
/// webgpu.h's WGPUCallbackInfo, in this build's layout.
struct CallbackInfo {
  /// A field of webgpu.h's WGPUCallbackInfo: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  CallbackMode mode = CallbackMode::AllowProcessEvents;
  Fn callback = nullptr;
  void* userdata1 = nullptr;
  void* userdata2 = nullptr;
  ///@}
};
/// webgpu.h's WGPURequestAdapterCallbackInfo.
using RequestAdapterCallbackInfo = CallbackInfo<RequestAdapterCallback>;
/// webgpu.h's WGPURequestDeviceCallbackInfo.
using RequestDeviceCallbackInfo = CallbackInfo<RequestDeviceCallback>;
/// webgpu.h's WGPUDeviceLostCallbackInfo.
using DeviceLostCallbackInfo = CallbackInfo<DeviceLostCallback>;
/// webgpu.h's WGPUPopErrorScopeCallbackInfo.
using PopErrorScopeCallbackInfo = CallbackInfo<PopErrorScopeCallback>;
/// webgpu.h's WGPUQueueWorkDoneCallbackInfo.
using QueueWorkDoneCallbackInfo = CallbackInfo<QueueWorkDoneCallback>;
/// webgpu.h's WGPUBufferMapCallbackInfo.
using BufferMapCallbackInfo = CallbackInfo<BufferMapCallback>;
/// webgpu.h's WGPUCompilationInfoCallbackInfo.
using CompilationInfoCallbackInfo = CallbackInfo<CompilationInfoCallback>;

/// The uncaptured-error callback has no mode: it may fire from any call.
struct UncapturedErrorCallbackInfo {
  /// A field of webgpu.h's WGPUUncapturedErrorCallbackInfo: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  UncapturedErrorCallback callback = nullptr;
  void* userdata1 = nullptr;
  void* userdata2 = nullptr;
  ///@}
};

// ---- instance and adapter -------------------------------------------------------------------
/// webgpu.h's WGPUInstanceCapabilities, in this build's layout.
struct InstanceCapabilities {
  /// A field of webgpu.h's WGPUInstanceCapabilities: the WebGPU specification says what it means.
  ///@{
  ChainedStructOut* nextInChain = nullptr;
  Bool timedWaitAnyEnable = 0;
  size_t timedWaitAnyMaxCount = 0;
  ///@}
};
/// webgpu.h's WGPUInstanceDescriptor, in this build's layout.
struct InstanceDescriptor {
  /// A field of webgpu.h's WGPUInstanceDescriptor: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  InstanceCapabilities capabilities{};
  ///@}
};

/// Dawn's own instance options, chained on InstanceDescriptor: warden uses them only to receive
/// the instance's log, which is where Dawn says why no adapter was found ("Couldn't create the
/// default EGL display"); without a callback Dawn prints it to stderr. A C++ struct in Dawn
/// (dawn::native::DawnInstanceDescriptor); sType 0x50006 is the value this build names
/// "DawnInstanceDescriptor", and the field offsets are those its own constructor writes
/// (additionalRuntimeSearchPathsCount sits in the chain header's padding). Proven by
/// tests/cli/info_test.cpp (NoAdapterKeepsDawnsOwnWords).
inline constexpr uint32_t kSTypeDawnInstanceDescriptor = 0x00050006;
/// webgpu.h's WGPULoggingType: the values this build uses.
enum class LoggingType : uint32_t { Verbose = 1, Info = 2, Warning = 3, Error = 4 };
/// webgpu.h's WGPULoggingCallbackInfo, in this build's layout.
struct LoggingCallbackInfo {
  /// A field of webgpu.h's WGPULoggingCallbackInfo: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  void (*callback)(LoggingType type, StringView message, void* userdata1, void* userdata2) = nullptr;
  void* userdata1 = nullptr;
  void* userdata2 = nullptr;
  ///@}
};
/// webgpu.h's WGPUDawnInstanceDescriptor, in this build's layout.
struct DawnInstanceDescriptor {
  /// A field of webgpu.h's WGPUDawnInstanceDescriptor: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  uint32_t sType = kSTypeDawnInstanceDescriptor;
  uint32_t additionalRuntimeSearchPathsCount = 0;
  const char* const* additionalRuntimeSearchPaths = nullptr;
  void* platform = nullptr;
  uint32_t backendValidationLevel = 2;  ///< Disabled
  bool beginCaptureOnStartup = false;
  LoggingCallbackInfo loggingCallbackInfo{};
  ///@}
};
static_assert(offsetof(DawnInstanceDescriptor, backendValidationLevel) == 32);
static_assert(offsetof(DawnInstanceDescriptor, loggingCallbackInfo) == 40);
static_assert(sizeof(DawnInstanceDescriptor) == 72);

/// Dawn's blob cache on a device, chained on DeviceDescriptor: Dawn asks `loadDataFunction` for
/// what it compiled before (translated shaders, the backend's pipeline cache) under a key it
/// makes from everything that decides the result, and hands what it compiles to
/// `storeDataFunction`. Either may be called from Dawn's worker threads. sType 0x50007 is the
/// value this build accepts on a device descriptor between DawnInstanceDescriptor (0x50006) and
/// DawnAdapterPropertiesPowerPreference (0x50008), the order of Dawn's own tables. Proven by
/// tests/gpu/blob_cache_test.cpp (ASecondDeviceLoadsWhatTheFirstStored).
inline constexpr uint32_t kSTypeDawnCacheDeviceDescriptor = 0x00050007;
/// webgpu.h's WGPUDawnLoadCacheDataFunction: the size of the value under `key`, copied into
/// `value` when `value_size` is at least that; 0 when there is none.
using DawnLoadCacheDataFunction = size_t (*)(const void* key, size_t key_size, void* value, size_t value_size,
                                             void* userdata);
/// webgpu.h's WGPUDawnStoreCacheDataFunction.
using DawnStoreCacheDataFunction = void (*)(const void* key, size_t key_size, const void* value, size_t value_size,
                                            void* userdata);
/// webgpu.h's WGPUDawnCacheDeviceDescriptor, in this build's layout.
struct DawnCacheDeviceDescriptor {
  /// A field of webgpu.h's WGPUDawnCacheDeviceDescriptor.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  uint32_t sType = kSTypeDawnCacheDeviceDescriptor;
  StringView isolationKey{};
  DawnLoadCacheDataFunction loadDataFunction = nullptr;
  DawnStoreCacheDataFunction storeDataFunction = nullptr;
  void* functionUserdata = nullptr;
  ///@}
};
static_assert(offsetof(DawnCacheDeviceDescriptor, isolationKey) == 16);
static_assert(offsetof(DawnCacheDeviceDescriptor, loadDataFunction) == 32);
static_assert(sizeof(DawnCacheDeviceDescriptor) == 56);

/// webgpu.h's WGPURequestAdapterOptions, in this build's layout.
struct RequestAdapterOptions {
  /// A field of webgpu.h's WGPURequestAdapterOptions: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  FeatureLevel featureLevel = FeatureLevel::Undefined;
  PowerPreference powerPreference = PowerPreference::Undefined;
  Bool forceFallbackAdapter = 0;
  BackendType backendType = BackendType::Undefined;
  void* compatibleSurface = nullptr;
  ///@}
};

/// webgpu.h's WGPUAdapterInfo, in this build's layout.
struct AdapterInfo {
  /// A field of webgpu.h's WGPUAdapterInfo: the WebGPU specification says what it means.
  ///@{
  ChainedStructOut* nextInChain = nullptr;
  StringView vendor{};
  StringView architecture{};
  StringView device{};
  StringView description{};
  BackendType backendType{};
  AdapterType adapterType{};
  uint32_t vendorID = 0;
  uint32_t deviceID = 0;
  uint32_t subgroupMinSize = 0;
  uint32_t subgroupMaxSize = 0;
  ///@}
};

/// webgpu.h's WGPULimits, in this build's layout.
struct Limits {
  /// A field of webgpu.h's WGPULimits: the WebGPU specification says what it means.
  ///@{
  ChainedStructOut* nextInChain = nullptr;
  uint32_t maxTextureDimension1D = 0;
  uint32_t maxTextureDimension2D = 0;
  uint32_t maxTextureDimension3D = 0;
  uint32_t maxTextureArrayLayers = 0;
  uint32_t maxBindGroups = 0;
  uint32_t maxBindGroupsPlusVertexBuffers = 0;
  uint32_t maxBindingsPerBindGroup = 0;
  uint32_t maxDynamicUniformBuffersPerPipelineLayout = 0;
  uint32_t maxDynamicStorageBuffersPerPipelineLayout = 0;
  uint32_t maxSampledTexturesPerShaderStage = 0;
  uint32_t maxSamplersPerShaderStage = 0;
  uint32_t maxStorageBuffersPerShaderStage = 0;
  uint32_t maxStorageTexturesPerShaderStage = 0;
  uint32_t maxUniformBuffersPerShaderStage = 0;
  uint64_t maxUniformBufferBindingSize = 0;
  uint64_t maxStorageBufferBindingSize = 0;
  uint32_t minUniformBufferOffsetAlignment = 0;
  uint32_t minStorageBufferOffsetAlignment = 0;
  uint32_t maxVertexBuffers = 0;
  uint64_t maxBufferSize = 0;
  uint32_t maxVertexAttributes = 0;
  uint32_t maxVertexBufferArrayStride = 0;
  uint32_t maxInterStageShaderVariables = 0;
  uint32_t maxColorAttachments = 0;
  uint32_t maxColorAttachmentBytesPerSample = 0;
  uint32_t maxComputeWorkgroupStorageSize = 0;
  uint32_t maxComputeInvocationsPerWorkgroup = 0;
  uint32_t maxComputeWorkgroupSizeX = 0;
  uint32_t maxComputeWorkgroupSizeY = 0;
  uint32_t maxComputeWorkgroupSizeZ = 0;
  uint32_t maxComputeWorkgroupsPerDimension = 0;
  /// The last field of this build's Limits: the public tables add four per-stage storage
  /// limits after it, which this build neither writes nor reads (tests/gpu/abi_async_test).
  uint32_t maxImmediateSize = 0;
  ///@}
};

/// webgpu.h's WGPUSupportedFeatures, in this build's layout.
struct SupportedFeatures {
  /// A field of webgpu.h's WGPUSupportedFeatures: the WebGPU specification says what it means.
  ///@{
  size_t featureCount = 0;
  const FeatureName* features = nullptr;
  ///@}
};

/// webgpu.h's WGPUQueueDescriptor, in this build's layout.
struct QueueDescriptor {
  /// A field of webgpu.h's WGPUQueueDescriptor: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  StringView label{};
  ///@}
};

/// webgpu.h's WGPUDeviceDescriptor, in this build's layout.
struct DeviceDescriptor {
  /// A field of webgpu.h's WGPUDeviceDescriptor: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  StringView label{};
  size_t requiredFeatureCount = 0;
  const FeatureName* requiredFeatures = nullptr;
  const Limits* requiredLimits = nullptr;
  QueueDescriptor defaultQueue{};
  DeviceLostCallbackInfo deviceLostCallbackInfo{};
  UncapturedErrorCallbackInfo uncapturedErrorCallbackInfo{};
  ///@}
};

// ---- resources ------------------------------------------------------------------------------
/// webgpu.h's WGPUBufferDescriptor, in this build's layout.
struct BufferDescriptor {
  /// A field of webgpu.h's WGPUBufferDescriptor: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  StringView label{};
  Flags usage = BufferUsage::None;
  uint64_t size = 0;
  Bool mappedAtCreation = 0;
  ///@}
};

/// webgpu.h's WGPUTextureDescriptor, in this build's layout.
struct TextureDescriptor {
  /// A field of webgpu.h's WGPUTextureDescriptor: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  StringView label{};
  Flags usage = TextureUsage::None;
  TextureDimension dimension = TextureDimension::e2D;
  Extent3D size{};
  TextureFormat format = TextureFormat::Undefined;
  uint32_t mipLevelCount = 1;
  uint32_t sampleCount = 1;
  size_t viewFormatCount = 0;
  const TextureFormat* viewFormats = nullptr;
  ///@}
};

/// Compatibility mode: the view dimension a texture will be bound with, fixed at creation.
struct TextureBindingViewDimensionDescriptor {
  /// A field of webgpu.h's WGPUTextureBindingViewDimensionDescriptor: the WebGPU specification says what it means.
  ///@{
  ChainedStruct chain{nullptr, SType::TextureBindingViewDimensionDescriptor};
  TextureViewDimension textureBindingViewDimension = TextureViewDimension::Undefined;
  ///@}
};

/// webgpu.h's WGPUTextureViewDescriptor, in this build's layout.
struct TextureViewDescriptor {
  /// A field of webgpu.h's WGPUTextureViewDescriptor: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  StringView label{};
  TextureFormat format = TextureFormat::Undefined;
  TextureViewDimension dimension = TextureViewDimension::Undefined;
  uint32_t baseMipLevel = 0;
  uint32_t mipLevelCount = kMipLevelCountUndefined;
  uint32_t baseArrayLayer = 0;
  uint32_t arrayLayerCount = kArrayLayerCountUndefined;
  TextureAspect aspect = TextureAspect::All;
  Flags usage = TextureUsage::None;
  ///@}
};

/// webgpu.h's WGPUSamplerDescriptor, in this build's layout.
struct SamplerDescriptor {
  /// A field of webgpu.h's WGPUSamplerDescriptor: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  StringView label{};
  AddressMode addressModeU = AddressMode::ClampToEdge;
  AddressMode addressModeV = AddressMode::ClampToEdge;
  AddressMode addressModeW = AddressMode::ClampToEdge;
  FilterMode magFilter = FilterMode::Nearest;
  FilterMode minFilter = FilterMode::Nearest;
  MipmapFilterMode mipmapFilter = MipmapFilterMode::Nearest;
  float lodMinClamp = 0.0f;
  float lodMaxClamp = 32.0f;
  CompareFunction compare = CompareFunction::Undefined;
  uint16_t maxAnisotropy = 1;
  ///@}
};

/// webgpu.h's WGPUQuerySetDescriptor, in this build's layout.
struct QuerySetDescriptor {
  /// A field of webgpu.h's WGPUQuerySetDescriptor: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  StringView label{};
  QueryType type = QueryType::Occlusion;
  uint32_t count = 0;
  ///@}
};

// ---- shaders --------------------------------------------------------------------------------
/// webgpu.h's WGPUShaderSourceWGSL, in this build's layout.
struct ShaderSourceWGSL {
  /// A field of webgpu.h's WGPUShaderSourceWGSL: the WebGPU specification says what it means.
  ///@{
  ChainedStruct chain{nullptr, SType::ShaderSourceWGSL};
  StringView code{};
  ///@}
};
/// webgpu.h's WGPUShaderModuleDescriptor, in this build's layout.
struct ShaderModuleDescriptor {
  /// A field of webgpu.h's WGPUShaderModuleDescriptor: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  StringView label{};
  ///@}
};
/// webgpu.h's WGPUCompilationMessage, in this build's layout.
struct CompilationMessage {
  /// A field of webgpu.h's WGPUCompilationMessage: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  StringView message{};
  CompilationMessageType type{};
  uint64_t lineNum = 0;  ///< 1-based
  uint64_t linePos = 0;  ///< 1-based, in UTF-8 code units
  uint64_t offset = 0;
  uint64_t length = 0;
  ///@}
};
/// webgpu.h's WGPUCompilationInfo, in this build's layout.
struct CompilationInfo {
  /// A field of webgpu.h's WGPUCompilationInfo: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  size_t messageCount = 0;
  const CompilationMessage* messages = nullptr;
  ///@}
};

// ---- binding --------------------------------------------------------------------------------
/// webgpu.h's WGPUBufferBindingLayout, in this build's layout.
struct BufferBindingLayout {
  /// A field of webgpu.h's WGPUBufferBindingLayout: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  BufferBindingType type = BufferBindingType::BindingNotUsed;
  Bool hasDynamicOffset = 0;
  uint64_t minBindingSize = 0;
  ///@}
};
/// webgpu.h's WGPUSamplerBindingLayout, in this build's layout.
struct SamplerBindingLayout {
  /// A field of webgpu.h's WGPUSamplerBindingLayout: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  SamplerBindingType type = SamplerBindingType::BindingNotUsed;
  ///@}
};
/// webgpu.h's WGPUTextureBindingLayout, in this build's layout.
struct TextureBindingLayout {
  /// A field of webgpu.h's WGPUTextureBindingLayout: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  TextureSampleType sampleType = TextureSampleType::BindingNotUsed;
  TextureViewDimension viewDimension = TextureViewDimension::Undefined;
  Bool multisampled = 0;
  ///@}
};
/// webgpu.h's WGPUStorageTextureBindingLayout, in this build's layout.
struct StorageTextureBindingLayout {
  /// A field of webgpu.h's WGPUStorageTextureBindingLayout: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  StorageTextureAccess access = StorageTextureAccess::BindingNotUsed;
  TextureFormat format = TextureFormat::Undefined;
  TextureViewDimension viewDimension = TextureViewDimension::Undefined;
  ///@}
};
/// webgpu.h's WGPUBindGroupLayoutEntry, in this build's layout.
struct BindGroupLayoutEntry {
  /// A field of webgpu.h's WGPUBindGroupLayoutEntry: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  uint32_t binding = 0;
  Flags visibility = ShaderStage::None;
  uint32_t bindingArraySize = 0;  ///< 0: not an array
  BufferBindingLayout buffer{};
  SamplerBindingLayout sampler{};
  TextureBindingLayout texture{};
  StorageTextureBindingLayout storageTexture{};
  ///@}
};
/// webgpu.h's WGPUBindGroupLayoutDescriptor, in this build's layout.
struct BindGroupLayoutDescriptor {
  /// A field of webgpu.h's WGPUBindGroupLayoutDescriptor: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  StringView label{};
  size_t entryCount = 0;
  const BindGroupLayoutEntry* entries = nullptr;
  ///@}
};
/// webgpu.h's WGPUBindGroupEntry, in this build's layout.
struct BindGroupEntry {
  /// A field of webgpu.h's WGPUBindGroupEntry: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  uint32_t binding = 0;
  Buffer buffer = nullptr;
  uint64_t offset = 0;
  uint64_t size = kWholeSize;
  Sampler sampler = nullptr;
  TextureView textureView = nullptr;
  ///@}
};
/// webgpu.h's WGPUBindGroupDescriptor, in this build's layout.
struct BindGroupDescriptor {
  /// A field of webgpu.h's WGPUBindGroupDescriptor: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  StringView label{};
  BindGroupLayout layout = nullptr;
  size_t entryCount = 0;
  const BindGroupEntry* entries = nullptr;
  ///@}
};
/// webgpu.h's WGPUPipelineLayoutDescriptor, in this build's layout.
struct PipelineLayoutDescriptor {
  /// A field of webgpu.h's WGPUPipelineLayoutDescriptor: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  StringView label{};
  size_t bindGroupLayoutCount = 0;
  const BindGroupLayout* bindGroupLayouts = nullptr;
  uint32_t immediateSize = 0;
  ///@}
};

// ---- pipelines ------------------------------------------------------------------------------
/// webgpu.h's WGPUConstantEntry, in this build's layout.
struct ConstantEntry {
  /// A field of webgpu.h's WGPUConstantEntry: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  StringView key{};
  double value = 0;
  ///@}
};
/// webgpu.h's WGPUVertexAttribute, in this build's layout.
struct VertexAttribute {
  /// A field of webgpu.h's WGPUVertexAttribute: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  VertexFormat format{};
  uint64_t offset = 0;
  uint32_t shaderLocation = 0;
  ///@}
};
/// webgpu.h's WGPUVertexBufferLayout, in this build's layout.
struct VertexBufferLayout {
  /// A field of webgpu.h's WGPUVertexBufferLayout: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  VertexStepMode stepMode = VertexStepMode::Vertex;
  uint64_t arrayStride = 0;
  size_t attributeCount = 0;
  const VertexAttribute* attributes = nullptr;
  ///@}
};
/// webgpu.h's WGPUVertexState, in this build's layout.
struct VertexState {
  /// A field of webgpu.h's WGPUVertexState: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  ShaderModule module = nullptr;
  StringView entryPoint{};
  size_t constantCount = 0;
  const ConstantEntry* constants = nullptr;
  size_t bufferCount = 0;
  const VertexBufferLayout* buffers = nullptr;
  ///@}
};
/// webgpu.h's WGPUPrimitiveState, in this build's layout.
struct PrimitiveState {
  /// A field of webgpu.h's WGPUPrimitiveState: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  PrimitiveTopology topology = PrimitiveTopology::TriangleList;
  IndexFormat stripIndexFormat = IndexFormat::Undefined;
  FrontFace frontFace = FrontFace::CCW;
  CullMode cullMode = CullMode::None;
  Bool unclippedDepth = 0;
  ///@}
};
/// webgpu.h's WGPUStencilFaceState, in this build's layout.
struct StencilFaceState {
  /// A field of webgpu.h's WGPUStencilFaceState: the WebGPU specification says what it means.
  ///@{
  CompareFunction compare = CompareFunction::Undefined;
  StencilOperation failOp = StencilOperation::Undefined;
  StencilOperation depthFailOp = StencilOperation::Undefined;
  StencilOperation passOp = StencilOperation::Undefined;
  ///@}
};
/// webgpu.h's WGPUDepthStencilState, in this build's layout.
struct DepthStencilState {
  /// A field of webgpu.h's WGPUDepthStencilState: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  TextureFormat format = TextureFormat::Undefined;
  OptionalBool depthWriteEnabled = OptionalBool::Undefined;
  CompareFunction depthCompare = CompareFunction::Undefined;
  StencilFaceState stencilFront{};
  StencilFaceState stencilBack{};
  uint32_t stencilReadMask = 0xFFFFFFFF;
  uint32_t stencilWriteMask = 0xFFFFFFFF;
  int32_t depthBias = 0;
  float depthBiasSlopeScale = 0;
  float depthBiasClamp = 0;
  ///@}
};
/// webgpu.h's WGPUMultisampleState, in this build's layout.
struct MultisampleState {
  /// A field of webgpu.h's WGPUMultisampleState: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  uint32_t count = 1;
  uint32_t mask = 0xFFFFFFFF;
  Bool alphaToCoverageEnabled = 0;
  ///@}
};
/// webgpu.h's WGPUBlendComponent, in this build's layout.
struct BlendComponent {
  /// A field of webgpu.h's WGPUBlendComponent: the WebGPU specification says what it means.
  ///@{
  BlendOperation operation = BlendOperation::Add;
  BlendFactor srcFactor = BlendFactor::One;
  BlendFactor dstFactor = BlendFactor::Zero;
  ///@}
};
/// webgpu.h's WGPUBlendState, in this build's layout.
struct BlendState {
  /// A field of webgpu.h's WGPUBlendState: the WebGPU specification says what it means.
  ///@{
  BlendComponent color{};
  BlendComponent alpha{};
  ///@}
};
/// webgpu.h's WGPUColorTargetState, in this build's layout.
struct ColorTargetState {
  /// A field of webgpu.h's WGPUColorTargetState: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  TextureFormat format = TextureFormat::Undefined;
  const BlendState* blend = nullptr;
  Flags writeMask = ColorWriteMask::All;
  ///@}
};
/// webgpu.h's WGPUFragmentState, in this build's layout.
struct FragmentState {
  /// A field of webgpu.h's WGPUFragmentState: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  ShaderModule module = nullptr;
  StringView entryPoint{};
  size_t constantCount = 0;
  const ConstantEntry* constants = nullptr;
  size_t targetCount = 0;
  const ColorTargetState* targets = nullptr;
  ///@}
};
/// webgpu.h's WGPURenderPipelineDescriptor, in this build's layout.
struct RenderPipelineDescriptor {
  /// A field of webgpu.h's WGPURenderPipelineDescriptor: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  StringView label{};
  PipelineLayout layout = nullptr;  ///< null: layout derived from the shaders ("auto")
  VertexState vertex{};
  PrimitiveState primitive{};
  const DepthStencilState* depthStencil = nullptr;
  MultisampleState multisample{};
  const FragmentState* fragment = nullptr;
  ///@}
};
/// webgpu.h's WGPUComputeState, in this build's layout.
struct ComputeState {
  /// A field of webgpu.h's WGPUComputeState: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  ShaderModule module = nullptr;
  StringView entryPoint{};
  size_t constantCount = 0;
  const ConstantEntry* constants = nullptr;
  ///@}
};
/// webgpu.h's WGPUComputePipelineDescriptor, in this build's layout.
struct ComputePipelineDescriptor {
  /// A field of webgpu.h's WGPUComputePipelineDescriptor: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  StringView label{};
  PipelineLayout layout = nullptr;
  ComputeState compute{};
  ///@}
};

// ---- commands -------------------------------------------------------------------------------
/// webgpu.h's WGPUCommandEncoderDescriptor, in this build's layout.
struct CommandEncoderDescriptor {
  /// A field of webgpu.h's WGPUCommandEncoderDescriptor: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  StringView label{};
  ///@}
};
/// webgpu.h's WGPUCommandBufferDescriptor, in this build's layout.
struct CommandBufferDescriptor {
  /// A field of webgpu.h's WGPUCommandBufferDescriptor: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  StringView label{};
  ///@}
};
/// webgpu.h's WGPURenderPassColorAttachment, in this build's layout.
struct RenderPassColorAttachment {
  /// A field of webgpu.h's WGPURenderPassColorAttachment: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  TextureView view = nullptr;
  uint32_t depthSlice = kDepthSliceUndefined;
  TextureView resolveTarget = nullptr;
  LoadOp loadOp = LoadOp::Undefined;
  StoreOp storeOp = StoreOp::Undefined;
  Color clearValue{};
  ///@}
};
/// webgpu.h's WGPURenderPassDepthStencilAttachment, in this build's layout.
struct RenderPassDepthStencilAttachment {
  /// A field of webgpu.h's WGPURenderPassDepthStencilAttachment: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  TextureView view = nullptr;
  LoadOp depthLoadOp = LoadOp::Undefined;
  StoreOp depthStoreOp = StoreOp::Undefined;
  float depthClearValue = 0.0f;
  Bool depthReadOnly = 0;
  LoadOp stencilLoadOp = LoadOp::Undefined;
  StoreOp stencilStoreOp = StoreOp::Undefined;
  uint32_t stencilClearValue = 0;
  Bool stencilReadOnly = 0;
  ///@}
};
/// webgpu.h's WGPUPassTimestampWrites, in this build's layout.
struct PassTimestampWrites {
  /// A field of webgpu.h's WGPUPassTimestampWrites: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  QuerySet querySet = nullptr;
  uint32_t beginningOfPassWriteIndex = UINT32_MAX;
  uint32_t endOfPassWriteIndex = UINT32_MAX;
  ///@}
};
/// webgpu.h's WGPURenderPassDescriptor, in this build's layout.
struct RenderPassDescriptor {
  /// A field of webgpu.h's WGPURenderPassDescriptor: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  StringView label{};
  size_t colorAttachmentCount = 0;
  const RenderPassColorAttachment* colorAttachments = nullptr;
  const RenderPassDepthStencilAttachment* depthStencilAttachment = nullptr;
  QuerySet occlusionQuerySet = nullptr;
  const PassTimestampWrites* timestampWrites = nullptr;
  ///@}
};
/// webgpu.h's WGPUComputePassDescriptor, in this build's layout.
struct ComputePassDescriptor {
  /// A field of webgpu.h's WGPUComputePassDescriptor: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  StringView label{};
  const PassTimestampWrites* timestampWrites = nullptr;
  ///@}
};
/// webgpu.h's WGPUTexelCopyBufferLayout, in this build's layout.
struct TexelCopyBufferLayout {
  /// A field of webgpu.h's WGPUTexelCopyBufferLayout: the WebGPU specification says what it means.
  ///@{
  uint64_t offset = 0;
  uint32_t bytesPerRow = kCopyStrideUndefined;
  uint32_t rowsPerImage = kCopyStrideUndefined;
  ///@}
};
/// webgpu.h's WGPUTexelCopyBufferInfo, in this build's layout.
struct TexelCopyBufferInfo {
  /// A field of webgpu.h's WGPUTexelCopyBufferInfo: the WebGPU specification says what it means.
  ///@{
  TexelCopyBufferLayout layout{};
  Buffer buffer = nullptr;
  ///@}
};
/// webgpu.h's WGPUTexelCopyTextureInfo, in this build's layout.
struct TexelCopyTextureInfo {
  /// A field of webgpu.h's WGPUTexelCopyTextureInfo: the WebGPU specification says what it means.
  ///@{
  Texture texture = nullptr;
  uint32_t mipLevel = 0;
  Origin3D origin{};
  TextureAspect aspect = TextureAspect::All;
  ///@}
};

// ---- surfaces (presentation) ---------------------------------------------------------------
/// Proven by tests/gpu/abi_surface_test.cpp under Xvfb. wgpuSurfacePresent returns void here.
struct SurfaceSourceXlibWindow {
  /// A field of webgpu.h's WGPUSurfaceSourceXlibWindow: the WebGPU specification says what it means.
  ///@{
  ChainedStruct chain{nullptr, SType::SurfaceSourceXlibWindow};
  void* display = nullptr;  ///< the X11 Display*
  uint64_t window = 0;      ///< the X11 Window id
  ///@}
};
/// webgpu.h's WGPUSurfaceDescriptor, in this build's layout.
struct SurfaceDescriptor {
  /// A field of webgpu.h's WGPUSurfaceDescriptor: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  StringView label{};
  ///@}
};
/// webgpu.h's WGPUSurfaceCapabilities, in this build's layout.
struct SurfaceCapabilities {
  /// A field of webgpu.h's WGPUSurfaceCapabilities: the WebGPU specification says what it means.
  ///@{
  ChainedStructOut* nextInChain = nullptr;
  Flags usages = TextureUsage::None;
  size_t formatCount = 0;
  const TextureFormat* formats = nullptr;
  size_t presentModeCount = 0;
  const PresentMode* presentModes = nullptr;
  size_t alphaModeCount = 0;
  const CompositeAlphaMode* alphaModes = nullptr;
  ///@}
};
/// webgpu.h's WGPUSurfaceConfiguration, in this build's layout.
struct SurfaceConfiguration {
  /// A field of webgpu.h's WGPUSurfaceConfiguration: the WebGPU specification says what it means.
  ///@{
  const ChainedStruct* nextInChain = nullptr;
  Device device = nullptr;
  TextureFormat format = TextureFormat::Undefined;
  Flags usage = TextureUsage::RenderAttachment;
  uint32_t width = 0;
  uint32_t height = 0;
  size_t viewFormatCount = 0;
  const TextureFormat* viewFormats = nullptr;
  CompositeAlphaMode alphaMode = CompositeAlphaMode::Auto;
  PresentMode presentMode = PresentMode::Fifo;
  ///@}
};
/// webgpu.h's WGPUSurfaceTexture, in this build's layout.
struct SurfaceTexture {
  /// A field of webgpu.h's WGPUSurfaceTexture: the WebGPU specification says what it means.
  ///@{
  ChainedStructOut* nextInChain = nullptr;
  Texture texture = nullptr;  ///< a new reference: the receiver releases it
  SurfaceGetCurrentTextureStatus status = SurfaceGetCurrentTextureStatus::Error;
  ///@}
};
// ---- asynchronous pipeline creation (hot reload builds replacements with these) -------------
/// Values and signature proven against the library in tests/gpu/abi_pipeline_async_test.cpp.
enum class CreatePipelineAsyncStatus : uint32_t {
  Success = 1,
  CallbackCancelled = 2,
  ValidationError = 3,
  InternalError = 4,
};
/// webgpu.h's WGPUCreateRenderPipelineAsyncCallback.
using CreateRenderPipelineAsyncCallback = void (*)(CreatePipelineAsyncStatus, RenderPipeline, StringView message,
                                                   void* userdata1, void* userdata2);
/// webgpu.h's WGPUCreateComputePipelineAsyncCallback.
using CreateComputePipelineAsyncCallback = void (*)(CreatePipelineAsyncStatus, ComputePipeline,
                                                    StringView message, void* userdata1, void* userdata2);
/// webgpu.h's WGPUCreateRenderPipelineAsyncCallbackInfo.
using CreateRenderPipelineAsyncCallbackInfo = CallbackInfo<CreateRenderPipelineAsyncCallback>;
/// webgpu.h's WGPUCreateComputePipelineAsyncCallbackInfo.
using CreateComputePipelineAsyncCallbackInfo = CallbackInfo<CreateComputePipelineAsyncCallback>;

}  // namespace warden::gpu
