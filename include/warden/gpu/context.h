// The bottom of warden: a loaded library, one instance, adapter selection by backend, device
// requests. Blocking waits here are for start-up, tools, tests and teardown, never a frame.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warden/core/result.h"
#include "warden/gpu/library.h"
#include "warden/gpu/ref.h"

namespace warden::gpu {

/// What the user asks for. Auto: Vulkan when it offers a GPU adapter, else OpenGL, then OpenGL ES
/// (both over EGL at the Compatibility feature level).
enum class BackendChoice { Auto, Vulkan, GL, GLES, Null };

Result<BackendChoice> parse_backend_choice(std::string_view text);
const char* to_string(BackendChoice choice);

/// One adapter request made while selecting, and what came of it.
struct AdapterAttempt {
  BackendType backend = BackendType::Undefined;
  FeatureLevel feature_level = FeatureLevel::Undefined;
  std::string outcome;  ///< "chosen", or why it was not
};

struct AdapterDescription {
  std::string vendor;
  std::string architecture;
  std::string device;  ///< the adapter's name
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

/// Called from ProcessEvents (or WaitAny) on the thread that drives the instance.
struct DeviceCallbacks {
  std::function<void(DeviceLostReason, std::string_view message)> on_lost;
  std::function<void(ErrorType, std::string_view message)> on_uncaptured_error;
};

/// How much of the adapter's limits a device asks for.
enum class LimitsChoice {
  Default,  ///< WebGPU's defaults: what every adapter supports (portable)
  Adapter,  ///< everything the adapter supports (e.g. more texture array layers on a GPU)
};

/// The one description of the device an application wants. Every device request reads it:
/// Context::open_device / request_device (blocking, for tools and start-up) and
/// device::DawnProvider (asynchronous, for the DeviceController and the Engine).
struct DeviceOptions {
  std::string label = "warden device";
  /// Context::request_device only: the provider routes these through its own continuations.
  DeviceCallbacks callbacks;
  /// Features the device must have; the request fails naming each one the adapter lacks.
  std::vector<FeatureName> required_features;
  /// Features asked for when the adapter has them (hot reload's kFeatureImplicitDeviceSynchronization).
  std::vector<FeatureName> optional_features;
  LimitsChoice limits = LimitsChoice::Default;
  /// Which adapter: open_device(options) and the provider read it; open_device(choice, ...)
  /// and request_device(adapter, ...) are told it otherwise.
  BackendChoice backend = BackendChoice::Auto;
};

/// What a device request asks of one adapter for `options`: the required features (an error
/// naming every one the adapter lacks), the optional ones it has, and the limits.
struct DeviceRequest {
  std::vector<FeatureName> features;
  std::optional<Limits> limits;  ///< empty: the defaults
};
Result<DeviceRequest> plan_device_request(const Procs& procs, Adapter adapter, const DeviceOptions& options);

/// The adapters a backend choice tries, in order. gpu_only: skip a CPU adapter (Auto's Vulkan).
struct AdapterCandidate {
  BackendType backend = BackendType::Undefined;
  FeatureLevel feature_level = FeatureLevel::Undefined;
  bool gpu_only = false;
};
std::vector<AdapterCandidate> adapter_plan(BackendChoice choice);

/// What most programs open first: an adapter, a device on it and the device's queue.
struct OpenedDevice {
  SelectedAdapter adapter;
  Ref<Device> device;
  Ref<Queue> queue;
};

/// Sets EGL_PLATFORM=surfaceless when no display is present and the user did not choose a
/// platform; returns true when it set it.
bool prepare_gl_environment();

/// Counts every blocking wait warden makes (DESIGN invariant 1: none on the frame path).
uint64_t blocking_wait_count();
/// Counts a blocking wait made outside Context::wait (a start-up loop that polls and sleeps).
void count_blocking_wait();

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

  /// Non-blocking: runs callbacks that are ready.
  void process_events() const;
  /// Blocking, counted: tools, tests and teardown only.
  Result<void> wait(Future future, std::chrono::milliseconds timeout) const;

  Result<SelectedAdapter> select_adapter(BackendChoice choice) const;
  Result<Ref<Device>> request_device(Adapter adapter, DeviceOptions options) const;
  /// select_adapter, then request_device on it, then its queue; the first error is returned.
  Result<OpenedDevice> open_device(BackendChoice choice, DeviceOptions options = {}) const;
  /// The same, on options.backend.
  Result<OpenedDevice> open_device(DeviceOptions options) const {
    const BackendChoice choice = options.backend;
    return open_device(choice, std::move(options));
  }

  /// Blocks until the queue has finished all submitted work (tests and tools).
  Result<void> wait_queue_idle(Queue queue, std::chrono::milliseconds timeout) const;
  /// Copies `size` bytes of a MapRead buffer to the host (blocks; tests and tools).
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
