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
  /// dawn(), and what it found remembered for the device generation live now, so that the next
  /// call finds it through remembered().
  void* dawn_remembering(std::string* why);
  /// The Dawn object remembered for the device generation live now, read without a call or a
  /// lock (the recording path: every object argument of every forwarded call); null when none
  /// is, and dawn_remembering() then says why. A seqlock: the generation, the object, the
  /// generation again.
  [[gnu::always_inline]] void* remembered() const {
    const uint64_t generation = remembered_generation_.load(std::memory_order_acquire);
    if (generation != live_->load(std::memory_order_acquire)) return nullptr;
    void* object = remembered_.load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    return remembered_generation_.load(std::memory_order_relaxed) == generation ? object : nullptr;
  }
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

  /// Lets dawn_remembering() remember: `live` is the device's live generation (0 while it has no
  /// device). Only for an object whose Dawn object, once found for a generation, stays the same
  /// until that generation ends or forget_for_good() is called: the registry never swaps an
  /// object under a handle of this library within a generation (it calls no replace_,
  /// recreate_ or rerecord_), a transient object has one, and a PerGeneration holds one per
  /// generation.
  void follow(const std::atomic<uint64_t>& live) { live_ = &live; }
  /// Remembers `object` for `generation` (unless another thread is remembering, or the object
  /// was forgotten for good).
  void remember(uint64_t generation, void* object);
  /// Nothing is remembered from now on (the object was destroyed): waits out a remember() under
  /// way on another thread.
  void forget_for_good();

 private:
  // Values of remembered_generation_ that no live generation takes.
  static constexpr uint64_t kNothing = ~uint64_t{0} - 2;
  static constexpr uint64_t kForgotten = ~uint64_t{0} - 1;
  static constexpr uint64_t kWriting = ~uint64_t{0};

  uint32_t magic_ = kMagic;
  Kind kind_;
  std::atomic<uint32_t> refs_{1};
  std::string label_;
  // The device's live generation, once followed; before, a generation that is never live.
  static const std::atomic<uint64_t> kNeverLive;
  const std::atomic<uint64_t>* live_ = &kNeverLive;
  std::atomic<uint64_t> remembered_generation_{kNothing};
  std::atomic<void*> remembered_{nullptr};
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
