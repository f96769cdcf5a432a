#include "warden/device/controller.h"

#include <exception>
#include <map>
#include <utility>
#include <variant>

#include <fmt/format.h>

#include "device/lost_route.h"
#include "warden/gpu/names.h"
#include "warden/core/enum_names.h"

namespace warden::device {
namespace {

StateReason because(StateCause cause) { return StateReason{.cause = cause}; }

// A device that arrived with nobody to take it (its controller gone, or a spare already held):
// never attached, never presented, so it ends as the device end policy ends such a device.
void end_unshown(DeviceProvider& provider, DeviceEndPolicy& end_policy, DeviceId device) {
  const DeviceEnd end = end_policy.end_for(false);
  end == DeviceEnd::Destroy ? provider.destroy_device(device) : provider.release_device(device);
  end_policy.note_ended(end, false);
}

StateReason start_failed(std::string why) {
  return StateReason{.cause = StateCause::StartFailed, .detail = std::move(why)};
}

// Runs an application hook; an exception is caught and returned as text, never propagated
// (the provider's events are received inside its callbacks, where an exception has nowhere to go).
template <typename Hook, typename... Args>
std::optional<std::string> run_hook(const Hook& hook, const Args&... args) {
  if constexpr (requires { static_cast<bool>(hook); }) {
    if (!static_cast<bool>(hook)) return std::nullopt;  // an empty std::function: not supplied
  }
  try {
    hook(args...);
    return std::nullopt;
  } catch (const std::exception& e) {
    return std::string(e.what());
  } catch (...) {
    return std::string("unknown exception");
  }
}

}  // namespace

constexpr EnumName<DeviceState> kDeviceStateNames[] = {
    {DeviceState::Idle, "idle"},
    {DeviceState::Starting, "starting"},
    {DeviceState::Ready, "ready"},
    {DeviceState::Lost, "lost"},
    {DeviceState::Stopped, "stopped"},
    {DeviceState::Failed, "failed"},
};
const char* to_string(DeviceState state) { return name_in(kDeviceStateNames, state); }

constexpr EnumName<GenerationPhase> kGenerationPhaseNames[] = {
    {GenerationPhase::None, "none"},
    {GenerationPhase::Preparing, "preparing"},
    {GenerationPhase::Shown, "shown"},
    {GenerationPhase::Ended, "ended"},
};
const char* to_string(GenerationPhase phase) { return name_in(kGenerationPhaseNames, phase); }

constexpr EnumName<StateCause> kStateCauseNames[] = {
    {StateCause::NotStarted, "not started"},
    {StateCause::Starting, "starting"},
    {StateCause::Shown, "shown"},
    {StateCause::StoppedByUser, "stopped by the user"},
    {StateCause::ShutDown, "shut down"},
    {StateCause::DeviceLost, "device lost"},
    {StateCause::DeviceHung, "device hung"},
    {StateCause::StartFailed, "start failed"},
    {StateCause::RebuildStopped, "rebuild stopped"},
};
const char* to_string(StateCause cause) { return name_in(kStateCauseNames, cause); }

std::string describe(const StateReason& reason) {
  std::string words = to_string(reason.cause);
  switch (reason.cause) {
    case StateCause::DeviceLost:
      // The API's own words, passed on as given: the reason it named and its message.
      words += fmt::format(": {}", gpu::to_string(reason.loss.reason));
      if (!reason.loss.message.empty()) words += ": " + reason.loss.message;
      break;
    case StateCause::DeviceHung:
    case StateCause::StartFailed: words += ": " + reason.detail; break;
    default: break;
  }
  if (reason.gave_up) words += "; rebuild policy gave up: " + describe(*reason.gave_up);
  return words;
}

// A device the controller received, with what happened to it.
struct Incarnation {
  Token token;
  uint64_t device_generation = 0;  // 0: received for a superseded token, never counted
  ProvidedDevice device;
  std::shared_ptr<LostRoute> route;
  bool preparing = false;
  bool attached = false;
  bool presented = false;
  bool ended = false;
  bool hung = false;  // report_hang ended it: its queue may never be idle
};

// The controller's receiver of its provider's events (provider.h). The provider holds it for as
// long as it has something to report, which may be after the controller is gone: it holds the
// controller weakly, and lets go of what an answer brings when nobody is left to take it. Each
// request is named when it is made, with what it was for, so that its answer goes to the step
// that asked; each delivered device's loss goes to whoever holds that device now (lost_route.h).
struct ControllerEvents final : ProviderEvents {
  // What a request in flight was for.
  struct Asked {
    Token token{};           // the start it belongs to (none for the standby)
    bool standby = false;    // asked for the standby device (ADR 0031)
    ProvidedAdapter adapter{};  // a device request: the adapter it was asked of
    std::shared_ptr<LostRoute> route{};  // a device request: where the device's loss will go
  };

