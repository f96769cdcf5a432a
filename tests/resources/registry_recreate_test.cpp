// recreate_texture and recreate_buffer (docs/adr/0024): a new object from a new recipe under the
// same handle, with the views and bind groups made of it made again; the old objects deferred
// like a replace; a rebuild after a loss makes the new size. And what still waits for its owner
// after a rebuild: a warning per object, and error texts that name real calls.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include <fmt/format.h>

#include "resources/registry_test_support.h"
#include "support/gpu_test.h"
#include "support/error_object.h"
#include "support/messages.h"

namespace warden::resources {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::force_loss;
using testing::FailsWith;
using testing::NamesKind;
using testing::NamesLabel;
using testing::NullDeviceTest;

constexpr WGPUTextureUsage kTargetUsage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_TextureBinding;

TextureDescription target(uint32_t width, uint32_t height) {
  return {.size = {width, height, 1}, .usage = kTargetUsage, .label = "target",
          .contents = ContentsSource::None};
}

// A group that samples `view`, of a layout that takes one float texture.
BindGroupHandle sampling_group(Registry& reg, TextureViewHandle view) {
  WGPUBindGroupLayoutEntry entry{};
  entry.binding = 0;
  entry.visibility = WGPUShaderStage_Fragment;
  entry.texture.sampleType = WGPUTextureSampleType_Float;
  entry.texture.viewDimension = WGPUTextureViewDimension_2D;
  auto layout = reg.create_bind_group_layout({&entry, 1}, "samples");
  EXPECT_TRUE(layout) << layout.error().message;
  auto group = reg.create_bind_group({.layout = *layout, .entries = {{0, view}}, .label = "samples target"});
  EXPECT_TRUE(group) << group.error().message;
  return group ? *group : BindGroupHandle{};
}

class RecreateTest : public NullDeviceTest {
 protected:
  void TearDown() override {
    reg.reset();
    if (second) {
      second->queue.reset();
      second->device.reset();
      second->adapter.adapter.reset();
      second->context->process_events();
      second.reset();
    }
    NullDeviceTest::TearDown();
  }
  // Loses the device and rebuilds the registry on a second one.
  RebuildReport lose_and_rebuild() {
    force_loss(*dev, *reg);
    second = testing::open_test_device(gpu::BackendChoice::Null);
    EXPECT_NE(second, nullptr);
    return reg->rebuild(second->device.get(), second->queue.get(), 2);
  }
  uint32_t width_of(TextureHandle texture) {
    auto object = reg->resolve(texture);
    EXPECT_TRUE(object) << object.error().message;
    return object ? reg->procs().TextureGetWidth(*object) : 0;
  }

  std::vector<ReleaseEvent> released;
  std::unique_ptr<Registry> reg;
  std::unique_ptr<testing::TestDevice> second;

