#include "warden/core/messages.h"

#include <array>

namespace warden {

namespace {

#define WARDEN_MESSAGE_INFO(layer, id, text) MessageInfo{MessageId::id, #layer, #layer "." #id, text},
constexpr std::array kMessages{WARDEN_MESSAGES(WARDEN_MESSAGE_INFO)};
#undef WARDEN_MESSAGE_INFO

// The table is indexed by the enum's value; this holds because both come from one list in one
// order, and is checked once here rather than trusted.
constexpr bool indexed_by_id() {
  for (size_t i = 0; i < kMessages.size(); ++i) {
    if (static_cast<size_t>(kMessages[i].id) != i) return false;
  }
  return true;
}
static_assert(indexed_by_id());

}  // namespace

std::span<const MessageInfo> all_messages() { return kMessages; }

const MessageInfo& describe(MessageId id) {
  const auto index = static_cast<size_t>(id);
  if (index < kMessages.size()) return kMessages[index];
  // A value cast from a number this build does not list (a newer peer's log, a corrupt field).
  static const MessageInfo unknown{id, "", "unknown", "not a message id of this warden build"};
  return unknown;
}

std::string_view to_string(MessageId id) { return describe(id).name; }

}  // namespace warden
