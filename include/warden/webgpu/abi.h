// The part of the webgpu.h C API that warden uses, declared in warden's own form.
//
// These declarations follow the ABI of the Dawn build warden is tested against
// (bun-webgpu-linux-x64@0.1.7), which is NOT the newest webgpu-headers ABI: enum values,
// struct field order and some sTypes differ (docs/adr/0001). Every enum value and struct
// declared here is proven against the real library by tests/webgpu/abi_test.cpp; a value added
// here without a test there is a guess.
//
// Types live in warden::gpu so that an application may include the real webgpu.h beside
// warden without clashes. Handles are opaque pointers with distinct types.
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

using Bool = uint32_t;
using Flags = uint64_t;

inline constexpr size_t kStrlen = SIZE_MAX;
inline constexpr uint64_t kWholeSize = UINT64_MAX;
inline constexpr uint32_t kMipLevelCountUndefined = UINT32_MAX;
inline constexpr uint32_t kArrayLayerCountUndefined = UINT32_MAX;
inline constexpr uint32_t kCopyStrideUndefined = UINT32_MAX;
inline constexpr uint32_t kDepthSliceUndefined = UINT32_MAX;
inline constexpr uint64_t kLimitU64Undefined = UINT64_MAX;

// ---- enums ----------------------------------------------------------------------------------
enum class SType : uint32_t {
  ShaderSourceWGSL = 0x00000002,
  /// The public tables say 0x20000; this build reads 0x20000 as CompatibilityModeLimits.
  TextureBindingViewDimensionDescriptor = 0x00020001,
  SurfaceSourceXlibWindow = 0x00000006,
};

/// Only values warden uses and its tests prove are declared; a value the library returns that is
/// not declared here prints as a number (webgpu/names.cpp).
enum class BackendType : uint32_t { Undefined = 0, Null = 1, Vulkan = 6, OpenGL = 7, OpenGLES = 8 };
enum class AdapterType : uint32_t { DiscreteGPU = 1, CPU = 3, Unknown = 4 };
enum class FeatureLevel : uint32_t { Undefined = 0, Compatibility = 1, Core = 2 };
enum class PowerPreference : uint32_t { Undefined = 0 };
/// AllowSpontaneous: the callback may run inside the call that completes it (the registry's
/// creation scopes: tests/resources CreationScopesSettleInsideTheCallWithoutAWait).
enum class CallbackMode : uint32_t { WaitAnyOnly = 1, AllowProcessEvents = 2, AllowSpontaneous = 3 };
enum class RequestAdapterStatus : uint32_t { Success = 1, Unavailable = 3 };
enum class RequestDeviceStatus : uint32_t { Success = 1, Error = 3 };
enum class DeviceLostReason : uint32_t { Unknown = 1, Destroyed = 2, CallbackCancelled = 3, FailedCreation = 4 };
enum class ErrorType : uint32_t { NoError = 1, Validation = 2 };
enum class ErrorFilter : uint32_t { Validation = 1, OutOfMemory = 2, Internal = 3 };
enum class PopErrorScopeStatus : uint32_t { Success = 1, Error = 3 };
enum class QueueWorkDoneStatus : uint32_t { Success = 1 };
enum class MapAsyncStatus : uint32_t { Success = 1, Error = 3, Aborted = 4 };
enum class CompilationInfoRequestStatus : uint32_t { Success = 1, CallbackCancelled = 2 };
enum class CompilationMessageType : uint32_t { Error = 1, Warning = 2, Info = 3 };
enum class WaitStatus : uint32_t { Success = 1, TimedOut = 2, Error = 3 };
enum class Status : uint32_t { Success = 1, Error = 2 };
enum class BufferMapState : uint32_t { Unmapped = 1, Pending = 2, Mapped = 3 };
enum class OptionalBool : uint32_t { False = 0, True = 1, Undefined = 2 };

