// Reading shader source from disk: bytes that are not UTF-8 never reach the compiler.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "warden/core/result.h"

namespace warden::shaders {

// The byte offset of the first byte that does not belong to a well-formed UTF-8 sequence
// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF), or nullopt.
std::optional<size_t> first_invalid_utf8(std::string_view bytes);

// InvalidArgument naming `path` and the offset when `bytes` is not UTF-8.
Result<void> check_utf8(std::string_view path, std::string_view bytes);

// The whole file: NotFound when it does not exist, Io when it cannot be read (or is a
// directory), InvalidArgument when it is not UTF-8. Every message names the file.
Result<std::string> read_source_file(const std::filesystem::path& path);

}  // namespace warden::shaders
