/// @file
/// DawnProvider: the provider seam over the real library. Requests are asynchronous
/// (CallbackMode::AllowProcessEvents): their answers and losses reach their receivers
/// (ProviderEvents) from process_events(), which the application's frame loop calls. Nothing here
/// blocks.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "warden/device/provider.h"
#include "warden/gpu/context.h"

namespace warden::device {

/// How a DawnProvider asks for devices and where it reports what no error scope caught.
struct DawnProviderOptions {
  /// The backend, features and limits of every device this provider asks for (label and
  /// callbacks are not read: the controller names its devices and losses come as the
  /// provider's DeviceLost events).
  gpu::DeviceOptions device{};
  /// Why there is no context, when there is none (reported by check_api()).
  std::string unavailable_reason = "no WebGPU implementation was loaded";
  /// Errors no error scope caught, on any device this provider built.
  std::function<void(DeviceId, WGPUErrorType, std::string_view message)> on_uncaptured_error{};
};

/// The real DeviceProvider: asks Dawn for adapters and devices asynchronously through a
/// gpu::Context and reports its answers and losses as events when process_events() runs. One thread drives
/// it.
class DawnProvider final : public DeviceProvider {
 public:
  /// `context` may be null ("API missing"); otherwise it must outlive the provider.
  explicit DawnProvider(gpu::Context* context, DawnProviderOptions options = {});
  /// Releases the devices and adapters it still holds, hung ones included (the driver may wait
  /// there for a hung device's work). Callbacks still pending in Dawn
  /// find the provider gone and release what they bring, reporting nothing.
  ~DawnProvider() override;
  DawnProvider(const DawnProvider&) = delete;
  DawnProvider& operator=(const DawnProvider&) = delete;

  Result<void> check_api() override;
  void request_adapter(RequestId request, std::shared_ptr<ProviderEvents> to) override;
  void request_device(RequestId request, const ProvidedAdapter& adapter, const std::string& label,
                      std::shared_ptr<ProviderEvents> to) override;
  void release_adapter(AdapterId adapter) override;
  void destroy_device(DeviceId device) override;
  void release_device(DeviceId device) override;
  /// Keeps the device, out of live_devices(), until its queue says the work it was given
  /// finished (a work-done callback run by process_events()), then destroys or releases it as
  /// `end` says; the provider's end releases one whose work never finished.
  void end_hung_device(DeviceId device, DeviceEnd end) override;

  /// Makes a device it holds lost now (wgpuDeviceForceLoss, reason Unknown): what a driver reset
  /// would do, on purpose. Its loss report (the DeviceLost event, when process_events() runs
  /// Dawn's callback) carries `message` instead of the API's words, which describe a forced loss
  /// as an internal error. False (and nothing happens) for a device it does not hold.
  bool force_loss(DeviceId device, std::string message);
  /// Runs Dawn's callbacks that are ready, non-blocking (the events they report reach their
  /// receivers), then ends the hung devices whose work finished.
  void process_events() const;
  /// Hung devices kept until their work finishes.
  uint64_t hung_devices_waiting() const;
  /// The context it was made with; null when the API is missing.
  gpu::Context* context() const { return context_; }

  /// The raw device for `id`, or null when the provider no longer holds it.
  WGPUDevice device(DeviceId id) const;
  /// Devices Dawn delivered to this provider so far.
  uint64_t devices_built() const;
  /// destroy_device calls that reached a device the provider held.
  uint64_t destroy_calls() const;
  /// release_device calls that reached a device the provider held.
  uint64_t release_calls() const;
  /// Devices the provider holds now.
  uint64_t live_devices() const;
  /// Adapters the provider holds now.
  uint64_t live_adapters() const;
  /// Callbacks registered with Dawn that have not been called yet (each device's lost callback
  /// counts until the device is lost, destroyed or fully released and events are processed).
  uint64_t outstanding_callbacks() const;

  struct Shared;  ///< what the callback tickets reach, weakly

 private:
  gpu::Context* context_;
  DawnProviderOptions options_;
  std::shared_ptr<Shared> shared_;
};

}  // namespace warden::device
