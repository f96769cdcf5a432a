// The registry's thread contract (warden/core/frame_thread.h): frame-thread calls refused from
// another thread, creation, destroy and resolve from several threads at once, and a failed
// resolve's words read on another thread or after the registry ended.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "registry_test_support.h"
#include "support/messages.h"

namespace warden::resources {
namespace {

using testing::FailsWith;
using testing::GlDeviceTest;
using testing::NullDeviceTest;

TEST_F(NullDeviceTest, FrameThreadCallsFromAnotherThreadAreRefusedAndReportedUntilThatThreadAdoptsTheRole) {
  auto reg = testing::make_registry(*dev);
  const Serial recording = reg->clock().recording();
  Serial from_worker{1234};
  std::thread([&] {
    from_worker = testing::submit_empty(*reg, *dev);
    reg->poll();
    reg->on_device_lost();
  }).join();
  EXPECT_EQ(from_worker, Serial{});  // not submitted
  EXPECT_EQ(reg->clock().recording(), recording);
  EXPECT_FALSE(reg->device_lost());  // on_device_lost was refused too
  EXPECT_EQ(reg->diagnostics().count(MessageId::WrongThread), 3u);
  // The frame thread itself is not refused.
  EXPECT_NE(testing::submit_empty(*reg, *dev), Serial{});
  // Once a worker adopts the role, it submits and the thread that made the registry is refused.
  std::thread([&] {
    reg->adopt_frame_thread();
    from_worker = testing::submit_empty(*reg, *dev);
  }).join();
  EXPECT_NE(from_worker, Serial{});
  EXPECT_EQ(testing::submit_empty(*reg, *dev), Serial{});
  EXPECT_EQ(reg->diagnostics().count(MessageId::WrongThread), 4u);
  reg->adopt_frame_thread();  // back, for the teardown
}

// Loading threads create, resolve and destroy while the frame thread submits and polls: every
// handle a thread kept resolves to its own buffer, every one it destroyed is stale, and the
// counts add up.
TEST_F(NullDeviceTest, LoadingThreadsCreateResolveAndDestroyWhileTheFrameThreadSubmits) {
  RegistryOptions options;
  options.buffer_capacity = 4096;
  auto reg = testing::make_registry(*dev, options);
  constexpr int kThreads = 4;
  constexpr int kPerThread = 300;
  std::vector<std::vector<BufferHandle>> kept(kThreads);
  std::vector<std::vector<BufferHandle>> destroyed(kThreads);
  std::atomic<int> failures{0};
  std::atomic<int> done{0};
  std::vector<std::thread> loaders;
  for (int t = 0; t < kThreads; ++t) {
    loaders.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        auto made = reg->create_buffer({16, WGPUBufferUsage_CopyDst, false, "t" + std::to_string(t)});
        if (!made.ok()) {
          ++failures;
          continue;
        }
        if (!reg->resolve(*made).ok()) ++failures;
        reg->touch(*made);
        if (i % 3 == 0) {
          if (!reg->destroy_buffer(*made).ok()) ++failures;
          destroyed[t].push_back(*made);
        } else {
          kept[t].push_back(*made);
        }
      }
      ++done;
    });
  }
  while (done.load() < kThreads) {
    (void)testing::submit_empty(*reg, *dev);
    reg->poll();
  }
  for (auto& loader : loaders) loader.join();
  EXPECT_EQ(failures.load(), 0);
  size_t live = 0;
  for (int t = 0; t < kThreads; ++t) {
    for (BufferHandle h : kept[t]) {
      EXPECT_TRUE(reg->resolve(h).ok());
      EXPECT_EQ(*reg->label(h), "t" + std::to_string(t));
    }
    for (BufferHandle h : destroyed[t]) EXPECT_THAT(reg->resolve(h), FailsWith(MessageId::HandleDestroyed));
    live += kept[t].size();
  }
  EXPECT_EQ(reg->live_counts().by_kind[kind_index(ResourceKind::Buffer)], live);
  for (auto& handles : kept) {
    for (BufferHandle h : handles) ASSERT_TRUE(reg->destroy_buffer(h).ok());
  }
}

