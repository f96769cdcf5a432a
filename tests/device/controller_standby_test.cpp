// The standby device (ControllerOptions::standby, ADR 0031) through the test provider: its
// requests complete exactly when the test says, so the races with a loss can be ordered. After a
// loss the controller waits for its owner's retry(), as the Engine's poll() gives it.
#include "warden/device/controller.h"

#include <gtest/gtest.h>

#include <memory>

#include "warden/device/device_stash.h"
#include "warden/device/test_provider.h"

namespace warden::device {
namespace {

class ControllerStandbyTest : public ::testing::Test {
 protected:
  TestProvider provider;
  TestRenderer renderer{provider};
  DeviceEndPolicy end_policy{DeviceEndOptions{}};
  DeviceStash standby;
  std::unique_ptr<DeviceController> controller;

  DeviceController& make(DeviceStash* stash) {
    controller = std::make_unique<DeviceController>(
        provider, renderer.hooks(), ControllerOptions{.device_end = &end_policy, .standby = stash});
    return *controller;
  }

  // Completes adapter request #adapter and device request #device (counted from 1); the device.
  DeviceId resolve(size_t adapter, size_t device) {
    EXPECT_TRUE(provider.resolve_adapter(adapter));
    auto made = provider.resolve_device(device);
    EXPECT_TRUE(made);
    return made ? made.value() : DeviceId{};
  }

  DeviceId active() const {
    auto view = controller->active_device();
    return view ? view->id : DeviceId{};
  }
};

TEST_F(ControllerStandbyTest, AStartAdoptsTheSpareWithoutARequestAndASecondAskWhileOneWaitsIsIgnored) {
  make(&standby);
  controller->initialize();
  const DeviceId first = resolve(1, 1);
  controller->request_standby();
  EXPECT_TRUE(controller->standby_requested());
  const DeviceId spare = resolve(2, 2);
  EXPECT_FALSE(controller->standby_requested());
  ASSERT_TRUE(standby.holds());
  EXPECT_EQ(standby.held_device()->id, spare);
  controller->request_standby();  // one is held: nothing asked
  EXPECT_EQ(provider.adapter_requests(), 2u);

  ASSERT_TRUE(provider.lose(first));
  ASSERT_TRUE(controller->retry().ok());  // the owner asks for the next device
  EXPECT_EQ(controller->state(), DeviceState::Ready) << "the spare is adopted at once";
  EXPECT_EQ(active(), spare);
  EXPECT_EQ(provider.adapter_requests(), 2u) << "no request for the recovery";
  EXPECT_EQ(controller->standby_takeovers(), 1u);
  EXPECT_FALSE(standby.holds());
}

TEST_F(ControllerStandbyTest, ASpareAskedForBeforeALossLandsInTheStashAfterTheRecoveryForTheNextLoss) {
  make(&standby);
  controller->initialize();
  const DeviceId first = resolve(1, 1);
  controller->request_standby();  // adapter request #2, still pending
  ASSERT_TRUE(provider.lose(first));
  ASSERT_TRUE(controller->retry().ok());  // the owner asks for the next device
  EXPECT_EQ(controller->state(), DeviceState::Starting) << "nothing in the stash yet: a request";
  EXPECT_EQ(provider.adapter_requests(), 3u);
  const DeviceId spare = resolve(2, 2);  // the spare arrives while the recovery waits
  EXPECT_EQ(controller->state(), DeviceState::Starting) << "a start already asked for its own device";
  const DeviceId second = resolve(3, 3);
  EXPECT_EQ(active(), second);
  ASSERT_TRUE(standby.holds());
  EXPECT_EQ(standby.held_device()->id, spare);

  ASSERT_TRUE(provider.lose(second));
  ASSERT_TRUE(controller->retry().ok());  // the owner asks for the next device
  EXPECT_EQ(active(), spare);
  EXPECT_EQ(controller->standby_takeovers(), 1u);
}

TEST_F(ControllerStandbyTest, ASpareLostWhileItWaitsIsLetGoAndNeverAdopted) {
  make(&standby);
  controller->initialize();
  const DeviceId first = resolve(1, 1);
  controller->request_standby();
  const DeviceId spare = resolve(2, 2);
  ASSERT_TRUE(provider.lose(spare));
  EXPECT_EQ(controller->state(), DeviceState::Ready) << "nobody is told of the spare's loss";
  EXPECT_EQ(active(), first);

  ASSERT_TRUE(provider.lose(first));
  ASSERT_TRUE(controller->retry().ok());  // the owner asks for the next device
  EXPECT_EQ(controller->state(), DeviceState::Starting);
  EXPECT_EQ(controller->standby_takeovers(), 0u);
  EXPECT_FALSE(standby.holds());
  EXPECT_EQ(provider.release_calls(), 1u) << "the lost spare was let go";
  const DeviceId replacement = resolve(3, 3);
  EXPECT_EQ(active(), replacement);
}

TEST_F(ControllerStandbyTest, ASpareThatArrivesAfterTheControllerIsGoneIsEndedAsNeverPresented) {
  make(&standby);
  controller->initialize();
  resolve(1, 1);
  controller->request_standby();
  ASSERT_TRUE(provider.resolve_adapter(2));
  controller.reset();
  ASSERT_TRUE(provider.resolve_device(2));
  EXPECT_FALSE(standby.holds());
  EXPECT_EQ(provider.live_devices(), 0u) << "the late spare was kept";
  EXPECT_EQ(provider.destroy_calls(), 2u) << "neither device presented: both destroyed";
}

TEST_F(ControllerStandbyTest, WithoutAStandbyStashNothingIsAskedFor) {
  make(nullptr);
  controller->initialize();
  resolve(1, 1);
  controller->request_standby();
  EXPECT_FALSE(controller->standby_requested());
  EXPECT_EQ(provider.adapter_requests(), 1u);
}

}  // namespace
}  // namespace warden::device
