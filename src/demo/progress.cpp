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

// stdio, not fmt::print: a failed write (a closed pipe, a full disk) must not throw out of the
// frame loop; it stays in the stream's error flag for whoever owns the stream.
void ProgressLine::write(const std::string& text) {
  (void)std::fwrite(text.data(), 1, text.size(), out_);
  (void)std::fflush(out_);
}

void ProgressLine::update(const ProgressSample& sample) {
  const std::string line = format_status(sample);
  if (mode_ == ProgressMode::LiveLine) {
    const size_t pad = last_width_ > line.size() ? last_width_ - line.size() : 0;
    write("\r" + line + std::string(pad, ' '));
    last_width_ = line.size();
  } else if (sample.frame % period_ == 0) {
    write(line + "\n");
  }
}

void ProgressLine::finish(const ProgressSample& sample) {
  if (mode_ == ProgressMode::LiveLine) {
    update(sample);
    write("\n");
  } else {
    write(format_status(sample) + "\n");
  }
}

}  // namespace warden::demo
