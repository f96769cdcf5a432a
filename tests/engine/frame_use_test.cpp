// Frame::use, the way a pass gets its objects: a live object is handed out and kept for the
// frame's submission; an object that cannot be used (Lost, stale) makes the frame one that
// submit drops, with the handle, its label and why. And the former crash, the value of a failed
// resolve, now stops the program with the registry's words in every build type.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "support/engine_fixture.h"
#include "support/gpu_test.h"
#include "support/error_object.h"
#include "support/messages.h"
#include "warden/engine/engine.h"

namespace warden::engine {
namespace {

using ::testing::HasSubstr;
using testing::engine_options;
using testing::FailsWith;
using testing::NamesKind;
using testing::NamesLabel;
using testing::make_engine;


BufferHandle make_vertices(resources::Registry& reg, std::string label) {
  auto buffer = reg.create_buffer(
      {.size = 64, .usage = WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, .label = std::move(label)});
  EXPECT_TRUE(buffer.ok()) << buffer.error().message;
  return buffer.ok() ? *buffer : BufferHandle{};
}

// A sampler made by the application and adopted: warden has no recipe for it, so after a loss
// it stays Lost until its owner replaces it.
SamplerHandle adopt_sampler(Engine& engine, std::string label) {
  const WGPUSamplerDescriptor d = warden::testing::nearest_clamp_sampler();
  auto adopted = engine.registry().adopt_sampler(engine.procs().DeviceCreateSampler(engine.device(), &d),
                                                 std::move(label));
  EXPECT_TRUE(adopted.ok()) << adopted.error().message;
  return adopted.ok() ? *adopted : SamplerHandle{};
}

TEST(FrameUse, LiveObjectsAreHandedOutAndKeptForTheFramesSubmission) {
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null));
  ASSERT_NE(engine, nullptr);
  resources::Registry& reg = engine->registry();
  const BufferHandle vertices = make_vertices(reg, "vertices");
  const BufferHandle indices = make_vertices(reg, "indices");
  const SamplerHandle sampler = adopt_sampler(*engine, "sampler");

  auto frame = engine->begin_frame();
  ASSERT_TRUE(frame.ok()) << frame.error().message;
  const Serial recording = reg.clock().recording();
  auto one = frame->use(vertices);
  ASSERT_TRUE(one.ok()) << one.error().message;
  EXPECT_EQ(*one, *reg.resolve(vertices));
  auto several = frame->use(indices, sampler);
  ASSERT_TRUE(several.ok()) << several.error().message;
  EXPECT_EQ(std::get<0>(*several), *reg.resolve(indices));
  EXPECT_EQ(std::get<1>(*several), *reg.resolve(sampler));
  EXPECT_EQ(frame->failure(), nullptr);
  // Each is marked used by the submission being recorded: destroyed now, it waits for it.
  EXPECT_EQ(reg.last_used(vertices), recording);
  EXPECT_EQ(reg.last_used(indices), recording);
  EXPECT_EQ(reg.last_used(sampler), recording);

  auto submitted = engine->submit(std::move(*frame));
  ASSERT_TRUE(submitted.ok()) << submitted.error().message;
  EXPECT_EQ(*submitted, recording);
  EXPECT_EQ(engine->counters().frames_dropped, 0u);
}

TEST(FrameUse, AnObjectStillLostAfterTheRecoveryDropsTheFrameWithItsHandleLabelAndWhy) {
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null));
  ASSERT_NE(engine, nullptr);
  resources::Registry& reg = engine->registry();
  const BufferHandle vertices = make_vertices(reg, "vertices");
  const SamplerHandle sampler = adopt_sampler(*engine, "app sampler");
  ASSERT_TRUE(engine->force_device_loss().ok());
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
  ASSERT_EQ(reg.slot_state(sampler), resources::SlotState::Lost);  // the engine is Ready, the sampler is not

  auto frame = engine->begin_frame();
  ASSERT_TRUE(frame.ok()) << frame.error().message;
  const Serial recording = reg.clock().recording();
  const Serial vertices_used = reg.last_used(vertices);
  auto objects = frame->use(vertices, sampler);
  ASSERT_FALSE(objects.ok());
  EXPECT_THAT(objects, FailsWith(MessageId::SlotLostWithoutRecipe));
  EXPECT_THAT(objects, NamesKind("sampler"));
  EXPECT_THAT(objects, NamesLabel("app sampler"));
  // None of them is marked used by a frame that will not be submitted.
  EXPECT_EQ(reg.last_used(vertices), vertices_used);
  ASSERT_NE(frame->failure(), nullptr);
  EXPECT_EQ(frame->failure()->id, MessageId::SlotLostWithoutRecipe);
  // A later use that succeeds does not make the frame submittable again.
  EXPECT_TRUE(frame->use(vertices).ok());

  auto submitted = engine->submit(std::move(*frame));
  ASSERT_FALSE(submitted.ok());
  EXPECT_THAT(submitted, FailsWith(MessageId::EngineFrameDropped));
  EXPECT_EQ(submitted.error().kind, ErrorKind::DeviceFailed);  // the failure's kind
  EXPECT_THAT(submitted.error().message, HasSubstr("nothing was submitted"));
  EXPECT_THAT(submitted.error().message, HasSubstr("sampler \"app sampler\""));
  EXPECT_THAT(submitted.error().message, HasSubstr("lost with device generation 1 and not made again"));
  EXPECT_EQ(engine->counters().frames_dropped, 1u);
  // Nothing reached the queue, and the encoder was let go: the next frame may begin.
  EXPECT_EQ(reg.clock().recording(), recording);
  auto next = engine->begin_frame();
  ASSERT_TRUE(next.ok()) << next.error().message;

  // Once its owner supplies it again, the same handle is used and the frame is submitted.
  const WGPUSamplerDescriptor d = warden::testing::nearest_clamp_sampler();
  ASSERT_TRUE(reg.replace_sampler(sampler, engine->procs().DeviceCreateSampler(engine->device(), &d)).ok());
  auto again = next->use(sampler);
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_TRUE(engine->submit(std::move(*next)).ok());
  EXPECT_EQ(engine->counters().frames_dropped, 1u);
}

