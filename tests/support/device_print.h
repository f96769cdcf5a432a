// How a failed assertion prints the device layer's typed reasons: in words, not bytes.
#pragma once

#include <ostream>

#include "warden/device/controller.h"

namespace warden::device {

inline void PrintTo(const StateReason& reason, std::ostream* out) { *out << describe(reason); }
inline void PrintTo(const GiveUp& give_up, std::ostream* out) { *out << describe(give_up); }

}  // namespace warden::device
