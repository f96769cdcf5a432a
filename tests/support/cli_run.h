// Running the `warden` program as a user would, for the CLI tests.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace warden::testing {

struct CliRun {
  int exit_code = -1;  // -1 when the program did not exit normally (a crash)
  std::string out;
  std::string err;
};

// Runs `warden ARGS` through the shell in `directory` with `environment` (e.g. "A=1 B=2")
// prepended to the command line. Stdout and stderr are captured separately; redirections in
// ARGS (`2>&-`, `>/dev/full`, `< file`) come after the capture's and replace it.
CliRun run_cli(const std::string& args, const std::string& environment = "",
               const std::string& directory = ".");

// `warden ARGS` started without a shell, its standard input a pipe that stays open until
// close_input(): for watching output arrive while the program still waits for more input.
// Stderr is the test's own.
class CliProcess {
 public:
  CliProcess(const std::vector<std::string>& args, const std::string& directory);
  ~CliProcess();
  CliProcess(const CliProcess&) = delete;
  CliProcess& operator=(const CliProcess&) = delete;

  // Reads stdout until it holds `text` (true) or `limit` passed or stdout ended (false).
  bool wait_for_output(std::string_view text, std::chrono::seconds limit);
  bool running();
  void close_input();
  // Closes input, reads stdout to its end, and returns the exit code (-1 for a crash).
  int finish();
  const std::string& out() const { return out_; }

 private:
  bool read_some(int timeout_ms);
  pid_t pid_ = -1;
  int input_ = -1;
  int output_ = -1;
  std::string out_;
  int exit_code_ = -1;
};

}  // namespace warden::testing
