// Proof for WGPUFeatureName_ImplicitDeviceSynchronization (0x50004) and DeviceOptions::required_features:
// the adapters offer it, a device requested with it is created, a feature the adapter lacks
// fails the request (so requiredFeatures is read where we put it), and a device with it takes
// calls from a second thread.
#include <gmock/gmock.h>

#include <thread>

#include "support/gpu_test.h"
#include "support/messages.h"

namespace warden::gpu {
namespace {

Result<Ref<WGPUDevice>> request_with(const Context& ctx, WGPUAdapter adapter, std::vector<WGPUFeatureName> features) {
  DeviceOptions options;
  options.label = "abi device sync";
  options.required_features = std::move(features);
  return ctx.request_device(adapter, std::move(options));
}

TEST(AbiDeviceSync, GlAndNullAdaptersOfferImplicitDeviceSynchronization) {
  Context* ctx = warden::testing::shared_context();
  ASSERT_NE(ctx, nullptr);
  for (BackendChoice backend : {BackendChoice::GL, BackendChoice::Null}) {
    auto adapter = ctx->select_adapter(backend);
    ASSERT_TRUE(adapter.ok()) << adapter.error().message;
    EXPECT_TRUE(ctx->procs().AdapterHasFeature(adapter->adapter.get(), WGPUFeatureName_ImplicitDeviceSynchronization))
        << to_string(backend);
    auto device = request_with(*ctx, adapter->adapter.get(), {WGPUFeatureName_ImplicitDeviceSynchronization});
    ASSERT_TRUE(device.ok()) << device.error().message;
    // DeviceHasFeature reads back what was required, and only that.
    EXPECT_TRUE(ctx->procs().DeviceHasFeature(device->get(), WGPUFeatureName_ImplicitDeviceSynchronization));
    auto plain = request_with(*ctx, adapter->adapter.get(), {});
    ASSERT_TRUE(plain.ok()) << plain.error().message;
    EXPECT_FALSE(ctx->procs().DeviceHasFeature(plain->get(), WGPUFeatureName_ImplicitDeviceSynchronization));
  }
  ctx->process_events();
}

TEST(AbiDeviceSync, RequiringAFeatureTheAdapterLacksFailsTheRequest) {
  Context* ctx = warden::testing::shared_context();
  ASSERT_NE(ctx, nullptr);
  auto adapter = ctx->select_adapter(BackendChoice::GL);
  ASSERT_TRUE(adapter.ok()) << adapter.error().message;
  // 0x50001 is offered by the Null adapter but not by GL in this build.
  constexpr WGPUFeatureName kNotOnGl = static_cast<WGPUFeatureName>(0x50001);
  ASSERT_FALSE(ctx->procs().AdapterHasFeature(adapter->adapter.get(), kNotOnGl));
  auto device = request_with(*ctx, adapter->adapter.get(), {kNotOnGl});
  ASSERT_FALSE(device.ok());
  EXPECT_THAT(device, warden::testing::FailsWith(MessageId::DeviceFeatureMissing));
  EXPECT_EQ(device.error().kind, ErrorKind::DeviceFailed);
  ctx->process_events();
}

TEST(AbiDeviceSync, ASynchronizedDeviceTakesCallsFromAnotherThread) {
  Context* ctx = warden::testing::shared_context();
  ASSERT_NE(ctx, nullptr);
  auto adapter = ctx->select_adapter(BackendChoice::GL);
  ASSERT_TRUE(adapter.ok()) << adapter.error().message;
  auto device = request_with(*ctx, adapter->adapter.get(), {WGPUFeatureName_ImplicitDeviceSynchronization});
  ASSERT_TRUE(device.ok()) << device.error().message;
  const Procs& p = ctx->procs();
  WGPUComputePipeline made = nullptr;
  std::thread worker([&] {
    WGPUShaderSourceWGSL wgsl{};
    wgsl.chain.sType = WGPUSType_ShaderSourceWGSL;
    wgsl.code = gpu::string_view("@compute @workgroup_size(1) fn main() {}\n");
    WGPUShaderModuleDescriptor sdesc{};
    sdesc.nextInChain = &wgsl.chain;
    Ref<WGPUShaderModule> module(&p, p.DeviceCreateShaderModule(device->get(), &sdesc));
    WGPUComputePipelineDescriptor cdesc{};
    cdesc.compute.module = module.get();
    cdesc.compute.entryPoint = gpu::string_view("main");
    made = p.DeviceCreateComputePipeline(device->get(), &cdesc);
  });
  worker.join();
  ASSERT_NE(made, nullptr);
  Ref<WGPUComputePipeline> pipeline(&p, made);
  // The pipeline made on the worker is valid on this thread: its layout can be read back.
  Ref<WGPUBindGroupLayout> layout(&p, p.ComputePipelineGetBindGroupLayout(pipeline.get(), 0));
  EXPECT_NE(layout.get(), nullptr);
  layout.reset();
  pipeline.reset();
  device->reset();
  ctx->process_events();
}

}  // namespace
}  // namespace warden::gpu
