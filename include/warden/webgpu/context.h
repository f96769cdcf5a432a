// The bottom of warden: a loaded library, one instance, adapter selection by backend, device
// requests. Blocking waits here are for start-up, tools, tests and teardown, never a frame.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "warden/core/result.h"
#include "warden/webgpu/library.h"
#include "warden/webgpu/ref.h"

namespace warden::gpu {

// What the user asks for. Auto: Vulkan when it offers a GPU adapter, else OpenGL, then OpenGL ES
// (both over EGL at the Compatibility feature level).
enum class BackendChoice { Auto, Vulkan, GL, GLES, Null };

Result<BackendChoice> parse_backend_choice(std::string_view text);
const char* to_string(BackendChoice choice);

// One adapter request made while selecting, and what came of it.
struct AdapterAttempt {
  BackendType backend = BackendType::Undefined;
  FeatureLevel feature_level = FeatureLevel::Undefined;
  std::string outcome;  // "chosen", or why it was not
};

struct AdapterDescription {
  std::string vendor;
  std::string architecture;
  std::string device;  // the adapter's name
  std::string description;
  BackendType backend = BackendType::Undefined;
  AdapterType adapter_type = AdapterType::Unknown;
  FeatureLevel feature_level = FeatureLevel::Undefined;
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  Limits limits;
  std::vector<FeatureName> features;
};

struct SelectedAdapter {
  Ref<Adapter> adapter;
  AdapterDescription description;
  std::vector<AdapterAttempt> attempts;
};

// Called from ProcessEvents (or WaitAny) on the thread that drives the instance.
struct DeviceCallbacks {
  std::function<void(DeviceLostReason, std::string_view message)> on_lost;
  std::function<void(ErrorType, std::string_view message)> on_uncaptured_error;
};

struct DeviceOptions {
  std::string label = "warden device";
  DeviceCallbacks callbacks;
  // Features the device must have; the request fails when the adapter lacks one.
  std::vector<FeatureName> required_features;
};

// What most programs open first: an adapter, a device on it and the device's queue.
struct OpenedDevice {
  SelectedAdapter adapter;
  Ref<Device> device;
  Ref<Queue> queue;
};

// Sets EGL_PLATFORM=surfaceless when no display is present and the user did not choose a
// platform; returns true when it set it.
bool prepare_gl_environment();

// Counts every blocking wait warden makes (DESIGN invariant 1: none on the frame path).
uint64_t blocking_wait_count();

class Context {
 public:
  static Result<std::unique_ptr<Context>> create(const LibraryOptions& options = {});
  static Result<std::unique_ptr<Context>> create(std::shared_ptr<const Library> library);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  const Procs& procs() const { return library_->procs(); }
  const Library& library() const { return *library_; }
  const std::shared_ptr<const Library>& library_ptr() const { return library_; }
  Instance instance() const { return instance_; }

  // Non-blocking: runs callbacks that are ready.
  void process_events() const;
  // Blocking, counted: tools, tests and teardown only.
  Result<void> wait(Future future, std::chrono::milliseconds timeout) const;

  Result<SelectedAdapter> select_adapter(BackendChoice choice) const;
  Result<Ref<Device>> request_device(Adapter adapter, DeviceOptions options) const;
  // select_adapter, then request_device on it, then its queue; the first error is returned.
  Result<OpenedDevice> open_device(BackendChoice choice, DeviceOptions options = {}) const;

  // Blocks until the queue has finished all submitted work (tests and tools).
  Result<void> wait_queue_idle(Queue queue, std::chrono::milliseconds timeout) const;
  // Copies `size` bytes of a MapRead buffer to the host (blocks; tests and tools).
  Result<std::vector<uint8_t>> read_mapped(Buffer buffer, uint64_t size,
                                           std::chrono::milliseconds timeout) const;

 private:
  Context() = default;
  Result<Ref<Adapter>> request_adapter(BackendType backend, FeatureLevel level,
                                       std::string* why) const;
  std::shared_ptr<const Library> library_;
  Instance instance_ = nullptr;
};

AdapterDescription describe_adapter(const Procs& procs, Adapter adapter, FeatureLevel level);

}  // namespace warden::gpu
