#include <exception>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/output.h"
#include "warden/version.h"

namespace {

using warden::cli::kExitUsage;
using warden::cli::print_err;

// The innermost command the user named: where an unexpected argument was given.
const CLI::App* innermost_command(const CLI::App& app) {
  const CLI::App* current = &app;
  for (;;) {
    auto parsed = current->get_subcommands();
    if (parsed.empty()) return current;
    current = parsed.front();
  }
}

std::string command_path(const CLI::App* command) {
  std::string path;
  for (const CLI::App* c = command; c != nullptr; c = c->get_parent()) {
    path = c->get_parent() == nullptr ? "warden" + path : " " + c->get_name() + path;
  }
  return path;
}

std::string subcommand_names(const CLI::App& command) {
  std::string names;
  for (const CLI::App* sub : command.get_subcommands([](const CLI::App*) { return true; })) {
    if (!names.empty()) names += ", ";
    names += sub->get_name();
  }
  return names;
}

// CLI11 words an unknown command or option as "The following argument was not expected"
// (or, with a required subcommand, only "A subcommand is required"); say which it was.
std::string explain_unexpected(const CLI::App& app) {
  for (const CLI::App* command = innermost_command(app); command != nullptr; command = command->get_parent()) {
    auto unexpected = command->remaining();
    if (unexpected.empty()) continue;
    const std::string& first = unexpected.front();
    const std::string where = command_path(command);
    if (!first.empty() && first[0] == '-') return "unknown option '" + first + "' for '" + where + "'";
    std::string names = subcommand_names(*command);
    if (!names.empty()) return "unknown command '" + first + "' for '" + where + "': expected " + names;
    return "unexpected argument '" + first + "' for '" + where + "'";
  }
  return "unexpected arguments";
}

// Parses the command line, checks it, then runs the command. CLI11's own messages (help,
// version, errors) go through the exception-free writers too.
int parse_and_run(CLI::App& app, const CLI::App* takes_operands, const warden::cli::CommandLine& line,
                  const warden::cli::CommandRun& run) {
  try {
    // CLI11 takes the arguments last first.
    app.parse(std::vector<std::string>(line.options.rbegin(), line.options.rend()));
  } catch (const CLI::ExtrasError&) {
    print_err("warden: {} (see warden --help)\n", explain_unexpected(app));
    return kExitUsage;
  } catch (const CLI::ParseError& e) {
    std::ostringstream out, err;
    int rc = app.exit(e, out, err);
    warden::cli::write_out(out.str());
    warden::cli::write_err(err.str());
    return rc == 0 ? warden::cli::kExitOk : kExitUsage;
  }
  const CLI::App* command = innermost_command(app);
  if (line.has_double_dash && command != takes_operands) {
    print_err("warden: '--' is for the files of 'warden shader check', not '{}'\n", command_path(command));
    return kExitUsage;
  }
  std::string names = subcommand_names(*command);
  if (!names.empty()) {
    print_err("warden: '{}' needs a command: {} (see {} --help)\n", command_path(command), names,
              command_path(command));
    return kExitUsage;
  }
  return run ? run() : kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  warden::cli::hold_standard_descriptors();
  int exit_code = kExitUsage;
  try {
    auto line = warden::cli::split_command_line(argc, argv);
    CLI::App app{"warden: keeps GPU resources in custody for native WebGPU applications"};
    app.set_version_flag("--version", std::string("warden ") + warden::kVersion);
    warden::cli::CommandRun run;
    warden::cli::add_info_command(app, run);
    warden::cli::add_smoke_command(app, run);
    const CLI::App* shader_check = warden::cli::add_shader_command(app, line.operands, run);
    warden::cli::add_window_command(app, run);
    warden::cli::add_demo_command(app, run);
    warden::cli::add_soak_command(app, run);
    warden::cli::add_messages_command(app, run);
    exit_code = parse_and_run(app, shader_check, line, run);
  } catch (const std::exception& e) {
    print_err("warden: internal error: {}\n", e.what());
    exit_code = kExitUsage;
  }
  if (auto lost = warden::cli::finish_out()) {
    print_err("warden: output was lost: {}\n", *lost);
    if (exit_code == warden::cli::kExitOk || exit_code == warden::cli::kExitFailure) exit_code = kExitUsage;
  }
  return exit_code;
}
