/// @file
/// Ref<T>: owns one reference to a raw WebGPU object and releases it through the proc table.
#pragma once

#include <utility>

#include "warden/gpu/procs.h"

namespace warden::gpu {

#define WARDEN_GPU_DECLARE_RELEASE(Name) void release(const Procs& procs, WGPU##Name object);
WARDEN_GPU_OBJECT_TYPES(WARDEN_GPU_DECLARE_RELEASE)
#undef WARDEN_GPU_DECLARE_RELEASE

template <typename T>
/// Owns one reference to a raw WebGPU object of type T and releases it when destroyed; move-only.
class Ref {
 public:
  Ref() = default;
  /// Takes over the reference `object`; `procs` releases it and must outlive the Ref.
  Ref(const Procs* procs, T object) : procs_(procs), object_(object) {}
  Ref(const Ref&) = delete;
  Ref& operator=(const Ref&) = delete;
  /// Moves the reference; `other` is left empty.
  ///@{
  Ref(Ref&& other) noexcept : procs_(other.procs_), object_(std::exchange(other.object_, nullptr)) {}
  Ref& operator=(Ref&& other) noexcept {
    if (this != &other) {
      reset();
      procs_ = other.procs_;
      object_ = std::exchange(other.object_, nullptr);
    }
    return *this;
  }
  ///@}
  ~Ref() { reset(); }

  /// The object, still owned by this Ref (null when empty).
  T get() const { return object_; }
  /// True when the Ref holds an object.
  explicit operator bool() const { return object_ != nullptr; }
  /// Gives up ownership without releasing.
  T take() { return std::exchange(object_, nullptr); }
  /// Releases the object now, if any; the Ref is empty afterwards.
  void reset() {
    if (object_ != nullptr) release(*procs_, std::exchange(object_, nullptr));
  }

 private:
  const Procs* procs_ = nullptr;
  T object_ = nullptr;
};

}  // namespace warden::gpu
