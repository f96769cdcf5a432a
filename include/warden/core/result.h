/// @file
/// Result<T>: a value or an Error that names the problem. warden's calls that can fail on bad
/// input return one of these instead of throwing or crashing (docs/failure-policy.md).
#pragma once

#include <cstdint>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "warden/core/messages.h"

namespace warden {

/// What kind of problem an Error reports; callers branch on it, people read the message.
enum class ErrorKind {
  InvalidArgument,   ///< malformed input: zero size, bad UTF-8, unknown name
  NotFound,          ///< a file or named thing that does not exist
  Io,                ///< a file that exists but cannot be read or written
  LibraryMissing,    ///< no WebGPU implementation could be loaded
  SymbolMissing,     ///< the library lacks an entry point warden needs
  AbiMismatch,       ///< the library's ABI differs from the header warden was built with
  NoAdapter,         ///< no adapter satisfied the request
  DeviceFailed,      ///< device request rejected or device lost
  StaleHandle,       ///< null, dead, foreign or wrong-kind handle
  PoolFull,          ///< a pool has no free slot
  MissingUsage,      ///< an operation needs a usage the object was not created with
  Refused,           ///< a rule forbids the call (borrowed object, live views, ...)
  Validation,        ///< the WebGPU implementation rejected the call
  Compilation,       ///< a shader did not compile
  Timeout,           ///< a bounded wait ran out (tools and tests only)
  Internal,          ///< a bug in warden
};

/// The kind's name as messages print it ("stale handle", ...).
const char* to_string(ErrorKind kind);

/// The object an Error is about, when it is about one: which kind, which handle (slot index and
/// generation) and which label, the facts wgpu-core's typed resource ids carry. Code and tests
/// read them here; the message's words are written from them.
struct ErrorObject {
  /// The kind as messages name it: "buffer", "texture view", "tile array".
  std::string kind{};
  /// The slot index of the object's handle, when the error names a handle.
  std::optional<uint32_t> index{};
  /// The generation of the object's handle, when the error names a handle.
  std::optional<uint32_t> generation{};
  /// The object's label, when the error knows it.
  std::optional<std::string> label{};
};

/// A failure: its kind and its message id, for code to branch on, and a message naming the
/// problem.
struct Error {
  /// What went wrong, in a word code can switch on.
  ErrorKind kind = ErrorKind::Internal;
  /// Which of warden's messages this is (core/messages.h); stable across releases, unlike the
  /// words.
  MessageId id = MessageId::Application;
  /// The problem in words: which object, which value, which rule.
  std::string message{};
  /// The object the error is about, as facts; none when it is about no one object.
  std::optional<ErrorObject> object{};
};

struct ErrorSource;

namespace detail {
// A failed Result keeps its Error on the heap, behind one pointer, so that a Result<T> is T and
// a pointer (and one more, where a failure may be deferred: ErrorSource): the success path
// (every resolve) never builds, moves or destroys an Error. These
// stay out of line so that the error branch inlined into callers is one call. Never null: the
// compiler then knows a failed Result has no value to read.
[[gnu::returns_nonnull]] Error* new_error(Error&& error);
[[gnu::returns_nonnull]] Error* copy_error(const Error* error);
void delete_error(Error* error) noexcept;
// What a Result that failed holds after its Error was moved elsewhere: still not ok(), with an
// Internal error that says so (never freed).
[[gnu::returns_nonnull]] Error* moved_from_error() noexcept;
// The Error `source` builds from `payload`, built by the first caller into `built` (null until
// then) and kept there; callers on other threads meanwhile wait for it, so it is built once.
const Error& build_once(Error*& built, const ErrorSource& source, uint64_t payload);
// Reading the value of a failed Result, or the error of a successful one, is a bug in the
// caller. These print the error's kind, id and message (or that there was none) to stderr and
// abort, in every build type: never undefined behaviour, never a garbage object handed on.
[[noreturn, gnu::cold]] void abort_value_of_failure(const Error& error) noexcept;
[[noreturn, gnu::cold]] void abort_error_of_success() noexcept;
}  // namespace detail

/// Builds the Error of a failure whose words are written only when someone reads them: a hot
/// path (Registry::resolve) fails without a call out of line, so a caller's loop keeps its
/// values in registers (docs/adr/0042). `build` gets the 64-bit payload the failure carries.
/// Threads that read one failure's error() at once may each call `build`; one Error is kept.
/// An ErrorSource must outlive every Result that names it: sources are static objects.
struct alignas(8) ErrorSource {
  /// Writes the Error of a failure that carries `payload`, when it is read.
  Error (*build)(const ErrorSource& source, uint64_t payload);
  uint32_t context = 0;  ///< for `build`: which of its owners the failure came from
  uint32_t detail = 0;   ///< for `build`: a second number of its own (a kind, say)
};

namespace detail {
// A Result's error word holds an Error* (owned), or an ErrorSource* with this bit set, whose
// Error is built on first read into a word of its own. Sources are 8-aligned, so the bit is free.
inline constexpr uintptr_t kDeferredBit = 1;
inline bool is_deferred(const Error* error) { return (reinterpret_cast<uintptr_t>(error) & kDeferredBit) != 0; }
}  // namespace detail

template <typename T>
/// A T or an Error; returned by every warden call that can fail on bad input.
class [[nodiscard]] Result {
  // Only a Result whose value is one trivially copied word can carry a deferred failure.
  static constexpr bool kCanDefer = std::is_trivially_copyable_v<T> && sizeof(T) == sizeof(uint64_t);

