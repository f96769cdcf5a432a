#include <cstdio>

#include <string>

#include "cli/commands.h"
#include "warden/version.h"

int main(int argc, char** argv) {
  CLI::App app{"warden: keeps GPU resources in custody for native WebGPU applications"};
  app.set_version_flag("--version", std::string("warden ") + warden::kVersion);
  app.require_subcommand(1);
  int exit_code = warden::cli::kExitOk;
  warden::cli::add_info_command(app, exit_code);
  warden::cli::add_smoke_command(app, exit_code);
  warden::cli::add_shader_command(app, exit_code);
  warden::cli::add_demo_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : warden::cli::kExitUsage;
  }
  return exit_code;
}
