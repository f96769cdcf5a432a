#include "warden/resources/registry.h"

#include <cstring>
#include <optional>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "warden/gpu/ledger.h"

#include "resources/registry_test_support.h"
#include "warden/gpu/objects.h"
#include "support/error_object.h"
#include "support/messages.h"
#include "support/poll_until.h"

namespace warden::resources {
namespace {

using ::testing::HasSubstr;
using testing::FailsWith;
using testing::NamesKind;
using testing::NamesLabel;
using testing::NamesHandle;
using testing::GlDeviceTest;
using testing::make_kit;
using testing::make_registry;
using testing::NullDeviceTest;
using testing::poll_until_retired;
using testing::submit_empty;

// Collects the registry's release events.
struct ReleaseLog {
  std::vector<ReleaseEvent> events;
  std::vector<std::string> labels;
  RegistryOptions options(RegistryOptions base = {}) {
    base.on_release = [this](const ReleaseEvent& e) {
      events.push_back(e);
      labels.emplace_back(e.label);
    };
    return base;
  }
};

WGPUBuffer raw_buffer(testing::TestDevice& dev, uint64_t size, WGPUBufferUsage usage) {
  WGPUBufferDescriptor d{};
  d.size = size;
  d.usage = usage;
  return dev.procs().DeviceCreateBuffer(dev.device.get(), &d);
}

// ---- every kind -------------------------------------------------------------------------------

TEST_F(NullDeviceTest, CreatesOneObjectOfEveryKindAndResolvesIt) {
  auto reg = make_registry(*dev);
  testing::Kit kit = make_kit(*reg);
  dev->context->process_events();
  EXPECT_TRUE(dev->take_errors().empty());
  LiveCounts counts = reg->live_counts();
  for (size_t k = 0; k < kResourceKindCount; ++k) EXPECT_EQ(counts.by_kind[k], 1u) << k;
  EXPECT_EQ(counts.total(), 12u);
  EXPECT_TRUE(reg->resolve(kit.buffer).ok());
  EXPECT_TRUE(reg->resolve(kit.query_set).ok());
  EXPECT_TRUE(reg->resolve(kit.render_pipeline).ok());
  ASSERT_NE(reg->label(kit.bind_group), nullptr);
  EXPECT_EQ(*reg->label(kit.bind_group), "kit bind group");
  EXPECT_EQ(reg->ownership(kit.texture), Ownership::Owned);
}

TEST_F(NullDeviceTest, AdoptTakesOverTheObjectAndGeneratesALabelWhenNoneIsGiven) {
  auto reg = make_registry(*dev);
  WGPUBuffer raw = raw_buffer(*dev, 64, WGPUBufferUsage_CopyDst);
  auto h = reg->adopt_buffer(raw, "");
  ASSERT_TRUE(h.ok()) << h.error().message;
  ASSERT_TRUE(reg->resolve(*h).ok());
  EXPECT_EQ(*reg->resolve(*h), raw);
  ASSERT_NE(reg->label(*h), nullptr);
  EXPECT_EQ(*reg->label(*h), fmt::format("buffer#0.{}", h->generation()));
  // The adopted buffer's contract is read from the object itself.
  EXPECT_TRUE(reg->write_buffer(*h, 0, std::vector<uint32_t>(16).data(), 64).ok());
  EXPECT_THAT(reg->require_usage(*h, WGPUBufferUsage_Uniform), FailsWith(MessageId::ResourceMissingUsage));
}

// ---- bad handles ------------------------------------------------------------------------------

TEST_F(NullDeviceTest, StaleHandleErrorNamesKindIndexGenerationAndLabel) {
  auto reg = make_registry(*dev);
  auto h = reg->create_buffer({16, WGPUBufferUsage_Uniform, false, "vertices"});
  ASSERT_TRUE(h.ok());
  ASSERT_TRUE(reg->destroy_buffer(*h).ok());
  auto r = reg->resolve(*h);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::StaleHandle);
  EXPECT_THAT(r, FailsWith(MessageId::HandleDestroyed));
  EXPECT_THAT(r.error().message, HasSubstr("stale buffer handle"));
  EXPECT_THAT(r, NamesKind("buffer"));
  EXPECT_THAT(r, NamesHandle(0, h->generation()));
  EXPECT_THAT(r, NamesLabel("vertices"));
  EXPECT_EQ(reg->label(*h), nullptr);
  EXPECT_FALSE(reg->is_alive(*h));
}

TEST_F(NullDeviceTest, ReusedSlotDoesNotResolveTheOldHandle) {
  auto reg = make_registry(*dev);
  auto a = reg->create_buffer({16, WGPUBufferUsage_Uniform, false, "first"});
  ASSERT_TRUE(reg->destroy_buffer(*a).ok());
  auto b = reg->create_buffer({16, WGPUBufferUsage_Uniform, false, "second"});
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->index(), a->index());
  EXPECT_EQ(b->generation(), a->generation() + 1);
  auto r = reg->resolve(*a);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r, FailsWith(MessageId::HandleDestroyed));
  EXPECT_THAT(r.error().message, HasSubstr(fmt::format("now holds generation {} (\"second\")", b->generation())));
  EXPECT_TRUE(reg->resolve(*b).ok());
  // Destroying the old handle again must not touch the new occupant.
  EXPECT_TRUE(reg->destroy_buffer(*a).ok());
  EXPECT_TRUE(reg->resolve(*b).ok());
}

TEST_F(NullDeviceTest, NullHandleIsAnErrorOnResolveAndANoOpOnDestroy) {
  auto reg = make_registry(*dev);
  auto r = reg->resolve(TextureHandle{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::StaleHandle);
  EXPECT_THAT(r, FailsWith(MessageId::HandleNull));
  EXPECT_THAT(r.error().message, HasSubstr("texture"));
  EXPECT_TRUE(reg->destroy_texture(TextureHandle{}).ok());
  EXPECT_EQ(reg->diagnostics().count("gfx.resources"), 0u);
}

TEST_F(NullDeviceTest, ForeignHandleIsRefusedAndLeavesItsOwnerAlone) {
  auto a = make_registry(*dev);
  auto b = make_registry(*dev);
  ASSERT_NE(a->id(), b->id());
  auto h = a->create_buffer({16, WGPUBufferUsage_Uniform, false, "a's"});
  ASSERT_TRUE(h.ok());
  // b has a live buffer in the same slot; a handle with b's index and generation but a's
  // registry id differs from it only in the id.
  auto other = b->create_buffer({16, WGPUBufferUsage_Uniform, false, "b's"});
  ASSERT_EQ(other->index(), h->index());
  const auto in_a = BufferHandle::make(other->index(), other->generation(), a->id());
  auto r = b->resolve(in_a);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::StaleHandle);
  EXPECT_THAT(r, FailsWith(MessageId::HandleForeign));
  EXPECT_THAT(r, NamesKind("buffer"));
  EXPECT_THAT(r, NamesHandle(0, other->generation()));
  EXPECT_FALSE(b->resolve(*h).ok());
  EXPECT_THAT(b->destroy_buffer(*h), FailsWith(MessageId::HandleForeign));
  EXPECT_TRUE(a->resolve(*h).ok());
  EXPECT_TRUE(b->resolve(*other).ok());
}

// Registry ids have 8 bits; an application that makes one registry per device generation passes
// 255 of them. A handle of a registry that is gone must never resolve in a later one, even one
// that got the same id (docs/adr/0002).
TEST_F(NullDeviceTest, HandlesOfRegistriesThatAreGoneNeverResolveInLaterOnes) {
  constexpr int kRegistries = 600;
  std::vector<BufferHandle> earlier;
  std::vector<uint32_t> ids;
  size_t same_id_checked = 0;
  for (int i = 0; i < kRegistries; ++i) {
    auto reg = make_registry(*dev);
    // Churn a little so the registries do not all issue generation 1 only.
    for (int c = 0; c < i % 3; ++c) {
      auto tmp = reg->create_buffer({4, WGPUBufferUsage_Uniform, false, "churn"});
      ASSERT_TRUE(reg->destroy_buffer(*tmp).ok());
    }
    auto mine = reg->create_buffer({4, WGPUBufferUsage_Uniform, false, fmt::format("r{}", i)});
    ASSERT_TRUE(mine.ok()) << mine.error().message;
    for (size_t j = 0; j < earlier.size(); ++j) {
      auto r = reg->resolve(earlier[j]);
      ASSERT_FALSE(r.ok()) << "registry " << i << " (id " << reg->id() << ") resolved the handle of registry "
                           << j << " (id " << ids[j] << ")";
      ASSERT_EQ(r.error().kind, ErrorKind::StaleHandle);
      if (ids[j] == reg->id()) {
        ++same_id_checked;
        ASSERT_THAT(r, FailsWith(MessageId::HandleFromEarlierRegistry));
        // Destroy of such a handle is an error too, not a silent "double destroy".
        ASSERT_THAT(reg->destroy_buffer(earlier[j]), FailsWith(MessageId::HandleFromEarlierRegistry));
      }
    }
    ASSERT_TRUE(reg->resolve(*mine).ok());
    earlier.push_back(*mine);
    ids.push_back(reg->id());
  }
  EXPECT_GE(same_id_checked, static_cast<size_t>(kRegistries - 255));  // ids were reused
}

