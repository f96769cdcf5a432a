#include "warden/gpu/context.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "gpu/error_capture.h"
#include "warden/core/enum_names.h"
#include "warden/gpu/callback.h"
#include "warden/gpu/names.h"

namespace warden::gpu {
namespace {

std::atomic<uint64_t> g_blocking_waits{0};
thread_local uint64_t g_blocking_waits_this_thread = 0;

constexpr std::chrono::milliseconds kStartupTimeout{10000};

std::string copy_view(WGPUStringView v) { return std::string(gpu::to_std(v)); }

// Lives on the heap from request to the device-lost callback, which Dawn calls exactly once
// (on loss, on destruction, or cancelled at instance shutdown) and which owns it; the
// uncaptured-error callback, called any number of times before that, borrows it.
struct DeviceEvents {
  DeviceCallbacks callbacks;

  DeviceEvents(DeviceCallbacks c) : callbacks(std::move(c)) {}
  DeviceEvents(const DeviceEvents&) = delete;
  DeviceEvents& operator=(const DeviceEvents&) = delete;
  ~DeviceEvents() { forget_capturing(this); }

  // An uncaptured error: an ErrorCapture of the device on the calling thread takes it first.
  void operator()(const WGPUDevice* device, WGPUErrorType type, WGPUStringView message) const {
    if (ErrorCapture::offer(device, type, message)) return;
    if (callbacks.on_uncaptured_error) callbacks.on_uncaptured_error(type, gpu::to_std(message));
  }
};

// Where the instance's log goes while an adapter request runs on this thread: Dawn explains a
// missing adapter only there, and the request's own message is "No supported adapters".
thread_local std::vector<std::string>* t_adapter_request_log = nullptr;

constexpr EnumName<WGPULoggingType> kLoggingTypeNames[] = {
    {WGPULoggingType_Verbose, "Verbose"},
    {WGPULoggingType_Info, "Info"},
    {WGPULoggingType_Warning, "Warning"},
    {WGPULoggingType_Error, "Error"},
};
const char* to_string(WGPULoggingType type) { return name_in(kLoggingTypeNames, type, "Log"); }

}  // namespace

std::string summarise_log(const std::vector<std::string>& log) {
  std::string out;
  for (const std::string& message : log) {
    std::string_view first = std::string_view(message).substr(0, message.find('\n'));
    if (first.empty()) continue;
    out += out.empty() ? "" : "; ";
    out += first;
  }
  return out;
}

std::vector<std::string> Context::collect_log(const std::function<void()>& request) const {
  std::vector<std::string> log;
  // Restored afterwards, so that a collection inside another keeps the outer one going.
  std::vector<std::string>* const outer = std::exchange(t_adapter_request_log, &log);
  request();
  t_adapter_request_log = outer;
  return log;
}

void Context::report_log(const std::vector<std::string>& log) const {
  for (const std::string& message : log) log_line(this, WGPULoggingType_Warning, message);
}

uint64_t blocking_wait_count() { return g_blocking_waits.load(std::memory_order_relaxed); }
uint64_t blocking_wait_count_this_thread() { return g_blocking_waits_this_thread; }
void count_blocking_wait() {
  g_blocking_waits.fetch_add(1, std::memory_order_relaxed);
  ++g_blocking_waits_this_thread;
}

Result<BackendChoice> parse_backend_choice(std::string_view text) {
  if (text == "auto") return BackendChoice::Auto;
  if (text == "vulkan") return BackendChoice::Vulkan;
  if (text == "gl" || text == "opengl") return BackendChoice::GL;
  if (text == "gles" || text == "opengles") return BackendChoice::GLES;
  if (text == "null") return BackendChoice::Null;
  return make_error(ErrorKind::InvalidArgument, MessageId::BackendUnknown,
                    fmt::format("unknown backend '{}': expected auto, vulkan, gl, gles or null", text));
}

constexpr EnumName<BackendChoice> kBackendChoiceNames[] = {
    {BackendChoice::Auto, "auto"},
    {BackendChoice::Vulkan, "vulkan"},
    {BackendChoice::GL, "gl"},
    {BackendChoice::GLES, "gles"},
    {BackendChoice::Null, "null"},
};
const char* to_string(BackendChoice choice) { return name_in(kBackendChoiceNames, choice); }

bool prepare_gl_environment() {
  auto set = [](const char* name) {
    const char* v = std::getenv(name);
    return v != nullptr && *v != '\0';
  };
  if (set("EGL_PLATFORM") || set("DISPLAY") || set("WAYLAND_DISPLAY")) return false;
  ::setenv("EGL_PLATFORM", "surfaceless", 0);
  return true;
}

// Outside an adapter request, the message goes to the context's diagnostics, or where Dawn
// would have put it without a callback.
void Context::InstanceLog::operator()(WGPULoggingType type, WGPUStringView message) const {
  if (t_adapter_request_log != nullptr) {
    t_adapter_request_log->push_back(copy_view(message));
    return;
  }
  log_line(context, type, gpu::to_std(message));
}

void Context::log_line(const Context* context, WGPULoggingType type, std::string_view text) {
  if (context != nullptr && context->diagnostics_ != nullptr) {
    const Severity severity = type == WGPULoggingType_Error     ? Severity::Error
                              : type == WGPULoggingType_Warning ? Severity::Warning
                                                             : Severity::Info;
    context->diagnostics_->report(severity, MessageId::DawnLog, std::string(text));
    return;
  }
  std::fprintf(stderr, "%s: %.*s\n", to_string(type), static_cast<int>(text.size()), text.data());
}

Result<std::unique_ptr<Context>> Context::create(const LibraryOptions& options) {
  auto library = Library::load(options);
  if (!library) return library.error();
  return create(std::move(library.value()));
}

Result<std::unique_ptr<Context>> Context::create(std::shared_ptr<const Library> library) {
  std::unique_ptr<Context> ctx(new Context());
  ctx->library_ = std::move(library);
  DawnInstanceDescriptor dawn_options;
  // The Context is on the heap: its instance_log_ stays where it is as long as the instance.
  dawn_options.loggingCallbackInfo = borrowed_callback<WGPULoggingCallbackInfo>(ctx->instance_log_);
  WGPUInstanceDescriptor desc{};
  desc.nextInChain = reinterpret_cast<WGPUChainedStruct*>(&dawn_options);
  // Timed WaitAny is what lets tools and tests wait with a bound instead of spinning.
  desc.capabilities.timedWaitAnyEnable = 1;
  desc.capabilities.timedWaitAnyMaxCount = 1;
  ctx->instance_ = ctx->procs().CreateInstance(&desc);
  if (ctx->instance_ == nullptr) {
    return make_error(ErrorKind::Internal, MessageId::InstanceCreationFailed,
                      fmt::format("wgpuCreateInstance returned null ({})", ctx->library_->path()));
  }
  return ctx;
}

Context::~Context() {
  if (instance_ != nullptr) procs().InstanceRelease(instance_);
}

void Context::process_events() const { procs().InstanceProcessEvents(instance_); }

Result<void> Context::wait(WGPUFuture future, std::chrono::milliseconds timeout) const {
  count_blocking_wait();
  WGPUFutureWaitInfo info{future, 0};
  uint64_t ns = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(timeout).count());
  WGPUWaitStatus status = procs().InstanceWaitAny(instance_, 1, &info, ns);
  if (status == WGPUWaitStatus_Success && info.completed) return {};
  if (status == WGPUWaitStatus_TimedOut) {
    return make_error(ErrorKind::Timeout, MessageId::FutureWaitTimedOut,
                      fmt::format("wait timed out after {} ms", timeout.count()));
  }
  return make_error(ErrorKind::Internal, MessageId::FutureWaitFailed,
                    fmt::format("wgpuInstanceWaitAny failed (status {})", static_cast<uint32_t>(status)));
}

