#include "warden/gpu/ledger.h"

#include <cstdlib>

#include <fmt/format.h>

namespace warden::gpu {

const char* to_string(ObjectType type) {
  switch (type) {
#define WARDEN_GPU_OBJECT_TYPE_NAME(Name) \
  case ObjectType::Name: return #Name;
    WARDEN_GPU_OBJECT_TYPES(WARDEN_GPU_OBJECT_TYPE_NAME)
#undef WARDEN_GPU_OBJECT_TYPE_NAME
  }
  return "unknown object type";
}

bool ReferenceCounts::balanced() const {
  for (int64_t n : by_type) {
    if (n != 0) return false;
  }
  return true;
}

ReferenceCounts& ReferenceCounts::operator+=(const ReferenceCounts& other) {
  for (size_t i = 0; i < kObjectTypeCount; ++i) by_type[i] += other.by_type[i];
  return *this;
}

ReferenceCounts operator-(const ReferenceCounts& a, const ReferenceCounts& b) {
  ReferenceCounts d;
  for (size_t i = 0; i < kObjectTypeCount; ++i) d.by_type[i] = a.by_type[i] - b.by_type[i];
  return d;
}

std::string to_string(const ReferenceCounts& counts) {
  std::string text;
  for (size_t i = 0; i < kObjectTypeCount; ++i) {
    if (counts.by_type[i] == 0) continue;
    if (!text.empty()) text += ", ";
    text += fmt::format("{} {}", to_string(static_cast<ObjectType>(i)), counts.by_type[i]);
  }
  return text.empty() ? "none" : text;
}

std::optional<bool> ledger_enabled(LedgerMode mode, std::string* why) {
  if (mode == LedgerMode::On) return true;
  if (mode == LedgerMode::Off) return false;
  const char* value = std::getenv(kLedgerEnvVar);
  if (value == nullptr || *value == '\0') {
#ifdef NDEBUG
    return false;
#else
    return true;  // debug builds count by default: a leak is cheapest to find where it is made
#endif
  }
  std::string_view v(value);
  if (v == "1") return true;
  if (v == "0") return false;
  *why = fmt::format("{}='{}' is not understood: set it to 1 to count Dawn references or 0 not to",
                     kLedgerEnvVar, v);
  return std::nullopt;
}

Ledger& Ledger::process() {
  // Never destroyed: Dawn may deliver a callback (and so count) during exit-time teardown.
  static Ledger* ledger = new Ledger();
  return *ledger;
}

ReferenceCounts Ledger::outstanding() const {
  ReferenceCounts counts;
  for (size_t i = 0; i < kObjectTypeCount; ++i) {
    counts.by_type[i] = outstanding_[i].load(std::memory_order_relaxed);
  }
  return counts;
}

std::string Ledger::report() const {
  return "Dawn references outstanding: " + to_string(outstanding());
}

}  // namespace warden::gpu
