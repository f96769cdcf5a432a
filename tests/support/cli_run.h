// Running the `warden` program as a user would, for the CLI tests.
#pragma once

#include <string>

namespace warden::testing {

struct CliRun {
  int exit_code = -1;  // -1 when the program did not exit normally (a crash)
  std::string out;
  std::string err;
};

// Runs `warden ARGS` through the shell in `directory` with `environment` (e.g. "A=1 B=2")
// prepended to the command line. Stdout and stderr are captured separately.
CliRun run_cli(const std::string& args, const std::string& environment = "",
               const std::string& directory = ".");

}  // namespace warden::testing
