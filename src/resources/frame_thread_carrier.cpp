#include "resources/frame_thread_carrier.h"

#include <fmt/format.h>

namespace warden::resources::detail {

std::optional<Error> FrameThreadCarrier::refuse(std::string_view call) const {
  if (!carries()) return std::nullopt;
  return make_error(ErrorKind::Refused, MessageId::WrongThread,
                    fmt::format("{}: made from a thread other than the frame thread, on a device that takes calls on "
                                "one thread (GL, GLES): it swaps a new object in at once, which only the frame thread "
                                "can make there",
                                call));
}

}  // namespace warden::resources::detail
