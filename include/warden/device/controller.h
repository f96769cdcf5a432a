/// @file
/// DeviceController: owns the current device and walks it through the transitions of the
/// device rules D1-D8 of docs/design.md (docs/device-lifecycle.md has the diagram).
///
/// Two numbers, each with its own word. A token names a transition: every initialisation, and
/// every end of one, takes a new token; every async continuation (adapter request, device
/// request, lost report, resource preparation) carries the token it started under and checks it
/// before it changes anything visible, so a device from a superseded request is ended, never
/// attached. A device generation names a device: 1 for the first one the controller received,
/// one more for each after it; logs name a device by it. The controller starts nothing on its
/// own: initialize() and retry() are explicit calls, and the limit on retries lives outside it
/// (RebuildPolicy).
///
/// Frame-thread calls: call it, and drive the provider's events, from the frame thread
/// (warden/core/frame_thread.h).
///
/// States flip before hooks run (Dawn: "flip the state before cleanup"). A transition that
/// ends a token (initialize, stop, loss, report_hang, a failure, a refused retry, shutdown)
/// first takes the device out of view and sets the state it leads to, and only then runs the
/// hooks of the device's end: while stop_render_loop, detach_graphics and dispose_resources run,
/// state() already says Starting, Stopped, Lost or Failed and active_device() is empty. Ready
/// and the shown device are set together before show_graphics. So at every moment, inside
/// hooks too, state() is Ready exactly when active_device() names a device.
///
/// Re-entrancy. Any hook may call initialize(), retry(), stop(), shutdown(), report_hang(),
/// finish_preparation() and mark_presented() (not the destructor). A call that takes a new
/// token supersedes the transition whose hook made it: that transition re-checks its token
/// after each hook and abandons what is left of it (its on_state, fallback, request); the newer
/// token wins. A device's end, once begun, still runs to its last step (its remaining steps
/// run, then it is ended). A fault is scored with the RebuildPolicy once, before the
/// transition's first hook, so a retry() from a hook is judged with it counted. shutdown()
/// overtaken this way returns Refused.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warden/core/diagnostics.h"
#include "warden/core/result.h"
#include "warden/device/device_end_policy.h"
#include "warden/device/device_stash.h"
#include "warden/device/provider.h"
#include "warden/device/rebuild_policy.h"

