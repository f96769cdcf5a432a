// The controller over the real library (GL backend over llvmpipe): forced loss, retry, and a
// long run of rebuilds that must end with one live device and nothing leaked.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "support/gpu_test.h"
#include "support/device_print.h"
#include "support/messages.h"
#include "support/poll_until.h"
#include "warden/device/controller.h"
#include "warden/device/dawn_provider.h"

namespace warden::device {
namespace {

// What an application does with the hooks: makes a buffer and takes the queue for each
// generation while preparing, and lets both go when that generation is disposed of.
class BufferApp {
 public:
  explicit BufferApp(const gpu::Procs& procs) : procs_(procs) {}

  DeviceController* controller = nullptr;  // set once the controller exists
  std::vector<StateReason> fallbacks;

  ControllerHooks hooks() {
    ControllerHooks h;
    h.show_fallback = [this](const StateReason& reason) { fallbacks.push_back(reason); };
    h.prepare_resources = [this](const DeviceView& view) {
      WGPUBufferDescriptor desc{};
      desc.label = gpu::string_view("generation buffer");
      desc.usage = WGPUBufferUsage_CopyDst | WGPUBufferUsage_Uniform;
      desc.size = 256;
      Resources r{procs_.DeviceCreateBuffer(view.device, &desc), procs_.DeviceGetQueue(view.device)};
      const uint32_t value = static_cast<uint32_t>(view.device_generation);
      procs_.QueueWriteBuffer(r.queue, r.buffer, 0, &value, sizeof value);
      live_[view.device_generation] = r;
      ++created_;
      (void)controller->finish_preparation(view.token, {});
    };
    h.dispose_resources = [this](const DeviceView& view) {
      auto it = live_.find(view.device_generation);
      if (it == live_.end()) return;
      procs_.BufferDestroy(it->second.buffer);
      procs_.BufferRelease(it->second.buffer);
      procs_.QueueRelease(it->second.queue);
      live_.erase(it);
      ++disposed_;
    };
    return h;
  }

  size_t live_generations() const { return live_.size(); }
  bool holds(uint64_t device_generation) const { return live_.count(device_generation) != 0; }
  uint64_t created() const { return created_; }
  uint64_t disposed() const { return disposed_; }

 private:
  struct Resources {
    WGPUBuffer buffer = nullptr;
    WGPUQueue queue = nullptr;
  };
  const gpu::Procs& procs_;
  std::map<uint64_t, Resources> live_;
  uint64_t created_ = 0;
  uint64_t disposed_ = 0;
};

// Drives the provider's events (non-blocking) until `done`; bounded so a hang fails the test.
bool pump_until(const DawnProvider& provider, const std::function<bool()>& done) {
  return testing::poll_until(done, [&] { provider.process_events(); });
}

class DawnControllerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    context = testing::shared_context();
    ASSERT_NE(context, nullptr);
    DawnProviderOptions options;
    options.device.backend = gpu::BackendChoice::GL;
    options.on_uncaptured_error = [this](DeviceId, WGPUErrorType, std::string_view message) {
      errors.emplace_back(message);
    };
    provider = std::make_unique<DawnProvider>(context, std::move(options));
    app = std::make_unique<BufferApp>(context->procs());
    controller = std::make_unique<DeviceController>(
        *provider, app->hooks(), ControllerOptions{.device_label = "device test", .device_end = &end_policy});
    app->controller = controller.get();
  }

  void TearDown() override {
    // Teardown through shutdown(), so the application's hooks dispose of the live generation.
    if (controller) {
      (void)controller->shutdown();
      EXPECT_EQ(app->live_generations(), 0u);
    }
    controller.reset();
    // Let Dawn deliver the last lost callbacks, so nothing registered with it is left behind.
    if (provider) {
      EXPECT_TRUE(pump_until(*provider, [&] { return provider->outstanding_callbacks() == 0; }))
          << provider->outstanding_callbacks() << " callbacks never came back";
    }
    provider.reset();
  }

  bool start() {
    return pump_until(*provider, [&] { return controller->state() != DeviceState::Starting; });
  }

  gpu::Context* context = nullptr;
  DeviceEndPolicy end_policy{DeviceEndOptions{}};
  std::vector<std::string> errors;
  std::unique_ptr<DawnProvider> provider;
  std::unique_ptr<BufferApp> app;
  std::unique_ptr<DeviceController> controller;
};

TEST_F(DawnControllerTest, ForcedLossShowsTheFallbackDisposesTheGenerationThenRetryReachesReady) {
  controller->initialize();
  ASSERT_TRUE(start());
  ASSERT_EQ(controller->state(), DeviceState::Ready) << controller->message();
  const auto lost = controller->active_device();
  ASSERT_TRUE(lost.has_value());
  ASSERT_TRUE(app->holds(lost->device_generation));

  context->procs().DeviceForceLoss(lost->device, WGPUDeviceLostReason_Unknown, gpu::string_view("forced by the test"));
  ASSERT_TRUE(pump_until(*provider, [&] { return controller->state() == DeviceState::Lost; }));

  EXPECT_EQ(controller->reason().cause, StateCause::DeviceLost);
  EXPECT_EQ(controller->reason().loss.reason, WGPUDeviceLostReason_Unknown);
  EXPECT_NE(controller->reason().loss.message.find("forced by the test"), std::string::npos) << controller->message();
  ASSERT_FALSE(app->fallbacks.empty());
  EXPECT_EQ(app->fallbacks.back(), controller->reason());
  EXPECT_FALSE(app->holds(lost->device_generation)) << "the lost generation's resources are disposed of";
  EXPECT_EQ(provider->live_devices(), 0u);
  EXPECT_FALSE(controller->active_device().has_value());

  ASSERT_TRUE(controller->retry());
  ASSERT_TRUE(start());
  ASSERT_EQ(controller->state(), DeviceState::Ready) << controller->message();
  const auto replacement = controller->active_device();
  ASSERT_TRUE(replacement.has_value());
  EXPECT_GT(replacement->device_generation, lost->device_generation);
  EXPECT_NE(replacement->id, lost->id);
  EXPECT_TRUE(app->holds(replacement->device_generation));
  EXPECT_EQ(provider->live_devices(), 1u);
  EXPECT_TRUE(errors.empty()) << errors.front();
}

