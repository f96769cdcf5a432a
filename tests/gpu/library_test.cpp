#include "warden/gpu/library.h"

#include "warden/gpu/context.h"

#include <gmock/gmock.h>

#include "support/messages.h"

#include <cstdlib>

namespace warden::gpu {
namespace {

using ::testing::HasSubstr;
using warden::testing::FailsWith;

TEST(Library, MissingFileIsAnErrorNamingThePathAndTheFix) {
  auto lib = Library::load({.path = "/nonexistent/dir/libwebgpu.so"});
  ASSERT_FALSE(lib.ok());
  EXPECT_THAT(lib, FailsWith(MessageId::LibraryNotLoaded));
  EXPECT_EQ(lib.error().kind, ErrorKind::LibraryMissing);
  EXPECT_THAT(lib.error().message, HasSubstr("/nonexistent/dir/libwebgpu.so"));
  EXPECT_THAT(lib.error().message, HasSubstr("WARDEN_WEBGPU_LIB"));
}

TEST(Library, ALibraryWithoutTheApiIsRefusedByName) {
  auto lib = Library::load({.path = "libz.so.1"});
  ASSERT_FALSE(lib.ok());
  EXPECT_THAT(lib, FailsWith(MessageId::LibrarySymbolsMissing));
  EXPECT_EQ(lib.error().kind, ErrorKind::SymbolMissing);
  EXPECT_THAT(lib.error().message, HasSubstr("wgpuCreateInstance"));
  EXPECT_THAT(lib.error().message, HasSubstr(std::to_string(proc_count()) + " entry point(s)"));
}

TEST(Library, EnvironmentVariableIsTheOnlyCandidateWhenSet) {
  ::setenv(kLibraryEnvVar, "/custom/libwgpu.so", 1);
  auto paths = Library::candidate_paths({});
  ::unsetenv(kLibraryEnvVar);
  EXPECT_EQ(paths, std::vector<std::string>{"/custom/libwgpu.so"});
  auto searched = Library::candidate_paths({});
  ASSERT_GE(searched.size(), 2u);
  EXPECT_THAT(searched.front(), HasSubstr("/dawn/libwebgpu_wrapper.so"));
  EXPECT_EQ(searched.back(), "libwebgpu_wrapper.so");
}

TEST(Library, BundledDawnResolvesEveryDeclaredEntryPoint) {
  auto lib = Library::load({.ignore_environment = true});
  ASSERT_TRUE(lib.ok()) << lib.error().message;
  const Procs& p = lib.value()->procs();
  // Every slot of the table is filled: the table is plain function pointers, in order.
  const auto* slots = reinterpret_cast<void* const*>(&p);
  for (size_t i = 0; i < proc_count(); ++i) EXPECT_NE(slots[i], nullptr) << "slot " << i;
  static_assert(sizeof(Procs) % sizeof(void*) == 0);
  EXPECT_EQ(sizeof(Procs) / sizeof(void*), proc_count());
}

TEST(BackendChoice, ParsesEveryNameAndRefusesOthers) {
  EXPECT_EQ(*parse_backend_choice("auto"), BackendChoice::Auto);
  EXPECT_EQ(*parse_backend_choice("vulkan"), BackendChoice::Vulkan);
  EXPECT_EQ(*parse_backend_choice("gl"), BackendChoice::GL);
  EXPECT_EQ(*parse_backend_choice("gles"), BackendChoice::GLES);
  EXPECT_EQ(*parse_backend_choice("null"), BackendChoice::Null);
  auto bad = parse_backend_choice("d3d12");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad, FailsWith(MessageId::BackendUnknown));
  EXPECT_EQ(bad.error().kind, ErrorKind::InvalidArgument);
  EXPECT_THAT(bad.error().message, HasSubstr("'d3d12'"));
}

}  // namespace
}  // namespace warden::gpu
