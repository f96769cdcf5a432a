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
  const std::string last =
      give_up.last_detail.empty() ? std::string() : fmt::format(" (the last: {})", give_up.last_detail);
  if (give_up.died_young) {
    return fmt::format("{} devices in a row were lost or hung within {} s of becoming ready{}", give_up.faults,
                       window_s, last);
  }
  return fmt::format("{} {} within {} s{}", give_up.faults, plural_noun(give_up.kind), window_s, last);
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
  // Judged on the device's whole life, before the hold forgives anything: one that held past
  // `hold` and still died within `young` is one more young death in a row.
  if ((kind == FaultKind::Lost || kind == FaultKind::Hung) && device_ready_at_) {
    young_deaths_ = now - *device_ready_at_ < options_.young ? young_deaths_ + 1 : 0;
    device_ready_at_.reset();
  }
  if (replacement_held(now)) {
    for (auto& faults : faults_) faults.clear();
  }
  has_ready_since_ = false;

  auto& faults = faults_[index_of(kind)];
  faults.push_back(now);
  while (!faults.empty() && now - faults.front() > options_.window) faults.pop_front();
  if (faults.size() >= options_.faults_to_give_up) {
    give_up_ = GiveUp{kind, faults.size(), options_.window, std::string(detail)};
    return RebuildVerdict::GaveUp;
  }
  if (options_.young_deaths_to_give_up > 0 && young_deaths_ >= options_.young_deaths_to_give_up) {
    give_up_ = GiveUp{kind, young_deaths_, options_.young, std::string(detail), true};
    return RebuildVerdict::GaveUp;
  }
  return RebuildVerdict::MayRebuild;
}

void RebuildPolicy::replacement_ready() {
  has_ready_since_ = true;
  ready_since_ = options_.now();
  device_ready_at_ = ready_since_;
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
  device_ready_at_.reset();
  young_deaths_ = 0;
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
