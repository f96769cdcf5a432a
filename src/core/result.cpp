#include "warden/core/result.h"

#include <cstdio>
#include <cstdlib>

namespace warden {

const char* to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::InvalidArgument: return "invalid argument";
    case ErrorKind::NotFound: return "not found";
    case ErrorKind::Io: return "i/o error";
    case ErrorKind::LibraryMissing: return "webgpu library missing";
    case ErrorKind::SymbolMissing: return "webgpu symbol missing";
    case ErrorKind::NoAdapter: return "no adapter";
    case ErrorKind::DeviceFailed: return "device failed";
    case ErrorKind::StaleHandle: return "stale handle";
    case ErrorKind::PoolFull: return "pool full";
    case ErrorKind::MissingUsage: return "missing usage";
    case ErrorKind::Refused: return "refused";
    case ErrorKind::Validation: return "validation error";
    case ErrorKind::Compilation: return "compilation error";
    case ErrorKind::Timeout: return "timeout";
    case ErrorKind::Internal: return "internal error";
  }
  return "unknown error";
}

namespace detail {

Error* moved_from_error() noexcept {
  // Shared by every moved-from failed Result; only read, never freed. A function-local static,
  // so that it exists however early a Result is moved.
  static Error moved_from{ErrorKind::Internal, MessageId::ResultMovedFrom, "this Result's error was moved to another Result"};
  return &moved_from;
}

Error* new_error(Error&& error) { return new Error(std::move(error)); }

Error* copy_error(const Error* error) {
  if (error == moved_from_error()) return moved_from_error();
  return new Error(*error);
}

void delete_error(Error* error) noexcept {
  if (error != moved_from_error()) delete error;
}

void abort_value_of_failure(const Error& error) noexcept {
  const std::string_view id = to_string(error.id);
  std::fprintf(stderr, "warden: the value of a failed Result was read: %s (%.*s): %s\n", to_string(error.kind),
               static_cast<int>(id.size()), id.data(), error.message.c_str());
  std::fflush(stderr);
  std::abort();
}

void abort_error_of_success() noexcept {
  std::fputs("warden: the error of a successful Result was read: it holds no error\n", stderr);
  std::fflush(stderr);
  std::abort();
}

}  // namespace detail

}  // namespace warden
