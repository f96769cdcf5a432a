/// @file
/// DeviceController: owns the current device generation and walks it through the transitions of
/// the device rules D1-D8 of docs/design.md (docs/device-lifecycle.md has the diagram).
///
/// Every initialisation is a new generation. Every async continuation (adapter request, device
/// request, lost report, resource preparation) carries the generation it started in and checks
/// it before it changes anything visible; a device from a superseded request is retired, never
/// attached. The controller starts nothing on its own: initialize() and retry() are explicit
/// calls, and the limit on retries lives outside it (RebuildPolicy).
///
/// Single-threaded: call it, and drive the provider's events, from one thread.
///
/// States flip before hooks run (Dawn: "flip the state before cleanup"). A transition that
/// ends a generation (initialize, stop, loss, report_hang, a failure, a refused retry, shutdown)
/// first takes the device out of view and sets the state it leads to, and only then runs the
/// retirement hooks: while stop_render_loop, detach_graphics and dispose_resources run,
/// state() already says Starting, Stopped, Lost or Failed and active_device() is empty. Ready
/// and the shown device are set together before show_graphics. So at every moment, inside
/// hooks too, state() is Ready exactly when active_device() names a device.
///
/// Re-entrancy. Any hook may call initialize(), retry(), stop(), shutdown(), report_hang(),
/// finish_preparation() and mark_presented() (not the destructor). A call that starts or ends
/// a generation supersedes the transition whose hook made it: that transition re-checks its
/// generation after each hook and abandons what is left of it (its on_state, fallback,
/// announce, request); the newer generation wins. A device whose retirement began is still
/// retired to the end (its remaining steps run, then it is ended). A fault is scored with the
/// RebuildPolicy once, before the transition's first hook, so a retry() from a hook is judged
/// with it counted. shutdown() overtaken this way returns Refused.
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
#include "warden/device/device_stash.h"
#include "warden/device/provider.h"
#include "warden/device/rebuild_policy.h"
#include "warden/device/retirement_policy.h"

namespace warden::device {

/// Where the controller is (docs/device-lifecycle.md).
enum class DeviceState { Idle, Starting, Ready, Lost, Stopped, Failed };
/// "idle", "starting", "ready", "lost", "stopped" or "failed".
const char* to_string(DeviceState state);

/// A generation token. 0 is the generation before the first initialize().
struct Generation {
  /// The number: incremented by every initialisation and every stop; 0 before the first.
  uint64_t value = 0;
  /// Generations order as their numbers do.
  constexpr auto operator<=>(const Generation&) const = default;
};

/// What the application's hooks are told about a device.
struct DeviceView {
  /// The generation the device belongs to.
  Generation generation{};
  /// The device, as its provider names it.
  DeviceId id{};
  gpu::Device device = nullptr;  ///< null from providers without real devices
};

/// The application says what these mean (show the fallback, show the graphics, announce,
/// stop the render loop, detach the view, dispose of the device's resources); warden calls them at the right
/// transitions. Any may be empty, and any may call back into the controller (see above). A hook
/// that throws is caught and recorded (hook_failures(), RetirementRecord::step_failures); the
/// transition carries on, except prepare_resources: one that throws fails its generation.
struct ControllerHooks {
  /// Show the view without the GPU, with `message` saying why.
  std::function<void(std::string_view message)> show_fallback{};
  /// Show the graphics of this (ready) device.
  std::function<void(const DeviceView&)> show_graphics{};
  /// Tell the user about a transition (e.g. "graphics restored").
  std::function<void(std::string_view message)> announce{};
  /// Called once for each show_graphics, when that device retires.
  std::function<void(const DeviceView&)> stop_render_loop{};
  /// Take this device's graphics out of view.
  std::function<void(const DeviceView&)> detach_graphics{};
  /// Called once for every device the controller received, when it retires.
  std::function<void(const DeviceView&)> dispose_resources{};
  /// Optional: build the active mode's resources for a new device from application data. When
  /// set, the device is shown only after finish_preparation(view.generation, ...) succeeds
  /// (it may be called from inside this hook). If it throws, the generation fails (scored as a
  /// failed creation, the device retired, the exception's message in the fallback).
  std::function<void(const DeviceView&)> prepare_resources{};
  /// Every state reached, with its fallback message: after the retirement the transition
  /// caused, before show_fallback; for Ready after show_graphics, before announce. A state a
  /// hook superseded before it was told is not reported.
  std::function<void(DeviceState, std::string_view message)> on_state{};
};

/// The Diagnostics category the controller reports under.
inline constexpr std::string_view kDiagnosticsCategory = "gfx.device";

/// What a DeviceController is built with besides its provider and hooks.
struct ControllerOptions {
  /// The label every requested device gets.
  std::string device_label = "warden device";
  RetirementPolicy* retirement = nullptr;  ///< null: RetirementPolicy::process()
  RebuildPolicy* rebuild = nullptr;        ///< null: no limit here; the owner keeps its own
  DeviceStash* stash = nullptr;            ///< null: no hand-off; keep_device is refused
  /// Where request_standby() keeps the spare device it asks for ahead of a loss; the next start
  /// (a recovery, retry or initialize) takes it instead of requesting one. Null: no standby.
  DeviceStash* standby = nullptr;
  /// Where every state change (gfx.device: starting, ready, lost, failed, stopped) and every
  /// retirement is reported, with its message id; null: nowhere. Must outlive the controller.
  Diagnostics* diagnostics = nullptr;
};

/// One retirement as it happened.
struct RetirementRecord {
  /// The generation that ended.
  Generation generation{};
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

/// How shutdown() ends the current device.
struct Teardown {
  /// The hot-restart path: the device is not at fault; hand it to the next engine through
  /// ControllerOptions::stash instead of letting it go.
  bool keep_device = false;
};

/// Owns the current device generation and walks it through its transitions (see the file comment).
class DeviceController {
 public:
  /// `provider`, and the policies and stash named in `options`, must outlive the controller.
  DeviceController(DeviceProvider& provider, ControllerHooks hooks, ControllerOptions options = {});
  /// Ends the current device (by the retirement policy) without calling hooks: an application
  /// that wants its hooks called tears down with shutdown() first.
  ~DeviceController();
  DeviceController(const DeviceController&) = delete;
  DeviceController& operator=(const DeviceController&) = delete;