enum class PresentMode : uint32_t { Undefined = 0, Fifo = 1, FifoRelaxed = 2, Immediate = 3, Mailbox = 4 };
enum class CompositeAlphaMode : uint32_t {
  Auto = 0, Opaque = 1, Premultiplied = 2, Unpremultiplied = 3, Inherit = 4,
};
enum class SurfaceGetCurrentTextureStatus : uint32_t {
  SuccessOptimal = 1, SuccessSuboptimal = 2, Timeout = 3, Outdated = 4, Lost = 5, Error = 6,
};

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
enum class TextureDimension : uint32_t { Undefined = 0, e1D = 1, e2D = 2, e3D = 3 };
enum class TextureViewDimension : uint32_t {
  Undefined = 0, e1D = 1, e2D = 2, e2DArray = 3, Cube = 4, CubeArray = 5, e3D = 6,
};
enum class TextureAspect : uint32_t { All = 1, StencilOnly = 2, DepthOnly = 3 };
enum class TextureSampleType : uint32_t {
  BindingNotUsed = 0, Float = 2, UnfilterableFloat = 3, Depth = 4, Sint = 5, Uint = 6,
};
enum class SamplerBindingType : uint32_t {
  BindingNotUsed = 0, Filtering = 2, NonFiltering = 3, Comparison = 4,
};
enum class BufferBindingType : uint32_t {
  BindingNotUsed = 0, Uniform = 2, Storage = 3, ReadOnlyStorage = 4,
};
enum class StorageTextureAccess : uint32_t {
  BindingNotUsed = 0, WriteOnly = 2, ReadOnly = 3, ReadWrite = 4,
};
enum class AddressMode : uint32_t { Undefined = 0, ClampToEdge = 1, Repeat = 2, MirrorRepeat = 3 };
enum class FilterMode : uint32_t { Undefined = 0, Nearest = 1, Linear = 2 };
enum class MipmapFilterMode : uint32_t { Undefined = 0, Nearest = 1, Linear = 2 };
enum class CompareFunction : uint32_t {
  Undefined = 0, Never = 1, Less = 2, Equal = 3, LessEqual = 4, Greater = 5, NotEqual = 6,
  GreaterEqual = 7, Always = 8,
};
enum class VertexFormat : uint32_t { Float32 = 28, Float32x2 = 29, Float32x3 = 30, Float32x4 = 31, Uint32 = 32, Uint32x4 = 35 };
enum class VertexStepMode : uint32_t { Undefined = 0, Vertex = 1, Instance = 2 };
enum class PrimitiveTopology : uint32_t {
  Undefined = 0, PointList = 1, LineList = 2, LineStrip = 3, TriangleList = 4, TriangleStrip = 5,
};
enum class IndexFormat : uint32_t { Undefined = 0, Uint16 = 1, Uint32 = 2 };
enum class FrontFace : uint32_t { Undefined = 0, CCW = 1, CW = 2 };
enum class CullMode : uint32_t { Undefined = 0, None = 1, Front = 2, Back = 3 };
enum class BlendOperation : uint32_t { Undefined = 0, Add = 1, Subtract = 2, ReverseSubtract = 3, Min = 4, Max = 5 };
enum class BlendFactor : uint32_t {
  Undefined = 0, Zero = 1, One = 2, Src = 3, OneMinusSrc = 4, SrcAlpha = 5, OneMinusSrcAlpha = 6,
  Dst = 7, OneMinusDst = 8, DstAlpha = 9, OneMinusDstAlpha = 10,
};
/// Stencil is not used by warden: Undefined lets the library apply its defaults (Keep).
enum class StencilOperation : uint32_t { Undefined = 0 };
enum class LoadOp : uint32_t { Undefined = 0, Load = 1, Clear = 2 };
enum class StoreOp : uint32_t { Undefined = 0, Store = 1, Discard = 2 };
enum class QueryType : uint32_t { Occlusion = 1, Timestamp = 2 };
/// Raw feature numbers: adapters report Dawn-specific ones this header does not name.
using FeatureName = uint32_t;
/// Dawn: every call on the device takes a device-wide lock, so a device may be used from several
/// threads (hot reload compiles on a worker). Proven by tests/webgpu/abi_device_sync_test.cpp.
inline constexpr FeatureName kFeatureImplicitDeviceSynchronization = 0x50004;

// ---- bit flags (64-bit in this ABI) ---------------------------------------------------------
namespace BufferUsage {
inline constexpr Flags None = 0, MapRead = 0x1, MapWrite = 0x2, CopySrc = 0x4, CopyDst = 0x8,
                       Index = 0x10, Vertex = 0x20, Uniform = 0x40, Storage = 0x80,
                       Indirect = 0x100, QueryResolve = 0x200;
}
namespace TextureUsage {
inline constexpr Flags None = 0, CopySrc = 0x1, CopyDst = 0x2, TextureBinding = 0x4,
                       StorageBinding = 0x8, RenderAttachment = 0x10;
}
namespace ShaderStage {
inline constexpr Flags None = 0, Vertex = 0x1, Fragment = 0x2, Compute = 0x4;
}
namespace ColorWriteMask {
inline constexpr Flags None = 0, Red = 0x1, Green = 0x2, Blue = 0x4, Alpha = 0x8, All = 0xF;
}
namespace MapMode {
inline constexpr Flags None = 0, Read = 0x1, Write = 0x2;
}

