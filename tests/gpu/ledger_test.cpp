// The reference ledger: every reference warden takes through the proc table is counted by type
// until it is released (docs/adr/0011). These tests load their own counting library, so they
// hold whatever WARDEN_LEDGER says, and compare counts from before and after.
#include <dlfcn.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "support/gpu_test.h"
#include "support/messages.h"
#include "support/reference_watch.h"
#include "support/test_files.h"
#include "warden/gpu/context.h"
#include "warden/gpu/ledger.h"
#include "warden/gpu/objects.h"

namespace warden::gpu {
namespace {

using ::testing::HasSubstr;

std::shared_ptr<const Library> counting_library() {
  auto lib = Library::load({.ledger = LedgerMode::On});
  EXPECT_TRUE(lib.ok()) << lib.error().message;
  return lib ? lib.value() : nullptr;
}

// References taken since `before`.
ReferenceCounts since(const ReferenceCounts& before) { return Ledger::process().outstanding() - before; }

ReferenceCounts counts(std::initializer_list<std::pair<ObjectType, int64_t>> entries) {
  ReferenceCounts c;
  for (auto [type, n] : entries) c[type] = n;
  return c;
}

class LedgerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto lib = counting_library();
    ASSERT_NE(lib, nullptr);
    ASSERT_TRUE(lib->counts_references());
    auto ctx = Context::create(lib);
    ASSERT_TRUE(ctx.ok()) << ctx.error().message;
    context = std::move(ctx.value());
    auto opened = context->open_device(BackendChoice::Null, {"ledger test device", {}});
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    device = std::move(opened.value());
  }
  void TearDown() override {
    device = {};
    if (context) context->process_events();  // the device's lost callback
    context.reset();
  }
  const Procs& p() const { return context->procs(); }
  WGPUDevice dev() const { return device.device.get(); }

  std::unique_ptr<Context> context;
  OpenedDevice device;
};

TEST_F(LedgerTest, ALeakedBufferAndQueueAreCountedAndNamed) {
  ReferenceCounts before = Ledger::process().outstanding();
  WGPUBufferDescriptor desc{};
  desc.size = 64;
  desc.usage = WGPUBufferUsage_CopyDst;
  WGPUBuffer leaked_buffer = p().DeviceCreateBuffer(dev(), &desc);
  WGPUQueue leaked_queue = p().DeviceGetQueue(dev());
  ASSERT_NE(leaked_buffer, nullptr);
  ASSERT_NE(leaked_queue, nullptr);

  ReferenceCounts left = since(before);
  EXPECT_EQ(left, counts({{ObjectType::Queue, 1}, {ObjectType::Buffer, 1}}));
  EXPECT_EQ(to_string(left), "Queue 1, Buffer 1");
  EXPECT_THAT(testing::leftover_message(left, "this test"), HasSubstr("never released: Queue 1, Buffer 1"));
  EXPECT_THAT(Ledger::process().report(), HasSubstr("Buffer "));

  // Given back, the ledger is where it started (and this test ends balanced).
  p().BufferRelease(leaked_buffer);
  p().QueueRelease(leaked_queue);
  EXPECT_TRUE(since(before).balanced()) << to_string(since(before));
}

// Object types warden itself never made before the table held every entry point: a render
// bundle and its encoder are counted, and a bundle not released is reported by name.
TEST_F(LedgerTest, ARenderBundleMadeThroughTheTableIsCountedAndALeakedOneNamed) {
  ReferenceCounts before = Ledger::process().outstanding();
  WGPUTextureFormat format = WGPUTextureFormat_RGBA8Unorm;
  WGPURenderBundleEncoderDescriptor desc{};
  desc.colorFormatCount = 1;
  desc.colorFormats = &format;
  desc.sampleCount = 1;
  WGPURenderBundleEncoder encoder = p().DeviceCreateRenderBundleEncoder(dev(), &desc);
  ASSERT_NE(encoder, nullptr);
  WGPURenderBundle leaked_bundle = p().RenderBundleEncoderFinish(encoder, nullptr);
  ASSERT_NE(leaked_bundle, nullptr);
  EXPECT_EQ(since(before), counts({{ObjectType::RenderBundle, 1}, {ObjectType::RenderBundleEncoder, 1}}));
  p().RenderBundleEncoderRelease(encoder);

  ReferenceCounts left = since(before);
  EXPECT_EQ(left, counts({{ObjectType::RenderBundle, 1}}));
  EXPECT_THAT(testing::leftover_message(left, "this test"), HasSubstr("never released: RenderBundle 1"));

  p().RenderBundleAddRef(leaked_bundle);
  EXPECT_EQ(since(before), counts({{ObjectType::RenderBundle, 2}}));
  p().RenderBundleRelease(leaked_bundle);
  p().RenderBundleRelease(leaked_bundle);
  EXPECT_TRUE(since(before).balanced()) << to_string(since(before));
}

