// The main of every test program: GoogleTest's, plus the Dawn reference watch.
#include <gtest/gtest.h>

#include "support/reference_watch.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  warden::testing::watch_dawn_references();
  return RUN_ALL_TESTS();
}
