// Every message warden emits, by a stable id, in one list.
//
// An Error and a Diagnostic carry a MessageId beside their text. The text says what happened
// to this object, with its label and values, and may be reworded in any release; the id is
// the contract: code and tests match ids, logs can be filtered on them. The list below is the
// only place an id is declared; docs/messages.md is printed from it (`warden messages`), and a
// test fails when the two differ.
//
// One X-macro per layer, so that each layer's messages stay together. Each entry is
// X(layer, Id, "what the message means"). Ids are never renumbered in meaning: a message that
// goes away leaves its id unused rather than giving it to another message.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

// clang-format off
#define WARDEN_MESSAGES_CORE(X) \
  X(core, Application, "an error made by the application (make_error without an id), carried through warden") \
  X(core, ResultMovedFrom, "a failed Result whose error was moved to another Result was read")

#define WARDEN_MESSAGES_GPU(X) \
  X(gpu, DawnLog, "a line of the WebGPU implementation's own log (a backend it could not load, a warning)")
#define WARDEN_MESSAGES_DEVICE(X) \
  X(device, DeviceStarting, "a new device generation started: the controller asks for an adapter and a device") \
  X(device, DeviceReady, "a device generation is ready: its resources are prepared and it is shown") \
  X(device, DeviceLost, "the device of the current generation was lost (the API's words follow) or hung") \
  X(device, DeviceFailed, "a device generation failed: no device could be made or prepared, or the rebuild policy gave up") \
  X(device, DeviceStopped, "the controller was stopped or shut down; no device is shown until a retry") \
  X(device, DeviceRetired, "a generation's device was retired: destroyed, released (it presented), or kept for the next engine")
#define WARDEN_MESSAGES_RESOURCES(X)
#define WARDEN_MESSAGES_SHADERS(X)
#define WARDEN_MESSAGES_PIPELINES(X)
#define WARDEN_MESSAGES_PRESENT(X)
#define WARDEN_MESSAGES_TILES(X)
#define WARDEN_MESSAGES_DEBUGDRAW(X)
#define WARDEN_MESSAGES_ENGINE(X)
#define WARDEN_MESSAGES_DEMO(X)
#define WARDEN_MESSAGES_APP(X)
#define WARDEN_MESSAGES_CLI(X)
// clang-format on

/// Every message, layer by layer, bottom up.
#define WARDEN_MESSAGES(X)                                                                      \
  WARDEN_MESSAGES_CORE(X) WARDEN_MESSAGES_GPU(X) WARDEN_MESSAGES_DEVICE(X)                      \
  WARDEN_MESSAGES_RESOURCES(X) WARDEN_MESSAGES_SHADERS(X) WARDEN_MESSAGES_PIPELINES(X)          \
  WARDEN_MESSAGES_PRESENT(X) WARDEN_MESSAGES_TILES(X) WARDEN_MESSAGES_DEBUGDRAW(X)              \
  WARDEN_MESSAGES_ENGINE(X) WARDEN_MESSAGES_DEMO(X) WARDEN_MESSAGES_APP(X) WARDEN_MESSAGES_CLI(X)

namespace warden {

/// The stable id of one message warden emits (see the list in this header).
enum class MessageId : uint16_t {
#define WARDEN_MESSAGE_ENUMERATOR(layer, id, text) id,
  WARDEN_MESSAGES(WARDEN_MESSAGE_ENUMERATOR)
#undef WARDEN_MESSAGE_ENUMERATOR
};

/// One entry of the list.
struct MessageInfo {
  /// The id.
  MessageId id;
  /// The layer that emits it: "core", "gpu", "resources", ...
  std::string_view layer;
  /// The stable name logs and filters use: "<layer>.<Id>", e.g. "resources.HandleReleased".
  std::string_view name;
  /// What the message means, in one sentence.
  std::string_view text;
};

/// The whole list, in declaration order (layer by layer, bottom up).
std::span<const MessageInfo> all_messages();
/// The entry of `id`.
const MessageInfo& describe(MessageId id);
/// The stable name of `id` ("<layer>.<Id>").
std::string_view to_string(MessageId id);

}  // namespace warden
