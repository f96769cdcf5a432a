// The load-time ABI check (gpu/abi_check.h, docs/adr/0033) against real published builds of
// warden's Dawn package: the pinned one, and the others scripts/fetch-dawn-abi-samples.sh puts
// in WARDEN_DAWN_SAMPLES_DIR (0.1.3 writes a larger WGPULimits; 0.1.4 to 0.1.6 share the ABI).
#include "warden/gpu/abi_check.h"

#include <dlfcn.h>

#include <gmock/gmock.h>

#include <filesystem>
#include <string>

#include "support/messages.h"
#include "support/test_files.h"
#include "warden/gpu/context.h"
#include "warden/gpu/library.h"

namespace warden::gpu {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using warden::testing::FailsWith;

// The struct probes of a library that passes, in the order the check makes them.
const std::vector<std::tuple<std::string, std::string, size_t>> kPassingStructs = {
    {"wgpuGetInstanceCapabilities", "WGPUInstanceCapabilities", sizeof(WGPUInstanceCapabilities)},
    {"wgpuAdapterGetLimits", "WGPULimits", sizeof(WGPULimits)},
    {"wgpuAdapterGetInfo", "WGPUAdapterInfo", sizeof(WGPUAdapterInfo)},
    {"wgpuAdapterGetFeatures", "WGPUSupportedFeatures", sizeof(WGPUSupportedFeatures)},
    {"wgpuDeviceGetLimits", "WGPULimits", sizeof(WGPULimits)},
    {"wgpuDeviceGetAdapterInfo", "WGPUAdapterInfo", sizeof(WGPUAdapterInfo)},
};
// Two values of WGPUAdapterInfo, 11 texture formats, a dimension, two usages, a map state, a query type.
constexpr size_t kPassingEnumValues = 18;

std::string sample(const std::string& version) {
  const std::string path = warden::testing::test_file(WARDEN_DAWN_SAMPLES_DIR) + "/" + version + "/libwebgpu_wrapper.so";
  EXPECT_TRUE(std::filesystem::exists(path)) << path << " is missing: scripts/fetch-dawn-abi-samples.sh (run by "
                                                        "`make test`) fetches it";
  return path;
}

void expect_passed_every_probe(const AbiCheckReport& report) {
  EXPECT_TRUE(report.passed()) << report.summary();
  EXPECT_EQ(report.incomplete, "");
  std::vector<std::tuple<std::string, std::string, size_t>> structs;
  for (const auto& s : report.structs) {
    structs.emplace_back(s.call, s.type, s.declared);
    EXPECT_EQ(s.written, s.declared) << s.call;
  }
  EXPECT_EQ(structs, kPassingStructs);
  EXPECT_EQ(report.enums.size(), kPassingEnumValues);
  for (const auto& e : report.enums) EXPECT_EQ(e.returned, e.declared) << e.what;
  EXPECT_TRUE(report.differences().empty());
}

TEST(AbiCheck, ThePinnedLibraryPassesEveryProbe) {
  auto lib = Library::load({.ignore_environment = true, .ledger = LedgerMode::Off});
  ASSERT_TRUE(lib.ok()) << lib.error().message;
  expect_passed_every_probe(lib.value()->abi_check());
  EXPECT_THAT(lib.value()->abi_check().summary(),
              StartsWith("passed (WGPUInstanceCapabilities 24 bytes, WGPULimits 152 bytes, WGPUAdapterInfo 96 "
                         "bytes, WGPUSupportedFeatures 16 bytes, 18 enum values round-tripped, "));
}

TEST(AbiCheck, ABuildThatWritesALargerLimitsIsRefusedNamingTheStructAndItsBytes) {
  const std::string path = sample("0.1.3");
  auto lib = Library::load({.path = path, .ledger = LedgerMode::Off});
  ASSERT_THAT(lib, FailsWith(MessageId::LibraryAbiMismatch));
  EXPECT_EQ(lib.error().kind, ErrorKind::AbiMismatch);
  const std::string& message = lib.error().message;
  EXPECT_THAT(message, HasSubstr(path));
  EXPECT_THAT(message, HasSubstr("has an ABI that differs from the header warden was built with"));
  EXPECT_THAT(message, HasSubstr("wgpuAdapterGetLimits wrote 168 bytes into WGPULimits, which is 152 bytes in the "
                                 "header warden was built with: 16 bytes past its end"));
  EXPECT_THAT(message, HasSubstr("scripts/fetch-dawn.sh"));
  EXPECT_THAT(message, HasSubstr("build warden against this library's own webgpu.h"));
  // A second load in the same process gives the same answer from the first check.
  auto again = Library::load({.path = path, .ledger = LedgerMode::Off});
  ASSERT_THAT(again, FailsWith(MessageId::LibraryAbiMismatch));
  EXPECT_EQ(again.error().message, message);
}

TEST(AbiCheck, OnTheLargerLimitsBuildTheCheckStopsAfterTheAdapterStage) {
  void* handle = ::dlopen(sample("0.1.3").c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr) << ::dlerror();
  Procs procs;
  ASSERT_TRUE(resolve_procs(handle, procs).empty());
  const AbiCheckReport report = run_abi_check(procs);
  EXPECT_FALSE(report.passed());
  std::vector<std::tuple<std::string, size_t, size_t>> structs;
  for (const auto& s : report.structs) structs.emplace_back(s.type, s.declared, s.written);
  // Everything else it wrote has warden's size; no device was asked for with descriptors in a
  // layout the library has just shown it does not share.
  EXPECT_THAT(structs, ElementsAre(std::tuple{"WGPUInstanceCapabilities", 24u, 24u}, std::tuple{"WGPULimits", 152u, 168u},
                                   std::tuple{"WGPUAdapterInfo", 96u, 96u}, std::tuple{"WGPUSupportedFeatures", 16u, 16u}));
  EXPECT_EQ(report.enums.size(), 2u);  // WGPUAdapterInfo's backend and adapter type, as declared
  for (const auto& e : report.enums) EXPECT_TRUE(e.matches()) << e.what;
  EXPECT_EQ(report.differences().size(), 1u);
  EXPECT_THAT(report.summary(), StartsWith("failed: wgpuAdapterGetLimits wrote 168 bytes into WGPULimits"));
}

TEST(AbiCheck, AContextCannotBeMadeOnAMismatchingLibrary) {
  auto context = Context::create(LibraryOptions{.path = sample("0.1.3"), .ledger = LedgerMode::Off});
  EXPECT_THAT(context, FailsWith(MessageId::LibraryAbiMismatch));
}

class CompatibleBuild : public ::testing::TestWithParam<std::string> {};

TEST_P(CompatibleBuild, PassesEveryProbeAndIsNotRefused) {
  auto lib = Library::load({.path = sample(GetParam()), .ledger = LedgerMode::Off});
  ASSERT_TRUE(lib.ok()) << lib.error().message;
  expect_passed_every_probe(lib.value()->abi_check());
  auto context = Context::create(lib.value());
  ASSERT_TRUE(context.ok()) << context.error().message;
}

INSTANTIATE_TEST_SUITE_P(PublishedVersions, CompatibleBuild, ::testing::Values("0.1.4", "0.1.5", "0.1.6"),
                         [](const auto& info) {
                           std::string name = "v" + info.param;
                           for (char& c : name) c = c == '.' ? '_' : c;
                           return name;
                         });

// The words of the differences no published build shows: a struct written short, and an enum
// value that comes back as another.
TEST(AbiCheck, AShortStructAndAnEnumValueThatComesBackChangedAreNamed) {
  AbiCheckReport report;
  report.structs.push_back({"wgpuAdapterGetInfo", "WGPUAdapterInfo", 96, 88});
  report.enums.push_back({"WGPUTextureFormat_RGBA8Unorm through wgpuTextureGetFormat", 18, 19});
  EXPECT_FALSE(report.passed());
  EXPECT_THAT(report.differences(),
              ElementsAre("wgpuAdapterGetInfo wrote only 88 bytes into WGPUAdapterInfo, which is 96 bytes in the "
                          "header warden was built with: 8 bytes short",
                          "WGPUTextureFormat_RGBA8Unorm through wgpuTextureGetFormat: sent or expected as 18 (the "
                          "header warden was built with), came back as 19"));
  auto error = abi_mismatch(report, "/some/libwebgpu.so");
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->id, MessageId::LibraryAbiMismatch);
  EXPECT_THAT(error->message, HasSubstr("came back as 19"));
  EXPECT_FALSE(abi_mismatch(AbiCheckReport{}, "/some/libwebgpu.so").has_value());
}

}  // namespace
}  // namespace warden::gpu