// A failed resolve writes its words when they are read: on another thread, or after the
// registry ended (then it says so instead of reading what is gone).
// Several threads make objects the device rejects at the same time as objects it accepts, while
// one more thread makes bad calls of its own on the same device, outside the registry: each
// rejection comes back to the registry call that made it, naming that call's own label (a
// capture of that thread, ADR 0043), and exactly the outside thread's errors reach the
// application's handler. Every accepted object resolves.
TEST_F(NullDeviceTest, RejectionsFromSeveralThreadsAtOnceComeBackToTheirOwnCalls) {
  RegistryOptions options;
  options.buffer_capacity = 4096;
  auto reg = testing::make_registry(*dev, options);
  constexpr int kThreads = 4;
  constexpr int kPerThread = 150;
  std::vector<std::vector<BufferHandle>> made(kThreads);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        const std::string label = "t" + std::to_string(t) + "-" + std::to_string(i);
        // Rejected by the device itself (the registry's own checks let it through).
        auto module = reg->create_shader_module("fn broken( {", label + ".wgsl");
        if (module.ok() || module.error().id != MessageId::CreateRejected ||
            module.error().message.find("\"" + label + ".wgsl\"") == std::string::npos) {
          wrong.fetch_add(1);
        }
        auto buffer = reg->create_buffer({16, WGPUBufferUsage_Uniform, false, label});
        if (buffer.ok()) {
          made[t].push_back(*buffer);
        } else {
          wrong.fetch_add(1);
        }
      }
    });
  }
  constexpr int kOutside = 300;
  std::thread outside([&] {
    const gpu::Procs& p = dev->procs();
    WGPUBufferDescriptor d{};
    d.size = 16;
    d.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_Storage;
    for (int i = 0; i < kOutside; ++i) p.BufferRelease(p.DeviceCreateBuffer(dev->device.get(), &d));
  });
  for (auto& thread : threads) thread.join();
  outside.join();
  EXPECT_EQ(wrong.load(), 0);
  dev->context->process_events();
  const std::vector<std::string> heard = dev->take_errors();
  EXPECT_EQ(heard.size(), static_cast<size_t>(kOutside)) << "the handler heard what was not its own, or lost some";
  for (const std::string& error : heard) EXPECT_THAT(error, ::testing::HasSubstr("MapRead"));
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_EQ(made[t].size(), static_cast<size_t>(kPerThread));
    for (int i = 0; i < kPerThread; ++i) {
      EXPECT_TRUE(reg->resolve(made[t][i]).ok());
      const std::string* label = reg->label(made[t][i]);
      ASSERT_NE(label, nullptr);
      EXPECT_EQ(*label, "t" + std::to_string(t) + "-" + std::to_string(i));
    }
  }
}

TEST_F(NullDeviceTest, AFailedResolvesWordsAreWrittenWhenReadEvenAfterItsRegistryEnded) {
  auto reg = testing::make_registry(*dev);
  auto made = reg->create_buffer({16, WGPUBufferUsage_CopyDst, false, "gone"});
  ASSERT_TRUE(made.ok());
  ASSERT_TRUE(reg->destroy_buffer(*made).ok());
  Result<WGPUBuffer> read_now = reg->resolve(*made);
  Result<WGPUBuffer> read_on_a_thread = reg->resolve(*made);
  Result<WGPUBuffer> read_after_the_end = reg->resolve(*made);
  EXPECT_THAT(read_now, FailsWith(MessageId::HandleDestroyed));
  std::thread([&] { EXPECT_THAT(read_on_a_thread, FailsWith(MessageId::HandleDestroyed)); }).join();
  EXPECT_EQ(read_on_a_thread.error().message, read_now.error().message);
  reg.reset();
  EXPECT_THAT(read_after_the_end, FailsWith(MessageId::HandleOfEndedRegistry));
  EXPECT_THAT(read_after_the_end.error().message, ::testing::HasSubstr("has ended since"));
}