  void make_registry() {
    RegistryOptions options;
    options.on_release = [this](const ReleaseEvent& e) { released.push_back(e); };
    reg = testing::make_registry(*dev, std::move(options));
  }
};

TEST_F(RecreateTest, ATextureItsViewAndTheGroupThatBindsItAreMadeAgainUnderTheirHandlesOldOnesAfterTheirLastUse) {
  make_registry();
  auto texture = reg->create_texture(target(32, 16));
  ASSERT_TRUE(texture) << texture.error().message;
  auto view = reg->create_texture_view(*texture, {.label = "target view"});
  ASSERT_TRUE(view) << view.error().message;
  const BindGroupHandle group = sampling_group(*reg, *view);
  const WGPUTexture old_texture = *reg->resolve(*texture);
  const WGPUTextureView old_view = *reg->resolve(*view);
  const WGPUBindGroup old_group = *reg->resolve(group);
  reg->touch(group);  // the group, its view and texture are used by the submission below
  const Serial used = testing::submit_empty(*reg, *dev);

  ASSERT_TRUE(reg->recreate_texture(*texture, target(70, 45)));
  EXPECT_EQ(width_of(*texture), 70u);
  EXPECT_NE(*reg->resolve(*texture), old_texture);
  EXPECT_NE(*reg->resolve(*view), old_view) << "the view shows the new texture";
  EXPECT_NE(*reg->resolve(group), old_group) << "the group binds the new view";
  EXPECT_EQ(reg->recipe(*texture)->size.width, 70u);
  EXPECT_EQ(reg->slot_state(*view), SlotState::Live);
  EXPECT_TRUE(released.empty()) << "nothing is let go before the submission that used it retired";
  EXPECT_EQ(reg->pending_release_count(), 3u);

  // Owned objects wait for the submission being recorded at the swap too.
  const Serial after = testing::submit_empty(*reg, *dev);
  ASSERT_GT(after, used);
  ASSERT_TRUE(testing::poll_until_retired(*reg, after));
  std::vector<const void*> gone;
  for (const ReleaseEvent& e : released) gone.push_back(e.object);
  EXPECT_THAT(gone, ::testing::UnorderedElementsAre(old_texture, old_view, old_group));
  EXPECT_TRUE(std::any_of(released.begin(), released.end(),
                          [&](const ReleaseEvent& e) { return e.object == old_texture && e.destroyed; }));
  EXPECT_EQ(reg->live_counts().of(ResourceKind::Texture), 1u);
  // The texture still counts its view: destroy refuses it first, as before.
  EXPECT_THAT(reg->destroy_texture(*texture), FailsWith(MessageId::TextureHasLiveViews));
  EXPECT_THAT(dev->take_errors(), ::testing::IsEmpty());
}

TEST_F(RecreateTest, ARebuildAfterALossMakesTheNewSizeUnderTheSameHandles) {
  make_registry();
  auto texture = reg->create_texture(target(32, 16));
  ASSERT_TRUE(texture);
  auto view = reg->create_texture_view(*texture, {.label = "target view"});
  ASSERT_TRUE(view);
  const BindGroupHandle group = sampling_group(*reg, *view);
  ASSERT_TRUE(reg->recreate_texture(*texture, target(70, 45)));
  auto buffer = reg->create_buffer({.size = 64, .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst,
                                    .label = "grows"});
  ASSERT_TRUE(buffer);
  ASSERT_TRUE(reg->recreate_buffer(*buffer, {.size = 1024, .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst,
                                             .label = "grows"}));

  const RebuildReport report = lose_and_rebuild();
  EXPECT_TRUE(report.awaiting_owner.empty());
  EXPECT_TRUE(report.failed.empty());
  EXPECT_EQ(width_of(*texture), 70u);
  EXPECT_EQ(reg->slot_state(*view), SlotState::Live);
  EXPECT_EQ(reg->slot_state(group), SlotState::Live);
  auto rebuilt_buffer = reg->resolve(*buffer);
  ASSERT_TRUE(rebuilt_buffer) << rebuilt_buffer.error().message;
  EXPECT_EQ(reg->procs().BufferGetSize(*rebuilt_buffer), 1024u);
  std::vector<uint32_t> words(256, 7u);
  EXPECT_TRUE(reg->write_buffer(*buffer, 0, words.data(), 1024)) << "the registry knows the new size";
}

TEST_F(RecreateTest, ABufferGrowsUnderItsHandleAndTheGroupThatBindsItIsMadeAgain) {
  make_registry();
  const WGPUBufferUsage usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst;
  auto buffer = reg->create_buffer({.size = 64, .usage = usage, .label = "lines"});
  ASSERT_TRUE(buffer);
  WGPUBindGroupLayoutEntry entry{};
  entry.binding = 0;
  entry.visibility = WGPUShaderStage_Vertex;
  entry.buffer.type = WGPUBufferBindingType_Uniform;
  auto layout = reg->create_bind_group_layout({&entry, 1}, "uniform");
  ASSERT_TRUE(layout);
  auto group = reg->create_bind_group({.layout = *layout, .entries = {{0, BufferBinding{*buffer, 0, 64}}}});
  ASSERT_TRUE(group);
  std::vector<uint32_t> words(16, 3u);
  ASSERT_TRUE(reg->write_buffer(*buffer, 0, words.data(), 64));
  const WGPUBindGroup old_group = *reg->resolve(*group);

  ASSERT_TRUE(reg->recreate_buffer(*buffer, {.size = 4096, .usage = usage, .label = "lines"}));
  EXPECT_EQ(reg->procs().BufferGetSize(*reg->resolve(*buffer)), 4096u);
  EXPECT_NE(*reg->resolve(*group), old_group);
  EXPECT_EQ(reg->live_counts().kept_content_bytes, 0u) << "the old buffer's bytes are not the new one's";
}

TEST_F(RecreateTest, ABadDescriptionABorrowedObjectOrAStaleHandleChangeNothing) {
  make_registry();
  auto texture = reg->create_texture(target(32, 16));
  ASSERT_TRUE(texture);
  const WGPUTexture before = *reg->resolve(*texture);
  EXPECT_THAT(reg->recreate_texture(*texture, target(0, 16)), FailsWith(MessageId::TextureZeroSize));
  auto too_wide = reg->recreate_texture(*texture, target(1u << 20, 16));
  EXPECT_THAT(too_wide, FailsWith(MessageId::TextureDescriptionInvalid));
  EXPECT_THAT(too_wide.error().message, HasSubstr("recreate_texture"));
  EXPECT_THAT(too_wide, NamesKind("texture"));
  EXPECT_THAT(too_wide, NamesLabel("target"));
  EXPECT_EQ(*reg->resolve(*texture), before);
  EXPECT_EQ(reg->recipe(*texture)->size.width, 32u);

  WGPUBufferDescriptor d{};
  d.size = 64;
  d.usage = WGPUBufferUsage_Uniform;
  WGPUBuffer theirs = reg->procs().DeviceCreateBuffer(dev->device.get(), &d);
  auto borrowed = reg->adopt_buffer(theirs, "theirs", Ownership::Borrowed);
  ASSERT_TRUE(borrowed);
  auto refused = reg->recreate_buffer(*borrowed, {.size = 128, .usage = WGPUBufferUsage_Uniform});
  EXPECT_THAT(refused, FailsWith(MessageId::RecreateNotOwned));
  EXPECT_THAT(refused.error().message, HasSubstr("replace_buffer"));
  EXPECT_EQ(*reg->resolve(*borrowed), theirs);
  ASSERT_TRUE(reg->destroy_buffer(*borrowed));
  reg->procs().BufferRelease(theirs);

  ASSERT_TRUE(reg->destroy_texture(*texture));
  EXPECT_THAT(reg->recreate_texture(*texture, target(8, 8)), FailsWith(MessageId::HandleDestroyed));
}

TEST_F(RecreateTest, AViewTheDeviceRefusesToMakeAgainIsFailedAndNamed) {
  make_registry();
  auto texture = reg->create_texture(target(32, 16));
  ASSERT_TRUE(texture);
  // A view in the texture's format: a texture of another format cannot have it.
  auto view = reg->create_texture_view(*texture, {.format = WGPUTextureFormat_RGBA8Unorm, .label = "rgba view"});
  ASSERT_TRUE(view);
  TextureDescription other = target(32, 16);
  other.format = WGPUTextureFormat_R32Float;
  auto result = reg->recreate_texture(*texture, other);
  EXPECT_THAT(result, FailsWith(MessageId::RecreateDependentFailed));
  EXPECT_THAT(result.error().message, HasSubstr("texture view \"rgba view\""));
  EXPECT_EQ(reg->slot_state(*texture), SlotState::Live);
  EXPECT_EQ(reg->slot_state(*view), SlotState::Failed);
  EXPECT_THAT(reg->resolve(*view), FailsWith(MessageId::SlotRebuildFailed));
}

TEST_F(RecreateTest, AnObjectWithoutARecipeIsNamedByItsRealCallAndWarnedAboutOnce) {
  make_registry();
  auto texture = reg->create_texture(target(8, 8));
  ASSERT_TRUE(texture);
  WGPUTexture raw = *reg->resolve(*texture);
  auto view = reg->adopt_texture_view(reg->procs().TextureCreateView(raw, nullptr), "adopted view");
  ASSERT_TRUE(view);
  lose_and_rebuild();
  auto lost = reg->resolve(*view);
  ASSERT_THAT(lost, FailsWith(MessageId::SlotLostWithoutRecipe));
  EXPECT_THAT(lost.error().message, HasSubstr("replace_texture_view"));
  EXPECT_THAT(lost.error().message, Not(HasSubstr("replace_texture view")));

  reg->diagnostics().take();
  EXPECT_EQ(reg->report_awaiting_owner(), 1u);
  const std::vector<Diagnostic> said = reg->diagnostics().take();
  ASSERT_EQ(said.size(), 1u);
  EXPECT_EQ(said[0].id, MessageId::SlotAwaitsOwner);
  EXPECT_EQ(said[0].severity, Severity::Warning);
  EXPECT_THAT(said[0].message, HasSubstr(fmt::format("texture view \"adopted view\" (index {}, generation {})",
                                                     view->index(), view->generation())));
  EXPECT_THAT(said[0].message, HasSubstr("replace_texture_view"));

  // Re-supplied: nothing awaits any more.
  WGPUTexture rebuilt = *reg->resolve(*texture);
  ASSERT_TRUE(reg->replace_texture_view(*view, reg->procs().TextureCreateView(rebuilt, nullptr)));
  EXPECT_EQ(reg->report_awaiting_owner(), 0u);
  ASSERT_TRUE(reg->destroy_texture_view(*view));
}

}  // namespace
}  // namespace warden::resources
