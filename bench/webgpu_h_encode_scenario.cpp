// Scenario: what warden::webgpu (docs/adr/0059) costs a program written for webgpu.h, against the
// same program calling Dawn itself. Every call through warden's library translates its object
// arguments (a kind check, and for custody kinds the registry's resolve) before Dawn runs; the
// hot path of a renderer is recording, so the number that matters is the CPU time to encode one
// frame of 10,000 draws (SetPipeline + SetBindGroup + SetVertexBuffer + Draw each). Creation
// goes through the registry instead of straight to Dawn, so a create+release churn per object
// kind is measured too.
//
// Both libraries are dlopen'ed into this one process and driven by the same code through a
// table of their entry points, and the two sides take turns in every round, so that they share
// the machine's noise. Nothing is submitted: the measure is encoding, not the GPU.
//
//   Dawn:    $WARDEN_WEBGPU_LIB, else <exe dir>/../dawn/ or <exe dir>/dawn/libwebgpu_wrapper.so
//   warden:  $WARDEN_WEBGPU_H_LIB, else <exe dir>/../libwarden_webgpu.so
//   backend: $WARDEN_BENCH_BACKEND: gl (default), vulkan, null
//
// Prints one JSON object (times are medians):
//   webgpu_h_encode_10k_draws_{dawn,warden}_us   one frame: encoder, pass, 10,000 draws, finish
//   webgpu_h_encode_10k_draws_warden_vs_dawn     warden's time / Dawn's
//   webgpu_h_encode_10k_draws_best_warden_vs_dawn  the same of each side's fastest round
//   webgpu_h_churn_<kind>_{dawn,warden}_ns       one create + release, for buffer, texture,
//   webgpu_h_churn_<kind>_warden_vs_dawn         sampler, bind_group
//   webgpu_h_memory_<kind>_{dawn,warden}_bytes   heap bytes in use per live object (malloc's count,
//                                                Dawn's and warden's together), buffer, texture
//   webgpu_h_bench_errors_{dawn,warden}          uncaptured errors each device reported (want 0)
//   webgpu_h_encode_backend                      the backend asked for
#include <dlfcn.h>
#include <malloc.h>
#include <unistd.h>

#include <webgpu/webgpu.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench_support.h"

