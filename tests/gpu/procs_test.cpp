// The proc table holds every entry point of the header (docs/adr/0038): entries warden never
// called before work through it on GL, and a library that lacks an entry has it named.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "support/error_scope.h"
#include "support/gpu_test.h"
#include "support/messages.h"
#include "support/poll_until.h"
#include "support/test_files.h"
#include "warden/gpu/library.h"
#include "warden/gpu/objects.h"

namespace warden::gpu {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::GlDeviceTest;

constexpr uint32_t kSize = 4;
constexpr uint32_t kRowBytes = 256;

TEST(Procs, TheTableHasAFieldForEveryEntryPointOfTheHeader) {
  EXPECT_EQ(proc_count(), 253u);
  EXPECT_EQ(sizeof(Procs), proc_count() * sizeof(void*));
  EXPECT_LT(required_proc_count(), proc_count());
}

TEST(Procs, AnEntryTheLibraryLacksIsNullAndNamedAndACallerThatNeedsItIsRefused) {
  // A build of Dawn without wgpuRenderPassEncoderSetBlendConstant (tests/CMakeLists.txt).
  const std::string path = warden::testing::test_file(WARDEN_DAWN_WITHOUT_BLEND_CONSTANT);
  auto lib = Library::load({.path = path, .ledger = LedgerMode::Off});
  ASSERT_TRUE(lib.ok()) << lib.error().message;
  EXPECT_THAT(lib.value()->absent_procs(), ElementsAre("wgpuRenderPassEncoderSetBlendConstant"));
  EXPECT_EQ(lib.value()->procs().RenderPassEncoderSetBlendConstant, nullptr);
  EXPECT_NE(lib.value()->procs().RenderPassEncoderSetStencilReference, nullptr);

  EXPECT_TRUE(lib.value()->require("RenderPassEncoderSetStencilReference").ok());
  EXPECT_TRUE(lib.value()->require("wgpuDeviceCreateBuffer").ok());
  auto absent = lib.value()->require("RenderPassEncoderSetBlendConstant");
  ASSERT_THAT(absent, testing::FailsWith(MessageId::LibraryProcAbsent));
  EXPECT_EQ(absent.error().kind, ErrorKind::SymbolMissing);
  EXPECT_THAT(absent.error().message, HasSubstr("does not export wgpuRenderPassEncoderSetBlendConstant"));
  EXPECT_THAT(absent.error().message, HasSubstr(path));
  auto unknown = lib.value()->require("wgpuDeviceCreateTeapot");
  ASSERT_THAT(unknown, testing::FailsWith(MessageId::LibraryProcUnknown));
  EXPECT_THAT(unknown.error().message, HasSubstr("wgpuDeviceCreateTeapot is not an entry point"));
}

TEST(Procs, ALibraryThatLacksAnEntryWardenCallsIsRefusedNamingIt) {
  // Without wgpuDeviceCreateBuffer, which warden calls, and wgpuRenderPassEncoderSetBlendConstant.
  const std::string path = warden::testing::test_file(WARDEN_DAWN_WITHOUT_CREATE_BUFFER);
  auto lib = Library::load({.path = path, .ledger = LedgerMode::Off});
  ASSERT_THAT(lib, testing::FailsWith(MessageId::LibrarySymbolsMissing));
  EXPECT_THAT(lib.error().message, HasSubstr("lacks 1 entry point(s) warden needs: wgpuDeviceCreateBuffer."));
}

TEST(Procs, ThePinnedLibraryLacksNoEntry) {
  auto lib = Library::load({.ignore_environment = true, .ledger = LedgerMode::Off});
  ASSERT_TRUE(lib.ok()) << lib.error().message;
  EXPECT_THAT(lib.value()->absent_procs(), ::testing::IsEmpty());
}

class ProcsOnGl : public GlDeviceTest {
 protected:
  const Procs& p() const { return dev->procs(); }
  WGPUDevice device() const { return dev->device.get(); }

  // Submits `encoder`'s commands and the copy of `buffer`'s first `size` bytes it recorded last.
  std::vector<uint8_t> submit_and_read(WGPUCommandEncoder encoder, WGPUBuffer readback, uint64_t size) {
    WGPUCommandBuffer commands = p().CommandEncoderFinish(encoder, nullptr);
    p().QueueSubmit(dev->queue.get(), 1, &commands);
    p().CommandBufferRelease(commands);
    auto bytes = dev->context->read_mapped(readback, size, warden::testing::kSafetyNet);
    EXPECT_TRUE(bytes.ok()) << bytes.error().message;
    return bytes ? *bytes : std::vector<uint8_t>{};
  }

