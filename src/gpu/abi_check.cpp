#include "warden/gpu/abi_check.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <new>
#include <thread>

#include <fmt/format.h>

#include "warden/gpu/messages.h"

namespace warden::gpu {
namespace {

using Clock = std::chrono::steady_clock;

constexpr unsigned char kSentinel = 0xA5;
// Room past the declared size for a library whose struct is larger. The largest difference seen
// between published builds of warden's Dawn package is 16 bytes (docs/adr/0033).
constexpr size_t kSlack = 256;
// Null adapters and devices arrive within the request or the first ProcessEvents; the bound
// only keeps a library that never answers from hanging every process that loads it.
constexpr auto kAnswerTimeout = std::chrono::seconds(5);

// An out-struct handed to the library at the start of a buffer of sentinel bytes, so that what
// the library writes past the struct's end lands in the buffer and is seen, not in warden's
// memory. The struct's own bytes are sentinels too (all but the chain pointer the library
// reads), so a library that writes less than the struct is seen as well.
template <typename T>
class SentinelBox {
 public:
  explicit SentinelBox(bool chained) {
    value_ = ::new (bytes_) T{};
    const size_t keep = chained ? sizeof(void*) : 0;  // nextInChain: null, read by the library
    std::memset(bytes_ + keep, kSentinel, sizeof(bytes_) - keep);
  }
  T* get() { return value_; }
  size_t written() const {
    size_t end = 0;
    for (size_t i = 0; i < sizeof(bytes_); ++i) {
      if (bytes_[i] != kSentinel) end = i + 1;
    }
    return end;
  }