 public:
  /// A success holding `value`.
  Result(T value) : error_(nullptr) { ::new (static_cast<void*>(&value_)) T(std::move(value)); }  // NOLINT: implicit by design
  /// A failure holding `error`.
  Result(Error error) : error_(detail::new_error(std::move(error))) {}  // NOLINT
  /// A failure whose Error `source` builds from `payload` when it is first read (ErrorSource).
  /// Nothing is called here: the whole failure is three stores.
  Result(const ErrorSource& source, uint64_t payload)
    requires kCanDefer
      : payload_(payload),
        error_(reinterpret_cast<Error*>(reinterpret_cast<uintptr_t>(&source) | detail::kDeferredBit)),
        built_(nullptr) {}

  /// Copies and moves keep the value or the error; a moved-from failure stays a failure.
  ///@{
  Result(const Result& other)
    requires std::is_copy_constructible_v<T>
      : error_(nullptr) {
    if (other.ok()) {
      ::new (static_cast<void*>(&value_)) T(other.value_);
    } else if (other.is_deferred()) {
      // The copy builds its own Error when read: other's may be being built on another thread.
      payload_ = other.payload_;
      error_ = other.error_;
      set_unbuilt();
    } else {
      error_ = detail::copy_error(other.error_);
    }
  }
  Result(Result&& other) noexcept(std::is_nothrow_move_constructible_v<T>)
    requires std::is_move_constructible_v<T>
      : error_(nullptr) {
    if (other.ok()) {
      ::new (static_cast<void*>(&value_)) T(std::move(other.value_));
    } else {
      take_failure(other);
    }
  }
  Result& operator=(const Result& other)
    requires std::is_copy_constructible_v<T>
  {
    if (this != &other) {
      Result copy(other);
      *this = std::move(copy);
    }
    return *this;
  }
  Result& operator=(Result&& other) noexcept(std::is_nothrow_move_constructible_v<T>)
    requires std::is_move_constructible_v<T>
  {
    if (this != &other) {
      reset();
      if (other.ok()) {
        ::new (static_cast<void*>(&value_)) T(std::move(other.value_));
        error_ = nullptr;
      } else {
        take_failure(other);
      }
    }
    return *this;
  }
  ///@}
  ~Result() { reset(); }

  /// True when the Result holds a value.
  bool ok() const { return error_ == nullptr; }
  /// The same as ok().
  explicit operator bool() const { return ok(); }

