#include "fuzz/null_device.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "fuzz/fuzz_support.h"

namespace warden::fuzz {

namespace {

struct Opened {
  std::unique_ptr<gpu::Context> context;
  gpu::OpenedDevice opened;
  NullDevice device;
  std::mutex mutex;
  std::vector<std::string> uncaptured;
};

Opened& opened() {
  // Never destroyed: Dawn's own exit-time teardown races a release from a static destructor,
  // and the objects stay reachable, so LeakSanitizer does not count them.
  static Opened* once = [] {
    auto* made = new Opened;
    // The reference ledger on: the targets check that warden gives back every reference it took.
    auto context = gpu::Context::create(gpu::LibraryOptions{.ledger = gpu::LedgerMode::On});
    if (!context) fail("no WebGPU library: " + context.error().message);
    made->context = std::move(*context);
    gpu::DeviceOptions options;
    options.label = "fuzz device";
    options.callbacks.on_uncaptured_error = [made](WGPUErrorType, std::string_view message) {
      std::lock_guard lock(made->mutex);
      made->uncaptured.emplace_back(message);
    };
    auto device = made->context->open_device(gpu::BackendChoice::Null, std::move(options));
    if (!device) fail("no Null-backend device: " + device.error().message);
    made->opened = std::move(*device);
    made->device = {made->context.get(), made->opened.device.get(), made->opened.queue.get()};
    return made;
  }();
  return *once;
}

}  // namespace

NullDevice& null_device() { return opened().device; }

void check_no_uncaptured_errors() {
  Opened& o = opened();
  o.context->process_events();
  std::lock_guard lock(o.mutex);
  if (!o.uncaptured.empty()) fail("Dawn reported an error outside warden's error scopes: " + o.uncaptured.front());
}

}  // namespace warden::fuzz
