// Engine::last_recovery(): the breakdown of the last recovery, from the loss to the first frame
// of the new device, is filled by the engine as it recovers, every part present and the parts
// adding up to the whole. What the parts measure (their values) is the benchmark's business.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/engine_fixture.h"
#include "support/gpu_test.h"
#include "support/loss_scene.h"

namespace warden::engine {
namespace {

using testing::engine_options;
using testing::make_engine;

constexpr auto kRecoveryTimeout = std::chrono::seconds(20);


// The four parts follow each other, so they sum to the total (up to rounding); inside the
// rebuild, the kinds, contents and refills are at most the rebuild.
void expect_parts_add_up(const RecoveryTimings& t) {
  EXPECT_NEAR(t.device_request_ms + t.rebuild_ms + t.callbacks_ms + t.first_frame_ms, t.total_ms, 1e-6);
  double inside = t.rebuild.contents_ms + t.rebuild.refills_ms;
  for (double kind : t.rebuild.kind_ms) {
    EXPECT_GE(kind, 0.0);
    inside += kind;
  }
  EXPECT_LE(inside, t.rebuild.total_ms);
  EXPECT_LE(t.rebuild.total_ms, t.rebuild_ms);
}

class RecoveryTimingsOfAScene : public ::testing::TestWithParam<resources::ContentsSource> {};

TEST_P(RecoveryTimingsOfAScene, AreFilledAtTheFirstFrameAfterALossEveryPartPresentAndAddUp) {
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null));
  ASSERT_NE(engine, nullptr);
  const testing::LossScene scene = testing::build_loss_scene(engine->registry(), GetParam());
  testing::submit_empty_frame(*engine);
  EXPECT_FALSE(engine->last_recovery().has_value()) << "no loss yet";

  ASSERT_TRUE(engine->force_device_loss("recovery timings test"));
  ASSERT_TRUE(engine->wait_until_ready(kRecoveryTimeout)) << engine->message();
  EXPECT_FALSE(engine->last_recovery().has_value()) << "ready, but no frame submitted on the new device yet";
  testing::submit_empty_frame(*engine);

  ASSERT_TRUE(engine->last_recovery().has_value());
  const RecoveryTimings t = *engine->last_recovery();
  EXPECT_EQ(t.device_generation, 2u);
  EXPECT_GT(t.device_request_ms, 0.0);
  EXPECT_GT(t.rebuild_ms, 0.0);
  EXPECT_GT(t.callbacks_ms, 0.0);
  EXPECT_GT(t.first_frame_ms, 0.0);
  EXPECT_GT(t.total_ms, 0.0);
  // Every kind the scene holds was made again, and timed.
  for (ResourceKind kind : resources::kTeardownOrder) {
    if (kind == ResourceKind::QuerySet || kind == ResourceKind::RenderBundle) continue;  // the scene has none
    EXPECT_GT(t.rebuild.of(kind), 0.0) << to_string(kind);
  }
  EXPECT_GT(t.rebuild.pipelines_ms(), 0.0);
  if (GetParam() == resources::ContentsSource::Kept) {
    EXPECT_GT(t.rebuild.contents_ms, 0.0);
  } else {
    EXPECT_GT(t.rebuild.refills_ms, 0.0);
  }
  expect_parts_add_up(t);
  // The engine's copy of the rebuild report carries the same breakdown.
  EXPECT_EQ(engine->last_rebuild().timings.total_ms, t.rebuild.total_ms);

  // A later frame does not touch the finished recovery.
  testing::submit_empty_frame(*engine);
  EXPECT_EQ(engine->last_recovery()->total_ms, t.total_ms);
  (void)scene;
}

INSTANTIATE_TEST_SUITE_P(Contents, RecoveryTimingsOfAScene,
                         ::testing::Values(resources::ContentsSource::Kept, resources::ContentsSource::Callback),
                         [](const auto& info) {
                           return info.param == resources::ContentsSource::Kept ? std::string("Kept")
                                                                                : std::string("Callback");
                         });

TEST(RecoveryTimings, ALossDuringTheRebuildExtendsTheRecoveryFromTheFirstLoss) {
  auto engine = make_engine(engine_options(gpu::BackendChoice::Null));
  ASSERT_NE(engine, nullptr);
  Engine* e = engine.get();
  std::chrono::steady_clock::time_point second_loss;
  resources::BufferDescription desc{16, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, false, "refilled",
                                    resources::ContentsSource::Callback};
  desc.refill = [&](resources::Registry& reg, BufferHandle h) {
    if (reg.device_generation() == 2) {
      second_loss = std::chrono::steady_clock::now();
      EXPECT_TRUE(e->force_device_loss("lost again while rebuilding").ok());
      return;
    }
    const uint32_t word = 7;
    EXPECT_TRUE(reg.write_buffer(h, 0, &word, 4).ok());
  };
  ASSERT_TRUE(engine->registry().create_buffer(desc));

  const auto first_loss = std::chrono::steady_clock::now();
  ASSERT_TRUE(engine->force_device_loss());
  ASSERT_TRUE(engine->wait_until_ready(kRecoveryTimeout)) << engine->message();
  testing::submit_empty_frame(*engine);
  const auto first_frame = std::chrono::steady_clock::now();

  ASSERT_TRUE(engine->last_recovery().has_value());
  const RecoveryTimings t = *engine->last_recovery();
  EXPECT_EQ(t.device_generation, 3u);  // generation 2 was never shown
  // Counted from the first loss: longer than from the second one to the first frame.
  const auto ms = [](auto span) { return std::chrono::duration<double, std::milli>(span).count(); };
  EXPECT_GT(t.total_ms, ms(first_frame - second_loss));
  EXPECT_LE(t.total_ms, ms(first_frame - first_loss));
  expect_parts_add_up(t);
}

// Every device of an engine shares one BlobCache: after a loss, the scene's pipelines load what
// the first device compiled instead of compiling again.
TEST(RecoveryPipelines, LoadWhatTheLostDeviceCompiledFromTheCacheTheEngineShares) {
  auto cache = std::make_shared<gpu::BlobCache>();
  EngineOptions options = engine_options(testing::pixel_test_backend());
  options.device.cache = cache;
  auto engine = make_engine(options);
  ASSERT_NE(engine, nullptr);
  const testing::LossScene scene = testing::build_loss_scene(engine->registry(), resources::ContentsSource::Kept);
  const gpu::BlobCacheStats compiled = cache->stats();
  EXPECT_GT(compiled.stores, 0u);

  ASSERT_TRUE(engine->force_device_loss("recovery pipelines test"));
  ASSERT_TRUE(engine->wait_until_ready(kRecoveryTimeout)) << engine->message();
  EXPECT_TRUE(engine->last_rebuild().failed.empty());
  EXPECT_GT(cache->stats().hits, compiled.hits);
  EXPECT_EQ(cache->stats().stores, compiled.stores) << "the rebuild compiled nothing new";
  (void)scene;
}

}  // namespace
}  // namespace warden::engine