namespace {

constexpr const char* kScenario = "webgpu_h_encode_scenario";
constexpr int kDraws = 10'000;
constexpr int kEncodeWarmups = 3;
constexpr int kEncodeRounds = 30;
constexpr int kChurnPairs = 200;
constexpr int kChurnWarmups = 3;
constexpr int kChurnBatches = 15;

// The entry points the scenario calls, each found by its webgpu.h name in either library.
#define BENCH_WGPU_PROCS(X)                                                                          \
  X(CreateInstance) X(InstanceRequestAdapter) X(InstanceProcessEvents) X(InstanceRelease)             \
  X(AdapterRequestDevice) X(AdapterRelease) X(DeviceRelease) X(DeviceCreateBuffer)                    \
  X(DeviceCreateTexture) X(DeviceCreateSampler) X(DeviceCreateBindGroupLayout)                        \
  X(DeviceCreateBindGroup) X(DeviceCreatePipelineLayout) X(DeviceCreateShaderModule)                  \
  X(DeviceCreateRenderPipeline) X(DeviceCreateCommandEncoder) X(TextureCreateView)                    \
  X(CommandEncoderBeginRenderPass) X(CommandEncoderFinish) X(CommandEncoderRelease)                   \
  X(RenderPassEncoderSetPipeline) X(RenderPassEncoderSetBindGroup) X(RenderPassEncoderSetVertexBuffer) \
  X(RenderPassEncoderDraw) X(RenderPassEncoderEnd) X(RenderPassEncoderRelease) X(CommandBufferRelease) \
  X(BufferRelease) X(TextureRelease) X(TextureViewRelease) X(SamplerRelease) X(BindGroupRelease)      \
  X(BindGroupLayoutRelease) X(PipelineLayoutRelease) X(ShaderModuleRelease) X(RenderPipelineRelease)

struct Procs {
#define BENCH_PROC_MEMBER(Name) WGPUProc##Name Name = nullptr;
  BENCH_WGPU_PROCS(BENCH_PROC_MEMBER)
#undef BENCH_PROC_MEMBER
};

std::optional<Procs> load_procs(void* library, std::string& missing) {
  Procs procs;
#define BENCH_PROC_LOAD(Name)                                                            \
  procs.Name = reinterpret_cast<WGPUProc##Name>(::dlsym(library, "wgpu" #Name));         \
  if (procs.Name == nullptr) {                                                           \
    missing = "wgpu" #Name;                                                              \
    return std::nullopt;                                                                 \
  }
  BENCH_WGPU_PROCS(BENCH_PROC_LOAD)
#undef BENCH_PROC_LOAD
  return procs;
}

WGPUStringView text(const char* s) { return WGPUStringView{s, WGPU_STRLEN}; }

std::string executable_dir() {
  char buf[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (n <= 0) return ".";
  buf[n] = '\0';
  return std::filesystem::path(buf).parent_path().string();
}

// The environment's choice, else the first candidate that exists (else the first, for the error).
std::string library_path(const char* env_var, const std::vector<std::string>& candidates) {
  if (const char* named = std::getenv(env_var); named != nullptr && *named != '\0') return named;
  for (const auto& path : candidates) {
    if (std::filesystem::exists(path)) return path;
  }
  return candidates.front();
}

std::optional<WGPUBackendType> requested_backend(std::string& name) {
  const char* env = std::getenv("WARDEN_BENCH_BACKEND");
  name = env != nullptr && *env != '\0' ? env : "gl";
  if (name == "gl") return WGPUBackendType_OpenGL;
  if (name == "vulkan") return WGPUBackendType_Vulkan;
  if (name == "null") return WGPUBackendType_Null;
  return std::nullopt;
}

constexpr const char* kShader =
    "@group(0) @binding(0) var<uniform> tint : vec4f;\n"
    "@vertex fn vs(@location(0) p : vec2f) -> @builtin(position) vec4f { return vec4f(p, 0.0, 1.0); }\n"
    "@fragment fn fs() -> @location(0) vec4f { return tint; }\n";

// One library's device and the objects a frame draws with.
struct Side {
  const char* name;
  Procs api;
  int errors = 0;
  WGPUInstance instance = nullptr;
  WGPUAdapter adapter = nullptr;
  WGPUDevice device = nullptr;
  WGPUTexture target = nullptr;
  WGPUTextureView target_view = nullptr;
  WGPUBuffer uniform = nullptr;
  WGPUBuffer vertices = nullptr;
  WGPUBindGroupLayout group_layout = nullptr;
  WGPUBindGroup group = nullptr;
  WGPURenderPipeline pipeline = nullptr;
};

std::string_view view(WGPUStringView s) {
  if (s.data == nullptr) return {};
  return {s.data, s.length == WGPU_STRLEN ? std::strlen(s.data) : s.length};
}

void report_failure(const char* what, WGPUStringView message) {
  fmt::print(stderr, "{}: no {}: {}\n", kScenario, what, view(message));
}

void count_error(WGPUDevice const*, WGPUErrorType type, WGPUStringView message, void* side, void*) {
  auto* s = static_cast<Side*>(side);
  if (s->errors++ < 3) {
    fmt::print(stderr, "{}: {} device error {}: {}\n", kScenario, s->name, static_cast<int>(type), view(message));
  }
}

// A square 2D RGBA8 texture of one mip level and one sample: the frame's target and the churn's.
WGPUTextureDescriptor rgba8_texture(WGPUTextureUsage usage, uint32_t side) {
  WGPUTextureDescriptor td{};
  td.usage = usage;
  td.dimension = WGPUTextureDimension_2D;
  td.size = {side, side, 1};
  td.format = WGPUTextureFormat_RGBA8Unorm;
  td.mipLevelCount = 1;
  td.sampleCount = 1;
  return td;
}

// Asynchronous requests complete in ProcessEvents; a few turns bound the wait.
template <typename Done>
bool process_until(const Side& s, Done done) {
  for (int i = 0; i < 100 && !done(); ++i) s.api.InstanceProcessEvents(s.instance);
  return done();
}

// Instance, adapter, device and the frame's objects; an empty string on success.
std::string open_side(Side& s, WGPUBackendType backend) {
  const Procs& api = s.api;
  s.instance = api.CreateInstance(nullptr);
  if (s.instance == nullptr) return "no instance";

  WGPURequestAdapterOptions options{};
  options.backendType = backend;
  // Dawn offers its GL adapter only at the compatibility level (warden asks for it itself).
  options.featureLevel = backend == WGPUBackendType_OpenGL ? WGPUFeatureLevel_Compatibility : WGPUFeatureLevel_Core;
  WGPURequestAdapterCallbackInfo adapter_info{};
  adapter_info.mode = WGPUCallbackMode_AllowProcessEvents;
  adapter_info.callback = [](WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message, void* out, void*) {
    if (status != WGPURequestAdapterStatus_Success) report_failure("adapter", message);
    *static_cast<WGPUAdapter*>(out) = adapter;
  };
  adapter_info.userdata1 = &s.adapter;
  api.InstanceRequestAdapter(s.instance, &options, adapter_info);
  if (!process_until(s, [&] { return s.adapter != nullptr; })) return "no adapter";

  WGPUDeviceDescriptor device_desc{};
  device_desc.deviceLostCallbackInfo.mode = WGPUCallbackMode_AllowProcessEvents;
  device_desc.deviceLostCallbackInfo.callback = [](WGPUDevice const*, WGPUDeviceLostReason, WGPUStringView, void*, void*) {};
  device_desc.uncapturedErrorCallbackInfo.callback = count_error;
  device_desc.uncapturedErrorCallbackInfo.userdata1 = &s;
  WGPURequestDeviceCallbackInfo device_info{};
  device_info.mode = WGPUCallbackMode_AllowProcessEvents;
  device_info.callback = [](WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message, void* out, void*) {
    if (status != WGPURequestDeviceStatus_Success) report_failure("device", message);
    *static_cast<WGPUDevice*>(out) = device;
  };
  device_info.userdata1 = &s.device;
  api.AdapterRequestDevice(s.adapter, &device_desc, device_info);
  if (!process_until(s, [&] { return s.device != nullptr; })) return "no device";

  const WGPUTextureDescriptor td = rgba8_texture(WGPUTextureUsage_RenderAttachment, 64);
  s.target = api.DeviceCreateTexture(s.device, &td);
  s.target_view = api.TextureCreateView(s.target, nullptr);

  WGPUBufferDescriptor bd{};
  bd.usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst;
  bd.size = 16;
  s.uniform = api.DeviceCreateBuffer(s.device, &bd);
  bd.usage = WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst;
  bd.size = 3 * 2 * sizeof(float);
  s.vertices = api.DeviceCreateBuffer(s.device, &bd);

  WGPUBindGroupLayoutEntry layout_entry{};
  layout_entry.binding = 0;
  layout_entry.visibility = WGPUShaderStage_Fragment;
  layout_entry.buffer.type = WGPUBufferBindingType_Uniform;
  WGPUBindGroupLayoutDescriptor bgld{};
  bgld.entryCount = 1;
  bgld.entries = &layout_entry;
  s.group_layout = api.DeviceCreateBindGroupLayout(s.device, &bgld);
  WGPUBindGroupEntry entry{};
  entry.binding = 0;
  entry.buffer = s.uniform;
  entry.size = WGPU_WHOLE_SIZE;
  WGPUBindGroupDescriptor bgd{};
  bgd.layout = s.group_layout;
  bgd.entryCount = 1;
  bgd.entries = &entry;
  s.group = api.DeviceCreateBindGroup(s.device, &bgd);

  WGPUPipelineLayoutDescriptor pld{};
  pld.bindGroupLayoutCount = 1;
  pld.bindGroupLayouts = &s.group_layout;
  WGPUPipelineLayout pipeline_layout = api.DeviceCreatePipelineLayout(s.device, &pld);
  WGPUShaderSourceWGSL wgsl{};
  wgsl.chain.sType = WGPUSType_ShaderSourceWGSL;
  wgsl.code = text(kShader);
  WGPUShaderModuleDescriptor smd{};
  smd.nextInChain = &wgsl.chain;
  WGPUShaderModule module = api.DeviceCreateShaderModule(s.device, &smd);

  WGPUVertexAttribute attribute{};
  attribute.format = WGPUVertexFormat_Float32x2;
  attribute.offset = 0;
  attribute.shaderLocation = 0;
  WGPUVertexBufferLayout vertex_layout{};
  vertex_layout.stepMode = WGPUVertexStepMode_Vertex;
  vertex_layout.arrayStride = 2 * sizeof(float);
  vertex_layout.attributeCount = 1;
  vertex_layout.attributes = &attribute;
  WGPUColorTargetState color_target{};
  color_target.format = WGPUTextureFormat_RGBA8Unorm;
  color_target.writeMask = WGPUColorWriteMask_All;
  WGPUFragmentState fragment{};
  fragment.module = module;
  fragment.entryPoint = text("fs");
  fragment.targetCount = 1;
  fragment.targets = &color_target;
  WGPURenderPipelineDescriptor rpd{};
  rpd.layout = pipeline_layout;
  rpd.vertex.module = module;
  rpd.vertex.entryPoint = text("vs");
  rpd.vertex.bufferCount = 1;
  rpd.vertex.buffers = &vertex_layout;
  rpd.primitive.topology = WGPUPrimitiveTopology_TriangleList;
  rpd.multisample.count = 1;
  rpd.multisample.mask = 0xFFFFFFFFu;
  rpd.fragment = &fragment;
  s.pipeline = api.DeviceCreateRenderPipeline(s.device, &rpd);
  api.ShaderModuleRelease(module);
  api.PipelineLayoutRelease(pipeline_layout);
  if (s.target_view == nullptr || s.uniform == nullptr || s.vertices == nullptr || s.group == nullptr ||
      s.pipeline == nullptr) {
    return "the frame's objects were not made";
  }
  return {};
}

void close_side(Side& s) {
  const Procs& api = s.api;
  if (s.pipeline) api.RenderPipelineRelease(s.pipeline);
  if (s.group) api.BindGroupRelease(s.group);
  if (s.group_layout) api.BindGroupLayoutRelease(s.group_layout);
  if (s.vertices) api.BufferRelease(s.vertices);
  if (s.uniform) api.BufferRelease(s.uniform);
  if (s.target_view) api.TextureViewRelease(s.target_view);
  if (s.target) api.TextureRelease(s.target);
  if (s.device) api.DeviceRelease(s.device);
  if (s.instance) api.InstanceProcessEvents(s.instance);
  if (s.adapter) api.AdapterRelease(s.adapter);
  if (s.instance) api.InstanceRelease(s.instance);
}

using Clock = std::chrono::steady_clock;

double elapsed_ns(Clock::time_point start) {
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count();
}

// One frame, encoded and thrown away: the code both libraries run.
double encode_frame_ns(const Side& s) {
  const Procs& api = s.api;
  auto start = Clock::now();
  WGPUCommandEncoder encoder = api.DeviceCreateCommandEncoder(s.device, nullptr);
  WGPURenderPassColorAttachment color{};
  color.view = s.target_view;
  color.depthSlice = WGPU_DEPTH_SLICE_UNDEFINED;
  color.loadOp = WGPULoadOp_Clear;
  color.storeOp = WGPUStoreOp_Store;
  WGPURenderPassDescriptor pass_desc{};
  pass_desc.colorAttachmentCount = 1;
  pass_desc.colorAttachments = &color;
  WGPURenderPassEncoder pass = api.CommandEncoderBeginRenderPass(encoder, &pass_desc);
  for (int i = 0; i < kDraws; ++i) {
    api.RenderPassEncoderSetPipeline(pass, s.pipeline);
    api.RenderPassEncoderSetBindGroup(pass, 0, s.group, 0, nullptr);
    api.RenderPassEncoderSetVertexBuffer(pass, 0, s.vertices, 0, WGPU_WHOLE_SIZE);
    api.RenderPassEncoderDraw(pass, 3, 1, 0, 0);
  }
  api.RenderPassEncoderEnd(pass);
  WGPUCommandBuffer commands = api.CommandEncoderFinish(encoder, nullptr);
  api.RenderPassEncoderRelease(pass);
  api.CommandEncoderRelease(encoder);
  api.CommandBufferRelease(commands);
  double ns = elapsed_ns(start);
  api.InstanceProcessEvents(s.instance);
  return ns;
}

enum class Churn { Buffer, Texture, Sampler, BindGroup };
constexpr std::array<std::pair<Churn, const char*>, 4> kChurnKinds{{
    {Churn::Buffer, "buffer"}, {Churn::Texture, "texture"}, {Churn::Sampler, "sampler"}, {Churn::BindGroup, "bind_group"}}};

// The buffer and texture every churn and memory measure makes: 64 bytes of uniform, 16x16 RGBA8.
struct SmallObjects {
  WGPUBufferDescriptor buffer{};
  WGPUTextureDescriptor texture = rgba8_texture(WGPUTextureUsage_TextureBinding, 16);
  SmallObjects() {
    buffer.usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst;
    buffer.size = 64;
  }
};

// kChurnPairs creations and releases of one kind, per pair. The batch ends with the
// ProcessEvents that lets either library finish what a release deferred, so that work counts.
double churn_pair_ns(const Side& s, Churn kind) {
  const Procs& api = s.api;
  const SmallObjects small;
  const WGPUBufferDescriptor& bd = small.buffer;
  const WGPUTextureDescriptor& td = small.texture;
  WGPUSamplerDescriptor sd{};
  sd.addressModeU = sd.addressModeV = sd.addressModeW = WGPUAddressMode_ClampToEdge;
  sd.magFilter = sd.minFilter = WGPUFilterMode_Linear;
  sd.mipmapFilter = WGPUMipmapFilterMode_Nearest;
  sd.lodMaxClamp = 32.0f;
  sd.maxAnisotropy = 1;
  WGPUBindGroupEntry entry{};
  entry.binding = 0;
  entry.buffer = s.uniform;
  entry.size = WGPU_WHOLE_SIZE;
  WGPUBindGroupDescriptor gd{};
  gd.layout = s.group_layout;
  gd.entryCount = 1;
  gd.entries = &entry;

  auto start = Clock::now();
  for (int i = 0; i < kChurnPairs; ++i) {
    switch (kind) {
      case Churn::Buffer: api.BufferRelease(api.DeviceCreateBuffer(s.device, &bd)); break;
      case Churn::Texture: api.TextureRelease(api.DeviceCreateTexture(s.device, &td)); break;
      case Churn::Sampler: api.SamplerRelease(api.DeviceCreateSampler(s.device, &sd)); break;
      case Churn::BindGroup: api.BindGroupRelease(api.DeviceCreateBindGroup(s.device, &gd)); break;
    }
  }
  api.InstanceProcessEvents(s.instance);
  return elapsed_ns(start) / kChurnPairs;
}

// Heap bytes in use per object while kMemoryObjects of `kind` are alive: what the process
// allocated with malloc for them (Dawn's, and on warden's side warden's too), GPU memory aside.
constexpr int kMemoryObjects = 1000;
double memory_per_object(const Side& s, Churn kind) {
  const Procs& api = s.api;
  const SmallObjects small;
  const WGPUBufferDescriptor& bd = small.buffer;
  const WGPUTextureDescriptor& td = small.texture;
  api.InstanceProcessEvents(s.instance);
  const size_t before = ::mallinfo2().uordblks;
  std::vector<void*> objects;
  for (int i = 0; i < kMemoryObjects; ++i) {
    objects.push_back(kind == Churn::Buffer ? static_cast<void*>(api.DeviceCreateBuffer(s.device, &bd))
                                            : static_cast<void*>(api.DeviceCreateTexture(s.device, &td)));
  }
  const size_t after = ::mallinfo2().uordblks;
  for (void* object : objects) {
    if (kind == Churn::Buffer) {
      api.BufferRelease(static_cast<WGPUBuffer>(object));
    } else {
      api.TextureRelease(static_cast<WGPUTexture>(object));
    }
  }
  api.InstanceProcessEvents(s.instance);
  return after > before ? static_cast<double>(after - before) / kMemoryObjects : 0.0;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// Runs `measure` on both sides, warm-ups first, in rounds whose first side alternates; every
// sample per side, in the order taken.
template <typename Measure>
std::array<std::vector<double>, 2> samples_of(std::array<Side*, 2> sides, int warmups, int rounds, Measure measure) {
  std::array<std::vector<double>, 2> samples;
  for (int round = 0; round < warmups + rounds; ++round) {
    for (int turn = 0; turn < 2; ++turn) {
      const int side = (round + turn) % 2;
      double value = measure(*sides[side]);
      if (round >= warmups) samples[side].push_back(value);
    }
  }
  return samples;
}

// The median per side of samples_of.
template <typename Measure>
std::array<double, 2> alternate(std::array<Side*, 2> sides, int warmups, int rounds, Measure measure) {
  auto samples = samples_of(sides, warmups, rounds, measure);
  return {median(samples[0]), median(samples[1])};
}

}  // namespace

int main() {
  using warden::bench::kSkipped;
  std::string backend_name;
  auto backend = requested_backend(backend_name);
  if (!backend) {
    fmt::print(stderr, "{}: WARDEN_BENCH_BACKEND: '{}' is not gl, vulkan or null\n", kScenario, backend_name);
    return 1;
  }
  // Dawn's GL backend needs a platform for headless EGL; warden's side sets this itself.
  if (*backend == WGPUBackendType_OpenGL && std::getenv("DISPLAY") == nullptr &&
      std::getenv("WAYLAND_DISPLAY") == nullptr) {
    ::setenv("EGL_PLATFORM", "surfaceless", 0);
  }

  const std::string exe_dir = executable_dir();
  const std::string dawn_path = library_path(
      "WARDEN_WEBGPU_LIB", {exe_dir + "/../dawn/libwebgpu_wrapper.so", exe_dir + "/dawn/libwebgpu_wrapper.so"});
  const std::string warden_path = library_path("WARDEN_WEBGPU_H_LIB", {exe_dir + "/../libwarden_webgpu.so"});
  // warden's library loads Dawn too: the same file, so both sides run the same Dawn.
  ::setenv("WARDEN_WEBGPU_LIB", dawn_path.c_str(), 0);

  std::array<Side, 2> sides{Side{"dawn", {}}, Side{"warden", {}}};
  for (auto [side, path] : {std::pair{&sides[0], &dawn_path}, std::pair{&sides[1], &warden_path}}) {
    void* library = ::dlopen(path->c_str(), RTLD_LOCAL | RTLD_NOW);
    if (library == nullptr) {
      fmt::print(stderr, "{}: skipped, cannot run here: {}\n", kScenario, ::dlerror());
      return kSkipped;
    }
    std::string missing;
    auto procs = load_procs(library, missing);
    if (!procs) {
      fmt::print(stderr, "{}: {} exports no {}\n", kScenario, *path, missing);
      return 1;
    }
    side->api = *procs;
  }
  for (Side& side : sides) {
    if (auto failure = open_side(side, *backend); !failure.empty()) {
      const bool skip = side.device == nullptr;  // no adapter or device for this backend here
      fmt::print(stderr, "{}: {}{} ({}, {})\n", kScenario, skip ? "skipped, cannot run here: " : "", failure,
                 side.name, backend_name);
      return skip ? kSkipped : 1;
    }
  }

  std::array<Side*, 2> both{&sides[0], &sides[1]};
  nlohmann::json out;
  auto encoded = samples_of(both, kEncodeWarmups, kEncodeRounds, encode_frame_ns);
  const std::array<double, 2> encode{median(encoded[0]), median(encoded[1])};
  out["webgpu_h_encode_10k_draws_dawn_us"] = encode[0] / 1000;
  out["webgpu_h_encode_10k_draws_warden_us"] = encode[1] / 1000;
  out["webgpu_h_encode_10k_draws_warden_vs_dawn"] = encode[1] / encode[0];
  // The fastest round of each side too: on a machine shared with other work the median moves
  // with it, the best of 30 much less (what the library itself costs, noise aside).
  const double best_dawn = *std::min_element(encoded[0].begin(), encoded[0].end());
  const double best_warden = *std::min_element(encoded[1].begin(), encoded[1].end());
  out["webgpu_h_encode_10k_draws_best_warden_vs_dawn"] = best_warden / best_dawn;
  for (auto [kind, name] : kChurnKinds) {
    auto churn = alternate(both, kChurnWarmups, kChurnBatches, [kind](const Side& s) { return churn_pair_ns(s, kind); });
    out[fmt::format("webgpu_h_churn_{}_dawn_ns", name)] = churn[0];
    out[fmt::format("webgpu_h_churn_{}_warden_ns", name)] = churn[1];
    out[fmt::format("webgpu_h_churn_{}_warden_vs_dawn", name)] = churn[1] / churn[0];
  }
  for (auto [kind, name] : {std::pair{Churn::Buffer, "buffer"}, std::pair{Churn::Texture, "texture"}}) {
    auto bytes = alternate(both, 1, 3, [kind](const Side& s) { return memory_per_object(s, kind); });
    out[fmt::format("webgpu_h_memory_{}_dawn_bytes", name)] = bytes[0];
    out[fmt::format("webgpu_h_memory_{}_warden_bytes", name)] = bytes[1];
  }
  for (Side& side : sides) side.api.InstanceProcessEvents(side.instance);
  out["webgpu_h_bench_errors_dawn"] = sides[0].errors;
  out["webgpu_h_bench_errors_warden"] = sides[1].errors;
  out["webgpu_h_encode_backend"] = backend_name;

  // Teardown outside the measures; the libraries stay loaded until exit (Dawn's threads may still
  // run code of theirs).
  for (Side& side : sides) close_side(side);
  fmt::print(stderr, "{}: dawn {}, warden {}\n", kScenario, dawn_path, warden_path);
  fmt::print("{}\n", out.dump());
  return 0;
}
