/// @file
/// The provider seam: the few asynchronous things the device layer asks of a WebGPU
/// implementation. DawnProvider (dawn_provider.h) is the real one; TestProvider
/// (test_provider.h) hands every async boundary to the test that drives it.
#pragma once

#include <compare>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "warden/core/result.h"
#include "warden/device/device_end_policy.h"
#include "warden/gpu/abi.h"

namespace warden::device {

/// Ids are unique within one provider for its lifetime; 0 is never handed out.
/// An adapter, as its provider names it.
struct AdapterId {
  /// The id; 0 means none.
  uint64_t value = 0;
  /// Ids order as their numbers do.
  constexpr auto operator<=>(const AdapterId&) const = default;
};
/// A device, as its provider names it.
struct DeviceId {
  /// The id; 0 means none.
  uint64_t value = 0;
  /// Ids order as their numbers do.
  constexpr auto operator<=>(const DeviceId&) const = default;
};

/// `adapter` / `device` are the raw WebGPU objects, or null from a provider that has none (the
/// test provider). The provider keeps the reference; the receiver hands it back through
/// release_adapter / release_device / destroy_device.
struct ProvidedAdapter {
  /// The adapter's id.
  AdapterId id{};
  /// The raw adapter, or null.
  WGPUAdapter adapter = nullptr;
};
/// A device a provider delivered (see ProvidedAdapter).
struct ProvidedDevice {
  /// The device's id.
  DeviceId id{};
  /// The raw device, or null.
  WGPUDevice device = nullptr;
};

/// What the API said when a device was lost: passed on as given, never interpreted.
struct LossReport {
  /// The reason the API gave.
  WGPUDeviceLostReason reason = WGPUDeviceLostReason_Unknown;
  /// The API's message.
  std::string message{};
  /// Reports compare field by field.
  bool operator==(const LossReport&) const = default;
};

/// An Error: the request was rejected, or it found no adapter and the API said why
/// (ErrorKind::NoAdapter, the API's words in the message). An empty optional: the request
/// succeeded but no adapter was returned and nothing was said (WebGPU's null adapter).
using AdapterReply = Result<std::optional<ProvidedAdapter>>;
/// A device, or an Error: the request was rejected.
using DeviceReply = Result<ProvidedDevice>;

/// A request, as its caller names it: the provider carries the id back with the answer. Unique
/// among the requests of one receiver; 0 is never used.
struct RequestId {
  /// The id; 0 means none.
  uint64_t value = 0;
  /// Ids order as their numbers do.
  constexpr auto operator<=>(const RequestId&) const = default;
};

/// An adapter request answered.
struct AdapterAnswered {
  /// The request, as its caller named it.
  RequestId request{};
  /// The answer.
  AdapterReply reply;
};
/// A device request answered.
struct DeviceAnswered {
  /// The request, as its caller named it.
  RequestId request{};
  /// The answer.
  DeviceReply reply;
};
/// A delivered device lost.
struct DeviceLost {
  /// The device, as DeviceAnswered named it.
  DeviceId device{};
  /// What the API said.
  LossReport report{};
};
/// What a provider reports: one kind of event each.
using ProviderEvent = std::variant<AdapterAnswered, DeviceAnswered, DeviceLost>;

/// Where a provider's events go (see DeviceProvider's contract): one receive() per event, and
/// one dispatch on its kind in the receiver.
class ProviderEvents {
 public:
  virtual ~ProviderEvents() = default;
  /// One event, on the thread that drives the provider's events.
  virtual void receive(ProviderEvent event) = 0;
};

/// Contract for implementations:
///  - each request is answered exactly once, by an event to the receiver given with it, later,
///    on the thread that drives the provider's events (only a request made without a usable API
///    may be answered inside the call; ask check_api() first);
///  - a device delivered by a DeviceAnswered is reported lost at most once, by a DeviceLost to the
///    receiver of its request (a failed request is not a loss); the report may still come after
///    the device was released or destroyed, which the receiver must tolerate;
///  - the provider holds each receiver until it has nothing more to report to it;
///  - the provider outlives every receiver that holds its ids.
class DeviceProvider {
 public:
  virtual ~DeviceProvider() = default;

  /// An error when there is no WebGPU implementation to ask at all ("API missing").
  virtual Result<void> check_api() = 0;
  /// Requests an adapter; `to` receives the AdapterAnswered carrying `request`, later.
  virtual void request_adapter(RequestId request, std::shared_ptr<ProviderEvents> to) = 0;
  /// Requests a device labelled `label` from `adapter`; `to` receives the DeviceAnswered carrying
  /// `request`, and later the device's DeviceLost (see above).
  virtual void request_device(RequestId request, const ProvidedAdapter& adapter, const std::string& label,
                              std::shared_ptr<ProviderEvents> to) = 0;
  /// Gives back an adapter the receiver no longer needs.
  virtual void release_adapter(AdapterId adapter) = 0;
  /// Ends the device's useful life, then drops the provider's reference.
  virtual void destroy_device(DeviceId device) = 0;
  /// Drops the provider's reference only, without calling destroy. On Dawn, where that is the
  /// last reference, the device ends at once all the same (docs/adr/0051).
  virtual void release_device(DeviceId device) = 0;
  /// Ends a hung device as `end` says, without waiting for the work it was given: ending a
  /// device waits in the driver until its queue is idle, for as long as a hung GPU takes, and it
  /// must not wait on the frame thread. DawnProvider keeps the device until that work finishes,
  /// then ends it. Pure, so that no provider (a wrapper least of all) ends a hung device now by
  /// default.
  virtual void end_hung_device(DeviceId device, DeviceEnd end) = 0;
};

}  // namespace warden::device