// ---- small structs --------------------------------------------------------------------------
struct StringView {
  const char* data = nullptr;
  size_t length = kStrlen;

  StringView() = default;
  StringView(const char* d, size_t n) : data(d), length(n) {}
  /// Deliberately implicit: labels and WGSL code are passed as std::string_view everywhere.
  StringView(std::string_view s) : data(s.data()), length(s.size()) {}  // NOLINT
  StringView(const char* s) : data(s), length(kStrlen) {}               // NOLINT: null-terminated
  StringView(const std::string& s) : data(s.data()), length(s.size()) {}  // NOLINT
  std::string_view view() const {
    if (data == nullptr) return {};
    return length == kStrlen ? std::string_view(data) : std::string_view(data, length);
  }
};

struct ChainedStruct {
  const ChainedStruct* next = nullptr;
  SType sType{};
};
struct ChainedStructOut {
  ChainedStructOut* next = nullptr;
  SType sType{};
};

struct Future {
  uint64_t id = 0;
};
struct FutureWaitInfo {
  Future future;
  Bool completed = 0;
};

struct Extent3D {
  uint32_t width = 0;
  uint32_t height = 1;
  uint32_t depthOrArrayLayers = 1;
};
struct Origin3D {
  uint32_t x = 0, y = 0, z = 0;
};
struct Color {
  double r = 0, g = 0, b = 0, a = 0;
};

// ---- callbacks ------------------------------------------------------------------------------
using RequestAdapterCallback = void (*)(RequestAdapterStatus, Adapter, StringView message,
                                        void* userdata1, void* userdata2);
using RequestDeviceCallback = void (*)(RequestDeviceStatus, Device, StringView message,
                                       void* userdata1, void* userdata2);
using DeviceLostCallback = void (*)(const Device* device, DeviceLostReason, StringView message,
                                    void* userdata1, void* userdata2);
using UncapturedErrorCallback = void (*)(const Device* device, ErrorType, StringView message,
                                         void* userdata1, void* userdata2);
using PopErrorScopeCallback = void (*)(PopErrorScopeStatus, ErrorType, StringView message,
                                       void* userdata1, void* userdata2);
using QueueWorkDoneCallback = void (*)(QueueWorkDoneStatus, StringView message, void* userdata1,
                                       void* userdata2);
using BufferMapCallback = void (*)(MapAsyncStatus, StringView message, void* userdata1,
                                   void* userdata2);
struct CompilationInfo;
using CompilationInfoCallback = void (*)(CompilationInfoRequestStatus, const CompilationInfo*,
                                         void* userdata1, void* userdata2);

template <typename Fn>
struct CallbackInfo {
  const ChainedStruct* nextInChain = nullptr;
  CallbackMode mode = CallbackMode::AllowProcessEvents;
  Fn callback = nullptr;
  void* userdata1 = nullptr;
  void* userdata2 = nullptr;
};
using RequestAdapterCallbackInfo = CallbackInfo<RequestAdapterCallback>;
using RequestDeviceCallbackInfo = CallbackInfo<RequestDeviceCallback>;
using DeviceLostCallbackInfo = CallbackInfo<DeviceLostCallback>;
using PopErrorScopeCallbackInfo = CallbackInfo<PopErrorScopeCallback>;
using QueueWorkDoneCallbackInfo = CallbackInfo<QueueWorkDoneCallback>;
using BufferMapCallbackInfo = CallbackInfo<BufferMapCallback>;
using CompilationInfoCallbackInfo = CallbackInfo<CompilationInfoCallback>;

/// The uncaptured-error callback has no mode: it may fire from any call.
struct UncapturedErrorCallbackInfo {
  const ChainedStruct* nextInChain = nullptr;
  UncapturedErrorCallback callback = nullptr;
  void* userdata1 = nullptr;
  void* userdata2 = nullptr;
};

