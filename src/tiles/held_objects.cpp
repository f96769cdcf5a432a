#include "warden/tiles/held_objects.h"

#include <utility>

#include <fmt/format.h>

namespace warden::tiles {

namespace {

#define WARDEN_HELD_DESTROY(Name, snake) \
  Result<void> destroy_in(resources::Registry& registry, Name##Handle handle) { return registry.destroy_##snake(handle); }
WARDEN_RESOURCE_KINDS(WARDEN_HELD_DESTROY)
#undef WARDEN_HELD_DESTROY
Result<void> destroy_in(resources::Registry&, std::monostate) { return {}; }

}  // namespace

HeldObjects::HeldObjects(HeldObjects&& other) noexcept
    : registry_(std::exchange(other.registry_, nullptr)), handles_(std::exchange(other.handles_, {})) {}

HeldObjects& HeldObjects::operator=(HeldObjects&& other) noexcept {
  if (this != &other) {
    release();
    registry_ = std::exchange(other.registry_, nullptr);
    handles_ = std::exchange(other.handles_, {});
  }
  return *this;
}

void HeldObjects::release() {
  if (registry_ == nullptr) return;
  for (auto it = handles_.rbegin(); it != handles_.rend(); ++it) {
    // Only a bug in this holder's order could make the registry refuse (a texture before its
    // views): said, never thrown from a destructor.
    auto destroyed = std::visit([&](auto handle) { return destroy_in(*registry_, handle); }, *it);
    if (!destroyed) {
      registry_->diagnostics().error(destroyed.error().id,
                                     fmt::format("tile objects: {}", destroyed.error().message));
    }
  }
  handles_.clear();
}

}  // namespace warden::tiles
