// Context::open_device: adapter, device and queue in one call, or the first error.
#include <gtest/gtest.h>

#include "support/gpu_test.h"
#include "warden/webgpu/context.h"

namespace warden::gpu {
namespace {

TEST(OpenDevice, GivesTheAdapterItsDeviceAndTheQueue) {
  Context* ctx = warden::testing::shared_context();
  ASSERT_NE(ctx, nullptr);
  auto opened = ctx->open_device(BackendChoice::Null, {"open device test", {}});
  ASSERT_TRUE(opened.ok()) << opened.error().message;
  EXPECT_EQ(opened->adapter.description.backend, BackendType::Null);
  ASSERT_NE(opened->device.get(), nullptr);
  ASSERT_NE(opened->queue.get(), nullptr);
  // The queue is the device's own: the device hands out the same object.
  Queue again = ctx->procs().DeviceGetQueue(opened->device.get());
  EXPECT_EQ(again, opened->queue.get());
  ctx->procs().QueueRelease(again);
}

TEST(OpenDevice, AFailedDeviceRequestIsTheError) {
  Context* ctx = warden::testing::shared_context();
  ASSERT_NE(ctx, nullptr);
  DeviceOptions options;
  options.required_features = {0x50001};  // offered by Null, not by GL (abi_device_sync_test)
  auto opened = ctx->open_device(BackendChoice::GL, std::move(options));
  ASSERT_FALSE(opened.ok());
  EXPECT_EQ(opened.error().kind, ErrorKind::DeviceFailed);
  EXPECT_NE(opened.error().message.find("device request failed"), std::string::npos) << opened.error().message;
  ctx->process_events();
}

}  // namespace
}  // namespace warden::gpu
