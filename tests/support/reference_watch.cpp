#include "support/reference_watch.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string_view>

namespace warden::testing {
namespace {

using gpu::Ledger;
using gpu::ReferenceCounts;

std::mutex g_mutex;
ReferenceCounts g_kept;      // held for the program on purpose
ReferenceCounts g_reported;  // already reported as some test's leftovers

ReferenceCounts kept() {
  std::lock_guard lock(g_mutex);
  return g_kept;
}

// The check runs after the fixture's TearDown: a device fixture has given its device back by then.
class ReferenceListener : public ::testing::EmptyTestEventListener {
 public:
  void OnTestStart(const ::testing::TestInfo&) override {
    at_start_ = Ledger::process().outstanding();
    kept_at_start_ = kept();
  }
  void OnTestEnd(const ::testing::TestInfo&) override {
    ReferenceCounts left = Ledger::process().outstanding() - at_start_ - (kept() - kept_at_start_);
    if (left.balanced()) return;
    {
      std::lock_guard lock(g_mutex);
      g_reported += left;
    }
    ADD_FAILURE() << leftover_message(left, "this test");
  }

 private:
  ReferenceCounts at_start_;
  ReferenceCounts kept_at_start_;
};

// What no single test took: suite set-up and tear-down, statics.
class ProgramReferenceCheck : public ::testing::Environment {
 public:
  void TearDown() override {
    ReferenceCounts left;
    {
      std::lock_guard lock(g_mutex);
      left = Ledger::process().outstanding() - g_kept - g_reported;
    }
    if (!left.balanced()) ADD_FAILURE() << leftover_message(left, "the test program, outside any single test,");
  }
};

}  // namespace

void watch_dawn_references() {
  ::setenv(gpu::kLedgerEnvVar, "1", /*overwrite=*/0);
  if (std::string_view(std::getenv(gpu::kLedgerEnvVar)) != "1") {
    std::fprintf(stderr, "%s=%s: Dawn references are not counted in this run\n", gpu::kLedgerEnvVar,
                 std::getenv(gpu::kLedgerEnvVar));
  }
  ::testing::UnitTest::GetInstance()->listeners().Append(new ReferenceListener());
  ::testing::AddGlobalTestEnvironment(new ProgramReferenceCheck());
}

void keep_for_program(const ReferenceCounts& counts) {
  std::lock_guard lock(g_mutex);
  g_kept += counts;
}

std::string leftover_message(const ReferenceCounts& left, const std::string& where) {
  if (left.balanced()) return {};
  return "Dawn references taken by " + where + " and never released: " + gpu::to_string(left) +
         " (the reference ledger counts every object created, fetched or AddRef'd through the "
         "proc table against its wgpu*Release; a negative count is a release too many)";
}

}  // namespace warden::testing
