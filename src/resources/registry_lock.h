// RegistryLock: the lock every Registry call but resolve() runs under (docs/threads.md,
// docs/adr/0041). Recursive: a call may re-enter the registry on its own thread (a record or
// refill callback, a diagnostics sink, a release hook). A waiter spins for about 2 us before it
// sleeps: the registry's calls hold the lock for a few hundred ns, and a waiter put to sleep
// costs the thread that lets go a wake-up call on every unlock while loading threads create.
// Past the spin a waiter sleeps on the lock word (a futex on Linux).
//
// Bounded bypass: an unlock frees the word and any thread may take it, so a thread that gives
// the lock back and takes it again at once (a loading thread recreating in a loop) can pass a
// woken sleeper over and over: under ThreadSanitizer one such thread let a writer and the frame
// thread in twice in 500 ms. A sleeper passed over kPassesBeforeHandOff times says so
// (starving_), and the next unlock hands the lock over instead of freeing it (kHandOff): only a
// thread that has slept may take it then, so the taker that barged waits its turn. Uncontended,
// the unlock reads one more word; the hand-off's cost (the giver's next take waits until the
// woken thread runs) is paid only by a waiter that was already passed over.
//
// Its own rather than std::recursive_mutex: a churn of creations and destroys takes it twice a
// buffer, and the pthread recursive lock spends about 40 instructions more a take and give (type
// dispatch, owner and count bookkeeping, a second atomic in the unlock) against this one's
// compare-and-swap and exchange (callgrind, docs/PERFORMANCE.md).
#pragma once

#include <pthread.h>
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <atomic>
#include <cstdint>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace warden::resources {

class RegistryLock {
 public:
  RegistryLock() = default;
  RegistryLock(const RegistryLock&) = delete;
  RegistryLock& operator=(const RegistryLock&) = delete;

  void lock() {
    const uintptr_t self = this_thread();
    if (owner_.load(std::memory_order_relaxed) == self) {
      ++depth_;
      return;
    }
    if (!take()) wait_and_take();
    own(self);
  }
  bool try_lock() {
    const uintptr_t self = this_thread();
    if (owner_.load(std::memory_order_relaxed) == self) {
      ++depth_;
      return true;
    }
    if (!take()) return false;
    own(self);
    return true;
  }
  void unlock() {
    if (--depth_ > 0) return;
    owner_.store(0, std::memory_order_relaxed);
    if (starving_.load(std::memory_order_relaxed) != 0) [[unlikely]] return hand_off();
    if (state_.exchange(kFree, std::memory_order_release) == kContended) wake_one();
  }

  static constexpr uint64_t kSpinTicks = 6000;  // ~2 us at the 3 GHz of a time-stamp counter
  static constexpr int kSpins = 200;            // elsewhere, tries without a pause between
  static constexpr uint32_t kPassesBeforeHandOff = 2;  // wake-ups that found it taken

  /// The most times one waiter was woken to find the lock taken again before it got it: the
  /// bypass the hand-off bounds (kPassesBeforeHandOff, plus the unlocks already under way when
  /// the waiter said it starves). For tests and measurements.
  uint32_t most_passed_over() const { return most_passed_over_.load(std::memory_order_relaxed); }

 private:
  // kContended: a waiter may sleep. kHandOff: given back, for a thread that has slept to take.
  enum : uint32_t { kFree = 0, kHeld = 1, kContended = 2, kHandOff = 3 };

  // Only the owner ever reads its own tag back, so a relaxed load that sees another thread's
  // tag, or a stale zero, is never mistaken for ownership.
  static uintptr_t this_thread() { return static_cast<uintptr_t>(pthread_self()); }
  void own(uintptr_t self) {
    owner_.store(self, std::memory_order_relaxed);
    depth_ = 1;
  }
  bool take() {
    uint32_t expected = kFree;
    return state_.compare_exchange_strong(expected, kHeld, std::memory_order_acquire, std::memory_order_relaxed);
  }
  // Bounded by the time-stamp counter, not by a count of pauses: a pause is a few dozen cycles
  // on AMD cores and about 140 on recent Intel ones, where 200 of them spun for about 10 us.
  void wait_and_take() {
#if defined(__x86_64__) || defined(__i386__)
    const uint64_t until = __rdtsc() + kSpinTicks;
    do {
      __builtin_ia32_pause();
      if (state_.load(std::memory_order_relaxed) == kFree && take()) return;
    } while (__rdtsc() < until);
#else
    for (int spin = 0; spin < kSpins; ++spin) {
      if (state_.load(std::memory_order_relaxed) == kFree && take()) return;
    }
#endif
    // Asleep until an unlock that finds kContended wakes one waiter. A thread that takes the
    // lock here leaves it kContended, so its own unlock wakes the next sleeper, if any.
    uint32_t passes = 0;  // wake-ups that found the lock taken
    bool starving = false;
    for (;;) {
      uint32_t seen = state_.load(std::memory_order_relaxed);
      if (seen == kFree || (seen == kHandOff && passes > 0)) {
        if (state_.compare_exchange_weak(seen, kContended, std::memory_order_acquire, std::memory_order_relaxed)) break;
        continue;
      }
      if (seen == kHeld) {
        if (!state_.compare_exchange_weak(seen, kContended, std::memory_order_relaxed, std::memory_order_relaxed)) continue;
        seen = kContended;
      }
      sleep_while(seen);  // kContended, or a hand-off meant for a thread that has slept
      if (++passes == kPassesBeforeHandOff) {
        starving_.fetch_add(1, std::memory_order_relaxed);
        starving = true;
      }
    }
    if (starving) starving_.fetch_sub(1, std::memory_order_relaxed);
    const uint32_t passed_over = passes > 0 ? passes - 1 : 0;  // the last wake-up found it free
    uint32_t most = most_passed_over_.load(std::memory_order_relaxed);
    while (passed_over > most && !most_passed_over_.compare_exchange_weak(most, passed_over, std::memory_order_relaxed)) {
    }
  }
  [[gnu::noinline]] void hand_off() {
    state_.store(kHandOff, std::memory_order_release);
    wake_one();
  }
  // The futex itself where there is one: std::atomic::wait spins and yields on its own first (a
  // dozen pauses and four sched_yield calls in libstdc++), after this lock's own spin. With four
  // loading threads on the H200 host, registry_churn_vs_raw_threads_4 was 0.53-0.58 through it,
  // 0.76-0.97 on the futex, 0.65-0.90 with the pthread recursive lock (four rounds each).
#if defined(__linux__)
  void sleep_while(uint32_t seen) {
    syscall(SYS_futex, reinterpret_cast<uint32_t*>(&state_), FUTEX_WAIT_PRIVATE, seen, nullptr, nullptr, 0);
  }
  void wake_one() { syscall(SYS_futex, reinterpret_cast<uint32_t*>(&state_), FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0); }
#else
  void sleep_while(uint32_t seen) { state_.wait(seen, std::memory_order_relaxed); }
  void wake_one() { state_.notify_one(); }
#endif

  static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t), "the futex is the lock word itself");
  std::atomic<uint32_t> state_{kFree};
  std::atomic<uint32_t> starving_{0};          // waiters passed over kPassesBeforeHandOff times
  std::atomic<uint32_t> most_passed_over_{0};  // see most_passed_over()
  std::atomic<uintptr_t> owner_{0};  // pthread_self() of the holder; 0 when free
  uint32_t depth_ = 0;               // the holder's nested takes; only the holder touches it
};

}  // namespace warden::resources
