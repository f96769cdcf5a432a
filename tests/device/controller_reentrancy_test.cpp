// Hooks that call back into the controller (controller.h, "Re-entrancy"): a named test for each
// defect found from outside, then every hook x every call a hook may make x every transition.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "support/device_print.h"
#include "support/messages.h"
#include "warden/device/controller.h"
#include "warden/device/test_provider.h"

namespace warden::device {

// Failures print the state's name, not its bytes.
void PrintTo(DeviceState state, std::ostream* out) { *out << to_string(state); }

namespace {

const StateReason kStarting{.cause = StateCause::Starting};
const StateReason kStoppedByUser{.cause = StateCause::StoppedByUser};

// One controller and everything it talks to, built fresh for each case.
struct World {
  TestProvider provider;
  TestRenderer renderer{provider};
  DeviceEndPolicy end_policy{DeviceEndOptions{}};
  SteadyTime now{};
  RebuildPolicy rebuild{RebuildPolicyOptions{.now = [this] { return now; }}};
  std::unique_ptr<DeviceController> controller;  // last: goes first

  // The renderer's hooks, changed by `adjust` (which wraps the ones a test makes re-enter).
  DeviceController& make(const std::function<void(ControllerHooks&)>& adjust = {}) {
    ControllerHooks hooks = renderer.hooks();
    if (adjust) adjust(hooks);
    controller = std::make_unique<DeviceController>(
        provider, std::move(hooks), ControllerOptions{.device_end = &end_policy, .rebuild = &rebuild});
    return *controller;
  }

  DeviceId start_ready(size_t adapter_request, size_t device_request) {
    controller->initialize();
    EXPECT_TRUE(provider.resolve_adapter(adapter_request));
    auto device = provider.resolve_device(device_request);
    EXPECT_TRUE(device);
    EXPECT_EQ(controller->state(), DeviceState::Ready);
    return device ? device.value() : DeviceId{};
  }

  // Three faults at the same instant: the policy gives up.
  void give_up() {
    for (int i = 0; i < 3; ++i) rebuild.record_fault(FaultKind::Lost, "an earlier loss");
  }

