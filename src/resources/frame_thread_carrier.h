// Private to the resources layer: the frame-thread carrier (docs/threads.md, ADR 0041). Dawn's
// GL and GLES keep their context current on the thread that made the device, so there a
// creation or a content write from another thread cannot reach the device: the registry
// registers the object Waiting and the carrier keeps it, and the write, in call order, until the
// frame thread's next poll or submit makes and writes them (RegistryImpl::settle_carried). On
// other devices, and on the frame thread, nothing is carried.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "warden/core/frame_thread.h"
#include "warden/core/handle.h"
#include "warden/core/result.h"
#include "warden/resources/registry.h"

namespace warden::resources::detail {

class FrameThreadCarrier {
 public:
  // A content write made from another thread, checked and copied at the call.
  struct Write {
    ResourceKind kind = ResourceKind::None;
    uint64_t bits = 0;
    uint64_t offset = 0;            // buffers
    TextureWrite where{};           // textures
    uint32_t bytes_per_row = 0;     // textures: the checked layout
    uint32_t rows_per_image = 0;
    std::vector<uint8_t> bytes;
  };
  // What waited, handed to the frame thread in call order.
  struct Carried {
    std::vector<std::pair<ResourceKind, uint64_t>> waiting;  // objects, by kind and handle bits
    std::vector<Write> writes;
  };

  // The frame thread's role: the thread that made the registry, until adopt_frame_thread().
  const FrameThread& frame_thread() const { return frame_thread_; }
  void adopt_frame_thread() { frame_thread_.adopt_current(); }
  // Read from the device at creation and at each rebuild: GL and GLES take calls on one thread.
  void set_device_on_one_thread(bool one_thread) { device_on_one_thread_ = one_thread; }

  // True when the calling thread's creation or write must be carried.
  bool carries() const { return device_on_one_thread_ && !frame_thread_.is_current(); }
  // A call that swaps a new object in at once cannot be carried: WrongThread there.
  std::optional<Error> refuse(std::string_view call) const;

  void wait(ResourceKind kind, uint64_t bits) { carried_.waiting.emplace_back(kind, bits); }
  void carry(Write write) { carried_.writes.push_back(std::move(write)); }
  bool empty() const { return carried_.waiting.empty() && carried_.writes.empty(); }
  // Everything carried so far; the carrier is empty after.
  Carried take() { return std::exchange(carried_, {}); }
  // Drops what waits: its device was lost (the rebuild makes the objects, kept contents return).
  void clear() { carried_ = {}; }

 private:
  FrameThread frame_thread_;
  bool device_on_one_thread_ = false;
  Carried carried_;
};

}  // namespace warden::resources::detail
