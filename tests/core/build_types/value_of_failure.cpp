// Reads the value of a failed Result without checking it: the mistake that used to hand a
// garbage object on (NDEBUG) or stop on an assert with no words (without). Built twice, with
// NDEBUG and without; value_of_failure.sh checks that both stop with the error's words.
#include <cstdio>

#include "warden/core/result.h"

int main() {
#ifdef NDEBUG
  std::puts("built with NDEBUG");
#else
  std::puts("built without NDEBUG");
#endif
  std::fflush(stdout);
  warden::Result<int> missing = warden::make_error(warden::ErrorKind::NotFound, "no tile \"3/4/5\" in the cache");
  return *missing;
}