  bool journaled_before(std::string_view first, std::string_view second) const {
    auto a = provider.find(first);
    auto b = provider.find(second);
    return a && b && *a < *b;
  }
};

// `hook` (one of ControllerHooks' members) with `after` run once it returned or threw.
template <typename... Args>
using HookOf = std::type_identity_t<std::function<void(Args...)>>;

template <typename... Args>
std::function<void(Args...)> then(HookOf<Args...> hook, HookOf<Args...> after) {
  return [hook = std::move(hook), after = std::move(after)](Args... args) {
    try {
      if (hook) hook(args...);
    } catch (...) {
      after(args...);
      throw;
    }
    after(args...);
  };
}

// ---- named regressions ----------------------------------------------------------------------

TEST(ControllerReentrancy, OnStateStopWhenEnteringReadyDoesNotCrashOrDetachUnshownDevice) {
  World w;
  w.make([&](ControllerHooks& h) {
    h.on_state = then<DeviceState, const StateReason&>(h.on_state, [&](DeviceState state, const StateReason&) {
      if (state == DeviceState::Ready) w.controller->stop();
    });
  });
  w.controller->initialize();
  ASSERT_TRUE(w.provider.resolve_adapter(1));
  auto a = w.provider.resolve_device(1);
  ASSERT_TRUE(a);

  EXPECT_EQ(w.controller->state(), DeviceState::Stopped);
  EXPECT_FALSE(w.controller->active_device().has_value());
  EXPECT_FALSE(w.renderer.attached().has_value());
  EXPECT_EQ(w.provider.live_devices(), 0u);
  EXPECT_TRUE(w.journaled_before("show graphics d1", "stop render loop d1"))
      << "the render loop of a device that was never shown was stopped";
  EXPECT_TRUE(w.journaled_before("show graphics d1", "detach graphics d1"))
      << "a device that was never shown was detached";
  EXPECT_EQ(w.renderer.states().back(), DeviceState::Stopped) << "the last state told is the stop, never Ready";
  EXPECT_EQ(w.renderer.fallbacks().back(), kStoppedByUser);
}

TEST(ControllerReentrancy, EndHookInitializingDuringALossWinsOverTheLoss) {
  World w;
  bool armed = false;
  w.make([&](ControllerHooks& h) {
    h.dispose_resources = then<const DeviceView&>(h.dispose_resources, [&](const DeviceView&) {
      if (std::exchange(armed, false)) w.controller->initialize();
    });
  });
  const DeviceId a = w.start_ready(1, 1);
  armed = true;
  ASSERT_TRUE(w.provider.lose(a));

  EXPECT_EQ(w.controller->state(), DeviceState::Starting) << "the token the hook took is current";
  EXPECT_EQ(w.controller->reason(), kStarting);
  EXPECT_EQ(w.renderer.fallbacks().back(), kStarting);
  EXPECT_EQ(w.renderer.states().back(), DeviceState::Starting);
  EXPECT_EQ(w.rebuild.strikes(FaultKind::Lost), 1u) << "the loss is scored once";

  ASSERT_TRUE(w.provider.resolve_adapter(2));
  auto b = w.provider.resolve_device(2);
  ASSERT_TRUE(b);
  EXPECT_EQ(w.controller->state(), DeviceState::Ready);
  EXPECT_EQ(w.renderer.attached(), b.value());
  EXPECT_EQ(w.controller->active_device()->id, b.value());
}

TEST(ControllerReentrancy, EndHookRetryingDuringShutdownLeavesTheNewGenerationCurrent) {
  World w;
  bool armed = false;
  w.make([&](ControllerHooks& h) {
    h.detach_graphics = then<const DeviceView&>(h.detach_graphics, [&](const DeviceView&) {
      if (std::exchange(armed, false)) {
        EXPECT_TRUE(w.controller->retry());
      }
    });
  });
  w.start_ready(1, 1);
  armed = true;
  auto shut = w.controller->shutdown();

  ASSERT_THAT(shut, warden::testing::FailsWith(MessageId::ShutdownOvertaken)) << "a shutdown overtaken by a new generation says so";
  EXPECT_EQ(shut.error().kind, ErrorKind::Refused);
  EXPECT_EQ(w.controller->state(), DeviceState::Starting);
  ASSERT_TRUE(w.provider.resolve_adapter(2));
  auto b = w.provider.resolve_device(2);
  ASSERT_TRUE(b);
  EXPECT_EQ(w.controller->state(), DeviceState::Ready);
  EXPECT_EQ(w.renderer.attached(), b.value());
}

// stop, report_hang, a failure and a replacement have the loss's shape: each yields to the
// generation its end hooks start.
TEST(ControllerReentrancy, EveryEndingTransitionYieldsToAGenerationItsHooksStart) {
  struct Row {
    const char* transition;
    bool prepared;
    std::function<void(World&)> act;
  };
  const std::vector<Row> rows = {
      {"stop", false, [](World& w) { w.controller->stop(); }},
      {"report_hang", false, [](World& w) { w.controller->report_hang(w.controller->token(), "hung"); }},
      {"initialize", false, [](World& w) { w.controller->initialize(); }},
      {"failed preparation", true,
       [](World& w) {
         (void)w.controller->finish_preparation(w.controller->token(),
                                                make_error(ErrorKind::Compilation, "bad shader"));
       }},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.transition);
    World w;
    if (row.prepared) w.renderer.defer_preparation();
    bool armed = false;
    w.make([&](ControllerHooks& h) {
      h.dispose_resources = then<const DeviceView&>(h.dispose_resources, [&](const DeviceView&) {
        if (std::exchange(armed, false)) w.controller->initialize();
      });
    });
    w.controller->initialize();
    ASSERT_TRUE(w.provider.resolve_adapter(1));
    ASSERT_TRUE(w.provider.resolve_device(1));
    armed = true;
    row.act(w);

    EXPECT_EQ(w.controller->state(), DeviceState::Starting);
    EXPECT_EQ(w.renderer.fallbacks().back(), kStarting);
    const size_t newest = w.provider.adapter_requests();
    ASSERT_TRUE(w.provider.resolve_adapter(newest));
    auto b = w.provider.resolve_device(w.provider.device_requests());
    ASSERT_TRUE(b);
    if (row.prepared) {
      ASSERT_TRUE(w.controller->finish_preparation(w.controller->token(), {}));
    }
    EXPECT_EQ(w.controller->state(), DeviceState::Ready);
    EXPECT_EQ(w.renderer.attached(), b.value());
    EXPECT_EQ(w.provider.live_devices(), 1u);
  }
}

TEST(ControllerReentrancy, RetryFromADisposeHookIsJudgedWithTheLossAlreadyScored) {
  World w;
  bool armed = false;
  std::optional<Result<void>> retried;
  w.make([&](ControllerHooks& h) {
    h.dispose_resources = then<const DeviceView&>(h.dispose_resources, [&](const DeviceView&) {
      if (std::exchange(armed, false)) retried = w.controller->retry();
    });
  });
  w.rebuild.record_fault(FaultKind::Lost, "first");
  w.rebuild.record_fault(FaultKind::Lost, "second");
  const DeviceId a = w.start_ready(1, 1);
  armed = true;
  ASSERT_TRUE(w.provider.lose(a));  // the third loss inside the window: the policy gives up

  ASSERT_TRUE(retried.has_value());
  EXPECT_THAT(*retried, warden::testing::FailsWith(MessageId::RebuildGaveUp))
      << "the third loss already counts when the hook asks to retry";
  EXPECT_EQ(w.rebuild.strikes(FaultKind::Lost), 3u) << "scored once, not twice";
  EXPECT_EQ(w.provider.adapter_requests(), 1u);
  EXPECT_EQ(w.controller->state(), DeviceState::Failed);
  EXPECT_EQ(w.controller->reason(),
            (StateReason{.cause = StateCause::RebuildStopped, .gave_up = w.rebuild.give_up()}));
  EXPECT_EQ(w.renderer.fallbacks().back(), w.controller->reason());
}

TEST(ControllerReentrancy, RefusedRetryWhileAStartIsPendingEndsThatStart) {
  World w;
  w.make();
  w.give_up();
  w.controller->initialize();  // a user action: not gated; adapter request #1 pending
  ASSERT_THAT(w.controller->retry(), warden::testing::FailsWith(MessageId::RebuildGaveUp));
  ASSERT_EQ(w.controller->state(), DeviceState::Failed);

  ASSERT_TRUE(w.provider.resolve_adapter(1));
  EXPECT_EQ(w.provider.device_requests(), 0u) << "the refused start asks for nothing more";
  EXPECT_EQ(w.provider.live_adapters(), 0u);
  EXPECT_EQ(w.controller->state(), DeviceState::Failed);
  EXPECT_EQ(w.renderer.attachments(), 0u);
}

TEST(ControllerReentrancy, RefusedRetryWhileADeviceIsPreparedEndsIt) {
  World w;
  w.renderer.defer_preparation();
  w.make();
  w.give_up();
  w.controller->initialize();
  ASSERT_TRUE(w.provider.resolve_adapter(1));
  auto a = w.provider.resolve_device(1);
  ASSERT_TRUE(a);
  const Token preparing = w.renderer.preparations().at(0).token;

  ASSERT_THAT(w.controller->retry(), warden::testing::FailsWith(MessageId::RebuildGaveUp));
  EXPECT_EQ(w.controller->state(), DeviceState::Failed);
  EXPECT_EQ(w.provider.live_devices(), 0u);
  EXPECT_EQ(w.renderer.disposals(a.value()), 1u);
  EXPECT_THAT(w.controller->finish_preparation(preparing, {}), warden::testing::FailsWith(MessageId::PreparationFinishedLate));
  EXPECT_EQ(w.controller->state(), DeviceState::Failed);
  EXPECT_EQ(w.renderer.attachments(), 0u);
}

TEST(ControllerReentrancy, PrepareResourcesThatThrowsFailsTheGenerationAndEndsTheDevice) {
  World w;
  w.renderer.defer_preparation();
  w.renderer.throw_in("prepare resources");
  w.make();
  w.controller->initialize();
  ASSERT_TRUE(w.provider.resolve_adapter(1));
  auto a = w.provider.resolve_device(1);
  ASSERT_TRUE(a);

  EXPECT_EQ(w.controller->state(), DeviceState::Failed);
  EXPECT_EQ(w.controller->reason().cause, StateCause::StartFailed);
  EXPECT_NE(w.controller->reason().detail.find("prepare resources failed on purpose"), std::string::npos)
      << w.controller->message();
  EXPECT_EQ(w.renderer.fallbacks().back(), w.controller->reason());
  EXPECT_EQ(w.provider.live_devices(), 0u);
  EXPECT_EQ(w.renderer.disposals(a.value()), 1u);
  EXPECT_EQ(w.rebuild.strikes(FaultKind::FailedCreation), 1u);
  ASSERT_TRUE(w.provider.lose(a.value()));  // the failed generation's device: its loss is stale
  EXPECT_EQ(w.controller->state(), DeviceState::Failed);
}

TEST(ControllerReentrancy, StateSaysWhereTheControllerIsGoingWhileEndHooksRun) {
  struct Row {
    const char* transition;
    std::function<void(World&, DeviceId)> act;
    DeviceState expected;
  };
  const std::vector<Row> rows = {
      {"loss", [](World& w, DeviceId a) { ASSERT_TRUE(w.provider.lose(a)); }, DeviceState::Lost},
      {"report_hang", [](World& w, DeviceId) { w.controller->report_hang(w.controller->token(), "hung"); },
       DeviceState::Lost},
      {"stop", [](World& w, DeviceId) { w.controller->stop(); }, DeviceState::Stopped},
      {"shutdown", [](World& w, DeviceId) { ASSERT_TRUE(w.controller->shutdown()); }, DeviceState::Stopped},
      {"initialize", [](World& w, DeviceId) { w.controller->initialize(); }, DeviceState::Starting},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.transition);
    World w;
    std::vector<std::pair<DeviceState, bool>> seen;  // state(), active_device() present
    auto look = [&](const DeviceView&) {
      seen.emplace_back(w.controller->state(), w.controller->active_device().has_value());
    };
    w.make([&](ControllerHooks& h) {
      h.stop_render_loop = then<const DeviceView&>(h.stop_render_loop, look);
      h.detach_graphics = then<const DeviceView&>(h.detach_graphics, look);
      h.dispose_resources = then<const DeviceView&>(h.dispose_resources, look);
    });
    const DeviceId a = w.start_ready(1, 1);
    row.act(w, a);

    ASSERT_EQ(seen.size(), 3u);
    for (const auto& [state, shown] : seen) {
      EXPECT_EQ(state, row.expected) << "state() during cleanup: " << to_string(state);
      EXPECT_FALSE(shown) << "active_device() during cleanup";
    }
  }
}

