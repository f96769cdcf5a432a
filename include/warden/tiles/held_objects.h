/// @file
/// HeldObjects: the registry objects one tile object made, destroyed in the registry when their
/// holder goes. The tile objects (MipGenerator, TileArray, TileRenderer, TileBindGroup) keep
/// their GPU objects here, so the Registry is their one custodian: it rebuilds them after a
/// device loss under the same handles, and it alone calls Destroy (docs/adr/0005, "Custody").
#pragma once

#include <variant>
#include <vector>

#include "warden/resources/registry.h"

namespace warden::tiles {

/// The registry objects one tile object made, held by handle and destroyed in the registry
/// together, newest first, by release() or the destructor. Move-only. Holds nothing when
/// default-made.
class HeldObjects {
 public:
  HeldObjects() = default;
  /// `registry` must outlive every object made in it through this holder.
  explicit HeldObjects(resources::Registry& registry) : registry_(&registry) {}
  HeldObjects(HeldObjects&& other) noexcept;  ///< `other` is left holding nothing
  /// Releases what this held, then takes `other`'s registry and objects; `other` is left holding
  /// nothing.
  HeldObjects& operator=(HeldObjects&& other) noexcept;
  HeldObjects(const HeldObjects&) = delete;
  HeldObjects& operator=(const HeldObjects&) = delete;
  ~HeldObjects() { release(); }

  /// Keeps `handle` (made in registry()) until release().
  template <typename Tag>
  Handle<Tag> hold(Handle<Tag> handle) {
    handles_.emplace_back(handle);
    return handle;
  }
  /// Destroys every held object, newest first: users (views, groups, pipelines) before what
  /// they use. The registry releases each once the last submission that could read it retired.
  void release();

  /// The registry the objects live in; only valid on a holder made with one.
  resources::Registry& registry() const { return *registry_; }
  /// True when no object is held.
  bool empty() const { return handles_.empty(); }
  /// How many objects are held.
  size_t size() const { return handles_.size(); }

 private:
  using AnyHandle = std::variant<
#define WARDEN_HELD_HANDLE(Name, snake) Name##Handle,
      WARDEN_RESOURCE_KINDS(WARDEN_HELD_HANDLE)
#undef WARDEN_HELD_HANDLE
          std::monostate>;
  resources::Registry* registry_ = nullptr;
  std::vector<AnyHandle> handles_;
};

}  // namespace warden::tiles