  ControllerEvents(DeviceProvider& p, DeviceEndPolicy& e) : provider(p), end_policy(e) {}

  // Names a request before it is made (a provider without a usable API answers inside the call).
  RequestId ask(Asked what) {
    const RequestId id{next_request++};
    asked.emplace(id.value, std::move(what));
    return id;
  }
  // The one dispatch.
  void receive(ProviderEvent event) override {
    std::visit([this](auto& e) { on(std::move(e)); }, event);
  }
  void on(AdapterAnswered answered);
  void on(DeviceAnswered answered);
  void on(DeviceLost lost);
  std::optional<Asked> take(RequestId request) {
    auto found = asked.find(request.value);
    if (found == asked.end()) return std::nullopt;
    Asked what = std::move(found->second);
    asked.erase(found);
    return what;
  }

  DeviceProvider& provider;
  DeviceEndPolicy& end_policy;
  std::weak_ptr<DeviceController::Core> core;
  uint64_t next_request = 1;
  std::map<uint64_t, Asked> asked;  // by request id
  // Every device delivered and not reported lost yet, by device id: its route.
  std::map<uint64_t, std::shared_ptr<LostRoute>> routes;
};

struct DeviceController::Core : std::enable_shared_from_this<Core> {
  Core(DeviceProvider& p, ControllerHooks h, ControllerOptions o)
      : provider(p),
        hooks(std::move(h)),
        options(std::move(o)),
        end_policy(options.device_end != nullptr ? *options.device_end : DeviceEndPolicy::process()),
        events(std::make_shared<ControllerEvents>(provider, end_policy)) {}

  DeviceProvider& provider;
  ControllerHooks hooks;
  ControllerOptions options;
  DeviceEndPolicy& end_policy;
  std::shared_ptr<ControllerEvents> events;  // given with every request (the constructor points it here)

  Token token{};
  GenerationRecord generation{};  // the newest device generation (controller.h); written only here
  DeviceState state = DeviceState::Idle;
  StateReason reason{};
  std::string message = describe(reason);
  std::unique_ptr<Incarnation> active;  // the device shown, if any
  std::vector<DeviceEndRecord> device_ends;
  std::vector<std::string> hook_failures;
  bool standby_in_flight = false;
  uint64_t standby_takeovers = 0;

  // A device received under `token`, as current: the next device generation, being prepared.
  uint64_t receive(Token token, DeviceId device) {
    generation = GenerationRecord{generation.number + 1, token, device, GenerationPhase::Preparing};
    return generation.number;
  }

  // ---- tokens -----------------------------------------------------------------------------
  bool is_current(Token t) const { return t == token; }
  // Every stop, loss, failure or replacement takes a new token first, so nothing that is
  // still in flight for the old one can change what is shown.
  Token next_token() {
    token = Token{token.value + 1};
    return token;
  }
  std::unique_ptr<Incarnation> take_active() { return std::exchange(active, nullptr); }

  DeviceView view(const Incarnation& inc) const {
    return DeviceView{inc.token, inc.device_generation, inc.device.id, inc.device.device};
  }

  // Runs a hook; what it threw is recorded and returned. Any hook may call back into the
  // controller (controller.h, "Re-entrancy"): after a call, the caller re-checks its token.
  template <typename Hook, typename... Args>
  std::optional<std::string> call(std::string_view name, const Hook& hook, const Args&... args) {
    auto failure = run_hook(hook, args...);
    if (failure) hook_failures.push_back(fmt::format("{}: {}", name, *failure));
    return failure;
  }

