/// @file
/// The bottom of warden: a loaded library, one instance, adapter selection by backend, device
/// requests. Blocking waits here are for start-up, tools, tests and teardown, never a frame.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warden/core/diagnostics.h"
#include "warden/core/result.h"
#include "warden/gpu/blob_cache.h"
#include "warden/gpu/library.h"
#include "warden/gpu/ref.h"

namespace warden::gpu {

/// What the user asks for. Auto: Vulkan when it offers a GPU adapter, else OpenGL, then OpenGL ES
/// (both over EGL at the Compatibility feature level).
/// Vulkan, GL and GLES ask for that backend only; Null is Dawn's validation-only backend (no
/// rendering; tests).
enum class BackendChoice { Auto, Vulkan, GL, GLES, Null };

/// The choice a command line names: "auto", "vulkan", "gl" or "opengl", "gles" or "opengles",
/// "null"; anything else is an InvalidArgument error listing those.
Result<BackendChoice> parse_backend_choice(std::string_view text);
/// The choice's name as parse_backend_choice reads it ("auto", "vulkan", "gl", "gles", "null").
const char* to_string(BackendChoice choice);

/// One adapter request made while selecting, and what came of it.
struct AdapterAttempt {
  /// The backend asked for.
  WGPUBackendType backend = WGPUBackendType_Undefined;
  /// The feature level asked for (Core, or Compatibility over GL).
  WGPUFeatureLevel feature_level = WGPUFeatureLevel_Undefined;
  std::string outcome{};  ///< "chosen", or why it was not
};

/// What an adapter says of itself (webgpu.h's WGPUAdapterInfo), with the feature level it was asked
/// for, its limits and features.
struct AdapterDescription {
  /// The vendor's name, as the driver gives it.
  std::string vendor{};
  /// The GPU architecture, as the driver gives it (may be empty).
  std::string architecture{};
  std::string device{};  ///< the adapter's name
  /// The driver's free-form description (may be empty).
  std::string description{};
  /// The backend the adapter runs on.
  WGPUBackendType backend = WGPUBackendType_Undefined;
  /// Discrete, integrated, CPU or unknown.
  WGPUAdapterType adapter_type = WGPUAdapterType_Unknown;
  /// The feature level it was requested at.
  WGPUFeatureLevel feature_level = WGPUFeatureLevel_Undefined;
  /// The PCI vendor id; 0 when the driver has none.
  uint32_t vendor_id = 0;
  /// The PCI device id; 0 when the driver has none.
  uint32_t device_id = 0;
  /// The adapter's limits: the most a device on it may ask for.
  WGPULimits limits{};
  /// The features the adapter supports.
  std::vector<WGPUFeatureName> features{};
};

/// The adapter Context::select_adapter chose, what it is, and every request made on the way.
struct SelectedAdapter {
  /// The adapter; this reference is the caller's.
  Ref<WGPUAdapter> adapter{};
  /// What it says of itself.
  AdapterDescription description{};
  /// Every adapter request made, in order, the chosen one last.
  std::vector<AdapterAttempt> attempts{};
};

/// Called from ProcessEvents (or WaitAny) on the thread that drives the instance.
struct DeviceCallbacks {
  /// The device was lost (or destroyed): the API's reason and message. May be empty.
  std::function<void(WGPUDeviceLostReason, std::string_view message)> on_lost{};
  /// An error no error scope caught. May be empty.
  std::function<void(WGPUErrorType, std::string_view message)> on_uncaptured_error{};
};

/// How much of the adapter's limits a device asks for.
enum class LimitsChoice {
  Default,  ///< WebGPU's defaults: what every adapter supports (portable)
  Adapter,  ///< everything the adapter supports (e.g. more texture array layers on a GPU)
};

/// Limits a device must have beyond WebGPU's defaults: every field of webgpu.h's WGPULimits,
/// each named as the field it sets; empty: as `DeviceOptions::limits` chooses. A request names
/// the ones it needs and fails when the adapter supports less, instead of taking everything the
/// adapter has (LimitsChoice::Adapter). The max* limits are raised by asking for more, the two
/// min*Alignment limits by asking for less.
struct RequiredLimits {
  /// maxTextureDimension1D: the widest 1D texture, in texels.
  std::optional<uint32_t> max_texture_dimension_1d{};
  /// maxTextureDimension2D: the widest and tallest 2D texture, in texels.
  std::optional<uint32_t> max_texture_dimension_2d{};
  /// maxTextureDimension3D: the largest side of a 3D texture, in texels.
  std::optional<uint32_t> max_texture_dimension_3d{};
  /// maxTextureArrayLayers: array layers of one texture (tile arrays take one per tile).
  std::optional<uint32_t> max_texture_array_layers{};
  /// maxBindGroups: bind groups one pipeline layout may hold.
  std::optional<uint32_t> max_bind_groups{};
  /// maxBindGroupsPlusVertexBuffers: bind groups and vertex buffers of one pipeline together.
  std::optional<uint32_t> max_bind_groups_plus_vertex_buffers{};
  /// maxBindingsPerBindGroup: the largest binding number of a bind group layout, plus one.
  std::optional<uint32_t> max_bindings_per_bind_group{};
  /// maxDynamicUniformBuffersPerPipelineLayout: uniform buffers with dynamic offsets in one
  /// pipeline layout.
  std::optional<uint32_t> max_dynamic_uniform_buffers_per_pipeline_layout{};
  /// maxDynamicStorageBuffersPerPipelineLayout: storage buffers with dynamic offsets in one
  /// pipeline layout.
  std::optional<uint32_t> max_dynamic_storage_buffers_per_pipeline_layout{};
  /// maxSampledTexturesPerShaderStage: sampled textures one stage may see.
  std::optional<uint32_t> max_sampled_textures_per_shader_stage{};
  /// maxSamplersPerShaderStage: samplers one stage may see.
  std::optional<uint32_t> max_samplers_per_shader_stage{};
  /// maxStorageBuffersPerShaderStage: storage buffers one stage may see.
  std::optional<uint32_t> max_storage_buffers_per_shader_stage{};
  /// maxStorageTexturesPerShaderStage: storage textures one stage may see.
  std::optional<uint32_t> max_storage_textures_per_shader_stage{};
  /// maxUniformBuffersPerShaderStage: uniform buffers one stage may see.
  std::optional<uint32_t> max_uniform_buffers_per_shader_stage{};
  /// maxUniformBufferBindingSize: bytes of one uniform buffer binding.
  std::optional<uint64_t> max_uniform_buffer_binding_size{};
  /// maxStorageBufferBindingSize: bytes of one storage buffer binding.
  std::optional<uint64_t> max_storage_buffer_binding_size{};
  /// minUniformBufferOffsetAlignment: the alignment of uniform buffer binding offsets, in
  /// bytes, a power of two. A minimum: asking for less than the default (256) is the raise.
  std::optional<uint32_t> min_uniform_buffer_offset_alignment{};
  /// minStorageBufferOffsetAlignment: the alignment of storage buffer binding offsets, in
  /// bytes, a power of two. A minimum, like minUniformBufferOffsetAlignment.
  std::optional<uint32_t> min_storage_buffer_offset_alignment{};
  /// maxVertexBuffers: vertex buffers one pipeline may read.
  std::optional<uint32_t> max_vertex_buffers{};
  /// maxBufferSize: bytes of one buffer.
  std::optional<uint64_t> max_buffer_size{};
  /// maxVertexAttributes: vertex attributes of one pipeline, over all its buffers.
  std::optional<uint32_t> max_vertex_attributes{};
  /// maxVertexBufferArrayStride: the stride of one vertex buffer, in bytes.
  std::optional<uint32_t> max_vertex_buffer_array_stride{};
  /// maxInterStageShaderVariables: variables passed from the vertex to the fragment stage.
  std::optional<uint32_t> max_inter_stage_shader_variables{};
  /// maxColorAttachments: colour attachments of one render pass or pipeline.
  std::optional<uint32_t> max_color_attachments{};
  /// maxColorAttachmentBytesPerSample: bytes of all colour attachments of one sample together.
  std::optional<uint32_t> max_color_attachment_bytes_per_sample{};
  /// maxComputeWorkgroupStorageSize: bytes of workgroup memory of one compute shader.
  std::optional<uint32_t> max_compute_workgroup_storage_size{};
  /// maxComputeInvocationsPerWorkgroup: invocations of one workgroup.
  std::optional<uint32_t> max_compute_invocations_per_workgroup{};
  /// maxComputeWorkgroupSizeX: a workgroup's size in x.
  std::optional<uint32_t> max_compute_workgroup_size_x{};
  /// maxComputeWorkgroupSizeY: a workgroup's size in y.
  std::optional<uint32_t> max_compute_workgroup_size_y{};
  /// maxComputeWorkgroupSizeZ: a workgroup's size in z.
  std::optional<uint32_t> max_compute_workgroup_size_z{};
  /// maxComputeWorkgroupsPerDimension: workgroups of one dispatch in each dimension.
  std::optional<uint32_t> max_compute_workgroups_per_dimension{};
  /// maxImmediateSize: bytes of immediate data one pipeline may take.
  std::optional<uint32_t> max_immediate_size{};
};

/// The one description of the device an application wants. Every device request reads it:
/// Context::open_device / request_device (blocking, for tools and start-up) and
/// device::DawnProvider (asynchronous, for the DeviceController and the Engine).
struct DeviceOptions {
  /// The device's label, shown in messages and the GPU debugger.
  std::string label = "warden device";
  /// Context::request_device only: the provider routes these through its own continuations.
  DeviceCallbacks callbacks{};
  /// Features the device must have; the request fails naming each one the adapter lacks.
  std::vector<WGPUFeatureName> required_features{};
  /// Features asked for when the adapter has them (hot reload's WGPUFeatureName_ImplicitDeviceSynchronization).
  std::vector<WGPUFeatureName> optional_features{};
  /// How much of the adapter's limits the device asks for.
  LimitsChoice limits = LimitsChoice::Default;
  /// Limits raised on top of `limits`' choice; one beyond the adapter's (a maximum above it, an
  /// alignment below it) fails the request (gpu.DeviceLimitExceeded) naming the limit, the value
  /// asked for and the adapter's.
  RequiredLimits required_limits{};
  /// Which adapter: open_device(options) and the provider read it; open_device(choice, ...)
  /// and request_device(adapter, ...) are told it otherwise.
  BackendChoice backend = BackendChoice::Auto;
  /// Where the device keeps what it compiles, shared by every device asked for with these
  /// options: the next device after a loss loads its translated shaders and pipeline data from
  /// it instead of compiling again. Empty: no cache.
  std::shared_ptr<BlobCache> cache{};
};

/// What a device request asks of one adapter for `options`: the required features (an error
/// naming every one the adapter lacks), the optional ones it has, and the limits (an error
/// naming every required limit beyond the adapter's).
struct DeviceRequest {
  /// The features to request: every required one and the optional ones the adapter has.
  std::vector<WGPUFeatureName> features{};
  std::optional<WGPULimits> limits{};  ///< empty: the defaults
};
/// Reads `adapter`'s features and limits and plans the request `options` describe; a DeviceFailed
/// error names every required feature the adapter lacks.
Result<DeviceRequest> plan_device_request(const Procs& procs, WGPUAdapter adapter, const DeviceOptions& options);

/// The adapters a backend choice tries, in order. gpu_only: skip a CPU adapter (Auto's Vulkan).
struct AdapterCandidate {
  /// The backend to ask for.
  WGPUBackendType backend = WGPUBackendType_Undefined;
  /// The feature level to ask for.
  WGPUFeatureLevel feature_level = WGPUFeatureLevel_Undefined;
  /// Skip the adapter when it is a CPU one (Auto's Vulkan, so a software Vulkan does not win over
  /// GL).
  bool gpu_only = false;
};
/// The candidates `choice` tries, in order: Auto is Vulkan (GPU only), then OpenGL, then OpenGL ES
/// at Compatibility.
std::vector<AdapterCandidate> adapter_plan(BackendChoice choice);

/// What most programs open first: an adapter, a device on it and the device's queue.
struct OpenedDevice {
  /// The adapter and what it says of itself.
  SelectedAdapter adapter{};
  /// The device; this reference is the caller's.
  Ref<WGPUDevice> device{};
  /// The device's queue.
  Ref<WGPUQueue> queue{};
};

/// Sets EGL_PLATFORM=surfaceless when no display is present and the user did not choose a
/// platform; returns true when it set it.
bool prepare_gl_environment();

/// Counts every blocking wait warden makes (docs/design.md, invariant 1: none on the frame path).
uint64_t blocking_wait_count();
/// The same, of the calling thread only: a frame loop's own waits, not a worker's (hot reload
/// compiles on a worker thread, which may wait).
uint64_t blocking_wait_count_this_thread();
/// Counts a blocking wait made outside Context::wait (a start-up loop that polls and sleeps).
void count_blocking_wait();

/// The loaded WebGPU library and one instance of it: selects adapters and opens devices. Blocking
/// calls are counted (blocking_wait_count) and meant for tools, tests and start-up; events run on
/// the thread that calls process_events or wait.
class Context {
 public:
  /// Loads the library `options` name and makes an instance; an error names the library that could
  /// not be loaded or the symbol it lacks. The second form shares a library already loaded.
  ///@{
  static Result<std::unique_ptr<Context>> create(const LibraryOptions& options = {});
  static Result<std::unique_ptr<Context>> create(std::shared_ptr<const Library> library);
  ///@}
  /// Releases the instance; the library stays loaded while a library_ptr() holder lives.
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  /// The library's proc table, for calling webgpu.h.
  const Procs& procs() const { return library_->procs(); }
  /// The loaded library.
  const Library& library() const { return *library_; }
  /// The loaded library, shared: a holder keeps it loaded after the context is gone.
  const std::shared_ptr<const Library>& library_ptr() const { return library_; }
  /// The instance; the context keeps its reference.
  WGPUInstance instance() const { return instance_; }