TEST_F(NullDeviceTest, WrongKindHandleIsRefusedAtRunTime) {
  auto reg = make_registry(*dev);
  auto buffer = reg->create_buffer({16, WGPUBufferUsage_Uniform, false, "buf"});
  TextureDescription td;
  td.size = {1, 1, 1};
  td.usage = WGPUTextureUsage_CopyDst;
  auto texture = reg->create_texture(td);
  ASSERT_TRUE(texture.ok());
  // A buffer handle reinterpreted as a texture handle (same index and generation).
  auto forged = TextureHandle::from_bits(buffer->bits());
  auto r = reg->resolve(forged);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::StaleHandle);
  EXPECT_THAT(r, FailsWith(MessageId::HandleWrongKind));
  EXPECT_THAT(r, NamesKind("buffer"));
  EXPECT_THAT(r, NamesHandle(0, buffer->generation()));
  EXPECT_THAT(r.error().message, HasSubstr("was given where a texture handle is expected"));
  EXPECT_THAT(reg->destroy_texture(forged), FailsWith(MessageId::HandleWrongKind));
  EXPECT_TRUE(reg->resolve(*texture).ok());
}

TEST_F(NullDeviceTest, DoubleDestroyIsALoggedNoOp) {
  auto reg = make_registry(*dev);
  auto h = reg->create_shader_module("@compute @workgroup_size(1) fn main() {}", "cs");
  ASSERT_TRUE(h.ok());
  EXPECT_TRUE(reg->destroy_shader_module(*h).ok());
  EXPECT_TRUE(reg->destroy_shader_module(*h).ok());
  auto entries = reg->diagnostics().entries();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].severity, Severity::Warning);
  EXPECT_EQ(entries[0].category, "gfx.resources");
  EXPECT_EQ(entries[0].id, MessageId::DoubleDestroyIgnored);
  EXPECT_THAT(entries[0].message, HasSubstr("\"cs\""));
}

TEST_F(NullDeviceTest, TouchOfADeadHandleIsALoggedNoOp) {
  auto reg = make_registry(*dev);
  auto h = reg->create_sampler({.label = "s"});
  ASSERT_TRUE(reg->destroy_sampler(*h).ok());
  reg->touch(*h);
  EXPECT_EQ(reg->diagnostics().count("gfx.resources", Severity::Warning), 1u);
  EXPECT_EQ(reg->diagnostics().count(MessageId::TouchIgnored), 1u);
}

// The diagnostics sink is application code: one that destroys a bind group when it hears that a
// view the group binds is stale, while that group is being touched, leaves a registry whose
// counts add up (the report comes after the loops over the group's bindings).
TEST_F(NullDeviceTest, ASinkThatDestroysTheGroupBeingTouchedLeavesTheRegistryConsistent) {
  auto reg = make_registry(*dev);
  TextureDescription td;
  td.size = {4, 4, 1};
  td.usage = WGPUTextureUsage_TextureBinding;
  td.label = "t";
  auto texture = reg->create_texture(td);
  // An imported view: forgotten while the group binds it, its handle is stale there (a destroyed
  // one would be kept for the group, docs/adr/0049).
  WGPUTextureView raw_view = dev->procs().TextureCreateView(*reg->resolve(*texture), nullptr);
  auto view = reg->import_texture_view(raw_view, "v");
  auto second_view = reg->create_texture_view(*texture, {.label = "v2"});
  auto buffer = reg->create_buffer({16, WGPUBufferUsage_Uniform, false, "u"});
  auto sampler = reg->create_sampler({.label = "s"});
  auto entries = testing::kit_layout_entries();
  entries.push_back(entries[1]);  // a second texture: the loop over views has one to go after the stale one
  entries.back().binding = 3;
  auto layout = reg->create_bind_group_layout(entries, "layout");
  auto group = reg->create_bind_group(
      {*layout, {{0, BufferBinding{*buffer}}, {1, *view}, {2, *sampler}, {3, *second_view}}, "group"});
  ASSERT_TRUE(group.ok()) << group.error().message;
  ASSERT_TRUE(reg->forget_texture_view(*view).ok());
  std::vector<Result<void>> destroyed;
  reg->diagnostics().set_sink([&](const Diagnostic& d) {
    if (d.id == MessageId::TouchIgnored && destroyed.empty()) destroyed.push_back(reg->destroy_bind_group(*group));
  });
  reg->touch(*group);
  reg->diagnostics().set_sink(nullptr);
  ASSERT_EQ(destroyed.size(), 1u);
  EXPECT_TRUE(destroyed[0].ok());
  EXPECT_FALSE(reg->is_alive(*group));
  EXPECT_EQ(reg->live_counts().of(ResourceKind::BindGroup), 0u);
  EXPECT_EQ(reg->diagnostics().count(MessageId::TouchIgnored), 1u);
  dev->procs().TextureViewRelease(raw_view);
}

// ---- capacity ---------------------------------------------------------------------------------

TEST_F(NullDeviceTest, FullPoolRefusesAndReleasesTheObjectJustMade) {
  ReleaseLog log;
  RegistryOptions options;
  options.buffer_capacity = 2;
  auto reg = make_registry(*dev, log.options(options));
  ASSERT_TRUE(reg->create_buffer({4, WGPUBufferUsage_Uniform, false, "one"}).ok());
  ASSERT_TRUE(reg->create_buffer({4, WGPUBufferUsage_Uniform, false, "two"}).ok());
  auto third = reg->create_buffer({4, WGPUBufferUsage_Uniform, false, "three"});
  ASSERT_FALSE(third.ok());
  EXPECT_EQ(third.error().kind, ErrorKind::PoolFull);
  EXPECT_THAT(third, FailsWith(MessageId::ResourcePoolFull));
  EXPECT_THAT(third.error().message, HasSubstr("buffer pool is full (2 of 2 slots in use"));
  auto adopted = reg->adopt_buffer(raw_buffer(*dev, 4, WGPUBufferUsage_Uniform), "four");
  ASSERT_FALSE(adopted.ok());
  EXPECT_EQ(adopted.error().kind, ErrorKind::PoolFull);
  EXPECT_THAT(adopted, FailsWith(MessageId::ResourcePoolFull));
  ASSERT_EQ(log.labels, (std::vector<std::string>{"three", "four"}));
  EXPECT_TRUE(log.events[0].destroyed);
  EXPECT_EQ(reg->live_counts().of(ResourceKind::Buffer), 2u);
}

