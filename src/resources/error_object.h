// The object a registry error is about (Error::object), and the words the messages make of it.
#pragma once

#include <string>

#include <fmt/format.h>

#include "warden/core/result.h"
#include "warden/core/handle.h"

namespace warden::resources {

/// The kind, index and generation of `handle`, and the label its slot holds.
template <typename Tag>
ErrorObject object_of(Handle<Tag> handle, std::string label) {
  return ErrorObject{to_string(Tag::kind), handle.index(), handle.generation(), std::move(label)};
}

/// `buffer "vertices" (index 3, generation 2)`: how a message names the object.
inline std::string describe(const ErrorObject& object) {
  return fmt::format("{} \"{}\" (index {}, generation {})", object.kind, object.label.value_or(""),
                     object.index.value_or(0), object.generation.value_or(0));
}

/// `error`, about `object` unless it already names one (a lookup's own stale handle, say).
inline Error about(Error error, const ErrorObject& object) {
  if (!error.object) error.object = object;
  return error;
}

}  // namespace warden::resources