namespace warden::device {

/// Where the controller is (docs/device-lifecycle.md).
enum class DeviceState { Idle, Starting, Ready, Lost, Stopped, Failed };
/// "idle", "starting", "ready", "lost", "stopped" or "failed".
const char* to_string(DeviceState state);

/// What brought the controller to its state. The device layer states the facts; an application
/// puts them in its users' words (docs/device-lifecycle.md, "States and reasons").
enum class StateCause {
  NotStarted,      ///< Idle: initialize() was never called
  Starting,        ///< Starting: a device is being asked for
  Shown,           ///< Ready: a device is shown
  StoppedByUser,   ///< Stopped: stop(); no device is asked for until an explicit retry
  ShutDown,        ///< Stopped: shutdown(), the owner's teardown
  DeviceLost,      ///< Lost: the API reported the device lost (StateReason::loss)
  DeviceHung,      ///< Lost: report_hang(); its work did not finish (StateReason::detail)
  StartFailed,     ///< Failed: no device could be made or prepared (StateReason::detail)
  RebuildStopped,  ///< Failed: a retry() refused because the rebuild policy had given up
};
/// "not started", "starting", "shown", "stopped by the user", "shut down", "device lost",
/// "device hung", "start failed" or "rebuild stopped".
const char* to_string(StateCause cause);

/// Why the controller is in its state: the facts, never a sentence for a user.
struct StateReason {
  /// What happened; the fields below add its facts.
  StateCause cause = StateCause::NotStarted;
  /// DeviceLost: the API's reason and message, as given.
  LossReport loss{};
  /// DeviceHung: what did not finish; StartFailed: the error.
  std::string detail{};
  /// Set when the rebuild policy has given up (this fault exhausted it, or an earlier one): no
  /// device is asked for until the owner resets it (a new user action).
  std::optional<GiveUp> gave_up{};
  /// Reasons compare field by field.
  bool operator==(const StateReason&) const = default;
};
/// The reason in words for a log or an error ("device lost: unknown: forced", "start failed:
/// no adapter was returned", with "; rebuild policy gave up: ..." when it did).
std::string describe(const StateReason& reason);

/// A controller token: which transition of the controller a continuation belongs to. Every
/// initialisation and every end of one (a stop, a loss, a failure) takes a new token, so a
/// continuation started before compares unequal and changes nothing. Not a device number: a
/// device's number is DeviceView::device_generation.
struct Token {
  /// The number: incremented by every initialisation and every end of one; 0 before the first.
  uint64_t value = 0;
  /// Tokens order as their numbers do.
  constexpr auto operator<=>(const Token&) const = default;
};

/// Where the newest device generation is (GenerationRecord).
enum class GenerationPhase {
  None,       ///< no device received yet
  Preparing,  ///< received; its resources are being prepared (ControllerHooks::prepare_resources)
  Shown,      ///< shown: the controller is Ready on it
  Ended,      ///< ended (lost, hung, stopped, failed in preparation or shut down)
};
/// "none", "preparing", "shown" or "ended".
const char* to_string(GenerationPhase phase);

/// The one record of the newest device generation and its phase. The controller writes it as it
/// receives, shows and ends devices; everything above it (the Engine, the Registry, tiles,
/// presentation) reads it through DeviceController::generation() instead of keeping a copy.
struct GenerationRecord {
  /// The newest device generation received (DeviceView::device_generation); 0: none yet.
  uint64_t number = 0;
  /// The controller token it was received under: it lives while that token is current.
  Token token{};
  /// Its device, as the provider names it.
  DeviceId device{};
  /// What became of it.
  GenerationPhase phase = GenerationPhase::None;
};

/// What the application's hooks are told about a device.
struct DeviceView {
  /// The controller token the device was received under.
  Token token{};
  /// The device generation: the devices this controller received as current, counted from 1
  /// (a device for a superseded request is never counted, and has 0). The one number a log
  /// names a device by.
  uint64_t device_generation = 0;
  /// The device, as its provider names it.
  DeviceId id{};
  WGPUDevice device = nullptr;  ///< null from providers without real devices
};

/// The application says what these mean (show the fallback, show the graphics, stop the render
/// loop, detach the view, dispose of the device's resources); warden calls them at the right
/// transitions, with typed states and reasons, never words for users. Any may be empty, and any
/// may call back into the controller (see above). A hook that throws is caught and recorded
/// (hook_failures(), DeviceEndRecord::step_failures); the transition carries on, except
/// prepare_resources: one that throws fails its device's start.
struct ControllerHooks {
  /// Show the view without the GPU; `reason` says why (the application words it).
  std::function<void(const StateReason& reason)> show_fallback{};
  /// Show the graphics of this (ready) device.
  std::function<void(const DeviceView&)> show_graphics{};
  /// Called once for each show_graphics, when that device ends.
  std::function<void(const DeviceView&)> stop_render_loop{};
  /// Take this device's graphics out of view.
  std::function<void(const DeviceView&)> detach_graphics{};
  /// Called once for every device the controller received, when it ends.
  std::function<void(const DeviceView&)> dispose_resources{};
  /// Optional: build the active mode's resources for a new device from application data. When
  /// set, the device is shown only after finish_preparation(view.token, ...) succeeds (it may
  /// be called from inside this hook). If it throws, the start fails (scored as a failed
  /// creation, the device ended, StartFailed with the exception's message as its detail).
  std::function<void(const DeviceView&)> prepare_resources{};
  /// Every state reached, with its reason (for Lost, the API's loss report): after the
  /// device's end the transition caused, before show_fallback; for Ready after show_graphics.
  /// A state a hook superseded before it was told is not reported.
  std::function<void(DeviceState, const StateReason& reason)> on_state{};
};

/// The Diagnostics category the controller reports under.
inline constexpr std::string_view kDiagnosticsCategory = "gfx.device";

/// What a DeviceController is built with besides its provider and hooks.
struct ControllerOptions {
  /// The label every requested device gets.
  std::string device_label = "warden device";
  DeviceEndPolicy* device_end = nullptr;   ///< null: DeviceEndPolicy::process()
  RebuildPolicy* rebuild = nullptr;        ///< null: no limit here; the owner keeps its own
  DeviceStash* stash = nullptr;            ///< null: no hand-off; keep_device is refused
  /// Where request_standby() keeps the spare device it asks for ahead of a loss; the next start
  /// (a recovery, retry or initialize) takes it instead of requesting one. Null: no standby.
  DeviceStash* standby = nullptr;
  /// Where every state change (gfx.device: starting, ready, lost, failed, stopped) and every
  /// device's end is reported, with its message id; null: nowhere. Must outlive the controller.
  Diagnostics* diagnostics = nullptr;
};

/// One device's end as it happened.
struct DeviceEndRecord {
  /// The token the device was received under.
  Token token{};
  /// Its device generation (0: a device for a superseded request, never counted).
  uint64_t device_generation = 0;
  /// Its device.
  DeviceId device{};
  /// The device had been shown (show_graphics ran).
  bool was_attached = false;
  /// The device had presented to a surface (mark_presented()).
  bool presented = false;
  /// The device went to the DeviceStash instead of ending.
  bool stashed = false;
  std::optional<DeviceEnd> ended{};  ///< empty when stashed
  /// It hung: ended by the provider once its queue is idle (end_hung_device), not now.
  bool hung = false;
  std::vector<std::string> step_failures{};  ///< "<step>: <what>"
};
/// The name DeviceEndRecord had before (docs/design.md, "Glossary").
using RetirementRecord [[deprecated("renamed DeviceEndRecord")]] = DeviceEndRecord;

/// How shutdown() ends the current device.
struct Teardown {
  /// The hot-restart path: the device is not at fault; hand it to the next engine through
  /// ControllerOptions::stash instead of letting it go.
  bool keep_device = false;
};

/// Owns the current device and walks it through its transitions (see the file comment).
class DeviceController {
 public:
  /// `provider`, and the policies and stash named in `options`, must outlive the controller.
  DeviceController(DeviceProvider& provider, ControllerHooks hooks, ControllerOptions options = {});
  /// Ends the current device (by the device end policy) without calling hooks: an application
  /// that wants its hooks called tears down with shutdown() first.
  ~DeviceController();
  DeviceController(const DeviceController&) = delete;
  DeviceController& operator=(const DeviceController&) = delete;

