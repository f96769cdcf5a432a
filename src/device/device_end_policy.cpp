#include "warden/device/device_end_policy.h"

#include <cstdlib>
#include <string_view>

#include <fmt/format.h>

#include "warden/core/enum_names.h"

namespace warden::device {
namespace {
std::string_view env(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string_view{} : std::string_view(value);
}
}  // namespace

constexpr EnumName<DeviceEnd> kDeviceEndNames[] = {
    {DeviceEnd::Release, "release"},
    {DeviceEnd::Destroy, "destroy"},
};
const char* to_string(DeviceEnd end) { return name_in(kDeviceEndNames, end); }

DeviceEndOptions device_end_options_from_environment() {
  DeviceEndOptions options;
  options.destroy_override = env(kDestroyOverrideEnvVar) == "1";
  options.gate_override = env(kGateOverrideEnvVar) == "ignore";
  return options;
}

DeviceEndPolicy::DeviceEndPolicy(DeviceEndOptions options) : options_(options) {}

DeviceEndPolicy& DeviceEndPolicy::process() {
  static DeviceEndPolicy* policy = new DeviceEndPolicy();
  return *policy;
}

void DeviceEndPolicy::note_ended(DeviceEnd end, bool presented) {
  if (end == DeviceEnd::Release) {
    ++released_;
    return;
  }
  ++destroyed_;
  if (presented) ++destroyed_after_presenting_;
}

Result<void> DeviceEndPolicy::admit_new_device() const {
  if (destroyed_after_presenting_ == 0 || options_.gate_override) return {};
  return make_error(ErrorKind::Refused, MessageId::NewDeviceRefused,
                    fmt::format("a new device is refused: {} device(s) that presented were destroyed in "
                                "this process (set {}=ignore to build one anyway)",
                                destroyed_after_presenting_, kGateOverrideEnvVar));
}

}  // namespace warden::device
