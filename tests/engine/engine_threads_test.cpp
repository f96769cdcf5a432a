// The Engine's thread contract (warden/core/frame_thread.h): its frame calls belong to the frame
// thread, and loading threads create through its registry while the frame thread loses and
// recovers devices.
#include "warden/engine/engine.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "support/engine_fixture.h"
#include "support/gpu_test.h"
#include "support/messages.h"
#include "warden/engine/tile_layer.h"
#include "warden/tiles/sizing.h"

namespace warden::engine {
namespace {

using testing::engine_options;
using testing::FailsWith;
using testing::make_engine;

TEST(EngineThreads, FrameCallsFromAnotherThreadAreRefusedNamingTheCall) {
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null));
  ASSERT_NE(engine, nullptr);
  std::thread([&] {
    auto frame = engine->begin_frame();
    EXPECT_THAT(frame, FailsWith(MessageId::WrongThread));
    if (!frame.ok()) {
      EXPECT_THAT(frame.error().message, ::testing::HasSubstr("engine: begin_frame is a frame-thread call"));
    }
    EXPECT_THAT(engine->force_device_loss("from a worker"), FailsWith(MessageId::WrongThread));
    EXPECT_THAT(engine->wait_until_ready(testing::kSafetyNet), FailsWith(MessageId::WrongThread));
    engine->poll();  // returns nothing: refused and reported
  }).join();
  EXPECT_EQ(engine->diagnostics().count(MessageId::WrongThread), 1u);
  EXPECT_EQ(engine->state(), EngineState::Ready);  // the worker's loss was refused
  auto frame = engine->begin_frame();
  ASSERT_TRUE(frame.ok()) << frame.error().message;
  EXPECT_TRUE(engine->submit(std::move(*frame)).ok());
}

// Counts what the engine told it.
struct LossCountingObserver : GenerationObserver {
  int lost = 0;
  int ready = 0;
  void device_lost(uint64_t) override { ++lost; }
  void device_ready(uint64_t) override { ++ready; }
};

// The observer list is read by every loss and ready on the frame thread: a worker's add or
// remove is refused, reported, and changes nothing.
TEST(EngineThreads, ObserversAddedOrRemovedFromAnotherThreadAreRefusedAndChangeNothing) {
  LossCountingObserver kept;
  LossCountingObserver never_added;  // both outlive the engine
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null));
  ASSERT_NE(engine, nullptr);
  engine->add_observer(kept);
  std::thread([&] {
    engine->add_observer(never_added);
    engine->remove_observer(kept);
  }).join();
  EXPECT_EQ(engine->diagnostics().count(MessageId::WrongThread), 2u);
  bool named_add = false;
  bool named_remove = false;
  for (const Diagnostic& d : engine->diagnostics().entries()) {
    if (d.id != MessageId::WrongThread) continue;
    named_add |= d.message.find("engine: add_observer is a frame-thread call") != std::string::npos;
    named_remove |= d.message.find("engine: remove_observer is a frame-thread call") != std::string::npos;
  }
  EXPECT_TRUE(named_add);
  EXPECT_TRUE(named_remove);
  ASSERT_TRUE(engine->force_device_loss("test loss").ok());
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
  EXPECT_EQ(kept.lost, 1);  // still added
  EXPECT_EQ(kept.ready, 1);
  EXPECT_EQ(never_added.lost, 0);
  EXPECT_EQ(never_added.ready, 0);
  engine->remove_observer(kept);
}

class AnswerNothing : public tiles::TileFetcher {
 public:
  void fetch(tiles::TileReply) override {}
};

