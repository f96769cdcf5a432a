#include "support/dawn_without.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace warden::testing {

std::string dawn_without(const std::string& library, const std::vector<std::string>& hidden,
                         const std::string& file_name) {
  std::ifstream in(library, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const std::string& name : hidden) {
    // A symbol's name in the dynamic string table stands between two NULs; the same length keeps
    // every offset in the file as it was.
    const std::string exported = std::string(1, '\0') + name + '\0';
    size_t renamed = 0;
    for (size_t at = bytes.find(exported); at != std::string::npos; at = bytes.find(exported, at + 1)) {
      bytes[at + 1] = 'x';
      ++renamed;
    }
    EXPECT_GT(renamed, 0u) << name << " is not in " << library;
  }
  auto dir = std::filesystem::path(::testing::TempDir()) / "warden-dawn-without";
  std::filesystem::create_directories(dir);
  std::string path = (dir / file_name).string();
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path;
}

}  // namespace warden::testing
