// Result<T>: a value or an Error that names the problem. warden's calls that can fail on bad
// input return one of these instead of throwing or crashing (docs/failure-policy.md).
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace warden {

// What kind of problem an Error reports; callers branch on it, people read the message.
enum class ErrorKind {
  InvalidArgument,   // malformed input: zero size, bad UTF-8, unknown name
  NotFound,          // a file or named thing that does not exist
  Io,                // a file that exists but cannot be read or written
  LibraryMissing,    // no WebGPU implementation could be loaded
  SymbolMissing,     // the library lacks an entry point warden needs
  NoAdapter,         // no adapter satisfied the request
  DeviceFailed,      // device request rejected or device lost
  StaleHandle,       // null, dead, foreign or wrong-kind handle
  PoolFull,          // a pool has no free slot
  MissingUsage,      // an operation needs a usage the object was not created with
  Refused,           // a rule forbids the call (borrowed object, live views, ...)
  Validation,        // the WebGPU implementation rejected the call
  Compilation,       // a shader did not compile
  Timeout,           // a bounded wait ran out (tools and tests only)
  Internal,          // a bug in warden
};

const char* to_string(ErrorKind kind);

struct Error {
  ErrorKind kind = ErrorKind::Internal;
  std::string message;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Error error) : state_(std::move(error)) {}  // NOLINT

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { assert(ok()); return std::get<0>(state_); }
  const T& value() const& { assert(ok()); return std::get<0>(state_); }
  T&& value() && { assert(ok()); return std::get<0>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const { assert(!ok()); return std::get<1>(state_); }

 private:
  std::variant<T, Error> state_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)) {}  // NOLINT

  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  const Error& error() const { assert(!ok()); return *error_; }

 private:
  std::optional<Error> error_;
};

inline Error make_error(ErrorKind kind, std::string message) { return Error{kind, std::move(message)}; }

}  // namespace warden