  /// Non-blocking: runs callbacks that are ready.
  void process_events() const;
  /// Blocking, counted: tools, tests and teardown only.
  Result<void> wait(WGPUFuture future, std::chrono::milliseconds timeout) const;

  /// Tries the adapters adapter_plan(choice) lists, in order, and returns the first that answers;
  /// NoAdapter names every attempt and why it failed. Blocking, counted.
  Result<SelectedAdapter> select_adapter(BackendChoice choice) const;
  /// Asks `adapter` for a device as `options` describe (plan_device_request); `options.callbacks`
  /// receive its loss and uncaught errors. Blocking, counted; an error carries the API's message.
  Result<Ref<WGPUDevice>> request_device(WGPUAdapter adapter, DeviceOptions options) const;
  /// select_adapter, then request_device on it, then its queue; the first error is returned.
  Result<OpenedDevice> open_device(BackendChoice choice, DeviceOptions options = {}) const;
  /// The same, on options.backend.
  Result<OpenedDevice> open_device(DeviceOptions options) const {
    const BackendChoice choice = options.backend;
    return open_device(choice, std::move(options));
  }

  /// Blocks until the queue has finished all submitted work (tests and tools).
  Result<void> wait_queue_idle(WGPUQueue queue, std::chrono::milliseconds timeout) const;
  /// Copies `size` bytes of a MapRead buffer to the host (blocks; tests and tools).
  Result<std::vector<uint8_t>> read_mapped(WGPUBuffer buffer, uint64_t size,
                                           std::chrono::milliseconds timeout) const;