// Ending a device waits in the driver until its queue is idle; a hung device's queue may never
// be. report_hang hands the device to end_hung_device, which ends it only once process_events
// has heard that its work finished (here at once: GL runs the work inside submit).
TEST_F(DawnControllerTest, AHungDeviceIsEndedOnlyOnceItsQueueSaysItsWorkFinished) {
  controller->initialize();
  ASSERT_TRUE(start());
  ASSERT_EQ(controller->state(), DeviceState::Ready) << controller->message();
  const auto hung = controller->active_device();
  ASSERT_TRUE(hung.has_value());
  const uint64_t destroyed_before = provider->destroy_calls();
  const uint64_t released_before = provider->release_calls();

  controller->report_hang(hung->token, "submitted work did not finish within 2000 ms");

  EXPECT_EQ(controller->state(), DeviceState::Lost);
  EXPECT_EQ(provider->live_devices(), 0u) << "the hung device is no longer the provider's to hand out";
  EXPECT_EQ(provider->hung_devices_waiting(), 1u);
  EXPECT_EQ(provider->destroy_calls() + provider->release_calls(), destroyed_before + released_before)
      << "nothing ended before the queue said its work finished";

  ASSERT_TRUE(pump_until(*provider, [&] { return provider->hung_devices_waiting() == 0; }));
  EXPECT_EQ(provider->destroy_calls(), destroyed_before + 1) << "it never presented: destroyed, once idle";
  EXPECT_EQ(provider->release_calls(), released_before);
}

TEST_F(DawnControllerTest, TwentyRebuildsEndWithOneLiveDeviceAndNothingLeaked) {
  constexpr int kRounds = 20;
  for (int round = 0; round < kRounds; ++round) {
    if (round == 0) {
      controller->initialize();
    } else {
      ASSERT_TRUE(controller->retry());
    }
    ASSERT_TRUE(start());
    ASSERT_EQ(controller->state(), DeviceState::Ready) << "round " << round << ": " << controller->message();
    ASSERT_EQ(provider->live_devices(), 1u) << "round " << round;
    ASSERT_EQ(app->live_generations(), 1u) << "round " << round;
    // Half of them present: those are released, the others destroyed.
    if (round % 2 == 1) {
      ASSERT_TRUE(controller->mark_presented());
    }
    if (round == kRounds - 1) break;

    context->procs().DeviceForceLoss(controller->active_device()->device, WGPUDeviceLostReason_Unknown,
                                     gpu::string_view("rebuild loop"));
    ASSERT_TRUE(pump_until(*provider, [&] { return controller->state() == DeviceState::Lost; }));
    ASSERT_EQ(provider->live_devices(), 0u) << "round " << round;
    ASSERT_EQ(app->live_generations(), 0u) << "round " << round;
  }

  EXPECT_EQ(provider->devices_built(), 20u);
  EXPECT_EQ(provider->live_devices(), 1u);
  EXPECT_EQ(provider->live_adapters(), 0u);
  EXPECT_EQ(provider->release_calls(), 9u) << "rounds 1, 3, ..., 17 presented";
  EXPECT_EQ(provider->destroy_calls(), 10u);
  EXPECT_EQ(end_policy.devices_built(), 20u);
  EXPECT_EQ(end_policy.destroyed_after_presenting(), 0u);
  EXPECT_EQ(app->created(), 20u);
  EXPECT_EQ(app->disposed(), 19u);

  controller->stop();
  EXPECT_EQ(provider->live_devices(), 0u);
  EXPECT_EQ(app->live_generations(), 0u);
  EXPECT_EQ(controller->device_ends().size(), 20u);
  EXPECT_TRUE(errors.empty()) << errors.front();
}

TEST(DawnProvider, WithoutALibraryTheControllerFailsWithTheReason) {
  DawnProvider provider(nullptr, DawnProviderOptions{.unavailable_reason = "libwebgpu_wrapper.so not found"});
  EXPECT_THAT(provider.check_api(), warden::testing::FailsWith(MessageId::ProviderApiUnavailable));
  DeviceEndPolicy end_policy(DeviceEndOptions{});
  std::vector<StateReason> fallbacks;
  ControllerHooks hooks;
  hooks.show_fallback = [&](const StateReason& reason) { fallbacks.push_back(reason); };
  DeviceController controller(provider, hooks, ControllerOptions{.device_end = &end_policy});
  controller.initialize();
  EXPECT_EQ(controller.state(), DeviceState::Failed);
  EXPECT_EQ(controller.reason().cause, StateCause::StartFailed);
  EXPECT_NE(controller.reason().detail.find("libwebgpu_wrapper.so not found"), std::string::npos);
  ASSERT_FALSE(fallbacks.empty());
  EXPECT_EQ(fallbacks.back(), controller.reason());
}

}  // namespace
}  // namespace warden::device
