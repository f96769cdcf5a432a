// The `warden` command under bad conditions: standard streams closed or full, unknown commands
// and options. Whatever happens, it ends with a documented exit code and says what was wrong.
#include <gmock/gmock.h>

#include <string>

#include "support/cli_run.h"
#include "support/test_files.h"

namespace warden {
namespace {

using testing::run_cli;
using ::testing::HasSubstr;

TEST(BadConditions, ErrorPathsWithStandardErrorClosedEndWithTheirExitCode) {
  // The message cannot be written; the exit code still says what happened (was 134: abort).
  EXPECT_EQ(run_cli("shader check /nonexistent.wgsl 2>&-").exit_code, 2);
  EXPECT_EQ(run_cli("info --backend metal 2>&-").exit_code, 2);
  EXPECT_EQ(run_cli("no-such-command 2>&-").exit_code, 2);
}

TEST(BadConditions, InfoIntoAFullDeviceReportsTheLostOutput) {
  auto run = run_cli("info --backend null >/dev/full");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("warden: output was lost: No space left on device"));
}

TEST(BadConditions, InfoWithStandardOutputClosedReportsTheLostOutput) {
  auto run = run_cli("info --backend null >&-");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("warden: output was lost: standard output is closed"));
}

TEST(BadConditions, ManyDiagnosticsIntoAFullDeviceEndWithExitTwo) {
  // More than one stdio buffer of output: the write fails while the command runs (was an abort).
  std::string files;
  for (int i = 0; i < 100; ++i) files += " " + warden::testing::test_data("shaders/missing_semicolon.wgsl");
  auto run = run_cli("shader check" + files + " >/dev/full");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("warden: output was lost: No space left on device"));
}

TEST(BadConditions, ClosedPipeEndsWithExitTwoNotSigpipe) {
  // `warden ... | head`: the reader is gone after its first bytes; warden went on writing and
  // died of SIGPIPE (exit 141 in the shell). pipefail makes the pipeline's status warden's.
  // (JSON is one line until its end, so the reader stops at a byte count.)
  std::string files;
  for (int i = 0; i < 300; ++i) files += " " + warden::testing::test_data("shaders/missing_semicolon.wgsl");
  const std::string into_head = "bash -o pipefail -c '\"$0\" \"$@\" | head -c 64'";
  for (const std::string format : {"text", "json"}) {
    auto run = run_cli("shader check --format " + format + files, into_head);
    EXPECT_EQ(run.exit_code, 2) << format << ": " << run.err;
    EXPECT_THAT(run.err, HasSubstr("warden: output was lost: Broken pipe")) << format;
    EXPECT_EQ(run.out.size(), 64u) << format;
  }
}

TEST(BadConditions, UnknownCommandIsNamedWithTheChoices) {
  auto run = run_cli("frobnicate");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("unknown command 'frobnicate' for 'warden': expected info, smoke, shader, window, demo"));
  auto nested = run_cli("shader frobnicate x.wgsl");
  EXPECT_EQ(nested.exit_code, 2);
  EXPECT_THAT(nested.err, HasSubstr("unknown command 'frobnicate' for 'warden shader': expected check"));
}

TEST(BadConditions, UnknownOptionIsNamedWithItsCommand) {
  auto run = run_cli("info --jsn");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("unknown option '--jsn' for 'warden info'"));
  auto root = run_cli("--verbose info");
  EXPECT_EQ(root.exit_code, 2);
  EXPECT_THAT(root.err, HasSubstr("unknown option '--verbose' for 'warden'"));
}

TEST(BadConditions, MissingCommandSaysWhichAreThere) {
  auto run = run_cli("");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("'warden' needs a command: info, smoke, shader, window, demo"));
  auto shader = run_cli("shader");
  EXPECT_EQ(shader.exit_code, 2);
  EXPECT_THAT(shader.err, HasSubstr("'warden shader' needs a command: check"));
}

TEST(BadConditions, DoubleDashIsOnlyForShaderCheckFiles) {
  auto run = run_cli("info -- --json");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("'--' is for the files of 'warden shader check', not 'warden info'"));
  EXPECT_EQ(run.out, "");
}

}  // namespace
}  // namespace warden
