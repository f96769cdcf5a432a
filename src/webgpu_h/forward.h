// How an exported entry point reaches Dawn (docs/adr/0059). Every entry point of webgpu.h is
// exported (exports.cpp, from WARDEN_WEBGPU_PROCS_NAMED) and calls Entry<its ProcId>::call.
// The primary Entry forwards: each object argument becomes the Dawn object behind it now (what
// the object remembers for the live generation, else what it finds when asked), every other
// argument passes as it is, and the Dawn entry point is called. That is only right for
// arguments that name no object, so the primary template refuses to compile a forward of a
// struct that names one (WARDEN_WEBGPU_STRUCTS_NAMING_OBJECTS) or that returns an object or a
// future: those entry points have an Entry of their own (entries.h).
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <initializer_list>
#include <type_traits>

#include "warden/gpu/library.h"
#include "warden/gpu/procs.h"
#include "webgpu_h/objects.h"

namespace warden::webgpu_h {

/// One value per entry point of the header, in WARDEN_WEBGPU_PROCS's order.
enum class ProcId : uint16_t {
#define WARDEN_WEBGPU_PROC_ID(Ret, Name, Params) Name,
  WARDEN_WEBGPU_PROCS(WARDEN_WEBGPU_PROC_ID)
#undef WARDEN_WEBGPU_PROC_ID
};

/// "wgpuRenderPassEncoderDraw", ...
const char* entry_name(ProcId id);

namespace detail {
// Set once, by the first keep_dawn_library; read by every forwarded call.
extern std::atomic<const gpu::Procs*> kept_dawn_procs;
}  // namespace detail

/// The proc table of the Dawn library every instance of this process loaded.
inline const gpu::Procs& dawn_procs() { return *detail::kept_dawn_procs.load(std::memory_order_acquire); }
/// Keeps the first library an instance loaded for the process: dawn_procs() is its table.
void keep_dawn_library(std::shared_ptr<const gpu::Library> library);

/// What one call found while it translated its arguments: the device to report to and the first
/// argument that could not be translated.
struct Call {
  ProcId id;
  Device* device = nullptr;
  std::string failure{};
  /// An argument was recorded on a device generation since lost: the call is dropped without a
  /// word (the submit of what it recorded names it).
  bool drop = false;
  /// Reports the failure (named with the entry point) to the device, or on stderr without one.
  void report() const;
};

/// An argument on its way to Dawn. Plain values pass unchanged. An object is translated in up
/// to three tries: remembered() reads what the object remembers for the live generation, with no
/// call (`ok` turns false when it has nothing); now() asks the object (a virtual call, which
/// remembers what it finds); in() asks again and says why it cannot be translated.
template <typename T, typename = void>
struct Arg {
  [[gnu::always_inline]] static T remembered(T value, bool&) { return value; }
  static T now(T value, bool&) { return value; }
  static T in(T value, Call&) { return value; }
};

/// The object types webgpu.h declares.
template <typename T>
struct IsObject : std::false_type {};
template <typename T>
struct KindOf;
#define WARDEN_WEBGPU_OBJECT_TRAIT(Name)                     \
  template <>                                                \
  struct IsObject<WGPU##Name> : std::true_type {};           \
  template <>                                                \
  struct KindOf<WGPU##Name> {                                \
    static constexpr Kind value = Kind::Name;                \
  };
WARDEN_WEBGPU_OBJECT_TYPES(WARDEN_WEBGPU_OBJECT_TRAIT)
#undef WARDEN_WEBGPU_OBJECT_TRAIT

/// The structs that name an object or a callback: never forwarded as they are.
template <typename T>
struct NamesObjects : std::false_type {};
#define WARDEN_WEBGPU_NAMING_TRAIT(Struct) \
  template <>                              \
  struct NamesObjects<Struct> : std::true_type {};
WARDEN_WEBGPU_STRUCTS_NAMING_OBJECTS(WARDEN_WEBGPU_NAMING_TRAIT)
#undef WARDEN_WEBGPU_NAMING_TRAIT

/// The Dawn object behind `object` now, or null with the call's failure set, or its drop set
/// for an object of a lost generation (a null pointer passes as null: webgpu.h's nullable
/// arguments).
void* dawn_of(const void* object, Kind kind, Call& call);
/// Why `pointer` is not warden's object of `kind`; warden's object of another kind names its
/// device for `call`'s report, when there is one.
std::string not_warden_object(const void* pointer, Kind kind, Call* call = nullptr);

/// What warden's object of `kind` remembers for the live generation; null when it is not one, or
/// remembers nothing current (Object::remembered).
[[gnu::always_inline]] inline void* dawn_remembered(const void* pointer, Kind kind) {
  const auto* object = static_cast<const Object*>(pointer);
  if (object->is_warden_object() && object->kind() == kind) [[likely]] return object->remembered();
  return nullptr;
}

