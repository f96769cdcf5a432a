#include "warden/core/result.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "warden/core/enum_names.h"

namespace warden {

constexpr EnumName<ErrorKind> kErrorKindNames[] = {
    {ErrorKind::InvalidArgument, "invalid argument"},
    {ErrorKind::NotFound, "not found"},
    {ErrorKind::Io, "i/o error"},
    {ErrorKind::LibraryMissing, "webgpu library missing"},
    {ErrorKind::SymbolMissing, "webgpu symbol missing"},
    {ErrorKind::AbiMismatch, "webgpu abi mismatch"},
    {ErrorKind::NoAdapter, "no adapter"},
    {ErrorKind::DeviceFailed, "device failed"},
    {ErrorKind::StaleHandle, "stale handle"},
    {ErrorKind::PoolFull, "pool full"},
    {ErrorKind::MissingUsage, "missing usage"},
    {ErrorKind::Refused, "refused"},
    {ErrorKind::Validation, "validation error"},
    {ErrorKind::Compilation, "compilation error"},
    {ErrorKind::Timeout, "timeout"},
    {ErrorKind::Internal, "internal error"},
};
const char* to_string(ErrorKind kind) { return name_in(kErrorKindNames, kind, "unknown error"); }

namespace detail {

Error* moved_from_error() noexcept {
  // Shared by every moved-from failed Result; only read, never freed. A function-local static,
  // so that it exists however early a Result is moved.
  static Error moved_from{ErrorKind::Internal, MessageId::ResultMovedFrom, "this Result's error was moved to another Result"};
  return &moved_from;
}

Error* new_error(Error&& error) { return new Error(std::move(error)); }

const Error& build_once(Error*& built, const ErrorSource& source, uint64_t payload) {
  // `built` while one caller builds: the others wait for its Error rather than build their own
  // (the source's words are built once per failure, and each reader gets the same Error).
  static Error building{};
  std::atomic_ref<Error*> slot(built);
  Error* kept = slot.load(std::memory_order_acquire);
  if (kept == nullptr && slot.compare_exchange_strong(kept, &building, std::memory_order_acquire)) {
    Error* mine = nullptr;
    try {
      mine = new_error(source.build(source, payload));
    } catch (...) {
      slot.store(nullptr, std::memory_order_release);  // the next reader tries again
      throw;
    }
    slot.store(mine, std::memory_order_release);
    return *mine;
  }
  while (kept == &building) {
    std::this_thread::yield();
    kept = slot.load(std::memory_order_acquire);
  }
  if (kept == nullptr) return build_once(built, source, payload);  // the builder threw
  return *kept;
}

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
