/// @file
/// The words an enum's values are shown as (logs, messages, reports, JSON): one table per enum,
/// an entry per enumerator, read by one lookup. Each layer's `to_string(Enum)` is that lookup
/// over its table; tests/core/enum_names_test.cpp checks that every enumerator has a name.
#pragma once

#include <cstddef>

namespace warden {

/// An enumerator and its name.
template <typename Enum>
struct EnumName {
  /// The enumerator.
  Enum value;
  /// Its name.
  const char* name;
};

/// The name `names` gives `value`, or `unnamed` for a value it does not list (a number cast to
/// the enum).
template <typename Enum, size_t N>
constexpr const char* name_in(const EnumName<Enum> (&names)[N], Enum value, const char* unnamed = "unknown") {
  for (const EnumName<Enum>& entry : names) {
    if (entry.value == value) return entry.name;
  }
  return unnamed;
}

}  // namespace warden
