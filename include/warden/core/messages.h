/// @file
/// Every message warden emits has a stable id: a MessageId.
///
/// An Error and a Diagnostic carry a MessageId beside their text. The text says what happened
/// to this object, with its label and values, and may be reworded in any release; the id is
/// the contract: code and tests match ids, logs can be filtered on them. docs/messages.md is
/// printed from the lists (`warden messages`), and a test fails when the two differ.
///
/// Each layer states its own messages beside itself, in `include/warden/<layer>/messages.h`, as
/// X(layer, Id, number, "what the message means"); core's are below. This header gathers the
/// library's lists into the one MessageId type that an Error holds, and nothing else of those
/// layers (scripts/check-layers.sh allows core exactly these includes). The programs built on
/// the library (the demo, the smoke job, the `warden` tool) list theirs in their own folders,
/// outside the installed headers, as MessageId values of their own layers.
///
/// A message's value is its layer's number (MessageLayer) in the high byte and its number in
/// its layer's list in the low byte. Values are never renumbered: a new message takes its
/// layer's next unused number, and one that goes away leaves its number unused;
/// tests/data/message_values.txt records every value, and a test fails when one moves.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "warden/debugdraw/messages.h"
#include "warden/device/messages.h"
#include "warden/engine/messages.h"
#include "warden/gpu/messages.h"
#include "warden/pipelines/messages.h"
#include "warden/present/messages.h"
#include "warden/resources/messages.h"
#include "warden/shaders/messages.h"
#include "warden/tiles/messages.h"

// clang-format off
#define WARDEN_MESSAGES_CORE(X) \
  X(core, Application, 0, "an error made by the application (make_error without an id), carried through warden") \
  X(core, ResultMovedFrom, 1, "a failed Result whose error was moved to another Result was read") \
  X(core, WrongThread, 2, "a frame-thread call was made from another thread (checked in debug and test builds), or a call only the frame thread can carry out on a device that takes calls on one thread")
// clang-format on

/// The library's messages, layer by layer, bottom up.
#define WARDEN_MESSAGES(X)                                                             \
  WARDEN_MESSAGES_CORE(X) WARDEN_MESSAGES_GPU(X) WARDEN_MESSAGES_DEVICE(X)             \
  WARDEN_MESSAGES_RESOURCES(X) WARDEN_MESSAGES_SHADERS(X) WARDEN_MESSAGES_PIPELINES(X) \
  WARDEN_MESSAGES_PRESENT(X) WARDEN_MESSAGES_TILES(X) WARDEN_MESSAGES_DEBUGDRAW(X)     \
  WARDEN_MESSAGES_ENGINE(X)

namespace warden {

/// Each layer's number, the high byte of its messages' values. Numbered once, never changed.
/// The programs built on the library are numbered here too, so that their values never meet
/// the library's; their messages are theirs.
enum class MessageLayer : uint8_t {
  core = 0,
  gpu = 1,
  device = 2,
  resources = 3,
  shaders = 4,
  pipelines = 5,
  present = 6,
  tiles = 7,
  debugdraw = 8,
  engine = 9,
  demo = 10,
  app = 11,
  cli = 12,
};

/// The value of message `number` of `layer`. A number beyond one byte does not compile.
consteval uint16_t message_value(MessageLayer layer, unsigned number) {
  if (number > 0xff) throw "a layer's message number must fit in one byte";
  return static_cast<uint16_t>((static_cast<unsigned>(layer) << 8) | number);
}

/// The stable id of one message warden emits (see the file comment). The zero value is
/// core.Application.
enum class MessageId : uint16_t {
#define WARDEN_MESSAGE_ENUMERATOR(layer, id, number, text) id = message_value(MessageLayer::layer, number),
  WARDEN_MESSAGES(WARDEN_MESSAGE_ENUMERATOR)
#undef WARDEN_MESSAGE_ENUMERATOR
};

/// The layer whose list states `id`.
constexpr MessageLayer layer_of(MessageId id) { return static_cast<MessageLayer>(static_cast<uint16_t>(id) >> 8); }

/// One entry of a list.
struct MessageInfo {
  /// The id.
  MessageId id{};
  /// The layer that emits it: "core", "gpu", "resources", ...
  std::string_view layer{};
  /// The stable name logs and filters use: "<layer>.<Id>", e.g. "resources.HandleDestroyed".
  std::string_view name{};
  /// What the message means, in one sentence.
  std::string_view text{};
};

/// The library's list, in value order (layer by layer, bottom up).
std::span<const MessageInfo> all_messages();
/// The library's entry of `id`; for a value the library does not list (a program's message, or
/// a number cast from elsewhere), an entry named "unknown".
const MessageInfo& describe(MessageId id);
/// The stable name of `id` ("<layer>.<Id>").
std::string_view to_string(MessageId id);
/// The layer's name ("resources"); "unknown" for a number no layer has.
std::string_view to_string(MessageLayer layer);
/// The Diagnostics category of `id`'s layer: "gfx.<layer>" for the library's layers
/// ("gfx.resources"), the layer's name for a program's ("demo").
std::string_view category_of(MessageId id);

}  // namespace warden

/// For a program's list: X(layer, Id, number, text) as a MessageId constant of a struct
/// (demo/messages.h shows the shape).
#define WARDEN_MESSAGE_CONSTANT(layer, id, number, text) \
  static constexpr ::warden::MessageId id{::warden::message_value(::warden::MessageLayer::layer, number)};
/// For a program's list: X(layer, Id, number, text) as a MessageInfo.
#define WARDEN_MESSAGE_INFO(layer, id, number, text) \
  ::warden::MessageInfo{::warden::MessageId{::warden::message_value(::warden::MessageLayer::layer, number)}, #layer, #layer "." #id, text},
