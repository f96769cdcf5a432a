// Context::open_device: adapter, device and queue in one call, or the first error.
#include <gtest/gtest.h>

#include <fmt/format.h>

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

// required_limits raises one limit above WebGPU's default, to what the adapter has, and leaves
// the rest at the defaults.
TEST(OpenDevice, ARequiredLimitTheAdapterSupportsIsOnTheDevice) {
  Context* ctx = warden::testing::shared_context();
  ASSERT_NE(ctx, nullptr);
  auto adapter = ctx->select_adapter(BackendChoice::GL);
  ASSERT_TRUE(adapter.ok()) << adapter.error().message;
  const uint32_t supported = adapter->description.limits.maxTextureArrayLayers;
  ASSERT_GT(supported, 256u) << "the adapter must support more than the default for this test to show anything";
  DeviceOptions options;
  options.required_limits.max_texture_array_layers = supported;
  auto opened = ctx->open_device(BackendChoice::GL, std::move(options));
  ASSERT_TRUE(opened.ok()) << opened.error().message;
  WGPULimits device_limits{};
  ASSERT_EQ(ctx->procs().DeviceGetLimits(opened->device.get(), &device_limits), WGPUStatus_Success);
  EXPECT_EQ(device_limits.maxTextureArrayLayers, supported);
  EXPECT_EQ(device_limits.maxBufferSize, uint64_t{256} << 20);  // WebGPU's default, not the adapter's
}

TEST(OpenDevice, ARequiredLimitAboveTheAdaptersIsNamedWithBothNumbers) {
  Context* ctx = warden::testing::shared_context();
  ASSERT_NE(ctx, nullptr);
  auto adapter = ctx->select_adapter(BackendChoice::GL);
  ASSERT_TRUE(adapter.ok()) << adapter.error().message;
  const uint64_t supported = adapter->description.limits.maxBufferSize;
  DeviceOptions options;
  options.label = "greedy";
  options.required_limits.max_buffer_size = supported + 1;
  auto opened = ctx->open_device(BackendChoice::GL, std::move(options));
  ASSERT_FALSE(opened.ok());
  EXPECT_THAT(opened, warden::testing::FailsWith(MessageId::DeviceLimitExceeded));
  EXPECT_EQ(opened.error().kind, ErrorKind::DeviceFailed);
  EXPECT_EQ(opened.error().message, fmt::format("device \"greedy\": required limit(s) above the adapter's: "
                                                "maxBufferSize {} (the adapter supports {})",
                                                supported + 1, supported));
}

}  // namespace
}  // namespace warden::gpu
