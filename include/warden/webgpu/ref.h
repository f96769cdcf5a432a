// Ref<T>: owns one reference to a raw WebGPU object and releases it through the proc table.
#pragma once

#include <utility>

#include "warden/webgpu/procs.h"

namespace warden::gpu {

#define WARDEN_GPU_DECLARE_RELEASE(Name) void release(const Procs& procs, Name object);
WARDEN_GPU_OBJECT_TYPES(WARDEN_GPU_DECLARE_RELEASE)
#undef WARDEN_GPU_DECLARE_RELEASE

template <typename T>
class Ref {
 public:
  Ref() = default;
  Ref(const Procs* procs, T object) : procs_(procs), object_(object) {}
  Ref(const Ref&) = delete;
  Ref& operator=(const Ref&) = delete;
  Ref(Ref&& other) noexcept : procs_(other.procs_), object_(std::exchange(other.object_, nullptr)) {}
  Ref& operator=(Ref&& other) noexcept {
    if (this != &other) {
      reset();
      procs_ = other.procs_;
      object_ = std::exchange(other.object_, nullptr);
    }
    return *this;
  }
  ~Ref() { reset(); }

  T get() const { return object_; }
  explicit operator bool() const { return object_ != nullptr; }
  /// Gives up ownership without releasing.
  T take() { return std::exchange(object_, nullptr); }
  void reset() {
    if (object_ != nullptr) release(*procs_, std::exchange(object_, nullptr));
  }

 private:
  const Procs* procs_ = nullptr;
  T object_ = nullptr;
};

}  // namespace warden::gpu
