// The controller's transitions and races (docs/design.md, device rules D1-D8), driven
// through the test provider: every async boundary completes exactly when the test says.
#include "warden/device/controller.h"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>

#include "support/device_print.h"
#include "support/messages.h"
#include "warden/device/test_provider.h"

namespace warden::device {
namespace {

class ControllerTest : public ::testing::Test {
 protected:
  // Declared before the controller, so they outlive it.
  TestProvider provider;
  TestRenderer renderer{provider};
  DeviceEndPolicy end_policy{DeviceEndOptions{}};
  DeviceEndPolicy destroying{DeviceEndOptions{.destroy_override = true}};
  DeviceEndPolicy destroying_ungated{DeviceEndOptions{.destroy_override = true, .gate_override = true}};
  SteadyTime now{};
  RebuildPolicy rebuild{RebuildPolicyOptions{.now = [this] { return now; }}};
  DeviceStash stash;
  std::unique_ptr<DeviceController> controller;

  DeviceController& make(ControllerOptions options = {}) {
    if (options.device_end == nullptr) options.device_end = &end_policy;
    controller = std::make_unique<DeviceController>(provider, renderer.hooks(), std::move(options));
    return *controller;
  }

  // Initializes and completes its requests: adapter request #adapter_request and
  // device request #device_request are the ones this initialisation makes.
  DeviceId start_ready(size_t adapter_request, size_t device_request) {
    controller->initialize();
    EXPECT_TRUE(provider.resolve_adapter(adapter_request));
    auto device = provider.resolve_device(device_request);
    EXPECT_TRUE(device);
    EXPECT_EQ(controller->state(), DeviceState::Ready);
    return device ? device.value() : DeviceId{};
  }