Result<Ref<WGPUAdapter>> Context::request_adapter(WGPUBackendType backend, WGPUFeatureLevel level,
                                              std::string* why) const {
  struct Outcome {
    WGPURequestAdapterStatus status{};
    WGPUAdapter adapter = nullptr;
    std::string message;
  } outcome;
  WGPURequestAdapterOptions options{};
  options.backendType = backend;
  options.featureLevel = level;
  auto on_adapter = [&outcome](WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message) {
    outcome.status = status;
    outcome.adapter = adapter;
    outcome.message = copy_view(message);
  };
  const auto cb = borrowed_callback<WGPURequestAdapterCallbackInfo>(WGPUCallbackMode_WaitAnyOnly, on_adapter);
  Result<void> waited;
  const std::vector<std::string> log = collect_log([&] {
    WGPUFuture f = procs().InstanceRequestAdapter(instance_, &options, cb);
    waited = wait(f, kStartupTimeout);
  });
  if (!waited) {
    *why = waited.error().message;
    return waited.error();
  }
  if (outcome.status != WGPURequestAdapterStatus_Success || outcome.adapter == nullptr) {
    // Dawn's words, both of them: the request's answer and what its log said on the way.
    *why = outcome.message.empty() ? "no adapter returned" : outcome.message;
    if (std::string said = summarise_log(log); !said.empty()) *why += " (" + said + ")";
    return make_error(ErrorKind::NoAdapter, MessageId::AdapterRequestFailed, *why);
  }
  report_log(log);
  return Ref<WGPUAdapter>(&procs(), outcome.adapter);
}

