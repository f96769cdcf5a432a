#include "support/gpu_test.h"

#include <cstdlib>

#include "support/reference_watch.h"

namespace warden::testing {

gpu::Context* shared_context() {
  // Deliberately never released: releasing the instance from a static destructor races the
  // driver's own exit-time teardown (seen as a segfault at exit on the NVIDIA Vulkan driver).
  // The pointer stays reachable, so leak checkers do not count it, and its instance is kept for
  // the program, so the reference watch does not count it either.
  static gpu::Context* context = []() -> gpu::Context* {
    gpu::ReferenceCounts before = gpu::Ledger::process().outstanding();
    auto created = gpu::Context::create();
    keep_for_program(gpu::Ledger::process().outstanding() - before);
    if (!created) {
      ADD_FAILURE() << created.error().message;
      return nullptr;
    }
    return created.value().release();
  }();
  return context;
}

std::vector<std::string> TestDevice::take_errors() {
  std::lock_guard lock(mutex);
  return std::exchange(uncaptured_errors, {});
}

std::unique_ptr<TestDevice> open_test_device(gpu::BackendChoice backend, bool synchronized) {
  gpu::Context* ctx = shared_context();
  if (ctx == nullptr) return nullptr;
  auto dev = std::make_unique<TestDevice>();
  dev->context = ctx;
  TestDevice* raw = dev.get();
  gpu::DeviceOptions options;
  options.label = "test device";
  // The device may outlive `raw` only if a test leaks it; the fixtures release it first.
  options.callbacks.on_lost = [raw](WGPUDeviceLostReason, std::string_view message) {
    std::lock_guard lock(raw->mutex);
    raw->lost = true;
    raw->lost_message = std::string(message);
  };
  options.callbacks.on_uncaptured_error = [raw](WGPUErrorType, std::string_view message) {
    std::lock_guard lock(raw->mutex);
    raw->uncaptured_errors.emplace_back(message);
  };
  // Synchronized unless asked otherwise, as the Engine asks for (and as a device several threads
  // call must be): the thread tests call the device from threads of their own beside the
  // registry's.
  if (synchronized) options.optional_features.push_back(WGPUFeatureName_ImplicitDeviceSynchronization);
  auto opened = ctx->open_device(backend, std::move(options));
  if (!opened) {
    ADD_FAILURE() << opened.error().message;
    return nullptr;
  }
  dev->adapter = std::move(opened->adapter);
  dev->device = std::move(opened->device);
  dev->queue = std::move(opened->queue);
  return dev;
}

void close_device(std::unique_ptr<TestDevice>& dev) {
  if (!dev) return;
  gpu::Context* ctx = dev->context;
  dev->queue.reset();
  dev->device.reset();
  dev->adapter.adapter.reset();
  // Deliver the device's final lost callback before `dev` (its userdata) goes away.
  ctx->process_events();
  dev.reset();
}

gpu::BackendChoice pixel_test_backend() {
  // GL over llvmpipe everywhere by default; WARDEN_TEST_BACKEND=vulkan runs the same pixel
  // tests on a GPU machine.
  if (const char* env = std::getenv("WARDEN_TEST_BACKEND"); env != nullptr && *env != '\0') {
    auto choice = gpu::parse_backend_choice(env);
    if (choice) return *choice;
    ADD_FAILURE() << choice.error().message;
  }
  return gpu::BackendChoice::GL;
}

void GlDeviceTest::SetUp() {
  dev = open_test_device(pixel_test_backend());
  ASSERT_NE(dev, nullptr);
}
void GlDeviceTest::TearDown() { close_device(dev); }

void NullDeviceTest::SetUp() {
  dev = open_test_device(gpu::BackendChoice::Null);
  ASSERT_NE(dev, nullptr);
}
void NullDeviceTest::TearDown() { close_device(dev); }

}  // namespace warden::testing
