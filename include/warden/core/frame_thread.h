/// @file
/// FrameThread: which thread may make the calls that belong to one thread, and the check that
/// names a call made from another (docs/threads.md, docs/adr/0041).
///
/// The thread contract of warden's objects, written here once:
///
/// - **Any thread, at once:** Registry::resolve (lock-free, wait-free), is_alive; every other
///   Registry call not listed below: create_*, destroy_*, adopt_*, replace_*, recreate_*,
///   write_buffer, write_texture, touch, label, slot_state, require_usage, live_counts (they
///   take the registry's lock); the Engine's calls that forward to them.
/// - **The frame thread only:** Registry::submit, poll, assume_all_complete, on_device_lost,
///   rebuild, prepare_rebuild, discard_prepared, shutdown; Engine::begin_frame, submit, poll,
///   force_device_loss, add_observer, remove_observer, stop, retry, and the TileLayer's frame
///   calls (begin_frame, request, dispatch, deliver, draw). warden's own callbacks
///   (device lost and ready, refills, hang reports, rebuild hooks) run on the frame thread, inside
///   those calls.
/// - **What a resolved object is good for:** an object resolve() returned stays valid until the
///   frame thread's next poll(), begin_frame() or submit() on that registry: record with it on
///   any thread inside the frame it was resolved for (a loss, a destroy's release, a rebuild all
///   happen inside frame-thread calls; a loss the engine forces lets go at the next of them). Touch it from the recording thread so its release waits
///   for the submission that uses it.
/// - A device that takes calls on one thread (Dawn's GL and GLES keep their context on the
///   thread that made the device): there a create_* from another thread registers the object
///   Waiting and the frame thread's next poll() or submit() makes it; its writes are copied and
///   written then, in call order; recreate_*, rerecord_render_bundle and a buffer mapped at
///   creation are refused from another thread with core.WrongThread. Recording on other
///   threads is unaffected (Dawn records in memory).
/// - Creation during a device loss: a create_* made while the device is lost registers the
///   object Lost under a new handle and the rebuild makes it on the next device; one made while
///   a rebuild runs waits for the registry's lock and is made on the new device. Once the device
///   is back every live handle resolves to an object of the current device.
///
/// The frame thread is the thread that made the object (a Registry, an Engine), until
/// adopt_current() hands the role to the calling thread. The check runs where warden was built
/// with WARDEN_THREAD_CHECKS (debug and test builds; the CMake option of that name): a call from
/// another thread is refused with core.WrongThread, naming the call and both threads. In a build
/// without it the check is a constant `true` and costs nothing.
#pragma once

#include <atomic>
#include <optional>
#include <string_view>
#include <thread>

#include "warden/core/result.h"

namespace warden {

/// Whether this build of warden checks which thread makes frame-thread calls.
bool thread_checks_enabled();

/// The one thread that may make an object's frame-thread calls (see the file comment).
class FrameThread {
 public:
  /// The calling thread holds the role.
  FrameThread() : id_(std::this_thread::get_id()) {}
  FrameThread(const FrameThread&) = delete;
  FrameThread& operator=(const FrameThread&) = delete;

  /// Hands the role to the calling thread (an application that made the object on one thread
  /// and runs its frames on another). The caller makes sure no frame-thread call runs meanwhile.
  void adopt_current() { id_.store(std::this_thread::get_id(), std::memory_order_release); }
  /// Whether the calling thread holds the role.
  bool is_current() const { return id_.load(std::memory_order_acquire) == std::this_thread::get_id(); }

  /// Nothing when the calling thread may make `call` of `owner` (or this build does not check);
  /// otherwise core.WrongThread: "<owner>: <call> is a frame-thread call, made from thread X;
  /// the frame thread is Y".
  std::optional<Error> check(std::string_view owner, std::string_view call) const;

 private:
  std::atomic<std::thread::id> id_;
};

}  // namespace warden