AdapterDescription describe_adapter(const Procs& procs, WGPUAdapter adapter, WGPUFeatureLevel level) {
  AdapterDescription d;
  WGPUAdapterInfo info{};
  if (procs.AdapterGetInfo(adapter, &info) == WGPUStatus_Success) {
    d.vendor = copy_view(info.vendor);
    d.architecture = copy_view(info.architecture);
    d.device = copy_view(info.device);
    d.description = copy_view(info.description);
    d.backend = info.backendType;
    d.adapter_type = info.adapterType;
    d.vendor_id = info.vendorID;
    d.device_id = info.deviceID;
    procs.AdapterInfoFreeMembers(info);
  }
  d.feature_level = level;
  procs.AdapterGetLimits(adapter, &d.limits);
  WGPUSupportedFeatures features{};
  procs.AdapterGetFeatures(adapter, &features);
  d.features.assign(features.features, features.features + features.featureCount);
  procs.SupportedFeaturesFreeMembers(features);
  return d;
}

std::vector<AdapterCandidate> adapter_plan(BackendChoice choice) {
  switch (choice) {
    case BackendChoice::Auto:
      return {{WGPUBackendType_Vulkan, WGPUFeatureLevel_Core, true},
              {WGPUBackendType_OpenGL, WGPUFeatureLevel_Compatibility, false},
              {WGPUBackendType_OpenGLES, WGPUFeatureLevel_Compatibility, false}};
    case BackendChoice::Vulkan: return {{WGPUBackendType_Vulkan, WGPUFeatureLevel_Core, false}};
    case BackendChoice::GL: return {{WGPUBackendType_OpenGL, WGPUFeatureLevel_Compatibility, false}};
    case BackendChoice::GLES: return {{WGPUBackendType_OpenGLES, WGPUFeatureLevel_Compatibility, false}};
    case BackendChoice::Null: return {{WGPUBackendType_Null, WGPUFeatureLevel_Core, false}};
  }
  return {};
}

