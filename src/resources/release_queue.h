// Private to the resources layer: the registry's release queue. It keeps the submission clock of
// the registry's queue and the objects whose handles are gone but whose last submission has not
// retired (pending_releases.h), and releases them in serial order as the clock moves. Every
// release of a registry object is made here, pending or not, and reaches
// RegistryOptions::on_release from here, so a release and its report cannot come apart.
//
// The queue never calls the registry back. The release hook may: its callers run a release that
// is due only once their slot is settled (RegistryImpl::release_occupant).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "warden/core/submission_clock.h"
#include "warden/gpu/procs.h"
#include "warden/gpu/queue_clock.h"
#include "warden/gpu/ref.h"
#include "warden/resources/registry.h"
#include "resources/pending_releases.h"

namespace warden::resources::detail {

class ReleaseQueue {
 public:
  using OnRelease = std::function<void(const ReleaseEvent&)>;
  template <typename Tag>
  using Object = typename GpuType<Tag>::type;

  // `on_release` is the registry's option, read at each release (it may be unset).
  ReleaseQueue(const gpu::Procs& procs, std::unique_ptr<gpu::QueueClock> queue_clock, const OnRelease& on_release)
      : procs_(procs), queue_clock_(std::move(queue_clock)), on_release_(on_release) {}

  gpu::QueueClock& queue_clock() { return *queue_clock_; }
  const SubmissionClock& clock() const { return queue_clock_->clock(); }
  // Pending releases.
  size_t size() const { return pending_.size(); }

  // The webgpu.h call itself: the object's release, and for an owned object of a kind that has
  // one, its destroy first (its memory is freed now rather than when the last internal
  // reference goes; a borrowed object is its owner's to destroy). True when destroy was called.
  template <typename Tag>
  bool release_object(Object<Tag> object, Ownership ownership) const {
    bool destroyed = false;
    if constexpr (facts_of(Tag::kind).has_destroy) {
      if (ownership == Ownership::Owned) {
        destroy(object);
        destroyed = true;
      }
    }
    gpu::release(procs_, object);
    return destroyed;
  }
  // The same for an object known by its kind (a pending release, a prepared object).
  bool release_object_of(ResourceKind kind, void* object, Ownership ownership) const;

  // Releases `object` now and reports it. `index`/`generation`: its slot and handle generation
  // (0 when it never had a handle).
  template <typename Tag>
  void release_now(Object<Tag> object, Ownership ownership, uint32_t index, uint32_t generation,
                   std::string_view label, Serial last_used) {
    const bool destroyed = release_object<Tag>(object, ownership);
    report(Tag::kind, index, generation, object, label, ownership, last_used, destroyed);
  }

  // An object whose handle is gone: queued until its last submission retires, or handed back
  // when that is now (the caller releases it with release() once its slot is settled). An owned
  // object waits at least for the submission being recorded, touched or not, as Dawn's own
  // deleter does: a command buffer recorded but not submitted may use it, and a destroy before
  // that submit makes Dawn reject the whole frame. Releasing warden's reference to a borrowed
  // object destroys nothing, so its own last use is enough. `hold`: queued even when due (the
  // frame thread releases it: frame_thread_carrier.h).
  template <typename Tag>
  [[nodiscard]] std::optional<PendingRelease> when_retired(Object<Tag> object, Ownership ownership, Serial last_used,
                                                           const std::string& label, uint32_t index,
                                                           uint32_t generation, bool hold) {
    if (ownership == Ownership::Imported) return std::nullopt;  // its owner ends it
    if (object == nullptr) return std::nullopt;                // a Lost or Failed slot holds nothing
    Serial release_after = last_used;
    if (ownership == Ownership::Owned) release_after = std::max(release_after, clock().recording());
    PendingRelease release{release_after, last_used, Tag::kind, static_cast<void*>(object), ownership, index,
                           generation, on_release_ ? std::make_unique<std::string>(label) : nullptr};
    if (clock().is_retired(release_after) && !hold) return release;  // due now
    pending_.push(std::move(release));
    return std::nullopt;
  }
  // Releases one pending entry and reports it.
  void release(const PendingRelease& pending);
  // Releases what waits for submissions that have retired, oldest first.
  void release_retired();
  // Releases everything that waits.
  void release_all();
  // Nothing submitted can still run (a lost device, shutdown): the clock retires every serial,
  // and what waits on the submission being recorded goes too, or it would keep its object, and
  // through it the whole device, alive for ever.
  void assume_all_complete();

 private:
  void destroy(WGPUBuffer object) const { procs_.BufferDestroy(object); }
  void destroy(WGPUTexture object) const { procs_.TextureDestroy(object); }
  void destroy(WGPUQuerySet object) const { procs_.QuerySetDestroy(object); }
  void report(ResourceKind kind, uint32_t index, uint32_t generation, const void* object, std::string_view label,
              Ownership ownership, Serial last_used, bool destroyed) const;

  const gpu::Procs& procs_;
  std::unique_ptr<gpu::QueueClock> queue_clock_;
  const OnRelease& on_release_;
  PendingReleases pending_;
};

}  // namespace warden::resources::detail