// Dawn's GL backend takes device calls on one thread: a loading thread's creation there is
// Waiting until the frame thread's poll makes it, its writes are written then in call order
// (before a later write of the frame thread's), and what must hand back an object at once is
// refused from that thread.
TEST_F(GlDeviceTest, ALoadingThreadsCreationsAndWritesOnGlAreCarriedOutByTheFrameThreadInOrder) {
  if (testing::pixel_test_backend() != gpu::BackendChoice::GL) GTEST_SKIP() << "GL only: Vulkan takes calls on any thread";
  auto reg = testing::make_registry(*dev);
  const gpu::Procs& p = dev->context->procs();
  const uint32_t first[4] = {1, 2, 3, 4}, second[4] = {5, 6, 7, 8};
  Result<BufferHandle> made = make_error(ErrorKind::InvalidArgument, MessageId::HandleNull, "not made yet");
  Result<WGPUBuffer> resolved_there = make_error(ErrorKind::InvalidArgument, MessageId::HandleNull, "not resolved yet");
  Result<void> written = make_error(ErrorKind::InvalidArgument, MessageId::HandleNull, "not written yet");
  Result<BufferHandle> mapped = make_error(ErrorKind::InvalidArgument, MessageId::HandleNull, "not asked yet");
  Result<void> recreated = make_error(ErrorKind::InvalidArgument, MessageId::HandleNull, "not asked yet");
  std::thread([&] {
    made = reg->create_buffer({16, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, false, "loaded"});
    if (!made.ok()) return;
    resolved_there = reg->resolve(*made);
    written = reg->write_buffer(*made, 0, first, sizeof(first));
    mapped = reg->create_buffer({16, WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc, true, "mapped"});
    recreated = reg->recreate_buffer(*made, {32, WGPUBufferUsage_CopyDst, false, "bigger"});
  }).join();
  ASSERT_TRUE(made.ok()) << made.error().message;
  EXPECT_THAT(resolved_there, FailsWith(MessageId::WaitingForFrameThread));
  EXPECT_EQ(reg->slot_state(*made), SlotState::Waiting);
  EXPECT_THAT(reg->resolve(*made), FailsWith(MessageId::WaitingForFrameThread));
  EXPECT_TRUE(written.ok()) << written.error().message;
  EXPECT_THAT(mapped, FailsWith(MessageId::WrongThread));
  EXPECT_THAT(recreated, FailsWith(MessageId::WrongThread));

  // The frame thread's write comes after the loading thread's: it carries that one out first.
  ASSERT_TRUE(reg->write_buffer(*made, 8, second, 8).ok());
  EXPECT_EQ(reg->slot_state(*made), SlotState::Live);
  ASSERT_TRUE(reg->resolve(*made).ok());
  auto readback = reg->create_buffer({16, WGPUBufferUsage_CopyDst | WGPUBufferUsage_MapRead, false, "readback"});
  ASSERT_TRUE(readback.ok());
  WGPUCommandEncoder enc = p.DeviceCreateCommandEncoder(dev->device.get(), nullptr);
  p.CommandEncoderCopyBufferToBuffer(enc, *reg->resolve(*made), 0, *reg->resolve(*readback), 0, 16);
  WGPUCommandBuffer cmd = p.CommandEncoderFinish(enc, nullptr);
  const Serial serial = reg->submit(cmd);
  p.CommandBufferRelease(cmd);
  p.CommandEncoderRelease(enc);
  ASSERT_TRUE(testing::poll_until_retired(*reg, serial));
  auto bytes = dev->context->read_mapped(*reg->resolve(*readback), 16, warden::testing::kSafetyNet);
  ASSERT_TRUE(bytes.ok()) << bytes.error().message;
  uint32_t got[4];
  std::memcpy(got, bytes->data(), 16);
  EXPECT_EQ(got[0], 1u);
  EXPECT_EQ(got[1], 2u);
  EXPECT_EQ(got[2], 5u) << "the frame thread's later write lands over the loading thread's";
  EXPECT_EQ(got[3], 6u);
  EXPECT_TRUE(dev->take_errors().empty());
}

// A creation the device rejects, made from a loading thread on GL, fails when the frame thread
// makes it: the slot is Failed with the device's words, and diagnostics say so.
TEST_F(GlDeviceTest, ALoadingThreadsCreationTheDeviceRejectsOnGlLeavesAFailedSlotAndAReport) {
  if (testing::pixel_test_backend() != gpu::BackendChoice::GL) GTEST_SKIP() << "GL only: Vulkan takes calls on any thread";
  auto reg = testing::make_registry(*dev);
  Result<TextureHandle> made = make_error(ErrorKind::InvalidArgument, MessageId::HandleNull, "not made yet");
  // Storage binding of a format GL's compatibility mode cannot store into: warden's own checks
  // let it through, the device rejects it.
  std::thread([&] {
    made = reg->create_texture({.size = {4, 4, 1}, .format = WGPUTextureFormat_BGRA8Unorm,
                                .usage = WGPUTextureUsage_StorageBinding, .label = "rejected"});
  }).join();
  ASSERT_TRUE(made.ok()) << made.error().message;
  EXPECT_EQ(reg->slot_state(*made), SlotState::Waiting);
  reg->poll();
  EXPECT_EQ(reg->slot_state(*made), SlotState::Failed);
  EXPECT_THAT(reg->resolve(*made), FailsWith(MessageId::SlotRebuildFailed));
  EXPECT_EQ(reg->diagnostics().count(MessageId::CreateRejected), 1u);
  (void)dev->take_errors();
}

