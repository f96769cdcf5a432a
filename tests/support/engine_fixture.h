// The application's side of an Engine in tests: what its callbacks heard, and an engine made
// with a loss budget that tests do not run out of.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "support/device_print.h"
#include "support/poll_until.h"
#include "warden/engine/engine.h"
#include "warden/gpu/objects.h"

namespace warden::testing {

using engine::Engine;
using engine::EngineCallbacks;
using engine::EngineOptions;

// What the application saw through the callbacks.
struct Heard {
  std::vector<uint64_t> ready;
  std::vector<std::pair<uint64_t, WGPUDeviceLostReason>> lost;
  std::vector<std::string> lost_messages;
  std::vector<resources::ContentsLost> contents_lost;
  std::vector<resources::RebuildReport> rebuilt;
  std::vector<std::string> order;  // "ready N", "reload applied", ...
  std::vector<device::GiveUp> failed;
  std::vector<pipelines::ReloadReport> reloads;

  EngineCallbacks callbacks() {
    EngineCallbacks c;
    c.on_ready = [this](uint64_t g) {
      ready.push_back(g);
      order.push_back("ready " + std::to_string(g));
    };
    c.on_rebuilt = [this](const resources::RebuildReport& r) { rebuilt.push_back(r); };
    c.on_lost = [this](uint64_t g, WGPUDeviceLostReason r, std::string_view m) {
      lost.emplace_back(g, r);
      lost_messages.emplace_back(m);
    };
    c.on_contents_lost = [this](const resources::ContentsLost& l) { contents_lost.push_back(l); };
    c.on_failed = [this](const device::GiveUp& why) { failed.push_back(why); };
    c.on_reload = [this](const pipelines::ReloadReport& r) {
      reloads.push_back(r);
      order.push_back(r.applied ? "reload applied" : "reload refused");
    };
    return c;
  }
};

inline EngineOptions engine_options(gpu::BackendChoice backend, unsigned losses_allowed = 100) {
  EngineOptions options;
  options.device.backend = backend;
  options.rebuild.faults_to_give_up = losses_allowed;
  options.rebuild.young_deaths_to_give_up = losses_allowed;  // the tests' losses come quickly after ready
  return options;
}

inline std::unique_ptr<Engine> make_engine(EngineOptions options, EngineCallbacks callbacks = {}) {
  auto engine = Engine::create(std::move(options), std::move(callbacks));
  EXPECT_TRUE(engine.ok()) << engine.error().message;
  return engine.ok() ? std::move(engine.value()) : nullptr;
}

// The texels of one mip level of one layer of an RGBA8 texture (CopySrc), packed row after row;
// empty on failure (with a test failure). Blocking: tests only.
inline std::vector<uint8_t> read_rgba8(Engine& engine, TextureHandle texture, uint32_t width, uint32_t height,
                                       uint32_t mip = 0, uint32_t layer = 0) {
  const gpu::Procs& p = engine.procs();
  resources::Registry& reg = engine.registry();
  auto object = reg.resolve(texture);
  if (!object.ok()) {
    ADD_FAILURE() << object.error().message;
    return {};
  }
  const uint32_t pitch = (width * 4 + 255) / 256 * 256;
  WGPUBufferDescriptor d{};
  d.size = uint64_t{pitch} * height;
  d.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
  gpu::Ref<WGPUBuffer> buffer(&p, p.DeviceCreateBuffer(engine.device(), &d));
  gpu::Ref<WGPUCommandEncoder> encoder(&p, p.DeviceCreateCommandEncoder(engine.device(), nullptr));
  gpu::copy_image_to_buffer(p, encoder.get(), *object, buffer.get(), width, height, pitch, mip, layer);
  gpu::Ref<WGPUCommandBuffer> commands(&p, p.CommandEncoderFinish(encoder.get(), nullptr));
  reg.submit(commands.get());
  auto bytes = engine.context().read_mapped(buffer.get(), d.size, kSafetyNet);
  if (!bytes.ok()) {
    ADD_FAILURE() << bytes.error().message;
    return {};
  }
  std::vector<uint8_t> packed;
  for (uint32_t y = 0; y < height; ++y) {
    packed.insert(packed.end(), bytes->begin() + size_t{y} * pitch, bytes->begin() + size_t{y} * pitch + width * 4);
  }
  return packed;
}

// One empty frame through the engine (a recovery's first frame ends its timing), with a test
// failure if it is refused.
inline void submit_empty_frame(Engine& engine) {
  auto frame = engine.begin_frame();
  ASSERT_TRUE(frame) << frame.error().message;
  auto submitted = engine.submit(std::move(*frame));
  ASSERT_TRUE(submitted) << submitted.error().message;
}

// Polls for `duration` of wall time, giving the CPU away between polls, so Dawn's reports (work
// finished, devices made) arrive while the test's own clock, if it has one, stands still.
inline void poll_for(Engine& engine, std::chrono::milliseconds duration) {
  const auto until = std::chrono::steady_clock::now() + duration;
  while (std::chrono::steady_clock::now() < until) {
    engine.poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// Clears `view` (of `target`, RGBA8, CopySrc) to green through the engine's frame and submits it;
// the target's first texel, read back (empty on failure, with a test failure).
inline std::vector<uint8_t> draw_green(Engine& engine, TextureHandle target, TextureViewHandle view,
                                       uint32_t width, uint32_t height) {
  auto frame = engine.begin_frame();
  EXPECT_TRUE(frame.ok()) << frame.error().message;
  if (!frame.ok()) return {};
  auto used = frame->use(view);
  EXPECT_TRUE(used.ok()) << used.error().message;
  if (!used.ok()) return {};
  const gpu::Procs& p = engine.procs();
  WGPURenderPassEncoder pass = gpu::begin_clear_pass(p, frame->encoder(), *used, WGPUColor{0.0, 1.0, 0.0, 1.0});
  p.RenderPassEncoderEnd(pass);
  p.RenderPassEncoderRelease(pass);
  EXPECT_TRUE(engine.submit(std::move(frame.value())).ok());
  std::vector<uint8_t> texels = read_rgba8(engine, target, width, height);
  if (texels.size() < 4) return {};
  return {texels.begin(), texels.begin() + 4};
}

}  // namespace warden::testing
