#include "warden/shaders/source_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <system_error>

#include <fmt/format.h>

namespace warden::shaders {

std::optional<size_t> first_invalid_utf8(std::string_view bytes) {
  const auto* s = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t n = bytes.size();
  size_t i = 0;
  while (i < n) {
    unsigned char lead = s[i];
    if (lead < 0x80) {
      ++i;
      continue;
    }
    size_t length = 0;
    // The allowed range of the second byte is narrower for some leads: that is what rules out
    // overlong encodings (E0, F0), surrogates (ED) and code points above U+10FFFF (F4).
    unsigned char second_min = 0x80, second_max = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      if (lead == 0xE0) second_min = 0xA0;
      if (lead == 0xED) second_max = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      if (lead == 0xF0) second_min = 0x90;
      if (lead == 0xF4) second_max = 0x8F;
    } else {
      return i;
    }
    if (i + length > n) return i;
    if (s[i + 1] < second_min || s[i + 1] > second_max) return i;
    for (size_t k = 2; k < length; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) return i;
    }
    i += length;
  }
  return std::nullopt;
}

Result<void> check_utf8(std::string_view path, std::string_view bytes) {
  if (auto offset = first_invalid_utf8(bytes)) {
    return make_error(ErrorKind::InvalidArgument,
                      fmt::format("{}: not UTF-8: invalid byte 0x{:02x} at byte offset {}", path,
                                  static_cast<unsigned char>(bytes[*offset]), *offset));
  }
  return {};
}

Result<std::string> read_source_file(const std::filesystem::path& path) {
  std::error_code ec;
  auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) {
    return make_error(ErrorKind::NotFound, fmt::format("{}: no such file", path.string()));
  }
  if (std::filesystem::is_directory(status)) {
    return make_error(ErrorKind::Io, fmt::format("{}: is a directory, not a shader file", path.string()));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error(ErrorKind::Io, fmt::format("{}: cannot open: {}", path.string(), std::strerror(errno)));
  }
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) {
    return make_error(ErrorKind::Io, fmt::format("{}: read failed", path.string()));
  }
  if (auto valid = check_utf8(path.string(), bytes); !valid) return valid.error();
  return bytes;
}

}  // namespace warden::shaders