// A creation while the device is lost makes no GPU object (the rebuild would): a full pool
// refuses it with PoolFull, lets go of nothing and reports no release, and the rebuild makes
// exactly what the pool holds.
TEST_F(NullDeviceTest, FullPoolWhileTheDeviceIsLostRefusesTheCreationAndReleasesNothing) {
  ReleaseLog log;
  RegistryOptions options;
  options.buffer_capacity = 1;
  options.shader_module_capacity = 1;
  auto reg = make_registry(*dev, log.options(options));
  ASSERT_TRUE(reg->create_buffer({4, WGPUBufferUsage_Uniform, false, "one"}).ok());
  ASSERT_TRUE(reg->create_shader_module(testing::kKitWgsl, "first module").ok());
  testing::force_loss(*dev, *reg);
  const size_t released_by_loss = log.events.size();

  auto buffer = reg->create_buffer({4, WGPUBufferUsage_Uniform, false, "two"});
  ASSERT_FALSE(buffer.ok());
  EXPECT_EQ(buffer.error().kind, ErrorKind::PoolFull);
  EXPECT_THAT(buffer, FailsWith(MessageId::ResourcePoolFull));
  EXPECT_THAT(buffer.error().message, HasSubstr("buffer pool is full (1 of 1 slots in use"));
  EXPECT_THAT(buffer.error().message, HasSubstr("\"two\" was not made"));
  auto module = reg->create_shader_module(testing::kKitWgsl, "second module");
  ASSERT_FALSE(module.ok());
  EXPECT_THAT(module, FailsWith(MessageId::ResourcePoolFull));
  EXPECT_EQ(log.events.size(), released_by_loss) << "nothing was made, so nothing is let go";
  EXPECT_EQ(reg->live_counts().of(ResourceKind::Buffer), 1u);
  EXPECT_EQ(reg->live_counts().of(ResourceKind::ShaderModule), 1u);

  auto second = testing::open_test_device(gpu::BackendChoice::Null);
  ASSERT_NE(second, nullptr);
  const RebuildReport report = reg->rebuild(second->device.get(), second->queue.get(), 2);
  EXPECT_TRUE(report.failed.empty());
  EXPECT_EQ(report.rebuilt, 2u);
  reg.reset();
  testing::close_device(second);
}

TEST_F(NullDeviceTest, CapacityBeyondTheHandleIndexIsCutAndReported) {
  RegistryOptions options;
  options.query_set_capacity = HandleLayout::kMaxSlots + 5;
  auto reg = make_registry(*dev, options);
  auto entries = reg->diagnostics().entries();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].id, MessageId::RegistryCapacityClamped);
  EXPECT_EQ(entries[0].message, "query set capacity 1048581 exceeds what a handle can index; using 1048576");
}

TEST_F(NullDeviceTest, SlotWhoseGenerationReachesTheLimitIsExhaustedNotWrapped) {
  RegistryOptions options;
  options.sampler_capacity = 1;
  options.generation_limit = 2;
  auto reg = make_registry(*dev, options);
  auto first = reg->create_sampler({.label = "g1"});
  ASSERT_TRUE(reg->destroy_sampler(*first).ok());
  auto second = reg->create_sampler({.label = "g2"});
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->generation(), first->generation() + 1);
  ASSERT_TRUE(reg->destroy_sampler(*second).ok());
  EXPECT_EQ(reg->diagnostics().count("gfx.resources", Severity::Info), 1u);
  EXPECT_EQ(reg->diagnostics().count(MessageId::SlotExhausted), 1u);
  auto third = reg->create_sampler({.label = "g3"});
  ASSERT_FALSE(third.ok());
  EXPECT_EQ(third.error().kind, ErrorKind::PoolFull);
  EXPECT_THAT(third, FailsWith(MessageId::ResourcePoolFull));
  EXPECT_THAT(third.error().message, HasSubstr("1 exhausted"));
  EXPECT_FALSE(reg->resolve(*first).ok());
}

// ---- zero sizes and usages ---------------------------------------------------------------------

TEST_F(NullDeviceTest, ZeroSizedBufferOrTextureIsRefusedBeforeDawn) {
  auto reg = make_registry(*dev);
  auto b = reg->create_buffer({0, WGPUBufferUsage_Uniform, false, "empty"});
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.error().kind, ErrorKind::InvalidArgument);
  EXPECT_THAT(b, FailsWith(MessageId::BufferZeroSize));
  EXPECT_THAT(b, NamesLabel("empty"));
  TextureDescription td;
  td.size = {16, 0, 1};
  td.usage = WGPUTextureUsage_CopyDst;
  td.label = "flat";
  auto t = reg->create_texture(td);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().kind, ErrorKind::InvalidArgument);
  EXPECT_THAT(t, FailsWith(MessageId::TextureZeroSize));
  EXPECT_THAT(t.error().message, HasSubstr("16x0x1"));
  auto q = reg->create_query_set({WGPUQueryType_Occlusion, 0, "none"});
  EXPECT_EQ(q.error().kind, ErrorKind::InvalidArgument);
  EXPECT_THAT(q, FailsWith(MessageId::QuerySetZeroCount));
  dev->context->process_events();
  EXPECT_TRUE(dev->take_errors().empty());
  EXPECT_EQ(reg->live_counts().total(), 0u);
}

TEST_F(NullDeviceTest, UndeclaredUsageIsRefusedBeforeDawnNamingTheUsage) {
  auto reg = make_registry(*dev);
  auto uniform = reg->create_buffer({16, WGPUBufferUsage_Uniform, false, "no copy dst"});
  uint32_t data[4] = {};
  auto w = reg->write_buffer(*uniform, 0, data, sizeof(data));
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().kind, ErrorKind::MissingUsage);
  EXPECT_THAT(w, FailsWith(MessageId::ResourceMissingUsage));
  EXPECT_THAT(w, NamesKind("buffer"));
  EXPECT_THAT(w, NamesLabel("no copy dst"));
  EXPECT_THAT(w, NamesHandle(0, reg->first_generation()));
  EXPECT_THAT(w.error().message, HasSubstr("lacks usage CopyDst (created with Uniform)"));

  TextureDescription td;
  td.size = {4, 4, 1};
  td.usage = WGPUTextureUsage_CopyDst;  // no TextureBinding
  td.label = "upload only";
  auto texture = reg->create_texture(td);
  auto view = reg->create_texture_view(*texture, {.label = "v"});
  auto tw = reg->write_texture(*texture, {.size = {4, 4, 1}, .bytes_per_row = 16}, std::vector<uint8_t>(64).data(), 64);
  EXPECT_TRUE(tw.ok()) << tw.error().message;

  auto copy_only = reg->create_buffer({16, WGPUBufferUsage_CopyDst, false, "copy only"});
  auto sampler = reg->create_sampler({.mag_filter = WGPUFilterMode_Linear,
                                      .min_filter = WGPUFilterMode_Linear});
  auto entries = testing::kit_layout_entries();
  auto layout = reg->create_bind_group_layout(entries, "layout");
  auto bad_buffer = reg->create_bind_group({*layout, {{0, BufferBinding{*copy_only}}, {1, *view}, {2, *sampler}}, "bg"});
  ASSERT_FALSE(bad_buffer.ok());
  EXPECT_EQ(bad_buffer.error().kind, ErrorKind::MissingUsage);
  EXPECT_THAT(bad_buffer, FailsWith(MessageId::ResourceMissingUsage));
  EXPECT_THAT(bad_buffer.error().message, HasSubstr("entry 0 (binding 0)"));
  EXPECT_THAT(bad_buffer.error().message, HasSubstr("lacks usage Uniform"));

  auto good_buffer = reg->create_buffer({16, WGPUBufferUsage_Uniform, false, "u"});
  auto bad_view = reg->create_bind_group({*layout, {{0, BufferBinding{*good_buffer}}, {1, *view}, {2, *sampler}}, "bg"});
  ASSERT_FALSE(bad_view.ok());
  EXPECT_EQ(bad_view.error().kind, ErrorKind::MissingUsage);
  EXPECT_THAT(bad_view, FailsWith(MessageId::ResourceMissingUsage));
  EXPECT_THAT(bad_view, NamesKind("texture"));
  EXPECT_THAT(bad_view, NamesLabel("upload only"));
  EXPECT_THAT(bad_view.error().message, HasSubstr("lacks usage TextureBinding"));

  EXPECT_THAT(reg->require_usage(*view, WGPUTextureUsage_RenderAttachment),
              FailsWith(MessageId::ResourceMissingUsage));
  auto sampled = reg->create_texture({.size = {4, 4, 1}, .usage = WGPUTextureUsage_TextureBinding});
  auto ro = reg->write_texture(*sampled, {.size = {4, 4, 1}, .bytes_per_row = 16}, std::vector<uint8_t>(64).data(), 64);
  EXPECT_THAT(ro, FailsWith(MessageId::ResourceMissingUsage));
  EXPECT_THAT(ro.error().message, HasSubstr("lacks usage CopyDst"));
  dev->context->process_events();
  EXPECT_TRUE(dev->take_errors().empty());  // every refusal happened before Dawn
  EXPECT_EQ(reg->live_counts().of(ResourceKind::BindGroup), 0u);
}

