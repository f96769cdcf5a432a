#include "warden/gpu/queue_clock.h"

#include <algorithm>
#include <mutex>

#include "warden/gpu/callback.h"

namespace warden::gpu {

struct QueueClock::Shared {
  SubmissionClock clock;
  // Reports arrive on whichever thread processes the instance's events (the frame thread's
  // poll, or a loading thread settling an error scope); rebind and the seam run on the frame
  // thread. The epoch and the held reports are read and written under this.
  std::mutex reports;
  // Bumped by rebind(): a ticket of an earlier queue finds a different epoch and does nothing,
  // so a late report from a lost device never retires the new device's work.
  uint64_t epoch = 0;
  // The test seam (hold_reports_from): reports of `held_from` and later are kept back, the
  // newest of them in `held_through`. Serial{0}: nothing is held.
  Serial held_from{};
  Serial held_through{};

  void retire_through(Serial serial) {
    if (held_from != Serial{} && serial >= held_from) {
      held_through = std::max(held_through, serial);
      return;
    }
    clock.retire_through(serial);
  }
};

QueueClock::QueueClock(const Procs& procs, WGPUInstance instance, WGPUQueue queue)
    : procs_(procs), instance_(instance), queue_(queue), shared_(std::make_shared<Shared>()) {}

QueueClock::~QueueClock() = default;

const SubmissionClock& QueueClock::clock() const { return shared_->clock; }
SubmissionClock& QueueClock::clock() { return shared_->clock; }

Serial QueueClock::submit(const WGPUCommandBuffer* buffers, size_t count) {
  procs_.QueueSubmit(queue_, count, buffers);
  Serial serial = shared_->clock.on_submitted();
  // One report per submit: done, or cancelled at instance shutdown. A report whose clock is gone,
  // or from before rebind(), does nothing.
  const uint64_t epoch = [&] {
    std::lock_guard lock(shared_->reports);
    return shared_->epoch;
  }();
  auto on_done = [weak = std::weak_ptr<Shared>(shared_), serial, epoch](WGPUQueueWorkDoneStatus status,
                                                                                          WGPUStringView) {
    auto shared = weak.lock();
    if (!shared) return;
    std::lock_guard lock(shared->reports);
    if (shared->epoch != epoch) return;
    // Success retires the serial. An error or cancellation means the device is gone: no work
    // of this queue can still run, so everything submitted counts as complete.
    if (status == WGPUQueueWorkDoneStatus_Success) {
      shared->retire_through(serial);
    } else {
      shared->clock.assume_all_complete();
    }
  };
  procs_.QueueOnSubmittedWorkDone(queue_, once_callback<WGPUQueueWorkDoneCallbackInfo>(WGPUCallbackMode_AllowProcessEvents,
                                                                                   std::move(on_done)));
  return serial;
}

void QueueClock::rebind(WGPUQueue queue) {
  queue_ = queue;
  std::lock_guard lock(shared_->reports);
  ++shared_->epoch;
  // A new device's queue is not the one that stopped finishing work.
  shared_->held_from = Serial{};
  shared_->held_through = Serial{};
  // The submission being recorded on the lost device never happens: its serial is spent, so
  // whatever was touched for it (a LayerPool's layers) counts as retired, not as waiting for
  // the new device's first submission.
  shared_->clock.on_submitted();
  shared_->clock.assume_all_complete();
}

void QueueClock::hold_reports_from(Serial first) {
  std::lock_guard lock(shared_->reports);
  shared_->held_from = first;
}

void QueueClock::release_held_reports(Serial through) {
  Shared& shared = *shared_;
  std::lock_guard lock(shared.reports);
  if (shared.held_from == Serial{} || through < shared.held_from) return;
  shared.clock.retire_through(std::min(through, shared.held_through));
  shared.held_from = through.next();  // a report through `through` still to come retires as it arrives
}

Serial QueueClock::poll() {
  procs_.InstanceProcessEvents(instance_);
  return shared_->clock.retired();
}

}  // namespace warden::gpu
