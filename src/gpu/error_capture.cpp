#include "gpu/error_capture.h"

#include <mutex>
#include <unordered_map>

namespace warden::gpu {
namespace {

thread_local ErrorCapture* t_innermost = nullptr;

struct CapturingDevices {
  std::mutex mutex;
  std::unordered_map<WGPUDevice, const void*> owners;
};
CapturingDevices& capturing_devices() {
  static CapturingDevices* devices = new CapturingDevices();  // outlives every device's callbacks
  return *devices;
}

}  // namespace

ErrorCapture::ErrorCapture(WGPUDevice device) noexcept : device_(device), outer_(t_innermost) { t_innermost = this; }

ErrorCapture::~ErrorCapture() { t_innermost = outer_; }

bool ErrorCapture::offer(WGPUDevice device, WGPUErrorType type, WGPUStringView message) {
  for (ErrorCapture* capture = t_innermost; capture != nullptr; capture = capture->outer_) {
    if (capture->device_ != device) continue;
    if (!capture->caught()) {  // the first error is the one that explains the rest
      capture->type_ = type;
      capture->message_ = std::string(to_std(message));
    }
    return true;
  }
  return false;
}

void mark_capturing(WGPUDevice device, const void* owner) {
  auto& devices = capturing_devices();
  std::lock_guard lock(devices.mutex);
  devices.owners[device] = owner;
}

void forget_capturing(const void* owner) {
  auto& devices = capturing_devices();
  std::lock_guard lock(devices.mutex);
  std::erase_if(devices.owners, [owner](const auto& entry) { return entry.second == owner; });
}

bool errors_reach_capture(WGPUDevice device) {
  auto& devices = capturing_devices();
  std::lock_guard lock(devices.mutex);
  return devices.owners.contains(device);
}

}  // namespace warden::gpu
