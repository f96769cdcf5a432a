// A test program that leaks Dawn references on purpose. ctest never runs it;
// ReferenceWatch tests in tests/gpu/ledger_test.cpp run it and read its verdicts.
#include <gtest/gtest.h>

#include <memory>

#include "support/gpu_test.h"

namespace warden::testing {
namespace {

class LeakProbe : public NullDeviceTest {};

TEST_F(LeakProbe, LeaksABufferAndTheQueue) {
  WGPUBufferDescriptor desc{};
  desc.size = 16;
  desc.usage = WGPUBufferUsage_CopyDst;
  EXPECT_NE(dev->procs().DeviceCreateBuffer(dev->device.get(), &desc), nullptr);  // never released
  EXPECT_NE(dev->procs().DeviceGetQueue(dev->device.get()), nullptr);              // never released
}

TEST_F(LeakProbe, ReleasesWhatItTakes) {
  WGPUBufferDescriptor desc{};
  desc.size = 16;
  desc.usage = WGPUBufferUsage_CopyDst;
  gpu::Ref<WGPUBuffer> buffer(&dev->procs(), dev->procs().DeviceCreateBuffer(dev->device.get(), &desc));
  gpu::Ref<WGPUQueue> queue(&dev->procs(), dev->procs().DeviceGetQueue(dev->device.get()));
  EXPECT_TRUE(buffer && queue);
}

// A device held from before the first test to after the program's check (environments tear
// down in reverse order of registration, and this one registers before main's): no test took it.
class HeldAcrossTheProgram : public ::testing::Environment {
 public:
  void SetUp() override { device_ = open_test_device(gpu::BackendChoice::Null); }
  void TearDown() override {
    if (!device_) return;
    gpu::Context* ctx = device_->context;
    device_->queue.reset();
    device_->device.reset();
    device_->adapter.adapter.reset();
    ctx->process_events();  // the device's lost callback, before its userdata goes
    device_.reset();
  }

 private:
  std::unique_ptr<TestDevice> device_;
};
[[maybe_unused]] ::testing::Environment* const held = ::testing::AddGlobalTestEnvironment(new HeldAcrossTheProgram());

}  // namespace
}  // namespace warden::testing
