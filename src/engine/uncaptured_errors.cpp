#include "engine/uncaptured_errors.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include <fmt/format.h>

#include "warden/gpu/names.h"

namespace warden::engine {

std::string describe_origin(const UncapturedError& error) {
  const char* type = gpu::to_string(error.type);
  if (error.frame == 0) return fmt::format("uncaptured {} error outside a frame", type);
  if (error.frame_label.empty()) return fmt::format("uncaptured {} error in frame {}", type, error.frame);
  return fmt::format("uncaptured {} error in frame {} \"{}\"", type, error.frame, error.frame_label);
}

namespace detail {

namespace {

// Dawn's words run over several lines (the error, then "- While ..." context): a count line
// repeats only the first.
std::string_view first_line(std::string_view message) { return message.substr(0, message.find('\n')); }

// The largest power of ten not above n (0 for 0).
uint64_t power_of_ten_at_most(uint64_t n) {
  uint64_t p = n == 0 ? 0 : 1;
  while (p != 0 && p <= n / 10) p *= 10;
  return p;
}

}  // namespace

void UncapturedErrors::frame_begun(uint64_t number, std::string_view label) {
  std::lock_guard lock(mutex_);
  begun_ = number;
  begun_label_.assign(label);
}

UncapturedError UncapturedErrors::report(WGPUErrorType type, std::string_view message, uint64_t open_frame) {
  std::lock_guard lock(mutex_);
  UncapturedError error{.type = type, .message = std::string(message), .frame = open_frame};
  if (open_frame != 0 && open_frame == begun_) error.frame_label = begun_label_;
  // A frame that repeats one bad command, or a loop of bad calls, is one error with a count.
  auto same = std::find_if(waiting_.begin(), waiting_.end(), [&](const UncapturedError& w) {
    return w.frame == error.frame && w.type == error.type && w.message == error.message;
  });
  if (same != waiting_.end()) {
    ++same->count;
  } else if (waiting_.size() < kWaitingBound) {
    waiting_.push_back(error);
  } else {
    ++not_told_;
  }
  return error;
}

UncapturedErrors::Taken UncapturedErrors::take() {
  std::lock_guard lock(mutex_);
  return Taken{.errors = std::exchange(waiting_, {}), .not_told = std::exchange(not_told_, 0)};
}

void UncapturedErrors::print(const UncapturedError& error) {
  auto seen = std::find_if(printed_.begin(), printed_.end(), [&](const Printed& p) {
    return p.type == error.type && p.message == error.message;
  });
  if (seen == printed_.end()) {
    if (printed_.size() >= kPrintedBound) {
      if (unprinted_ == 0) {
        std::fprintf(stderr,
                     "warden: more than %zu distinct uncaptured errors; new ones are counted "
                     "(Engine::counters().uncaptured_errors), not printed\n",
                     kPrintedBound);
      }
      unprinted_ += error.count;
      return;
    }
    // Dawn's words end with a line break of their own.
    std::string_view words = error.message;
    while (!words.empty() && (words.back() == '\n' || words.back() == ' ')) words.remove_suffix(1);
    std::fprintf(stderr, "warden: %s: %.*s\n", describe_origin(error).c_str(), static_cast<int>(words.size()),
                 words.data());
    if (!explained_) {
      explained_ = true;
      std::fprintf(stderr,
                   "warden: each distinct uncaptured error is printed once, then counted; "
                   "EngineCallbacks::on_uncaptured_error takes them instead\n");
    }
    printed_.push_back(Printed{.type = error.type, .message = error.message, .count = 0});
    seen = std::prev(printed_.end());
  }
  // Its repeats are printed as a count when they pass 10, 100, 1,000, ...: a frame refused on
  // every frame is a few lines, never one a frame.
  const uint64_t repeats_before = seen->count == 0 ? 0 : seen->count - 1;
  seen->count += error.count;
  seen->last_frame = error.frame;
  const uint64_t repeats = seen->count - 1;
  const uint64_t passed = power_of_ten_at_most(repeats);
  if (passed >= 10 && passed > repeats_before) print_count(*seen);
}

void UncapturedErrors::print_repeats() {
  for (Printed& p : printed_) {
    if (p.count > 1 && p.count - 1 > p.repeats_told) print_count(p);
  }
  if (unprinted_ > 0) {
    std::fprintf(stderr, "warden: %llu more uncaptured error(s), of words beyond the first %zu, counted, not printed\n",
                 static_cast<unsigned long long>(unprinted_), kPrintedBound);
  }
}

void UncapturedErrors::print_count(Printed& printed) {
  printed.repeats_told = printed.count - 1;
  const std::string where = printed.last_frame == 0 ? std::string("last outside a frame")
                                                    : fmt::format("last in frame {}", printed.last_frame);
  std::fprintf(stderr, "warden: uncaptured %s error (repeated %llu times, %s): %.*s\n", gpu::to_string(printed.type),
               static_cast<unsigned long long>(printed.repeats_told), where.c_str(),
               static_cast<int>(first_line(printed.message).size()), first_line(printed.message).data());
}

}  // namespace detail
}  // namespace warden::engine