/// The Dawn object behind warden's object of `kind` now; null when it is not one, or has none.
inline void* dawn_now(const void* pointer, Kind kind) {
  auto* object = static_cast<Object*>(const_cast<void*>(pointer));
  if (object->is_warden_object() && object->kind() == kind) [[likely]] return object->dawn_remembering(nullptr);
  return nullptr;
}

template <typename T>
struct Arg<T, std::enable_if_t<IsObject<T>::value>> {
  [[gnu::always_inline]] static T remembered(T value, bool& ok) {
    if (value == nullptr) return nullptr;  // webgpu.h's nullable arguments
    void* dawn = dawn_remembered(value, KindOf<T>::value);
    ok = ok && dawn != nullptr;
    return static_cast<T>(dawn);
  }
  static T now(T value, bool& ok) {
    if (value == nullptr) return nullptr;
    void* dawn = dawn_now(value, KindOf<T>::value);
    ok = ok && dawn != nullptr;
    return static_cast<T>(dawn);
  }
  static T in(T value, Call& call) { return static_cast<T>(dawn_of(value, KindOf<T>::value, call)); }
};

template <typename T>
inline constexpr bool kForwardable =
    !NamesObjects<std::remove_cv_t<std::remove_pointer_t<T>>>::value &&
    !NamesObjects<std::remove_cv_t<std::remove_pointer_t<std::remove_cv_t<std::remove_pointer_t<T>>>>>::value &&
    !std::is_same_v<std::remove_cv_t<std::remove_pointer_t<T>>, WGPUChainedStruct>;

/// Calls `function` with the translated arguments when `go` says so (read once every argument
/// has been evaluated: the translations set it), else `otherwise`. The arguments are translated
/// as this call's own, so no tuple holds them: a tuple and std::apply for each of the 253 entry
/// points took the sanitizer build 153 s of CPU for this layer, 19 s without.
template <typename Ret, typename... Params, typename Otherwise>
[[gnu::always_inline]] inline Ret call_or(Ret (*function)(Params...), const bool& go, Otherwise&& otherwise,
                                             Params... translated) {
  if (go) [[likely]] return function(translated...);
  return otherwise();
}

/// A forward whose arguments were not all remembered: each asked now, and when one cannot be
/// translated, again in order, saying why (or dropping the call without a word when it was
/// recorded on a lost generation). Out of line, so that the remembered path is a few loads and
/// a jump to Dawn.
template <ProcId Id, typename Ret, typename... Params, typename... Args>
[[gnu::noinline, gnu::cold]] Ret forward_slowly(Ret (*function)(Params...), Args... args) {
  bool ok = true;
  if constexpr (std::is_void_v<Ret>) {
    call_or(function, ok, [] {}, Arg<Params>::now(args, ok)...);
    if (ok) return;
  } else {
    Ret result = call_or(function, ok, [] { return Ret(); }, Arg<Params>::now(args, ok)...);
    if (ok) return result;
  }
  Call call{Id};
  (void)std::initializer_list<int>{((void)Arg<Params>::in(args, call), 0)...};
  if (!call.failure.empty()) call.report();
  if (call.failure.empty() && !call.drop) {
    // Every argument translates now (a recovery finished in between): the call goes through.
    ok = true;
    return call_or(function, ok, [] { return Ret(); }, Arg<Params>::now(args, ok)...);
  }
  if constexpr (!std::is_void_v<Ret>) return Ret{};
}

/// The generic forward of entry point `Id` (see the file's comment).
template <ProcId Id, typename Ret, typename... Params, typename... Args>
[[gnu::always_inline]] inline Ret forward(Ret (*gpu::Procs::*member)(Params...), Args... args) {
  static_assert((kForwardable<Params> && ...),
                "this entry point takes a struct that names objects: give it an Entry of its own");
  static_assert(!IsObject<Ret>::value && !std::is_same_v<Ret, WGPUFuture>,
                "this entry point hands out an object or a future: give it an Entry of its own");
  Ret (*function)(Params...) = dawn_procs().*member;
  bool ok = true;
  return call_or(function, ok, [&] { return forward_slowly<Id>(function, args...); },
                 Arg<Params>::remembered(args, ok)...);
}

/// The proc table's field of each entry point.
template <ProcId Id>
struct Member;
#define WARDEN_WEBGPU_PROC_MEMBER(Ret, Name, Params) \
  template <>                                        \
  struct Member<ProcId::Name> {                      \
    static constexpr auto value = &gpu::Procs::Name; \
  };
WARDEN_WEBGPU_PROCS(WARDEN_WEBGPU_PROC_MEMBER)
#undef WARDEN_WEBGPU_PROC_MEMBER

/// An entry point's implementation: the primary one forwards; entries.h declares the others.
template <ProcId Id>
struct Entry {
  template <typename... Args>
  [[gnu::always_inline]] static auto call(Args... args) {
    return forward<Id>(Member<Id>::value, args...);
  }
};

}  // namespace warden::webgpu_h