TEST(FrameUse, AStaleHandleDropsTheFrameWithTheRegistrysWords) {
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null));
  ASSERT_NE(engine, nullptr);
  resources::Registry& reg = engine->registry();
  const BufferHandle vertices = make_vertices(reg, "destroyed vertices");
  ASSERT_TRUE(reg.destroy_buffer(vertices).ok());

  auto frame = engine->begin_frame();
  ASSERT_TRUE(frame.ok());
  auto used = frame->use(vertices);
  EXPECT_THAT(used, FailsWith(MessageId::HandleDestroyed));
  auto submitted = engine->submit(std::move(*frame));
  EXPECT_THAT(submitted, FailsWith(MessageId::EngineFrameDropped));
  ASSERT_FALSE(submitted.ok());
  EXPECT_EQ(submitted.error().kind, ErrorKind::StaleHandle);
  EXPECT_THAT(submitted.error().message, HasSubstr(used.error().message));
}

TEST(FrameUse, AFrameThatCannotRecordRefusesEveryUseAndSaysWhy) {
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null));
  ASSERT_NE(engine, nullptr);
  const BufferHandle vertices = make_vertices(engine->registry(), "vertices");

  // Moved from: no encoder.
  auto frame = engine->begin_frame();
  ASSERT_TRUE(frame.ok());
  Frame moved = std::move(*frame);
  EXPECT_THAT(frame->use(vertices), FailsWith(MessageId::EngineFrameEmpty));
  EXPECT_THAT(frame->use(vertices, vertices), FailsWith(MessageId::EngineFrameEmpty));

  // Begun on a device since lost and replaced: its encoder belongs to the old device.
  ASSERT_TRUE(engine->force_device_loss().ok());
  EXPECT_THAT(engine->begin_frame(), FailsWith(MessageId::EngineDeviceLost));
  engine->poll();  // lets go of the device's objects (ADR 0055); the next device comes later
  EXPECT_THAT(moved.use(vertices), FailsWith(MessageId::RegistryDeviceLost));  // while rebuilding
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
  auto stale = moved.use(vertices);
  EXPECT_THAT(stale, FailsWith(MessageId::EngineFrameFromLostDevice));
  ASSERT_FALSE(stale.ok());
  EXPECT_THAT(stale.error().message, HasSubstr("generation 1"));
  ASSERT_NE(moved.failure(), nullptr);
  EXPECT_EQ(moved.failure()->id, MessageId::RegistryDeviceLost);  // the first failure is kept

  // Outliving its engine: the frame can only be dropped.
  auto last = engine->begin_frame();
  ASSERT_TRUE(last.ok()) << last.error().message;
  Frame orphan = std::move(*last);
  engine.reset();
  EXPECT_THAT(orphan.use(vertices), FailsWith(MessageId::EngineFrameEngineGone));
}

