// DeviceEndPolicy, RebuildPolicy, HangWatch and DeviceStash on their own.
#include <gtest/gtest.h>

#include <cstdlib>

#include "support/device_print.h"
#include "support/messages.h"
#include "warden/device/device_end_policy.h"
#include "warden/device/device_stash.h"
#include "warden/device/rebuild_policy.h"
#include "warden/device/test_provider.h"

namespace warden::device {
namespace {

using std::chrono::seconds;

// ---- DeviceEndPolicy ----------------------------------------------------------------------------

TEST(DeviceEndPolicy, PresentingDevicesAreReleasedOthersDestroyed) {
  DeviceEndPolicy policy(DeviceEndOptions{});
  EXPECT_EQ(policy.end_for(/*presented=*/true), DeviceEnd::Release);
  EXPECT_EQ(policy.end_for(/*presented=*/false), DeviceEnd::Destroy);
}

TEST(DeviceEndPolicy, DestroyOverrideDestroysEveryDevice) {
  DeviceEndPolicy policy(DeviceEndOptions{.destroy_override = true});
  EXPECT_EQ(policy.end_for(true), DeviceEnd::Destroy);
  EXPECT_EQ(policy.end_for(false), DeviceEnd::Destroy);
}

TEST(DeviceEndPolicy, AtRiskAfterAPresentingDeviceIsDestroyedOrMoreThanTwoAreBuilt) {
  DeviceEndPolicy built(DeviceEndOptions{});
  for (int i = 0; i < 2; ++i) built.note_built();
  built.note_ended(DeviceEnd::Destroy, /*presented=*/false);
  EXPECT_FALSE(built.at_risk()) << "two devices, none presenting destroyed";
  built.note_built();
  EXPECT_TRUE(built.at_risk()) << "more than two built";

  DeviceEndPolicy destroyed(DeviceEndOptions{});
  destroyed.note_built();
  destroyed.note_ended(DeviceEnd::Destroy, /*presented=*/true);
  EXPECT_TRUE(destroyed.at_risk());
  EXPECT_EQ(destroyed.destroyed_after_presenting(), 1u);
}

TEST(DeviceEndPolicy, GateRefusesOnlyAfterAPresentingDeviceWasDestroyed) {
  DeviceEndPolicy policy(DeviceEndOptions{});
  for (int i = 0; i < 10; ++i) {
    policy.note_built();
    policy.note_ended(DeviceEnd::Release, true);
    policy.note_ended(DeviceEnd::Destroy, false);
  }
  EXPECT_TRUE(policy.admit_new_device()) << "many builds alone never close the gate";
  policy.note_ended(DeviceEnd::Destroy, true);
  auto refused = policy.admit_new_device();
  ASSERT_THAT(refused, warden::testing::FailsWith(MessageId::NewDeviceRefused));
  EXPECT_EQ(refused.error().kind, ErrorKind::Refused);
  EXPECT_NE(refused.error().message.find("1 device(s) that presented were destroyed"), std::string::npos);
  EXPECT_NE(refused.error().message.find("WARDEN_GPU_GATE=ignore"), std::string::npos);

  DeviceEndPolicy overridden(DeviceEndOptions{.gate_override = true});
  overridden.note_ended(DeviceEnd::Destroy, true);
  EXPECT_TRUE(overridden.admit_new_device());
}

TEST(DeviceEndPolicy, EnvironmentSetsTheOverrides) {
  ::setenv(kDestroyOverrideEnvVar, "1", 1);
  ::setenv(kGateOverrideEnvVar, "ignore", 1);
  DeviceEndOptions on = device_end_options_from_environment();
  ::setenv(kDestroyOverrideEnvVar, "0", 1);
  ::unsetenv(kGateOverrideEnvVar);
  DeviceEndOptions off = device_end_options_from_environment();
  ::unsetenv(kDestroyOverrideEnvVar);
  EXPECT_TRUE(on.destroy_override);
  EXPECT_TRUE(on.gate_override);
  EXPECT_FALSE(off.destroy_override);
  EXPECT_FALSE(off.gate_override);
}

// ---- RebuildPolicy ------------------------------------------------------------------------------

class RebuildPolicyTest : public ::testing::Test {
 protected:
  SteadyTime now{};
  RebuildPolicy policy{RebuildPolicyOptions{.now = [this] { return now; }}};
};

TEST_F(RebuildPolicyTest, GivesUpAfterThreeFaultsOfOneKindWithinAMinute) {
  EXPECT_EQ(policy.record_fault(FaultKind::Lost, "first"), RebuildVerdict::MayRebuild);
  now += seconds(20);
  EXPECT_EQ(policy.record_fault(FaultKind::Lost, "second"), RebuildVerdict::MayRebuild);
  now += seconds(20);
  EXPECT_EQ(policy.record_fault(FaultKind::Lost, "third"), RebuildVerdict::GaveUp);
  EXPECT_TRUE(policy.gave_up());
  EXPECT_EQ(policy.give_up(), (GiveUp{.kind = FaultKind::Lost, .faults = 3, .window = std::chrono::minutes(1), .last_detail = "third"}));
  EXPECT_EQ(policy.explanation(), "3 device losses within 60 s (the last: third)");
}

TEST_F(RebuildPolicyTest, FaultsOfDifferentKindsAreCountedApart) {
  policy.record_fault(FaultKind::Lost, "");
  policy.record_fault(FaultKind::Lost, "");
  policy.record_fault(FaultKind::Hung, "");
  policy.record_fault(FaultKind::FailedCreation, "");
  EXPECT_FALSE(policy.gave_up());
  EXPECT_EQ(policy.strikes(FaultKind::Lost), 2u);
  EXPECT_EQ(policy.record_fault(FaultKind::FailedCreation, ""), RebuildVerdict::MayRebuild);
  EXPECT_EQ(policy.record_fault(FaultKind::FailedCreation, ""), RebuildVerdict::GaveUp);
}

TEST_F(RebuildPolicyTest, FaultsOlderThanTheWindowDoNotCount) {
  policy.record_fault(FaultKind::Lost, "");
  now += seconds(40);
  policy.record_fault(FaultKind::Lost, "");
  now += seconds(21);  // the first is 61 s old now
  EXPECT_EQ(policy.strikes(FaultKind::Lost), 1u);
  EXPECT_EQ(policy.record_fault(FaultKind::Lost, ""), RebuildVerdict::MayRebuild);
}

TEST_F(RebuildPolicyTest, AReplacementThatHeldForgivesThePast) {
  policy.record_fault(FaultKind::Lost, "");
  policy.record_fault(FaultKind::Lost, "");
  policy.replacement_ready();
  now += seconds(10);  // held for the whole hold time
  EXPECT_EQ(policy.strikes(FaultKind::Lost), 0u);
  EXPECT_EQ(policy.record_fault(FaultKind::Lost, ""), RebuildVerdict::MayRebuild);
  EXPECT_EQ(policy.strikes(FaultKind::Lost), 1u);
}

TEST_F(RebuildPolicyTest, AReplacementThatDidNotHoldForgivesNothing) {
  policy.record_fault(FaultKind::Lost, "");
  policy.record_fault(FaultKind::Lost, "");
  policy.replacement_ready();
  now += seconds(9);
  EXPECT_EQ(policy.record_fault(FaultKind::Lost, ""), RebuildVerdict::GaveUp);
}

TEST_F(RebuildPolicyTest, HangsAreNotScoredWhileGivenUp) {
  for (int i = 0; i < 3; ++i) policy.record_fault(FaultKind::Lost, "");
  ASSERT_TRUE(policy.gave_up());
  EXPECT_EQ(policy.record_fault(FaultKind::Hung, "frozen"), RebuildVerdict::NotScored);
  EXPECT_EQ(policy.strikes(FaultKind::Hung), 0u);
  EXPECT_EQ(policy.unscored_hangs(), 1u);
}

TEST_F(RebuildPolicyTest, ResetStartsOver) {
  for (int i = 0; i < 3; ++i) policy.record_fault(FaultKind::Hung, "");
  ASSERT_TRUE(policy.gave_up());
  policy.reset();
  EXPECT_FALSE(policy.gave_up());
  EXPECT_FALSE(policy.give_up().has_value());
  EXPECT_TRUE(policy.explanation().empty());
  EXPECT_EQ(policy.strikes(FaultKind::Hung), 0u);
}

// A shader that hangs every rebuilt device: each device holds past `hold` (which forgives the
// window's faults) and hangs well within `young`. Five such devices in a row give up.
TEST_F(RebuildPolicyTest, DevicesThatDieYoungGiveUpInARowThoughEachHeldPastTheHold) {
  for (unsigned device = 1; device <= 5; ++device) {
    policy.replacement_ready();
    now += seconds(15);
    const RebuildVerdict verdict = policy.record_fault(FaultKind::Hung, "frozen");
    EXPECT_EQ(policy.young_deaths(), device);
    EXPECT_EQ(verdict, device < 5 ? RebuildVerdict::MayRebuild : RebuildVerdict::GaveUp) << "device " << device;
  }
  EXPECT_EQ(policy.give_up(), (GiveUp{.kind = FaultKind::Hung,
                                      .faults = 5,
                                      .window = std::chrono::minutes(1),
                                      .last_detail = "frozen",
                                      .died_young = true}));
  EXPECT_EQ(policy.explanation(), "5 devices in a row were lost or hung within 60 s of becoming ready (the last: frozen)");
}

TEST_F(RebuildPolicyTest, ADeviceThatOutlivesItsYouthStartsTheYoungCountOver) {
  for (int device = 0; device < 4; ++device) {
    policy.replacement_ready();
    now += seconds(15);
    ASSERT_EQ(policy.record_fault(FaultKind::Lost, ""), RebuildVerdict::MayRebuild);
  }
  EXPECT_EQ(policy.young_deaths(), 4u);
  policy.replacement_ready();
  now += std::chrono::minutes(2);  // a long healthy run
  EXPECT_EQ(policy.record_fault(FaultKind::Lost, ""), RebuildVerdict::MayRebuild);
  EXPECT_EQ(policy.young_deaths(), 0u);
  for (unsigned device = 1; device <= 4; ++device) {
    policy.replacement_ready();
    now += seconds(15);
    EXPECT_EQ(policy.record_fault(FaultKind::Lost, ""), RebuildVerdict::MayRebuild);
  }
  EXPECT_EQ(policy.young_deaths(), 4u);
  policy.replacement_ready();
  now += seconds(15);
  EXPECT_EQ(policy.record_fault(FaultKind::Lost, ""), RebuildVerdict::GaveUp);
}

TEST_F(RebuildPolicyTest, OnlyTheLossOrHangOfADeviceThatWasReadyIsJudgedYoung) {
  // Failed creations and faults with no device ready in between (a retry that failed) are the
  // window's to count, not deaths of a device.
  policy.replacement_ready();
  now += seconds(15);
  policy.record_fault(FaultKind::Surface, "no frame");
  EXPECT_EQ(policy.young_deaths(), 0u);
  policy.record_fault(FaultKind::Lost, "");  // the device that was up: young
  EXPECT_EQ(policy.young_deaths(), 1u);
  now += seconds(15);
  policy.record_fault(FaultKind::FailedCreation, "");
  EXPECT_EQ(policy.young_deaths(), 1u);
  policy.reset();
  EXPECT_EQ(policy.young_deaths(), 0u);
}

TEST(RebuildPolicyYoung, ZeroYoungDeathsToGiveUpTurnsTheRuleOff) {
  SteadyTime now{};
  RebuildPolicy policy{RebuildPolicyOptions{.young_deaths_to_give_up = 0, .now = [&now] { return now; }}};
  for (int device = 0; device < 20; ++device) {
    policy.replacement_ready();
    now += seconds(15);
    ASSERT_EQ(policy.record_fault(FaultKind::Lost, ""), RebuildVerdict::MayRebuild) << "device " << device;
  }
}

// ---- HangWatch ----------------------------------------------------------------------------------

class HangWatchTest : public ::testing::Test {
 protected:
  SteadyTime now{};
  SubmissionClock clock;
  HangWatch watch{std::chrono::milliseconds(2000), [this] { return now; }};
};

TEST_F(HangWatchTest, ReportsOnceWhenSubmittedWorkDoesNotRetireInTime) {
  clock.on_submitted();
  EXPECT_FALSE(watch.check(clock));
  now += seconds(2);
  EXPECT_FALSE(watch.check(clock)) << "exactly the limit is not late yet";
  now += std::chrono::milliseconds(1);
  EXPECT_TRUE(watch.check(clock));
  now += seconds(5);
  EXPECT_FALSE(watch.check(clock)) << "one report per stall";
}

TEST_F(HangWatchTest, ProgressRearmsTheWatch) {
  clock.on_submitted();
  clock.on_submitted();
  watch.check(clock);
  now += seconds(3);
  clock.retire_through(Serial{1});  // progress, one still in flight
  EXPECT_FALSE(watch.check(clock));
  now += seconds(1);
  EXPECT_FALSE(watch.check(clock));
  now += seconds(2);
  EXPECT_TRUE(watch.check(clock));
}

TEST_F(HangWatchTest, AnIdleQueueIsNeverHung) {
  EXPECT_FALSE(watch.check(clock));
  now += seconds(60);
  EXPECT_FALSE(watch.check(clock));
  clock.on_submitted();
  clock.retire_through(Serial{1});
  now += seconds(60);
  EXPECT_FALSE(watch.check(clock));
}

// ---- DeviceStash --------------------------------------------------------------------------------

TEST(DeviceStash, HandsADeviceOnlyToTheProviderThatMadeIt) {
  TestProvider mine;
  TestProvider other;
  DeviceStash stash;
  stash.put(StashedDevice{&mine, ProvidedDevice{DeviceId{7}, nullptr}, true, nullptr});
  EXPECT_FALSE(stash.take(other).has_value());
  auto taken = stash.take(mine);
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(taken->device.id, DeviceId{7});
  EXPECT_TRUE(taken->presented);
  EXPECT_FALSE(stash.holds());
  EXPECT_EQ(stash.handoffs(), 1u);
}

TEST(DeviceStash, LetsGoOfWhatItHoldsByReleaseNeverDestroy) {
  TestProvider provider;
  DeviceEndPolicy end_policy(DeviceEndOptions{});
  {
    DeviceStash stash;
    stash.put(StashedDevice{&provider, ProvidedDevice{DeviceId{1}, nullptr}, true, nullptr, &end_policy});
    stash.put(StashedDevice{&provider, ProvidedDevice{DeviceId{2}, nullptr}, false, nullptr, &end_policy});
    EXPECT_TRUE(provider.released(DeviceId{1})) << "one device per stash: the first is let go";
  }
  EXPECT_TRUE(provider.released(DeviceId{2})) << "the stash lets go of its device when it goes";
  EXPECT_EQ(provider.destroy_calls(), 0u);
  EXPECT_EQ(end_policy.devices_released(), 2u);
}

}  // namespace
}  // namespace warden::device
