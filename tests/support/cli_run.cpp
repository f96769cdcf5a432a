#include "support/cli_run.h"
#include "support/test_files.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
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
  std::string command = "cd '" + directory + "' && " + environment + " '" + cli_path() + "' 2>'" +
                        err_path.string() + "' " + args;
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

CliProcess::CliProcess(const std::vector<std::string>& args, const std::string& directory) {
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0) return;
  if (::pipe2(out, O_CLOEXEC) != 0) {
    ::close(in[0]);
    ::close(in[1]);
    return;
  }
  std::vector<std::string> argv_storage{cli_path()};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_ = ::fork();
  if (pid_ == 0) {
    ::dup2(in[0], STDIN_FILENO);
    ::dup2(out[1], STDOUT_FILENO);
    if (::chdir(directory.c_str()) != 0) ::_exit(127);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  input_ = in[1];
  output_ = out[0];
}

CliProcess::~CliProcess() {
  if (pid_ > 0 && running()) ::kill(pid_, SIGKILL);
  finish();
}

bool CliProcess::read_some(int timeout_ms) {
  if (output_ < 0) return false;
  pollfd p{output_, POLLIN, 0};
  if (::poll(&p, 1, timeout_ms) <= 0) return false;
  char buffer[4096];
  ssize_t n = ::read(output_, buffer, sizeof buffer);
  if (n <= 0) {
    ::close(output_);
    output_ = -1;
    return false;
  }
  out_.append(buffer, static_cast<size_t>(n));
  return true;
}

bool CliProcess::wait_for_output(std::string_view text, std::chrono::seconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (out_.find(text) == std::string::npos) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0 || output_ < 0) return false;
    read_some(static_cast<int>(left.count()));
  }
  return true;
}

bool CliProcess::running() {
  if (pid_ <= 0) return false;
  int status = 0;
  pid_t done = ::waitpid(pid_, &status, WNOHANG);
  if (done == 0) return true;
  exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  pid_ = -1;
  return false;
}

void CliProcess::close_input() {
  if (input_ >= 0) ::close(input_);
  input_ = -1;
}

int CliProcess::finish() {
  close_input();
  while (output_ >= 0) read_some(-1);
  if (pid_ > 0) {
    int status = 0;
    ::waitpid(pid_, &status, 0);
    exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    pid_ = -1;
  }
  return exit_code_;
}

}  // namespace warden::testing