// Passes recorded on other threads, each into an encoder of its own from objects it resolves
// and touches there, go into the frame's one submission after the frame's own commands.
TEST(FrameUse, CommandBuffersRecordedOnOtherThreadsAreSubmittedAfterTheFramesInOneSubmission) {
  auto engine = make_engine(engine_options(testing::pixel_test_backend()));
  ASSERT_NE(engine, nullptr);
  resources::Registry& reg = engine->registry();
  constexpr uint64_t kPart = 16;  // bytes each recording thread fills
  constexpr uint32_t kThreads = 2;
  auto target = reg.create_buffer(
      {.size = kPart * kThreads, .usage = WGPUBufferUsage_CopyDst | WGPUBufferUsage_MapRead, .label = "target"});
  ASSERT_TRUE(target.ok()) << target.error().message;
  std::vector<BufferHandle> sources;
  for (uint32_t t = 0; t < kThreads; ++t) {
    auto source = reg.create_buffer({.size = kPart, .usage = WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst,
                                     .label = "source " + std::to_string(t)});
    ASSERT_TRUE(source.ok()) << source.error().message;
    const std::vector<uint8_t> bytes(kPart, static_cast<uint8_t>(0x11 * (t + 1)));
    ASSERT_TRUE(reg.write_buffer(*source, 0, bytes.data(), kPart).ok());
    sources.push_back(*source);
  }

  auto frame = engine->begin_frame();
  ASSERT_TRUE(frame.ok()) << frame.error().message;
  const Serial recording = reg.clock().recording();
  // The frame's own commands clear the whole target: were they submitted after the threads'
  // copies, the copies would not show.
  auto whole = frame->use(*target);
  ASSERT_TRUE(whole.ok()) << whole.error().message;
  const gpu::Procs& p = engine->procs();
  p.CommandEncoderClearBuffer(frame->encoder(), *whole, 0, kPart * kThreads);

  const WGPUDevice device = engine->device();
  std::vector<gpu::Ref<WGPUCommandBuffer>> recorded(kThreads);
  std::vector<std::string> errors(kThreads);
  {
    std::vector<std::jthread> threads;
    for (uint32_t t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        auto from = reg.resolve(sources[t]);
        auto to = reg.resolve(*target);
        if (!from || !to) {
          errors[t] = !from ? from.error().message : to.error().message;
          return;
        }
        reg.touch(sources[t]);
        reg.touch(*target);
        gpu::Ref<WGPUCommandEncoder> encoder(&p, p.DeviceCreateCommandEncoder(device, nullptr));
        p.CommandEncoderCopyBufferToBuffer(encoder.get(), *from, 0, *to, kPart * t, kPart);
        recorded[t] = gpu::Ref<WGPUCommandBuffer>(&p, p.CommandEncoderFinish(encoder.get(), nullptr));
      });
    }
  }
  for (const std::string& error : errors) ASSERT_EQ(error, "");
  std::vector<WGPUCommandBuffer> buffers;
  for (const auto& commands : recorded) buffers.push_back(commands.get());
  auto submitted = engine->submit(std::move(*frame), buffers);
  ASSERT_TRUE(submitted.ok()) << submitted.error().message;
  EXPECT_EQ(*submitted, recording);
  // Touched on the recording threads: kept for this submission.
  EXPECT_EQ(reg.last_used(sources[0]), recording);
  EXPECT_EQ(reg.last_used(sources[1]), recording);

  auto bytes = engine->context().read_mapped(*reg.resolve(*target), kPart * kThreads, testing::kSafetyNet);
  ASSERT_TRUE(bytes.ok()) << bytes.error().message;
  std::vector<uint8_t> expected(kPart, 0x11);
  expected.insert(expected.end(), kPart, 0x22);
  EXPECT_EQ(*bytes, expected);
}

// The former crash: the value of a resolve that failed, read without checking. It stops the
// program with the error's kind, id and the registry's words, in Release as in Debug.
TEST(FrameUseDeathTest, TheValueOfALostHandlesResolveStopsTheProgramWithItsWords) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // the child starts afresh: Dawn runs threads
  auto engine = make_engine(engine_options(testing::pixel_test_backend()));
  ASSERT_NE(engine, nullptr);
  resources::Registry& reg = engine->registry();
  const BufferHandle vertices = make_vertices(reg, "doomed vertices");
  ASSERT_TRUE(engine->force_device_loss().ok());
  engine->poll();  // lets go of the device's objects (ADR 0055); the next device comes later
  EXPECT_DEATH((void)*reg.resolve(vertices),
               "the value of a failed Result was read: device failed \\(resources\\.RegistryDeviceLost\\): "
               "buffer \"doomed vertices\" \\(index [0-9]+, generation [0-9]+\\): device lost \\(device generation 1\\), "
               "rebuilding");

  // Recovered, an adopted object stays Lost: the same, with the reason it is not back.
  const SamplerHandle sampler = [&] {
    EXPECT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
    return adopt_sampler(*engine, "app sampler");
  }();
  ASSERT_TRUE(engine->force_device_loss().ok());
  ASSERT_TRUE(engine->wait_until_ready(testing::kSafetyNet).ok()) << engine->message();
  EXPECT_DEATH((void)reg.resolve(sampler).value(),
               "device failed \\(resources\\.SlotLostWithoutRecipe\\): sampler \"app sampler\" .*lost with device "
               "generation 2 and not made again");
  // And the error of a success.
  EXPECT_DEATH((void)reg.resolve(vertices).error(), "the error of a successful Result was read");
}

}  // namespace
}  // namespace warden::engine