// ---- every hook x every call a hook may make x every transition ---------------------------------

enum class Hook {
  ShowFallback,
  ShowGraphics,
  StopRenderLoop,
  DetachGraphics,
  DisposeResources,
  PrepareResources,
  OnState
};
constexpr std::array kHooks = {Hook::ShowFallback,     Hook::ShowGraphics,     Hook::StopRenderLoop,
                               Hook::DetachGraphics,   Hook::DisposeResources, Hook::PrepareResources,
                               Hook::OnState};
const char* name(Hook hook) {
  switch (hook) {
    case Hook::ShowFallback: return "show_fallback";
    case Hook::ShowGraphics: return "show_graphics";
    case Hook::StopRenderLoop: return "stop_render_loop";
    case Hook::DetachGraphics: return "detach_graphics";
    case Hook::DisposeResources: return "dispose_resources";
    case Hook::PrepareResources: return "prepare_resources";
    case Hook::OnState: return "on_state";
  }
  return "?";
}

// A call the header allows a hook to make.
struct Call {
  const char* name;
  bool policy_gave_up;  // the rebuild policy has given up before the transition runs
  std::function<void(DeviceController&)> make;
};
const std::vector<Call>& calls() {
  static const std::vector<Call> all = {
      {"initialize", false, [](DeviceController& c) { c.initialize(); }},
      {"retry", false, [](DeviceController& c) { (void)c.retry(); }},
      {"refused retry", true, [](DeviceController& c) { (void)c.retry(); }},
      {"stop", false, [](DeviceController& c) { c.stop(); }},
      {"shutdown", false, [](DeviceController& c) { (void)c.shutdown(); }},
      {"report_hang", false, [](DeviceController& c) { c.report_hang(c.token(), "hung in a hook"); }},
      {"finish_preparation ok", false, [](DeviceController& c) { (void)c.finish_preparation(c.token(), {}); }},
      {"finish_preparation failed", false,
       [](DeviceController& c) {
         (void)c.finish_preparation(c.token(), make_error(ErrorKind::Compilation, "failed in a hook"));
       }},
      {"mark_presented", false, [](DeviceController& c) { (void)c.mark_presented(); }},
  };
  return all;
}

