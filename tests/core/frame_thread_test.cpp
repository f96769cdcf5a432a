#include "warden/core/frame_thread.h"

#include <gtest/gtest.h>

#include <thread>

namespace warden {
namespace {

// warden's tests are built with WARDEN_THREAD_CHECKS (CMakeLists.txt): every test of the thread
// contract below relies on it, so a build that lost it fails here, by name.
TEST(FrameThread, TheTestBuildChecksThreads) { EXPECT_TRUE(thread_checks_enabled()); }

TEST(FrameThread, TheMakingThreadMayCallAndAnotherIsRefusedNamingTheCall) {
  FrameThread frame;
  EXPECT_TRUE(frame.is_current());
  EXPECT_FALSE(frame.check("registry", "submit").has_value());
  std::optional<Error> refused;
  bool current = true;
  std::thread([&] {
    current = frame.is_current();
    refused = frame.check("registry", "submit");
  }).join();
  EXPECT_FALSE(current);
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->id, MessageId::WrongThread);
  EXPECT_EQ(refused->kind, ErrorKind::Refused);
  EXPECT_NE(refused->message.find("registry: submit is a frame-thread call, made from thread "), std::string::npos)
      << refused->message;
}

TEST(FrameThread, AdoptingHandsTheRoleToTheCallingThread) {
  FrameThread frame;
  std::optional<Error> on_adopter;
  std::thread([&] {
    frame.adopt_current();
    on_adopter = frame.check("engine", "poll");
  }).join();
  EXPECT_FALSE(on_adopter.has_value());
  // The adopter has ended; the thread that made the object is no longer the frame thread.
  EXPECT_FALSE(frame.is_current());
  EXPECT_TRUE(frame.check("engine", "poll").has_value());
}

}  // namespace
}  // namespace warden
