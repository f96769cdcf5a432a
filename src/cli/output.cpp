#include "cli/output.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

namespace warden::cli {
namespace {

// The first reason output to stdout was lost; later failures add nothing new.
std::optional<std::string> g_out_lost;
bool g_standard_input_closed = false;

void lose_out(std::string reason) {
  if (!g_out_lost) g_out_lost = std::move(reason);
}

}  // namespace

void hold_standard_descriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    // open() returns the lowest free number, which is `fd` because the ones below are open.
    ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
    if (fd == STDIN_FILENO) g_standard_input_closed = true;
    if (fd == STDOUT_FILENO) lose_out("standard output is closed");
  }
  // A closed pipe is then one more failed write, reported and ending with exit code 2 (README).
  std::signal(SIGPIPE, SIG_IGN);
}

bool standard_input_was_closed() { return g_standard_input_closed; }

void write_out(std::string_view text) {
  if (text.empty()) return;
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size()) lose_out(std::strerror(errno));
}

void write_err(std::string_view text) {
  // stderr is unbuffered: each message reaches the terminal whole and at once, or not at all.
  (void)std::fwrite(text.data(), 1, text.size(), stderr);
}

void flush_out() {
  if (std::fflush(stdout) != 0) lose_out(std::strerror(errno));
}

bool output_lost() { return g_out_lost.has_value(); }

std::optional<std::string> finish_out() {
  flush_out();
  if (std::ferror(stdout) != 0) lose_out("write error");
  return g_out_lost;
}

}  // namespace warden::cli