// A transition, driven the way the world would: steps whose request is no longer pending (a
// hook changed course) are skipped.
struct Scenario {
  const char* name = "";
  bool prepared = false;        // the application prepares resources (finish_preparation)
  bool prepare_throws = false;  // ...and its prepare_resources throws
  std::function<void(World&)> setup{};  // hooks not armed
  std::function<void(World&)> act{};    // the armed hook fires here
};

void finish_first_preparation(World& w, Result<void> outcome) {
  if (w.renderer.preparations().empty()) return;
  (void)w.controller->finish_preparation(w.renderer.preparations()[0].token, std::move(outcome));
}
void start(World& w, size_t request) {
  w.controller->initialize();
  (void)w.provider.resolve_adapter(request);
  (void)w.provider.resolve_device(request);
}

const std::vector<Scenario>& scenarios() {
  static const std::vector<Scenario> all = {
      {.name = "StartToReady", .act = [](World& w) { start(w, 1); }},
      {.name = "StartWithPreparationToReady",
       .prepared = true,
       .act =
           [](World& w) {
             start(w, 1);
             finish_first_preparation(w, {});
           }},
      {.name = "PreparationFailed",
       .prepared = true,
       .act =
           [](World& w) {
             start(w, 1);
             finish_first_preparation(w, make_error(ErrorKind::Compilation, "no"));
           }},
      {.name = "PreparationThrew", .prepared = true, .prepare_throws = true, .act = [](World& w) { start(w, 1); }},
      {.name = "Replacement", .setup = [](World& w) { start(w, 1); }, .act = [](World& w) { start(w, 2); }},
      {.name = "Loss",
       .setup = [](World& w) { start(w, 1); },
       .act = [](World& w) { (void)w.provider.lose(DeviceId{1}); }},
      {.name = "Hang",
       .setup = [](World& w) { start(w, 1); },
       .act = [](World& w) { w.controller->report_hang(w.controller->token(), "hung"); }},
      {.name = "Stop", .setup = [](World& w) { start(w, 1); }, .act = [](World& w) { w.controller->stop(); }},
      {.name = "Shutdown",
       .setup = [](World& w) { start(w, 1); },
       .act = [](World& w) { (void)w.controller->shutdown(); }},
      {.name = "AdapterRejected",
       .act =
           [](World& w) {
             w.controller->initialize();
             (void)w.provider.reject_adapter(1, "no");
           }},
      {.name = "DeviceRejected",
       .act =
           [](World& w) {
             w.controller->initialize();
             (void)w.provider.resolve_adapter(1);
             (void)w.provider.reject_device(1, "no");
           }},
      {.name = "StaleDeviceArrivingAfterTheNewOne",
       .setup =
           [](World& w) {
             w.controller->initialize();
             (void)w.provider.resolve_adapter(1);
             w.controller->initialize();
             (void)w.provider.resolve_adapter(2);
           },
       .act =
           [](World& w) {
             (void)w.provider.resolve_device(2);
             (void)w.provider.resolve_device(1);
           }},
      {.name = "RefusedRetryWhileStarting",
       .setup =
           [](World& w) {
             w.give_up();
             w.controller->initialize();
           },
       .act = [](World& w) { (void)w.controller->retry(); }},
      {.name = "RefusedRetryWhilePreparing",
       .prepared = true,
       .setup =
           [](World& w) {
             w.give_up();
             start(w, 1);
           },
       .act = [](World& w) { (void)w.controller->retry(); }},
      {.name = "RetryAfterLoss",
       .setup =
           [](World& w) {
             start(w, 1);
             (void)w.provider.lose(DeviceId{1});
           },
       .act =
           [](World& w) {
             (void)w.controller->retry();
             (void)w.provider.resolve_adapter(2);
             (void)w.provider.resolve_device(2);
           }},
      {.name = "RefusedRetryAfterLoss",
       .setup =
           [](World& w) {
             start(w, 1);
             (void)w.provider.lose(DeviceId{1});
             w.give_up();
           },
       .act = [](World& w) { (void)w.controller->retry(); }},
  };
  return all;
}

