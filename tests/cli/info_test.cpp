// `warden info` and `warden smoke` run as programs: JSON shape, the missing-library error and
// the backend-selection error, with their exit codes.
#include <gmock/gmock.h>

#include <nlohmann/json.hpp>

#include "support/cli_run.h"
#include "warden/version.h"

namespace warden {
namespace {

using testing::run_cli;
using ::testing::HasSubstr;

TEST(VersionFlag, PrintsTheProjectVersionAndExitsZero) {
  auto run = run_cli("--version");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, ::testing::MatchesRegex("warden [0-9]+\\.[0-9]+\\.[0-9]+\n"));
  EXPECT_EQ(run.out, std::string("warden ") + kVersion + "\n");
}

TEST(InfoCommand, JsonNamesTheChosenAdapterAndTheLibrary) {
  auto run = run_cli("info --backend gl --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto info = nlohmann::json::parse(run.out);
  ASSERT_TRUE(info.is_object());
  EXPECT_EQ(info["backend"], "opengl");
  EXPECT_EQ(info["feature_level"], "compatibility");
  for (const char* key : {"adapter", "adapter_type", "library"}) {
    ASSERT_TRUE(info.contains(key)) << key;
    EXPECT_TRUE(info[key].is_string()) << key;
    EXPECT_FALSE(info[key].get<std::string>().empty()) << key;
  }
  EXPECT_THAT(info["library"].get<std::string>(), HasSubstr("libwebgpu_wrapper.so"));
  EXPECT_GT(info["limits"]["max_texture_dimension_2d"].get<uint64_t>(), 0u);
}

TEST(InfoCommand, SaysWhichTileUploadPathItMeasuredFaster) {
  auto run = run_cli("info --backend gl --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto upload = nlohmann::json::parse(run.out)["tile_upload"];
  ASSERT_TRUE(upload.is_object()) << run.out;
  ASSERT_TRUE(upload.contains("path")) << upload.dump();
  EXPECT_THAT(upload["path"].get<std::string>(), ::testing::AnyOf("ring", "write-texture"));
  EXPECT_GT(upload["ring_gbps"].get<double>(), 0.0);
  EXPECT_GT(upload["write_texture_gbps"].get<double>(), 0.0);
  const bool ring_faster = upload["ring_gbps"].get<double>() > upload["write_texture_gbps"].get<double>();
  EXPECT_EQ(upload["path"], ring_faster ? "ring" : "write-texture");
}

TEST(InfoCommand, NullBackendIsACpuAdapter) {
  auto run = run_cli("info --backend null --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto info = nlohmann::json::parse(run.out);
  EXPECT_EQ(info["backend"], "null");
  EXPECT_EQ(info["adapter_type"], "cpu");
}

TEST(InfoCommand, MissingLibrarySaysWhereItLookedAndHowToFixItWithExitTwo) {
  auto run = run_cli("info --json", "WARDEN_WEBGPU_LIB=/nonexistent/libwebgpu.so");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_THAT(run.err, HasSubstr("no WebGPU library could be loaded"));
  EXPECT_THAT(run.err, HasSubstr("/nonexistent/libwebgpu.so"));
  EXPECT_THAT(run.err, HasSubstr("lib/warden/dawn/"));
  EXPECT_THAT(run.err, HasSubstr("scripts/fetch-dawn.sh"));
  EXPECT_THAT(run.err, HasSubstr("WARDEN_WEBGPU_LIB"));
}

TEST(InfoCommand, LibraryWithoutTheApiNamesTheMissingEntryPoints) {
  auto run = run_cli("info", "WARDEN_WEBGPU_LIB=libz.so.1");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("lacks"));
  EXPECT_THAT(run.err, HasSubstr("wgpuCreateInstance"));
}

// A published build of Dawn's package whose WGPULimits is larger than warden's header
// (tests/gpu/abi_check_test.cpp, docs/adr/0033): refused with words, never a crash (-1).
std::string dawn_sample(const std::string& version) {
  return std::string(WARDEN_DAWN_SAMPLES_DIR) + "/" + version + "/libwebgpu_wrapper.so";
}

TEST(InfoCommand, PrintsTheAbiChecksResult) {
  auto run = run_cli("info --backend null");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("\nABI check     passed (WGPUInstanceCapabilities 24 bytes, WGPULimits 152 bytes, "
                                 "WGPUAdapterInfo 96 bytes, WGPUSupportedFeatures 16 bytes, 18 enum values "
                                 "round-tripped, "));
  auto json = run_cli("info --backend null --json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  auto check = nlohmann::json::parse(json.out)["abi_check"];
  EXPECT_EQ(check["passed"], true);
  EXPECT_EQ(check["structs"].size(), 6u);
  EXPECT_EQ(check["enum_values_round_tripped"], 18);
  EXPECT_GT(check["microseconds"].get<int64_t>(), 0);
}

TEST(InfoCommand, ALibraryOfAnotherAbiIsRefusedWithExitTwoAndWhatDiffers) {
  auto run = run_cli("info --backend null", "WARDEN_WEBGPU_LIB=" + dawn_sample("0.1.3"));
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_THAT(run.err, HasSubstr("has an ABI that differs from the header warden was built with"));
  EXPECT_THAT(run.err, HasSubstr("wgpuAdapterGetLimits wrote 168 bytes into WGPULimits, which is 152 bytes in the "
                                 "header warden was built with: 16 bytes past its end"));
}

TEST(SmokeCommand, ALibraryOfAnotherAbiIsRefusedWithExitTwo) {
  auto run = run_cli("smoke --backend gl", "WARDEN_WEBGPU_LIB=" + dawn_sample("0.1.3"));
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_THAT(run.err, HasSubstr("wgpuAdapterGetLimits wrote 168 bytes into WGPULimits"));
}

TEST(InfoCommand, ABuildOfTheSameAbiIsNotRefused) {
  auto run = run_cli("info --backend null --json", "WARDEN_WEBGPU_LIB=" + dawn_sample("0.1.6"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto info = nlohmann::json::parse(run.out);
  EXPECT_THAT(info["library"].get<std::string>(), HasSubstr("0.1.6"));
  EXPECT_EQ(info["abi_check"]["passed"], true);
}

TEST(InfoCommand, UnsatisfiableBackendListsWhatWasTriedAndWhy) {
  // With no Vulkan driver to find, a Vulkan request fails the same way on every machine.
  auto run = run_cli("info --backend vulkan", "VK_DRIVER_FILES=/nonexistent.json VK_ICD_FILENAMES=/nonexistent.json");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_THAT(run.err, HasSubstr("no adapter satisfies backend 'vulkan'. Tried:\n  vulkan (core): No supported adapters"));
}

TEST(InfoCommand, NoAdapterKeepsDawnsOwnWords) {
  // Dawn answers the request with "No supported adapters"; why (here EGL cannot start) it says
  // only in the instance's log, which warden now keeps beside the answer.
  auto run = run_cli("info --backend gl", "EGL_PLATFORM=bogus");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_THAT(run.err, HasSubstr("opengl (compatibility): No supported adapters (eglInitialize failed with "
                                 "EGL_NOT_INITIALIZED)"));
}

TEST(InfoCommand, UnknownBackendNameIsAUsageError) {
  auto run = run_cli("info --backend metal");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("unknown backend 'metal': expected auto, vulkan, gl, gles or null"));
}

TEST(SmokeCommand, PassesOnGlAndReportsBothHalves) {
  auto run = run_cli("smoke --backend gl");
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("compute doubled 1048576 u32 values, 0 mismatches"));
  EXPECT_THAT(run.out, HasSubstr("-> ok"));
  EXPECT_THAT(run.out, ::testing::Not(HasSubstr("FAILED")));
}

TEST(SmokeCommand, NullBackendIsRefusedBecauseItExecutesNothing) {
  // Null runs no shader: its readbacks cannot match, which says nothing about the code checked.
  auto run = run_cli("smoke --backend null");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("the Null backend executes nothing"));
  EXPECT_THAT(run.out, ::testing::Not(HasSubstr("FAILED")));
}

}  // namespace
}  // namespace warden