  // Asserts that `first` was journaled before `second`.
  void expect_order(std::string_view first, std::string_view second) {
    auto a = provider.find(first);
    auto b = provider.find(second);
    ASSERT_TRUE(a.has_value()) << "missing from the journal: " << first;
    ASSERT_TRUE(b.has_value()) << "missing from the journal: " << second;
    EXPECT_LT(*a, *b) << first << " should come before " << second;
  }
};

// ---- the races ----------------------------------------------------------------------------------

TEST_F(ControllerTest, SupersededAdapterRequestResolvingLateLeavesTheViewWithB) {
  make();
  controller->initialize();  // A: adapter request #1 stays pending
  controller->initialize();  // B
  ASSERT_TRUE(provider.resolve_adapter(2));
  auto b = provider.resolve_device(1);
  ASSERT_TRUE(b);
  ASSERT_EQ(renderer.attached(), b.value());

  ASSERT_TRUE(provider.resolve_adapter(1));  // A resolves after B is shown

  EXPECT_EQ(renderer.attached(), b.value());
  EXPECT_EQ(controller->state(), DeviceState::Ready);
  EXPECT_EQ(provider.device_requests(), 1u) << "A's stale adapter must not lead to a device request";
  EXPECT_EQ(provider.live_adapters(), 0u) << "A's stale adapter is let go";
  EXPECT_EQ(renderer.attachments(), 1u);
}

TEST_F(ControllerTest, SupersededDeviceArrivingAfterBIsReadyIsEndedNeverAttached) {
  make();
  controller->initialize();  // A
  ASSERT_TRUE(provider.resolve_adapter(1));  // A's device request #1 stays pending
  controller->initialize();  // B
  ASSERT_TRUE(provider.resolve_adapter(2));
  auto b = provider.resolve_device(2);
  ASSERT_TRUE(b);
  ASSERT_EQ(controller->state(), DeviceState::Ready);

  auto a = provider.resolve_device(1);  // A's device arrives late
  ASSERT_TRUE(a);

  EXPECT_EQ(renderer.attachments(a.value()), 0u) << "a stale device is never attached";
  EXPECT_TRUE(provider.destroyed(a.value())) << "a stale device is ended (it never presented)";
  EXPECT_EQ(renderer.attached(), b.value());
  EXPECT_EQ(controller->state(), DeviceState::Ready);
  EXPECT_FALSE(provider.destroyed(b.value()) || provider.released(b.value()));
  // Its late loss reaches nobody.
  const size_t fallbacks = renderer.fallbacks().size();
  ASSERT_TRUE(provider.lose(a.value()));
  EXPECT_EQ(controller->state(), DeviceState::Ready);
  EXPECT_EQ(renderer.fallbacks().size(), fallbacks);
}

// Device generations count the devices received as current; a stale device is never one of them,
// and the token, which also counts every initialisation and every end, is another number.
TEST_F(ControllerTest, DevicesAreNumberedOneByOneAndAStaleDeviceIsNeverCounted) {
  make();
  controller->initialize();  // A
  ASSERT_TRUE(provider.resolve_adapter(1));  // A's device request #1 stays pending
  controller->initialize();  // B
  ASSERT_TRUE(provider.resolve_adapter(2));
  ASSERT_TRUE(provider.resolve_device(2));
  ASSERT_TRUE(provider.resolve_device(1));  // A's device arrives late: ended, not counted
  ASSERT_EQ(controller->active_device()->device_generation, 1u);
  ASSERT_EQ(controller->device_ends().size(), 1u);
  EXPECT_EQ(controller->device_ends()[0].device_generation, 0u) << "a stale device has no device generation";

  const DeviceId b = *renderer.attached();
  ASSERT_TRUE(provider.lose(b));
  ASSERT_TRUE(controller->retry());
  ASSERT_TRUE(provider.resolve_adapter(3));
  ASSERT_TRUE(provider.resolve_device(3));
  EXPECT_EQ(controller->active_device()->device_generation, 2u);
  EXPECT_EQ(controller->device_ends().back().device_generation, 1u);
  EXPECT_EQ(controller->active_device()->token, controller->token());
  EXPECT_EQ(controller->token().value, 4u) << "A, B, B's loss and the retry each took a token";
}

// The one record of the newest device generation (ADR 0057): written as the controller
// receives, shows and ends devices, never by a stale device, and read by reference.
TEST_F(ControllerTest, TheGenerationRecordFollowsTheNewestDeviceFromPreparedToShownToEnded) {
  renderer.defer_preparation();
  make();
  const GenerationRecord& newest = controller->generation();
  EXPECT_EQ(newest.number, 0u);
  EXPECT_EQ(newest.phase, GenerationPhase::None);

  controller->initialize();
  ASSERT_TRUE(provider.resolve_adapter(1));
  auto a = provider.resolve_device(1);
  ASSERT_TRUE(a);
  EXPECT_EQ(newest.number, 1u);
  EXPECT_EQ(newest.device, a.value());
  EXPECT_EQ(newest.token, controller->token());
  EXPECT_EQ(newest.phase, GenerationPhase::Preparing);
  ASSERT_TRUE(controller->finish_preparation(renderer.preparations()[0].token, {}));
  EXPECT_EQ(newest.phase, GenerationPhase::Shown);

  ASSERT_TRUE(provider.lose(a.value()));
  EXPECT_EQ(newest.number, 1u) << "a loss ends the generation, it does not start one";
  EXPECT_EQ(newest.phase, GenerationPhase::Ended);
  EXPECT_NE(newest.token, controller->token());

  // A retry superseded before its device arrives: that device is stale and changes nothing.
  ASSERT_TRUE(controller->retry());
  ASSERT_TRUE(provider.resolve_adapter(2));
  controller->initialize();
  ASSERT_TRUE(provider.resolve_device(2));
  EXPECT_EQ(newest.number, 1u);
  EXPECT_EQ(newest.phase, GenerationPhase::Ended);
  ASSERT_TRUE(provider.resolve_adapter(3));
  auto c = provider.resolve_device(3);
  ASSERT_TRUE(c);
  EXPECT_EQ(newest.number, 2u);
  EXPECT_EQ(newest.device, c.value());
  EXPECT_EQ(newest.phase, GenerationPhase::Preparing);
  EXPECT_STREQ(to_string(newest.phase), "preparing");
}

// The device layer states facts; its words are for a log, never a sentence for a user.
TEST_F(ControllerTest, EveryEndHasATypedReasonAndWordsForALog) {
  make(ControllerOptions{.rebuild = &rebuild});
  EXPECT_EQ(controller->reason(), StateReason{.cause = StateCause::NotStarted});
  EXPECT_EQ(controller->message(), "not started");
  const DeviceId a = start_ready(1, 1);
  EXPECT_EQ(controller->reason(), StateReason{.cause = StateCause::Shown});
  EXPECT_EQ(controller->message(), "shown");
  controller->report_hang(controller->token(), "submission 7 did not finish within 2000 ms");
  EXPECT_EQ(controller->message(), "device hung: submission 7 did not finish within 2000 ms");
  EXPECT_EQ(renderer.fallbacks().back(), controller->reason());
  EXPECT_TRUE(provider.destroyed(a));

  ASSERT_TRUE(controller->retry());
  ASSERT_TRUE(provider.reject_adapter(2, "no GPU here"));
  EXPECT_EQ(controller->message(), "start failed: no adapter was returned: no GPU here");

  ASSERT_TRUE(controller->retry());
  ASSERT_TRUE(provider.reject_adapter(3, "still none"));
  ASSERT_TRUE(controller->retry());
  ASSERT_TRUE(provider.reject_adapter(4, "none at all"));
  ASSERT_TRUE(rebuild.gave_up());
  EXPECT_EQ(controller->message(),
            "start failed: no adapter was returned: none at all; rebuild policy gave up: 3 failed device creations "
            "within 60 s (the last: no adapter was returned: none at all)");

  const size_t fallbacks = renderer.fallbacks().size();
  ASSERT_TRUE(controller->shutdown());
  EXPECT_EQ(controller->state(), DeviceState::Stopped);
  EXPECT_EQ(controller->reason(), StateReason{.cause = StateCause::ShutDown});
  EXPECT_EQ(renderer.fallbacks().size(), fallbacks) << "a shutdown shows no fallback";
  for (const std::string& event : provider.journal()) {
    EXPECT_EQ(event.find("Your work"), std::string::npos) << event;
    EXPECT_EQ(event.find("Graphics"), std::string::npos) << event;
  }
}

TEST_F(ControllerTest, InitializeWhileActiveEndsAInOrderBeforeBsAdapterRequest) {
  make();
  const DeviceId a = start_ready(1, 1);
  controller->initialize();  // B

  expect_order("stop render loop d1", "detach graphics d1");
  expect_order("detach graphics d1", "dispose device resources d1");
  expect_order("dispose device resources d1", "destroy device d1");
  expect_order("destroy device d1", "request adapter #2");
  EXPECT_FALSE(renderer.attached().has_value());
  EXPECT_EQ(controller->state(), DeviceState::Starting);
  EXPECT_EQ(controller->reason().cause, StateCause::Starting);
  EXPECT_EQ(renderer.fallbacks().back(), controller->reason());
  EXPECT_EQ(provider.live_devices(), 0u);
  EXPECT_EQ(renderer.disposals(a), 1u);
}

TEST_F(ControllerTest, ActiveAThenBAdapterRejectedKeepsTheFallbackAndDoesNotRestoreA) {
  make();
  const DeviceId a = start_ready(1, 1);
  controller->initialize();  // B
  ASSERT_TRUE(provider.reject_adapter(2, "adapter request rejected by the test"));

  EXPECT_EQ(controller->state(), DeviceState::Failed);
  EXPECT_FALSE(renderer.attached().has_value()) << "A is not restored";
  EXPECT_EQ(renderer.attachments(a), 1u);
  EXPECT_EQ(controller->reason().cause, StateCause::StartFailed);
  EXPECT_NE(controller->reason().detail.find("adapter request rejected by the test"), std::string::npos);

  const StateReason reason = controller->reason();
  const size_t fallbacks = renderer.fallbacks().size();
  ASSERT_TRUE(provider.lose(a));  // A's late lost
  EXPECT_EQ(controller->state(), DeviceState::Failed);
  EXPECT_EQ(controller->reason(), reason);
  EXPECT_EQ(renderer.fallbacks().size(), fallbacks);
}

TEST_F(ControllerTest, ActiveAThenBDeviceRejectedKeepsTheFallbackAndDoesNotRestoreA) {
  make();
  const DeviceId a = start_ready(1, 1);
  controller->initialize();  // B
  ASSERT_TRUE(provider.resolve_adapter(2));
  ASSERT_TRUE(provider.reject_device(2, "device request rejected by the test"));

  EXPECT_EQ(controller->state(), DeviceState::Failed);
  EXPECT_FALSE(renderer.attached().has_value());
  EXPECT_EQ(renderer.attachments(), 1u);
  EXPECT_EQ(provider.live_adapters(), 0u) << "the adapter is let go after a rejected device request";

  const size_t fallbacks = renderer.fallbacks().size();
  ASSERT_TRUE(provider.lose(a));
  EXPECT_EQ(controller->state(), DeviceState::Failed);
  EXPECT_EQ(renderer.fallbacks().size(), fallbacks);
}

TEST_F(ControllerTest, ActiveAThenBSucceedsAttachesOnlyBAndALateLossChangesNothing) {
  make();
  const DeviceId a = start_ready(1, 1);
  const DeviceId b = start_ready(2, 2);

  EXPECT_EQ(renderer.attached(), b);
  EXPECT_EQ(renderer.attachments(a), 1u);
  EXPECT_EQ(renderer.attachments(b), 1u);
  EXPECT_EQ(provider.live_devices(), 1u);

  const size_t fallbacks = renderer.fallbacks().size();
  ASSERT_TRUE(provider.lose(a));
  EXPECT_EQ(controller->state(), DeviceState::Ready);
  EXPECT_EQ(renderer.attached(), b);
  EXPECT_EQ(renderer.fallbacks().size(), fallbacks);
  EXPECT_FALSE(provider.destroyed(b) || provider.released(b));
}

// ---- the ordinary branches ----------------------------------------------------------------------

TEST_F(ControllerTest, ApiMissingShowsTheFallbackWithoutAnyRequest) {
  provider.remove_api("no WebGPU in this process");
  make();
  controller->initialize();
  EXPECT_EQ(controller->state(), DeviceState::Failed);
  EXPECT_EQ(provider.adapter_requests(), 0u);
  EXPECT_EQ(controller->reason().cause, StateCause::StartFailed);
  EXPECT_NE(controller->reason().detail.find("no WebGPU in this process"), std::string::npos);
  EXPECT_EQ(renderer.fallbacks().back(), controller->reason());
}

TEST_F(ControllerTest, NullAdapterFails) {
  make();
  controller->initialize();
  ASSERT_TRUE(provider.resolve_null_adapter(1));
  EXPECT_EQ(controller->state(), DeviceState::Failed);
  EXPECT_EQ(controller->reason().cause, StateCause::StartFailed);
  EXPECT_NE(controller->reason().detail.find("no adapter was returned"), std::string::npos);
  EXPECT_EQ(provider.device_requests(), 0u);
  EXPECT_EQ(renderer.attachments(), 0u);
}

TEST_F(ControllerTest, AdapterRequestRejectedFails) {
  make();
  controller->initialize();
  ASSERT_TRUE(provider.reject_adapter(1, "rejected"));
  EXPECT_EQ(controller->state(), DeviceState::Failed);
  EXPECT_EQ(renderer.fallbacks().back(), controller->reason());
  EXPECT_EQ(provider.device_requests(), 0u);
}

TEST_F(ControllerTest, DeviceRequestRejectedFailsAndLetsTheAdapterGo) {
  make();
  controller->initialize();
  ASSERT_TRUE(provider.resolve_adapter(1));
  ASSERT_TRUE(provider.reject_device(1, "no device for you"));
  EXPECT_EQ(controller->state(), DeviceState::Failed);
  EXPECT_EQ(controller->reason().cause, StateCause::StartFailed);
  EXPECT_NE(controller->reason().detail.find("no device for you"), std::string::npos);
  EXPECT_EQ(provider.live_adapters(), 0u);
  EXPECT_EQ(renderer.attachments(), 0u);
}

TEST_F(ControllerTest, LossAfterSuccessShowsTheFallbackWithTheApisWordsAndRequestsNothing) {
  make();
  const DeviceId a = start_ready(1, 1);
  ASSERT_TRUE(provider.lose(a, WGPUDeviceLostReason_Unknown, "the test pulled the plug"));

  EXPECT_EQ(controller->state(), DeviceState::Lost);
  EXPECT_EQ(controller->reason(),
            (StateReason{.cause = StateCause::DeviceLost,
                         .loss = {WGPUDeviceLostReason_Unknown, "the test pulled the plug"}}));
  EXPECT_EQ(controller->message(), "device lost: unknown: the test pulled the plug");
  EXPECT_EQ(renderer.fallbacks().back(), controller->reason());
  EXPECT_FALSE(renderer.attached().has_value());
  EXPECT_EQ(renderer.disposals(a), 1u);
  EXPECT_EQ(provider.live_devices(), 0u);
  EXPECT_EQ(provider.adapter_requests(), 1u) << "no automatic retry inside the controller";
}

TEST_F(ControllerTest, UserStopEndsAndShowsTheStableFallbackWithoutARequest) {
  make();
  const DeviceId a = start_ready(1, 1);
  const Token before = controller->token();
  controller->stop();

  EXPECT_EQ(controller->state(), DeviceState::Stopped);
  EXPECT_GT(controller->token(), before);
  EXPECT_EQ(renderer.fallbacks().back(), StateReason{.cause = StateCause::StoppedByUser});
  EXPECT_EQ(provider.adapter_requests(), 1u);
  EXPECT_EQ(provider.live_devices(), 0u);
  ASSERT_TRUE(provider.lose(a));  // the stopped device's loss arrives afterwards
  EXPECT_EQ(controller->state(), DeviceState::Stopped);
}

TEST_F(ControllerTest, StopWhileStartingMakesTheLateDeviceStale) {
  make();
  controller->initialize();
  ASSERT_TRUE(provider.resolve_adapter(1));
  controller->stop();
  auto late = provider.resolve_device(1);
  ASSERT_TRUE(late);
  EXPECT_EQ(controller->state(), DeviceState::Stopped);
  EXPECT_EQ(renderer.attachments(), 0u);
  EXPECT_EQ(provider.live_devices(), 0u);
}

TEST_F(ControllerTest, SuccessfulRetryAttachesTheNewDeviceAndFollowsOnlyItsLoss) {
  make();
  const DeviceId a = start_ready(1, 1);
  ASSERT_TRUE(provider.lose(a));
  ASSERT_EQ(controller->state(), DeviceState::Lost);

  ASSERT_TRUE(controller->retry());
  ASSERT_TRUE(provider.resolve_adapter(2));
  auto b = provider.resolve_device(2);
  ASSERT_TRUE(b);
  EXPECT_EQ(controller->state(), DeviceState::Ready);
  EXPECT_EQ(renderer.attached(), b.value());
  EXPECT_EQ(renderer.states().back(), DeviceState::Ready);
  EXPECT_EQ(controller->reason().cause, StateCause::Shown);

  ASSERT_TRUE(provider.lose(b.value()));
  EXPECT_EQ(controller->state(), DeviceState::Lost);
}

TEST_F(ControllerTest, RetryLimitExhaustedKeepsTheFallbackAndRefusesToRequest) {
  make(ControllerOptions{.rebuild = &rebuild});
  // Three losses 5 s apart: no replacement held (10 s), all inside the minute.
  const DeviceId first = start_ready(1, 1);
  now += std::chrono::seconds(5);
  ASSERT_TRUE(provider.lose(first));
  for (size_t round = 2; round <= 3; ++round) {
    ASSERT_TRUE(controller->retry());
    ASSERT_TRUE(provider.resolve_adapter(round));
    auto device = provider.resolve_device(round);
    ASSERT_TRUE(device);
    now += std::chrono::seconds(5);
    ASSERT_TRUE(provider.lose(device.value()));
  }
  ASSERT_TRUE(rebuild.gave_up());
  // The final state explains itself: the last loss, and the policy's verdict.
  EXPECT_EQ(controller->reason().cause, StateCause::DeviceLost);
  EXPECT_EQ(controller->reason().gave_up, rebuild.give_up());

  auto refused = controller->retry();
  ASSERT_THAT(refused, warden::testing::FailsWith(MessageId::RebuildGaveUp));
  EXPECT_EQ(refused.error().kind, ErrorKind::Refused);
  EXPECT_EQ(controller->state(), DeviceState::Failed);
  EXPECT_EQ(provider.adapter_requests(), 3u);
  EXPECT_EQ(renderer.fallbacks().back(),
            (StateReason{.cause = StateCause::RebuildStopped, .gave_up = rebuild.give_up()}));
}

TEST_F(ControllerTest, NoAdapterWithTheApisReasonKeepsItInThePolicysExplanation) {
  // The DawnProvider answers a request that found no adapter with Dawn's words (NoAdapter).
  make(ControllerOptions{.rebuild = &rebuild});
  const std::string why = "No supported adapters (Couldn't create the default EGL display.)";
  controller->initialize();
  for (size_t round = 1; round <= 3; ++round) {
    if (round > 1) {
      ASSERT_TRUE(controller->retry());
    }
    ASSERT_TRUE(provider.reject_adapter(round, why));
  }
  ASSERT_TRUE(rebuild.gave_up());
  ASSERT_TRUE(controller->reason().gave_up.has_value()) << controller->message();
  EXPECT_EQ(controller->reason().gave_up->kind, FaultKind::FailedCreation);
  EXPECT_EQ(controller->reason().gave_up->faults, 3u);
  EXPECT_EQ(controller->reason().gave_up->last_detail, "no adapter was returned: " + why);
}

TEST_F(ControllerTest, RefusedRetryLeavesADeviceThatIsUpAlone) {
  make(ControllerOptions{.rebuild = &rebuild});
  for (int i = 0; i < 3; ++i) rebuild.record_fault(FaultKind::Lost, "");
  ASSERT_TRUE(rebuild.gave_up());
  const DeviceId a = start_ready(1, 1);  // initialize() is a new user action: not gated

  EXPECT_THAT(controller->retry(), warden::testing::FailsWith(MessageId::RebuildGaveUp));
  EXPECT_EQ(controller->state(), DeviceState::Ready);
  EXPECT_EQ(renderer.attached(), a);
  EXPECT_EQ(provider.live_devices(), 1u);
}

TEST_F(ControllerTest, StopAndRestartAreDifferentActions) {
  make();
  start_ready(1, 1);
  controller->stop();
  EXPECT_EQ(provider.adapter_requests(), 1u) << "stop never requests";
  const Token stopped = controller->token();

  ASSERT_TRUE(controller->retry());
  EXPECT_EQ(provider.adapter_requests(), 2u) << "only an explicit retry asks for a device";
  EXPECT_EQ(controller->state(), DeviceState::Starting);
  EXPECT_GT(controller->token(), stopped);
}

TEST_F(ControllerTest, CleanupRepeatedDoesNothingTheSecondTimeAndNeverTouchesTheReplacement) {
  make();
  const DeviceId a = start_ready(1, 1);
  const DeviceId b = start_ready(2, 2);
  ASSERT_TRUE(provider.lose(a));  // the replaced device's late loss
  EXPECT_FALSE(provider.destroyed(b) || provider.released(b)) << "the replacement is untouched";
  EXPECT_EQ(renderer.attached(), b);

  controller->stop();
  controller->stop();
  EXPECT_EQ(controller->device_ends().size(), 2u) << "A once, B once";
  EXPECT_EQ(provider.destroy_calls() + provider.release_calls(), 2u);
  EXPECT_EQ(renderer.disposals(b), 1u);
}

// ---- device end policy through the controller ---------------------------------------------------

TEST_F(ControllerTest, PresentingDeviceIsReleasedNotDestroyed) {
  make();
  const DeviceId a = start_ready(1, 1);
  ASSERT_TRUE(controller->mark_presented());
  controller->stop();

  EXPECT_TRUE(provider.released(a));
  EXPECT_FALSE(provider.destroyed(a));
  EXPECT_EQ(provider.destroy_calls(), 0u);
  EXPECT_EQ(end_policy.destroyed_after_presenting(), 0u);
  ASSERT_EQ(controller->device_ends().size(), 1u);
  EXPECT_EQ(controller->device_ends()[0].ended, DeviceEnd::Release);
  EXPECT_TRUE(controller->device_ends()[0].presented);
}

TEST_F(ControllerTest, DeviceThatNeverPresentedIsDestroyed) {
  make();
  const DeviceId a = start_ready(1, 1);
  controller->stop();
  EXPECT_TRUE(provider.destroyed(a));
  EXPECT_EQ(provider.release_calls(), 0u);
}

TEST_F(ControllerTest, MarkPresentedWithoutAShownDeviceIsRefused) {
  make();
  auto refused = controller->mark_presented();
  ASSERT_THAT(refused, warden::testing::FailsWith(MessageId::MarkPresentedNoDevice));
  EXPECT_EQ(refused.error().kind, ErrorKind::Refused);
}

TEST_F(ControllerTest, DestroyOverrideDestroysAPresentingDeviceAndTheGateThenRefuses) {
  make(ControllerOptions{.device_end = &destroying});
  const DeviceId a = start_ready(1, 1);
  ASSERT_TRUE(controller->mark_presented());
  controller->stop();

  EXPECT_TRUE(provider.destroyed(a));
  EXPECT_EQ(destroying.destroyed_after_presenting(), 1u);
  EXPECT_TRUE(destroying.at_risk());

  controller->initialize();
  EXPECT_EQ(controller->state(), DeviceState::Failed);
  EXPECT_EQ(provider.adapter_requests(), 1u) << "the gate refuses before any request";
  EXPECT_EQ(controller->reason().cause, StateCause::StartFailed);
  EXPECT_NE(controller->reason().detail.find(kGateOverrideEnvVar), std::string::npos) << controller->message();
}

TEST_F(ControllerTest, GateOverrideAdmitsANewDeviceAfterAPresentingOneWasDestroyed) {
  make(ControllerOptions{.device_end = &destroying_ungated});
  start_ready(1, 1);
  ASSERT_TRUE(controller->mark_presented());
  controller->stop();
  ASSERT_EQ(destroying_ungated.destroyed_after_presenting(), 1u);

  start_ready(2, 2);
  EXPECT_EQ(controller->state(), DeviceState::Ready);
}

TEST_F(ControllerTest, DeviceEndStepsAllRunWhenEarlierStepsThrow) {
  renderer.throw_in("stop render loop");
  renderer.throw_in("detach graphics");
  renderer.throw_in("dispose device resources");
  make();
  const DeviceId a = start_ready(1, 1);
  controller->stop();

  expect_order("stop render loop d1", "detach graphics d1");
  expect_order("detach graphics d1", "dispose device resources d1");
  expect_order("dispose device resources d1", "destroy device d1");
  EXPECT_TRUE(provider.destroyed(a)) << "the device is ended although every step before threw";
  ASSERT_EQ(controller->device_ends().size(), 1u);
  EXPECT_EQ(controller->device_ends()[0].step_failures.size(), 3u);
  EXPECT_EQ(controller->state(), DeviceState::Stopped);
}

// ---- preparation of resources -------------------------------------------------------------------

TEST_F(ControllerTest, GraphicsAreShownOnlyAfterPreparationUnderTheCurrentToken) {
  renderer.defer_preparation();
  make();
  controller->initialize();
  ASSERT_TRUE(provider.resolve_adapter(1));
  auto a = provider.resolve_device(1);
  ASSERT_TRUE(a);
  ASSERT_EQ(renderer.preparations().size(), 1u);
  EXPECT_EQ(controller->state(), DeviceState::Starting);
  EXPECT_FALSE(renderer.attached().has_value());

  ASSERT_TRUE(controller->finish_preparation(renderer.preparations()[0].token, {}));
  EXPECT_EQ(controller->state(), DeviceState::Ready);
  EXPECT_EQ(renderer.attached(), a.value());
}

TEST_F(ControllerTest, PreparationFinishingAfterANewTokenIsRefusedAndNeverShown) {
  renderer.defer_preparation();
  make();
  controller->initialize();
  ASSERT_TRUE(provider.resolve_adapter(1));
  auto a = provider.resolve_device(1);
  ASSERT_TRUE(a);
  const Token old = renderer.preparations()[0].token;
  controller->initialize();  // B starts while A's resources are being prepared
  EXPECT_EQ(renderer.disposals(a.value()), 1u);

  auto stale = controller->finish_preparation(old, {});
  ASSERT_THAT(stale, warden::testing::FailsWith(MessageId::PreparationFinishedLate));
  EXPECT_EQ(stale.error().kind, ErrorKind::Refused);
  EXPECT_EQ(renderer.attachments(), 0u) << "the old result never flashes on screen";
}

TEST_F(ControllerTest, FailedPreparationFailsAndEndsTheDevice) {
  renderer.defer_preparation();
  make();
  controller->initialize();
  ASSERT_TRUE(provider.resolve_adapter(1));
  auto a = provider.resolve_device(1);
  ASSERT_TRUE(a);
  ASSERT_TRUE(controller->finish_preparation(renderer.preparations()[0].token,
                                             make_error(ErrorKind::Compilation, "shader did not compile")));
  EXPECT_EQ(controller->state(), DeviceState::Failed);
  EXPECT_EQ(controller->reason().cause, StateCause::StartFailed);
  EXPECT_NE(controller->reason().detail.find("shader did not compile"), std::string::npos);
  EXPECT_EQ(provider.live_devices(), 0u);
  ASSERT_TRUE(provider.lose(a.value()));  // the ended device's loss is stale
  EXPECT_EQ(controller->state(), DeviceState::Failed);
}

// ---- hangs --------------------------------------------------------------------------------------

TEST_F(ControllerTest, HangLetsThePresentingDeviceGoAndIsScoredAsHung) {
  make(ControllerOptions{.rebuild = &rebuild});
  const DeviceId a = start_ready(1, 1);
  ASSERT_TRUE(controller->mark_presented());
  const Token current = controller->token();

  controller->report_hang(Token{current.value - 1}, "stale report");
  EXPECT_EQ(controller->state(), DeviceState::Ready) << "a stale token's hang changes nothing";

  controller->report_hang(current, "submitted work did not finish within 2000 ms");
  EXPECT_EQ(controller->state(), DeviceState::Lost);
  EXPECT_TRUE(provider.released(a));
  EXPECT_FALSE(provider.destroyed(a));
  EXPECT_EQ(provider.hung_device_ends(), 1u) << "ended as hung: the provider must not wait for its queue";
  EXPECT_EQ(rebuild.strikes(FaultKind::Hung), 1u);
  EXPECT_EQ(controller->reason(), (StateReason{.cause = StateCause::DeviceHung,
                                                .detail = "submitted work did not finish within 2000 ms"}));
}

// ---- the device stash (hot restart) -------------------------------------------------------------

TEST_F(ControllerTest, KeepDeviceHandsTheDeviceToTheNextEngine) {
  make(ControllerOptions{.stash = &stash});
  const DeviceId a = start_ready(1, 1);
  ASSERT_TRUE(controller->mark_presented());
  ASSERT_TRUE(controller->shutdown(Teardown{.keep_device = true}));
  EXPECT_TRUE(stash.holds());
  EXPECT_EQ(provider.destroy_calls() + provider.release_calls(), 0u);
  EXPECT_EQ(renderer.disposals(a), 1u) << "the engine's own resources still go";

  make(ControllerOptions{.stash = &stash});  // the next engine
  controller->initialize();
  EXPECT_EQ(provider.adapter_requests(), 1u) << "no new request: the held device is taken";
  EXPECT_EQ(controller->state(), DeviceState::Ready);
  EXPECT_EQ(renderer.attached(), a);
  EXPECT_EQ(end_policy.devices_built(), 1u);
  EXPECT_EQ(stash.handoffs(), 1u);

  ASSERT_TRUE(provider.lose(a));  // its loss now reaches the new engine
  EXPECT_EQ(controller->state(), DeviceState::Lost);
  EXPECT_TRUE(provider.released(a)) << "it presented under the first engine: released";
}

TEST_F(ControllerTest, DeviceLostWhileStashedIsNotHandedOn) {
  make(ControllerOptions{.stash = &stash});
  const DeviceId a = start_ready(1, 1);
  ASSERT_TRUE(controller->shutdown(Teardown{.keep_device = true}));
  ASSERT_TRUE(provider.lose(a));

  make(ControllerOptions{.stash = &stash});
  controller->initialize();
  EXPECT_EQ(provider.adapter_requests(), 2u);
  EXPECT_TRUE(provider.released(a));
  EXPECT_FALSE(stash.holds());
}

TEST_F(ControllerTest, KeepDeviceWithoutAStashLetsTheDeviceGoAndSaysSo) {
  make();
  const DeviceId a = start_ready(1, 1);
  auto result = controller->shutdown(Teardown{.keep_device = true});
  ASSERT_THAT(result, warden::testing::FailsWith(MessageId::KeepDeviceNeedsStash));
  EXPECT_EQ(result.error().kind, ErrorKind::InvalidArgument);
  EXPECT_EQ(provider.live_devices(), 0u);
  EXPECT_TRUE(provider.destroyed(a));
}

TEST_F(ControllerTest, AHookThatThrowsIsRecordedAndTheTransitionCarriesOn) {
  ControllerHooks hooks = renderer.hooks();
  hooks.show_graphics = [](const DeviceView&) { throw std::runtime_error("view is broken"); };
  controller = std::make_unique<DeviceController>(provider, hooks, ControllerOptions{.device_end = &end_policy});
  start_ready(1, 1);
  ASSERT_EQ(controller->hook_failures().size(), 1u);
  EXPECT_EQ(controller->hook_failures()[0], "show graphics: view is broken");
  EXPECT_EQ(renderer.states().back(), DeviceState::Ready) << "on_state, after show_graphics, still ran";
}

// ---- lifetimes ----------------------------------------------------------------------------------

TEST_F(ControllerTest, DeviceArrivingAfterTheControllerIsGoneIsLetGo) {
  make();
  controller->initialize();
  ASSERT_TRUE(provider.resolve_adapter(1));
  controller.reset();
  auto orphan = provider.resolve_device(1);
  ASSERT_TRUE(orphan);
  EXPECT_TRUE(provider.destroyed(orphan.value())) << "it never presented";
  EXPECT_EQ(provider.live_devices(), 0u);
  EXPECT_EQ(provider.live_adapters(), 0u);
  EXPECT_EQ(end_policy.devices_built(), 1u);
  EXPECT_EQ(renderer.attachments(), 0u);
}

TEST_F(ControllerTest, DestroyingTheControllerEndsItsDeviceWithoutCallingHooks) {
  make();
  const DeviceId a = start_ready(1, 1);
  const size_t journal = provider.journal().size();
  controller.reset();
  EXPECT_TRUE(provider.destroyed(a));
  ASSERT_EQ(provider.journal().size(), journal + 1);
  EXPECT_EQ(provider.journal().back(), "destroy device d1");
}

TEST_F(ControllerTest, CompletingARequestThatIsNotPendingIsAnErrorNamingIt) {
  make();
  auto result = provider.resolve_adapter(3);
  ASSERT_THAT(result, warden::testing::FailsWith(MessageId::TestRequestNotPending));
  EXPECT_EQ(result.error().message, "adapter request #3 is not pending (0 made)");
}

}  // namespace
}  // namespace warden::device