  /// A new generation: retires the current device (if any), then asks for a new one. Opening
  /// the feature is a new user action: it does not ask the rebuild policy.
  void initialize();
  /// A new generation without a request: retires the current device, shows the stable fallback.
  void stop();
  /// An explicit retry: initialize(), unless the rebuild policy has given up (Refused). A
  /// refused retry leaves a shown device alone; anything else, a start still pending
  /// included, ends in Failed with the policy's explanation.
  Result<void> retry();
  /// Engine teardown: retires the device (or hands it to the stash), shows no fallback.
  /// Refused when a hook started a generation meanwhile: that generation is current.
  Result<void> shutdown(Teardown teardown = {});

  /// The application finished preparing resources for `generation`. Refused when that
  /// generation is no longer current: the caller releases what it made.
  Result<void> finish_preparation(Generation generation, Result<void> outcome);
  /// The shown device presented to a surface: from now on it is released, never destroyed.
  Result<void> mark_presented();
  /// Work submitted on `generation`'s device did not retire in time (see HangWatch): the device
  /// is let go like a lost one. Ignored for a generation that is no longer current.
  void report_hang(Generation generation, std::string_view detail);

  /// Asks the provider for a spare device, kept in ControllerOptions::standby, so that the next
  /// start adopts it instead of waiting for a device request (ADR 0031). Does nothing without a
  /// standby stash, while one is held or a standby request is in flight, or while the
  /// retirement policy refuses new devices. The request is asynchronous, but a provider may make
  /// the device inside the call that answers it (Dawn does): the caller picks a moment when a
  /// long frame is acceptable.
  void request_standby();
  /// True while a standby request is in flight.
  bool standby_requested() const;
  /// Starts that adopted the standby device instead of requesting one.
  uint64_t standby_takeovers() const;

  /// Where the controller is, or, while a transition's hooks run, where it is going.
  DeviceState state() const;
  const std::string& message() const;  ///< the fallback message of the current state
  /// The current generation.
  Generation generation() const;
  /// True when `generation` is still the current one: a continuation checks this before it changes anything.
  bool is_current(Generation generation) const;
  /// The device shown now: present exactly when state() is Ready.
  std::optional<DeviceView> active_device() const;
  /// One record per device retired, kept for the controller's life (diagnostics and tests).
  const std::vector<RetirementRecord>& retirements() const;
  /// What hooks threw, "<hook>: <what>", in order.
  const std::vector<std::string>& hook_failures() const;

  struct Core;  ///< shared with the continuations, which hold it weakly

 private:
  std::shared_ptr<Core> core_;
};

}  // namespace warden::device
