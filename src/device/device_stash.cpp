#include "warden/device/device_stash.h"

#include "device/lost_route.h"

namespace warden::device {

DeviceStash::~DeviceStash() { clear(); }

DeviceStash& DeviceStash::process() {
  static DeviceStash* stash = new DeviceStash();
  return *stash;
}

void DeviceStash::put(StashedDevice device) {
  clear();
  held_ = std::move(device);
}

std::optional<StashedDevice> DeviceStash::take(const DeviceProvider& provider) {
  if (!held_ || held_->provider != &provider) return std::nullopt;
  if (held_->route && held_->route->lost) {  // lost while nobody held it: useless to the next engine
    clear();
    return std::nullopt;
  }
  ++handoffs_;
  return std::exchange(held_, std::nullopt);
}

void DeviceStash::clear() {
  if (!held_) return;
  StashedDevice device = std::exchange(held_, std::nullopt).value();
  device.provider->release_device(device.device.id);
  if (device.device_end != nullptr) device.device_end->note_ended(DeviceEnd::Release, device.presented);
}

}  // namespace warden::device
