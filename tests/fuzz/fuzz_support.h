// What every fuzz target shares: reading operations out of the fuzzer's bytes, stopping the run
// on a broken rule, and the rule every error keeps (docs/fuzzing.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "warden/core/result.h"

namespace warden::fuzz {

// The fuzzer's bytes as a stream of choices; an exhausted stream reads zeros, so every input
// is a complete run.
class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool empty() const { return at_ >= size_; }
  uint8_t byte() { return empty() ? 0 : data_[at_++]; }
  uint32_t u32() {
    uint32_t value = 0;
    for (int i = 0; i < 4; ++i) value = (value << 8) | byte();
    return value;
  }
  uint64_t u64() { return (uint64_t{u32()} << 32) | u32(); }
  // 0 .. n-1; n must be > 0.
  uint32_t below(uint32_t n) { return (n <= 256 ? byte() : u32()) % n; }
  bool coin() { return (byte() & 1) != 0; }
  // Up to `max` bytes, as many as the next byte says.
  std::string text(size_t max);
  // Everything not read yet.
  std::string_view rest();

 private:
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
};

// Prints `what` and stops the process the way a sanitizer does, so libFuzzer saves the input.
[[noreturn]] void fail(std::string_view what);
// fail() unless `holds`.
inline void require(bool holds, std::string_view what) {
  if (!holds) fail(what);
}
// Every error warden returns names its message: an id of its own, never core.Application
// (which is the id of errors the application made).
void require_named(const Error& error, std::string_view call);

}  // namespace warden::fuzz