// The layer's cache and its uploads are the frame thread's: each frame call from a worker is
// refused with the call's name, and the frame thread's calls go on as before.
TEST(EngineThreads, TileLayerFrameCallsFromAnotherThreadAreRefusedNamingTheCall) {
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null));
  ASSERT_NE(engine, nullptr);
  TileLayerOptions options;
  options.tile_size = 32;
  options.budget_bytes = 32 * *tiles::texture_bytes(WGPUTextureFormat_RGBA8Unorm, 32, 32, tiles::full_mip_count(32, 32), 1);
  options.in_flight_headroom = 8;
  options.label = "threads test";
  auto made = TileLayer::create(*engine, options);
  ASSERT_TRUE(made) << made.error().message;
  std::unique_ptr<TileLayer> layer = std::move(*made);
  const std::vector<tiles::TileKey> visible{{0, 0, 0}};
  AnswerNothing fetcher;
  auto frame = engine->begin_frame();
  ASSERT_TRUE(frame) << frame.error().message;
  const auto refused_naming = [](const auto& result, std::string_view call) {
    EXPECT_THAT(result, FailsWith(MessageId::WrongThread)) << call;
    if (!result.ok()) {
      EXPECT_THAT(result.error().message, ::testing::HasSubstr(std::string(call) + " is a frame-thread call"));
    }
  };
  std::thread([&] {
    refused_naming(layer->begin_frame({visible, 0.5, 0.5}), "begin_frame");
    refused_naming(layer->request(visible[0]), "request");
    refused_naming(layer->dispatch(fetcher), "dispatch");
    refused_naming(layer->deliver(*frame), "deliver");
    refused_naming(layer->draw(nullptr, {}), "draw");
  }).join();
  EXPECT_EQ(layer->counters().tiles_uploaded, 0u);
  EXPECT_TRUE(layer->begin_frame({visible, 0.5, 0.5}));
  EXPECT_TRUE(layer->request(visible[0]));
  EXPECT_TRUE(layer->dispatch(fetcher));
  EXPECT_TRUE(layer->deliver(*frame));
  EXPECT_TRUE(engine->submit(std::move(*frame)));
}

// An object a recording thread resolved for this frame stays valid through force_device_loss on
// the frame thread: the loss lets go of the device's objects in the frame thread's next poll(),
// not inside the call nor in begin_frame or submit, so the recorder finishes its commands with
// live objects.
TEST(EngineThreads, AForcedLossLetsGoOfNothingUntilTheNextPollWhileARecordingThreadRecords) {
  std::atomic<int> released{0};
  EngineOptions options = engine_options(gpu::BackendChoice::Null);
  options.registry.on_release = [&](const resources::ReleaseEvent&) { ++released; };
  auto engine = make_engine(std::move(options));
  ASSERT_NE(engine, nullptr);
  resources::Registry& reg = engine->registry();
  auto source = reg.create_buffer({64, WGPUBufferUsage_CopySrc, false, "recorded source"});
  auto target = reg.create_buffer({64, WGPUBufferUsage_CopyDst, false, "recorded target"});
  ASSERT_TRUE(source.ok() && target.ok());
  auto frame = engine->begin_frame();
  ASSERT_TRUE(frame.ok()) << frame.error().message;
  const gpu::Procs& procs = engine->procs();
  WGPUDevice device = engine->device();
  std::atomic<bool> resolved{false};
  std::atomic<bool> loss_forced{false};
  std::thread recorder([&] {
    auto from = reg.resolve(*source);
    auto to = reg.resolve(*target);
    WGPUCommandEncoder encoder = procs.DeviceCreateCommandEncoder(device, nullptr);
    resolved = true;
    while (!loss_forced) std::this_thread::yield();
    // Recorded after the loss was forced, with what was resolved before it.
    if (from.ok() && to.ok()) procs.CommandEncoderCopyBufferToBuffer(encoder, *from, 0, *to, 0, 64);
    WGPUCommandBuffer commands = procs.CommandEncoderFinish(encoder, nullptr);
    procs.CommandBufferRelease(commands);
    procs.CommandEncoderRelease(encoder);
  });
  while (!resolved) std::this_thread::yield();
  const int before = released.load();
  const Result<void> forced = engine->force_device_loss("beside a recording thread");
  const int inside_the_call = released.load() - before;
  loss_forced = true;
  recorder.join();
  ASSERT_TRUE(forced.ok()) << forced.error().message;
  EXPECT_EQ(inside_the_call, 0);
  EXPECT_EQ(engine->state(), EngineState::Recovering);
  EXPECT_EQ(engine->device(), nullptr);
  // Nor at the frame calls before the next poll (ADR 0055): begin_frame and submit are refused
  // and let go of nothing.
  EXPECT_FALSE(engine->begin_frame().ok());
  EXPECT_FALSE(engine->submit(std::move(*frame)).ok());
  EXPECT_EQ(released.load(), before);
  engine->poll();
  EXPECT_EQ(released.load(), before + 2);  // both buffers, at the next poll
  EXPECT_TRUE(reg.device_lost() || engine->state() == EngineState::Ready);
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
  EXPECT_TRUE(reg.destroy_buffer(*source).ok());
  EXPECT_TRUE(reg.destroy_buffer(*target).ok());
}