  // ---- states -----------------------------------------------------------------------------
  // The state flips before any hook hears of the change (Dawn: "flip the state before
  // cleanup"), together with what is attached: a hook that asks state() or active_device()
  // while a device ends is told where the controller is going, and the two agree.
  void flip(DeviceState next, StateReason why) {
    state = next;
    reason = std::move(why);
    message = describe(reason);
  }

  // Every state change goes to the diagnostics with the id of its state: an application that
  // logs them sees each loss, failure and recovery once, in order, with the device generation
  // it concerns (the one shown or taken out of view; else the one being asked for). The sink
  // is application code: it runs only where a hook could, so it may call back in (a sink that
  // starts or stops a device is handled as a hook that does).
  void report_state(uint64_t device_generation) {
    if (options.diagnostics == nullptr) return;
    struct Entry {
      Severity severity;
      MessageId id;
    };
    const Entry entry = [&]() -> Entry {
      switch (state) {
        case DeviceState::Idle:
        case DeviceState::Starting: return {Severity::Info, MessageId::DeviceStarting};
        case DeviceState::Ready: return {Severity::Info, MessageId::DeviceReady};
        case DeviceState::Lost: return {Severity::Warning, MessageId::DeviceLost};
        case DeviceState::Stopped: return {Severity::Info, MessageId::DeviceStopped};
        case DeviceState::Failed: return {Severity::Error, MessageId::DeviceFailed};
      }
      return {Severity::Error, MessageId::DeviceFailed};
    }();
    options.diagnostics->report(entry.severity, entry.id,
                                fmt::format("device generation {}: {}: {}", device_generation, to_string(state),
                                            message));
  }

  enum class Fallback { Show, None };
  // Tells the application that `t`'s transition arrived: on_state, then the fallback. Either
  // hook may take a new token; then the rest is left to it. Returns whether `t` is still
  // current. The hooks get their own copy: one that starts a transition replaces `reason`.
  bool tell(Token t, Fallback fallback) {
    if (!is_current(t)) return false;
    const StateReason told = reason;
    call("on state", hooks.on_state, state, told);
    if (fallback == Fallback::Show && is_current(t)) call("show fallback", hooks.show_fallback, told);
    return is_current(t);
  }

  // Ends the current token's transition: a new token, the device taken out of view and the
  // state flipped, then the old device ended. Every stop, loss, failure or replacement
  // starts here, so nothing still in flight for the old token can change what is shown. The
  // caller goes on only while the returned token is current: an end hook may have taken
  // a newer one, and the newer one wins.
  Token end_token(DeviceState next, StateReason why, bool keep_device = false) {
    const Token t = next_token();
    std::unique_ptr<Incarnation> old = take_active();
    flip(next, std::move(why));
    // Where an end hook may run too: the old device is out of view.
    // The newest generation ends with its incarnation (an older one ended before it was received).
    if (old && old->device_generation == generation.number) generation.phase = GenerationPhase::Ended;
    report_state(old ? old->device_generation : generation.number + 1);
    end_incarnation(old.get(), keep_device);
    return t;
  }

  // Records a fault with the rebuild policy; once it has given up, the reason says so. Called
  // before any hook of the transition runs, so a retry() from one of them is judged with this
  // fault counted, and the fault is scored once even when a hook's token supersedes the
  // transition.
  StateReason score(FaultKind kind, std::string_view detail, StateReason why) {
    if (options.rebuild == nullptr) return why;
    options.rebuild->record_fault(kind, detail);
    why.gave_up = options.rebuild->give_up();
    return why;
  }

