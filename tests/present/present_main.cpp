// Most tests of this program open windows: one private Xvfb serves them all (tests/support/xvfb.h).
#include <gtest/gtest.h>

#include "support/xvfb.h"

namespace {
[[maybe_unused]] ::testing::Environment* const kXvfb =
    ::testing::AddGlobalTestEnvironment(new warden::testing::XvfbEnvironment);
}  // namespace