namespace {

// Every field of WGPULimits is a uint32_t or uint64_t whose "undefined" (the default) is all ones.
WGPULimits undefined_limits() {
  WGPULimits limits;
  std::memset(&limits, 0xFF, sizeof limits);
  limits.nextInChain = nullptr;
  return limits;
}

// Which way a limit is better: a maximum by being larger, an alignment by being smaller.
enum class Bound { Maximum, Minimum };

template <typename T>
struct RequiredLimit {
  const char* name;  // webgpu.h's field name, which the error shows
  std::optional<T> RequiredLimits::*wanted;
  T WGPULimits::*limit;
  Bound bound;
};

// Every field of WGPULimits but nextInChain, in its order (gpu/context_test reads the header's
// field list and checks each one reaches the device).
constexpr RequiredLimit<uint32_t> kRequiredU32[] = {
    {"maxTextureDimension1D", &RequiredLimits::max_texture_dimension_1d,
     &WGPULimits::maxTextureDimension1D, Bound::Maximum},
    {"maxTextureDimension2D", &RequiredLimits::max_texture_dimension_2d,
     &WGPULimits::maxTextureDimension2D, Bound::Maximum},
    {"maxTextureDimension3D", &RequiredLimits::max_texture_dimension_3d,
     &WGPULimits::maxTextureDimension3D, Bound::Maximum},
    {"maxTextureArrayLayers", &RequiredLimits::max_texture_array_layers,
     &WGPULimits::maxTextureArrayLayers, Bound::Maximum},
    {"maxBindGroups", &RequiredLimits::max_bind_groups,
     &WGPULimits::maxBindGroups, Bound::Maximum},
    {"maxBindGroupsPlusVertexBuffers", &RequiredLimits::max_bind_groups_plus_vertex_buffers,
     &WGPULimits::maxBindGroupsPlusVertexBuffers, Bound::Maximum},
    {"maxBindingsPerBindGroup", &RequiredLimits::max_bindings_per_bind_group,
     &WGPULimits::maxBindingsPerBindGroup, Bound::Maximum},
    {"maxDynamicUniformBuffersPerPipelineLayout", &RequiredLimits::max_dynamic_uniform_buffers_per_pipeline_layout,
     &WGPULimits::maxDynamicUniformBuffersPerPipelineLayout, Bound::Maximum},
    {"maxDynamicStorageBuffersPerPipelineLayout", &RequiredLimits::max_dynamic_storage_buffers_per_pipeline_layout,
     &WGPULimits::maxDynamicStorageBuffersPerPipelineLayout, Bound::Maximum},
    {"maxSampledTexturesPerShaderStage", &RequiredLimits::max_sampled_textures_per_shader_stage,
     &WGPULimits::maxSampledTexturesPerShaderStage, Bound::Maximum},
    {"maxSamplersPerShaderStage", &RequiredLimits::max_samplers_per_shader_stage,
     &WGPULimits::maxSamplersPerShaderStage, Bound::Maximum},
    {"maxStorageBuffersPerShaderStage", &RequiredLimits::max_storage_buffers_per_shader_stage,
     &WGPULimits::maxStorageBuffersPerShaderStage, Bound::Maximum},
    {"maxStorageTexturesPerShaderStage", &RequiredLimits::max_storage_textures_per_shader_stage,
     &WGPULimits::maxStorageTexturesPerShaderStage, Bound::Maximum},
    {"maxUniformBuffersPerShaderStage", &RequiredLimits::max_uniform_buffers_per_shader_stage,
     &WGPULimits::maxUniformBuffersPerShaderStage, Bound::Maximum},
    {"minUniformBufferOffsetAlignment", &RequiredLimits::min_uniform_buffer_offset_alignment,
     &WGPULimits::minUniformBufferOffsetAlignment, Bound::Minimum},
    {"minStorageBufferOffsetAlignment", &RequiredLimits::min_storage_buffer_offset_alignment,
     &WGPULimits::minStorageBufferOffsetAlignment, Bound::Minimum},
    {"maxVertexBuffers", &RequiredLimits::max_vertex_buffers,
     &WGPULimits::maxVertexBuffers, Bound::Maximum},
    {"maxVertexAttributes", &RequiredLimits::max_vertex_attributes,
     &WGPULimits::maxVertexAttributes, Bound::Maximum},
    {"maxVertexBufferArrayStride", &RequiredLimits::max_vertex_buffer_array_stride,
     &WGPULimits::maxVertexBufferArrayStride, Bound::Maximum},
    {"maxInterStageShaderVariables", &RequiredLimits::max_inter_stage_shader_variables,
     &WGPULimits::maxInterStageShaderVariables, Bound::Maximum},
    {"maxColorAttachments", &RequiredLimits::max_color_attachments,
     &WGPULimits::maxColorAttachments, Bound::Maximum},
    {"maxColorAttachmentBytesPerSample", &RequiredLimits::max_color_attachment_bytes_per_sample,
     &WGPULimits::maxColorAttachmentBytesPerSample, Bound::Maximum},
    {"maxComputeWorkgroupStorageSize", &RequiredLimits::max_compute_workgroup_storage_size,
     &WGPULimits::maxComputeWorkgroupStorageSize, Bound::Maximum},
    {"maxComputeInvocationsPerWorkgroup", &RequiredLimits::max_compute_invocations_per_workgroup,
     &WGPULimits::maxComputeInvocationsPerWorkgroup, Bound::Maximum},
    {"maxComputeWorkgroupSizeX", &RequiredLimits::max_compute_workgroup_size_x,
     &WGPULimits::maxComputeWorkgroupSizeX, Bound::Maximum},
    {"maxComputeWorkgroupSizeY", &RequiredLimits::max_compute_workgroup_size_y,
     &WGPULimits::maxComputeWorkgroupSizeY, Bound::Maximum},
    {"maxComputeWorkgroupSizeZ", &RequiredLimits::max_compute_workgroup_size_z,
     &WGPULimits::maxComputeWorkgroupSizeZ, Bound::Maximum},
    {"maxComputeWorkgroupsPerDimension", &RequiredLimits::max_compute_workgroups_per_dimension,
     &WGPULimits::maxComputeWorkgroupsPerDimension, Bound::Maximum},
    {"maxImmediateSize", &RequiredLimits::max_immediate_size,
     &WGPULimits::maxImmediateSize, Bound::Maximum},
};
constexpr RequiredLimit<uint64_t> kRequiredU64[] = {
    {"maxUniformBufferBindingSize", &RequiredLimits::max_uniform_buffer_binding_size,
     &WGPULimits::maxUniformBufferBindingSize, Bound::Maximum},
    {"maxStorageBufferBindingSize", &RequiredLimits::max_storage_buffer_binding_size,
     &WGPULimits::maxStorageBufferBindingSize, Bound::Maximum},
    {"maxBufferSize", &RequiredLimits::max_buffer_size,
     &WGPULimits::maxBufferSize, Bound::Maximum},
};

// Raises `request`'s limits to `options.required_limits`; an error names each one beyond the
// adapter's, with both numbers.
Result<DeviceRequest> with_required_limits(const Procs& procs, WGPUAdapter adapter, const DeviceOptions& options,
                                           DeviceRequest request) {
  const RequiredLimits& wanted = options.required_limits;
  const auto named = [&](const auto& l) { return (wanted.*l.wanted).has_value(); };
  const bool any = std::any_of(std::begin(kRequiredU32), std::end(kRequiredU32), named) ||
                   std::any_of(std::begin(kRequiredU64), std::end(kRequiredU64), named);
  if (!any) return request;

  // LimitsChoice::Adapter has read the adapter's limits already and asks for all of them: they
  // are what it supports, and nothing is left to raise.
  const bool from_defaults = !request.limits;
  WGPULimits supported{};
  if (!from_defaults) {
    supported = *request.limits;
  } else if (procs.AdapterGetLimits(adapter, &supported) != WGPUStatus_Success) {
    return make_error(ErrorKind::DeviceFailed, MessageId::DeviceRequestFailed,
                      fmt::format("device \"{}\": the adapter did not report its limits", options.label));
  }
  WGPULimits limits = request.limits.value_or(undefined_limits());
  std::vector<std::string> beyond;
  auto raise = [&](const auto& table) {
    for (const auto& l : table) {
      const auto& value = wanted.*l.wanted;
      if (!value) continue;
      const bool maximum = l.bound == Bound::Maximum;
      if (maximum ? *value > supported.*l.limit : *value < supported.*l.limit) {
        beyond.push_back(fmt::format("{} {} (the adapter supports {} {})", l.name, *value,
                                     maximum ? "at most" : "at least", supported.*l.limit));
      } else if (from_defaults) {
        limits.*l.limit = *value;
      }
    }
  };
  raise(kRequiredU32);
  raise(kRequiredU64);
  if (!beyond.empty()) {
    return make_error(ErrorKind::DeviceFailed, MessageId::DeviceLimitExceeded,
                      fmt::format("device \"{}\": required limit(s) beyond the adapter's: {}", options.label,
                                  fmt::join(beyond, ", ")));
  }
  request.limits = limits;
  return request;
}

}  // namespace