TEST_F(NullDeviceTest, WritesOutsideTheObjectAreRefused) {
  auto reg = make_registry(*dev);
  auto b = reg->create_buffer({16, WGPUBufferUsage_CopyDst, false, "small"});
  uint32_t data[8] = {};
  auto w = reg->write_buffer(*b, 8, data, 16);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().kind, ErrorKind::InvalidArgument);
  EXPECT_THAT(w, FailsWith(MessageId::WriteBufferOutOfRange));
  EXPECT_THAT(w.error().message, HasSubstr("bytes [8, 24) lie outside its 16 bytes"));
  EXPECT_THAT(reg->write_buffer(*b, 2, data, 4), FailsWith(MessageId::WriteBufferMisaligned));
  auto t = reg->create_texture({.size = {8, 8, 1}, .usage = WGPUTextureUsage_CopyDst, .mip_level_count = 2, .label = "t"});
  ASSERT_TRUE(t.ok()) << t.error().message;
  std::vector<uint8_t> texels(8 * 8 * 4);
  auto tw = reg->write_texture(*t, {.mip_level = 1, .size = {8, 8, 1}, .bytes_per_row = 32}, texels.data(), texels.size());
  EXPECT_THAT(tw, FailsWith(MessageId::WriteTextureOutOfRange));
  EXPECT_THAT(tw.error().message, HasSubstr("lies outside mip 1 (4x4x1)"));
  EXPECT_TRUE(reg->write_texture(*t, {.mip_level = 1, .size = {4, 4, 1}, .bytes_per_row = 16}, texels.data(), 64).ok());
  dev->context->process_events();
  EXPECT_TRUE(dev->take_errors().empty());
}

// ---- ownership --------------------------------------------------------------------------------

TEST_F(NullDeviceTest, BorrowedObjectIsReleasedButNeverDestroyed) {
  ReleaseLog log;
  auto reg = make_registry(*dev, log.options());
  const auto& p = dev->procs();
  WGPUBuffer mine = raw_buffer(*dev, 16, WGPUBufferUsage_CopyDst);
  auto h = reg->adopt_buffer(mine, "caller's", Ownership::Borrowed);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(reg->ownership(*h), Ownership::Borrowed);
  ASSERT_TRUE(reg->destroy_buffer(*h).ok());
  EXPECT_FALSE(reg->resolve(*h).ok());
  ASSERT_EQ(log.events.size(), 1u);
  EXPECT_FALSE(log.events[0].destroyed);
  // The caller's buffer still works: a write to a destroyed buffer is a validation error.
  uint32_t data[4] = {1, 2, 3, 4};
  p.QueueWriteBuffer(dev->queue.get(), mine, 0, data, sizeof(data));
  dev->context->process_events();
  EXPECT_TRUE(dev->take_errors().empty());
  p.BufferRelease(mine);
}

// A borrowed object whose last use retired is let go inside its destroy, and the release hook
// runs there. A hook that creates an object of the same kind gets the slot just freed: the
// destroy must not then clear what that new occupant's record holds (its recipe, its kept
// contents), or it would come back Lost, not rebuilt, after the next loss; and the event's label
// must not be the slot's string, which the creation overwrites.
TEST_F(NullDeviceTest, AReleaseHookThatCreatesInsideADestroyKeepsTheNewObjectsRecipe) {
  std::optional<BufferHandle> made_in_hook;
  Registry* registry = nullptr;
  RegistryOptions options;
  std::string label_after_create;
  options.on_release = [&](const ReleaseEvent& e) {
    if (made_in_hook) return;
    auto made = registry->create_buffer({16, WGPUBufferUsage_CopyDst, false, "made in the hook, a longer label"});
    ASSERT_TRUE(made.ok()) << made.error().message;
    made_in_hook = *made;
    label_after_create = std::string(e.label);  // the event's words outlive what the hook did
  };
  auto reg = make_registry(*dev, options);
  registry = reg.get();
  WGPUBuffer mine = raw_buffer(*dev, 16, WGPUBufferUsage_CopyDst);
  auto borrowed = reg->adopt_buffer(mine, "caller's", Ownership::Borrowed);
  ASSERT_TRUE(borrowed.ok());
  ASSERT_TRUE(reg->destroy_buffer(*borrowed).ok());
  ASSERT_TRUE(made_in_hook.has_value()) << "the hook ran inside the destroy";
  EXPECT_EQ(label_after_create, "caller's");
  EXPECT_EQ(made_in_hook->index(), borrowed->index()) << "the freed slot is the one reused";
  ASSERT_TRUE(reg->recipe(*made_in_hook).has_value());
  EXPECT_EQ(reg->recipe(*made_in_hook)->size, 16u);
  // After a loss it is made again from that recipe.
  reg->on_device_lost();
  auto second = testing::open_test_device(gpu::BackendChoice::Null);
  ASSERT_NE(second, nullptr);
  const RebuildReport report = reg->rebuild(second->device.get(), second->queue.get(), 2);
  EXPECT_TRUE(report.failed.empty());
  EXPECT_EQ(reg->slot_state(*made_in_hook), SlotState::Live);
  EXPECT_TRUE(reg->resolve(*made_in_hook).ok());
  reg.reset();
  testing::close_device(second);
  dev->procs().BufferRelease(mine);
}

// Shutdown (and the registry's end) lets go of every live object and tells the release hook of
// each. A hook that creates or adopts meanwhile is refused with its own message, and its owned
// object released: accepted, it would be left alive with no one to let it go. Afterwards the
// registry makes objects again.
TEST_F(NullDeviceTest, AReleaseHookThatCreatesDuringShutdownIsRefusedAndLeavesNothingBehind) {
  Registry* registry = nullptr;
  std::vector<std::string> labels;
  std::vector<Result<BufferHandle>> made_in_hook;
  RegistryOptions options;
  options.on_release = [&](const ReleaseEvent& e) {
    made_in_hook.push_back(registry->create_buffer({16, WGPUBufferUsage_CopyDst, false, "made in the hook"}));
    labels.emplace_back(e.label);
  };
  auto reg = make_registry(*dev, options);
  registry = reg.get();
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(reg->create_buffer({16, WGPUBufferUsage_CopyDst, false, "mine"}).ok());
  reg->shutdown();
  ASSERT_EQ(made_in_hook.size(), 3u);
  for (const auto& made : made_in_hook) EXPECT_THAT(made, FailsWith(MessageId::CreatedWhileReleasingAll));
  EXPECT_THAT(labels, ::testing::Each(::testing::Eq("mine")));
  EXPECT_EQ(reg->live_counts().total(), 0u);
  auto after = reg->create_buffer({16, WGPUBufferUsage_CopyDst, false, "after shutdown"});
  EXPECT_TRUE(after.ok());
  labels.clear();
  made_in_hook.clear();
  reg.reset();  // its end lets go of "after shutdown"; the hook's creation is refused again
  ASSERT_EQ(made_in_hook.size(), 1u);
  EXPECT_THAT(made_in_hook[0], FailsWith(MessageId::CreatedWhileReleasingAll));
  EXPECT_THAT(labels, ::testing::ElementsAre("after shutdown"));
}

// The same walk with a hook that destroys an object the walk has not reached yet: the object
// leaves its pool at once and waits as a pending release, which must still be let go before
// shutdown returns, not kept (with its device) until a poll that the registry's end never makes.
TEST_F(NullDeviceTest, AReleaseHookThatDestroysAnotherObjectDuringShutdownLeavesNothingBehind) {
  Registry* registry = nullptr;
  std::vector<BufferHandle> buffers;
  std::vector<std::string> labels;
  RegistryOptions options;
  options.on_release = [&](const ReleaseEvent& e) {
    labels.emplace_back(e.label);
    for (BufferHandle h : buffers) {
      if (registry->slot_state(h).has_value()) {
        EXPECT_TRUE(registry->destroy_buffer(h).ok());
        return;
      }
    }
  };
  auto reg = make_registry(*dev, options);
  registry = reg.get();
  for (int i = 0; i < 4; ++i) {
    auto made = reg->create_buffer({16, WGPUBufferUsage_CopyDst, false, fmt::format("buffer {}", i)});
    ASSERT_TRUE(made.ok());
    buffers.push_back(*made);
  }
  reg->shutdown();
  EXPECT_EQ(labels.size(), 4u) << "each buffer let go once, by the walk or by the hook's destroy";
  EXPECT_EQ(reg->pending_release_count(), 0u);
  EXPECT_EQ(reg->live_counts().total(), 0u);
  // Each slot went back to the free list once: two new buffers get two slots.
  auto a = reg->create_buffer({16, WGPUBufferUsage_CopyDst, false, "after shutdown a"});
  auto b = reg->create_buffer({16, WGPUBufferUsage_CopyDst, false, "after shutdown b"});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(a->index(), b->index());
  reg.reset();
}