// Dawn's GL context stays on the thread that made the device: another thread that took the
// frame thread's role would lose the device at its first submission. The engine refuses, names
// the backend, and the frames go on on the thread they were on.
TEST(EngineThreads, AdoptingTheFrameThreadOnGlIsRefusedAndTheFramesGoOnWhereTheyWere) {
  auto engine = make_engine(engine_options(gpu::BackendChoice::GL));
  ASSERT_NE(engine, nullptr);
  ASSERT_EQ(engine->backend(), WGPUBackendType_OpenGL);
  std::unique_ptr<Result<void>> adopted;
  std::thread([&] {
    adopted = std::make_unique<Result<void>>(engine->adopt_frame_thread());
    // Still not the frame thread.
    EXPECT_THAT(engine->begin_frame(), FailsWith(MessageId::WrongThread));
  }).join();
  ASSERT_NE(adopted, nullptr);
  EXPECT_THAT(*adopted, FailsWith(MessageId::EngineAdoptFrameThreadOnGl));
  if (!adopted->ok()) {
    EXPECT_THAT(adopted->error().message, ::testing::HasSubstr("adopt_frame_thread: the device is on"));
  }
  for (int f = 0; f < 3; ++f) {
    engine->poll();
    auto frame = engine->begin_frame();
    ASSERT_TRUE(frame.ok()) << frame.error().message;
    ASSERT_TRUE(engine->submit(std::move(*frame)).ok());
  }
  engine->poll();
  EXPECT_EQ(engine->state(), EngineState::Ready);
  EXPECT_EQ(engine->counters().device_losses, 0u);
}

// Loading threads create and write buffers the whole time; the frame thread draws frames and
// forces losses. After each recovery every handle a loader got (before, during or after the
// loss) is live and its buffer belongs to the current device: a write through the current queue
// is accepted, which Dawn refuses for another device's buffer.
TEST(EngineThreads, HandlesCreatedByLoadingThreadsAcrossLossesAllBelongToTheCurrentDevice) {
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null));
  ASSERT_NE(engine, nullptr);
  resources::Registry& reg = engine->registry();
  constexpr int kLoaders = 4;
  std::mutex handles_mutex;
  std::vector<BufferHandle> handles;
  std::atomic<bool> stop{false};
  std::atomic<int> creation_failures{0};
  std::vector<std::thread> loaders;
  for (int t = 0; t < kLoaders; ++t) {
    loaders.emplace_back([&] {
      while (!stop.load()) {
        auto made = reg.create_buffer({16, WGPUBufferUsage_CopyDst | WGPUBufferUsage_Uniform, false, "loaded"});
        if (!made.ok()) {
          ++creation_failures;
          continue;
        }
        std::lock_guard lock(handles_mutex);
        handles.push_back(*made);
        if (handles.size() > 2000) return;
      }
    });
  }
  constexpr int kLosses = 5;
  for (int loss = 0; loss < kLosses; ++loss) {
    for (int f = 0; f < 5; ++f) {
      engine->poll();
      if (auto frame = engine->begin_frame(); frame.ok()) (void)engine->submit(std::move(*frame));
    }
    ASSERT_TRUE(engine->force_device_loss("test loss").ok());
    ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
    std::vector<BufferHandle> seen;
    {
      std::lock_guard lock(handles_mutex);
      seen = handles;
    }
    // The loaders keep creating meanwhile; what they got before this point must be back.
    engine->poll();
    const uint32_t word = 7;
    for (BufferHandle h : seen) {
      if (engine->state() != EngineState::Ready) break;
      ASSERT_TRUE(reg.resolve(h).ok()) << reg.resolve(h).error().message;
      ASSERT_TRUE(reg.write_buffer(h, 0, &word, 4).ok());
    }
  }
  stop = true;
  for (auto& loader : loaders) loader.join();
  EXPECT_EQ(creation_failures.load(), 0);
  EXPECT_EQ(engine->counters().device_losses, static_cast<uint64_t>(kLosses));
  std::lock_guard lock(handles_mutex);
  EXPECT_GT(handles.size(), 0u);
  for (BufferHandle h : handles) ASSERT_TRUE(reg.destroy_buffer(h).ok());
}

}  // namespace
}  // namespace warden::engine
