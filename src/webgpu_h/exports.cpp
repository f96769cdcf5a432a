// Every entry point of <webgpu/webgpu.h>, exported with the header's exact signature: generated
// from WARDEN_WEBGPU_PROCS_NAMED, the same tables the header comes from (docs/adr/0059). Each
// calls Entry<its id>::call (forward.h, entries.h).
#include <atomic>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>

#include <fmt/format.h>

#include "webgpu_h/entries.h"
#include "webgpu_h/library.h"

#define WARDEN_WEBGPU_EXPORT(Ret, Name, Params, Args)                                       \
  extern "C" __attribute__((visibility("default"))) Ret wgpu##Name Params {                 \
    return warden::webgpu_h::Entry<warden::webgpu_h::ProcId::Name>::call Args;                  \
  }
WARDEN_WEBGPU_PROCS_NAMED(WARDEN_WEBGPU_EXPORT)
#undef WARDEN_WEBGPU_EXPORT

namespace warden::webgpu_h {

namespace {

constexpr const char* kEntryNames[] = {
#define WARDEN_WEBGPU_ENTRY_NAME(Ret, Name, Params) "wgpu" #Name,
    WARDEN_WEBGPU_PROCS(WARDEN_WEBGPU_ENTRY_NAME)
#undef WARDEN_WEBGPU_ENTRY_NAME
};

struct ExportedProc {
  const char* name;
  WGPUProc proc;
};
const ExportedProc kExportedProcs[] = {
#define WARDEN_WEBGPU_EXPORTED_PROC(Ret, Name, Params) {"wgpu" #Name, reinterpret_cast<WGPUProc>(&wgpu##Name)},
    WARDEN_WEBGPU_PROCS(WARDEN_WEBGPU_EXPORTED_PROC)
#undef WARDEN_WEBGPU_EXPORTED_PROC
};

}  // namespace

std::atomic<const gpu::Procs*> detail::kept_dawn_procs{nullptr};

const char* entry_name(ProcId id) { return kEntryNames[static_cast<size_t>(id)]; }

void keep_dawn_library(std::shared_ptr<const gpu::Library> library) {
  // The first library loaded serves every call for the rest of the process: kept here, so that
  // its proc table outlives the instance that loaded it (Dawn is never unloaded: gpu/library.h).
  static std::mutex mutex;
  static std::shared_ptr<const gpu::Library> kept;
  std::lock_guard lock(mutex);
  if (kept) return;
  kept = std::move(library);
  detail::kept_dawn_procs.store(&kept->procs(), std::memory_order_release);
}

WGPUProc exported_proc(std::string_view name) {
  for (const ExportedProc& entry : kExportedProcs) {
    if (name == entry.name) return entry.proc;
  }
  return nullptr;
}

void Call::report() const {
  const std::string message = fmt::format("{}: {}", entry_name(id), failure);
  if (device != nullptr) {
    device->report(WGPUErrorType_Validation, message);
  } else {
    std::fprintf(stderr, "warden webgpu: %s\n", message.c_str());
  }
}

std::string not_warden_object(const void* pointer, Kind kind, Call* call) {
  const auto* object = static_cast<const Object*>(pointer);
  if (object->is_warden_object()) {
    // warden's object of another kind: its device hears of the mistake.
    if (call != nullptr && call->device == nullptr) call->device = object->device();
    return fmt::format("{} was passed where a {} is expected", describe(*object), kind_name(kind));
  }
  return fmt::format("the {} passed is not one warden's webgpu.h library handed out (a pointer from another "
                     "library, or one already released)",
                     kind_name(kind));
}

void report_unusable(const void* pointer, Kind kind, ProcId id) {
  Call call{id};
  if (pointer == nullptr) {
    call.failure = fmt::format("the {} is null", kind_name(kind));
  } else if (Object* object = from_app(pointer, kind)) {
    call.device = object->device();
    call.failure = fmt::format("{} cannot be used here", describe(*object));
  } else {
    call.failure = not_warden_object(pointer, kind, &call);
  }
  call.report();
}

void* dawn_of(const void* pointer, Kind kind, Call& call) {
  // A call already dropped (an argument of a lost generation) translates nothing more: a custody
  // object's resolve would wait for the recovery under way.
  if (pointer == nullptr || call.drop) return nullptr;
  Object* object = from_app(pointer, kind);
  if (object == nullptr) {
    if (call.failure.empty()) call.failure = not_warden_object(pointer, kind, &call);
    return nullptr;
  }
  void* dawn = object->dawn_remembering(nullptr);
  if (dawn == nullptr) [[unlikely]] {
    if (call.device == nullptr) call.device = object->device();
    std::string why;
    dawn = object->dawn(&why);
    // An empty why: recorded on a lost generation, dropped without a word (objects.h).
    if (why.empty()) {
      call.drop = true;
    } else if (call.failure.empty()) {
      call.failure = std::move(why);
    }
  }
  return dawn;
}

}  // namespace warden::webgpu_h

extern "C" __attribute__((visibility("default"))) uint64_t wardenDeviceGetGeneration(WGPUDevice device) {
  auto* self = static_cast<warden::webgpu_h::Device*>(warden::webgpu_h::from_app(device, warden::webgpu_h::Kind::Device));
  return self != nullptr ? self->generation() : 0;
}

extern "C" __attribute__((visibility("default"))) uint64_t wardenDeviceGetRecoveryCount(WGPUDevice device) {
  auto* self = static_cast<warden::webgpu_h::Device*>(warden::webgpu_h::from_app(device, warden::webgpu_h::Kind::Device));
  return self != nullptr ? self->recoveries() : 0;
}
