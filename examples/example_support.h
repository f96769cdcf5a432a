// What every example does around its drawing: it stops with the reason on an error, and it draws
// a frame, loses the device on purpose, draws again through the recovery and writes both frames.
// Only the drawing is each example's own.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <utility>

#include "warden/engine/engine.h"
#include "warden/present/readback.h"

namespace example {

// The program's name, which begins each of its messages.
inline const char* program = "example";

// Names the program for its messages and checks that it was given the two files to write
// (BEFORE.png AFTER.png); another count of arguments ends it with its usage, exit status 2.
inline void start(const char* name, int argc) {
  program = name;
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s BEFORE.png AFTER.png\n", name);
    std::exit(2);
  }
}

[[noreturn]] inline void fail(const warden::Error& error) {
  std::fprintf(stderr, "%s: %s\n", program, error.message.c_str());
  std::exit(1);
}
template <typename T>
T must(warden::Result<T> result) {
  if (!result) fail(result.error());
  return std::move(result.value());
}
inline void must(warden::Result<void> result) {
  if (!result) fail(result.error());
}

// Ends the program (exit status 1) when the device refused commands of any frame so far: two
// blank frames are identical too. The poll tells what was refused (on stderr, each distinct
// error once) and counts the frames it came from.
inline void require_frames_whole(warden::engine::Engine& engine) {
  engine.poll();
  const warden::engine::EngineCounters& counters = engine.counters();
  if (counters.frames_with_errors == 0 && counters.uncaptured_errors == 0) return;
  std::fprintf(stderr, "%s: the device refused commands: %llu error(s), %llu frame(s), the last frame %llu\n", program,
               static_cast<unsigned long long>(counters.uncaptured_errors),
               static_cast<unsigned long long>(counters.frames_with_errors),
               static_cast<unsigned long long>(counters.last_frame_with_errors));
  std::exit(1);
}

// Writes the RGBA8 texture `target` as a PNG.
inline void snapshot(warden::engine::Engine& engine, warden::TextureHandle target, const char* path) {
  must(warden::present::write_png(must(warden::present::read_image(engine.context(), engine.registry(), target)),
                                  path));
}

// Draws with `render` (one frame: its submission, or why there was none), writes `target` to
// `before`, forces a device loss, draws until a frame is submitted on the new device, and writes
// `target` to `after`. The frame loop goes on while the engine recovers, skipping frames while
// poll() moves the recovery along; an engine that gave up, an object still not back after ten
// seconds, or a frame whose commands the device refused, ends the program with the reason.
// Returns the frames skipped.
template <typename Render>
int draw_across_a_loss(warden::engine::Engine& engine, Render&& render, warden::TextureHandle target,
                       const char* before, const char* after) {
  must(render());
  snapshot(engine, target, before);
  must(engine.force_device_loss("the example pulls the plug"));
  int skipped = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (auto drawn = render(); !drawn; drawn = render()) {
    if (engine.state() == warden::engine::EngineState::Failed || std::chrono::steady_clock::now() > deadline) {
      fail(drawn.error());
    }
    ++skipped;
    engine.poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  snapshot(engine, target, after);
  require_frames_whole(engine);
  std::printf("%s: generation %llu after %d skipped frame(s); wrote %s and %s\n", program,
              static_cast<unsigned long long>(engine.device_generation()), skipped, before, after);
  return skipped;
}

}  // namespace example
