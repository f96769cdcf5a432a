#include "support/test_files.h"

#include <unistd.h>

#include <filesystem>
#include <system_error>

namespace warden::testing {
namespace {

std::filesystem::path program_folder() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::path{} : self.parent_path();
}

}  // namespace

std::string test_file(std::string_view built_path) {
  const std::filesystem::path built{built_path};
  const std::filesystem::path folder = program_folder();
  if (!folder.empty() && built.has_filename()) {
    const std::filesystem::path beside = folder / built.filename();
    std::error_code error;
    if (beside != built && std::filesystem::exists(beside, error)) return beside.string();
  }
  return built.string();
}

std::string test_data(std::string_view relative) {
  std::string root = test_file(WARDEN_TEST_DATA_DIR);
  if (!relative.empty()) (root += '/') += relative;
  return root;
}

std::string cli_path() {
#ifdef WARDEN_CLI_PATH
  return test_file(WARDEN_CLI_PATH);
#else
  return test_file("warden");  // the ThreadSanitizer tree builds no program
#endif
}

}  // namespace warden::testing