Result<DeviceRequest> plan_device_request(const Procs& procs, WGPUAdapter adapter, const DeviceOptions& options) {
  DeviceRequest request;
  std::vector<std::string> missing;
  for (WGPUFeatureName feature : options.required_features) {
    if (procs.AdapterHasFeature(adapter, feature)) {
      request.features.push_back(feature);
    } else {
      missing.push_back(feature_name(feature));
    }
  }
  if (!missing.empty()) {
    return make_error(ErrorKind::DeviceFailed, MessageId::DeviceFeatureMissing,
                      fmt::format("device \"{}\": the adapter lacks required feature(s) {}", options.label,
                                  fmt::join(missing, ", ")));
  }
  for (WGPUFeatureName feature : options.optional_features) {
    const bool asked = std::find(request.features.begin(), request.features.end(), feature) != request.features.end();
    if (!asked && procs.AdapterHasFeature(adapter, feature)) request.features.push_back(feature);
  }
  if (options.limits == LimitsChoice::Adapter) {
    WGPULimits limits{};
    if (procs.AdapterGetLimits(adapter, &limits) == WGPUStatus_Success) {
      limits.nextInChain = nullptr;
      request.limits = limits;
    }
  }
  return with_required_limits(procs, adapter, options, std::move(request));
}

Result<SelectedAdapter> Context::select_adapter(BackendChoice choice) const {
  const std::vector<AdapterCandidate> plan = adapter_plan(choice);

  SelectedAdapter selected;
  for (const AdapterCandidate& c : plan) {
    if (c.backend == WGPUBackendType_OpenGL || c.backend == WGPUBackendType_OpenGLES) prepare_gl_environment();
    AdapterAttempt attempt{c.backend, c.feature_level, {}};
    std::string why;
    auto adapter = request_adapter(c.backend, c.feature_level, &why);
    if (!adapter) {
      attempt.outcome = why;
      selected.attempts.push_back(attempt);
      continue;
    }
    AdapterDescription desc = describe_adapter(procs(), adapter->get(), c.feature_level);
    if (c.gpu_only && desc.adapter_type == WGPUAdapterType_CPU) {
      attempt.outcome = fmt::format("adapter '{}' is a CPU adapter, not a GPU", desc.device);
      selected.attempts.push_back(attempt);
      continue;
    }
    attempt.outcome = "chosen";
    selected.attempts.push_back(attempt);
    selected.adapter = std::move(adapter.value());
    selected.description = std::move(desc);
    return selected;
  }

  std::string tried;
  for (const auto& a : selected.attempts) {
    tried += fmt::format("\n  {} ({}): {}", to_string(a.backend), to_string(a.feature_level), a.outcome);
  }
  return make_error(ErrorKind::NoAdapter, MessageId::AdapterNoneSuitable,
                    fmt::format("no adapter satisfies backend '{}'. Tried:{}", to_string(choice), tried));
}

