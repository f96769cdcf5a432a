// Result's const calls from several threads at once (docs/threads.md: any thread). Also run
// under ThreadSanitizer (`make test-tsan`).
#include "warden/core/result.h"

#include <gtest/gtest.h>

#include <atomic>
#include <barrier>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace warden {
namespace {

std::atomic<int> g_builds{0};

// Slow on purpose: readers that start together are all inside their first read while it runs.
Error build_slowly(const ErrorSource&, uint64_t payload) {
  g_builds.fetch_add(1);
  std::this_thread::sleep_for(std::chrono::microseconds(200));
  return Error{ErrorKind::StaleHandle, MessageId::Application, "payload " + std::to_string(payload), std::nullopt};
}
constexpr ErrorSource kSlowSource{&build_slowly, 0, 0};

// One deferred failure read by three threads at once, a fresh one each round: each reads ok(),
// error() and a copy's error(). Its Error is built once, every reader gets that one object, and
// the words are the payload's. (The first read used to build the Error into the Result's own
// error word: readers that started together each built one, and one could take the other's
// Error for a source and call through it.)
TEST(ResultThreads, ADeferredFailureReadOnSeveralThreadsAtOnceIsBuiltOnceAndReadAlike) {
  constexpr int kReaders = 3;
  constexpr int kRounds = 200;
  std::barrier sync(kReaders + 1);
  const Result<const int*>* shared = nullptr;  // written between rounds, behind the barrier
  std::vector<const Error*> seen(kReaders);
  std::vector<std::string> words(kReaders);
  std::vector<std::string> copy_words(kReaders);
  std::atomic<int> still_ok{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < kReaders; ++r) {
    readers.emplace_back([&, r] {
      for (int round = 0; round < kRounds; ++round) {
        sync.arrive_and_wait();  // the round's Result is made
        const Result<const int*>& result = *shared;
        if (result.ok()) still_ok.fetch_add(1);
        seen[r] = &result.error();
        words[r] = result.error().message;
        const Result<const int*> copy = result;
        copy_words[r] = copy.error().message;
        sync.arrive_and_wait();  // read: the Result may go
      }
    });
  }
  int rounds_built_more_than_once = 0;
  int rounds_read_apart = 0;
  for (int round = 0; round < kRounds; ++round) {
    g_builds = 0;
    const Result<const int*> failed(kSlowSource, static_cast<uint64_t>(round));
    shared = &failed;
    sync.arrive_and_wait();
    sync.arrive_and_wait();
    const std::string want = "payload " + std::to_string(round);
    // The readers' copies build their own, one each.
    if (g_builds.load() != 1 + kReaders) ++rounds_built_more_than_once;
    for (int r = 0; r < kReaders; ++r) {
      if (seen[r] != &failed.error() || words[r] != want || copy_words[r] != want) ++rounds_read_apart;
    }
  }
  for (std::thread& t : readers) t.join();
  EXPECT_EQ(still_ok.load(), 0);
  EXPECT_EQ(rounds_built_more_than_once, 0) << "of " << kRounds << " rounds";
  EXPECT_EQ(rounds_read_apart, 0) << "of " << kRounds * kReaders << " reads";
}

}  // namespace
}  // namespace warden