// ---- instance and adapter -------------------------------------------------------------------
struct InstanceCapabilities {
  ChainedStructOut* nextInChain = nullptr;
  Bool timedWaitAnyEnable = 0;
  size_t timedWaitAnyMaxCount = 0;
};
struct InstanceDescriptor {
  const ChainedStruct* nextInChain = nullptr;
  InstanceCapabilities capabilities;
};

/// Dawn's own instance options, chained on InstanceDescriptor: warden uses them only to receive
/// the instance's log, which is where Dawn says why no adapter was found ("Couldn't create the
/// default EGL display"); without a callback Dawn prints it to stderr. A C++ struct in Dawn
/// (dawn::native::DawnInstanceDescriptor); sType 0x50006 is the value this build names
/// "DawnInstanceDescriptor", and the field offsets are those its own constructor writes
/// (additionalRuntimeSearchPathsCount sits in the chain header's padding). Proven by
/// tests/cli/info_test.cpp (NoAdapterKeepsDawnsOwnWords).
inline constexpr uint32_t kSTypeDawnInstanceDescriptor = 0x00050006;
enum class LoggingType : uint32_t { Verbose = 1, Info = 2, Warning = 3, Error = 4 };
struct LoggingCallbackInfo {
  const ChainedStruct* nextInChain = nullptr;
  void (*callback)(LoggingType type, StringView message, void* userdata1, void* userdata2) = nullptr;
  void* userdata1 = nullptr;
  void* userdata2 = nullptr;
};
struct DawnInstanceDescriptor {
  const ChainedStruct* nextInChain = nullptr;
  uint32_t sType = kSTypeDawnInstanceDescriptor;
  uint32_t additionalRuntimeSearchPathsCount = 0;
  const char* const* additionalRuntimeSearchPaths = nullptr;
  void* platform = nullptr;
  uint32_t backendValidationLevel = 2;  ///< Disabled
  bool beginCaptureOnStartup = false;
  LoggingCallbackInfo loggingCallbackInfo;
};
static_assert(offsetof(DawnInstanceDescriptor, backendValidationLevel) == 32);
static_assert(offsetof(DawnInstanceDescriptor, loggingCallbackInfo) == 40);
static_assert(sizeof(DawnInstanceDescriptor) == 72);

struct RequestAdapterOptions {
  const ChainedStruct* nextInChain = nullptr;
  FeatureLevel featureLevel = FeatureLevel::Undefined;
  PowerPreference powerPreference = PowerPreference::Undefined;
  Bool forceFallbackAdapter = 0;
  BackendType backendType = BackendType::Undefined;
  void* compatibleSurface = nullptr;
};

struct AdapterInfo {
  ChainedStructOut* nextInChain = nullptr;
  StringView vendor;
  StringView architecture;
  StringView device;
  StringView description;
  BackendType backendType{};
  AdapterType adapterType{};
  uint32_t vendorID = 0;
  uint32_t deviceID = 0;
  uint32_t subgroupMinSize = 0;
  uint32_t subgroupMaxSize = 0;
};

struct Limits {
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
  /// limits after it, which this build neither writes nor reads (tests/webgpu/abi_async_test).
  uint32_t maxImmediateSize = 0;
};

struct SupportedFeatures {
  size_t featureCount = 0;
  const FeatureName* features = nullptr;
};

struct QueueDescriptor {
  const ChainedStruct* nextInChain = nullptr;
  StringView label;
};

struct DeviceDescriptor {
  const ChainedStruct* nextInChain = nullptr;
  StringView label;
  size_t requiredFeatureCount = 0;
  const FeatureName* requiredFeatures = nullptr;
  const Limits* requiredLimits = nullptr;
  QueueDescriptor defaultQueue;
  DeviceLostCallbackInfo deviceLostCallbackInfo;
  UncapturedErrorCallbackInfo uncapturedErrorCallbackInfo;
};

// ---- resources ------------------------------------------------------------------------------
struct BufferDescriptor {
  const ChainedStruct* nextInChain = nullptr;
  StringView label;
  Flags usage = BufferUsage::None;
  uint64_t size = 0;
  Bool mappedAtCreation = 0;
};

struct TextureDescriptor {
  const ChainedStruct* nextInChain = nullptr;
  StringView label;
  Flags usage = TextureUsage::None;
  TextureDimension dimension = TextureDimension::e2D;
  Extent3D size;
  TextureFormat format = TextureFormat::Undefined;
  uint32_t mipLevelCount = 1;
  uint32_t sampleCount = 1;
  size_t viewFormatCount = 0;
  const TextureFormat* viewFormats = nullptr;
};