Result<Ref<WGPUDevice>> Context::request_device(WGPUAdapter adapter, DeviceOptions options) const {
  struct Outcome {
    WGPURequestDeviceStatus status{};
    WGPUDevice device = nullptr;
    std::string message;
  } outcome;
  auto request = plan_device_request(procs(), adapter, options);
  if (!request) return request.error();
  WGPUDeviceDescriptor desc{};
  WGPUDawnCacheDeviceDescriptor cache{};
  cache.chain.sType = WGPUSType_DawnCacheDeviceDescriptor;
  if (options.cache) {
    cache = options.cache->descriptor();
    desc.nextInChain = reinterpret_cast<WGPUChainedStruct*>(&cache);
  }
  desc.label = gpu::string_view(std::string_view(options.label));
  desc.requiredFeatureCount = request->features.size();
  desc.requiredFeatures = request->features.data();
  if (request->limits) desc.requiredLimits = &*request->limits;
  auto events = std::make_unique<DeviceEvents>(std::move(options.callbacks));
  const DeviceEvents* routes = events.get();  // alive until the lost callback, which owns it
  desc.uncapturedErrorCallbackInfo = borrowed_callback<WGPUUncapturedErrorCallbackInfo>(*events);
  desc.deviceLostCallbackInfo = once_callback<WGPUDeviceLostCallbackInfo>(
      WGPUCallbackMode_AllowProcessEvents,
      [events = std::move(events)](const WGPUDevice*, WGPUDeviceLostReason reason, WGPUStringView message) {
        if (events->callbacks.on_lost) events->callbacks.on_lost(reason, gpu::to_std(message));
      });
  auto on_device = [&outcome](WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message) {
    outcome.status = status;
    outcome.device = device;
    outcome.message = copy_view(message);
  };
  const auto cb = borrowed_callback<WGPURequestDeviceCallbackInfo>(WGPUCallbackMode_WaitAnyOnly, on_device);
  WGPUFuture f = procs().AdapterRequestDevice(adapter, &desc, cb);
  if (auto waited = wait(f, kStartupTimeout); !waited) return waited.error();
  if (outcome.status != WGPURequestDeviceStatus_Success || outcome.device == nullptr) {
    // A failed request still reports its lost callback (FailedCreation), which frees the events.
    process_events();
    return make_error(
        ErrorKind::DeviceFailed, MessageId::DeviceRequestFailed,
        fmt::format("device request failed: {}", outcome.message.empty() ? "no device" : outcome.message));
  }
  mark_capturing(outcome.device, routes);
  return Ref<WGPUDevice>(&procs(), outcome.device);
}