// One run of a scenario with `call` made from the `occurrence`-th call of `hook` during the act
// (occurrence 0: never), checking the invariants at every hook and after.
class MatrixRun {
 public:
  MatrixRun(const Scenario& scenario, const Call& call, Hook hook, size_t occurrence)
      : scenario_(scenario), call_(call), hook_(hook), occurrence_(occurrence) {}

  // How often each hook is called during the act.
  std::array<size_t, kHooks.size()> counts() const { return counts_; }
  bool fired() const { return fired_; }

  void go() {
    if (scenario_.prepared) w_.renderer.defer_preparation();
    if (scenario_.prepare_throws) w_.renderer.throw_in("prepare resources");
    w_.make([this](ControllerHooks& h) { observe(h); });
    if (scenario_.setup) scenario_.setup(w_);
    if (call_.policy_gave_up) w_.give_up();
    acting_ = true;
    scenario_.act(w_);
    acting_ = false;
    const DeviceState after_act = check_quiet();
    const std::optional<DeviceId> shown = w_.renderer.attached();
    const uint64_t attachments = w_.renderer.attachments();
    settle();
    check_settled(after_act, shown, attachments);
  }

 private:
  void observe(ControllerHooks& h) {
    using View = const DeviceView&;
    h.show_fallback =
        then<const StateReason&>(h.show_fallback, [this](const StateReason&) { after(Hook::ShowFallback); });
    auto show = h.show_graphics;
    h.show_graphics = then<View>(
        [this, show](View v) {
          // Only the newest token's device is ever attached, one device at a time, and the
          // state already says so.
          EXPECT_FALSE(w_.renderer.attached().has_value()) << "d" << v.id.value << " shown over another device";
          EXPECT_EQ(v.token, w_.controller->token()) << "a superseded token's device is shown";
          const auto active = w_.controller->active_device();
          EXPECT_TRUE(active && active->id == v.id) << "show_graphics of a device active_device() does not name";
          show(v);
        },
        [this](View) { after(Hook::ShowGraphics); });
    auto shown_only = [this](std::function<void(View)> hook, Hook which) {
      return then<View>(
          [this, hook, which](View v) {
            EXPECT_EQ(w_.renderer.attached(), std::optional<DeviceId>(v.id))
                << name(which) << " of d" << v.id.value << ", which is not the shown device";
            hook(v);
          },
          [this, which](View v) {
            ending(v);
            after(which);
          });
    };
    h.stop_render_loop = shown_only(h.stop_render_loop, Hook::StopRenderLoop);
    h.detach_graphics = shown_only(h.detach_graphics, Hook::DetachGraphics);
    h.dispose_resources = then<View>(h.dispose_resources, [this](View v) {
      ending(v);
      after(Hook::DisposeResources);
    });
    if (h.prepare_resources) {
      h.prepare_resources = then<View>(h.prepare_resources, [this](View) { after(Hook::PrepareResources); });
    }
    h.on_state = then<DeviceState, const StateReason&>(
        h.on_state, [this](DeviceState, const StateReason&) { after(Hook::OnState); });
  }

