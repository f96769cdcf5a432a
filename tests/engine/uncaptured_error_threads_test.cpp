// An uncaptured error raised on a recording thread (Dawn reports it on that thread, inside the
// call that raised it) is named by the frame open then, and told on the frame thread in poll().
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "support/engine_fixture.h"
#include "warden/engine/engine.h"

namespace warden::engine {
namespace {

using ::testing::HasSubstr;
using testing::engine_options;
using testing::make_engine;

TEST(EngineUncapturedErrorThreads, AnEncoderARecordingThreadFinishesIsNamedByTheOpenFrameAndToldInPoll) {
  struct Heard {
    UncapturedError error;
    std::thread::id thread;
  };
  std::vector<Heard> heard;
  EngineCallbacks callbacks;
  callbacks.on_uncaptured_error = [&](const UncapturedError& error) {
    heard.push_back({error, std::this_thread::get_id()});
  };
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null), std::move(callbacks));
  ASSERT_NE(engine, nullptr);
  resources::Registry& reg = engine->registry();
  auto buffer = reg.create_buffer(
      {.size = 64, .usage = WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, .label = "copied"});
  ASSERT_TRUE(buffer.ok()) << buffer.error().message;

  auto frame = engine->begin_frame("threaded");
  ASSERT_TRUE(frame.ok()) << frame.error().message;
  const uint64_t number = frame->number();
  const gpu::Procs& p = engine->procs();
  WGPUCommandBuffer recorded = nullptr;
  std::thread recorder([&] {
    auto object = reg.resolve(*buffer);
    ASSERT_TRUE(object.ok()) << object.error().message;
    reg.touch(*buffer);
    WGPUCommandEncoder encoder = p.DeviceCreateCommandEncoder(engine->device(), nullptr);
    p.CommandEncoderCopyBufferToBuffer(encoder, *object, 0, *object, 32, 3);  // 3 bytes: not a multiple of 4
    recorded = p.CommandEncoderFinish(encoder, nullptr);  // refused here, on this thread
    p.CommandEncoderRelease(encoder);
  });
  recorder.join();
  ASSERT_NE(recorded, nullptr);
  EXPECT_TRUE(heard.empty()) << "told in poll(), not on the thread that raised it";
  auto submitted = engine->submit(std::move(*frame), std::span<const WGPUCommandBuffer>(&recorded, 1));
  EXPECT_TRUE(submitted.ok()) << submitted.error().message;
  p.CommandBufferRelease(recorded);
  engine->poll();

  ASSERT_FALSE(heard.empty());
  bool copy_named = false;
  for (const Heard& h : heard) {
    EXPECT_EQ(h.thread, std::this_thread::get_id()) << "the callback runs on the frame thread";
    EXPECT_EQ(h.error.frame, number) << h.error.message;
    EXPECT_EQ(h.error.frame_label, "threaded");
    copy_named = copy_named || h.error.message.find("CopyBufferToBuffer") != std::string::npos;
  }
  EXPECT_TRUE(copy_named) << heard.front().error.message;
  EXPECT_EQ(engine->counters().frames_with_errors, 1u);
  EXPECT_EQ(engine->counters().last_frame_with_errors, number);
}

}  // namespace
}  // namespace warden::engine
