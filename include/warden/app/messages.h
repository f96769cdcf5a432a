/// @file
/// The smoke job's messages: X(app, Id, number, "what the message means"), of value
/// (app's layer number << 8) | number (core/messages.h says how numbers are kept).
/// Not installed: the smoke job is a program of the `warden` tool, not part of the library.
#pragma once

#include <array>

#include "warden/core/messages.h"

// clang-format off
#define WARDEN_MESSAGES_APP(X) \
  X(app, SmokeJobGpuError, 0, "the smoke job's error scope caught a WebGPU error")
// clang-format on

namespace warden::app {

/// The app's message ids beside the library's: in this namespace `MessageId::<Id>` names
/// either, each a warden::MessageId.
struct MessageId {
  using enum warden::MessageId;
  WARDEN_MESSAGES_APP(WARDEN_MESSAGE_CONSTANT)
};

/// The app's list, in number order.
inline constexpr std::array kMessages{WARDEN_MESSAGES_APP(WARDEN_MESSAGE_INFO)};

}  // namespace warden::app
