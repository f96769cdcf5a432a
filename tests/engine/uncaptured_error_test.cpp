// A frame whose commands the device refuses is submitted all the same (the refusal is Dawn's,
// reported to no error scope): the engine names the frame the error came from, counts it, and
// tells the application's on_uncaptured_error, or a person on stderr, each distinct error once
// with how often it repeated.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "support/engine_fixture.h"
#include "warden/engine/engine.h"

namespace warden::engine {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using testing::engine_options;
using testing::make_engine;

// A 3D texture drawn into: every pass into it must say which depth slice.
struct VolumeTarget {
  TextureHandle texture;
  TextureViewHandle view;
};

VolumeTarget make_volume(resources::Registry& reg) {
  auto texture = reg.create_texture({.size = {4, 4, 4},
                                     .usage = WGPUTextureUsage_RenderAttachment,
                                     .dimension = WGPUTextureDimension_3D,
                                     .label = "volume"});
  EXPECT_TRUE(texture.ok()) << texture.error().message;
  if (!texture.ok()) return {};
  auto view = reg.create_texture_view(*texture, {.label = "volume view"});
  EXPECT_TRUE(view.ok()) << view.error().message;
  return {*texture, view.ok() ? *view : TextureViewHandle{}};
}

// One frame with a pass into `volume`; `slice` false leaves depthSlice out, as a port that
// forgot it does: the device refuses the pass when submit finishes the encoder. Returns the
// frame's number; submit succeeds either way.
uint64_t draw_frame(Engine& engine, const VolumeTarget& volume, bool slice, std::string_view label = {}) {
  auto frame = engine.begin_frame(label);
  EXPECT_TRUE(frame.ok()) << frame.error().message;
  if (!frame.ok()) return 0;
  const uint64_t number = frame->number();
  auto view = frame->use(volume.view);
  EXPECT_TRUE(view.ok()) << view.error().message;
  WGPURenderPassColorAttachment attachment{};
  attachment.view = *view;
  attachment.depthSlice = slice ? 1 : WGPU_DEPTH_SLICE_UNDEFINED;
  attachment.loadOp = WGPULoadOp_Clear;
  attachment.storeOp = WGPUStoreOp_Store;
  WGPURenderPassDescriptor desc{};
  desc.colorAttachmentCount = 1;
  desc.colorAttachments = &attachment;
  const gpu::Procs& p = engine.procs();
  WGPURenderPassEncoder pass = p.CommandEncoderBeginRenderPass(frame->encoder(), &desc);
  p.RenderPassEncoderEnd(pass);
  p.RenderPassEncoderRelease(pass);
  auto submitted = engine.submit(std::move(*frame));
  EXPECT_TRUE(submitted.ok()) << submitted.error().message;
  return number;
}

size_t occurrences(const std::string& text, std::string_view part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
  return n;
}

std::vector<std::string> lines_with(const std::string& text, std::string_view part) {
  std::vector<std::string> found;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.find(part) != std::string::npos) found.push_back(line);
  }
  return found;
}

TEST(EngineUncapturedErrors, ARefusedPassIsToldOnceNamingItsFrameAndTheFrameIsCounted) {
  std::vector<UncapturedError> heard;
  EngineCallbacks callbacks;
  callbacks.on_uncaptured_error = [&](const UncapturedError& error) { heard.push_back(error); };
  ::testing::internal::CaptureStderr();
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null), std::move(callbacks));
  ASSERT_NE(engine, nullptr);
  const VolumeTarget volume = make_volume(engine->registry());

  draw_frame(*engine, volume, /*slice=*/true, "whole");
  engine->poll();
  EXPECT_TRUE(heard.empty()) << heard.front().message;
  EXPECT_EQ(engine->counters().frames_with_errors, 0u);

  const uint64_t refused = draw_frame(*engine, volume, /*slice=*/false, "volume pass");
  engine->poll();
  ASSERT_FALSE(heard.empty()) << "the refused pass reached no callback";
  size_t about_the_slice = 0;
  uint64_t told = 0;
  for (const UncapturedError& error : heard) {
    EXPECT_EQ(error.type, WGPUErrorType_Validation) << error.message;
    EXPECT_EQ(error.frame, refused) << "named by the frame it came from: " << error.message;
    EXPECT_EQ(error.frame_label, "volume pass");
    EXPECT_EQ(error.count, 1u);
    if (error.message.find("depthSlice") != std::string::npos) ++about_the_slice;
    told += error.count;
  }
  EXPECT_EQ(about_the_slice, 1u) << "the refusal is told once";
  EXPECT_THAT(describe_origin(heard.front()),
              AllOf(HasSubstr("frame " + std::to_string(refused)), HasSubstr("\"volume pass\"")));
  EXPECT_EQ(engine->counters().frames_with_errors, 1u);
  EXPECT_EQ(engine->counters().last_frame_with_errors, refused);
  EXPECT_EQ(engine->counters().uncaptured_errors, told);

  const size_t heard_before = heard.size();
  draw_frame(*engine, volume, /*slice=*/true);
  engine->poll();
  EXPECT_EQ(heard.size(), heard_before) << "a whole frame after it is not blamed";
  EXPECT_EQ(engine->counters().frames_with_errors, 1u);
  engine.reset();
  const std::string printed = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(occurrences(printed, "uncaptured"), 0u) << "the callback took them; stderr said:\n" << printed;
}

