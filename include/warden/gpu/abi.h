/// @file
/// warden's own helpers around webgpu.h, the C API of the library warden loads.
///
/// warden speaks webgpu.h's own names and types (WGPUTexture, WGPUTextureFormat_RGBA8Unorm,
/// WGPUBufferUsage_Vertex; docs/adr/0035). The header follows the ABI of the Dawn build warden is
/// tested against (bun-webgpu-linux-x64@0.1.7), which is NOT the newest webgpu-headers ABI:
/// enum values, struct field order and some sTypes differ (docs/adr/0001). Every enum value and
/// struct warden uses is proven against the real library by tests/gpu/abi_*_test.cpp.
///
/// webgpu.h's structs have no default member initialisers: a struct is zeroed with `{}` and
/// every field whose meaningful default is not zero (Extent3D's height and depth, a texture's
/// mip level and sample counts, a colour attachment's depthSlice...) is written where the struct
/// is filled.
#pragma once

#ifndef WGPU_SKIP_DECLARATIONS
/// warden never links the library: it loads it at run time and calls it through gpu::Procs.
#define WGPU_SKIP_DECLARATIONS
#endif
#include <webgpu/webgpu.h>
// The generated lists of the header's entry points and object types (cmake/webgpu-header.cmake).
#include <webgpu/warden_procs.inc>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace warden::gpu {

/// Every object type of webgpu.h (the reference ledger's ObjectType, gpu::Ref): the header's
/// own list, generated with it (<webgpu/warden_procs.inc>), so that an object of any type made
/// through gpu::Procs is counted. Each has its AddRef and Release in gpu::Procs.
#define WARDEN_GPU_OBJECT_TYPES(X) WARDEN_WEBGPU_OBJECT_TYPES(X)

/// The characters of `s`, which must outlive the view.
inline WGPUStringView string_view(std::string_view s) { return WGPUStringView{s.data(), s.size()}; }
/// The characters `s` points at as a std::string_view (empty for the null and the empty string).
inline std::string_view to_std(WGPUStringView s) {
  if (s.data == nullptr) return {};
  return s.length == WGPU_STRLEN ? std::string_view(s.data) : std::string_view(s.data, s.length);
}
/// The null string ({NULL, WGPU_STRLEN}): "not given", which the library reads as its default
/// (an entry point found by stage, no label).
inline constexpr WGPUStringView kNullString{nullptr, WGPU_STRLEN};

/// Dawn's own instance options, chained on WGPUInstanceDescriptor: warden uses them only to
/// receive the instance's log, which is where Dawn says why no adapter was found ("Couldn't create
/// the default EGL display"); without a callback Dawn prints it to stderr. A C++ struct in Dawn
/// (dawn::native::DawnInstanceDescriptor), not part of webgpu.h; sType 0x50006 is the value this
/// build names "DawnInstanceDescriptor", and the field offsets are those its own constructor
/// writes (additionalRuntimeSearchPathsCount sits in the chain header's padding). Proven by
/// tests/cli/info_test.cpp (NoAdapterKeepsDawnsOwnWords).
struct DawnInstanceDescriptor {
  /// Dawn's fields, in its layout.
  ///@{
  WGPUChainedStruct* nextInChain = nullptr;
  uint32_t sType = WGPUSType_DawnInstanceDescriptor;
  uint32_t additionalRuntimeSearchPathsCount = 0;
  const char* const* additionalRuntimeSearchPaths = nullptr;
  void* platform = nullptr;
  uint32_t backendValidationLevel = 2;  ///< Disabled
  bool beginCaptureOnStartup = false;
  WGPULoggingCallbackInfo loggingCallbackInfo{};
  ///@}
};
static_assert(offsetof(DawnInstanceDescriptor, backendValidationLevel) == 32);
static_assert(offsetof(DawnInstanceDescriptor, loggingCallbackInfo) == 40);
static_assert(sizeof(DawnInstanceDescriptor) == 72);

/// Dawn's blob cache on a device (WGPUDawnCacheDeviceDescriptor, chained on
/// WGPUDeviceDescriptor): Dawn asks `loadDataFunction` for what it compiled before under a key it
/// makes from everything that decides the result, and hands what it compiles to
/// `storeDataFunction`. Either may be called from Dawn's worker threads. sType 0x50007 is the
/// value this build accepts on a device descriptor between DawnInstanceDescriptor (0x50006) and
/// DawnAdapterPropertiesPowerPreference (0x50008), the order of Dawn's own tables. Proven by
/// tests/gpu/blob_cache_test.cpp (ASecondDeviceLoadsWhatTheFirstStored).
static_assert(offsetof(WGPUDawnCacheDeviceDescriptor, isolationKey) == 16);
static_assert(offsetof(WGPUDawnCacheDeviceDescriptor, loadDataFunction) == 32);
static_assert(sizeof(WGPUDawnCacheDeviceDescriptor) == 56);

}  // namespace warden::gpu