/// Compatibility mode: the view dimension a texture will be bound with, fixed at creation.
struct TextureBindingViewDimensionDescriptor {
  ChainedStruct chain{nullptr, SType::TextureBindingViewDimensionDescriptor};
  TextureViewDimension textureBindingViewDimension = TextureViewDimension::Undefined;
};

struct TextureViewDescriptor {
  const ChainedStruct* nextInChain = nullptr;
  StringView label;
  TextureFormat format = TextureFormat::Undefined;
  TextureViewDimension dimension = TextureViewDimension::Undefined;
  uint32_t baseMipLevel = 0;
  uint32_t mipLevelCount = kMipLevelCountUndefined;
  uint32_t baseArrayLayer = 0;
  uint32_t arrayLayerCount = kArrayLayerCountUndefined;
  TextureAspect aspect = TextureAspect::All;
  Flags usage = TextureUsage::None;
};

struct SamplerDescriptor {
  const ChainedStruct* nextInChain = nullptr;
  StringView label;
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
};

struct QuerySetDescriptor {
  const ChainedStruct* nextInChain = nullptr;
  StringView label;
  QueryType type = QueryType::Occlusion;
  uint32_t count = 0;
};

// ---- shaders --------------------------------------------------------------------------------
struct ShaderSourceWGSL {
  ChainedStruct chain{nullptr, SType::ShaderSourceWGSL};
  StringView code;
};
struct ShaderModuleDescriptor {
  const ChainedStruct* nextInChain = nullptr;
  StringView label;
};
struct CompilationMessage {
  const ChainedStruct* nextInChain = nullptr;
  StringView message;
  CompilationMessageType type{};
  uint64_t lineNum = 0;  ///< 1-based
  uint64_t linePos = 0;  ///< 1-based, in UTF-8 code units
  uint64_t offset = 0;
  uint64_t length = 0;
};
struct CompilationInfo {
  const ChainedStruct* nextInChain = nullptr;
  size_t messageCount = 0;
  const CompilationMessage* messages = nullptr;
};

// ---- binding --------------------------------------------------------------------------------
struct BufferBindingLayout {
  const ChainedStruct* nextInChain = nullptr;
  BufferBindingType type = BufferBindingType::BindingNotUsed;
  Bool hasDynamicOffset = 0;
  uint64_t minBindingSize = 0;
};
struct SamplerBindingLayout {
  const ChainedStruct* nextInChain = nullptr;
  SamplerBindingType type = SamplerBindingType::BindingNotUsed;
};
struct TextureBindingLayout {
  const ChainedStruct* nextInChain = nullptr;
  TextureSampleType sampleType = TextureSampleType::BindingNotUsed;
  TextureViewDimension viewDimension = TextureViewDimension::Undefined;
  Bool multisampled = 0;
};
struct StorageTextureBindingLayout {
  const ChainedStruct* nextInChain = nullptr;
  StorageTextureAccess access = StorageTextureAccess::BindingNotUsed;
  TextureFormat format = TextureFormat::Undefined;
  TextureViewDimension viewDimension = TextureViewDimension::Undefined;
};
struct BindGroupLayoutEntry {
  const ChainedStruct* nextInChain = nullptr;
  uint32_t binding = 0;
  Flags visibility = ShaderStage::None;
  uint32_t bindingArraySize = 0;  ///< 0: not an array
  BufferBindingLayout buffer;
  SamplerBindingLayout sampler;
  TextureBindingLayout texture;
  StorageTextureBindingLayout storageTexture;
};
struct BindGroupLayoutDescriptor {
  const ChainedStruct* nextInChain = nullptr;
  StringView label;
  size_t entryCount = 0;
  const BindGroupLayoutEntry* entries = nullptr;
};
struct BindGroupEntry {
  const ChainedStruct* nextInChain = nullptr;
  uint32_t binding = 0;
  Buffer buffer = nullptr;
  uint64_t offset = 0;
  uint64_t size = kWholeSize;
  Sampler sampler = nullptr;
  TextureView textureView = nullptr;
};
struct BindGroupDescriptor {
  const ChainedStruct* nextInChain = nullptr;
  StringView label;
  BindGroupLayout layout = nullptr;
  size_t entryCount = 0;
  const BindGroupEntry* entries = nullptr;
};
struct PipelineLayoutDescriptor {
  const ChainedStruct* nextInChain = nullptr;
  StringView label;
  size_t bindGroupLayoutCount = 0;
  const BindGroupLayout* bindGroupLayouts = nullptr;
  uint32_t immediateSize = 0;
};

