// Matching the object an Error names (Error::object: kind, index, generation, label) by its
// fields rather than by the words of its message.
#pragma once

#include <gmock/gmock.h>

#include <cstdint>
#include <ostream>
#include <string>

#include "warden/core/result.h"

namespace warden::testing {

namespace detail {
// The Error of a failed Result, or the Error itself; null (with a note) for a success or an
// Error that names no object.
template <typename Arg>
const ErrorObject* named_object(const Arg& arg, ::testing::MatchResultListener* listener) {
  const Error* error = nullptr;
  if constexpr (requires { arg.ok(); }) {
    if (arg.ok()) {
      *listener << "which succeeded";
      return nullptr;
    }
    error = &arg.error();
  } else {
    error = &arg;
  }
  if (!error->object) {
    *listener << "which names no object: " << error->message;
    return nullptr;
  }
  const ErrorObject& o = *error->object;
  *listener << "which names " << o.kind;
  if (o.label) *listener << " labelled \"" << *o.label << "\"";
  if (o.index) *listener << " (index " << *o.index << ", generation " << o.generation.value_or(0) << ")";
  return &o;
}
}  // namespace detail

/// A failed Result, or an Error, about an object of kind `kind` ("buffer", "tile array").
MATCHER_P(NamesKind, kind, std::string(negation ? "does not name a " : "names a ") + std::string(kind)) {
  const ErrorObject* o = detail::named_object(arg, result_listener);
  return o != nullptr && o->kind == kind;
}

/// ... about the object labelled `label`.
MATCHER_P(NamesLabel, label, std::string(negation ? "does not name label \"" : "names label \"") + std::string(label) + "\"") {
  const ErrorObject* o = detail::named_object(arg, result_listener);
  return o != nullptr && o->label && *o->label == label;
}

/// ... about the object of handle (index, generation).
MATCHER_P2(NamesHandle, index, generation,
           std::string(negation ? "does not name" : "names") + " index " + std::to_string(index) + ", generation " +
               std::to_string(generation)) {
  const ErrorObject* o = detail::named_object(arg, result_listener);
  return o != nullptr && o->index == static_cast<uint32_t>(index) && o->generation == static_cast<uint32_t>(generation);
}

/// ... about the object in slot `index`, whatever its generation.
MATCHER_P(NamesIndex, index, std::string(negation ? "does not name index " : "names index ") + std::to_string(index)) {
  const ErrorObject* o = detail::named_object(arg, result_listener);
  return o != nullptr && o->index == static_cast<uint32_t>(index);
}

}  // namespace warden::testing
