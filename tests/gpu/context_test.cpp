// Context::open_device: adapter, device and queue in one call, or the first error.
#include <gtest/gtest.h>

#include "support/gpu_test.h"
#include "support/messages.h"
#include "warden/gpu/context.h"
#include "warden/gpu/names.h"

namespace warden::gpu {
namespace {

TEST(OpenDevice, GivesTheAdapterItsDeviceAndTheQueue) {
  Context* ctx = warden::testing::shared_context();
  ASSERT_NE(ctx, nullptr);
  auto opened = ctx->open_device(BackendChoice::Null, {"open device test", {}});
  ASSERT_TRUE(opened.ok()) << opened.error().message;
  EXPECT_EQ(opened->adapter.description.backend, WGPUBackendType_Null);
  ASSERT_NE(opened->device.get(), nullptr);
  ASSERT_NE(opened->queue.get(), nullptr);
  // The queue is the device's own: the device hands out the same object.
  WGPUQueue again = ctx->procs().DeviceGetQueue(opened->device.get());
  EXPECT_EQ(again, opened->queue.get());
  ctx->procs().QueueRelease(again);
}

// One DeviceOptions serves every request (plan_device_request): a required feature the adapter
// lacks is named before anything is asked of the device layer.
TEST(OpenDevice, ARequiredFeatureTheAdapterLacksIsNamed) {
  Context* ctx = warden::testing::shared_context();
  ASSERT_NE(ctx, nullptr);
  DeviceOptions options;
  options.label = "needs much";
  options.required_features = {static_cast<WGPUFeatureName>(0x50001)};  // offered by Null, not by GL (abi_device_sync_test)
  auto opened = ctx->open_device(BackendChoice::GL, std::move(options));
  ASSERT_FALSE(opened.ok());
  EXPECT_THAT(opened, warden::testing::FailsWith(MessageId::DeviceFeatureMissing));
  EXPECT_EQ(opened.error().kind, ErrorKind::DeviceFailed);
  EXPECT_EQ(opened.error().message,
            "device \"needs much\": the adapter lacks required feature(s) " + feature_name(static_cast<WGPUFeatureName>(0x50001)));
  ctx->process_events();
}

TEST(OpenDevice, OptionalFeaturesAreAskedForOnlyWhereTheAdapterHasThem) {
  Context* ctx = warden::testing::shared_context();
  ASSERT_NE(ctx, nullptr);
  DeviceOptions options;
  options.optional_features = {static_cast<WGPUFeatureName>(0x50001), WGPUFeatureName_ImplicitDeviceSynchronization};
  options.backend = BackendChoice::GL;
  auto opened = ctx->open_device(std::move(options));
  ASSERT_TRUE(opened.ok()) << opened.error().message;
  EXPECT_TRUE(ctx->procs().DeviceHasFeature(opened->device.get(), WGPUFeatureName_ImplicitDeviceSynchronization));
  EXPECT_FALSE(ctx->procs().DeviceHasFeature(opened->device.get(), static_cast<WGPUFeatureName>(0x50001)));
}

TEST(OpenDevice, AdapterLimitsAreAskedForWhenChosen) {
  Context* ctx = warden::testing::shared_context();
  ASSERT_NE(ctx, nullptr);
  for (LimitsChoice choice : {LimitsChoice::Default, LimitsChoice::Adapter}) {
    DeviceOptions options;
    options.limits = choice;
    auto opened = ctx->open_device(BackendChoice::GL, std::move(options));
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    WGPULimits device_limits{};
    ASSERT_EQ(ctx->procs().DeviceGetLimits(opened->device.get(), &device_limits), WGPUStatus_Success);
    const WGPULimits& adapter_limits = opened->adapter.description.limits;
    if (choice == LimitsChoice::Adapter) {
      EXPECT_EQ(device_limits.maxTextureArrayLayers, adapter_limits.maxTextureArrayLayers);
      EXPECT_EQ(device_limits.maxBufferSize, adapter_limits.maxBufferSize);
    } else {
      EXPECT_EQ(device_limits.maxTextureArrayLayers, 256u);  // WebGPU's default
    }
  }
}

}  // namespace
}  // namespace warden::gpu
