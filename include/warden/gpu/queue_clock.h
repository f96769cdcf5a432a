/// @file
/// QueueClock: a SubmissionClock (core/submission_clock.h) driven by a Dawn queue.
#pragma once

#include <cstddef>
#include <memory>

#include "warden/core/submission_clock.h"
#include "warden/gpu/procs.h"

namespace warden::gpu {

/// The Dawn side of the clock: submits command buffers and registers an onSubmittedWorkDone
/// callback per submit that retires its serial. Retirement is learned only by poll(), which is
/// non-blocking (wgpuInstanceProcessEvents).
class QueueClock {
 public:
  /// A clock for `queue`; `instance` is polled for its callbacks. Holds no references of its own.
  QueueClock(const Procs& procs, WGPUInstance instance, WGPUQueue queue);
  ~QueueClock();
  QueueClock(const QueueClock&) = delete;
  QueueClock& operator=(const QueueClock&) = delete;

  /// Submits and returns the serial this submission received.
  Serial submit(const WGPUCommandBuffer* buffers, size_t count);
  /// Submits one command buffer.
  Serial submit(WGPUCommandBuffer buffer) { return submit(&buffer, 1); }
  /// A new device's queue (after a loss). Serials go on counting from where they were, and
  /// everything submitted before, and the submission being recorded (never submitted now),
  /// counts as complete: whoever holds this clock (a LayerPool, a Registry) keeps a valid
  /// reference and its recorded serials stay meaningful. Reports still due from the old queue
  /// are ignored.
  void rebind(WGPUQueue queue);
  /// Drains completed-work callbacks without waiting; returns the retired serial after it.
  Serial poll();

  /// Test seam: a queue that stops finishing work. From submission `first` on, the queue's
  /// reports of finished work are held back, so those submissions stay in flight (a hung GPU,
  /// as a watchdog sees it) until released, or until rebind() (a new device's queue).
  /// hold_reports_from(clock().recording()) holds the next submission and every one after it.
  void hold_reports_from(Serial first);
  /// Test seam: a slow queue catching up. The held submissions through `through` retire (now,
  /// or when their report arrives); those after it stay held.
  void release_held_reports(Serial through);

  /// The bookkeeping behind this clock.
  ///@{
  const SubmissionClock& clock() const;
  SubmissionClock& clock();
  ///@}

  struct Shared;  ///< outlives this object while callbacks are pending

 private:
  const Procs& procs_;
  WGPUInstance instance_;
  WGPUQueue queue_;
  std::shared_ptr<Shared> shared_;
};

}  // namespace warden::gpu
