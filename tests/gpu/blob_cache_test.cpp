// BlobCache: what one device compiled is what the next one loads (the recovery's pipelines are
// translated once per process), within a byte budget.
#include <gtest/gtest.h>

#include <string>

#include "support/gpu_test.h"
#include "warden/gpu/blob_cache.h"
#include "warden/gpu/context.h"
#include "warden/gpu/objects.h"

namespace warden::gpu {
namespace {

TEST(BlobCache, LoadsWhatWasStoredUnderItsKeyAndTellsTheSizeFirst) {
  BlobCache cache;
  const std::string key = "key", value = "compiled bytes";
  EXPECT_EQ(cache.load(key.data(), key.size(), nullptr, 0), 0u);
  cache.store(key.data(), key.size(), value.data(), value.size());
  EXPECT_EQ(cache.load(key.data(), key.size(), nullptr, 0), value.size());
  std::string out(value.size(), '\0');
  EXPECT_EQ(cache.load(key.data(), key.size(), out.data(), out.size()), value.size());
  EXPECT_EQ(out, value);
  const BlobCacheStats stats = cache.stats();
  EXPECT_EQ(stats.stores, 1u);
  EXPECT_EQ(stats.hits, 1u);
  EXPECT_EQ(stats.misses, 1u);
  EXPECT_EQ(stats.bytes, key.size() + value.size());
}

TEST(BlobCache, DropsWhatWouldPassItsBudgetAndKeepsTheRest) {
  BlobCache cache(16);
  const std::string small = "0123456789", big = "0123456789abcdef";
  cache.store("a", 1, small.data(), small.size());
  cache.store("b", 1, big.data(), big.size());
  EXPECT_EQ(cache.load("a", 1, nullptr, 0), small.size());
  EXPECT_EQ(cache.load("b", 1, nullptr, 0), 0u);
  EXPECT_EQ(cache.stats().dropped, 1u);
  EXPECT_EQ(cache.stats().bytes, 1 + small.size());
}

// The descriptor is chained on the device request (sType and layout of this Dawn build): Dawn
// stores what it translated for the first device and the second device loads it.
TEST(BlobCache, ASecondDeviceLoadsWhatTheFirstStored) {
  Context& context = *testing::shared_context();
  auto cache = std::make_shared<BlobCache>();
  DeviceOptions options;
  options.cache = cache;
  const auto make_pipeline = [&] {
    auto opened = context.open_device(testing::pixel_test_backend(), options);
    ASSERT_TRUE(opened) << opened.error().message;
    const Procs& p = context.procs();
    WGPUDevice device = opened->device.get();
    WGPUShaderModule module = create_wgsl_module(p, device, "@compute @workgroup_size(1) fn main() {}", "cached");
    WGPUComputePipelineDescriptor desc{};
    desc.compute.module = module;
    desc.compute.entryPoint = gpu::string_view("main");
    WGPUComputePipeline pipeline = p.DeviceCreateComputePipeline(device, &desc);
    ASSERT_NE(pipeline, nullptr);
    p.ComputePipelineRelease(pipeline);
    p.ShaderModuleRelease(module);
  };
  make_pipeline();
  const BlobCacheStats first = cache->stats();
  EXPECT_GT(first.stores, 0u);
  EXPECT_EQ(first.hits, 0u);
  make_pipeline();
  EXPECT_GT(cache->stats().hits, 0u);
  EXPECT_EQ(cache->stats().stores, first.stores) << "the second device compiled nothing new";
}

}  // namespace
}  // namespace warden::gpu
