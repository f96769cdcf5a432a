// Real Dawn devices for tests. One Context (library + instance) per test program; a new device
// per test, so one test's loss or errors never leak into the next.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "warden/gpu/context.h"

namespace warden::testing {

// The shared context; fails the calling test (and returns null) when no library loads.
gpu::Context* shared_context();

// The sampler tests make for themselves (an application's own, adopted or replaced): nearest
// filtering, clamped to the edge on every axis.
inline WGPUSamplerDescriptor nearest_clamp_sampler() {
  WGPUSamplerDescriptor d{};
  d.addressModeU = d.addressModeV = d.addressModeW = WGPUAddressMode_ClampToEdge;
  d.magFilter = d.minFilter = WGPUFilterMode_Nearest;
  d.mipmapFilter = WGPUMipmapFilterMode_Nearest;
  d.lodMaxClamp = 32.0f;
  d.maxAnisotropy = 1;
  return d;
}

struct TestDevice {
  gpu::Context* context = nullptr;
  gpu::SelectedAdapter adapter;
  gpu::Ref<WGPUDevice> device;
  gpu::Ref<WGPUQueue> queue;

  // Everything the device reported through its callbacks.
  std::mutex mutex;
  std::vector<std::string> uncaptured_errors;
  bool lost = false;
  std::string lost_message;

  const gpu::Procs& procs() const { return context->procs(); }
  std::vector<std::string> take_errors();
};

// Opens an adapter of `backend` and a device on it; null (with a test failure) on error.
std::unique_ptr<TestDevice> open_test_device(gpu::BackendChoice backend, bool synchronized = true);
// Lets go of a device a test opened, while the test still holds it: its lost callback, which
// points at `dev`, fires here and not after `dev` is gone.
void close_device(std::unique_ptr<TestDevice>& dev);

// The backend pixel tests run on: GL, unless WARDEN_TEST_BACKEND names another.
gpu::BackendChoice pixel_test_backend();

// Fixture: a GL device (Compatibility, llvmpipe here) in `dev`, for tests that read pixels.
// WARDEN_TEST_BACKEND=vulkan runs the same tests on a GPU.
class GlDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  std::unique_ptr<TestDevice> dev;
};

// Fixture: a Null-backend device, for fast validation-only tests.
class NullDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  std::unique_ptr<TestDevice> dev;
};

}  // namespace warden::testing
