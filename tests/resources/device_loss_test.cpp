// The Registry across a device loss (docs/adr/0013, 0014): the scene of issue 11 is rendered,
// its device force-lost, the registry rebuilt on a new device, and the scene rendered again
// under the same handles.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "resources/registry_test_support.h"
#include "support/gpu_test.h"
#include "support/loss_scene.h"
#include "support/messages.h"

namespace warden::resources {
namespace {

using testing::force_loss;
using testing::FailsWith;
using testing::LossScene;
using testing::NullDeviceTest;

class SceneAcrossLoss : public testing::GlDeviceTest, public ::testing::WithParamInterface<ContentsSource> {};

TEST_P(SceneAcrossLoss, RendersByteIdenticalUnderTheSameHandlesAndReportsExactlyTheLostContents) {
  const ContentsSource source = GetParam();
  std::vector<const void*> released;
  RegistryOptions options;
  options.on_release = [&](const ReleaseEvent& e) { released.push_back(e.object); };
  auto second = testing::open_test_device(testing::pixel_test_backend());
  ASSERT_NE(second, nullptr);
  auto reg = testing::make_registry(*dev, std::move(options));
  const LossScene scene = testing::build_loss_scene(*reg, source);
  const std::vector<uint8_t> before = testing::render_loss_scene(*reg, *dev->context, scene);
  ASSERT_EQ(before.size(), testing::kSceneRowBytes * testing::kSceneSize);
  ASSERT_TRUE(std::any_of(before.begin(), before.end(), [](uint8_t b) { return b != 0 && b != 255; }));
  const LiveCounts counts = reg->live_counts();
  const std::vector<const void*> old_objects = testing::resolved_objects(*reg, scene);
  const uint32_t registry_id = reg->id();

  force_loss(*dev, *reg);
  // Every object of the lost device was let go: nothing of it is referenced any more.
  const std::set<const void*> released_set(released.begin(), released.end());
  for (const void* object : old_objects) EXPECT_TRUE(released_set.count(object)) << object;
  EXPECT_EQ(released.size(), old_objects.size());
  EXPECT_EQ(reg->slot_state(scene.render), SlotState::Lost);

  const RebuildReport report = reg->rebuild(second->device.get(), second->queue.get(), 2);
  EXPECT_TRUE(report.failed.empty()) << report.failed.front();
  EXPECT_TRUE(report.awaiting_owner.empty());
  EXPECT_EQ(report.rebuilt, old_objects.size());
  // The GPU produced the positions, the target and the readback; with no source the
  // application's own contents are lost too.
  std::vector<BufferHandle> lost_buffers = {scene.positions, scene.readback};
  std::vector<TextureHandle> lost_textures = {scene.target};
  if (source == ContentsSource::None) {
    lost_buffers = {scene.positions, scene.uvs, scene.uniforms, scene.readback};
    lost_textures = {scene.texture, scene.target};
  }
  auto sorted = [](auto v) {
    std::sort(v.begin(), v.end(), [](auto a, auto b) { return a.bits() < b.bits(); });
    return v;
  };
  EXPECT_EQ(sorted(report.contents_lost.buffers), sorted(lost_buffers));
  EXPECT_EQ(sorted(report.contents_lost.textures), sorted(lost_textures));
  if (source == ContentsSource::None) {  // told, the application writes them again
    ASSERT_TRUE(LossScene::write_uvs(*reg, scene.uvs).ok());
    ASSERT_TRUE(LossScene::write_uniforms(*reg, scene.uniforms).ok());
    ASSERT_TRUE(LossScene::write_texture(*reg, scene.texture).ok());
  }

  for (const void* object : testing::resolved_objects(*reg, scene)) EXPECT_NE(object, nullptr);
  EXPECT_EQ(reg->slot_state(scene.render), SlotState::Live);
  EXPECT_EQ(reg->id(), registry_id);
  EXPECT_EQ(reg->live_counts().by_kind, counts.by_kind);
  const std::vector<uint8_t> after = testing::render_loss_scene(*reg, *second->context, scene);
  EXPECT_EQ(after, before);
  EXPECT_TRUE(second->take_errors().empty());
  reg.reset();
  testing::close_device(second);
}

INSTANTIATE_TEST_SUITE_P(ContentsFrom, SceneAcrossLoss,
                         ::testing::Values(ContentsSource::Kept, ContentsSource::Callback, ContentsSource::None),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST_F(NullDeviceTest, KeptContentsAreCountedInLiveStatisticsAndFreedWithTheirObject) {
  auto reg = testing::make_registry(*dev);
  auto buffer = reg->create_buffer({64, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, false, "kept"});
  auto untracked = reg->create_buffer(
      {64, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, false, "not kept", ContentsSource::None});
  ASSERT_TRUE(buffer.ok() && untracked.ok());
  const uint32_t word = 7;
  ASSERT_TRUE(reg->write_buffer(*buffer, 4, &word, 4).ok());
  ASSERT_TRUE(reg->write_buffer(*untracked, 4, &word, 4).ok());
  EXPECT_EQ(reg->live_counts().kept_content_bytes, 64u);  // the whole buffer, once written
  ASSERT_TRUE(reg->destroy_buffer(*buffer).ok());
  EXPECT_EQ(reg->live_counts().kept_content_bytes, 0u);
}

// replace_buffer with a larger object of the caller's: later writes use the new size (the
// bytes kept for the old object neither limit nor overrun them), and after a loss the slot
// waits for its owner instead of replaying a recipe that describes the old object.
TEST_F(NullDeviceTest, ACreatedBufferReplacedByTheCallersOwnIsNoLongerReplayedOrKept) {
  auto reg = testing::make_registry(*dev);
  const WGPUBufferUsage usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst;
  auto buffer = reg->create_buffer({64, usage, false, "grows"});
  ASSERT_TRUE(buffer.ok());
  std::vector<uint32_t> words(256, 7u);
  ASSERT_TRUE(reg->write_buffer(*buffer, 0, words.data(), 64).ok());
  WGPUBufferDescriptor larger{};
  larger.size = 1024;
  larger.usage = usage;
  ASSERT_TRUE(reg->replace_buffer(*buffer, reg->procs().DeviceCreateBuffer(dev->device.get(), &larger)).ok());
  ASSERT_TRUE(reg->write_buffer(*buffer, 0, words.data(), 1024).ok());
  EXPECT_EQ(reg->live_counts().kept_content_bytes, 0u);
  force_loss(*dev, *reg);
  auto second = testing::open_test_device(gpu::BackendChoice::Null);
  ASSERT_NE(second, nullptr);
  const RebuildReport report = reg->rebuild(second->device.get(), second->queue.get(), 2);
  EXPECT_EQ(report.awaiting_owner, std::vector<std::string>{"buffer \"grows\""});
  reg.reset();
  testing::close_device(second);
}

TEST_F(NullDeviceTest, CallbackContentsWithoutACallbackAreRefusedNamingTheObject) {
  auto reg = testing::make_registry(*dev);
  auto buffer = reg->create_buffer(
      {16, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, false, "no refill", ContentsSource::Callback});
  ASSERT_FALSE(buffer.ok());
  EXPECT_EQ(buffer.error().kind, ErrorKind::InvalidArgument);
  EXPECT_THAT(buffer, FailsWith(MessageId::ResourceRefillMissing));
  EXPECT_NE(buffer.error().message.find("\"no refill\""), std::string::npos) << buffer.error().message;
}

// Every public call between the loss and the rebuild gives its documented result.
TEST_F(NullDeviceTest, BetweenLossAndRebuildHandlesStayValidAndDeviceCallsSayTheDeviceIsLost) {
  auto reg = testing::make_registry(*dev);
  testing::Kit kit = testing::make_kit(*reg);
  const auto view = reg->import_texture_view(reg->resolve(kit.view).value(), "imported");  // stands for a swapchain view
  ASSERT_TRUE(view.ok());
  WGPUTextureView raw_view = reg->resolve(*view).value();
  reg->procs().TextureViewAddRef(raw_view);  // the "surface" keeps its own reference
  force_loss(*dev, *reg);
  const std::string lost = "device lost (device generation 1), rebuilding";

  auto resolved = reg->resolve(kit.buffer);
  ASSERT_FALSE(resolved.ok());
  EXPECT_EQ(resolved.error().kind, ErrorKind::DeviceFailed);
  EXPECT_THAT(resolved, FailsWith(MessageId::RegistryDeviceLost));
  EXPECT_EQ(resolved.error().message, "buffer \"kit uniforms\" (index 0, generation " +
                                          std::to_string(kit.buffer.generation()) + "): " + lost);
  EXPECT_TRUE(reg->is_alive(kit.render_pipeline));
  EXPECT_EQ(reg->slot_state(kit.render_pipeline), SlotState::Lost);
  EXPECT_EQ(*reg->label(kit.sampler), "kit sampler");
  EXPECT_FALSE(reg->is_alive(*view));  // imported views are dropped: presentation imports again

  // A creation while lost is registered Lost with its recipe; the rebuild makes it (a loading
  // thread need not know about the loss). So is a bind group of it, made of Lost objects.
  auto created = reg->create_buffer({16, WGPUBufferUsage_Uniform, false, "late"});
  ASSERT_TRUE(created.ok());
  EXPECT_EQ(reg->slot_state(*created), SlotState::Lost);
  EXPECT_THAT(reg->resolve(*created), FailsWith(MessageId::RegistryDeviceLost));
  auto created_group = reg->create_bind_group(
      {kit.bind_group_layout, {{0, BufferBinding{*created}}, {1, kit.view}, {2, kit.sampler}}, "late group"});
  ASSERT_TRUE(created_group.ok()) << created_group.error().message;
  EXPECT_EQ(reg->slot_state(*created_group), SlotState::Lost);
  const uint32_t word = 1;
  auto written = reg->write_buffer(kit.buffer, 0, &word, 4);
  EXPECT_THAT(written, FailsWith(MessageId::RegistryDeviceLost));
  auto replaced = reg->replace_sampler(kit.sampler, nullptr);
  ASSERT_FALSE(replaced.ok());
  EXPECT_EQ(replaced.error().kind, ErrorKind::DeviceFailed);
  EXPECT_THAT(replaced, FailsWith(MessageId::RegistryDeviceLost));
  EXPECT_EQ(reg->submit(nullptr, 0), Serial{});
  reg->touch(kit.bind_group);  // harmless
  reg->poll();
  // Destroying while lost works: there is nothing to let go, and the handle dies.
  ASSERT_TRUE(reg->destroy_query_set(kit.query_set).ok());
  EXPECT_FALSE(reg->is_alive(kit.query_set));

  auto second = testing::open_test_device(gpu::BackendChoice::Null);
  ASSERT_NE(second, nullptr);
  const RebuildReport report = reg->rebuild(second->device.get(), second->queue.get(), 2);
  EXPECT_TRUE(report.failed.empty());
  EXPECT_EQ(report.rebuilt, kResourceKindCount - 1 + 2);  // all but the destroyed query set, and the late two
  EXPECT_TRUE(reg->resolve(kit.render_pipeline).ok());
  EXPECT_TRUE(reg->resolve(*created).ok());
  EXPECT_TRUE(reg->resolve(*created_group).ok());
  EXPECT_FALSE(reg->is_alive(kit.query_set));
  reg->procs().TextureViewRelease(raw_view);
  reg.reset();
  testing::close_device(second);
}

// One clock for every generation: whoever holds it (a LayerPool) keeps a valid reference, and
// serials recorded on the lost device are retired, never reissued to the new one's work.
TEST_F(NullDeviceTest, TheClockSurvivesARebuildAndItsSerialsGoOnCounting) {
  auto reg = testing::make_registry(*dev);
  const SubmissionClock* clock = &reg->clock();
  auto encoder = reg->procs().DeviceCreateCommandEncoder(dev->device.get(), nullptr);
  auto commands = reg->procs().CommandEncoderFinish(encoder, nullptr);
  const Serial first = reg->submit(commands);
  reg->procs().CommandBufferRelease(commands);
  reg->procs().CommandEncoderRelease(encoder);
  const Serial recorded_on_lost = reg->clock().recording();  // what a layer touched now records
  force_loss(*dev, *reg);

  auto second = testing::open_test_device(gpu::BackendChoice::Null);
  ASSERT_NE(second, nullptr);
  reg->rebuild(second->device.get(), second->queue.get(), 2);
  EXPECT_EQ(&reg->clock(), clock);
  EXPECT_TRUE(reg->clock().is_retired(first));
  encoder = reg->procs().DeviceCreateCommandEncoder(second->device.get(), nullptr);
  commands = reg->procs().CommandEncoderFinish(encoder, nullptr);
  const Serial on_new = reg->submit(commands);
  reg->procs().CommandBufferRelease(commands);
  reg->procs().CommandEncoderRelease(encoder);
  EXPECT_GT(on_new, first);
  EXPECT_GE(on_new, recorded_on_lost);
  reg.reset();
  testing::close_device(second);
}

TEST_F(NullDeviceTest, AnAdoptedObjectAwaitsItsOwnerAfterARebuildAndIsLiveOnceReplaced) {
  auto reg = testing::make_registry(*dev);
  const WGPUSamplerDescriptor d = warden::testing::nearest_clamp_sampler();
  auto adopted = reg->adopt_sampler(reg->procs().DeviceCreateSampler(dev->device.get(), &d), "app sampler");
  ASSERT_TRUE(adopted.ok());
  force_loss(*dev, *reg);
  auto second = testing::open_test_device(gpu::BackendChoice::Null);
  ASSERT_NE(second, nullptr);
  const RebuildReport report = reg->rebuild(second->device.get(), second->queue.get(), 2);
  ASSERT_EQ(report.awaiting_owner, std::vector<std::string>{"sampler \"app sampler\""});
  auto resolved = reg->resolve(*adopted);
  EXPECT_THAT(resolved, FailsWith(MessageId::SlotLostWithoutRecipe));
  ASSERT_FALSE(resolved.ok());
  EXPECT_NE(resolved.error().message.find("its owner re-supplies it with replace_sampler"), std::string::npos)
      << resolved.error().message;
  ASSERT_TRUE(reg->replace_sampler(*adopted, reg->procs().DeviceCreateSampler(second->device.get(), &d)).ok());
  EXPECT_EQ(reg->slot_state(*adopted), SlotState::Live);
  reg.reset();
  testing::close_device(second);
}

TEST_F(NullDeviceTest, AnObjectTheNewDeviceRejectsIsFailedWithTheDevicesWordsAndItsUsersFailToo) {
  // The first device has shader-f16; the module needs it. The second device lacks it.
  gpu::DeviceOptions with_f16;
  with_f16.required_features = {WGPUFeatureName_ShaderF16};
  auto first = dev->context->open_device(gpu::BackendChoice::Null, with_f16);
  ASSERT_TRUE(first.ok()) << first.error().message;
  auto reg = std::make_unique<Registry>(*dev->context, first->device.get(), first->queue.get());
  auto module = reg->create_shader_module("enable f16;\n@compute @workgroup_size(1) fn main() { let h : f16 = 1.0h; }",
                                          "half module");
  ASSERT_TRUE(module.ok()) << module.error().message;
  auto pipeline = reg->create_compute_pipeline({"half pipeline", {}, {*module, "main", {}}});
  ASSERT_TRUE(pipeline.ok()) << pipeline.error().message;
  reg->on_device_lost();
  const RebuildReport report = reg->rebuild(dev->device.get(), dev->queue.get(), 2);
  ASSERT_EQ(report.failed.size(), 2u);
  EXPECT_EQ(reg->slot_state(*module), SlotState::Failed);
  EXPECT_EQ(reg->slot_state(*pipeline), SlotState::Failed);
  auto resolved = reg->resolve(*module);
  ASSERT_FALSE(resolved.ok());
  EXPECT_EQ(resolved.error().kind, ErrorKind::DeviceFailed);
  EXPECT_THAT(resolved, FailsWith(MessageId::SlotRebuildFailed));
  EXPECT_NE(resolved.error().message.find("device generation 2"), std::string::npos)
      << resolved.error().message;
  EXPECT_NE(resolved.error().message.find("f16"), std::string::npos) << resolved.error().message;  // Dawn's words
  auto user = reg->resolve(*pipeline);
  EXPECT_THAT(user, FailsWith(MessageId::SlotRebuildFailed));
  ASSERT_FALSE(user.ok());
  EXPECT_NE(user.error().message.find("\"half module\""), std::string::npos) << user.error().message;
  // A Failed slot is tried again by the next rebuild, on a device that can make it.
  auto third = dev->context->open_device(gpu::BackendChoice::Null, with_f16);
  ASSERT_TRUE(third.ok());
  const RebuildReport again = reg->rebuild(third->device.get(), third->queue.get(), 3);
  EXPECT_TRUE(again.failed.empty());
  EXPECT_TRUE(reg->resolve(*pipeline).ok());
  reg.reset();
}

}  // namespace
}  // namespace warden::resources
