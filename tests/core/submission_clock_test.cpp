#include "warden/core/submission_clock.h"

#include <gtest/gtest.h>

namespace warden {
namespace {

TEST(SubmissionClock, RecordingIsOnePastLastSubmitted) {
  SubmissionClock clock;
  EXPECT_EQ(clock.recording(), Serial{1});
  EXPECT_TRUE(clock.is_retired(Serial{0}));
  EXPECT_EQ(clock.on_submitted(), Serial{1});
  EXPECT_EQ(clock.recording(), Serial{2});
  EXPECT_FALSE(clock.is_retired(Serial{1}));
  EXPECT_EQ(clock.in_flight(), 1u);
}

TEST(SubmissionClock, RetirementNeverMovesBackwardsOrPastSubmitted) {
  SubmissionClock clock;
  clock.on_submitted();
  clock.on_submitted();
  clock.retire_through(Serial{2});
  clock.retire_through(Serial{1});
  EXPECT_EQ(clock.retired(), Serial{2});
  clock.retire_through(Serial{9});
  EXPECT_EQ(clock.retired(), Serial{2});
}

TEST(SubmissionClock, AssumeAllCompleteRetiresEverythingSubmitted) {
  SubmissionClock clock;
  for (int i = 0; i < 5; ++i) clock.on_submitted();
  clock.assume_all_complete();
  EXPECT_EQ(clock.in_flight(), 0u);
  EXPECT_FALSE(clock.is_retired(clock.recording()));
}

}  // namespace
}  // namespace warden