  // ---- a device's end (docs/design.md, device rule D3) ------------------------------------
  // Stop the render loop, detach the view, dispose of the device's resources, end the
  // device: each step runs even if the one before it throws (a chain of finally blocks).
  // Idempotent: the flag is flipped before any step, so a second call, or a call re-entered
  // from a hook, does nothing. It only ever touches `inc`, never the replacement, and always
  // runs to its end: a hook that takes a new token meanwhile does not save `inc`.
  void end_incarnation(Incarnation* inc, bool keep_device = false) {
    if (inc == nullptr || inc->ended) return;
    inc->ended = true;
    DeviceEndRecord record;
    record.token = inc->token;
    record.device_generation = inc->device_generation;
    record.device = inc->device.id;
    record.was_attached = inc->attached;
    record.presented = inc->presented;
    const DeviceView v = view(*inc);
    auto step = [&](std::string_view name, const auto& hook) {
      if (auto failure = run_hook(hook, v)) record.step_failures.push_back(fmt::format("{}: {}", name, *failure));
    };
    // The render loop and the view exist only for a device that was shown.
    if (inc->attached) {
      step("stop render loop", hooks.stop_render_loop);
      step("detach graphics", hooks.detach_graphics);
    }
    step("dispose device resources", hooks.dispose_resources);
    step("end device", [&](const DeviceView&) { end_device(*inc, keep_device, record); });
    if (options.diagnostics != nullptr) {
      const char* how = record.stashed ? "kept for the next engine"
                        : record.hung ? (record.ended == DeviceEnd::Destroy ? "hung: destroyed once its queue is idle"
                                                                            : "hung: released once its queue is idle (it presented)")
                        : record.ended == DeviceEnd::Destroy ? "destroyed"
                                                             : "released (it presented, so it is never destroyed)";
      const std::string which = record.device_generation != 0
                                    ? fmt::format("device generation {}", record.device_generation)
                                    : std::string("a device for a superseded request");
      options.diagnostics->info(MessageId::DeviceEnded,
                                fmt::format("{} ended: {}", which, how));
    }
    device_ends.push_back(std::move(record));
  }

  // ADR-0003: a device that presented is let go, never destroyed; a healthy device torn down
  // with keep_device goes to the stash for the next engine.
  void end_device(Incarnation& inc, bool keep_device, DeviceEndRecord& record) {
    if (keep_device && options.stash != nullptr && !inc.route->lost) {
      inc.route->receiver.reset();
      options.stash->put(StashedDevice{&provider, inc.device, inc.presented, inc.route, &end_policy});
      record.stashed = true;
      return;
    }
    const DeviceEnd end = end_policy.end_for(inc.presented);
    if (inc.hung) {
      provider.end_hung_device(inc.device.id, end);
      record.hung = true;
    } else if (end == DeviceEnd::Destroy) {
      provider.destroy_device(inc.device.id);
    } else {
      provider.release_device(inc.device.id);
    }
    end_policy.note_ended(end, inc.presented);
    record.ended = end;
  }

  // ---- the transitions --------------------------------------------------------------------
  // initialize() (device rule D2): a new token; the old device is ended before anything is
  // asked of the provider.
  // ("Starting..." is shown after ending it, not before, so no hook runs while the
  // old device is still out.)
  void initialize() {
    const Token token = end_token(DeviceState::Starting, because(StateCause::Starting));
    if (!tell(token, Fallback::Show)) return;

    if (auto api = provider.check_api(); !api) {
      return fail(token, fmt::format("WebGPU is unavailable ({})", api.error().message), std::nullopt);
    }
    if (auto admitted = end_policy.admit_new_device(); !admitted) {
      return fail(token, admitted.error().message, std::nullopt);
    }
    if (options.stash != nullptr) {
      if (auto stashed = options.stash->take(provider)) return adopt(token, std::move(*stashed));
    }
    if (options.standby != nullptr) {
      if (auto spare = options.standby->take(provider)) {
        ++standby_takeovers;
        return adopt(token, std::move(*spare));
      }
    }
    provider.request_adapter(events->ask({.token = token}), events);
  }

