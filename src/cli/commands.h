// Each `warden` subcommand registers itself here; main() only wires them together.
#pragma once

#include <CLI/CLI.hpp>

namespace warden::cli {

// Exit codes shared by every command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // the command ran and found a problem
inline constexpr int kExitUsage = 2;    // bad usage, missing file or library, I/O error

// A command stores its result in `exit_code` when its callback runs.
void add_info_command(CLI::App& app, int& exit_code);
void add_smoke_command(CLI::App& app, int& exit_code);
void add_shader_command(CLI::App& app, int& exit_code);
void add_demo_command(CLI::App& app, int& exit_code);

}  // namespace warden::cli
