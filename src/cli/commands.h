// Each `warden` subcommand registers itself here; main() only wires them together.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "warden/core/result.h"

namespace warden::cli {

// Exit codes shared by every command (docs/shader-check.md, README).
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // the command ran and found a problem
inline constexpr int kExitUsage = 2;    // bad usage, missing file or library, I/O error (output lost too)

// A WebGPU library that cannot be used (none found, entry points missing, an ABI other than
// warden's header) ends every command with kExitUsage, like a missing file.
inline bool library_unusable(ErrorKind kind) {
  return kind == ErrorKind::LibraryMissing || kind == ErrorKind::SymbolMissing || kind == ErrorKind::AbiMismatch;
}

// The command line split at the first "--". What follows it are operands (file names), whatever
// they look like. warden splits it itself because CLI11 2.1 hands a "--" that follows a
// subcommand's first positional to the parent command, which then rejects the rest.
struct CommandLine {
  std::vector<std::string> options;   // before "--", without the program name, in order
  std::vector<std::string> operands;  // after "--"
  bool has_double_dash = false;
};

CommandLine split_command_line(int argc, const char* const* argv);

// The chosen command, ready to run once the whole command line was parsed and checked; it
// returns the exit code.
using CommandRun = std::function<int()>;

// Each sets `run` when the user named its command.
void add_info_command(CLI::App& app, CommandRun& run);
void add_smoke_command(CLI::App& app, CommandRun& run);
void add_demo_command(CLI::App& app, CommandRun& run);
void add_soak_command(CLI::App& app, CommandRun& run);
// `operands`: the files given after "--" (only `shader check` takes any). Returns `shader check`.
const CLI::App* add_shader_command(CLI::App& app, const std::vector<std::string>& operands, CommandRun& run);
void add_window_command(CLI::App& app, CommandRun& run);
void add_messages_command(CLI::App& app, CommandRun& run);

}  // namespace warden::cli
