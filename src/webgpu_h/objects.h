// The objects warden's webgpu.h library hands out (docs/adr/0059). The application's WGPUBuffer,
// WGPUDevice, ... is a pointer to one of these, never to Dawn's object: each outlives the Dawn
// objects of every device generation and finds the current one when a call needs it.
//
//  - Custody kinds (the registry's: buffers to render bundles): the object holds a registry
//    handle; the registry keeps the recipe, makes the Dawn object again after a loss, and
//    resolve() gives the current one.
//  - Transient kinds (encoders, passes, command buffers; a surface's texture and its views):
//    the object holds the Dawn object of the one generation it was made on; once that
//    generation is gone, calls on it are dropped and a submit names it.
//  - Instance, adapter, device, queue, surface: warden's own, with their Dawn objects inside.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

#include "warden/core/handle.h"
#include "warden/gpu/abi.h"

namespace warden::webgpu_h {

/// Every object type of webgpu.h, in the header's order.
enum class Kind : uint8_t {
#define WARDEN_WEBGPU_KIND(Name) Name,
  WARDEN_WEBGPU_OBJECT_TYPES(WARDEN_WEBGPU_KIND)
#undef WARDEN_WEBGPU_KIND
};
/// "buffer", "render pass encoder", ... as messages print a kind.
const char* kind_name(Kind kind);

class Device;

/// What every object handed out is. Reference counted as webgpu.h says: made with one
/// reference, AddRef adds one, Release drops one and the last one ends the object.
class Object {
 public:
  /// Tells warden's objects from anything else handed back to the library.
  static constexpr uint32_t kMagic = 0x57415244;  // "WARD"
  Object(Kind kind, std::string label) : kind_(kind), label_(std::move(label)) {}
  virtual ~Object() { magic_ = 0; }
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;

  Kind kind() const { return kind_; }
  const std::string& label() const { return label_; }
  void set_label(std::string_view label) { label_ = std::string(label); }
  bool is_warden_object() const { return magic_ == kMagic; }

  /// The Dawn object behind this one now; null when there is none, with `why` saying why (its
  /// generation is gone, the rebuild refused it, it was destroyed).
  virtual void* dawn(std::string* why) = 0;
  /// The device the object belongs to; null for an instance, an adapter or a surface.
  virtual Device* device() const { return nullptr; }

  void add_ref() { refs_.fetch_add(1, std::memory_order_relaxed); }
  /// Drops one reference; the last one destroys the object (through on_last_release first).
  void release() {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      on_last_release();
      delete this;
    }
  }

 protected:
  // The application let go of its last reference: give back what the object holds elsewhere
  // (its registry slot) before it is destroyed.
  virtual void on_last_release() {}

 private:
  uint32_t magic_ = kMagic;
  Kind kind_;
  std::atomic<uint32_t> refs_{1};
  std::string label_;
};

/// "buffer "label"" (or "buffer (no label)"), as messages name an object.
std::string describe(const Object& object);

/// The application's pointer for `object`, and back. from_app() gives null for a null pointer
/// and for one that is not warden's object of `kind` (checked before it is trusted).
template <typename Wgpu>
Wgpu to_app(Object* object) {
  return reinterpret_cast<Wgpu>(object);
}
Object* from_app(const void* pointer, Kind kind);

}  // namespace warden::webgpu_h
