#include "warden/gpu/library.h"

#include "warden/gpu/context.h"

#include <gmock/gmock.h>

#include "support/messages.h"

#include <cstdlib>
#include <filesystem>

namespace warden::gpu {
namespace {

using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::Not;
using warden::testing::FailsWith;

TEST(Library, MissingFileIsAnErrorNamingThePathAndTheFix) {
  auto lib = Library::load({.path = "/nonexistent/dir/libwebgpu.so"});
  ASSERT_FALSE(lib.ok());
  EXPECT_THAT(lib, FailsWith(MessageId::LibraryNotLoaded));
  EXPECT_EQ(lib.error().kind, ErrorKind::LibraryMissing);
  EXPECT_THAT(lib.error().message, HasSubstr("/nonexistent/dir/libwebgpu.so"));
  EXPECT_THAT(lib.error().message, HasSubstr("WARDEN_WEBGPU_LIB"));
}

TEST(Library, MissingLibraryFixSpeaksToAPackageUserAndToTheSourceTree) {
  auto lib = Library::load({.path = "/nonexistent/dir/libwebgpu.so"});
  ASSERT_FALSE(lib.ok());
  const std::string& message = lib.error().message;
  EXPECT_THAT(message, HasSubstr("<prefix>/lib/warden/dawn/"));          // where the package put it
  EXPECT_THAT(message, HasSubstr("a dawn/ folder beside its executable"));  // shipping it
  EXPECT_THAT(message, HasSubstr("WARDEN_WEBGPU_LIB=/path/to/libwebgpu_wrapper.so"));
  EXPECT_THAT(message, HasSubstr("scripts/fetch-dawn.sh"));               // the source tree
  EXPECT_THAT(message, Not(HasSubstr("make demo")));  // a target of warden's source tree only
}

TEST(Library, SearchIsBesideTheProgramThenBesideASharedLibwardenThenByName) {
  auto searched = Library::candidate_paths({.ignore_environment = true});
  ASSERT_GE(searched.size(), 2u);
  std::string program_dir = std::filesystem::read_symlink("/proc/self/exe").parent_path().string();
  EXPECT_EQ(searched.front(), program_dir + "/dawn/libwebgpu_wrapper.so");
  EXPECT_EQ(searched.back(), "libwebgpu_wrapper.so");
  // Between them only the install's folder beside a shared libwarden: no path of warden's build
  // is compiled into the library.
  for (size_t i = 1; i + 1 < searched.size(); ++i) {
    EXPECT_THAT(searched[i], EndsWith("/warden/dawn/libwebgpu_wrapper.so")) << "candidate " << i;
  }
  EXPECT_LE(searched.size(), 3u);
}

TEST(Library, ALibraryWithoutTheApiIsRefusedByName) {
  auto lib = Library::load({.path = "libz.so.1"});
  ASSERT_FALSE(lib.ok());
  EXPECT_THAT(lib, FailsWith(MessageId::LibrarySymbolsMissing));
  EXPECT_EQ(lib.error().kind, ErrorKind::SymbolMissing);
  EXPECT_THAT(lib.error().message, HasSubstr("wgpuCreateInstance"));
  EXPECT_THAT(lib.error().message, HasSubstr(std::to_string(required_proc_count()) + " entry point(s)"));
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