// A loading thread on GL that creates past its kind's capacity: what it made waits in the pool
// for the frame thread, the creation past it is refused with PoolFull, and nothing is let go
// (nothing was made). The frame thread's poll then makes exactly the waiting ones.
TEST_F(GlDeviceTest, ALoadingThreadsCreationIntoAFullPoolOnGlIsRefusedAndReleasesNothing) {
  if (testing::pixel_test_backend() != gpu::BackendChoice::GL) GTEST_SKIP() << "GL only: Vulkan takes calls on any thread";
  std::atomic<int> released{0};
  RegistryOptions options;
  options.shader_module_capacity = 2;
  options.on_release = [&](const ReleaseEvent&) { released.fetch_add(1); };
  auto reg = testing::make_registry(*dev, options);
  std::vector<Result<ShaderModuleHandle>> made;
  std::thread([&] {
    for (int i = 0; i < 3; ++i) made.push_back(reg->create_shader_module(testing::kKitWgsl, "loaded " + std::to_string(i)));
  }).join();
  ASSERT_EQ(made.size(), 3u);
  ASSERT_TRUE(made[0].ok()) << made[0].error().message;
  ASSERT_TRUE(made[1].ok()) << made[1].error().message;
  EXPECT_EQ(reg->slot_state(*made[0]), SlotState::Waiting);
  ASSERT_FALSE(made[2].ok());
  EXPECT_EQ(made[2].error().kind, ErrorKind::PoolFull);
  EXPECT_THAT(made[2], FailsWith(MessageId::ResourcePoolFull));
  EXPECT_THAT(made[2].error().message, ::testing::HasSubstr("\"loaded 2\" was not made"));
  EXPECT_EQ(released.load(), 0);
  reg->poll();
  EXPECT_TRUE(reg->resolve(*made[0]).ok());
  EXPECT_TRUE(reg->resolve(*made[1]).ok());
  EXPECT_EQ(reg->live_counts().of(ResourceKind::ShaderModule), 2u);
  EXPECT_EQ(released.load(), 0);
  EXPECT_TRUE(dev->take_errors().empty());
}

// A destroy from a loading thread while the frame thread records: the object is let go only
// once the submission being recorded then has retired, touched or not (here touched from
// another thread, as a recording thread does).
TEST_F(NullDeviceTest, ADestroyFromALoadingThreadWaitsForTheSubmissionBeingRecorded) {
  std::atomic<int> released{0};
  RegistryOptions options;
  options.on_release = [&](const ReleaseEvent&) { released.fetch_add(1); };
  auto reg = testing::make_registry(*dev, options);
  auto made = reg->create_buffer({16, WGPUBufferUsage_CopyDst, false, "in the frame"});
  ASSERT_TRUE(made.ok());
  const Serial recording = reg->clock().recording();
  std::thread([&] { reg->touch(*made); }).join();
  std::thread([&] { EXPECT_TRUE(reg->destroy_buffer(*made).ok()); }).join();
  EXPECT_THAT(reg->resolve(*made), FailsWith(MessageId::HandleDestroyed));
  EXPECT_EQ(reg->pending_release_count(), 1u);
  reg->poll();
  EXPECT_EQ(released.load(), 0) << "the submission it waits for has not been made";
  const Serial submitted = testing::submit_empty(*reg, *dev);
  EXPECT_EQ(submitted, recording);
  ASSERT_TRUE(testing::poll_until_retired(*reg, submitted));
  EXPECT_EQ(released.load(), 1);
  EXPECT_EQ(reg->pending_release_count(), 0u);
}

