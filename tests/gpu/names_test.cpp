// Format facts that budgets and stand-ins rely on (warden/gpu/names.h).
#include "warden/gpu/names.h"

#include <gtest/gtest.h>

namespace warden::gpu {
namespace {

TEST(TextureFormatFacts, BlockCompressedFormatsAreTheBcEtc2EacAndAstcFamilies) {
  for (WGPUTextureFormat format : {WGPUTextureFormat_BC1RGBAUnorm, WGPUTextureFormat_BC7RGBAUnormSrgb,
                                   WGPUTextureFormat_ETC2RGB8Unorm, WGPUTextureFormat_EACR11Snorm,
                                   WGPUTextureFormat_ASTC4x4Unorm, WGPUTextureFormat_ASTC12x12UnormSrgb}) {
    EXPECT_TRUE(is_block_compressed(format)) << to_string(format);
  }
  for (WGPUTextureFormat format : {WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_BGRA8Unorm,
                                   WGPUTextureFormat_RGBA16Float, WGPUTextureFormat_Depth24Plus,
                                   WGPUTextureFormat_Stencil8, WGPUTextureFormat_RG11B10Ufloat}) {
    EXPECT_FALSE(is_block_compressed(format)) << to_string(format);
  }
}

TEST(TextureFormatFacts, TexelBytesAtMostNeverUndercountsAFormat) {
  EXPECT_EQ(texel_bytes_at_most(WGPUTextureFormat_RGBA8Unorm), 4u);
  EXPECT_EQ(texel_bytes_at_most(WGPUTextureFormat_RGBA16Float), 8u);
  EXPECT_EQ(texel_bytes_at_most(WGPUTextureFormat_RGBA32Float), 16u);
  EXPECT_EQ(texel_bytes_at_most(WGPUTextureFormat_Stencil8), 1u);
  EXPECT_EQ(texel_bytes_at_most(WGPUTextureFormat_Depth16Unorm), 2u);
  EXPECT_EQ(texel_bytes_at_most(WGPUTextureFormat_Depth24PlusStencil8), 4u);
  EXPECT_EQ(texel_bytes_at_most(WGPUTextureFormat_Depth32FloatStencil8), 8u);
  // A block of 4x4 texels is 8 or 16 bytes, larger ASTC blocks fewer a texel.
  EXPECT_EQ(texel_bytes_at_most(WGPUTextureFormat_BC1RGBAUnorm), 1u);
  EXPECT_EQ(texel_bytes_at_most(WGPUTextureFormat_ASTC4x4Unorm), 1u);
  // Not in the copy table: counted at the widest uncompressed texel.
  EXPECT_EQ(texel_bytes_at_most(WGPUTextureFormat_RG8Unorm), 16u);
}

}  // namespace
}  // namespace warden::gpu
