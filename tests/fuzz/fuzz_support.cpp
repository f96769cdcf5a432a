#include "fuzz/fuzz_support.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "warden/core/messages.h"

namespace warden::fuzz {

std::string Bytes::text(size_t max) {
  const size_t length = std::min<size_t>(byte(), max);
  std::string out;
  while (out.size() < length && !empty()) out.push_back(static_cast<char>(byte()));
  return out;
}

std::string_view Bytes::rest() {
  std::string_view all(reinterpret_cast<const char*>(data_) + std::min(at_, size_), size_ - std::min(at_, size_));
  at_ = size_;
  return all;
}

void fail(std::string_view what) {
  std::fprintf(stderr, "warden fuzz: %.*s\n", static_cast<int>(what.size()), what.data());
  std::fflush(stderr);
  __builtin_trap();
}

void require_named(const Error& error, std::string_view call) {
  if (error.id != MessageId::Application) return;
  fail(std::string(call) + " returned an error without a message id of its own: " + error.message);
}

}  // namespace warden::fuzz