TEST_F(LedgerTest, AnExternalTextureMadeThroughTheTableIsCounted) {
  ReferenceCounts before = Ledger::process().outstanding();
  WGPUExternalTexture texture = p().DeviceCreateErrorExternalTexture(dev());
  ASSERT_NE(texture, nullptr);
  EXPECT_EQ(since(before), counts({{ObjectType::ExternalTexture, 1}}));
  p().ExternalTextureRelease(texture);
  EXPECT_TRUE(since(before).balanced()) << to_string(since(before));
}

TEST(Ledger, EveryObjectTypeOfTheHeaderIsCounted) {
  EXPECT_EQ(kObjectTypeCount, 26u);
  EXPECT_STREQ(to_string(ObjectType::ExternalTexture), "ExternalTexture");
  EXPECT_STREQ(to_string(ObjectType::SharedFence), "SharedFence");
}

TEST_F(LedgerTest, ABalancedSequenceOfEveryKindOfAcquisitionReportsZero) {
  ReferenceCounts before = Ledger::process().outstanding();
  {
    WGPUBufferDescriptor bd{};
    bd.size = 256;
    bd.usage = WGPUBufferUsage_Storage;
    Ref<WGPUBuffer> buffer(&p(), p().DeviceCreateBuffer(dev(), &bd));
    p().BufferAddRef(buffer.get());
    Ref<WGPUBuffer> second_reference(&p(), buffer.get());

    WGPUTextureDescriptor td{};
    td.dimension = WGPUTextureDimension_2D;
    td.mipLevelCount = 1;
    td.sampleCount = 1;
    td.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc;
    td.size = {4, 4, 1};
    td.format = WGPUTextureFormat_RGBA8Unorm;
    Ref<WGPUTexture> texture(&p(), p().DeviceCreateTexture(dev(), &td));
    Ref<WGPUTextureView> view(&p(), p().TextureCreateView(texture.get(), nullptr));
    const WGPUSamplerDescriptor sd = warden::testing::nearest_clamp_sampler();
    Ref<WGPUSampler> sampler(&p(), p().DeviceCreateSampler(dev(), &sd));

    Ref<WGPUShaderModule> module(&p(), create_wgsl_module(p(), dev(),
        "@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n"
        "@compute @workgroup_size(1) fn main() { data[0] = 1u; }\n", "ledger shader"));
    WGPUComputePipelineDescriptor cd{};
    cd.compute.module = module.get();
    cd.compute.entryPoint = gpu::string_view("main");
    Ref<WGPUComputePipeline> pipeline(&p(), p().DeviceCreateComputePipeline(dev(), &cd));
    Ref<WGPUBindGroupLayout> layout(&p(), p().ComputePipelineGetBindGroupLayout(pipeline.get(), 0));

    Ref<WGPUCommandEncoder> encoder(&p(), p().DeviceCreateCommandEncoder(dev(), nullptr));
    Ref<WGPUComputePassEncoder> pass(&p(), p().CommandEncoderBeginComputePass(encoder.get(), nullptr));
    p().ComputePassEncoderEnd(pass.get());
    Ref<WGPUCommandBuffer> commands(&p(), p().CommandEncoderFinish(encoder.get(), nullptr));

    EXPECT_EQ(since(before), counts({{ObjectType::Buffer, 2},
                                     {ObjectType::Texture, 1},
                                     {ObjectType::TextureView, 1},
                                     {ObjectType::Sampler, 1},
                                     {ObjectType::ShaderModule, 1},
                                     {ObjectType::BindGroupLayout, 1},
                                     {ObjectType::ComputePipeline, 1},
                                     {ObjectType::CommandEncoder, 1},
                                     {ObjectType::CommandBuffer, 1},
                                     {ObjectType::ComputePassEncoder, 1}}))
        << to_string(since(before));
  }
  EXPECT_TRUE(since(before).balanced()) << to_string(since(before));
}

TEST(Ledger, CountsTheInstanceAndTheAdapterAndDeviceDeliveredToRequestCallbacks) {
  auto lib = counting_library();
  ASSERT_NE(lib, nullptr);
  ReferenceCounts before = Ledger::process().outstanding();
  auto ctx = Context::create(lib);
  ASSERT_TRUE(ctx.ok()) << ctx.error().message;
  EXPECT_EQ(since(before), counts({{ObjectType::Instance, 1}}));
  {
    auto adapter = (*ctx)->select_adapter(BackendChoice::Null);
    ASSERT_TRUE(adapter.ok()) << adapter.error().message;
    EXPECT_EQ(since(before), counts({{ObjectType::Instance, 1}, {ObjectType::Adapter, 1}}));
    auto device = (*ctx)->request_device(adapter->adapter.get(), {});
    ASSERT_TRUE(device.ok()) << device.error().message;
    EXPECT_EQ(since(before), counts({{ObjectType::Instance, 1}, {ObjectType::Adapter, 1}, {ObjectType::Device, 1}}));
  }
  (*ctx)->process_events();
  ctx.value().reset();
  EXPECT_TRUE(since(before).balanced()) << to_string(since(before));
}

