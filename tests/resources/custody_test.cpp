// What a live recipe names stays in custody after its destroy (docs/adr/0049): a shader module a
// pipeline was made from, a layout, a buffer, view or sampler a bind group binds. The handle dies
// at once; the object stays for what names it, is made again with it after a loss, and goes when
// the last recipe that names it goes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "resources/registry_test_support.h"
#include "support/gpu_test.h"
#include "support/loss_scene.h"
#include "support/messages.h"

namespace warden::resources {
namespace {

using ::testing::HasSubstr;
using testing::FailsWith;
using testing::force_loss;
using testing::LossScene;
using testing::NullDeviceTest;

// The labels of what was let go, in order.
struct Released {
  std::vector<std::string> labels;
  RegistryOptions options() {
    RegistryOptions options;
    options.on_release = [this](const ReleaseEvent& e) { labels.emplace_back(e.label); };
    return options;
  }
  size_t count(const std::string& label) const { return std::count(labels.begin(), labels.end(), label); }
};

// Submits an empty frame and polls until it retired: what waited for the submission being
// recorded is due then.
void retire_a_frame(Registry& reg, testing::TestDevice& dev) {
  ASSERT_TRUE(testing::poll_until_retired(reg, testing::submit_empty(reg, dev)));
}

class CustodyAcrossLoss : public testing::GlDeviceTest {};

// The application destroys, right after making the scene's pipelines and bind groups, everything
// it no longer names itself: the module, the layouts, the uniform buffer, the sampled texture,
// its view and the sampler. The scene draws the same on this device, and after a loss and a
// rebuild on another one; what was kept goes with the last pipeline or group that named it.
TEST_F(CustodyAcrossLoss, WhatTheScenesPipelinesAndGroupsNameIsKeptAndTheSceneDrawsTheSameAfterALoss) {
  Released released;
  auto second = testing::open_test_device(testing::pixel_test_backend());
  ASSERT_NE(second, nullptr);
  auto reg = testing::make_registry(*dev, released.options());
  const LossScene scene = testing::build_loss_scene(*reg, ContentsSource::Kept);
  const std::vector<uint8_t> before = testing::render_loss_scene(*reg, *dev->context, scene);
  ASSERT_EQ(before.size(), testing::kSceneRowBytes * testing::kSceneSize);
  ASSERT_TRUE(std::any_of(before.begin(), before.end(), [](uint8_t b) { return b != 0 && b != 255; }));
  const uint64_t kept_bytes = reg->live_counts().kept_content_bytes;

  ASSERT_TRUE(reg->destroy_shader_module(scene.module).ok());
  ASSERT_TRUE(reg->destroy_pipeline_layout(scene.render_pipeline_layout).ok());
  ASSERT_TRUE(reg->destroy_pipeline_layout(scene.compute_pipeline_layout).ok());
  ASSERT_TRUE(reg->destroy_bind_group_layout(scene.render_layout).ok());
  ASSERT_TRUE(reg->destroy_bind_group_layout(scene.compute_layout).ok());
  ASSERT_TRUE(reg->destroy_buffer(scene.uniforms).ok());
  ASSERT_TRUE(reg->destroy_texture_view(scene.texture_view).ok());
  ASSERT_TRUE(reg->destroy_texture(scene.texture).ok());  // its one view is destroyed: allowed
  ASSERT_TRUE(reg->destroy_sampler(scene.sampler).ok());
  const std::vector<std::string> kept_labels = {"scene module",   "render pipeline layout", "compute pipeline layout",
                                                "render layout",  "compute layout",         "uniforms",
                                                "mipped view",    "mipped texture",         "sampler"};
  EXPECT_EQ(reg->live_counts().kept_for_dependents, kept_labels.size());
  // The handles are dead as after any destroy: a use of one says so, naming it.
  EXPECT_FALSE(reg->is_alive(scene.module));
  auto stale = reg->resolve(scene.module);
  EXPECT_THAT(stale, FailsWith(MessageId::HandleDestroyed));
  EXPECT_THAT(stale.error().message, HasSubstr("stale shader module handle"));
  EXPECT_THAT(stale.error().message, HasSubstr("\"scene module\""));
  // ... and a new object made of one is refused, kept or not.
  RenderPipelineDescription again = *reg->recipe(scene.render);
  again.label = "made of a destroyed module";
  auto refused = reg->create_render_pipeline(again);
  EXPECT_THAT(refused, FailsWith(MessageId::HandleDestroyed));
  // Kept bytes are kept with the buffer and texture.
  EXPECT_EQ(reg->live_counts().kept_content_bytes, kept_bytes);

  // Nothing kept goes while what names it lives, and the scene draws as before.
  retire_a_frame(*reg, *dev);
  for (const std::string& label : kept_labels) EXPECT_EQ(released.count(label), 0u) << label;
  EXPECT_EQ(testing::render_loss_scene(*reg, *dev->context, scene), before);
  EXPECT_TRUE(dev->take_errors().empty());

  force_loss(*dev, *reg);
  const RebuildReport report = reg->rebuild(second->device.get(), second->queue.get(), 2);
  EXPECT_TRUE(report.failed.empty()) << report.failed.front();
  EXPECT_EQ(reg->slot_state(scene.render), SlotState::Live);
  EXPECT_EQ(reg->slot_state(scene.render_group), SlotState::Live);
  EXPECT_EQ(reg->live_counts().kept_for_dependents, kept_labels.size());
  EXPECT_EQ(testing::render_loss_scene(*reg, *second->context, scene), before);
  EXPECT_TRUE(second->take_errors().empty());

  // Each goes with the last recipe that names it: the render pipeline's layout with it; the
  // module with the compute pipeline too; the rest with the groups.
  released.labels.clear();
  ASSERT_TRUE(reg->destroy_render_pipeline(scene.render).ok());
  EXPECT_EQ(reg->live_counts().kept_for_dependents, kept_labels.size() - 1);  // its pipeline layout
  ASSERT_TRUE(reg->destroy_compute_pipeline(scene.compute).ok());
  EXPECT_EQ(reg->live_counts().kept_for_dependents, kept_labels.size() - 3);  // and the module, the other layout
  ASSERT_TRUE(reg->destroy_bind_group(scene.compute_group).ok());
  ASSERT_TRUE(reg->destroy_bind_group(scene.render_group).ok());
  EXPECT_EQ(reg->live_counts().kept_for_dependents, 0u);
  EXPECT_EQ(reg->live_counts().kept_content_bytes, kept_bytes - 32 - 8 * 8 * 4 - 4 * 4 * 4 - 2 * 2 * 4 - 4);
  retire_a_frame(*reg, *second);
  EXPECT_EQ(reg->pending_release_count(), 0u);
  for (const std::string& label : kept_labels) EXPECT_EQ(released.count(label), 1u) << label;
  reg.reset();
  testing::close_device(second);
}

// module <- pipeline <- render bundle: both destroyed while the bundle lives, both kept; the
// bundle is recorded again after a loss with the kept pipeline; both go with the bundle.
TEST_F(NullDeviceTest, AChainModulePipelineBundleIsKeptWhileTheBundleLivesAndGoesWithIt) {
  Released released;
  auto reg = testing::make_registry(*dev, released.options());
  const testing::Kit kit = testing::make_kit(*reg);
  ASSERT_TRUE(reg->destroy_shader_module(kit.module).ok());
  ASSERT_TRUE(reg->destroy_render_pipeline(kit.render_pipeline).ok());
  ASSERT_TRUE(reg->destroy_compute_pipeline(kit.compute_pipeline).ok());  // named nowhere: it goes
  EXPECT_EQ(reg->live_counts().kept_for_dependents, 2u);
  retire_a_frame(*reg, *dev);
  EXPECT_EQ(released.count("kit compute pipeline"), 1u);
  EXPECT_EQ(released.count("kit module"), 0u);
  EXPECT_EQ(released.count("kit render pipeline"), 0u);

  force_loss(*dev, *reg);
  auto second = testing::open_test_device(gpu::BackendChoice::Null);
  ASSERT_NE(second, nullptr);
  const RebuildReport report = reg->rebuild(second->device.get(), second->queue.get(), 2);
  EXPECT_TRUE(report.failed.empty()) << report.failed.front();
  EXPECT_EQ(reg->slot_state(kit.render_bundle), SlotState::Live);
  // Re-recorded on the live device, the bundle still finds the kept pipeline.
  EXPECT_TRUE(reg->rerecord_render_bundle(kit.render_bundle).ok());
  // Its stale handle stays stale for everyone else.
  EXPECT_THAT(reg->resolve(kit.render_pipeline), FailsWith(MessageId::HandleDestroyed));

  released.labels.clear();
  ASSERT_TRUE(reg->destroy_render_bundle(kit.render_bundle).ok());
  EXPECT_EQ(reg->live_counts().kept_for_dependents, 0u);
  retire_a_frame(*reg, *second);
  EXPECT_EQ(reg->pending_release_count(), 0u);
  EXPECT_EQ(released.count("kit render pipeline"), 1u);
  EXPECT_EQ(released.count("kit module"), 1u);
  reg.reset();
  testing::close_device(second);
}

// A pipeline swapped in under the same handle from another module (a hot reload) no longer
// names the first: the kept module goes; a module both name stays.
TEST_F(NullDeviceTest, ARecipeReplacedUnderTheSameHandleLetsGoOfWhatOnlyTheOldOneNamed) {
  Released released;
  auto reg = testing::make_registry(*dev, released.options());
  auto first = reg->create_shader_module(testing::kKitWgsl, "first module");
  // Another text: Dawn hands out one module (and one pipeline) for equal ones.
  auto second = reg->create_shader_module(std::string(testing::kKitWgsl) + "// second\n", "second module");
  ASSERT_TRUE(first.ok() && second.ok());
  RenderPipelineDescription d;
  d.label = "reloaded";
  d.vertex = {*first, "vs", {}};
  d.fragment = ShaderStage{*first, "fs", {}};
  d.targets = {ColorTarget{}};
  auto pipeline = reg->create_render_pipeline(d);
  ASSERT_TRUE(pipeline.ok()) << pipeline.error().message;
  // Same module for the vertex stage, the second for the fragment: the first is still named.
  RenderPipelineDescription half = d;
  half.fragment = ShaderStage{*second, "fs", {}};
  auto made = reg->create_render_pipeline(half);
  ASSERT_TRUE(made.ok());
  ASSERT_TRUE(reg->destroy_shader_module(*first).ok());
  EXPECT_EQ(reg->live_counts().kept_for_dependents, 1u);

  WGPURenderPipeline object = *reg->resolve(*made);
  reg->procs().RenderPipelineAddRef(object);
  ASSERT_TRUE(reg->destroy_render_pipeline(*made).ok());
  ASSERT_TRUE(reg->replace_render_pipeline(*pipeline, object, half).ok());
  EXPECT_EQ(reg->live_counts().kept_for_dependents, 1u);

  RenderPipelineDescription reloaded = d;
  reloaded.vertex = {*second, "vs", {}};
  reloaded.fragment = ShaderStage{*second, "fs", {}};
  auto made_again = reg->create_render_pipeline(reloaded);
  ASSERT_TRUE(made_again.ok());
  object = *reg->resolve(*made_again);
  reg->procs().RenderPipelineAddRef(object);
  ASSERT_TRUE(reg->destroy_render_pipeline(*made_again).ok());
  ASSERT_TRUE(reg->replace_render_pipeline(*pipeline, object, reloaded).ok());
  EXPECT_EQ(reg->live_counts().kept_for_dependents, 0u);
  retire_a_frame(*reg, *dev);
  EXPECT_EQ(released.count("first module"), 1u);
}

// Shutdown lets go of what was kept too: nothing of the device is left referenced.
TEST_F(NullDeviceTest, ShutdownLetsGoOfWhatWasKeptForALiveObject) {
  Released released;
  auto reg = testing::make_registry(*dev, released.options());
  const testing::Kit kit = testing::make_kit(*reg);
  ASSERT_TRUE(reg->destroy_buffer(kit.buffer).ok());
  ASSERT_TRUE(reg->destroy_sampler(kit.sampler).ok());
  EXPECT_EQ(reg->live_counts().kept_for_dependents, 2u);
  EXPECT_EQ(released.count("kit uniforms"), 0u);
  reg->shutdown();
  EXPECT_EQ(released.count("kit uniforms"), 1u);
  EXPECT_EQ(released.count("kit sampler"), 1u);
  EXPECT_EQ(reg->live_counts().kept_for_dependents, 0u);
}

}  // namespace
}  // namespace warden::resources