namespace warden::device {
namespace {

// The diagnostics sink is one more place application code runs inside a transition. A sink that
// stops the controller when it hears "ready" must leave it Stopped with nothing shown, and every
// state change reported in the order it happened.
TEST_F(ControllerTest, ADiagnosticsSinkThatStopsTheControllerOnReadyLeavesItStoppedAndReportsInOrder) {
  Diagnostics diagnostics;
  std::vector<MessageId> heard;
  diagnostics.set_sink([&](const Diagnostic& d) {
    heard.push_back(d.id);
    if (d.id == MessageId::DeviceReady) controller->stop();
  });
  make(ControllerOptions{.diagnostics = &diagnostics});
  controller->initialize();
  ASSERT_TRUE(provider.resolve_adapter(1));
  ASSERT_TRUE(provider.resolve_device(1));
  EXPECT_EQ(controller->state(), DeviceState::Stopped);
  EXPECT_FALSE(controller->active_device().has_value());
  EXPECT_EQ(heard, (std::vector<MessageId>{MessageId::DeviceStarting, MessageId::DeviceReady, MessageId::DeviceStopped,
                                           MessageId::DeviceEnded}));
  ASSERT_EQ(controller->device_ends().size(), 1u);
  EXPECT_TRUE(controller->hook_failures().empty());
  controller.reset();  // it reports to `diagnostics` until it is gone (ControllerOptions::diagnostics)
}

}  // namespace
}  // namespace warden::device