TEST(Ledger, ARejectedDeviceRequestDeliversNothingToCount) {
  auto lib = counting_library();
  ASSERT_NE(lib, nullptr);
  auto ctx = Context::create(lib);
  ASSERT_TRUE(ctx.ok()) << ctx.error().message;
  auto adapter = (*ctx)->select_adapter(BackendChoice::Null);
  ASSERT_TRUE(adapter.ok()) << adapter.error().message;
  ReferenceCounts before = Ledger::process().outstanding();
  DeviceOptions options;
  options.required_features = {static_cast<WGPUFeatureName>(0x7fff0000)};  // no adapter has it
  auto device = (*ctx)->request_device(adapter->adapter.get(), std::move(options));
  ASSERT_THAT(device, warden::testing::FailsWith(MessageId::DeviceFeatureMissing));
  EXPECT_TRUE(since(before).balanced()) << to_string(since(before));
}

TEST(Ledger, OffTheTableHoldsTheLibrarysOwnEntryPointsAndCountsNothing) {
  auto off = Library::load({.ledger = LedgerMode::Off});
  ASSERT_TRUE(off.ok()) << off.error().message;
  EXPECT_FALSE((*off)->counts_references());
  void* handle = ::dlopen((*off)->path().c_str(), RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(handle, nullptr);
  EXPECT_EQ(reinterpret_cast<void*>((*off)->procs().DeviceCreateBuffer), ::dlsym(handle, "wgpuDeviceCreateBuffer"));
  EXPECT_EQ(reinterpret_cast<void*>((*off)->procs().BufferRelease), ::dlsym(handle, "wgpuBufferRelease"));
  auto on = counting_library();
  ASSERT_NE(on, nullptr);
  EXPECT_NE(reinterpret_cast<void*>(on->procs().DeviceCreateBuffer), ::dlsym(handle, "wgpuDeviceCreateBuffer"));
  ::dlclose(handle);  // only the reference RTLD_NOLOAD took

  ReferenceCounts before = Ledger::process().outstanding();
  auto ctx = Context::create(*off);
  ASSERT_TRUE(ctx.ok()) << ctx.error().message;
  {
    auto opened = (*ctx)->open_device(BackendChoice::Null, {});
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    WGPUBufferDescriptor desc{};
    desc.size = 16;
    desc.usage = WGPUBufferUsage_CopyDst;
    WGPUBuffer buffer = (*off)->procs().DeviceCreateBuffer(opened->device.get(), &desc);
    EXPECT_TRUE(since(before).balanced()) << to_string(since(before));
    (*off)->procs().BufferRelease(buffer);
  }
  (*ctx)->process_events();
}

TEST(Ledger, AnEnvironmentValueOtherThan0Or1IsAnErrorNamingIt) {
  const char* saved = std::getenv(kLedgerEnvVar);
  std::string restore = saved ? saved : "";
  ::setenv(kLedgerEnvVar, "yes", 1);
  auto lib = Library::load({});
  if (saved) ::setenv(kLedgerEnvVar, restore.c_str(), 1); else ::unsetenv(kLedgerEnvVar);
  ASSERT_FALSE(lib.ok());
  EXPECT_THAT(lib, warden::testing::FailsWith(MessageId::LedgerSettingInvalid));
  EXPECT_EQ(lib.error().kind, ErrorKind::InvalidArgument);
  EXPECT_THAT(lib.error().message, HasSubstr("WARDEN_LEDGER='yes'"));
}

// The watch every test program installs, seen from outside: a program whose test leaks.
struct ProbeRun {
  int exit_code = -1;
  std::string output;
};
ProbeRun run_probe() {
  ProbeRun run;
  // The ledger on whatever this run's WARDEN_LEDGER says: the watch is what is tested.
  // The probe runs all its tests whatever part of this program runs: a sharded run's variables
  // (memcheck runs programs in shards) are not handed on.
  const std::string command = "env -u GTEST_TOTAL_SHARDS -u GTEST_SHARD_INDEX WARDEN_LEDGER=1 '" +
                              warden::testing::test_file(WARDEN_LEDGER_PROBE_PATH) + "' 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) run.output.append(buffer, n);
  int status = ::pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

TEST(ReferenceWatch, FailsTheTestThatEndsHoldingReferencesAndNamesTheTypes) {
  ProbeRun run = run_probe();
  EXPECT_NE(run.exit_code, 0) << run.output;
  EXPECT_THAT(run.output, HasSubstr("Dawn references taken by this test and never released: Queue 1, Buffer 1"));
  EXPECT_THAT(run.output, HasSubstr("[  FAILED  ] LeakProbe.LeaksABufferAndTheQueue"));
  EXPECT_THAT(run.output, HasSubstr("[       OK ] LeakProbe.ReleasesWhatItTakes"));
}

TEST(ReferenceWatch, FailsTheProgramForReferencesNoTestTook) {
  ProbeRun run = run_probe();
  EXPECT_THAT(run.output, HasSubstr("Dawn references taken by the test program, outside any single "
                                    "test, and never released: Adapter 1, Device 1, Queue 1"))
      << run.output;
}

}  // namespace
}  // namespace warden::gpu
