// The engine's uncaptured errors between Dawn's report and poll(), and the default that tells a
// person on stderr when the application takes none of them (EngineCallbacks::on_uncaptured_error).
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "warden/engine/engine.h"

namespace warden::engine::detail {

class UncapturedErrors {
 public:
  // Distinct errors (frame, type and words) that wait for one poll(); more are counted, not told.
  static constexpr size_t kWaitingBound = 1024;
  // Distinct errors (type and words) stderr keeps a count of; later new ones are not printed.
  static constexpr size_t kPrintedBound = 64;

  // What take() hands over: the errors to tell, and how many reports were beyond the bound.
  struct Taken {
    std::vector<UncapturedError> errors;
    uint64_t not_told = 0;
  };

  // begin_frame, before the frame is marked open: what names the errors reported while it is.
  void frame_begun(uint64_t number, std::string_view label);
  // Any thread (Dawn reports on the thread whose call raised the error): one report, named by
  // `open_frame`, the frame open now (0: none). Returns it as it will be told.
  UncapturedError report(WGPUErrorType type, std::string_view message, uint64_t open_frame);
  // The frame thread, in poll(): what was reported since the last take, in the order reported.
  Taken take();

  // The default, on the frame thread: prints `error` if its words are new, else counts it and
  // prints the count when the repeats reach a power of ten.
  void print(const UncapturedError& error);
  // The engine's end: each error whose repeats were not all printed yet, with its count.
  void print_repeats();

 private:
  struct Printed {
    WGPUErrorType type;
    std::string message;
    uint64_t count = 0;          // reports, the first included
    uint64_t repeats_told = 0;   // the repeats the last count line printed
    uint64_t last_frame = 0;
  };
  // Prints how often `printed` repeated, and remembers it was told.
  void print_count(Printed& printed);

  std::mutex mutex_;  // guards the begun frame and the waiting errors
  uint64_t begun_ = 0;
  std::string begun_label_;
  std::vector<UncapturedError> waiting_;
  uint64_t not_told_ = 0;

  // The frame thread's alone.
  std::vector<Printed> printed_;
  uint64_t unprinted_ = 0;  // reports of new errors beyond kPrintedBound
  bool explained_ = false;  // the line that says how the rest are told was printed
};

}  // namespace warden::engine::detail
