/// @file
/// Reading shader source: only regular files (or a stream the caller opened, such as standard
/// input), never more than a set number of bytes, and bytes that are not UTF-8 never reach the
/// compiler.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "warden/core/result.h"

namespace warden::shaders {

/// Large enough for any hand-written or generated shader seen in practice (the largest of 1,014
/// public files is far below it); small enough that Tint's cost stays bounded: a 2.8 MB shader
/// takes seconds and over a gigabyte inside the compiler (docs/design.md, 'Measured'). Callers may raise it.
inline constexpr uint64_t kDefaultMaxSourceBytes = uint64_t{4} << 20;

/// The UTF-8 byte order mark. WGSL has no place for it (Dawn reports it as an error at 1:1 and
/// stops there); browsers drop it before compiling, and so does warden (docs/shader-check.md).
inline constexpr std::string_view kUtf8ByteOrderMark = "\xEF\xBB\xBF";

/// A source file's text, checked to be UTF-8.
struct SourceText {
  std::string text{};                  ///< UTF-8, without a byte order mark
  /// True when the file began with a byte order mark, which was dropped.
  bool byte_order_mark_removed = false;
};

/// The byte offset of the first byte that does not belong to a well-formed UTF-8 sequence
/// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF), or nullopt.
std::optional<size_t> first_invalid_utf8(std::string_view bytes);

/// InvalidArgument naming `path` and the offset when `bytes` is not UTF-8.
Result<void> check_utf8(std::string_view path, std::string_view bytes);

/// The whole file. Every error names the file:
///   NotFound         it does not exist;
///   Io               it cannot be opened or read, it is not a regular file (a directory, FIFO,
///                    device or socket is refused before it is read, so nothing blocks), or a
///                    symbolic link loop;
///   Refused          it is larger than `max_bytes`;
///   InvalidArgument  it is not UTF-8 (found while reading: a stream of garbage stops at once).
/// A leading UTF-8 byte order mark is removed and reported in the result.
Result<SourceText> read_source(const std::filesystem::path& path, uint64_t max_bytes = kDefaultMaxSourceBytes);

/// The same for an open descriptor (standard input), named `name` in messages; read until end
/// of file. The descriptor is not closed.
Result<SourceText> read_source_stream(int fd, std::string_view name, uint64_t max_bytes = kDefaultMaxSourceBytes);

/// read_source's text alone.
Result<std::string> read_source_file(const std::filesystem::path& path);

}  // namespace warden::shaders
