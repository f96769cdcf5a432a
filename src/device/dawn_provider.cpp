#include "warden/device/dawn_provider.h"

#include <map>

#include <fmt/format.h>

#include "gpu/error_capture.h"
#include "warden/gpu/callback.h"
#include "warden/gpu/names.h"

namespace warden::device {

struct DawnProvider::Shared {
  // Kept by every ticket: a callback that finds the provider gone still has the procs to let
  // go of what it brings.
  std::shared_ptr<const gpu::Library> library;
  const gpu::Context* context = nullptr;  // for its log; alive while the provider is
  WGPUInstance instance = nullptr;
  std::function<void(DeviceId, WGPUErrorType, std::string_view)> on_uncaptured_error;
  uint64_t next_id = 1;
  std::map<uint64_t, WGPUAdapter> adapters;
  std::map<uint64_t, WGPUDevice> devices;
  // The words force_loss() gave, by device, until its lost callback reports them instead of
  // the API's (which describe a forced loss as an internal error).
  std::map<uint64_t, std::string> forced;
  // A hung device waits here, out of `devices`, for its queue's work-done report.
  struct HungDevice {
    WGPUDevice device = nullptr;
    DeviceEnd end = DeviceEnd::Release;
    bool work_done = false;
  };
  std::map<uint64_t, HungDevice> hung;
  uint64_t built = 0;
  uint64_t destroyed = 0;
  uint64_t released = 0;
  uint64_t outstanding_callbacks = 0;  // registered with Dawn, not yet called
  // What the log last said when a backend gave no adapter. Dawn warns once per message and
  // instance, so the same failure again comes with an empty log.
  std::map<WGPUBackendType, std::string> said_before;

  const gpu::Procs& procs() const { return library->procs(); }

  // Ends a device the provider no longer lists, as `end` says, and counts it.
  void end_now(WGPUDevice device, DeviceEnd end) {
    if (end == DeviceEnd::Destroy) {
      procs().DeviceDestroy(device);
      ++destroyed;
    } else {
      ++released;
    }
    procs().DeviceRelease(device);
  }
};

namespace {

// Dawn calls every callback below but the uncaptured-error one exactly once (completed, or
// CallbackCancelled when the instance goes); each owns its ticket (gpu::once_callback).

// One request walks the backend choice's candidates (gpu::adapter_plan) in order, one
// asynchronous request at a time, and answers once.
struct AdapterTicket {
  std::weak_ptr<DawnProvider::Shared> shared;
  std::shared_ptr<const gpu::Library> library;
  RequestId request;
  std::shared_ptr<ProviderEvents> to;
  std::vector<gpu::AdapterCandidate> plan;
  size_t next = 0;      // the candidate the request in flight asked for is plan[next - 1]
  std::string tried;    // why earlier candidates were passed over
  std::vector<std::string> log;  // what the instance logged while the request was made

  void answer(AdapterReply reply) const { to->receive(AdapterAnswered{request, std::move(reply)}); }
};

void on_adapter(std::unique_ptr<AdapterTicket> ticket, WGPURequestAdapterStatus status, WGPUAdapter adapter,
                WGPUStringView message);

// Asks for the ticket's next candidate, or answers when none is left.
void request_next_candidate(std::unique_ptr<AdapterTicket> ticket, DawnProvider::Shared& shared) {
  if (ticket->next == ticket->plan.size()) {
    if (ticket->tried.empty()) return ticket->answer(std::optional<ProvidedAdapter>());
    return ticket->answer(make_error(ErrorKind::NoAdapter, MessageId::AdapterNoneSuitable,
                                   "no adapter satisfies the request. Tried:" + ticket->tried));
  }
  const gpu::AdapterCandidate& candidate = ticket->plan[ticket->next++];
  if (candidate.backend == WGPUBackendType_OpenGL || candidate.backend == WGPUBackendType_OpenGLES) {
    gpu::prepare_gl_environment();
  }
  WGPURequestAdapterOptions request{};
  request.backendType = candidate.backend;
  request.featureLevel = candidate.feature_level;
  AdapterTicket* const in_flight = ticket.get();
  const auto cb = gpu::once_callback<WGPURequestAdapterCallbackInfo>(
      WGPUCallbackMode_AllowProcessEvents,
      [ticket = std::move(ticket)](WGPURequestAdapterStatus status, WGPUAdapter adapter,
                                   WGPUStringView message) mutable {
        on_adapter(std::move(ticket), status, adapter, message);
      });
  ++shared.outstanding_callbacks;
  // Dawn looks for adapters inside the call, and says why it found none only in its log. The
  // ticket is still alive afterwards: AllowProcessEvents runs the callback from process_events.
  in_flight->log = shared.context->collect_log(
      [&] { shared.procs().InstanceRequestAdapter(shared.instance, &request, cb); });
}

// Why `backend` gave no adapter: Dawn's answer, then what its log said (or said before).
std::string no_adapter_reason(DawnProvider::Shared& shared, WGPUBackendType backend, std::string answer,
                              const std::vector<std::string>& log) {
  std::string said = gpu::summarise_log(log);
  if (!said.empty()) {
    shared.said_before[backend] = said;
  } else if (auto before = shared.said_before.find(backend); before != shared.said_before.end()) {
    said = "earlier: " + before->second;
  }
  return said.empty() ? answer : fmt::format("{} ({})", answer, said);
}

// A device's loss state, shared by its request ticket and its lost ticket: the two callbacks
// may come in either order for a failed request.
struct LossState {
  std::weak_ptr<DawnProvider::Shared> shared;
  DeviceId id;
  bool delivered = false;  // only a delivered device can be lost
  std::shared_ptr<ProviderEvents> to;  // the receiver of its request
};

struct DeviceTicket {
  std::weak_ptr<DawnProvider::Shared> shared;
  std::shared_ptr<const gpu::Library> library;
  RequestId request;
  std::shared_ptr<LossState> loss;