  /// A new token: ends the current device (if any), then asks for a new one. Opening the
  /// feature is a new user action: it does not ask the rebuild policy.
  void initialize();
  /// A new token without a request: ends the current device, shows the stable fallback.
  void stop();
  /// An explicit retry: initialize(), unless the rebuild policy has given up (Refused). A
  /// refused retry leaves a shown device alone; anything else, a start still pending
  /// included, ends in Failed with the policy's explanation.
  Result<void> retry();
  /// Engine teardown: ends the device (or hands it to the stash), shows no fallback.
  /// Refused when a hook took a new token meanwhile (initialize()): that one is current.
  Result<void> shutdown(Teardown teardown = {});

  /// The application finished preparing resources for the device received under `token`.
  /// Refused when that token is no longer current: the caller releases what it made.
  Result<void> finish_preparation(Token token, Result<void> outcome);
  /// The shown device presented to a surface: from now on it is ended by release, never by
  /// destroy (on Dawn the release ends it at once: docs/adr/0051).
  Result<void> mark_presented();
  /// Work submitted on the device received under `token` did not retire in time (see
  /// HangWatch): the device is let go like a lost one. Ignored for a token no longer current.
  void report_hang(Token token, std::string_view detail);
  /// The device received under `token` is lost, and its owner knew before the provider reported
  /// it (it forced the loss): the device is let go as for the provider's report, now, with
  /// `report` as the loss's words, so that state() says Lost from here on. The provider's own
  /// report of the same loss comes later and is stale. Ignored for a token no longer current.
  void report_loss(Token token, LossReport report);

  /// Asks the provider for a spare device, kept in ControllerOptions::standby, so that the next
  /// start adopts it instead of waiting for a device request (ADR 0031). Does nothing without a
  /// standby stash, while one is held or a standby request is in flight, or while the
  /// device end policy refuses new devices. The request is asynchronous, but a provider may make
  /// the device inside the call that answers it (Dawn does): the caller picks a moment when a
  /// long frame is acceptable.
  void request_standby();
  /// True while a standby request is in flight.
  bool standby_requested() const;
  /// Starts that adopted the standby device instead of requesting one.
  uint64_t standby_takeovers() const;

  /// Where the controller is, or, while a transition's hooks run, where it is going.
  DeviceState state() const;
  /// Why the controller is in state().
  const StateReason& reason() const;
  /// reason() in words for a log or an error (describe()).
  const std::string& message() const;
  /// The current token.
  Token token() const;
  /// True when `token` is still the current one: a continuation checks this before it changes anything.
  bool is_current(Token token) const;
  /// The newest device generation and its phase, valid for the controller's life.
  const GenerationRecord& generation() const;
  /// The device shown now: present exactly when state() is Ready.
  std::optional<DeviceView> active_device() const;
  /// One record per device ended, kept for the controller's life (diagnostics and tests).
  const std::vector<DeviceEndRecord>& device_ends() const;
  /// The name device_ends() had before.
  [[deprecated("renamed device_ends()")]] const std::vector<DeviceEndRecord>& retirements() const {
    return device_ends();
  }
  /// What hooks threw, "<hook>: <what>", in order.
  const std::vector<std::string>& hook_failures() const;

  struct Core;  ///< held weakly by the controller's receiver of its provider's events

 private:
  std::shared_ptr<Core> core_;
};

}  // namespace warden::device