Result<OpenedDevice> Context::open_device(BackendChoice choice, DeviceOptions options) const {
  auto adapter = select_adapter(choice);
  if (!adapter) return adapter.error();
  auto device = request_device(adapter->adapter.get(), std::move(options));
  if (!device) return device.error();
  OpenedDevice opened{std::move(adapter.value()), std::move(device.value()), {}};
  opened.queue = Ref<WGPUQueue>(&procs(), procs().DeviceGetQueue(opened.device.get()));
  return opened;
}

Result<void> Context::wait_queue_idle(WGPUQueue queue, std::chrono::milliseconds timeout) const {
  WGPUQueueWorkDoneStatus status{};
  auto on_done = [&status](WGPUQueueWorkDoneStatus s, WGPUStringView) { status = s; };
  const auto cb = borrowed_callback<WGPUQueueWorkDoneCallbackInfo>(WGPUCallbackMode_WaitAnyOnly, on_done);
  WGPUFuture f = procs().QueueOnSubmittedWorkDone(queue, cb);
  if (auto waited = wait(f, timeout); !waited) return waited;
  if (status != WGPUQueueWorkDoneStatus_Success) {
    return make_error(ErrorKind::DeviceFailed, MessageId::QueueIdleWaitFailed,
                      fmt::format("queue work did not complete (status {})", static_cast<uint32_t>(status)));
  }
  return {};
}

Result<std::vector<uint8_t>> Context::read_mapped(WGPUBuffer buffer, uint64_t size,
                                                  std::chrono::milliseconds timeout) const {
  struct Outcome {
    WGPUMapAsyncStatus status{};
    std::string message;
  } outcome;
  auto on_mapped = [&outcome](WGPUMapAsyncStatus s, WGPUStringView message) {
    outcome.status = s;
    outcome.message = copy_view(message);
  };
  const auto cb = borrowed_callback<WGPUBufferMapCallbackInfo>(WGPUCallbackMode_WaitAnyOnly, on_mapped);
  WGPUFuture f = procs().BufferMapAsync(buffer, WGPUMapMode_Read, 0, size, cb);
  if (auto waited = wait(f, timeout); !waited) return waited.error();
  if (outcome.status != WGPUMapAsyncStatus_Success) {
    return make_error(ErrorKind::Validation, MessageId::ReadMappedMapFailed,
                      fmt::format("buffer map failed: {}", outcome.message));
  }
  const void* data = procs().BufferGetConstMappedRange(buffer, 0, size);
  if (data == nullptr) {
    procs().BufferUnmap(buffer);
    return make_error(ErrorKind::Internal, MessageId::ReadMappedRangeNull, "mapped range is null");
  }
  std::vector<uint8_t> bytes(size);
  std::memcpy(bytes.data(), data, size);
  procs().BufferUnmap(buffer);
  return bytes;
}

}  // namespace warden::gpu