// ---- pipelines ------------------------------------------------------------------------------
struct ConstantEntry {
  const ChainedStruct* nextInChain = nullptr;
  StringView key;
  double value = 0;
};
struct VertexAttribute {
  const ChainedStruct* nextInChain = nullptr;
  VertexFormat format{};
  uint64_t offset = 0;
  uint32_t shaderLocation = 0;
};
struct VertexBufferLayout {
  const ChainedStruct* nextInChain = nullptr;
  VertexStepMode stepMode = VertexStepMode::Vertex;
  uint64_t arrayStride = 0;
  size_t attributeCount = 0;
  const VertexAttribute* attributes = nullptr;
};
struct VertexState {
  const ChainedStruct* nextInChain = nullptr;
  ShaderModule module = nullptr;
  StringView entryPoint;
  size_t constantCount = 0;
  const ConstantEntry* constants = nullptr;
  size_t bufferCount = 0;
  const VertexBufferLayout* buffers = nullptr;
};
struct PrimitiveState {
  const ChainedStruct* nextInChain = nullptr;
  PrimitiveTopology topology = PrimitiveTopology::TriangleList;
  IndexFormat stripIndexFormat = IndexFormat::Undefined;
  FrontFace frontFace = FrontFace::CCW;
  CullMode cullMode = CullMode::None;
  Bool unclippedDepth = 0;
};
struct StencilFaceState {
  CompareFunction compare = CompareFunction::Undefined;
  StencilOperation failOp = StencilOperation::Undefined;
  StencilOperation depthFailOp = StencilOperation::Undefined;
  StencilOperation passOp = StencilOperation::Undefined;
};
struct DepthStencilState {
  const ChainedStruct* nextInChain = nullptr;
  TextureFormat format = TextureFormat::Undefined;
  OptionalBool depthWriteEnabled = OptionalBool::Undefined;
  CompareFunction depthCompare = CompareFunction::Undefined;
  StencilFaceState stencilFront;
  StencilFaceState stencilBack;
  uint32_t stencilReadMask = 0xFFFFFFFF;
  uint32_t stencilWriteMask = 0xFFFFFFFF;
  int32_t depthBias = 0;
  float depthBiasSlopeScale = 0;
  float depthBiasClamp = 0;
};
struct MultisampleState {
  const ChainedStruct* nextInChain = nullptr;
  uint32_t count = 1;
  uint32_t mask = 0xFFFFFFFF;
  Bool alphaToCoverageEnabled = 0;
};
struct BlendComponent {
  BlendOperation operation = BlendOperation::Add;
  BlendFactor srcFactor = BlendFactor::One;
  BlendFactor dstFactor = BlendFactor::Zero;
};
struct BlendState {
  BlendComponent color;
  BlendComponent alpha;
};
struct ColorTargetState {
  const ChainedStruct* nextInChain = nullptr;
  TextureFormat format = TextureFormat::Undefined;
  const BlendState* blend = nullptr;
  Flags writeMask = ColorWriteMask::All;
};
struct FragmentState {
  const ChainedStruct* nextInChain = nullptr;
  ShaderModule module = nullptr;
  StringView entryPoint;
  size_t constantCount = 0;
  const ConstantEntry* constants = nullptr;
  size_t targetCount = 0;
  const ColorTargetState* targets = nullptr;
};
struct RenderPipelineDescriptor {
  const ChainedStruct* nextInChain = nullptr;
  StringView label;
  PipelineLayout layout = nullptr;  ///< null: layout derived from the shaders ("auto")
  VertexState vertex;
  PrimitiveState primitive;
  const DepthStencilState* depthStencil = nullptr;
  MultisampleState multisample;
  const FragmentState* fragment = nullptr;
};
struct ComputeState {
  const ChainedStruct* nextInChain = nullptr;
  ShaderModule module = nullptr;
  StringView entryPoint;
  size_t constantCount = 0;
  const ConstantEntry* constants = nullptr;
};
struct ComputePipelineDescriptor {
  const ChainedStruct* nextInChain = nullptr;
  StringView label;
  PipelineLayout layout = nullptr;
  ComputeState compute;
};