  Ref<WGPUBuffer> buffer(uint64_t size, WGPUBufferUsage usage) {
    WGPUBufferDescriptor d{};
    d.size = size;
    d.usage = usage;
    return Ref<WGPUBuffer>(&p(), p().DeviceCreateBuffer(device(), &d));
  }
};

// A render bundle draws a triangle whose colour is the pass's blend constant (source factor
// Constant, destination Zero), inside a debug group; the pass's occlusion query, resolved into a
// buffer, counts the samples it passed.
TEST_F(ProcsOnGl, ARenderBundleDrawsTheBlendConstantAndTheOcclusionQueryResolves) {
  constexpr const char* kWgsl = R"(
@vertex fn vs(@builtin(vertex_index) i : u32) -> @builtin(position) vec4<f32> {
  var p = array<vec2<f32>, 3>(vec2<f32>(-1.0, -1.0), vec2<f32>(3.0, -1.0), vec2<f32>(-1.0, 3.0));
  return vec4<f32>(p[i], 0.5, 1.0);
}
@fragment fn fs() -> @location(0) vec4<f32> { return vec4<f32>(1.0, 1.0, 1.0, 1.0); }
)";
  std::vector<uint8_t> pixels;
  std::vector<uint8_t> occlusion;
  std::string errors = testing::validation_message(*dev, [&] {
    WGPUTextureDescriptor td{};
    td.dimension = WGPUTextureDimension_2D;
    td.mipLevelCount = 1;
    td.sampleCount = 1;
    td.size = {kSize, kSize, 1};
    td.format = WGPUTextureFormat_RGBA8Unorm;
    td.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc;
    Ref<WGPUTexture> target(&p(), p().DeviceCreateTexture(device(), &td));
    Ref<WGPUTextureView> view(&p(), p().TextureCreateView(target.get(), nullptr));

    Ref<WGPUShaderModule> module(&p(), create_wgsl_module(p(), device(), kWgsl, "bundle probe"));
    VsFsPipelineDescription desc(module.get());
    WGPUBlendState blend{};
    blend.color = {WGPUBlendOperation_Add, WGPUBlendFactor_Constant, WGPUBlendFactor_Zero};
    blend.alpha = {WGPUBlendOperation_Add, WGPUBlendFactor_Constant, WGPUBlendFactor_Zero};
    desc.color.blend = &blend;
    Ref<WGPURenderPipeline> pipeline(&p(), p().DeviceCreateRenderPipeline(device(), &desc.desc));

    WGPUTextureFormat format = WGPUTextureFormat_RGBA8Unorm;
    WGPURenderBundleEncoderDescriptor bd{};
    bd.colorFormatCount = 1;
    bd.colorFormats = &format;
    bd.sampleCount = 1;
    Ref<WGPURenderBundleEncoder> bundle_encoder(&p(), p().DeviceCreateRenderBundleEncoder(device(), &bd));
    p().RenderBundleEncoderSetPipeline(bundle_encoder.get(), pipeline.get());
    p().RenderBundleEncoderDraw(bundle_encoder.get(), 3, 1, 0, 0);
    Ref<WGPURenderBundle> bundle(&p(), p().RenderBundleEncoderFinish(bundle_encoder.get(), nullptr));

    WGPUQuerySetDescriptor qd{};
    qd.type = WGPUQueryType_Occlusion;
    qd.count = 1;
    Ref<WGPUQuerySet> queries(&p(), p().DeviceCreateQuerySet(device(), &qd));

    WGPURenderPassColorAttachment attachment{};
    attachment.depthSlice = WGPU_DEPTH_SLICE_UNDEFINED;
    attachment.view = view.get();
    attachment.loadOp = WGPULoadOp_Clear;
    attachment.storeOp = WGPUStoreOp_Store;
    WGPURenderPassDescriptor pass_desc{};
    pass_desc.colorAttachmentCount = 1;
    pass_desc.colorAttachments = &attachment;
    pass_desc.occlusionQuerySet = queries.get();
    Ref<WGPUCommandEncoder> encoder(&p(), p().DeviceCreateCommandEncoder(device(), nullptr));
    Ref<WGPURenderPassEncoder> pass(&p(), p().CommandEncoderBeginRenderPass(encoder.get(), &pass_desc));
    p().RenderPassEncoderPushDebugGroup(pass.get(), gpu::string_view("bundle"));
    WGPUColor constant{0.2, 0.4, 0.6, 0.8};
    p().RenderPassEncoderSetBlendConstant(pass.get(), &constant);
    p().RenderPassEncoderBeginOcclusionQuery(pass.get(), 0);
    WGPURenderBundle bundles[] = {bundle.get()};
    p().RenderPassEncoderExecuteBundles(pass.get(), 1, bundles);
    p().RenderPassEncoderEndOcclusionQuery(pass.get());
    p().RenderPassEncoderPopDebugGroup(pass.get());
    p().RenderPassEncoderEnd(pass.get());

    Ref<WGPUBuffer> resolved = buffer(256, WGPUBufferUsage_QueryResolve | WGPUBufferUsage_CopySrc);
    p().CommandEncoderResolveQuerySet(encoder.get(), queries.get(), 0, 1, resolved.get(), 0);
    Ref<WGPUBuffer> query_readback = buffer(8, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst);
    p().CommandEncoderCopyBufferToBuffer(encoder.get(), resolved.get(), 0, query_readback.get(), 0, 8);
    Ref<WGPUBuffer> readback = buffer(kRowBytes * kSize, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst);
    copy_image_to_buffer(p(), encoder.get(), target.get(), readback.get(), kSize, kSize, kRowBytes);
    pixels = submit_and_read(encoder.get(), readback.get(), kRowBytes * kSize);
    auto query = dev->context->read_mapped(query_readback.get(), 8, warden::testing::kSafetyNet);
    ASSERT_TRUE(query.ok()) << query.error().message;
    occlusion = *query;
  });
  EXPECT_EQ(errors, "");
  ASSERT_EQ(pixels.size(), size_t{kRowBytes} * kSize);
  const uint8_t* centre = pixels.data() + (kSize / 2) * kRowBytes + (kSize / 2) * 4;
  // 0.2, 0.4, 0.6, 0.8 in 8-bit unorm, give or take the rounding of the blend unit.
  const std::array<int, 4> want{51, 102, 153, 204};
  for (size_t c = 0; c < want.size(); ++c) EXPECT_NEAR(centre[c], want[c], 1) << "channel " << c;
  ASSERT_EQ(occlusion.size(), 8u);
  uint64_t passed = 0;
  std::memcpy(&passed, occlusion.data(), sizeof(passed));
  EXPECT_GT(passed, 0u);
}