  void ending(const DeviceView& v) {
    const auto active = w_.controller->active_device();
    EXPECT_FALSE(active && active->id == v.id) << "active_device() names d" << v.id.value << " while it ends";
  }

  // At the end of every hook: the call, once, at the chosen occurrence; the state agrees with
  // what is attached before and after it.
  void after(Hook hook) {
    agree("in " + std::string(name(hook)));
    if (!acting_) return;
    const size_t seen = ++counts_[static_cast<size_t>(hook)];
    if (hook != hook_ || seen != occurrence_ || fired_) return;
    fired_ = true;
    call_.make(*w_.controller);
    agree(fmt::format("after {} from {}", call_.name, name(hook)));
  }

  void agree(const std::string& where) {
    const bool ready = w_.controller->state() == DeviceState::Ready;
    EXPECT_EQ(ready, w_.controller->active_device().has_value())
        << where << ": state " << to_string(w_.controller->state()) << " vs active_device()";
  }

  // Nothing is running: what is shown, what is said and what is alive agree.
  DeviceState check_quiet() {
    const DeviceController& c = *w_.controller;
    agree("at rest");
    const auto active = c.active_device();
    EXPECT_EQ(active ? std::optional<DeviceId>(active->id) : std::nullopt, w_.renderer.attached())
        << "active_device() and the shown device differ";
    if (!w_.renderer.states().empty()) {
      EXPECT_EQ(w_.renderer.states().back(), c.state()) << "on_state's last word";
    }
    const DeviceState s = c.state();
    const bool says_fallback = s == DeviceState::Starting || s == DeviceState::Lost || s == DeviceState::Failed ||
                               (s == DeviceState::Stopped && c.reason() == kStoppedByUser);
    if (says_fallback && !w_.renderer.fallbacks().empty()) {
      EXPECT_EQ(w_.renderer.fallbacks().back(), c.reason()) << "the fallback shows another state's reason";
    }
    // Ready holds its device; Starting may hold one being prepared; every other state none.
    const uint64_t live = w_.provider.live_devices();
    EXPECT_EQ(live, s == DeviceState::Ready ? 1u : (s == DeviceState::Starting ? live : 0u)) << "live devices";
    EXPECT_LE(live, 1u);
    return s;
  }

