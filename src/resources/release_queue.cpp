#include "resources/release_queue.h"

#include <cassert>

namespace warden::resources::detail {

bool ReleaseQueue::release_object_of(ResourceKind kind, void* object, Ownership ownership) const {
  switch (kind) {
#define WARDEN_RELEASE_OBJECT_OF(Name, snake) \
  case ResourceKind::Name: return release_object<Name##Tag>(static_cast<WGPU##Name>(object), ownership);
    WARDEN_RESOURCE_KINDS(WARDEN_RELEASE_OBJECT_OF)
#undef WARDEN_RELEASE_OBJECT_OF
    case ResourceKind::None: break;
  }
  assert(false);
  return false;
}

void ReleaseQueue::report(ResourceKind kind, uint32_t index, uint32_t generation, const void* object,
                          std::string_view label, Ownership ownership, Serial last_used, bool destroyed) const {
  if (!on_release_) return;
  on_release_(ReleaseEvent{kind, index, generation, object, label, ownership, last_used, clock().retired(), destroyed});
}

void ReleaseQueue::release(const PendingRelease& pending) {
  const bool destroyed = release_object_of(pending.kind, pending.object, pending.ownership);
  report(pending.kind, pending.index, pending.generation, pending.object,
         pending.label ? std::string_view(*pending.label) : std::string_view{}, pending.ownership, pending.last_used,
         destroyed);
}

void ReleaseQueue::release_retired() {
  while (!pending_.empty() && clock().is_retired(pending_.front().release_after)) release(pending_.take_front());
}

void ReleaseQueue::release_all() {
  while (!pending_.empty()) release(pending_.take_front());
}

void ReleaseQueue::assume_all_complete() {
  queue_clock_->clock().assume_all_complete();
  release_all();
}

}  // namespace warden::resources::detail