  void on_adapter(Token token, AdapterReply reply) {
    if (!is_current(token)) {  // superseded while pending: let go of what it made
      if (reply && reply.value()) provider.release_adapter(reply.value()->id);
      return;
    }
    if (!reply) {
      // NoAdapter: the request worked and found none, and the API said why (provider.h).
      const std::string why = reply.error().kind == ErrorKind::NoAdapter
                                  ? fmt::format("no adapter was returned: {}", reply.error().message)
                                  : fmt::format("the adapter request was rejected ({})", reply.error().message);
      return fail(token, why, FaultKind::FailedCreation);
    }
    if (!reply.value()) return fail(token, "no adapter was returned", FaultKind::FailedCreation);

    const ProvidedAdapter adapter = *reply.value();
    const RequestId request =
        events->ask({.token = token, .adapter = adapter, .route = std::make_shared<LostRoute>()});
    provider.request_device(request, adapter, options.device_label, events);
  }

  void on_device(Token token, DeviceReply reply, std::shared_ptr<LostRoute> route) {
    if (reply) end_policy.note_built();
    if (!is_current(token)) {
      // Device rule D2: a device for a token that is no longer current is ended, never
      // attached, and its late loss goes nowhere. It is no device generation of this controller.
      if (reply) {
        Incarnation stale{token, 0, *reply, route};
        end_incarnation(&stale);
      }
      return;
    }
    if (!reply) {
      return fail(token, fmt::format("the device request was rejected ({})", reply.error().message),
                  FaultKind::FailedCreation);
    }
    active = std::make_unique<Incarnation>(Incarnation{token, receive(token, reply->id), *reply, std::move(route)});
    listen_for_loss(token);
    prepare_or_publish(token);
  }

  // ---- the standby device (ADR 0031) --------------------------------------------------------
  // Asked for like a generation's device, but bound to no generation: it goes to the standby
  // stash, where its loss is only recorded (the stash lets a lost one go), until a start adopts
  // it. A failed request leaves no standby; the next start requests a device as it would have.
  void request_standby() {
    if (options.standby == nullptr || options.standby->holds() || standby_in_flight) return;
    if (!provider.check_api() || !end_policy.admit_new_device()) return;
    standby_in_flight = true;
    provider.request_adapter(events->ask({.standby = true}), events);
  }

  void on_standby_adapter(AdapterReply reply) {
    if (!reply || !reply.value()) {
      standby_in_flight = false;
      return;
    }
    const ProvidedAdapter adapter = *reply.value();
    const RequestId request =
        events->ask({.standby = true, .adapter = adapter, .route = std::make_shared<LostRoute>()});
    provider.request_device(request, adapter, options.device_label + " (standby)", events);
  }

  // Bound to no generation: its loss is only recorded (the stash lets a lost one go).
  void on_standby_device(DeviceReply reply, std::shared_ptr<LostRoute> route) {
    standby_in_flight = false;
    if (!reply) return;
    if (options.standby->holds()) return end_unshown(provider, end_policy, reply->id);
    options.standby->put(StashedDevice{&provider, *reply, false, std::move(route), &end_policy});
  }

  // The hot-restart path: a device handed over by the engine before this one.
  void adopt(Token token, StashedDevice stashed) {
    active = std::make_unique<Incarnation>(
        Incarnation{token, receive(token, stashed.device.id), stashed.device, std::move(stashed.route)});
    active->presented = stashed.presented;
    listen_for_loss(token);
    prepare_or_publish(token);
  }

  // Only the new device's loss is followed, and only while its token is current (on_lost).
  void listen_for_loss(Token token) {
    active->route->receiver = weak_from_this();
    active->route->token = token;
  }

  void prepare_or_publish(Token token) {
    if (!hooks.prepare_resources) return publish(token);
    active->preparing = true;
    if (auto failure = call("prepare resources", hooks.prepare_resources, view(*active))) {
      // A preparation that threw will never report: fail its start rather than leave it in
      // Starting for ever, holding a live device.
      fail(token, fmt::format("preparing resources failed ({})", *failure), FaultKind::FailedCreation);
    }
  }

  Result<void> finish_preparation(Token token, Result<void> outcome) {
    if (!is_current(token) || !active || !active->preparing) {
      return make_error(ErrorKind::Refused, MessageId::PreparationFinishedLate,
                        fmt::format("preparation under token {} finished after that token ended "
                                    "(current: {}); release what it made",
                                    token.value, this->token.value));
    }
    active->preparing = false;
    if (!outcome) {
      fail(token, fmt::format("preparing resources failed ({})", outcome.error().message), FaultKind::FailedCreation);
      return {};
    }
    publish(token);
    return {};
  }

