#include "warden/demo/progress.h"

#include <gtest/gtest.h>
#include <pty.h>
#include <unistd.h>

#include <cstdlib>

namespace warden::demo {
namespace {

// Everything written to a FILE*, as a string (open_memstream).
class CapturedOutput {
 public:
  CapturedOutput() : file_(open_memstream(&buffer_, &size_)) {}
  ~CapturedOutput() {
    std::fclose(file_);
    std::free(buffer_);
  }
  std::FILE* file() { return file_; }
  std::string text() {
    std::fflush(file_);
    return std::string(buffer_, size_);
  }

 private:
  char* buffer_ = nullptr;
  size_t size_ = 0;
  std::FILE* file_;
};

ProgressSample sample_at(uint64_t frame) { return {frame, 59.84, 42, 11 * 1048576, 64 * 1048576, 1, 2}; }

TEST(ProgressStatus, NamesFrameFpsTilesVramLossesAndReloads) {
  EXPECT_EQ(format_status(sample_at(120)), "frame 120 | 59.8 fps | tiles 42 | VRAM 11.0/64.0 MiB | losses 1 | reloads 2");
}

TEST(ProgressLine, OnATerminalOneLineIsRewrittenInPlace) {
  CapturedOutput out;
  ProgressLine progress(out.file(), ProgressMode::LiveLine, 60);
  progress.update(sample_at(1));
  progress.update(sample_at(2));
  ProgressSample shorter{3, 5, 1, 0, 1048576, 0, 0};
  progress.update(shorter);
  progress.finish(shorter);
  const std::string l1 = format_status(sample_at(1)), l2 = format_status(sample_at(2)), s3 = format_status(shorter);
  ASSERT_GT(l2.size(), s3.size());
  // A shorter line blanks what is left of the longer one; finish() ends the line once.
  EXPECT_EQ(out.text(), "\r" + l1 + "\r" + l2 + "\r" + s3 + std::string(l2.size() - s3.size(), ' ') + "\r" + s3 + "\n");
}

TEST(ProgressLine, ElsewherePlainLinesEveryPeriod) {
  CapturedOutput out;
  ProgressLine progress(out.file(), ProgressMode::PeriodicLines, 50);
  for (uint64_t frame = 0; frame < 120; ++frame) progress.update(sample_at(frame));
  progress.finish(sample_at(119));
  const std::string text = out.text();
  EXPECT_EQ(text.find('\r'), std::string::npos);
  EXPECT_EQ(text, format_status(sample_at(0)) + "\n" + format_status(sample_at(50)) + "\n" +
                      format_status(sample_at(100)) + "\n" + format_status(sample_at(119)) + "\n");
}

TEST(ProgressMode, ATerminalGetsTheLiveLineAndAPipePlainLines) {
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  EXPECT_EQ(progress_mode_for(pipe_fds[1]), ProgressMode::PeriodicLines);
  close(pipe_fds[0]);
  close(pipe_fds[1]);
  int primary = -1, secondary = -1;
  ASSERT_EQ(openpty(&primary, &secondary, nullptr, nullptr, nullptr), 0);
  EXPECT_EQ(progress_mode_for(secondary), ProgressMode::LiveLine);
  close(primary);
  close(secondary);
}

}  // namespace
}  // namespace warden::demo