// ---- commands -------------------------------------------------------------------------------
struct CommandEncoderDescriptor {
  const ChainedStruct* nextInChain = nullptr;
  StringView label;
};
struct CommandBufferDescriptor {
  const ChainedStruct* nextInChain = nullptr;
  StringView label;
};
struct RenderPassColorAttachment {
  const ChainedStruct* nextInChain = nullptr;
  TextureView view = nullptr;
  uint32_t depthSlice = kDepthSliceUndefined;
  TextureView resolveTarget = nullptr;
  LoadOp loadOp = LoadOp::Undefined;
  StoreOp storeOp = StoreOp::Undefined;
  Color clearValue;
};
struct RenderPassDepthStencilAttachment {
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
};
struct PassTimestampWrites {
  const ChainedStruct* nextInChain = nullptr;
  QuerySet querySet = nullptr;
  uint32_t beginningOfPassWriteIndex = UINT32_MAX;
  uint32_t endOfPassWriteIndex = UINT32_MAX;
};
struct RenderPassDescriptor {
  const ChainedStruct* nextInChain = nullptr;
  StringView label;
  size_t colorAttachmentCount = 0;
  const RenderPassColorAttachment* colorAttachments = nullptr;
  const RenderPassDepthStencilAttachment* depthStencilAttachment = nullptr;
  QuerySet occlusionQuerySet = nullptr;
  const PassTimestampWrites* timestampWrites = nullptr;
};
struct ComputePassDescriptor {
  const ChainedStruct* nextInChain = nullptr;
  StringView label;
  const PassTimestampWrites* timestampWrites = nullptr;
};
struct TexelCopyBufferLayout {
  uint64_t offset = 0;
  uint32_t bytesPerRow = kCopyStrideUndefined;
  uint32_t rowsPerImage = kCopyStrideUndefined;
};
struct TexelCopyBufferInfo {
  TexelCopyBufferLayout layout;
  Buffer buffer = nullptr;
};
struct TexelCopyTextureInfo {
  Texture texture = nullptr;
  uint32_t mipLevel = 0;
  Origin3D origin;
  TextureAspect aspect = TextureAspect::All;
};

// ---- surfaces (presentation) ---------------------------------------------------------------
/// Proven by tests/webgpu/abi_surface_test.cpp under Xvfb. wgpuSurfacePresent returns void here.
struct SurfaceSourceXlibWindow {
  ChainedStruct chain{nullptr, SType::SurfaceSourceXlibWindow};
  void* display = nullptr;  ///< the X11 Display*
  uint64_t window = 0;      ///< the X11 Window id
};
struct SurfaceDescriptor {
  const ChainedStruct* nextInChain = nullptr;
  StringView label;
};
struct SurfaceCapabilities {
  ChainedStructOut* nextInChain = nullptr;
  Flags usages = TextureUsage::None;
  size_t formatCount = 0;
  const TextureFormat* formats = nullptr;
  size_t presentModeCount = 0;
  const PresentMode* presentModes = nullptr;
  size_t alphaModeCount = 0;
  const CompositeAlphaMode* alphaModes = nullptr;
};
struct SurfaceConfiguration {
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
};
struct SurfaceTexture {
  ChainedStructOut* nextInChain = nullptr;
  Texture texture = nullptr;  ///< a new reference: the receiver releases it
  SurfaceGetCurrentTextureStatus status = SurfaceGetCurrentTextureStatus::Error;
};
// ---- asynchronous pipeline creation (hot reload builds replacements with these) -------------
/// Values and signature proven against the library in tests/webgpu/abi_pipeline_async_test.cpp.
enum class CreatePipelineAsyncStatus : uint32_t {
  Success = 1,
  CallbackCancelled = 2,
  ValidationError = 3,
  InternalError = 4,
};
using CreateRenderPipelineAsyncCallback = void (*)(CreatePipelineAsyncStatus, RenderPipeline, StringView message,
                                                   void* userdata1, void* userdata2);
using CreateComputePipelineAsyncCallback = void (*)(CreatePipelineAsyncStatus, ComputePipeline,
                                                    StringView message, void* userdata1, void* userdata2);
using CreateRenderPipelineAsyncCallbackInfo = CallbackInfo<CreateRenderPipelineAsyncCallback>;
using CreateComputePipelineAsyncCallbackInfo = CallbackInfo<CreateComputePipelineAsyncCallback>;

}  // namespace warden::gpu