// recipe() is an any-thread call: read on one thread while another recreates the buffer again
// and again, each recipe it hands out is one whole recipe (the label and the size of the same
// recreate), never one being rewritten under the reader.
TEST_F(NullDeviceTest, ARecipeReadBesideRecreatesIsOneWholeRecipe) {
  auto reg = testing::make_registry(*dev);
  // Longer than any short-string buffer: a label rewritten under a reader frees what it reads.
  auto label_of = [](uint64_t size) { return fmt::format("recreated at {} bytes, a label that lives on the heap", size); };
  auto made = reg->create_buffer({16, WGPUBufferUsage_CopyDst, false, label_of(16)});
  ASSERT_TRUE(made.ok()) << made.error().message;
  std::atomic<bool> stop{false};
  std::atomic<int> recreated{0}, reads{0}, torn{0};
  std::thread reader([&] {
    while (!stop.load(std::memory_order_relaxed)) {
      auto recipe = reg->recipe(*made);
      if (!recipe || recipe->label != label_of(recipe->size)) torn.fetch_add(1, std::memory_order_relaxed);
      reads.fetch_add(1, std::memory_order_relaxed);
    }
  });
  std::thread recreator([&] {
    for (uint64_t i = 0; i < 400; ++i) {
      const uint64_t size = 16 + 4 * (i % 32);
      if (reg->recreate_buffer(*made, {size, WGPUBufferUsage_CopyDst, false, label_of(size)}).ok()) {
        recreated.fetch_add(1, std::memory_order_relaxed);
      }
    }
  });
  recreator.join();
  stop = true;
  reader.join();
  reg->poll();
  EXPECT_EQ(recreated.load(), 400);
  EXPECT_GT(reads.load(), 0);
  EXPECT_EQ(torn.load(), 0);
  ASSERT_TRUE(reg->recipe(*made));
  EXPECT_EQ(reg->recipe(*made)->size, 16u + 4 * (399 % 32));
}

// Resolve on loading threads while the frame thread loses the device and rebuilds onto a new one,
// again and again: a resolve that succeeds always hands out an object. A rebuild stores each new
// object and then publishes it; a reader between the two must fail (the slot is Lost), never
// take the empty slot for a success (docs/adr/0047).
TEST_F(NullDeviceTest, AResolveBesideALossAndRebuildNeverHandsOutANullObject) {
  auto reg = testing::make_registry(*dev);
  std::vector<BufferHandle> buffers;
  for (int i = 0; i < 64; ++i) {
    auto made = reg->create_buffer({16, WGPUBufferUsage_CopyDst, false, "beside the rebuild"});
    ASSERT_TRUE(made.ok()) << made.error().message;
    buffers.push_back(*made);
  }
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> resolved{0}, null_successes{0};  // a refused resolve (a Lost slot) is fine
  constexpr int kReaders = 4;
  std::atomic<int> readers_running{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < kReaders; ++t) {
    readers.emplace_back([&] {
      bool running = false;
      while (!stop.load(std::memory_order_relaxed)) {
        for (BufferHandle h : buffers) {
          auto object = reg->resolve(h);
          if (!object.ok()) continue;
          (*object == nullptr ? null_successes : resolved).fetch_add(1, std::memory_order_relaxed);
        }
        if (!running) {
          running = true;
          readers_running.fetch_add(1);
        }
      }
    });
  }
  // Every reader has read the live slots once before the first loss: on a loaded machine the
  // losses could otherwise all be over before a reader ran, and the test would see nothing.
  while (readers_running.load() < kReaders) std::this_thread::yield();
  std::vector<std::unique_ptr<testing::TestDevice>> devices;  // each rebuild's, kept to the end
  constexpr uint32_t kLosses = 20;
  for (uint32_t loss = 0; loss < kLosses; ++loss) {
    reg->on_device_lost();
    devices.push_back(testing::open_test_device(gpu::BackendChoice::Null));
    if (devices.back() == nullptr) {  // open_test_device failed the test; the readers still stop
      devices.pop_back();
      break;
    }
    const RebuildReport report = reg->rebuild(devices.back()->device.get(), devices.back()->queue.get(), loss + 2);
    EXPECT_TRUE(report.failed.empty());
  }
  stop = true;
  for (auto& reader : readers) reader.join();
  EXPECT_EQ(null_successes.load(), 0u);
  EXPECT_GT(resolved.load(), 0u);
  for (BufferHandle h : buffers) {
    auto object = reg->resolve(h);
    EXPECT_TRUE(object.ok() && *object != nullptr) << (object.ok() ? "null" : object.error().message);
  }
  reg.reset();
  for (auto& device : devices) testing::close_device(device);  // on every path: their callbacks read them
}

}  // namespace
}  // namespace warden::resources
