#include "warden/device/rebuild_policy.h"

#include <fmt/format.h>

#include "warden/core/enum_names.h"

namespace warden::device {
namespace {
size_t index_of(FaultKind kind) { return static_cast<size_t>(kind); }

const char* plural_noun(FaultKind kind) {
  switch (kind) {
    case FaultKind::Lost: return "device losses";
    case FaultKind::Hung: return "hangs";
    case FaultKind::FailedCreation: return "failed device creations";
    case FaultKind::Surface: return "surface failures";
  }
  return "faults";
}
}  // namespace

constexpr EnumName<FaultKind> kFaultKindNames[] = {
    {FaultKind::Lost, "lost"},
    {FaultKind::Hung, "hung"},
    {FaultKind::FailedCreation, "failed creation"},
    {FaultKind::Surface, "surface"},
};
const char* to_string(FaultKind kind) { return name_in(kFaultKindNames, kind); }

std::string describe(const GiveUp& give_up) {
  const auto window_s = std::chrono::duration_cast<std::chrono::seconds>(give_up.window).count();
  return fmt::format("{} {} within {} s{}", give_up.faults, plural_noun(give_up.kind), window_s,
                     give_up.last_detail.empty() ? std::string() : fmt::format(" (the last: {})", give_up.last_detail));
}

RebuildPolicy::RebuildPolicy(RebuildPolicyOptions options) : options_(std::move(options)) {}

bool RebuildPolicy::replacement_held(SteadyTime now) const {
  return has_ready_since_ && now - ready_since_ >= options_.hold;
}

RebuildVerdict RebuildPolicy::record_fault(FaultKind kind, std::string_view detail) {
  if (give_up_) {
    // Nothing is being submitted while the fallback has given up: a hang then says nothing
    // about a device, and must not buy another one.
    if (kind == FaultKind::Hung) {
      ++unscored_hangs_;
      return RebuildVerdict::NotScored;
    }
    return RebuildVerdict::GaveUp;
  }
  const SteadyTime now = options_.now();
  if (replacement_held(now)) {
    for (auto& faults : faults_) faults.clear();
  }
  has_ready_since_ = false;

  auto& faults = faults_[index_of(kind)];
  faults.push_back(now);
  while (!faults.empty() && now - faults.front() > options_.window) faults.pop_front();
  if (faults.size() < options_.faults_to_give_up) return RebuildVerdict::MayRebuild;

  give_up_ = GiveUp{kind, faults.size(), options_.window, std::string(detail)};
  return RebuildVerdict::GaveUp;
}

void RebuildPolicy::replacement_ready() {
  has_ready_since_ = true;
  ready_since_ = options_.now();
}

size_t RebuildPolicy::strikes(FaultKind kind) const {
  const SteadyTime now = options_.now();
  if (replacement_held(now)) return 0;
  size_t count = 0;
  for (SteadyTime t : faults_[index_of(kind)]) count += (now - t <= options_.window) ? 1 : 0;
  return count;
}

void RebuildPolicy::reset() {
  for (auto& faults : faults_) faults.clear();
  has_ready_since_ = false;
  give_up_.reset();
}

HangWatch::HangWatch(std::chrono::milliseconds limit, NowFunction now) : limit_(limit), now_(std::move(now)) {}

bool HangWatch::check(const SubmissionClock& clock) {
  if (clock.in_flight() == 0) {  // nothing outstanding: nothing can be late
    watching_ = false;
    reported_ = false;
    return false;
  }
  const SteadyTime now = now_();
  if (!watching_ || clock.retired() != watched_retired_) {  // progress (or a first look)
    watching_ = true;
    reported_ = false;
    watched_retired_ = clock.retired();
    since_ = now;
    return false;
  }
  if (reported_ || now - since_ <= limit_) return false;
  reported_ = true;
  return true;
}

}  // namespace warden::device