  void answer(DeviceReply reply) const { loss->to->receive(DeviceAnswered{request, std::move(reply)}); }
};

// Lives from the request until the device-lost callback (loss, destruction, the last release,
// a failed creation, or instance shutdown), which owns it. The uncaptured-error callback
// borrows it: Dawn reports no errors after the device is lost.
struct LostTicket {
  std::shared_ptr<LossState> loss;

  ~LostTicket() { gpu::forget_capturing(loss.get()); }

  // An uncaptured error: an ErrorCapture of the device on the calling thread takes it first.
  void operator()(const WGPUDevice* device, WGPUErrorType type, WGPUStringView message) const {
    if (gpu::ErrorCapture::offer(device, type, message)) return;
    auto shared = loss->shared.lock();
    if (shared && shared->on_uncaptured_error) shared->on_uncaptured_error(loss->id, type, gpu::to_std(message));
  }
};

void on_adapter(std::unique_ptr<AdapterTicket> ticket, WGPURequestAdapterStatus status, WGPUAdapter adapter,
                WGPUStringView message) {
  auto shared = ticket->shared.lock();
  if (!shared) {
    if (adapter != nullptr) ticket->library->procs().AdapterRelease(adapter);
    return;
  }
  --shared->outstanding_callbacks;
  shared->context->report_log(ticket->log);  // reported as before, and kept in the reason below
  const gpu::AdapterCandidate& candidate = ticket->plan[ticket->next - 1];
  std::string passed_over;
  if (status == WGPURequestAdapterStatus_Success && adapter != nullptr) {
    const bool cpu = candidate.gpu_only &&
                     gpu::describe_adapter(shared->procs(), adapter, candidate.feature_level).adapter_type ==
                         WGPUAdapterType_CPU;
    if (!cpu) {
      const AdapterId id{shared->next_id++};
      shared->adapters.emplace(id.value, adapter);
      return ticket->answer(std::optional<ProvidedAdapter>(ProvidedAdapter{id, adapter}));
    }
    passed_over = "a CPU adapter, not a GPU";
  } else if (status == WGPURequestAdapterStatus_Unavailable || status == WGPURequestAdapterStatus_Success) {
    // "Unavailable" is WebGPU's null adapter: the request worked, nothing fits.
    const bool said_nothing = gpu::to_std(message).empty() && gpu::summarise_log(ticket->log).empty() &&
                              !shared->said_before.contains(candidate.backend);
    // The last candidate answers as it was answered: a null adapter stays a null adapter,
    // unless Dawn said why, which goes with it.
    if (said_nothing && ticket->plan.size() == 1) return ticket->answer(std::optional<ProvidedAdapter>());
    passed_over = no_adapter_reason(*shared, candidate.backend,
                                    gpu::to_std(message).empty() ? "no adapter returned" : std::string(gpu::to_std(message)),
                                    ticket->log);
  } else {
    passed_over = no_adapter_reason(
        *shared, candidate.backend,
        fmt::format("adapter request failed (status {}): {}", static_cast<uint32_t>(status), gpu::to_std(message)),
        ticket->log);
  }
  if (adapter != nullptr) shared->procs().AdapterRelease(adapter);
  if (ticket->next == ticket->plan.size() && ticket->plan.size() == 1) {
    return ticket->answer(make_error(ErrorKind::NoAdapter, MessageId::AdapterRequestFailed, passed_over));
  }
  ticket->tried += fmt::format("\n  {} ({}): {}", gpu::to_string(candidate.backend),
                               gpu::to_string(candidate.feature_level), passed_over);
  request_next_candidate(std::move(ticket), *shared);
}

void on_device(DeviceTicket& ticket, WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message) {
  auto shared = ticket.shared.lock();
  const bool success = status == WGPURequestDeviceStatus_Success && device != nullptr;
  if (!shared) {
    if (device != nullptr) ticket.library->procs().DeviceRelease(device);
    return;
  }
  --shared->outstanding_callbacks;
  if (!success) {
    if (device != nullptr) shared->procs().DeviceRelease(device);
    return ticket.answer(make_error(
        ErrorKind::DeviceFailed, MessageId::DeviceRequestFailed,
        fmt::format("device request failed (status {}): {}", static_cast<uint32_t>(status), gpu::to_std(message))));
  }
  const DeviceId id{shared->next_id++};
  shared->devices.emplace(id.value, device);
  ++shared->built;
  ticket.loss->id = id;
  ticket.loss->delivered = true;
  gpu::mark_capturing(device, ticket.loss.get());  // forgotten by the device's LostTicket
  ticket.answer(ProvidedDevice{id, device});
}

void on_device_lost(const LostTicket& ticket, WGPUDeviceLostReason reason, WGPUStringView message) {
  LossState& loss = *ticket.loss;
  LossReport report{reason, std::string(gpu::to_std(message))};
  if (auto shared = loss.shared.lock()) {
    --shared->outstanding_callbacks;
    if (auto forced = shared->forced.find(loss.id.value); loss.delivered && forced != shared->forced.end()) {
      report.message = std::move(forced->second);
      shared->forced.erase(forced);
    }
  }
  // A failed request reports FailedCreation here: that device was never delivered, so it
  // cannot be lost.
  if (!loss.delivered || reason == WGPUDeviceLostReason_FailedCreation) return;
  loss.to->receive(DeviceLost{loss.id, std::move(report)});
}

}  // namespace

DawnProvider::DawnProvider(gpu::Context* context, DawnProviderOptions options)
    : context_(context), options_(std::move(options)), shared_(std::make_shared<Shared>()) {
  if (context_ != nullptr) {
    shared_->library = context_->library_ptr();
    shared_->context = context_;
    shared_->instance = context_->instance();
  }
  shared_->on_uncaptured_error = options_.on_uncaptured_error;
}

DawnProvider::~DawnProvider() {
  if (context_ == nullptr) return;
  for (auto& [id, device] : shared_->devices) shared_->procs().DeviceRelease(device);
  for (auto& [id, hung] : shared_->hung) shared_->procs().DeviceRelease(hung.device);
  shared_->hung.clear();
  for (auto& [id, adapter] : shared_->adapters) shared_->procs().AdapterRelease(adapter);
  shared_->devices.clear();
  shared_->adapters.clear();
}

Result<void> DawnProvider::check_api() {
  if (context_ == nullptr) {
    return make_error(ErrorKind::LibraryMissing, MessageId::ProviderApiUnavailable, options_.unavailable_reason);
  }
  return {};
}

void DawnProvider::request_adapter(RequestId request, std::shared_ptr<ProviderEvents> to) {
  if (auto api = check_api(); !api) return to->receive(AdapterAnswered{request, api.error()});
  auto ticket = std::make_unique<AdapterTicket>();
  ticket->shared = shared_;
  ticket->library = shared_->library;
  ticket->request = request;
  ticket->to = std::move(to);
  ticket->plan = gpu::adapter_plan(options_.device.backend);
  request_next_candidate(std::move(ticket), *shared_);
}

void DawnProvider::request_device(RequestId request_id, const ProvidedAdapter& adapter, const std::string& label,
                                  std::shared_ptr<ProviderEvents> to) {
  if (auto api = check_api(); !api) return to->receive(DeviceAnswered{request_id, api.error()});
  // Checked before anything is registered with Dawn: a missing required feature fails the
  // request here, naming it.
  auto request = gpu::plan_device_request(shared_->procs(), adapter.adapter, options_.device);
  if (!request) return to->receive(DeviceAnswered{request_id, request.error()});
  auto loss = std::make_shared<LossState>();
  loss->shared = shared_;
  loss->to = std::move(to);
  auto lost_ticket = std::make_unique<LostTicket>(LostTicket{loss});

  WGPUDeviceDescriptor desc{};
  WGPUDawnCacheDeviceDescriptor cache{};
  cache.chain.sType = WGPUSType_DawnCacheDeviceDescriptor;
  if (options_.device.cache) {
    cache = options_.device.cache->descriptor();
    desc.nextInChain = reinterpret_cast<WGPUChainedStruct*>(&cache);
  }
  desc.label = gpu::string_view(label);
  desc.requiredFeatureCount = request->features.size();
  desc.requiredFeatures = request->features.data();
  if (request->limits) desc.requiredLimits = &*request->limits;
  desc.uncapturedErrorCallbackInfo = gpu::borrowed_callback<WGPUUncapturedErrorCallbackInfo>(*lost_ticket);
  desc.deviceLostCallbackInfo = gpu::once_callback<WGPUDeviceLostCallbackInfo>(
      WGPUCallbackMode_AllowProcessEvents,
      [ticket = std::move(lost_ticket)](const WGPUDevice*, WGPUDeviceLostReason reason, WGPUStringView message) {
        on_device_lost(*ticket, reason, message);
      });

  const auto cb = gpu::once_callback<WGPURequestDeviceCallbackInfo>(
      WGPUCallbackMode_AllowProcessEvents,
      [ticket = DeviceTicket{shared_, shared_->library, request_id, loss}](
          WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message) mutable {
        on_device(ticket, status, device, message);
      });
  shared_->outstanding_callbacks += 2;  // the request and the device's lost callback
  shared_->procs().AdapterRequestDevice(adapter.adapter, &desc, cb);
}

void DawnProvider::release_adapter(AdapterId adapter) {
  auto it = shared_->adapters.find(adapter.value);
  if (it == shared_->adapters.end()) return;
  shared_->procs().AdapterRelease(it->second);
  shared_->adapters.erase(it);
}

void DawnProvider::destroy_device(DeviceId device) {
  auto it = shared_->devices.find(device.value);
  if (it == shared_->devices.end()) return;
  const WGPUDevice raw = it->second;
  shared_->devices.erase(it);
  shared_->end_now(raw, DeviceEnd::Destroy);
}

void DawnProvider::release_device(DeviceId device) {
  auto it = shared_->devices.find(device.value);
  if (it == shared_->devices.end()) return;
  const WGPUDevice raw = it->second;
  shared_->devices.erase(it);
  shared_->end_now(raw, DeviceEnd::Release);
}

bool DawnProvider::force_loss(DeviceId device, std::string message) {
  auto it = shared_->devices.find(device.value);
  if (it == shared_->devices.end()) return false;
  const WGPUDevice raw = it->second;
  shared_->forced[device.value] = message;
  shared_->procs().DeviceForceLoss(raw, WGPUDeviceLostReason_Unknown, gpu::string_view(message));
  return true;
}

void DawnProvider::end_hung_device(DeviceId device, DeviceEnd end) {
  auto it = shared_->devices.find(device.value);
  if (it == shared_->devices.end()) return;
  const WGPUDevice raw = it->second;
  shared_->devices.erase(it);
  shared_->hung[device.value] = Shared::HungDevice{raw, end};
  const gpu::Procs& p = shared_->procs();
  WGPUQueue queue = p.DeviceGetQueue(raw);
  auto on_work_done = [weak = std::weak_ptr<Shared>(shared_), id = device.value](WGPUQueueWorkDoneStatus,
                                                                                 WGPUStringView) {
    // Any status ends the wait: finished, or the device is gone and runs nothing any more.
    auto shared = weak.lock();
    if (!shared) return;
    --shared->outstanding_callbacks;
    if (auto hung = shared->hung.find(id); hung != shared->hung.end()) hung->second.work_done = true;
  };
  ++shared_->outstanding_callbacks;
  p.QueueOnSubmittedWorkDone(
      queue, gpu::once_callback<WGPUQueueWorkDoneCallbackInfo>(WGPUCallbackMode_AllowProcessEvents, on_work_done));
  p.QueueRelease(queue);
}

void DawnProvider::process_events() const {
  if (context_ == nullptr) return;
  context_->process_events();
  // Ended outside the callback: ending a device inside its own queue's callback is not Dawn's
  // to expect. Its queue is idle now, so ending it does not wait.
  for (auto it = shared_->hung.begin(); it != shared_->hung.end();) {
    if (!it->second.work_done) {
      ++it;
      continue;
    }
    const Shared::HungDevice hung = it->second;
    it = shared_->hung.erase(it);
    shared_->end_now(hung.device, hung.end);
  }
}

uint64_t DawnProvider::hung_devices_waiting() const { return shared_->hung.size(); }

WGPUDevice DawnProvider::device(DeviceId id) const {
  auto it = shared_->devices.find(id.value);
  return it == shared_->devices.end() ? nullptr : it->second;
}

uint64_t DawnProvider::devices_built() const { return shared_->built; }
uint64_t DawnProvider::destroy_calls() const { return shared_->destroyed; }
uint64_t DawnProvider::release_calls() const { return shared_->released; }
uint64_t DawnProvider::live_devices() const { return shared_->devices.size(); }
uint64_t DawnProvider::live_adapters() const { return shared_->adapters.size(); }
uint64_t DawnProvider::outstanding_callbacks() const { return shared_->outstanding_callbacks; }

}  // namespace warden::device