  /// The value. On a failure the program stops: the error's kind, id and message go to stderr,
  /// then std::abort() (in every build type). Check ok() first. `*` and value() take the same
  /// four forms, so `*make()` moves a move-only value (a unique_ptr) out of a temporary Result
  /// as `make().value()` does.
  ///@{
  T& value() & { require_value(); return value_; }
  const T& value() const& { require_value(); return value_; }
  T&& value() && { require_value(); return std::move(value_); }
  const T&& value() const&& { require_value(); return std::move(value_); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  const T&& operator*() const&& { return std::move(*this).value(); }
  ///@}

  /// The error. On a success the program stops (stderr, then std::abort()). A deferred failure
  /// (ErrorSource) is built here and kept; like every const call, this may run on several
  /// threads at once (they read one Error).
  const Error& error() const {
    if (error_ == nullptr) [[unlikely]] detail::abort_error_of_success();
    if (is_deferred()) [[unlikely]] return built_error();
    return *error_;
  }

 private:
  // One predictable branch on the hot path; the failure is out of line.
  void require_value() const {
    if (error_ != nullptr) [[unlikely]] detail::abort_value_of_failure(error());
  }
  // Leaves neither a value nor an error behind; the caller sets error_ next. A deferred failure
  // owns nothing: the test is inline so that a failure made and dropped in one place (a
  // resolve in a loop) calls nothing.
  void reset() noexcept {
    if (error_ == nullptr) [[likely]] {
      value_.~T();
    } else if (!is_deferred()) {
      detail::delete_error(error_);
    } else {
      delete_built();
    }
  }
  // `other` failed: its failure moves here, and it is left failed (moved from).
  void take_failure(Result& other) noexcept {
    if (other.is_deferred()) {
      payload_ = other.payload_;
      if constexpr (kCanDefer) built_ = std::exchange(other.built_, nullptr);
    }
    error_ = std::exchange(other.error_, detail::moved_from_error());
  }
  bool is_deferred() const {
    if constexpr (kCanDefer) {
      return detail::is_deferred(error_);
    } else {
      return false;
    }
  }
  // A deferred failure's Error, built by the first read into built_, never into error_, which
  // ok() reads plainly: const reads may run on several threads at once (docs/threads.md).
  [[gnu::cold]] const Error& built_error() const {
    if constexpr (kCanDefer) {
      const auto* source =
          reinterpret_cast<const ErrorSource*>(reinterpret_cast<uintptr_t>(error_) & ~detail::kDeferredBit);
      return detail::build_once(built_, *source, payload_);
    } else {
      return *error_;  // never deferred
    }
  }
  void set_unbuilt() {
    if constexpr (kCanDefer) built_ = nullptr;
  }
  // Destruction and assignment are not const reads: no other thread reads this Result then.
  void delete_built() noexcept {
    if constexpr (kCanDefer) {
      if (built_ != nullptr) detail::delete_error(built_);
    }
  }

  // No word of its own where the value cannot defer (a word that stays empty).
  struct NoBuiltError {};

  union {
    T value_;            // alive exactly when error_ is null
    uint64_t payload_;   // a deferred failure's payload (ErrorSource); only where kCanDefer
  };
  // Owned Error; or a deferred failure's ErrorSource, tagged; null on success. Set only by
  // construction and assignment: ok() and every const read see it unchanged.
  Error* error_;
  // A deferred failure's Error once read (owned); null before. Meaningless unless error_ is
  // deferred: a success never writes it. Mutable: the first (const) read of error() builds it.
  [[no_unique_address]] mutable std::conditional_t<kCanDefer, Error*, NoBuiltError> built_;
};

template <>
/// Success or an Error, for calls that return nothing.
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  /// A failure holding `error`.
  Result(Error error) : error_(detail::new_error(std::move(error))) {}  // NOLINT
  /// Copies and moves keep the error; a moved-from failure stays a failure.
  ///@{
  Result(const Result& other) : error_(other.ok() ? nullptr : detail::copy_error(other.error_)) {}
  Result(Result&& other) noexcept
      : error_(other.ok() ? nullptr : std::exchange(other.error_, detail::moved_from_error())) {}
  Result& operator=(const Result& other) {
    if (this != &other) {
      Result copy(other);
      *this = std::move(copy);
    }
    return *this;
  }
  Result& operator=(Result&& other) noexcept {
    if (this != &other) {
      if (error_ != nullptr) detail::delete_error(error_);
      error_ = other.ok() ? nullptr : std::exchange(other.error_, detail::moved_from_error());
    }
    return *this;
  }
  ///@}
  ~Result() {
    if (error_ != nullptr) [[unlikely]] detail::delete_error(error_);
  }

  /// True on success.
  bool ok() const { return error_ == nullptr; }
  /// The same as ok().
  explicit operator bool() const { return ok(); }
  /// The error. On a success the program stops (stderr, then std::abort()).
  const Error& error() const {
    if (error_ == nullptr) [[unlikely]] detail::abort_error_of_success();
    return *error_;
  }

 private:
  Error* error_ = nullptr;  // owned; null on success
};

/// An Error of `kind`, message `id` and `message`.
inline Error make_error(ErrorKind kind, MessageId id, std::string message) {
  return Error{kind, id, std::move(message), std::nullopt};
}

/// An Error of `kind` and message `id` about `object`, with `message` written from its facts.
inline Error make_error(ErrorKind kind, MessageId id, ErrorObject object, std::string message) {
  return Error{kind, id, std::move(message), std::move(object)};
}

// Inside warden every error has an id of its own, so the library's build hides the form
// without one: an error made without an id does not compile there.
#ifndef WARDEN_LIBRARY_SOURCE
/// An Error of `kind` with `message`, for applications (its id is MessageId::Application):
/// what a fetcher or an upload callback hands back to warden.
inline Error make_error(ErrorKind kind, std::string message) {
  return Error{kind, MessageId::Application, std::move(message), std::nullopt};
}
#endif

}  // namespace warden
