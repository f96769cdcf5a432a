#include "warden/device/test_provider.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace warden::device {
namespace {
std::string device_name(DeviceId device) { return fmt::format("d{}", device.value); }
}  // namespace

// ---- DeviceProvider ---------------------------------------------------------------------------

Result<void> TestProvider::check_api() {
  if (api_missing_) return make_error(ErrorKind::LibraryMissing, MessageId::ProviderApiUnavailable, *api_missing_);
  return {};
}

void TestProvider::request_adapter(RequestId request, std::shared_ptr<ProviderEvents> to) {
  adapter_requests_.push_back(PendingAdapter{request, std::move(to)});
  note(fmt::format("request adapter #{}", adapter_requests_.size()));
}

void TestProvider::request_device(RequestId request, const ProvidedAdapter& adapter, const std::string&,
                                  std::shared_ptr<ProviderEvents> to) {
  device_requests_.push_back(PendingDevice{adapter.id, request, std::move(to)});
  note(fmt::format("request device #{} (adapter a{})", device_requests_.size(), adapter.id.value));
}

void TestProvider::release_adapter(AdapterId adapter) {
  live_adapters_.erase(adapter.value);
  note(fmt::format("release adapter a{}", adapter.value));
}

void TestProvider::destroy_device(DeviceId device) {
  ++destroy_calls_;
  destroyed_.insert(device.value);
  live_devices_.erase(device.value);
  note("destroy device " + device_name(device));
}

void TestProvider::release_device(DeviceId device) {
  ++release_calls_;
  released_.insert(device.value);
  live_devices_.erase(device.value);
  note("release device " + device_name(device));
}

void TestProvider::end_hung_device(DeviceId device, DeviceEnd end) {
  ++hung_device_ends_;
  end == DeviceEnd::Destroy ? destroy_device(device) : release_device(device);
}

// ---- control ----------------------------------------------------------------------------------

void TestProvider::remove_api(std::string why) { api_missing_ = std::move(why); }

bool TestProvider::adapter_request_pending(size_t request) const {
  return request >= 1 && request <= adapter_requests_.size() && adapter_requests_[request - 1].has_value();
}

bool TestProvider::device_request_pending(size_t request) const {
  return request >= 1 && request <= device_requests_.size() && device_requests_[request - 1].has_value();
}

Result<TestProvider::PendingAdapter> TestProvider::take_adapter_request(size_t request) {
  if (!adapter_request_pending(request)) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TestRequestNotPending,
                      fmt::format("adapter request #{} is not pending ({} made)", request, adapter_requests_.size()));
  }
  return std::move(std::exchange(adapter_requests_[request - 1], std::nullopt).value());
}

Result<TestProvider::PendingDevice> TestProvider::take_device_request(size_t request) {
  if (!device_request_pending(request)) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TestRequestNotPending,
                      fmt::format("device request #{} is not pending ({} made)", request, device_requests_.size()));
  }
  return std::move(std::exchange(device_requests_[request - 1], std::nullopt).value());
}

Result<AdapterId> TestProvider::resolve_adapter(size_t request) {
  auto pending = take_adapter_request(request);
  if (!pending) return pending.error();
  const AdapterId id{next_adapter_++};
  live_adapters_.insert(id.value);
  note(fmt::format("adapter request #{} resolved: a{}", request, id.value));
  pending->answer(std::optional<ProvidedAdapter>(ProvidedAdapter{id, nullptr}));
  return id;
}

Result<void> TestProvider::resolve_null_adapter(size_t request) {
  auto pending = take_adapter_request(request);
  if (!pending) return pending.error();
  note(fmt::format("adapter request #{} resolved: null", request));
  pending->answer(std::optional<ProvidedAdapter>());
  return {};
}

Result<void> TestProvider::reject_adapter(size_t request, std::string why) {
  auto pending = take_adapter_request(request);
  if (!pending) return pending.error();
  note(fmt::format("adapter request #{} rejected", request));
  pending->answer(make_error(ErrorKind::NoAdapter, MessageId::AdapterRequestFailed, std::move(why)));
  return {};
}

Result<DeviceId> TestProvider::resolve_device(size_t request) {
  auto pending = take_device_request(request);
  if (!pending) return pending.error();
  const DeviceId id{next_device_++};
  live_devices_.insert(id.value);
  lost_promises_[id.value] = pending->to;
  note(fmt::format("device request #{} resolved: {}", request, device_name(id)));
  pending->answer(ProvidedDevice{id, nullptr});
  return id;
}

Result<void> TestProvider::reject_device(size_t request, std::string why) {
  auto pending = take_device_request(request);
  if (!pending) return pending.error();
  note(fmt::format("device request #{} rejected", request));
  pending->answer(make_error(ErrorKind::DeviceFailed, MessageId::DeviceRequestFailed, std::move(why)));
  return {};
}

Result<void> TestProvider::lose(DeviceId device, WGPUDeviceLostReason reason, std::string message) {
  auto it = lost_promises_.find(device.value);
  if (it == lost_promises_.end()) {
    return make_error(
        ErrorKind::InvalidArgument, MessageId::TestDeviceNotLosable,
        fmt::format("device {} has no unsettled lost promise (never built, or already lost)", device_name(device)));
  }
  std::shared_ptr<ProviderEvents> to = std::move(it->second);
  lost_promises_.erase(it);
  note("lost " + device_name(device));
  to->receive(DeviceLost{device, LossReport{reason, std::move(message)}});
  return {};
}

std::optional<size_t> TestProvider::find(std::string_view event) const {
  auto it = std::find(journal_.begin(), journal_.end(), event);
  if (it == journal_.end()) return std::nullopt;
  return static_cast<size_t>(it - journal_.begin());
}

// ---- TestRenderer -----------------------------------------------------------------------------

void TestRenderer::step(const std::string& name, DeviceId device) {
  journal_.note(fmt::format("{} {}", name, device_name(device)));
  if (throwing_.count(name) != 0) throw std::runtime_error(name + " failed on purpose");
}

ControllerHooks TestRenderer::hooks() {
  ControllerHooks h;
  h.show_fallback = [this](const StateReason& reason) {
    fallbacks_.push_back(reason);
    journal_.note(fmt::format("fallback: {}", describe(reason)));
  };
  h.show_graphics = [this](const DeviceView& view) {
    attached_ = view.id;
    ++attachments_total_;
    ++attachments_[view.id.value];
    step("show graphics", view.id);
  };
  h.stop_render_loop = [this](const DeviceView& view) { step("stop render loop", view.id); };
  h.detach_graphics = [this](const DeviceView& view) {
    if (attached_ == view.id) attached_.reset();
    step("detach graphics", view.id);
  };
  h.dispose_resources = [this](const DeviceView& view) {
    ++disposals_[view.id.value];
    step("dispose device resources", view.id);
  };
  if (defer_preparation_) {
    h.prepare_resources = [this](const DeviceView& view) {
      preparations_.push_back(view);
      step("prepare resources", view.id);
    };
  }
  h.on_state = [this](DeviceState state, const StateReason&) { states_.push_back(state); };
  return h;
}

uint64_t TestRenderer::attachments(DeviceId device) const {
  auto it = attachments_.find(device.value);
  return it == attachments_.end() ? 0 : it->second;
}

uint64_t TestRenderer::disposals(DeviceId device) const {
  auto it = disposals_.find(device.value);
  return it == disposals_.end() ? 0 : it->second;
}

}  // namespace warden::device
