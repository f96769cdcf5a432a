// ProgressLine: the demo's status while it runs. On a terminal one line rewritten in place
// (carriage return, no newline); anywhere else (a pipe, a CI log) a plain line every
// `period_frames` frames, so logs stay readable and small.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace warden::demo {

/// What the progress line shows for one frame.
struct ProgressSample {
  /// The frame number.
  uint64_t frame = 0;
  /// Frames per second lately.
  double fps = 0;
  /// Tiles holding a layer.
  uint64_t tiles_resident = 0;
  /// Resident tile bytes and the budget.
  ///@{
  uint64_t vram_bytes = 0, vram_budget_bytes = 0;
  ///@}
  /// Device losses and shader reloads so far.
  ///@{
  uint64_t losses = 0, reloads = 0;
  ///@}
};

/// "frame 120 | 59.8 fps | tiles 42 | VRAM 10.5/64.0 MiB | losses 1 | reloads 0"
std::string format_status(const ProgressSample& sample);

/// How progress is printed: one line rewritten in place, or a line every period.
enum class ProgressMode { LiveLine, PeriodicLines };
/// LiveLine when `fd` is a terminal (isatty), else PeriodicLines.
ProgressMode progress_mode_for(int fd);

/// Prints the demo's progress to a terminal or a pipe.
class ProgressLine {
 public:
  /// `out` must outlive this; a period of 0 is taken as 1.
  ProgressLine(std::FILE* out, ProgressMode mode, uint64_t period_frames = 60);

  /// LiveLine: rewrites the line. PeriodicLines: writes a line when the frame is a multiple of
  /// the period.
  void update(const ProgressSample& sample);
  /// The last status as a finished line (a LiveLine gets its newline; nothing is repeated).
  void finish(const ProgressSample& sample);

 private:
  void write(const std::string& text);

  std::FILE* out_;
  ProgressMode mode_;
  uint64_t period_;
  size_t last_width_ = 0;  // LiveLine: what to blank when a shorter line replaces a longer one
};

}  // namespace warden::demo
