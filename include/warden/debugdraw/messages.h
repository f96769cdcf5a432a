/// @file
/// The debugdraw layer's messages, each X(debugdraw, Id, number, "what the message means"); core/messages.h
/// makes them MessageId enumerators of value (debugdraw's layer number << 8) | number.
///
/// A number is given once: a new message takes the next unused number, and a message that goes
/// away leaves its number unused. Nothing but this list belongs in this file (scripts/check-layers.sh).
#pragma once

// clang-format off
#define WARDEN_MESSAGES_DEBUGDRAW(X) \
  X(debugdraw, DebugDrawerCapacityTooSmall, 0, "a debug drawer's initial capacity leaves no room for vertices after its matrix block") \
  X(debugdraw, DebugDrawerBufferNotCreated, 1, "the device made no larger vertex buffer for a debug drawer")
// clang-format on