  /// Where the instance's log goes (gfx.gpu, gpu.DawnLog: Dawn's warnings, such as a backend
  /// that could not be loaded); null, the default: standard error, as Dawn would print it.
  /// `diagnostics` must outlive the context, or be unset first.
  void set_diagnostics(Diagnostics* diagnostics) { diagnostics_ = diagnostics; }

  /// Calls `request` and returns what the instance logged on this thread meanwhile, one message
  /// a string, instead of reporting it: Dawn says why it found no adapter only in its log
  /// ("Couldn't create the default EGL display."), while the request's answer says "No
  /// supported adapters". For an adapter request (blocking or not: Dawn looks for adapters
  /// inside the call).
  std::vector<std::string> collect_log(const std::function<void()>& request) const;
  /// Reports `log` (collect_log's) where the instance's log goes otherwise, as warnings: what
  /// was said on the way to an adapter that was found.
  void report_log(const std::vector<std::string>& log) const;

 private:
  Context() = default;
  Result<Ref<WGPUAdapter>> request_adapter(WGPUBackendType backend, WGPUFeatureLevel level,
                                       std::string* why) const;
  std::shared_ptr<const Library> library_;
  WGPUInstance instance_ = nullptr;
  Diagnostics* diagnostics_ = nullptr;
  // The instance's logging callback, and where a line goes (see set_diagnostics); `context` may
  // be null.
  struct InstanceLog {
    const Context* context;
    void operator()(WGPULoggingType type, WGPUStringView message) const;
  };
  InstanceLog instance_log_{this};
  static void log_line(const Context* context, WGPULoggingType type, std::string_view text);
};

/// The first line of each message of `log` (collect_log's; the rest is Dawn's call-site trail),
/// joined with "; ": empty when nothing was said.
std::string summarise_log(const std::vector<std::string>& log);

/// What `adapter` says of itself, with its limits and features; `level` is recorded as the feature
/// level it was requested at.
AdapterDescription describe_adapter(const Procs& procs, WGPUAdapter adapter, WGPUFeatureLevel level);

}  // namespace warden::gpu
