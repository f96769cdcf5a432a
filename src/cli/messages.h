/// @file
/// The `warden` tool's own messages: X(cli, Id, number, "what the message means"), of value
/// (cli's layer number << 8) | number (core/messages.h says how numbers are kept).
/// Private to the tool (src/cli/); the tool also lists the demo's and the smoke job's (message_lists below).
#pragma once

#include <array>
#include <span>

#include "warden/app/messages.h"
#include "warden/core/messages.h"
#include "warden/demo/messages.h"

// clang-format off
#define WARDEN_MESSAGES_CLI(X) \
  X(cli, SizeOptionMalformed, 0, "a --size value is not WIDTHxHEIGHT with both at least 1") \
  X(cli, ShaderCheckFeatureNotOffered, 1, "a feature named to shader check is not offered by the adapter") \
  X(cli, ShaderCheckUnknownOption, 2, "an argument to shader check looks like an option, is none, and names no file") \
  X(cli, ShaderCheckNoFiles, 3, "shader check was given no file to check") \
  X(cli, WindowDeviceNotReady, 4, "the window command's device did not become ready") \
  X(cli, ShaderCheckByteOrderMarkRemoved, 5, "shader check removed a UTF-8 byte order mark from a file before compiling it") \
  X(cli, ShaderCheckStandardInputClosed, 6, "shader check was to read '-' while standard input is closed") \
  X(cli, ShaderCheckStandardInputTwice, 7, "shader check was given '-' more than once; standard input can be read only once") \
  X(cli, ShaderCheckMaxBytesInvalid, 8, "a --max-bytes value is not a whole number from 1 to 18446744073709551615") \
  X(cli, ShaderCheckOutOfMemory, 9, "shader check ran out of memory checking a file; the later files are still checked") \
  X(cli, ShaderCheckPackageMalformed, 10, "a --package value is not NAME=FOLDER with a name and a folder") \
  X(cli, ShaderCheckWeslFeatureMalformed, 11, "a --wesl-feature value is not NAME, NAME=true or NAME=false")
// clang-format on

namespace warden::cli {

/// The cli's message ids beside the library's: in this namespace `MessageId::<Id>` names
/// either, each a warden::MessageId.
struct MessageId {
  using enum warden::MessageId;
  WARDEN_MESSAGES_CLI(WARDEN_MESSAGE_CONSTANT)
};

/// The cli's list, in number order.
inline constexpr std::array kMessages{WARDEN_MESSAGES_CLI(WARDEN_MESSAGE_INFO)};

/// Every list the tool knows, bottom up: the library's, the demo's, the smoke job's, its own.
inline std::array<std::span<const MessageInfo>, 4> message_lists() {
  return {all_messages(), demo::kMessages, app::kMessages, kMessages};
}

/// The entry of `id` in any of message_lists(); otherwise describe()'s "unknown".
inline const MessageInfo& describe_any(warden::MessageId id) {
  for (std::span<const MessageInfo> list : message_lists()) {
    for (const MessageInfo& m : list) {
      if (m.id == id) return m;
    }
  }
  return describe(id);
}

}  // namespace warden::cli
