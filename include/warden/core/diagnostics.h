/// @file
/// Diagnostics: structured messages the application can read, not only stderr.
///
/// What warden reports without failing a call (a leak, a rebuild, a compiler warning, a tile
/// that could not be loaded) goes through one of these: a severity, the message's stable id
/// (core/messages.h), the dotted category of the id's layer ("gfx.resources", category_of) and
/// its words. Entries are kept in memory up to a bound, so a long-running
/// application that never reads them does not grow without limit; an optional sink sees every
/// entry as it is reported.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "warden/core/messages.h"

namespace warden {

/// How much a diagnostic matters.
enum class Severity : uint8_t { Info, Warning, Error };
/// "info", "warning" or "error".
const char* to_string(Severity severity);

namespace category {
/// The Registry's reports: leaks, stale handles, deferred releases.
inline constexpr std::string_view kResources = "gfx.resources";
}

/// One reported message.
struct Diagnostic {
  /// How much it matters.
  Severity severity = Severity::Info;
  /// The dotted category of the id's layer, such as "gfx.resources" (category_of(id)).
  std::string category{};
  /// Which of warden's messages this is; what filters and tests match.
  MessageId id = MessageId::Application;
  /// The message itself.
  std::string message{};
};

/// A bounded, thread-safe store of Diagnostic entries, with an optional sink (see the file comment).
class Diagnostics {
 public:
  /// Receives every entry as it is reported.
  using Sink = std::function<void(const Diagnostic&)>;
  /// Entries kept when the constructor is not told otherwise.
  static constexpr size_t kDefaultCapacity = 4096;

  /// Keeps at most `capacity` entries; older ones are dropped first.
  explicit Diagnostics(size_t capacity = kDefaultCapacity) : capacity_(capacity) {}

  /// Records one entry, filed under its id's category, and hands it to the sink.
  void report(Severity severity, MessageId id, std::string message);
  /// report() with Severity::Info.
  void info(MessageId id, std::string message) { report(Severity::Info, id, std::move(message)); }
  /// report() with Severity::Warning.
  void warning(MessageId id, std::string message) { report(Severity::Warning, id, std::move(message)); }
  /// report() with Severity::Error.
  void error(MessageId id, std::string message) { report(Severity::Error, id, std::move(message)); }

  /// A copy of what is kept, oldest first.
  std::vector<Diagnostic> entries() const;
  /// Hands over what is kept and empties the store.
  std::vector<Diagnostic> take();
  /// Kept entries matching a category (and, if given, a severity).
  size_t count(std::string_view category) const;
  /// Kept entries of a category and severity.
  size_t count(std::string_view category, Severity severity) const;
  /// Kept entries with message `id`.
  size_t count(MessageId id) const;
  /// Entries dropped because the store was full (the oldest go first).
  uint64_t dropped() const;

  /// Called with every entry, on the reporting thread, outside the store's lock. Inside an
  /// Engine a sink runs where a hook could, so it may call the engine back (stop, force a loss,
  /// poll); it must not destroy the engine.
  void set_sink(Sink sink);

 private:
  template <typename Match>
  size_t count_where(Match match) const;  // kept entries for which match(entry) holds
  mutable std::mutex mutex_;
  // A ring: it grows to capacity_, then each report overwrites the oldest entry, at oldest_, in
  // place (a report costs the same when the store is full as when it is not).
  std::vector<Diagnostic> entries_;
  size_t oldest_ = 0;
  size_t capacity_;
  uint64_t dropped_ = 0;
  Sink sink_;
};

}  // namespace warden
