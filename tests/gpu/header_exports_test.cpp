// The generated entry point list (<webgpu/warden_procs.inc>) against the real library: every entry
// resolves with dlsym, and each entry's types are exactly the header's WGPUProc typedef.
// (tests/gpu/header_checks.sh checks the list has nothing the library lacks and lacks nothing it
// exports.)
#include <dlfcn.h>

#include <filesystem>
#include <string>
#include <type_traits>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/test_files.h"

#define WGPU_SKIP_DECLARATIONS
#include <webgpu/warden_procs.inc>
#include <webgpu/webgpu.h>

namespace warden {
namespace {

// The X-macro and the header say the same thing of every entry point.
#define WARDEN_CHECK_PROC_TYPE(Ret, Name, Params) \
  static_assert(std::is_same_v<WGPUProc##Name, Ret(*) Params>, "warden_procs.inc disagrees with WGPUProc" #Name);
WARDEN_WEBGPU_PROCS(WARDEN_CHECK_PROC_TYPE)
#undef WARDEN_CHECK_PROC_TYPE

TEST(WebgpuHeader, EveryEntryPointOfTheListResolvesInTheLibrary) {
  // Dawn's folder as a carried suite lays it beside the program (dawn/), else the build's.
  const std::string path =
      warden::testing::test_file(std::filesystem::path(WARDEN_TEST_DAWN_LIBRARY).parent_path().string()) +
      "/libwebgpu_wrapper.so";
  void* library = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(library, nullptr) << ::dlerror();
  std::vector<std::string> unresolved;
  size_t listed = 0;
#define WARDEN_RESOLVE_PROC(Ret, Name, Params)                                     \
  ++listed;                                                                        \
  if (reinterpret_cast<WGPUProc##Name>(::dlsym(library, "wgpu" #Name)) == nullptr) \
    unresolved.push_back("wgpu" #Name);
  WARDEN_WEBGPU_PROCS(WARDEN_RESOLVE_PROC)
#undef WARDEN_RESOLVE_PROC
  EXPECT_EQ(listed, 253u);
  EXPECT_THAT(unresolved, ::testing::IsEmpty());
  ::dlclose(library);
}

TEST(WebgpuHeader, EveryObjectTypeHasItsReferenceCountingEntryPoints) {
  std::vector<std::string> objects;
#define WARDEN_OBJECT_NAME(Name)                                        \
  objects.push_back(#Name);                                             \
  static_assert(std::is_same_v<WGPUProc##Name##AddRef, void (*)(WGPU##Name)>); \
  static_assert(std::is_same_v<WGPUProc##Name##Release, void (*)(WGPU##Name)>);
  WARDEN_WEBGPU_OBJECT_TYPES(WARDEN_OBJECT_NAME)
#undef WARDEN_OBJECT_NAME
  EXPECT_EQ(objects.size(), 26u);
  EXPECT_THAT(objects, ::testing::IsSupersetOf({"Instance", "Adapter", "Device", "Texture", "RenderBundle",
                                                "RenderBundleEncoder", "Surface", "ExternalTexture"}));
}

}  // namespace
}  // namespace warden#include "support/test_files.h"