  // Every request still pending completes, oldest first, and every preparation finishes.
  void settle() {
    for (bool moved = true; moved;) {
      moved = false;
      for (size_t r = 1; r <= w_.provider.adapter_requests(); ++r) {
        if (w_.provider.adapter_request_pending(r)) moved = w_.provider.resolve_adapter(r).ok() || moved;
      }
      for (size_t r = 1; r <= w_.provider.device_requests(); ++r) {
        if (w_.provider.device_request_pending(r)) moved = w_.provider.resolve_device(r).ok() || moved;
      }
      for (size_t p = prepared_; p < w_.renderer.preparations().size(); ++p, ++prepared_) {
        (void)w_.controller->finish_preparation(w_.renderer.preparations()[p].token, {});
        moved = true;
      }
    }
  }

  void check_settled(DeviceState after_act, std::optional<DeviceId> shown, uint64_t attachments) {
    const DeviceState s = check_quiet();
    if (after_act == DeviceState::Starting) {
      EXPECT_TRUE(s == DeviceState::Ready || (scenario_.prepare_throws && s == DeviceState::Failed))
          << "a pending start ended " << to_string(s);
    } else {
      // A fallback, or a device that is up, stays as it is: nothing left in flight reaches Ready.
      EXPECT_EQ(s, after_act) << "settling the leftovers changed the state";
      EXPECT_EQ(w_.renderer.attached(), shown);
      EXPECT_EQ(w_.renderer.attachments(), attachments) << "a leftover request was shown";
    }
    EXPECT_EQ(w_.provider.live_adapters(), 0u);
    for (uint64_t d = 1; d <= w_.provider.devices_built(); ++d) {
      const DeviceId id{d};
      const bool ended = w_.provider.destroyed(id) || w_.provider.released(id);
      EXPECT_EQ(w_.renderer.disposals(id), ended ? 1u : 0u) << "d" << d << " disposed of";
      if (ended && w_.renderer.attachments(id) > 0) {
        const std::string end = fmt::format("{} device d{}", w_.provider.destroyed(id) ? "destroy" : "release", d);
        EXPECT_TRUE(w_.journaled_before(fmt::format("detach graphics d{}", d), end))
            << "d" << d << " ended while shown";
      }
    }
  }

  World w_;
  const Scenario& scenario_;
  const Call& call_;
  Hook hook_;
  size_t occurrence_;
  bool acting_ = false;
  bool fired_ = false;
  size_t prepared_ = 0;
  std::array<size_t, kHooks.size()> counts_{};
};

class ControllerReentrancyMatrix : public ::testing::TestWithParam<size_t> {};

TEST_P(ControllerReentrancyMatrix, EveryHookMakingEveryCallKeepsOneShownGenerationAndAnAgreeingState) {
  const Scenario& scenario = scenarios()[GetParam()];
  size_t cases = 0;
  for (const Call& call : calls()) {
    MatrixRun dry(scenario, call, Hook::OnState, 0);
    dry.go();
    for (Hook hook : kHooks) {
      const size_t occurrences = dry.counts()[static_cast<size_t>(hook)];
      for (size_t occurrence = 1; occurrence <= occurrences; ++occurrence) {
        SCOPED_TRACE(fmt::format("{}: {} #{} calls {}", scenario.name, name(hook), occurrence, call.name));
        MatrixRun run(scenario, call, hook, occurrence);
        run.go();
        EXPECT_TRUE(run.fired()) << "the hook was not called as often as in the dry run";
        ++cases;
        if (HasFailure()) return;  // one broken case says enough
      }
    }
  }
  EXPECT_GT(cases, calls().size()) << "the act calls some hook in every scenario";
  RecordProperty("cases", static_cast<int>(cases));
}

INSTANTIATE_TEST_SUITE_P(Transitions, ControllerReentrancyMatrix, ::testing::Range<size_t>(0, scenarios().size()),
                         [](const ::testing::TestParamInfo<size_t>& info) { return scenarios()[info.param].name; });

}  // namespace
}  // namespace warden::device