TEST_F(NullDeviceTest, OwnedObjectIsDestroyedSoTheBorrowedCheckCanFail) {
  // The control for the test above: the same write after an owned destroy is rejected.
  ReleaseLog log;
  auto reg = make_registry(*dev, log.options());
  const auto& p = dev->procs();
  WGPUBuffer raw = raw_buffer(*dev, 16, WGPUBufferUsage_CopyDst);
  p.BufferAddRef(raw);  // keep the object reachable after the registry lets go
  auto h = reg->adopt_buffer(raw, "owned");
  ASSERT_TRUE(reg->destroy_buffer(*h).ok());
  ASSERT_TRUE(poll_until_retired(*reg, submit_empty(*reg, *dev)));
  ASSERT_EQ(log.events.size(), 1u);
  EXPECT_TRUE(log.events[0].destroyed);
  uint32_t data[4] = {};
  p.QueueWriteBuffer(dev->queue.get(), raw, 0, data, sizeof(data));
  dev->context->process_events();
  auto errors = dev->take_errors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_THAT(errors[0], HasSubstr("destroyed"));
  p.BufferRelease(raw);
}

TEST_F(NullDeviceTest, ImportedViewIsTrackedButNeverReleased) {
  ReleaseLog log;
  auto reg = make_registry(*dev, log.options());
  const auto& p = dev->procs();
  WGPUTextureDescriptor td{};
  td.dimension = WGPUTextureDimension_2D;
  td.mipLevelCount = 1;
  td.sampleCount = 1;
  td.size = {4, 4, 1};
  td.format = WGPUTextureFormat_RGBA8Unorm;
  td.usage = WGPUTextureUsage_RenderAttachment;
  WGPUTexture texture = p.DeviceCreateTexture(dev->device.get(), &td);
  WGPUTextureView view = p.TextureCreateView(texture, nullptr);
  auto h = reg->import_texture_view(view, "swapchain view");
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(reg->ownership(*h), Ownership::Imported);
  EXPECT_EQ(*reg->resolve(*h), view);
  auto d = reg->destroy_texture_view(*h);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().kind, ErrorKind::Refused);
  EXPECT_THAT(d, FailsWith(MessageId::DestroyImportedView));
  EXPECT_THAT(d, NamesLabel("swapchain view"));
  EXPECT_TRUE(reg->is_alive(*h));
  ASSERT_TRUE(reg->forget_texture_view(*h).ok());
  EXPECT_FALSE(reg->is_alive(*h));
  // A second import, left alive at shutdown, is not released either.
  ASSERT_TRUE(reg->import_texture_view(view, "still tracked").ok());
  reg->shutdown();
  EXPECT_TRUE(log.events.empty());
  // The view is still the caller's and usable: render into it.
  WGPUCommandEncoder enc = p.DeviceCreateCommandEncoder(dev->device.get(), nullptr);
  WGPURenderPassEncoder pass = gpu::begin_clear_pass(p, enc, view);
  p.RenderPassEncoderEnd(pass);
  WGPUCommandBuffer cmd = p.CommandEncoderFinish(enc, nullptr);
  p.QueueSubmit(dev->queue.get(), 1, &cmd);
  dev->context->process_events();
  EXPECT_TRUE(dev->take_errors().empty());
  p.CommandBufferRelease(cmd);
  p.RenderPassEncoderRelease(pass);
  p.CommandEncoderRelease(enc);
  p.TextureViewRelease(view);
  p.TextureRelease(texture);
}

TEST_F(NullDeviceTest, ForgetRefusesViewsThatAreNotImported) {
  auto reg = make_registry(*dev);
  auto t = reg->create_texture({.size = {1, 1, 1}, .usage = WGPUTextureUsage_TextureBinding});
  auto v = reg->create_texture_view(*t, {.label = "owned view"});
  auto f = reg->forget_texture_view(*v);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().kind, ErrorKind::Refused);
  EXPECT_THAT(f, FailsWith(MessageId::ForgetViewNotImported));
  EXPECT_THAT(f.error().message, HasSubstr("the view is owned, not imported"));
  EXPECT_TRUE(reg->is_alive(*v));
}

TEST_F(NullDeviceTest, OnlyTextureViewsCanBeImported) {
  auto reg = make_registry(*dev);
  WGPUBuffer raw = raw_buffer(*dev, 4, WGPUBufferUsage_Uniform);
  auto h = reg->adopt_buffer(raw, "b", Ownership::Imported);
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.error().kind, ErrorKind::InvalidArgument);
  EXPECT_THAT(h, FailsWith(MessageId::ImportNotATextureView));
  dev->procs().BufferRelease(raw);
}

TEST_F(NullDeviceTest, DestroyTextureIsRefusedWhileViewsOfItAreAlive) {
  auto reg = make_registry(*dev);
  auto t = reg->create_texture({.size = {4, 4, 1}, .usage = WGPUTextureUsage_TextureBinding, .label = "atlas"});
  auto v1 = reg->create_texture_view(*t, {.label = "atlas view"});
  auto v2 = reg->create_texture_view(*t, {.label = "atlas mip view"});
  auto d = reg->destroy_texture(*t);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().kind, ErrorKind::Refused);
  EXPECT_THAT(d, FailsWith(MessageId::TextureHasLiveViews));
  EXPECT_THAT(d, NamesLabel("atlas"));
  EXPECT_THAT(d, NamesHandle(0, reg->first_generation()));
  EXPECT_THAT(d.error().message, HasSubstr("destroy_texture"));
  EXPECT_THAT(d.error().message, HasSubstr(": 2 view(s) of it are alive"));
  EXPECT_THAT(d.error().message, HasSubstr("\"atlas view\", \"atlas mip view\""));
  EXPECT_FALSE(reg->replace_texture(*t, nullptr).ok());
  ASSERT_TRUE(reg->destroy_texture_view(*v1).ok());
  EXPECT_THAT(reg->destroy_texture(*t), FailsWith(MessageId::TextureHasLiveViews));
  ASSERT_TRUE(reg->destroy_texture_view(*v2).ok());
  EXPECT_TRUE(reg->destroy_texture(*t).ok());
  EXPECT_EQ(reg->live_counts().total(), 0u);
}

// ---- replace ----------------------------------------------------------------------------------

TEST_F(NullDeviceTest, ReplaceSwapsTheObjectUnderTheSameHandle) {
  ReleaseLog log;
  auto reg = make_registry(*dev, log.options());
  auto h = reg->create_buffer({16, WGPUBufferUsage_CopyDst, false, "grows"});
  WGPUBuffer old = *reg->resolve(*h);
  WGPUBuffer bigger = raw_buffer(*dev, 64, WGPUBufferUsage_CopyDst | WGPUBufferUsage_Uniform);
  ASSERT_TRUE(reg->replace_buffer(*h, bigger).ok());
  EXPECT_EQ(*reg->resolve(*h), bigger);
  EXPECT_EQ(*reg->label(*h), "grows");
  // The contract follows the new object: its size and usages.
  uint32_t data[16] = {};
  EXPECT_TRUE(reg->write_buffer(*h, 0, data, sizeof(data)).ok());
  EXPECT_TRUE(reg->require_usage(*h, WGPUBufferUsage_Uniform).ok());
  // The old one was never touched, but a command buffer being recorded may still use it.
  EXPECT_TRUE(log.events.empty());
  ASSERT_TRUE(poll_until_retired(*reg, submit_empty(*reg, *dev)));
  ASSERT_EQ(log.events.size(), 1u);
  EXPECT_EQ(log.events[0].object, static_cast<const void*>(old));
  EXPECT_TRUE(log.events[0].destroyed);
  EXPECT_NE(old, bigger);
  EXPECT_THAT(reg->replace_buffer(*h, nullptr), FailsWith(MessageId::RegistryNullObject));
}

