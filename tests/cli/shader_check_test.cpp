// `warden shader check` run as a program on the files in tests/data/shaders: its text and JSON
// outputs and its exit codes (0 clean, 1 a compile error, 2 usage or I/O).
#include <gmock/gmock.h>

#include <string>

#include <nlohmann/json.hpp>

#include "support/cli_run.h"

namespace {

using ::testing::HasSubstr;
using warden::testing::CliRun;

// Runs the CLI in the test data folder, so paths in its output are the short names given.
CliRun warden(const std::string& args) {
  return warden::testing::run_cli(args, "", WARDEN_TEST_DATA_DIR "/shaders");
}

TEST(ShaderCheck, CleanFilesPrintNothingAndExitZero) {
  CliRun run = warden("shader check valid.wgsl empty.wgsl");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "");
}

TEST(ShaderCheck, TextOutputIsPathLineColThenSourceLineAndCaret) {
  CliRun run = warden("shader check missing_semicolon.wgsl");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out,
            "missing_semicolon.wgsl:4:3: error: expected ';' for assignment statement\n"
            "  return total;\n"
            "  ^\n");
}

TEST(ShaderCheck, CaretKeepsTabsAndLinesUpAfterNonAsciiText) {
  CliRun run = warden("shader check tabs_unicode.wgsl");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out,
            "tabs_unicode.wgsl:3:29: error: unresolved value 'undefined_gain'\n"
            "\t/* \xc3\xa9t\xc3\xa9 */ return caf\xc3\xa9 * undefined_gain;\n"
            "\t                        ^\n");
}

TEST(ShaderCheck, OneBrokenFileAmongCleanOnesExitsOne) {
  CliRun run = warden("shader check valid.wgsl type_mismatch.wgsl empty.wgsl");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_THAT(run.out, HasSubstr("type_mismatch.wgsl:2:7: error: cannot initialize 'let' of type 'f32' "
                                 "with value of type 'i32'\n"));
}

TEST(ShaderCheck, JsonOutputIsOneObjectWithEveryFile) {
  CliRun run = warden("shader check --format json type_mismatch.wgsl valid.wgsl");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out,
            "{\"files\":[{\"path\":\"type_mismatch.wgsl\",\"diagnostics\":[{\"severity\":\"error\",\"line\":2,"
            "\"column\":7,\"message\":\"cannot initialize 'let' of type 'f32' with value of type 'i32'\"}]},"
            "{\"path\":\"valid.wgsl\",\"diagnostics\":[]}]}\n");
  auto parsed = nlohmann::json::parse(run.out);
  EXPECT_EQ(parsed["files"].size(), 2u);
}

TEST(ShaderCheck, JsonCleanExitsZero) {
  CliRun run = warden("shader check --format json valid.wgsl");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out, "{\"files\":[{\"path\":\"valid.wgsl\",\"diagnostics\":[]}]}\n");
}

TEST(ShaderCheck, MissingFileExitsTwoNamingIt) {
  CliRun run = warden("shader check valid.wgsl does_not_exist.wgsl");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("does_not_exist.wgsl: no such file"));
}

TEST(ShaderCheck, NotUtf8ExitsTwoNamingTheFileAndOffset) {
  CliRun run = warden("shader check not_utf8.wgsl");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("not_utf8.wgsl: not UTF-8: invalid byte 0xff at byte offset 33"));
  EXPECT_EQ(run.out, "");
}

TEST(ShaderCheck, DirectoryIsAnIoErrorExitTwo) {
  CliRun run = warden("shader check .");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr(".: is a directory"));
}

TEST(ShaderCheck, UsageErrorsExitTwo) {
  EXPECT_EQ(warden("shader check").exit_code, 2);
  EXPECT_EQ(warden("shader check --format xml valid.wgsl").exit_code, 2);
  EXPECT_EQ(warden("shader").exit_code, 2);
}

}  // namespace
