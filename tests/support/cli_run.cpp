#include "support/cli_run.h"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace warden::testing {
namespace {

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

CliRun run_cli(const std::string& args, const std::string& environment, const std::string& directory) {
  static std::atomic<int> counter{0};
  auto err_path = std::filesystem::temp_directory_path() /
                  ("warden_cli_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".err");
  std::string command = "cd '" + directory + "' && " + environment + " '" WARDEN_CLI_PATH "' " + args +
                        " 2>'" + err_path.string() + "'";
  CliRun run;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) run.out.append(buffer, n);
  int status = ::pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.err = slurp(err_path);
  std::filesystem::remove(err_path);
  return run;
}

}  // namespace warden::testing