// Dawn hands out the object it already made for an equal shader module or pipeline (a hot reload
// of a file back to a text it had before): replacing a slot's object with itself changes nothing
// and releases the reference the caller handed over, instead of keeping it forever.
TEST_F(NullDeviceTest, ReplaceWithTheObjectTheSlotHoldsReleasesTheCallersReference) {
  auto reg = make_registry(*dev);
  auto h = reg->create_buffer({16, WGPUBufferUsage_CopyDst, false, "same"});
  WGPUBuffer object = *reg->resolve(*h);
  const int64_t before = gpu::Ledger::process().outstanding(gpu::ObjectType::Buffer);
  dev->procs().BufferAddRef(object);  // the caller's reference, handed over to replace
  ASSERT_TRUE(reg->replace_buffer(*h, object).ok());
  EXPECT_EQ(*reg->resolve(*h), object);
  EXPECT_EQ(gpu::Ledger::process().outstanding(gpu::ObjectType::Buffer), before)
      << "the registry kept the caller's reference to the object it already held";
  ASSERT_TRUE(reg->destroy_buffer(*h).ok());
}

TEST_F(NullDeviceTest, ContentsOnlyUpdatesNeverReallocate) {
  auto reg = make_registry(*dev);
  auto h = reg->create_buffer({16, WGPUBufferUsage_CopyDst, false, "stable"});
  WGPUBuffer before = *reg->resolve(*h);
  uint32_t data[4] = {1, 2, 3, 4};
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(reg->write_buffer(*h, 0, data, sizeof(data)).ok());
  EXPECT_EQ(*reg->resolve(*h), before);
  EXPECT_EQ(h->generation(), reg->first_generation());
}

// ---- submissions and deferred release ---------------------------------------------------------

TEST_F(NullDeviceTest, DestroyOfATouchedObjectWaitsForItsSubmissionToRetire) {
  ReleaseLog log;
  auto reg = make_registry(*dev, log.options());
  auto h = reg->create_buffer({16, WGPUBufferUsage_Uniform, false, "in flight"});
  reg->touch(*h);
  EXPECT_EQ(reg->last_used(*h), Serial{1});
  Serial s = submit_empty(*reg, *dev);
  ASSERT_EQ(s, Serial{1});
  ASSERT_TRUE(reg->destroy_buffer(*h).ok());
  EXPECT_FALSE(reg->resolve(*h).ok());  // the handle is dead at once
  EXPECT_EQ(reg->pending_release_count(), 1u);
  EXPECT_TRUE(log.events.empty());  // the GPU object lives until its submission retired
  ASSERT_TRUE(poll_until_retired(*reg, s));
  // Owned: it also waits for the submission being recorded when it was destroyed (serial 2).
  EXPECT_TRUE(log.events.empty());
  Serial next = submit_empty(*reg, *dev);
  ASSERT_TRUE(poll_until_retired(*reg, next));
  ASSERT_EQ(log.events.size(), 1u);
  EXPECT_EQ(log.events[0].last_used, s);
  EXPECT_GE(log.events[0].retired, s);
  EXPECT_EQ(reg->pending_release_count(), 0u);
}

TEST_F(NullDeviceTest, AnObjectTouchedForTheSubmissionBeingRecordedIsNeverReleasedBeforeIt) {
  ReleaseLog log;
  auto reg = make_registry(*dev, log.options());
  auto h = reg->create_buffer({16, WGPUBufferUsage_Uniform, false, "recorded"});
  reg->touch(*h);  // used by submission 1, not yet submitted
  ASSERT_TRUE(reg->destroy_buffer(*h).ok());
  for (int i = 0; i < 1000; ++i) reg->poll();
  EXPECT_TRUE(log.events.empty());  // no poll can retire a submission that was never made
  EXPECT_EQ(reg->pending_release_count(), 1u);
  Serial s = submit_empty(*reg, *dev);
  ASSERT_TRUE(poll_until_retired(*reg, s));
  EXPECT_EQ(log.events.size(), 1u);
}

TEST_F(NullDeviceTest, TouchingAViewOrBindGroupTouchesWhatItUses) {
  auto reg = make_registry(*dev);
  testing::Kit kit = make_kit(*reg);
  submit_empty(*reg, *dev);
  reg->touch(kit.bind_group);
  Serial recording = reg->clock().recording();
  EXPECT_EQ(recording, Serial{2});
  EXPECT_EQ(reg->last_used(kit.bind_group), recording);
  EXPECT_EQ(reg->last_used(kit.buffer), recording);
  EXPECT_EQ(reg->last_used(kit.view), recording);
  EXPECT_EQ(reg->last_used(kit.texture), recording);
  EXPECT_EQ(reg->last_used(kit.sampler), recording);
  EXPECT_EQ(reg->last_used(kit.module), Serial{});  // not bound by the group
}

TEST_F(NullDeviceTest, ReplaceOfAnObjectInFlightDefersTheOldOne) {
  ReleaseLog log;
  auto reg = make_registry(*dev, log.options());
  auto h = reg->create_shader_module("@compute @workgroup_size(1) fn main() {}", "hot");
  reg->touch(*h);
  auto next = dev->procs().DeviceCreateShaderModule(dev->device.get(), [] {
    static WGPUShaderSourceWGSL src{};
    src.code = gpu::string_view("@compute @workgroup_size(2) fn main() {}");
    static WGPUShaderModuleDescriptor d{};
    d.nextInChain = &src.chain;
    return &d;
  }());
  ASSERT_TRUE(reg->replace_shader_module(*h, next).ok());
  EXPECT_EQ(*reg->resolve(*h), next);
  EXPECT_EQ(reg->pending_release_count(), 1u);
  EXPECT_TRUE(log.events.empty());
  Serial s = submit_empty(*reg, *dev);
  ASSERT_TRUE(poll_until_retired(*reg, s));
  ASSERT_EQ(log.events.size(), 1u);
  EXPECT_EQ(log.labels[0], "hot");
  EXPECT_TRUE(reg->is_alive(*h));
}

// Pending releases are kept in serial order, and serials mostly arrive in order: an owned
// object waits for the submission being recorded, the newest serial. A borrowed object waits
// only for its own last use, which may be older than what is queued already; it goes when
// that serial retired, not behind the newer one.
TEST_F(NullDeviceTest, ABorrowedObjectDeferredAfterANewerSerialGoesWhenItsOwnSerialRetired) {
  ReleaseLog log;
  auto reg = make_registry(*dev, log.options());
  WGPUBuffer mine = raw_buffer(*dev, 16, WGPUBufferUsage_CopyDst);
  auto borrowed = reg->adopt_buffer(mine, "borrowed", Ownership::Borrowed);
  ASSERT_TRUE(borrowed.ok());
  reg->touch(*borrowed);
  Serial s = submit_empty(*reg, *dev);
  ASSERT_EQ(s, Serial{1});
  auto owned = reg->create_buffer({16, WGPUBufferUsage_Uniform, false, "owned"});
  ASSERT_TRUE(owned.ok());
  ASSERT_TRUE(reg->destroy_buffer(*owned).ok());     // waits for serial 2, being recorded
  ASSERT_TRUE(reg->destroy_buffer(*borrowed).ok());  // waits for serial 1: out of order
  ASSERT_EQ(reg->pending_release_count(), 2u);
  ASSERT_TRUE(poll_until_retired(*reg, s));
  ASSERT_EQ(log.labels, std::vector<std::string>{"borrowed"});
  EXPECT_EQ(reg->pending_release_count(), 1u);
  Serial next = submit_empty(*reg, *dev);
  ASSERT_TRUE(poll_until_retired(*reg, next));
  EXPECT_EQ(log.labels, (std::vector<std::string>{"borrowed", "owned"}));
  EXPECT_EQ(reg->pending_release_count(), 0u);
  dev->procs().BufferRelease(mine);
}

TEST_F(NullDeviceTest, AssumeAllCompleteLetsGoOfEverythingDeferred) {
  ReleaseLog log;
  auto reg = make_registry(*dev, log.options());
  for (int i = 0; i < 3; ++i) {
    auto h = reg->create_buffer({4, WGPUBufferUsage_Uniform, false, fmt::format("b{}", i)});
    reg->touch(*h);
    submit_empty(*reg, *dev);
    ASSERT_TRUE(reg->destroy_buffer(*h).ok());
  }
  reg->assume_all_complete();
  EXPECT_EQ(reg->pending_release_count(), 0u);
  EXPECT_EQ(log.events.size(), 3u);
}

