// Kept texture contents written back by either path (RegistryOptions::contents_upload, ADR
// 0058): staged through mapped buffers and copied by one submission, or by writeTexture. Both
// must put back every texel of every level and layer, including rows whose packed width is no
// multiple of the 256 bytes a buffer copy's rows need; and Auto must pick by what was measured.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "resources/registry_test_support.h"
#include "support/gpu_test.h"

namespace warden::resources {
namespace {

using testing::force_loss;
using testing::NullDeviceTest;

constexpr std::chrono::seconds kSafetyNet{30};

struct KeptTexture {
  TextureHandle handle;
  WGPUTextureFormat format;
  uint32_t texel_bytes, width, height, layers, levels;
  // Texels of each (level, layer), packed, in level-major order.
  std::vector<std::vector<uint8_t>> texels;
};

uint32_t level_side(uint32_t side, uint32_t level) { return std::max(1u, side >> level); }

KeptTexture make_kept(Registry& reg, WGPUTextureFormat format, uint32_t texel_bytes, uint32_t width, uint32_t height,
                      uint32_t layers, uint32_t levels, uint8_t seed) {
  KeptTexture t{{}, format, texel_bytes, width, height, layers, levels, {}};
  auto made = reg.create_texture({.size = {width, height, layers},
                                  .format = format,
                                  .usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst |
                                           WGPUTextureUsage_CopySrc,
                                  .mip_level_count = levels,
                                  .label = "kept " + std::to_string(seed)});
  EXPECT_TRUE(made.ok()) << made.error().message;
  if (!made.ok()) return t;
  t.handle = *made;
  for (uint32_t level = 0; level < levels; ++level) {
    const uint32_t w = level_side(width, level), h = level_side(height, level);
    for (uint32_t layer = 0; layer < layers; ++layer) {
      std::vector<uint8_t> texels(size_t{w} * h * texel_bytes);
      for (size_t i = 0; i < texels.size(); ++i) texels[i] = static_cast<uint8_t>(seed + i * 13 + level * 7 + layer * 29);
      TextureWrite where{.mip_level = level, .origin = {0, 0, layer}, .size = {w, h, 1}};
      EXPECT_TRUE(reg.write_texture(t.handle, where, texels.data(), texels.size()).ok());
      t.texels.push_back(std::move(texels));
    }
  }
  return t;
}

// One subresource read back through a buffer, packed.
std::vector<uint8_t> read_back(Registry& reg, const gpu::Context& context, const KeptTexture& t, uint32_t level,
                               uint32_t layer) {
  const gpu::Procs& p = reg.procs();
  const uint32_t w = level_side(t.width, level), h = level_side(t.height, level);
  const uint32_t pitch = (w * t.texel_bytes + 255) / 256 * 256;
  WGPUBufferDescriptor d{};
  d.size = uint64_t{pitch} * h;
  d.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
  gpu::Ref<WGPUBuffer> buffer(&p, p.DeviceCreateBuffer(reg.device(), &d));
  gpu::Ref<WGPUCommandEncoder> encoder(&p, p.DeviceCreateCommandEncoder(reg.device(), nullptr));
  gpu::copy_image_to_buffer(p, encoder.get(), *reg.resolve(t.handle), buffer.get(), w, h, pitch, level, layer);
  gpu::Ref<WGPUCommandBuffer> commands(&p, p.CommandEncoderFinish(encoder.get(), nullptr));
  reg.submit(commands.get());
  auto bytes = context.read_mapped(buffer.get(), d.size, kSafetyNet);
  if (!bytes.ok()) {
    ADD_FAILURE() << bytes.error().message;
    return {};
  }
  std::vector<uint8_t> packed;
  for (uint32_t y = 0; y < h; ++y) {
    packed.insert(packed.end(), bytes->begin() + size_t{y} * pitch, bytes->begin() + size_t{y} * pitch + w * t.texel_bytes);
  }
  return packed;
}

// Every level and layer of every texture in `kept` reads back as written.
void expect_every_texel_back(Registry& reg, const gpu::Context& context, const std::vector<KeptTexture>& kept) {
  for (const KeptTexture& t : kept) {
    size_t index = 0;
    for (uint32_t level = 0; level < t.levels; ++level) {
      for (uint32_t layer = 0; layer < t.layers; ++layer, ++index) {
        EXPECT_EQ(read_back(reg, context, t, level, layer), t.texels[index])
            << *reg.label(t.handle) << " level " << level << " layer " << layer;
      }
    }
  }
}

class KeptContentsByPath : public testing::GlDeviceTest, public ::testing::WithParamInterface<ContentsUpload> {};

TEST_P(KeptContentsByPath, EveryLevelAndLayerComesBackTexelForTexelOnTheNewDevice) {
  RegistryOptions options;
  options.contents_upload = GetParam();
  auto reg = testing::make_registry(*dev, options);
  std::vector<KeptTexture> kept;
  // 13 texels of 4 bytes: 52-byte rows, and every smaller level narrower still.
  kept.push_back(make_kept(*reg, WGPUTextureFormat_RGBA8Unorm, 4, 13, 7, 1, 3, 1));
  // An array: each layer its own subresource.
  kept.push_back(make_kept(*reg, WGPUTextureFormat_RGBA8Unorm, 4, 8, 8, 3, 1, 2));
  // One byte a texel, 5 texels a row.
  kept.push_back(make_kept(*reg, WGPUTextureFormat_R8Unorm, 1, 5, 3, 1, 1, 3));
  // Rows exactly 256 bytes: staged without repacking.
  kept.push_back(make_kept(*reg, WGPUTextureFormat_RGBA8Unorm, 4, 64, 4, 1, 1, 4));
  ASSERT_TRUE(dev->take_errors().empty());

  force_loss(*dev, *reg);
  auto second = testing::open_test_device(testing::pixel_test_backend());
  ASSERT_NE(second, nullptr);
  const RebuildReport report = reg->rebuild(second->device.get(), second->queue.get(), 2);
  EXPECT_TRUE(report.failed.empty()) << report.failed.front();
  EXPECT_EQ(report.timings.contents_upload, GetParam());
  uint64_t kept_bytes = 0;
  for (const KeptTexture& t : kept) {
    for (const auto& texels : t.texels) kept_bytes += texels.size();
  }
  if (GetParam() == ContentsUpload::Staging) {
    // Staged at the copy's row pitch: at least the packed bytes, never less.
    EXPECT_GE(report.timings.staged_bytes, kept_bytes);
  } else {
    EXPECT_EQ(report.timings.staged_bytes, 0u);
  }
  expect_every_texel_back(*reg, *second->context, kept);
  EXPECT_TRUE(second->take_errors().empty());
  reg.reset();
  testing::close_device(second);
}

INSTANTIATE_TEST_SUITE_P(Path, KeptContentsByPath,
                         ::testing::Values(ContentsUpload::WriteTexture, ContentsUpload::Staging),
                         [](const auto& info) {
                           return info.param == ContentsUpload::Staging ? std::string("Staging")
                                                                        : std::string("WriteTexture");
                         });

// Staged on the spare ahead of the loss (prepare_rebuild's contents budget): the rebuild onto the
// spare copies what was staged there, except for a texture written since, whose new texels it
// stages itself; a texture over the budget is staged by the rebuild too. Every texel comes back.
TEST_F(GlDeviceTest, ContentsStagedOnTheSpareAreCopiedUnlessWrittenSinceAndEveryTexelComesBack) {
  RegistryOptions options;
  options.contents_upload = ContentsUpload::Staging;
  auto reg = testing::make_registry(*dev, options);
  std::vector<KeptTexture> kept;
  kept.push_back(make_kept(*reg, WGPUTextureFormat_RGBA8Unorm, 4, 13, 7, 1, 3, 1));  // staged ahead
  kept.push_back(make_kept(*reg, WGPUTextureFormat_RGBA8Unorm, 4, 8, 8, 2, 1, 2));   // written after
  kept.push_back(make_kept(*reg, WGPUTextureFormat_RGBA8Unorm, 4, 64, 64, 1, 1, 3));  // over the budget
  // 13x7 at a 256-byte pitch: 7 + 3 + 1 rows of levels 0..2; 8x8 x 2 layers: 16 rows.
  const uint64_t first = (7 + 3 + 1) * 256, second = 16 * 256;
  auto spare = testing::open_test_device(testing::pixel_test_backend());
  ASSERT_NE(spare, nullptr);
  reg->prepare_rebuild(spare->device.get(), 0, first + second);
  EXPECT_EQ(reg->prepared_contents_bytes(), first + second);

  // Written after the preparation: its staged copy is stale.
  std::vector<uint8_t> changed(8 * 8 * 4, 0x5a);
  ASSERT_TRUE(reg->write_texture(kept[1].handle, {.origin = {0, 0, 1}, .size = {8, 8, 1}}, changed.data(),
                                 changed.size())
                  .ok());
  kept[1].texels[1] = changed;

  force_loss(*dev, *reg);
  const RebuildReport report = reg->rebuild(spare->device.get(), spare->queue.get(), 2);
  EXPECT_TRUE(report.failed.empty()) << report.failed.front();
  EXPECT_EQ(report.timings.contents_upload, ContentsUpload::Staging);
  EXPECT_EQ(report.timings.staged_ahead_bytes, first);
  EXPECT_EQ(report.timings.staged_bytes, first + second + 64 * 256);
  EXPECT_EQ(reg->prepared_contents_bytes(), 0u) << "the rebuild let go of what was staged";
  expect_every_texel_back(*reg, *spare->context, kept);
  EXPECT_TRUE(spare->take_errors().empty());
  reg.reset();
  testing::close_device(spare);
}

// Where writeTexture serves the rebuild (the default on GL), nothing is staged ahead.
TEST_F(NullDeviceTest, NothingIsStagedOnTheSpareWhereTheRebuildWouldNotStage) {
  auto reg = testing::make_registry(*dev);
  auto texture = reg->create_texture({.size = {4, 4, 1}, .usage = WGPUTextureUsage_CopyDst, .label = "kept"});
  ASSERT_TRUE(texture.ok());
  const std::vector<uint8_t> texels(64, 9);
  ASSERT_TRUE(reg->write_texture(*texture, {.size = {4, 4, 1}}, texels.data(), texels.size()).ok());
  auto spare = testing::open_test_device(gpu::BackendChoice::Null);
  ASSERT_NE(spare, nullptr);
  reg->prepare_rebuild(spare->device.get(), 0, 1 << 20);
  EXPECT_EQ(reg->prepared_contents_bytes(), 0u);
  reg->set_measured_upload(spare->device.get(), ContentsUpload::Staging);
  reg->prepare_rebuild(spare->device.get(), 0, 1 << 20);
  EXPECT_EQ(reg->prepared_contents_bytes(), 4u * 256u);
  reg.reset();
  testing::close_device(spare);
}

// Auto: what was measured on the device the rebuild goes onto wins; measured on another device,
// it is not taken; unmeasured, the backend's known faster path (GL and Null: writeTexture).
TEST_F(NullDeviceTest, AutoTakesThePathMeasuredOnTheNewDeviceAndOnlyThatDevice) {
  auto reg = testing::make_registry(*dev);
  auto texture = reg->create_texture({.size = {4, 4, 1}, .usage = WGPUTextureUsage_CopyDst, .label = "kept"});
  ASSERT_TRUE(texture.ok());
  const std::vector<uint8_t> texels(64, 9);
  ASSERT_TRUE(reg->write_texture(*texture, {.size = {4, 4, 1}}, texels.data(), texels.size()).ok());

  force_loss(*dev, *reg);
  auto second = testing::open_test_device(gpu::BackendChoice::Null);
  ASSERT_NE(second, nullptr);
  RebuildReport report = reg->rebuild(second->device.get(), second->queue.get(), 2);
  EXPECT_EQ(report.timings.contents_upload, ContentsUpload::WriteTexture);  // unmeasured, Null

  auto third = testing::open_test_device(gpu::BackendChoice::Null);
  ASSERT_NE(third, nullptr);
  reg->set_measured_upload(third->device.get(), ContentsUpload::Staging);
  force_loss(*second, *reg);
  report = reg->rebuild(third->device.get(), third->queue.get(), 3);
  EXPECT_EQ(report.timings.contents_upload, ContentsUpload::Staging);
  EXPECT_GT(report.timings.staged_bytes, 0u);

  // Measured on the third device: a rebuild onto a fourth does not take it.
  auto fourth = testing::open_test_device(gpu::BackendChoice::Null);
  ASSERT_NE(fourth, nullptr);
  force_loss(*third, *reg);
  report = reg->rebuild(fourth->device.get(), fourth->queue.get(), 4);
  EXPECT_EQ(report.timings.contents_upload, ContentsUpload::WriteTexture);
  reg.reset();
  testing::close_device(fourth);
  testing::close_device(third);
  testing::close_device(second);
}

}  // namespace
}  // namespace warden::resources
