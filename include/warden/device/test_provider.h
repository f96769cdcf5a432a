/// @file
/// TestProvider and TestRenderer: a provider and application hooks for tests of the device
/// layer, and of an application's own integration with it. Every async boundary the real API
/// has is here, and the test decides when each one completes: adapter and device requests stay
/// pending until resolved or rejected, each device has its own lost "promise" the test fires,
/// and every destroy, release and attachment is counted and written to one journal in order.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "warden/device/controller.h"
#include "warden/device/provider.h"

namespace warden::device {

/// A DeviceProvider whose every async boundary the test completes by hand (see the file comment).
class TestProvider final : public DeviceProvider {
 public:
  // ---- DeviceProvider -----------------------------------------------------------------------
  Result<void> check_api() override;
  /// Queues an adapter request until the test resolves or rejects it.
  void request_adapter(RequestId request, std::shared_ptr<ProviderEvents> to) override;
  /// Queues a device request until the test resolves or rejects it.
  void request_device(RequestId request, const ProvidedAdapter& adapter, const std::string& label,
                      std::shared_ptr<ProviderEvents> to) override;
  /// Counts and journals the release.
  void release_adapter(AdapterId adapter) override;
  void destroy_device(DeviceId device) override;
  void release_device(DeviceId device) override;
  /// Its devices run no work: ends the device now, as `end` says, and counts the call.
  void end_hung_device(DeviceId device, DeviceEnd end) override;

  // ---- what the test controls ---------------------------------------------------------------
  /// From now on check_api() fails with `why` ("API missing").
  void remove_api(std::string why);
  /// Requests are numbered from 1 in the order they were made. Completing one that is not
  /// pending is an error naming it.
  Result<AdapterId> resolve_adapter(size_t request);
  /// Answers adapter request `request` with no adapter (WebGPU's null adapter).
  Result<void> resolve_null_adapter(size_t request);
  /// Rejects adapter request `request` with `why`.
  Result<void> reject_adapter(size_t request, std::string why);
  /// Answers device request `request` with a new device.
  Result<DeviceId> resolve_device(size_t request);
  /// Rejects device request `request` with `why`.
  Result<void> reject_device(size_t request, std::string why);
  /// Fires `device`'s lost promise. Each promise settles once; a second call is an error.
  Result<void> lose(DeviceId device, WGPUDeviceLostReason reason = WGPUDeviceLostReason_Unknown,
                    std::string message = "");

  // ---- what the test reads ------------------------------------------------------------------
  /// Adapter requests made so far.
  size_t adapter_requests() const { return adapter_requests_.size(); }
  /// Device requests made so far.
  size_t device_requests() const { return device_requests_.size(); }
  /// True while adapter request `request` is unanswered.
  bool adapter_request_pending(size_t request) const;
  /// True while device request `request` is unanswered.
  bool device_request_pending(size_t request) const;
  /// destroy_device() calls so far.
  uint64_t destroy_calls() const { return destroy_calls_; }
  /// release_device() calls so far.
  uint64_t release_calls() const { return release_calls_; }
  /// end_hung_device() calls so far (each also counted as a destroy or a release).
  uint64_t hung_device_ends() const { return hung_device_ends_; }
  /// Devices handed out so far.
  uint64_t devices_built() const { return next_device_ - 1; }
  /// Built and not yet destroyed or released.
  uint64_t live_devices() const { return live_devices_.size(); }
  /// Adapters handed out and not released.
  uint64_t live_adapters() const { return live_adapters_.size(); }
  /// True when `device` was destroyed.
  bool destroyed(DeviceId device) const { return destroyed_.count(device.value) != 0; }
  /// True when `device` was released.
  bool released(DeviceId device) const { return released_.count(device.value) != 0; }

  /// Everything that happened, in order ("request adapter #1", "destroy device d1", and what a
  /// TestRenderer sharing this journal recorded).
  const std::vector<std::string>& journal() const { return journal_; }
  /// Adds `event` to the journal.
  void note(std::string event) { journal_.push_back(std::move(event)); }
  /// Position of the first entry equal to `event`, if any.
  std::optional<size_t> find(std::string_view event) const;

 private:
  struct PendingAdapter {
    RequestId request{};
    std::shared_ptr<ProviderEvents> to{};
    void answer(AdapterReply reply) const { to->receive(AdapterAnswered{request, std::move(reply)}); }
  };
  struct PendingDevice {
    AdapterId adapter{};
    RequestId request{};
    std::shared_ptr<ProviderEvents> to{};
    void answer(DeviceReply reply) const { to->receive(DeviceAnswered{request, std::move(reply)}); }
  };
  Result<PendingAdapter> take_adapter_request(size_t request);
  Result<PendingDevice> take_device_request(size_t request);

  std::optional<std::string> api_missing_;
  std::vector<std::optional<PendingAdapter>> adapter_requests_;
  std::vector<std::optional<PendingDevice>> device_requests_;
  std::map<uint64_t, std::shared_ptr<ProviderEvents>> lost_promises_;  // unsettled, per device: its receiver
  std::set<uint64_t> live_adapters_;
  std::set<uint64_t> live_devices_;
  std::set<uint64_t> destroyed_;
  std::set<uint64_t> released_;
  uint64_t next_adapter_ = 1;
  uint64_t next_device_ = 1;
  uint64_t destroy_calls_ = 0;
  uint64_t release_calls_ = 0;
  uint64_t hung_device_ends_ = 0;
  std::vector<std::string> journal_;
};

/// Application hooks that record every call into a TestProvider's journal ("show graphics d2",
/// "detach graphics d1", "fallback: device lost: ...") and keep the view's state: which device it belongs to
/// and how often each device was attached. Must outlive the controller it is given to.
class TestRenderer {
 public:
  /// A renderer that writes its events to `journal`'s journal.
  explicit TestRenderer(TestProvider& journal) : journal_(journal) {}

  /// Hooks that record every call; give them to the DeviceController.
  ControllerHooks hooks();

  /// Knobs. A step named here ("stop render loop", "detach graphics", "dispose device resources")
  /// throws std::runtime_error when called.
  void throw_in(std::string step) { throwing_.insert(std::move(step)); }
  /// When set, hooks() includes prepare_resources, and preparation stays pending until the test
  /// calls DeviceController::finish_preparation.
  void defer_preparation() { defer_preparation_ = true; }

  /// The device the view belongs to now, if any.
  std::optional<DeviceId> attached() const { return attached_; }
  /// show_graphics calls, all devices.
  uint64_t attachments() const { return attachments_total_; }
  /// show_graphics calls for `device`.
  uint64_t attachments(DeviceId device) const;
  /// dispose_resources calls for `device`.
  uint64_t disposals(DeviceId device) const;
  /// Every prepare_resources call, in order.
  const std::vector<DeviceView>& preparations() const { return preparations_; }
  /// The reason of every fallback shown, in order.
  const std::vector<StateReason>& fallbacks() const { return fallbacks_; }
  /// Every state reported through on_state, in order.
  const std::vector<DeviceState>& states() const { return states_; }

 private:
  void step(const std::string& name, DeviceId device);

  TestProvider& journal_;
  std::set<std::string> throwing_;
  bool defer_preparation_ = false;
  std::optional<DeviceId> attached_;
  uint64_t attachments_total_ = 0;
  std::map<uint64_t, uint64_t> attachments_;
  std::map<uint64_t, uint64_t> disposals_;
  std::vector<DeviceView> preparations_;
  std::vector<StateReason> fallbacks_;
  std::vector<DeviceState> states_;
};

}  // namespace warden::device