  // The device becomes the shown one, the graphics are shown, Ready is told. Attached and
  // Ready flip together, before show_graphics, so whatever a hook does from here on meets a
  // device that is shown.
  void publish(Token token) {
    active->attached = true;
    generation.phase = GenerationPhase::Shown;
    const uint64_t shown = active->device_generation;
    flip(DeviceState::Ready, because(StateCause::Shown));
    call("show graphics", hooks.show_graphics, view(*active));
    // Reported once the device is shown, so a sink that ends the token ends a device whose
    // show_graphics ran, as an on_state hook would.
    if (!is_current(token)) return;
    report_state(shown);
    if (!tell(token, Fallback::None)) return;
    if (options.rebuild != nullptr) options.rebuild->replacement_ready();
  }

  // The lost report (device rule D2): a late loss of a replaced device changes nothing.
  void on_lost(Token token, LossReport report) {
    if (!is_current(token)) return;
    const std::string detail = report.message;
    StateReason why = score(FaultKind::Lost, detail, StateReason{.cause = StateCause::DeviceLost, .loss = std::move(report)});
    tell(end_token(DeviceState::Lost, std::move(why)), Fallback::Show);
  }

  // Let go like a lost device: a hung device must not be handed to its replacement.
  void report_hang(Token token, std::string_view detail) {
    if (!is_current(token) || !active) return;
    active->hung = true;
    StateReason why = score(FaultKind::Hung, detail,
                            StateReason{.cause = StateCause::DeviceHung, .detail = std::string(detail)});
    tell(end_token(DeviceState::Lost, std::move(why)), Fallback::Show);
  }

  // A failed start: only the current token may change what is shown. The token ends here
  // too, so the late loss of a device it made is stale.
  void fail(Token token, std::string why, std::optional<FaultKind> fault) {
    if (!is_current(token)) return;
    const std::string detail = why;
    StateReason reason_now = start_failed(std::move(why));
    if (fault) reason_now = score(*fault, detail, std::move(reason_now));
    tell(end_token(DeviceState::Failed, std::move(reason_now)), Fallback::Show);
  }

  // stop() (device rule D5): the token first, then the device's end, then the stable fallback. No
  // new request: only an explicit retry asks for a device.
  void stop() { tell(end_token(DeviceState::Stopped, because(StateCause::StoppedByUser)), Fallback::Show); }

  Result<void> retry() {
    if (options.rebuild != nullptr && options.rebuild->gave_up()) {
      const std::string explanation = "the rebuild policy gave up: " + options.rebuild->explanation();
      // A device that is up (initialize() does not ask the policy) stays as it is.
      if (active && active->attached) return make_error(ErrorKind::Refused, MessageId::RebuildGaveUp, explanation);
      // Anything else ends here, a start still pending included: it must not reach Ready
      // after the fallback said the policy gave up.
      tell(end_token(DeviceState::Failed,
                     StateReason{.cause = StateCause::RebuildStopped, .gave_up = options.rebuild->give_up()}),
           Fallback::Show);
      return make_error(ErrorKind::Refused, MessageId::RebuildGaveUp, explanation);
    }
    initialize();
    return {};
  }

  Result<void> shutdown(Teardown teardown) {
    const bool can_keep = teardown.keep_device && options.stash != nullptr;
    const Token token = end_token(DeviceState::Stopped, because(StateCause::ShutDown), can_keep);
    if (!tell(token, Fallback::None)) {
      return make_error(ErrorKind::Refused, MessageId::ShutdownOvertaken,
                        fmt::format("shutdown overtaken: a hook took token {} while the device was "
                                    "ended; that token is current, not shut down",
                                    this->token.value));
    }
    if (teardown.keep_device && !can_keep) {
      return make_error(ErrorKind::InvalidArgument, MessageId::KeepDeviceNeedsStash,
                        "shutdown with keep_device needs ControllerOptions::stash; the device was let go instead");
    }
    return {};
  }

