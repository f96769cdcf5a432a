#include "warden/demo/progress.h"

#include <fmt/format.h>
#include <unistd.h>

namespace warden::demo {

std::string format_status(const ProgressSample& s) {
  constexpr double kMiB = 1024.0 * 1024.0;
  return fmt::format("frame {} | {:.1f} fps | tiles {} | VRAM {:.1f}/{:.1f} MiB | losses {} | reloads {}", s.frame, s.fps,
                     s.tiles_resident, static_cast<double>(s.vram_bytes) / kMiB,
                     static_cast<double>(s.vram_budget_bytes) / kMiB, s.losses, s.reloads);
}

ProgressMode progress_mode_for(int fd) { return isatty(fd) == 1 ? ProgressMode::LiveLine : ProgressMode::PeriodicLines; }

ProgressLine::ProgressLine(std::FILE* out, ProgressMode mode, uint64_t period_frames)
    : out_(out), mode_(mode), period_(period_frames == 0 ? 1 : period_frames) {}

void ProgressLine::update(const ProgressSample& sample) {
  const std::string line = format_status(sample);
  if (mode_ == ProgressMode::LiveLine) {
    const size_t pad = last_width_ > line.size() ? last_width_ - line.size() : 0;
    fmt::print(out_, "\r{}{:{}}", line, "", pad);
    last_width_ = line.size();
  } else if (sample.frame % period_ == 0) {
    fmt::print(out_, "{}\n", line);
  }
  std::fflush(out_);
}

void ProgressLine::finish(const ProgressSample& sample) {
  if (mode_ == ProgressMode::LiveLine) {
    update(sample);
    fmt::print(out_, "\n");
  } else {
    fmt::print(out_, "{}\n", format_status(sample));
  }
  std::fflush(out_);
}

}  // namespace warden::demo
