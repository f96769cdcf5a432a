#include "warden/core/handle.h"

#include <gtest/gtest.h>

#include <type_traits>
#include <unordered_set>

namespace warden {
namespace {

TEST(Handle, DefaultIsNullAndAllBitsZero) {
  BufferHandle h;
  EXPECT_TRUE(h.is_null());
  EXPECT_EQ(h.bits(), 0u);
  EXPECT_EQ(h.generation(), 0u);
  EXPECT_EQ(h.kind_in_bits(), ResourceKind::None);
}

// `if (handle)` tests for null; the handle never converts to bool (or an integer) unasked.
static_assert(std::is_constructible_v<bool, BufferHandle>);
static_assert(!std::is_convertible_v<BufferHandle, bool>);
static_assert(!std::is_convertible_v<TextureHandle, uint64_t>);
static_assert(!BufferHandle{});
static_assert(static_cast<bool>(BufferHandle::make(0, 0, 0)));  // slot 0, generation 0: its kind bits are set

TEST(Handle, IsTrueExactlyWhenNotNull) {
  const TextureHandle null;
  EXPECT_FALSE(null);
  const TextureHandle some = TextureHandle::make(5, 2, 1);
  EXPECT_TRUE(some);
  EXPECT_EQ(static_cast<bool>(some), !some.is_null());
  // Only the bits: any non-null value is true, whether or not a registry issued it.
  EXPECT_TRUE(TextureHandle::from_bits(1));
}

TEST(Handle, FieldsRoundTripThroughTheDeclaredLayout) {
  auto h = TextureHandle::make(HandleLayout::kMaxSlots - 1, HandleLayout::kMaxGeneration, 255);
  EXPECT_FALSE(h.is_null());
  EXPECT_EQ(h.index(), HandleLayout::kMaxSlots - 1);
  EXPECT_EQ(h.generation(), HandleLayout::kMaxGeneration);
  EXPECT_EQ(h.registry(), 255u);
  EXPECT_EQ(h.kind_in_bits(), ResourceKind::Texture);
  EXPECT_EQ(TextureHandle::from_bits(h.bits()), h);
  // The layout is the documented one: generation in the high 32 bits, index in the low 20.
  auto g = BufferHandle::make(5, 7, 3);
  EXPECT_EQ(g.bits() >> 32, 7u);
  EXPECT_EQ(g.bits() & 0xFFFFFu, 5u);
  EXPECT_EQ((g.bits() >> 20) & 0xFu, static_cast<unsigned>(ResourceKind::Buffer));
  EXPECT_EQ((g.bits() >> 24) & 0xFFu, 3u);
}

TEST(Handle, OutOfRangeFieldsAreMaskedNotSpilledIntoNeighbours) {
  auto h = BufferHandle::make(HandleLayout::kMaxSlots, 1, 1);  // index one past the field
  EXPECT_EQ(h.index(), 0u);
  EXPECT_EQ(h.kind_in_bits(), ResourceKind::Buffer);
  EXPECT_EQ(h.registry(), 1u);
}

TEST(Handle, KindsAreDistinctTypesThatDoNotConvert) {
  static_assert(!std::is_convertible_v<BufferHandle, TextureHandle>);
  static_assert(!std::is_convertible_v<TextureHandle, TextureViewHandle>);
  static_assert(!std::is_constructible_v<BindGroupHandle, BindGroupLayoutHandle>);
  static_assert(!std::is_convertible_v<uint64_t, BufferHandle>);
  static_assert(!std::is_same_v<RenderPipelineHandle, ComputePipelineHandle>);
  static_assert(sizeof(QuerySetHandle) == 8);
  static_assert(sizeof(RenderBundleHandle) == 8);
  EXPECT_EQ(kResourceKindCount, 12u);
}

TEST(Handle, HashesAndComparesByBits) {
  std::unordered_set<SamplerHandle> set;
  set.insert(SamplerHandle::make(1, 1, 1));
  set.insert(SamplerHandle::make(1, 2, 1));
  set.insert(SamplerHandle::make(1, 1, 1));
  EXPECT_EQ(set.size(), 2u);
}

TEST(ResourceKind, EveryKindHasAName) {
  EXPECT_STREQ(to_string(ResourceKind::TextureView), "texture view");
  EXPECT_STREQ(to_string(ResourceKind::QuerySet), "query set");
  EXPECT_STREQ(to_string(ResourceKind::RenderBundle), "render bundle");
  EXPECT_STREQ(to_string(ResourceKind::None), "none");
  EXPECT_STREQ(to_string(static_cast<ResourceKind>(15)), "unknown");
}

}  // namespace
}  // namespace warden
