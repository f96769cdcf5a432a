#include "warden/core/diagnostics.h"

#include <algorithm>
#include <utility>

#include "warden/core/enum_names.h"

namespace warden {

constexpr EnumName<Severity> kSeverityNames[] = {
    {Severity::Info, "info"},
    {Severity::Warning, "warning"},
    {Severity::Error, "error"},
};
const char* to_string(Severity severity) { return name_in(kSeverityNames, severity); }

void Diagnostics::report(Severity severity, MessageId id, std::string message) {
  Diagnostic entry{severity, std::string(category_of(id)), id, std::move(message)};
  Sink sink;
  {
    std::lock_guard lock(mutex_);
    if (capacity_ == 0) {
      ++dropped_;
    } else {
      if (entries_.size() < capacity_) {
        entries_.push_back(entry);
      } else {
        // Full: the newest takes the oldest's place, and the next one is the oldest now.
        entries_[oldest_] = entry;
        oldest_ = (oldest_ + 1) % capacity_;
        ++dropped_;
      }
    }
    sink = sink_;
  }
  // Outside the lock: a sink may report again or read the store.
  if (sink) sink(entry);
}

std::vector<Diagnostic> Diagnostics::entries() const {
  std::lock_guard lock(mutex_);
  const auto oldest = entries_.begin() + static_cast<std::ptrdiff_t>(oldest_);
  std::vector<Diagnostic> in_order(oldest, entries_.end());
  in_order.insert(in_order.end(), entries_.begin(), oldest);
  return in_order;
}

std::vector<Diagnostic> Diagnostics::take() {
  std::lock_guard lock(mutex_);
  std::rotate(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(oldest_), entries_.end());
  oldest_ = 0;
  return std::exchange(entries_, {});
}

template <typename Match>
size_t Diagnostics::count_where(Match match) const {
  std::lock_guard lock(mutex_);
  return static_cast<size_t>(std::count_if(entries_.begin(), entries_.end(), match));
}

size_t Diagnostics::count(std::string_view category) const {
  return count_where([&](const Diagnostic& d) { return d.category == category; });
}

size_t Diagnostics::count(std::string_view category, Severity severity) const {
  return count_where([&](const Diagnostic& d) { return d.category == category && d.severity == severity; });
}

size_t Diagnostics::count(MessageId id) const {
  return count_where([&](const Diagnostic& d) { return d.id == id; });
}

uint64_t Diagnostics::dropped() const {
  std::lock_guard lock(mutex_);
  return dropped_;
}

void Diagnostics::set_sink(Sink sink) {
  std::lock_guard lock(mutex_);
  sink_ = std::move(sink);
}

}  // namespace warden