  Result<void> mark_presented() {
    if (!active || !active->attached) {
      return make_error(ErrorKind::Refused, MessageId::MarkPresentedNoDevice,
                        fmt::format("mark_presented: no device is shown (state {}, token {})", to_string(state),
                                    token.value));
    }
    active->presented = true;
    return {};
  }
};

void ControllerEvents::on(AdapterAnswered answered) {
  std::optional<Asked> what = take(answered.request);
  if (!what) return;
  auto controller = core.lock();
  if (!controller) {  // nobody wants it
    if (answered.reply && answered.reply.value()) provider.release_adapter(answered.reply.value()->id);
    return;
  }
  if (what->standby) return controller->on_standby_adapter(std::move(answered.reply));
  controller->on_adapter(what->token, std::move(answered.reply));
}

void ControllerEvents::on(DeviceAnswered answered) {
  std::optional<Asked> what = take(answered.request);
  if (!what) return;
  provider.release_adapter(what->adapter.id);  // the device holds what it needs of it
  if (answered.reply) routes[answered.reply->id.value] = what->route;
  auto controller = core.lock();
  if (!controller) {  // the controller is gone: nobody will attach it
    if (answered.reply) {
      end_policy.note_built();
      end_unshown(provider, end_policy, answered.reply->id);
    }
    return;
  }
  if (what->standby) {
    if (answered.reply) end_policy.note_built();
    return controller->on_standby_device(std::move(answered.reply), std::move(what->route));
  }
  controller->on_device(what->token, std::move(answered.reply), std::move(what->route));
}

void ControllerEvents::on(DeviceLost lost) {
  auto found = routes.find(lost.device.value);
  if (found == routes.end()) return;
  std::shared_ptr<LostRoute> route = std::move(found->second);
  routes.erase(found);
  route->report(std::move(lost.report));
}

void LostRoute::report(LossReport report) {
  lost = true;
  if (auto core = receiver.lock()) core->on_lost(token, std::move(report));
}

DeviceController::DeviceController(DeviceProvider& provider, ControllerHooks hooks, ControllerOptions options)
    : core_(std::make_shared<Core>(provider, std::move(hooks), std::move(options))) {
  core_->events->core = core_;
}

DeviceController::~DeviceController() {
  core_->hooks = ControllerHooks{};
  (void)core_->shutdown(Teardown{});
}

void DeviceController::initialize() { core_->initialize(); }
void DeviceController::stop() { core_->stop(); }
Result<void> DeviceController::retry() { return core_->retry(); }
Result<void> DeviceController::shutdown(Teardown teardown) { return core_->shutdown(teardown); }
Result<void> DeviceController::finish_preparation(Token token, Result<void> outcome) {
  return core_->finish_preparation(token, std::move(outcome));
}
Result<void> DeviceController::mark_presented() { return core_->mark_presented(); }
void DeviceController::report_hang(Token token, std::string_view detail) {
  core_->report_hang(token, detail);
}
void DeviceController::report_loss(Token token, LossReport report) {
  if (!core_->active) return;  // a start without a device yet: nothing of it can be lost
  core_->on_lost(token, std::move(report));
}

void DeviceController::request_standby() { core_->request_standby(); }
bool DeviceController::standby_requested() const { return core_->standby_in_flight; }
uint64_t DeviceController::standby_takeovers() const { return core_->standby_takeovers; }

DeviceState DeviceController::state() const { return core_->state; }
const StateReason& DeviceController::reason() const { return core_->reason; }
const std::string& DeviceController::message() const { return core_->message; }
Token DeviceController::token() const { return core_->token; }
const GenerationRecord& DeviceController::generation() const { return core_->generation; }
bool DeviceController::is_current(Token token) const { return core_->is_current(token); }
std::optional<DeviceView> DeviceController::active_device() const {
  if (!core_->active || !core_->active->attached) return std::nullopt;
  return core_->view(*core_->active);
}
const std::vector<DeviceEndRecord>& DeviceController::device_ends() const { return core_->device_ends; }
const std::vector<std::string>& DeviceController::hook_failures() const { return core_->hook_failures; }

}  // namespace warden::device
