#include "gpu/counting_procs.h"

#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <type_traits>

#include <fmt/format.h>

#include "warden/gpu/callback.h"
#include "warden/gpu/ledger.h"

namespace warden::gpu {
namespace {

// The entries the counting table forwards to. Written once, under the mutex, before the first
// counting table is handed out; only read after that.
struct CountedLibrary {
  std::mutex mutex;
  bool installed = false;
  Procs raw;
  std::string path;
};
CountedLibrary& counted_library() {
  static CountedLibrary* library = new CountedLibrary();  // outlives every static destructor
  return *library;
}
const Procs& raw() { return counted_library().raw; }

template <typename T>
struct ObjectTypeOf : std::false_type {};
#define WARDEN_GPU_OBJECT_TYPE_OF(Name)                                \
  template <>                                                          \
  struct ObjectTypeOf<WGPU##Name> : std::true_type {                   \
    static constexpr ObjectType kType = ObjectType::Name;              \
  };
WARDEN_GPU_OBJECT_TYPES(WARDEN_GPU_OBJECT_TYPE_OF)
#undef WARDEN_GPU_OBJECT_TYPE_OF

template <typename T>
concept GpuObject = ObjectTypeOf<T>::value;

// What a call does to the references warden holds. webgpu.h hands every object it returns to
// the caller with a reference, so the rule for returns follows from the type; AddRef and
// Release are recognised by name.
enum class Effect { FromReturnType, AddsReference, ReleasesReference };
constexpr Effect effect_of(std::string_view name) {
  if (name.ends_with("AddRef")) return Effect::AddsReference;
  if (name.ends_with("Release")) return Effect::ReleasesReference;
  return Effect::FromReturnType;
}

// Arguments pass through unchanged, except a callback that will deliver an object (adapter and
// device requests, asynchronous pipeline creations): it is wrapped so the delivery is counted.
template <typename Arg>
Arg counted(Arg arg) {
  return arg;
}

// Objects handed out through an out-parameter, counted after the call, and given back by a
// FreeMembers, counted before it. Of the header's entry points, these are all that do (the
// other out-parameters carry plain data: info, limits, features, capabilities, properties):
//   wgpuSurfaceGetCurrentTexture               WGPUSurfaceTexture::texture
//   wgpuSharedBufferMemoryEndAccess            WGPUSharedBufferMemoryEndAccessState::fences,
//   wgpuSharedTextureMemoryEndAccess           WGPUSharedTextureMemoryEndAccessState::fences,
//     given back by wgpuShared{Buffer,Texture}MemoryEndAccessStateFreeMembers.
// A new entry point that hands out an object this way needs its overloads here.
template <typename Arg>
void handed_out(Arg) {}
void handed_out(WGPUSurfaceTexture* frame) {
  if (frame != nullptr && frame->texture != nullptr) Ledger::process().taken(ObjectType::Texture);
}
template <typename State>
concept FenceState = requires(State state) {
  state.fenceCount;
  requires std::is_same_v<decltype(state.fences), WGPUSharedFence const*>;
};
template <FenceState State>
void count_fences(const State& state, void (Ledger::*count)(ObjectType)) {
  if (state.fences == nullptr) return;
  for (size_t i = 0; i < state.fenceCount; ++i) {
    if (state.fences[i] != nullptr) (Ledger::process().*count)(ObjectType::SharedFence);
  }
}
template <FenceState State>
void handed_out(State* state) {
  if (state != nullptr) count_fences(*state, &Ledger::taken);
}
template <typename Arg>
void given_back_with(Arg) {}
template <FenceState State>
void given_back_with(State state) {
  count_fences(state, &Ledger::given_back);
}

// A callback info whose callback delivers an object: (status, object, message, userdata1,
// userdata2), as webgpu.h's adapter and device requests and asynchronous pipeline creations do.
template <typename Callback>
struct DeliversObject : std::false_type {};
template <typename Status, GpuObject Object>
struct DeliversObject<void (*)(Status, Object, WGPUStringView, void*, void*)> : std::true_type {
  using Delivered = Object;
};
template <typename Info>
concept ObjectCallbackInfo = requires(Info info) {
  info.mode;
  info.userdata1;
  info.userdata2;
  requires DeliversObject<decltype(info.callback)>::value;
};

// The application's callback, given the object after the ledger counted it. webgpu.h calls
// every such callback exactly once (at the latest when the instance goes away).
template <ObjectCallbackInfo Info>
Info counted(Info info) {
  if (info.callback == nullptr) return info;  // nobody receives the object: nothing to count
  using Object = typename DeliversObject<decltype(info.callback)>::Delivered;
  auto counting = once_callback<Info>(info.mode, [info](auto status, Object object, WGPUStringView message) {
    if (object != nullptr) Ledger::process().taken(ObjectTypeOf<Object>::kType);
    info.callback(status, object, message, info.userdata1, info.userdata2);
  });
  counting.nextInChain = info.nextInChain;
  return counting;
}

template <auto Member, Effect E, typename = decltype(Member)>
struct Counting;

template <auto Member, Effect E, typename Ret, typename... Args>
struct Counting<Member, E, Ret (*Procs::*)(Args...)> {
  static Ret call(Args... args) {
    if constexpr (E == Effect::FromReturnType) {
      if constexpr (GpuObject<Ret>) {
        Ret object = (raw().*Member)(counted(args)...);
        if (object != nullptr) Ledger::process().taken(ObjectTypeOf<Ret>::kType);
        return object;
      } else if constexpr (std::is_void_v<Ret>) {
        (given_back_with(args), ...);
        (raw().*Member)(counted(args)...);
        (handed_out(args), ...);
      } else {
        Ret result = (raw().*Member)(counted(args)...);
        (handed_out(args), ...);
        return result;
      }
    } else {
      static_assert(sizeof...(Args) == 1, "AddRef and Release take the object alone");
      using Object = std::tuple_element_t<0, std::tuple<Args...>>;
      static_assert(GpuObject<Object>, "AddRef and Release take a webgpu object");
      (raw().*Member)(args...);
      if constexpr (E == Effect::AddsReference) {
        Ledger::process().taken(ObjectTypeOf<Object>::kType);
      } else {
        Ledger::process().given_back(ObjectTypeOf<Object>::kType);
      }
    }
  }
};

bool same_entries(const Procs& a, const Procs& b) {
#define WARDEN_GPU_SAME_ENTRY(Ret, Name, Params) \
  if (a.Name != b.Name) return false;
  WARDEN_WEBGPU_PROCS(WARDEN_GPU_SAME_ENTRY)
#undef WARDEN_GPU_SAME_ENTRY
  return true;
}

}  // namespace

Result<Procs> counting_procs(const Procs& raw_procs, std::string_view path) {
  CountedLibrary& library = counted_library();
  {
    std::lock_guard lock(library.mutex);
    if (!library.installed) {
      library.raw = raw_procs;
      library.path = std::string(path);
      library.installed = true;
    } else if (!same_entries(library.raw, raw_procs)) {
      return make_error(ErrorKind::Refused, MessageId::LedgerSecondLibrary,
                        fmt::format("the reference ledger already counts the WebGPU library {} in "
                                    "this process; {} is a different library. The ledger counts "
                                    "one library per process: load the second with the ledger "
                                    "off ({}=0 or LedgerMode::Off).",
                                    library.path, path, kLedgerEnvVar));
    }
  }
  Procs table;
  // An entry the library lacks stays null, as in the table it counts for.
#define WARDEN_GPU_COUNTING_ENTRY(Ret, Name, Params) \
  if (raw_procs.Name != nullptr) table.Name = &Counting<&Procs::Name, effect_of(#Name)>::call;
  WARDEN_WEBGPU_PROCS(WARDEN_GPU_COUNTING_ENTRY)
#undef WARDEN_GPU_COUNTING_ENTRY
  return table;
}

}  // namespace warden::gpu
