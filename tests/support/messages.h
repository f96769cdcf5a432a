// Matching warden's errors by message id (core/messages.h) rather than by their words.
#pragma once

#include <gmock/gmock.h>

#include <ostream>
#include <string>

#include "warden/core/messages.h"
#include "warden/core/result.h"

namespace warden {
/// gtest prints a MessageId by its stable name.
inline void PrintTo(MessageId id, std::ostream* os) { *os << to_string(id); }
}  // namespace warden

namespace warden::testing {

/// A failed Result, or an Error, whose message id is `id`; a mismatch prints the id and words
/// it had. `EXPECT_THAT(registry.resolve(h), FailsWith(MessageId::HandleDestroyed))`.
MATCHER_P(FailsWith, id, std::string(negation ? "does not fail with " : "fails with ") + std::string(to_string(id))) {
  const Error* error = nullptr;
  if constexpr (requires { arg.ok(); }) {
    if (arg.ok()) {
      *result_listener << "which succeeded";
      return false;
    }
    error = &arg.error();
  } else {
    error = &arg;
  }
  *result_listener << "which is " << to_string(error->id) << " (" << to_string(error->kind) << "): " << error->message;
  return error->id == id;
}

}  // namespace warden::testing