// An indirect dispatch takes its workgroup counts from a buffer: 3 x 1 x 1 runs the shader 3 times.
TEST_F(ProcsOnGl, AnIndirectDispatchRunsTheWorkgroupsItsBufferNames) {
  constexpr const char* kWgsl = R"(
@group(0) @binding(0) var<storage, read_write> runs: array<atomic<u32>, 1>;
@compute @workgroup_size(1) fn main() { atomicAdd(&runs[0], 1u); }
)";
  std::vector<uint8_t> bytes;
  std::string errors = testing::validation_message(*dev, [&] {
    Ref<WGPUShaderModule> module(&p(), create_wgsl_module(p(), device(), kWgsl, "indirect probe"));
    WGPUComputePipelineDescriptor cd{};
    cd.compute.module = module.get();
    cd.compute.entryPoint = gpu::string_view("main");
    Ref<WGPUComputePipeline> pipeline(&p(), p().DeviceCreateComputePipeline(device(), &cd));
    Ref<WGPUBindGroupLayout> layout(&p(), p().ComputePipelineGetBindGroupLayout(pipeline.get(), 0));
    Ref<WGPUBuffer> runs = buffer(16, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst);
    Ref<WGPUBuffer> counts = buffer(16, WGPUBufferUsage_Indirect | WGPUBufferUsage_CopyDst);
    const std::array<uint32_t, 3> workgroups{3, 1, 1};
    p().QueueWriteBuffer(dev->queue.get(), counts.get(), 0, workgroups.data(), sizeof(workgroups));
    WGPUBindGroupEntry entry{};
    entry.binding = 0;
    entry.buffer = runs.get();
    entry.size = 16;
    WGPUBindGroupDescriptor gd{};
    gd.layout = layout.get();
    gd.entryCount = 1;
    gd.entries = &entry;
    Ref<WGPUBindGroup> group(&p(), p().DeviceCreateBindGroup(device(), &gd));

    Ref<WGPUCommandEncoder> encoder(&p(), p().DeviceCreateCommandEncoder(device(), nullptr));
    p().CommandEncoderClearBuffer(encoder.get(), runs.get(), 0, 16);
    Ref<WGPUComputePassEncoder> pass(&p(), p().CommandEncoderBeginComputePass(encoder.get(), nullptr));
    p().ComputePassEncoderSetPipeline(pass.get(), pipeline.get());
    p().ComputePassEncoderSetBindGroup(pass.get(), 0, group.get(), 0, nullptr);
    p().ComputePassEncoderDispatchWorkgroupsIndirect(pass.get(), counts.get(), 0);
    p().ComputePassEncoderEnd(pass.get());
    Ref<WGPUBuffer> readback = buffer(16, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst);
    p().CommandEncoderCopyBufferToBuffer(encoder.get(), runs.get(), 0, readback.get(), 0, 16);
    bytes = submit_and_read(encoder.get(), readback.get(), 16);
  });
  EXPECT_EQ(errors, "");
  ASSERT_EQ(bytes.size(), 16u);
  uint32_t runs = 0;
  std::memcpy(&runs, bytes.data(), sizeof(runs));
  EXPECT_EQ(runs, 3u);
}

}  // namespace
}  // namespace warden::gpu
