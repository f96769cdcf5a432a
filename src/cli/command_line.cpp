#include <algorithm>

#include "cli/commands.h"

namespace warden::cli {

CommandLine split_command_line(int argc, const char* const* argv) {
  CommandLine line;
  std::vector<std::string> all(argv + std::min(argc, 1), argv + argc);
  auto mark = std::find(all.begin(), all.end(), std::string("--"));
  line.options.assign(all.begin(), mark);
  if (mark != all.end()) {
    line.has_double_dash = true;
    line.operands.assign(mark + 1, all.end());
  }
  return line;
}

}  // namespace warden::cli