TEST_F(NullDeviceTest, EveryOwnedKindIsDeferredToTheSubmissionBeingRecordedWithoutTouch) {
  ReleaseLog log;
  auto reg = make_registry(*dev, log.options());
  testing::Kit kit = make_kit(*reg);
  submit_empty(*reg, *dev);  // serial 1: the objects were never used by it
  ASSERT_TRUE(poll_until_retired(*reg, Serial{1}));
  ASSERT_TRUE(reg->destroy_render_bundle(kit.render_bundle).ok());
  ASSERT_TRUE(reg->destroy_bind_group(kit.bind_group).ok());
  ASSERT_TRUE(reg->destroy_render_pipeline(kit.render_pipeline).ok());
  ASSERT_TRUE(reg->destroy_compute_pipeline(kit.compute_pipeline).ok());
  ASSERT_TRUE(reg->destroy_pipeline_layout(kit.pipeline_layout).ok());
  ASSERT_TRUE(reg->destroy_bind_group_layout(kit.bind_group_layout).ok());
  ASSERT_TRUE(reg->destroy_shader_module(kit.module).ok());
  ASSERT_TRUE(reg->destroy_texture_view(kit.view).ok());
  ASSERT_TRUE(reg->destroy_sampler(kit.sampler).ok());
  ASSERT_TRUE(reg->destroy_query_set(kit.query_set).ok());
  ASSERT_TRUE(reg->destroy_texture(kit.texture).ok());
  ASSERT_TRUE(reg->destroy_buffer(kit.buffer).ok());
  for (int i = 0; i < 100; ++i) reg->poll();
  // A command buffer being recorded may use any of them: nothing goes before serial 2 retired.
  EXPECT_TRUE(log.events.empty());
  EXPECT_EQ(reg->pending_release_count(), kResourceKindCount);
  Serial s = submit_empty(*reg, *dev);
  ASSERT_EQ(s, Serial{2});
  ASSERT_TRUE(poll_until_retired(*reg, s));
  EXPECT_EQ(reg->pending_release_count(), 0u);
  ASSERT_EQ(log.events.size(), kResourceKindCount);
  for (const auto& e : log.events) {
    EXPECT_EQ(e.last_used, Serial{}) << e.label;  // never touched
    EXPECT_GE(e.retired, Serial{2}) << e.label;
  }
}

// A loss (or shutdown) between recording and the next submit: the submission being recorded can
// never run, so what waits on it goes too. Each object holds its device: one left pending keeps
// a whole lost device alive per cycle.
TEST_F(NullDeviceTest, LossCyclesWithObjectsDestroyedWhileRecordedLeaveNothingPending) {
  const auto& p = dev->procs();
  size_t made = 0;
  std::vector<const void*> released;
  for (int cycle = 0; cycle < 20; ++cycle) {
    SCOPED_TRACE(cycle);
    auto device = testing::open_test_device(gpu::BackendChoice::Null);
    ASSERT_NE(device, nullptr);
    RegistryOptions options;
    options.on_release = [&](const ReleaseEvent& e) { released.push_back(e.object); };
    auto reg = make_registry(*device, std::move(options));
    testing::Kit kit = make_kit(*reg);
    made += kResourceKindCount;
    submit_empty(*reg, *device);
    reg->touch(kit.bind_group);  // recorded into serial 2, never submitted
    reg->touch(kit.query_set);
    // The bundle recorded the group: it goes first, so that the group and what it binds are let
    // go, not kept for the bundle (docs/adr/0049).
    ASSERT_TRUE(reg->destroy_render_bundle(kit.render_bundle).ok());
    ASSERT_TRUE(reg->destroy_bind_group(kit.bind_group).ok());
    ASSERT_TRUE(reg->destroy_query_set(kit.query_set).ok());
    ASSERT_TRUE(reg->destroy_texture_view(kit.view).ok());
    ASSERT_TRUE(reg->destroy_texture(kit.texture).ok());
    ASSERT_TRUE(reg->destroy_buffer(kit.buffer).ok());
    ASSERT_GE(reg->pending_release_count(), 5u);
    if (cycle % 2 == 0) {
      p.DeviceForceLoss(device->device.get(), WGPUDeviceLostReason_Unknown, gpu::string_view("test loss"));
      device->context->process_events();
      reg->assume_all_complete();  // what a loss handler does
      EXPECT_EQ(reg->pending_release_count(), 0u);
    }
    reg->shutdown();
    EXPECT_EQ(reg->pending_release_count(), 0u);
    EXPECT_EQ(reg->live_counts().total(), 0u);
    EXPECT_EQ(released.size(), made);  // every object it made, so none holds the device
    reg.reset();
    device->queue.reset();
    device->device.reset();
    device->adapter.adapter.reset();
    device->context->process_events();
  }
}

// ---- shutdown ---------------------------------------------------------------------------------

TEST_F(NullDeviceTest, ShutdownWarnsOnceListingWhatWasAliveByKindAndLabel) {
  auto reg = make_registry(*dev);
  ASSERT_TRUE(reg->create_buffer({4, WGPUBufferUsage_Uniform, false, "vb"}).ok());
  ASSERT_TRUE(reg->create_buffer({4, WGPUBufferUsage_Uniform, false, "ib"}).ok());
  ASSERT_TRUE(reg->create_texture({.size = {1, 1, 1}, .usage = WGPUTextureUsage_CopyDst, .label = "atlas"}).ok());
  reg->shutdown();
  auto entries = reg->diagnostics().entries();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].severity, Severity::Warning);
  EXPECT_EQ(entries[0].category, "gfx.resources");
  EXPECT_EQ(entries[0].id, MessageId::ResourcesLeakedAtShutdown);
  EXPECT_EQ(entries[0].message, "still alive at shutdown: 1 texture (\"atlas\"); 2 buffer (\"vb\", \"ib\")");
  EXPECT_EQ(reg->live_counts().total(), 0u);
  reg->shutdown();  // idempotent
  EXPECT_EQ(reg->diagnostics().entries().size(), 1u);
}

TEST_F(NullDeviceTest, ObjectsMadeAfterShutdownAreStillLetGoByTheDestructor) {
  ReleaseLog log;
  auto reg = make_registry(*dev, log.options());
  reg->shutdown();
  ASSERT_TRUE(reg->create_buffer({4, WGPUBufferUsage_Uniform, false, "late"}).ok());
  reg.reset();
  EXPECT_EQ(log.labels, std::vector<std::string>{"late"});
}

TEST_F(NullDeviceTest, ReplaceUnderABorrowedHandleTakesItsOwnReferenceToTheNewObject) {
  ReleaseLog log;
  auto reg = make_registry(*dev, log.options());
  const auto& p = dev->procs();
  WGPUBuffer first = raw_buffer(*dev, 16, WGPUBufferUsage_CopyDst);
  WGPUBuffer second = raw_buffer(*dev, 32, WGPUBufferUsage_CopyDst);
  auto h = reg->adopt_buffer(first, "borrowed", Ownership::Borrowed);
  ASSERT_TRUE(reg->replace_buffer(*h, second).ok());
  ASSERT_TRUE(reg->destroy_buffer(*h).ok());
  ASSERT_EQ(log.events.size(), 2u);
  EXPECT_FALSE(log.events[0].destroyed);
  EXPECT_FALSE(log.events[1].destroyed);
  // Both are still the caller's and usable.
  uint32_t data[4] = {};
  p.QueueWriteBuffer(dev->queue.get(), first, 0, data, sizeof(data));
  p.QueueWriteBuffer(dev->queue.get(), second, 0, data, sizeof(data));
  dev->context->process_events();
  EXPECT_TRUE(dev->take_errors().empty());
  p.BufferRelease(first);
  p.BufferRelease(second);
}

TEST_F(NullDeviceTest, CleanShutdownSaysNothing) {
  auto reg = make_registry(*dev);
  auto h = reg->create_buffer({4, WGPUBufferUsage_Uniform, false, "vb"});
  ASSERT_TRUE(reg->destroy_buffer(*h).ok());
  reg->shutdown();
  EXPECT_TRUE(reg->diagnostics().entries().empty());
}

