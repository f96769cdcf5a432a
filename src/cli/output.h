// Writing the command's output without exceptions. fmt::print throws when a write fails (stderr
// closed, a full disk); nothing in the command may die of that, so every write goes through
// here: a failed write to stdout is remembered and decides the exit code, one to stderr is
// dropped (there is nowhere left to say so).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

namespace warden::cli {

// Call first in main(): a standard descriptor (0, 1, 2) that is closed is held open on
// /dev/null, so no file or device the program opens later can take its number and receive the
// command's output. A stdout that was closed still counts as a failed write, and so does a
// write to a pipe whose reader is gone (`warden ... | head -1`): it fails with EPIPE instead of
// killing the program with SIGPIPE.
void hold_standard_descriptors();

// True when standard input was closed at start: what reads from it now is /dev/null, which is
// not what the user gave.
bool standard_input_was_closed();

void write_out(std::string_view text);
void write_err(std::string_view text);

template <typename... Args>
void print_out(fmt::format_string<Args...> format, Args&&... args) {
  write_out(fmt::format(format, std::forward<Args>(args)...));
}

template <typename... Args>
void print_err(fmt::format_string<Args...> format, Args&&... args) {
  write_err(fmt::format(format, std::forward<Args>(args)...));
}

// Pushes what was written to stdout out to the file now (so a slow or killed run keeps what
// is already done).
void flush_out();

// True once a write to stdout failed: what follows cannot arrive either.
bool output_lost();

// Flushes stdout and says why, when any output was lost (nullopt when all of it arrived).
std::optional<std::string> finish_out();

}  // namespace warden::cli