TEST(EngineUncapturedErrors, WithoutACallbackStderrShowsEachDistinctErrorOnceWithHowOftenItRepeated) {
  ::testing::internal::CaptureStderr();
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null));
  ASSERT_NE(engine, nullptr);
  const VolumeTarget volume = make_volume(engine->registry());
  constexpr int kFrames = 12;
  uint64_t first = 0;
  uint64_t last = 0;
  for (int i = 0; i < kFrames; ++i) {
    last = draw_frame(*engine, volume, /*slice=*/false);
    if (i == 0) first = last;
    engine->poll();
  }
  EXPECT_EQ(engine->counters().frames_with_errors, static_cast<uint64_t>(kFrames));
  EXPECT_EQ(engine->counters().last_frame_with_errors, last);
  engine.reset();  // its end prints the repeats not counted yet
  const std::string printed = ::testing::internal::GetCapturedStderr();

  const std::vector<std::string> slice_lines = lines_with(printed, "depthSlice");
  ASSERT_FALSE(slice_lines.empty()) << "nothing reached stderr:\n" << printed;
  const std::vector<std::string> told = lines_with(printed, "uncaptured validation error in frame");
  size_t told_slice = 0;
  for (const std::string& line : told) {
    if (line.find("depthSlice") != std::string::npos) {
      ++told_slice;
      EXPECT_THAT(line, HasSubstr("in frame " + std::to_string(first) + ":")) << "named by the first frame";
    }
  }
  EXPECT_EQ(told_slice, 1u) << "printed once, not once a frame:\n" << printed;
  // Counted: at ten repeats, then at the end, with the last frame it came from.
  size_t counted_ten = 0;
  size_t counted_all = 0;
  for (const std::string& line : slice_lines) {
    if (line.find("(repeated 10 times") != std::string::npos) ++counted_ten;
    if (line.find("(repeated " + std::to_string(kFrames - 1) + " times, last in frame " + std::to_string(last) +
                  ")") != std::string::npos) {
      ++counted_all;
    }
  }
  EXPECT_EQ(counted_ten, 1u) << printed;
  EXPECT_EQ(counted_all, 1u) << printed;
  EXPECT_LE(slice_lines.size(), 3u) << "the first, then two counts:\n" << printed;
  EXPECT_THAT(printed, HasSubstr("EngineCallbacks::on_uncaptured_error")) << "says how to take them instead";
}

// An error raised by a call made while no frame is open is told, and counted, with no frame;
// no frame is counted for it.
TEST(EngineUncapturedErrors, AnErrorOutsideAFrameIsToldWithNoFrame) {
  std::vector<UncapturedError> heard;
  EngineCallbacks callbacks;
  callbacks.on_uncaptured_error = [&](const UncapturedError& error) { heard.push_back(error); };
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null), std::move(callbacks));
  ASSERT_NE(engine, nullptr);
  WGPUBufferDescriptor desc{};
  desc.label = gpu::string_view("rejected");
  desc.size = 16;
  desc.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_MapWrite;  // never valid together
  const gpu::Procs& procs = engine->procs();
  procs.BufferRelease(procs.DeviceCreateBuffer(engine->device(), &desc));
  procs.BufferRelease(procs.DeviceCreateBuffer(engine->device(), &desc));
  engine->poll();
  ASSERT_EQ(heard.size(), 1u) << "the same error twice is told once, with its count";
  EXPECT_EQ(heard[0].frame, 0u);
  EXPECT_EQ(heard[0].count, 2u);
  EXPECT_THAT(heard[0].message, HasSubstr("rejected"));
  EXPECT_THAT(describe_origin(heard[0]), HasSubstr("outside a frame"));
  EXPECT_EQ(engine->counters().uncaptured_errors, 2u);
  EXPECT_EQ(engine->counters().frames_with_errors, 0u);
}

}  // namespace
}  // namespace warden::engine
