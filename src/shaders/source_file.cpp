#include "warden/shaders/source_file.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace warden::shaders {
namespace {

// The UTF-8 sequence length a lead byte announces, 0 for a byte that cannot start one.
size_t sequence_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 0;
}

// The length of `bytes` without a multi-byte sequence cut off at its end, which the next read
// may complete. Whether what is kept is valid is first_invalid_utf8's question.
size_t without_cut_sequence(std::string_view bytes) {
  const size_t n = bytes.size();
  for (size_t back = 1; back <= 3 && back <= n; ++back) {
    auto byte = static_cast<unsigned char>(bytes[n - back]);
    if ((byte & 0xC0) == 0x80) continue;  // a continuation byte: the lead is further back
    size_t length = sequence_length(byte);
    return length > back ? n - back : n;
  }
  return n;
}

Error utf8_error(std::string_view name, std::string_view bytes, size_t offset) {
  return make_error(ErrorKind::InvalidArgument, MessageId::SourceNotUtf8,
                    fmt::format("{}: not UTF-8: invalid byte 0x{:02x} at byte offset {}", name,
                                static_cast<unsigned char>(bytes[offset]), offset));
}

Error open_error(std::string_view name, int error_number) {
  switch (error_number) {
    case ENOENT:
      return make_error(ErrorKind::NotFound, MessageId::SourceFileNotFound, fmt::format("{}: no such file", name));
    case ELOOP:
      return make_error(ErrorKind::Io, MessageId::SourceSymlinkLoop,
                        fmt::format("{}: symbolic link loop (too many levels of symbolic links)", name));
    default:
      return make_error(ErrorKind::Io, MessageId::SourceCannotOpen,
                        fmt::format("{}: cannot open: {}", name, std::strerror(error_number)));
  }
}

Result<void> require_regular_file(std::string_view name, mode_t mode) {
  if (S_ISREG(mode)) return {};
  if (S_ISDIR(mode)) {
    return make_error(ErrorKind::Io, MessageId::SourceIsDirectory,
                      fmt::format("{}: is a directory, not a shader file", name));
  }
  const char* what = S_ISFIFO(mode)   ? "a FIFO (named pipe)"
                     : S_ISCHR(mode)  ? "a character device"
                     : S_ISBLK(mode)  ? "a block device"
                     : S_ISSOCK(mode) ? "a socket"
                                      : "not a file";
  return make_error(ErrorKind::Io, MessageId::SourceNotRegularFile,
                    fmt::format("{}: is {}, not a regular file (give it as standard input, '-', to read it)", name,
                                what));
}

Error too_large(std::string_view name, uint64_t max_bytes) {
  return make_error(ErrorKind::Refused, MessageId::SourceTooLarge,
                    fmt::format("{}: larger than the limit of {} bytes", name, max_bytes));
}

// Waits until a descriptor someone left non-blocking has data (standard input may be one).
bool wait_readable(int fd) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, -1) >= 0 || errno == EINTR;
}

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::optional<size_t> first_invalid_utf8(std::string_view bytes) {
  const auto* s = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t n = bytes.size();
  size_t i = 0;
  while (i < n) {
    const size_t length = sequence_length(s[i]);
    if (length == 0) return i;
    if (length == 1) {
      ++i;
      continue;
    }
    // The allowed range of the second byte is narrower for some leads: that is what rules out
    // overlong encodings (E0, F0), surrogates (ED) and code points above U+10FFFF (F4).
    unsigned char second_min = 0x80, second_max = 0xBF;
    if (s[i] == 0xE0) second_min = 0xA0;
    if (s[i] == 0xED) second_max = 0x9F;
    if (s[i] == 0xF0) second_min = 0x90;
    if (s[i] == 0xF4) second_max = 0x8F;
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
  if (auto offset = first_invalid_utf8(bytes)) return utf8_error(path, bytes, *offset);
  return {};
}

Result<SourceText> read_source_stream(int fd, std::string_view name, uint64_t max_bytes) {
  std::string bytes;
  size_t checked = 0;  // bytes[0, checked) is known to be well-formed UTF-8
  char buffer[64 * 1024];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR || ((errno == EAGAIN || errno == EWOULDBLOCK) && wait_readable(fd))) continue;
      return make_error(ErrorKind::Io, MessageId::SourceReadFailed,
                        fmt::format("{}: read failed: {}", name, std::strerror(errno)));
    }
    if (n == 0) break;
    if (bytes.size() + static_cast<size_t>(n) > max_bytes) return too_large(name, max_bytes);
    bytes.append(buffer, static_cast<size_t>(n));
    // Checked as it arrives, so a stream of random bytes is refused at its first bad byte.
    const size_t complete = without_cut_sequence(bytes);
    if (auto bad = first_invalid_utf8(std::string_view(bytes).substr(checked, complete - checked))) {
      return utf8_error(name, bytes, checked + *bad);
    }
    checked = complete;
  }
  // What is left is a sequence cut by the end of the input: invalid.
  if (auto bad = first_invalid_utf8(std::string_view(bytes).substr(checked))) {
    return utf8_error(name, bytes, checked + *bad);
  }

  SourceText source;
  if (std::string_view(bytes).starts_with(kUtf8ByteOrderMark)) {
    bytes.erase(0, kUtf8ByteOrderMark.size());
    source.byte_order_mark_removed = true;
  }
  source.text = std::move(bytes);
  return source;
}

Result<SourceText> read_source(const std::filesystem::path& path, uint64_t max_bytes) {
  const std::string name = path.string();
  // Looked at before opening: opening a FIFO for reading would block until a writer comes.
  struct stat status {};
  if (::stat(name.c_str(), &status) != 0) return open_error(name, errno);
  if (auto regular = require_regular_file(name, status.st_mode); !regular) return regular.error();
  if (static_cast<uint64_t>(status.st_size) > max_bytes) return too_large(name, max_bytes);
  // O_NONBLOCK in case the path was replaced by a FIFO since stat; the descriptor is checked again.
  FileDescriptor file(::open(name.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (file.get() < 0) return open_error(name, errno);
  if (::fstat(file.get(), &status) != 0) return open_error(name, errno);
  if (auto regular = require_regular_file(name, status.st_mode); !regular) return regular.error();
  return read_source_stream(file.get(), name, max_bytes);
}

Result<std::string> read_source_file(const std::filesystem::path& path) {
  auto source = read_source(path);
  if (!source) return source.error();
  return std::move(source->text);
}

}  // namespace warden::shaders