 private:
  alignas(std::max_align_t) unsigned char bytes_[sizeof(T) + kSlack];
  T* value_ = nullptr;
};

template <typename T>
bool record(AbiCheckReport& report, const char* call, const char* type, const SentinelBox<T>& box) {
  report.structs.push_back({call, type, sizeof(T), box.written()});
  return report.structs.back().matches();
}

void record(AbiCheckReport& report, std::string what, uint64_t declared, uint64_t returned) {
  report.enums.push_back({std::move(what), declared, returned});
}

// Runs the library's events until `done` or the bound; the callbacks are AllowSpontaneous, so
// most answers have come before the first call.
bool pump(const Procs& p, WGPUInstance instance, const std::atomic<bool>& done) {
  const auto deadline = Clock::now() + kAnswerTimeout;
  for (int spins = 0; !done.load() && Clock::now() < deadline; ++spins) {
    p.InstanceProcessEvents(instance);
    if (!done.load() && spins > 16) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return done.load();
}

// The enum values the check sends to the library and reads back, with webgpu.h's names for the
// words. The one place in the check that names the header's values.
struct FormatProbe {
  WGPUTextureFormat format;
  const char* name;
};
constexpr FormatProbe kFormatProbes[] = {
    {WGPUTextureFormat_R8Unorm, "WGPUTextureFormat_R8Unorm"},
    {WGPUTextureFormat_R32Float, "WGPUTextureFormat_R32Float"},
    {WGPUTextureFormat_R32Uint, "WGPUTextureFormat_R32Uint"},
    {WGPUTextureFormat_RGBA8Unorm, "WGPUTextureFormat_RGBA8Unorm"},
    {WGPUTextureFormat_RGBA8UnormSrgb, "WGPUTextureFormat_RGBA8UnormSrgb"},
    {WGPUTextureFormat_RGBA8Sint, "WGPUTextureFormat_RGBA8Sint"},
    {WGPUTextureFormat_BGRA8Unorm, "WGPUTextureFormat_BGRA8Unorm"},
    {WGPUTextureFormat_RGBA16Float, "WGPUTextureFormat_RGBA16Float"},
    {WGPUTextureFormat_RGBA32Float, "WGPUTextureFormat_RGBA32Float"},
    {WGPUTextureFormat_Depth24Plus, "WGPUTextureFormat_Depth24Plus"},
    {WGPUTextureFormat_Depth32Float, "WGPUTextureFormat_Depth32Float"},
};

// The adapter half: its WGPULimits, WGPUAdapterInfo and WGPUSupportedFeatures, and the values WGPUAdapterInfo
// must carry for a Null adapter. False when a struct differs.
bool probe_adapter(const Procs& p, WGPUAdapter adapter, AbiCheckReport& report) {
  SentinelBox<WGPULimits> limits(true);
  p.AdapterGetLimits(adapter, limits.get());
  bool same = record(report, "wgpuAdapterGetLimits", "WGPULimits", limits);

  SentinelBox<WGPUAdapterInfo> info(true);
  const WGPUStatus info_status = p.AdapterGetInfo(adapter, info.get());
  if (record(report, "wgpuAdapterGetInfo", "WGPUAdapterInfo", info) && info_status == WGPUStatus_Success) {
    record(report, "WGPUBackendType_Null through wgpuAdapterGetInfo", static_cast<uint32_t>(WGPUBackendType_Null),
           static_cast<uint32_t>(info.get()->backendType));
    record(report, "WGPUAdapterType_CPU (a Null adapter) through wgpuAdapterGetInfo",
           static_cast<uint32_t>(WGPUAdapterType_CPU), static_cast<uint32_t>(info.get()->adapterType));
    p.AdapterInfoFreeMembers(*info.get());
  } else {
    same = false;  // never handed back to AdapterInfoFreeMembers: its layout is not ours
  }

  SentinelBox<WGPUSupportedFeatures> features(false);
  p.AdapterGetFeatures(adapter, features.get());
  if (record(report, "wgpuAdapterGetFeatures", "WGPUSupportedFeatures", features)) {
    p.SupportedFeaturesFreeMembers(*features.get());
  } else {
    same = false;
  }
  return same;
}

// The device half: the device's own WGPULimits and WGPUAdapterInfo, and enum values round-tripped
// through the objects it makes.
void probe_device(const Procs& p, WGPUDevice device, AbiCheckReport& report) {
  SentinelBox<WGPULimits> limits(true);
  p.DeviceGetLimits(device, limits.get());
  record(report, "wgpuDeviceGetLimits", "WGPULimits", limits);
  SentinelBox<WGPUAdapterInfo> info(true);
  const WGPUStatus info_status = p.DeviceGetAdapterInfo(device, info.get());
  if (record(report, "wgpuDeviceGetAdapterInfo", "WGPUAdapterInfo", info) && info_status == WGPUStatus_Success) {
    p.AdapterInfoFreeMembers(*info.get());
  } else {
    return;
  }

  // TextureBinding is allowed for every probed format, depth ones included.
  constexpr WGPUFlags kTextureUsage = WGPUTextureUsage_TextureBinding;
  for (const FormatProbe& probe : kFormatProbes) {
    WGPUTextureDescriptor desc{};
    desc.mipLevelCount = 1;
    desc.sampleCount = 1;
    desc.usage = kTextureUsage;
    desc.dimension = WGPUTextureDimension_2D;
    desc.size = {4, 4, 1};
    desc.format = probe.format;
    WGPUTexture texture = p.DeviceCreateTexture(device, &desc);
    if (texture == nullptr) continue;
    record(report, fmt::format("{} through wgpuTextureGetFormat", probe.name), static_cast<uint32_t>(probe.format),
           static_cast<uint32_t>(p.TextureGetFormat(texture)));
    if (probe.format == WGPUTextureFormat_RGBA8Unorm) {
      record(report, "WGPUTextureDimension_2D through wgpuTextureGetDimension",
             static_cast<uint32_t>(WGPUTextureDimension_2D), static_cast<uint32_t>(p.TextureGetDimension(texture)));
      record(report, "WGPUTextureUsage_TextureBinding through wgpuTextureGetUsage", kTextureUsage,
             p.TextureGetUsage(texture));
    }
    p.TextureRelease(texture);
  }

  WGPUBufferDescriptor buffer_desc{};
  buffer_desc.size = 16;
  buffer_desc.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
  if (WGPUBuffer buffer = p.DeviceCreateBuffer(device, &buffer_desc); buffer != nullptr) {
    record(report, "WGPUBufferUsage_MapRead|CopyDst through wgpuBufferGetUsage", buffer_desc.usage,
           p.BufferGetUsage(buffer));
    record(report, "WGPUBufferMapState_Unmapped through wgpuBufferGetMapState",
           static_cast<uint32_t>(WGPUBufferMapState_Unmapped), static_cast<uint32_t>(p.BufferGetMapState(buffer)));
    p.BufferRelease(buffer);
  }

  WGPUQuerySetDescriptor query_desc{};
  query_desc.type = WGPUQueryType_Occlusion;
  query_desc.count = 1;
  if (WGPUQuerySet queries = p.DeviceCreateQuerySet(device, &query_desc); queries != nullptr) {
    record(report, "WGPUQueryType_Occlusion through wgpuQuerySetGetType", static_cast<uint32_t>(WGPUQueryType_Occlusion),
           static_cast<uint32_t>(p.QuerySetGetType(queries)));
    p.QuerySetRelease(queries);
  }
}

// The stages, each run only when the one before found no difference: a later stage hands the
// library descriptors in warden's layout, which a library that has just shown another layout
// could misread.
void probe(const Procs& p, AbiCheckReport& report) {
  SentinelBox<WGPUInstanceCapabilities> capabilities(true);
  p.GetInstanceCapabilities(capabilities.get());
  if (!record(report, "wgpuGetInstanceCapabilities", "WGPUInstanceCapabilities", capabilities)) return;

  WGPUInstance instance = p.CreateInstance(nullptr);  // a null descriptor: nothing to misread
  if (instance == nullptr) {
    report.incomplete = "wgpuCreateInstance(nullptr) returned no instance";
    return;
  }
  // On the heap: a request the bound gave up on may still be answered later, into memory that
  // is then deliberately left alive, as is the instance that would answer it.
  struct AdapterAnswer {
    std::atomic<bool> done = false;  // AllowSpontaneous: the answer may come on another thread
    WGPURequestAdapterStatus status{};
    WGPUAdapter adapter = nullptr;
    std::string message;
  };
  auto adapter_answer = std::make_unique<AdapterAnswer>();
  WGPURequestAdapterOptions options{};
  options.backendType = WGPUBackendType_Null;
  options.featureLevel = WGPUFeatureLevel_Core;
  WGPURequestAdapterCallbackInfo adapter_cb{};
  adapter_cb.mode = WGPUCallbackMode_AllowSpontaneous;
  adapter_cb.userdata1 = adapter_answer.get();
  adapter_cb.callback = [](WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message, void* u, void*) {
    auto* a = static_cast<AdapterAnswer*>(u);
    a->status = status;
    a->adapter = adapter;
    a->message = std::string(to_std(message));
    a->done = true;
  };
  p.InstanceRequestAdapter(instance, &options, adapter_cb);
  if (!pump(p, instance, adapter_answer->done)) {
    (void)adapter_answer.release();
    report.incomplete = "the Null adapter request was not answered";
    return;
  }
  if (adapter_answer->status != WGPURequestAdapterStatus_Success || adapter_answer->adapter == nullptr) {
    report.incomplete = fmt::format("no Null adapter ({})", adapter_answer->message.empty() ? "no message"
                                                                                            : adapter_answer->message);
    p.InstanceRelease(instance);
    return;
  }
  WGPUAdapter adapter = adapter_answer->adapter;
  if (probe_adapter(p, adapter, report)) {
    struct DeviceAnswer {
      std::atomic<bool> done = false;
      WGPUDevice device = nullptr;
      std::string message;
    };
    auto device_answer = std::make_unique<DeviceAnswer>();
    WGPURequestDeviceCallbackInfo device_cb{};
    device_cb.mode = WGPUCallbackMode_AllowSpontaneous;
    device_cb.userdata1 = device_answer.get();
    device_cb.callback = [](WGPURequestDeviceStatus, WGPUDevice device, WGPUStringView message, void* u, void*) {
      auto* d = static_cast<DeviceAnswer*>(u);
      d->device = device;
      d->message = std::string(to_std(message));
      d->done = true;
    };
    p.AdapterRequestDevice(adapter, nullptr, device_cb);  // a null descriptor: nothing to misread
    if (!pump(p, instance, device_answer->done)) {
      (void)device_answer.release();
      report.incomplete = "the Null device request was not answered";
      return;
    }
    if (device_answer->device == nullptr) {
      report.incomplete = fmt::format("no Null device ({})", device_answer->message);
    } else {
      probe_device(p, device_answer->device, report);
      p.DeviceRelease(device_answer->device);
    }
  }
  p.AdapterRelease(adapter);
  p.InstanceRelease(instance);
}

}  // namespace

bool AbiCheckReport::passed() const {
  for (const auto& s : structs) {
    if (!s.matches()) return false;
  }
  for (const auto& e : enums) {
    if (!e.matches()) return false;
  }
  return true;
}

std::vector<std::string> AbiCheckReport::differences() const {
  std::vector<std::string> out;
  for (const auto& s : structs) {
    if (s.written > s.declared) {
      out.push_back(fmt::format("{} wrote {} bytes into {}, which is {} bytes in the header warden was built "
                                "with: {} bytes past its end",
                                s.call, s.written, s.type, s.declared, s.written - s.declared));
    } else if (s.written < s.declared) {
      out.push_back(fmt::format("{} wrote only {} bytes into {}, which is {} bytes in the header warden was "
                                "built with: {} bytes short",
                                s.call, s.written, s.type, s.declared, s.declared - s.written));
    }
  }
  for (const auto& e : enums) {
    if (!e.matches()) {
      out.push_back(fmt::format("{}: sent or expected as {} (the header warden was built with), came back as {}",
                                e.what, e.declared, e.returned));
    }
  }
  return out;
}

std::string AbiCheckReport::summary() const {
  const double ms = static_cast<double>(duration.count()) / 1000.0;
  if (!passed()) {
    std::string list;
    for (const auto& d : differences()) list += (list.empty() ? "" : "; ") + d;
    return fmt::format("failed: {} ({:.1f} ms)", list, ms);
  }
  std::string sizes;
  std::vector<std::string> named;
  for (const auto& s : structs) {
    if (std::find(named.begin(), named.end(), s.type) != named.end()) continue;
    named.push_back(s.type);
    sizes += fmt::format("{} {} bytes, ", s.type, s.declared);
  }
  std::string line = fmt::format("passed ({}{} enum values round-tripped, {:.1f} ms)", sizes, enums.size(), ms);
  if (!incomplete.empty()) line += fmt::format("; incomplete: {}", incomplete);
  return line;
}

AbiCheckReport run_abi_check(const Procs& procs) {
  AbiCheckReport report;
  const auto start = Clock::now();
  probe(procs, report);
  report.duration = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
  return report;
}

std::optional<Error> abi_mismatch(const AbiCheckReport& report, std::string_view library_path) {
  if (report.passed()) return std::nullopt;
  std::string list;
  for (const auto& d : report.differences()) list += fmt::format("\n  {}", d);
  return make_error(ErrorKind::AbiMismatch, MessageId::LibraryAbiMismatch,
                    fmt::format("the WebGPU library {} has an ABI that differs from the header warden was built "
                                "with, so it is not used (calls through that header would read and write "
                                "its memory at the wrong places):{}\n"
                                "Fix: use the Dawn build warden is pinned to (scripts/fetch-dawn.sh fetches it "
                                "into build/dawn/; an installed warden keeps it in <prefix>/lib/warden/dawn/), "
                                "or build warden against this library's own webgpu.h.",
                                library_path, list));
}

}  // namespace warden::gpu