// The kind table says which kinds own memory: exactly those are destroyed when owned.
TEST_F(NullDeviceTest, OwnedObjectsOfTheKindsTheTableMarksAreDestroyedTheOthersOnlyReleased) {
  ReleaseLog log;
  auto reg = make_registry(*dev, log.options());
  make_kit(*reg);
  reg->shutdown();
  ASSERT_EQ(log.events.size(), kResourceKindCount);
  for (const auto& e : log.events) EXPECT_EQ(e.destroyed, facts_of(e.kind).has_destroy) << to_string(e.kind);
  EXPECT_TRUE(facts_of(ResourceKind::Buffer).has_destroy);
  EXPECT_TRUE(facts_of(ResourceKind::Texture).has_destroy);
  EXPECT_TRUE(facts_of(ResourceKind::QuerySet).has_destroy);
  EXPECT_FALSE(facts_of(ResourceKind::Sampler).has_destroy);
}

TEST_F(NullDeviceTest, TeardownWalksTheDeclaredDependencyOrder) {
  ReleaseLog log;
  auto reg = make_registry(*dev, log.options());
  make_kit(*reg);
  reg->shutdown();
  std::vector<ResourceKind> order;
  for (const auto& e : log.events) order.push_back(e.kind);
  EXPECT_EQ(order, std::vector<ResourceKind>(kTeardownOrder.begin(), kTeardownOrder.end()));
  // Users before what they use.
  auto pos = [&](ResourceKind k) { return std::find(order.begin(), order.end(), k) - order.begin(); };
  EXPECT_LT(pos(ResourceKind::BindGroup), pos(ResourceKind::BindGroupLayout));
  EXPECT_LT(pos(ResourceKind::RenderPipeline), pos(ResourceKind::ShaderModule));
  EXPECT_LT(pos(ResourceKind::PipelineLayout), pos(ResourceKind::BindGroupLayout));
  EXPECT_LT(pos(ResourceKind::TextureView), pos(ResourceKind::Texture));
  dev->context->process_events();
  EXPECT_TRUE(dev->take_errors().empty());
}

// ---- real pixels and the recording hazard (GL) -------------------------------------------------

// Dawn rejects a submit that uses a texture destroyed after recording ("Destroyed texture used
// in a submit"). Touching marks the submission being recorded, so destroy defers past it.
TEST_F(GlDeviceTest, DestroyBetweenRecordingAndSubmitIsDeferredPastTheSubmit) {
  ReleaseLog log;
  auto reg = make_registry(*dev, log.options());
  const auto& p = dev->procs();
  auto texture = reg->create_texture({.size = {4, 4, 1}, .usage = WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst, .label = "source"});
  auto readback = reg->create_buffer({256 * 4, WGPUBufferUsage_CopyDst | WGPUBufferUsage_MapRead, false, "readback"});
  std::vector<uint8_t> texels(4 * 4 * 4, 0x5a);
  ASSERT_TRUE(reg->write_texture(*texture, {.size = {4, 4, 1}, .bytes_per_row = 16}, texels.data(), texels.size()).ok());

  WGPUCommandEncoder enc = p.DeviceCreateCommandEncoder(dev->device.get(), nullptr);
  gpu::copy_image_to_buffer(p, enc, *reg->resolve(*texture), *reg->resolve(*readback), 4, 4, 256);
  reg->touch(*texture);
  reg->touch(*readback);
  WGPUCommandBuffer cmd = p.CommandEncoderFinish(enc, nullptr);

  ASSERT_TRUE(reg->destroy_texture(*texture).ok());  // between recording and submit
  EXPECT_TRUE(log.events.empty());
  Serial s = reg->submit(cmd);
  p.CommandBufferRelease(cmd);
  p.CommandEncoderRelease(enc);
  ASSERT_TRUE(poll_until_retired(*reg, s));
  dev->context->process_events();
  EXPECT_TRUE(dev->take_errors().empty());
  ASSERT_EQ(log.events.size(), 1u);
  EXPECT_EQ(log.labels[0], "source");
  auto bytes = dev->context->read_mapped(*reg->resolve(*readback), 256 * 4, warden::testing::kSafetyNet);
  ASSERT_TRUE(bytes.ok()) << bytes.error().message;
  EXPECT_EQ((*bytes)[0], 0x5a);
  EXPECT_EQ((*bytes)[256 * 3 + 15], 0x5a);
}

// The same sequence without touch (a forgotten touch): destroy still waits for the submission
// being recorded, so Dawn accepts the submit and the copy reads the texture's own texels.
TEST_F(GlDeviceTest, WithoutTouchTheSameDestroyWaitsForTheSubmissionBeingRecordedAndTheSubmitIsClean) {
  ReleaseLog log;
  auto reg = make_registry(*dev, log.options());
  const auto& p = dev->procs();
  auto texture = reg->create_texture({.size = {4, 4, 1}, .usage = WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst, .label = "untouched"});
  auto readback = reg->create_buffer({256 * 4, WGPUBufferUsage_CopyDst | WGPUBufferUsage_MapRead, false, "readback"});
  std::vector<uint8_t> texels(4 * 4 * 4, 0xa5);
  ASSERT_TRUE(reg->write_texture(*texture, {.size = {4, 4, 1}, .bytes_per_row = 16}, texels.data(), texels.size()).ok());
  WGPUCommandEncoder enc = p.DeviceCreateCommandEncoder(dev->device.get(), nullptr);
  gpu::copy_image_to_buffer(p, enc, *reg->resolve(*texture), *reg->resolve(*readback), 4, 4, 256);
  WGPUCommandBuffer cmd = p.CommandEncoderFinish(enc, nullptr);
  ASSERT_TRUE(reg->destroy_texture(*texture).ok());  // between recording and submit, no touch
  EXPECT_FALSE(reg->resolve(*texture).ok());          // the handle is dead at once
  EXPECT_TRUE(log.events.empty());
  EXPECT_EQ(reg->pending_release_count(), 1u);
  Serial s = reg->submit(cmd);
  p.CommandBufferRelease(cmd);
  p.CommandEncoderRelease(enc);
  ASSERT_TRUE(poll_until_retired(*reg, s));
  dev->context->process_events();
  EXPECT_TRUE(dev->take_errors().empty());
  ASSERT_EQ(log.events.size(), 1u);
  EXPECT_EQ(log.labels[0], "untouched");
  EXPECT_TRUE(log.events[0].destroyed);
  auto bytes = dev->context->read_mapped(*reg->resolve(*readback), 256 * 4, warden::testing::kSafetyNet);
  ASSERT_TRUE(bytes.ok()) << bytes.error().message;
  EXPECT_EQ((*bytes)[0], 0xa5);
  EXPECT_EQ((*bytes)[256 * 3 + 15], 0xa5);
}

TEST_F(GlDeviceTest, WriteBufferUpdatesContentsInPlace) {
  auto reg = make_registry(*dev);
  const auto& p = dev->procs();
  auto buffer = reg->create_buffer({16, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, false, "data"});
  auto readback = reg->create_buffer({16, WGPUBufferUsage_CopyDst | WGPUBufferUsage_MapRead, false, "readback"});
  WGPUBuffer before = *reg->resolve(*buffer);
  uint32_t first[4] = {1, 2, 3, 4}, second[4] = {9, 8, 7, 6};
  ASSERT_TRUE(reg->write_buffer(*buffer, 0, first, sizeof(first)).ok());
  ASSERT_TRUE(reg->write_buffer(*buffer, 0, second, sizeof(second)).ok());
  EXPECT_EQ(*reg->resolve(*buffer), before);
  WGPUCommandEncoder enc = p.DeviceCreateCommandEncoder(dev->device.get(), nullptr);
  p.CommandEncoderCopyBufferToBuffer(enc, *reg->resolve(*buffer), 0, *reg->resolve(*readback), 0, 16);
  WGPUCommandBuffer cmd = p.CommandEncoderFinish(enc, nullptr);
  reg->submit(cmd);
  p.CommandBufferRelease(cmd);
  p.CommandEncoderRelease(enc);
  auto bytes = dev->context->read_mapped(*reg->resolve(*readback), 16, warden::testing::kSafetyNet);
  ASSERT_TRUE(bytes.ok()) << bytes.error().message;
  uint32_t got[4];
  std::memcpy(got, bytes->data(), 16);
  EXPECT_EQ(got[0], 9u);
  EXPECT_EQ(got[3], 6u);
}

}  // namespace
}  // namespace warden::resources
