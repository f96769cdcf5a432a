// The GPU side of tiles: a texture_2d_array of tile layers with full mip chains, the pass that
// regenerates a layer's mip chain on the GPU, and the instanced draw of a whole viewport.
//
// Compatibility mode (the GL backend) fixes the dimension a texture is bound with at creation,
// so the array is created with TextureBindingViewDimensionDescriptor (2DArray) chained on.
//
// Everything a frame needs is made once, when the array is created: a render-target view per
// (layer, level >= 1), the bind groups that sample each level, the layer-index buffer. A frame that
// hands out layers records passes and nothing else (docs/adr/0005, "Frame cost").
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "warden/core/result.h"
#include "warden/core/submission_clock.h"
#include "warden/tiles/layer_pool.h"
#include "warden/webgpu/ref.h"

namespace warden::tiles {

/// The most layers one pass writes: Compatibility mode's maxColorAttachments (4), and 4 RGBA8
/// targets are its 32 bytes per sample.
inline constexpr uint32_t kMaxLayersPerPass = 4;

/// Pipelines that draw mip m of up to kMaxLayersPerPass layers (one color attachment per layer)
/// from mip m - 1 (a 2x2 box filter: a bilinear sample at the centre of each 2x2 block).
/// Created once per device and format.
class MipGenerator {
 public:
  /// Builds the pipelines for `format` on `device`.
  static Result<MipGenerator> create(const gpu::Procs& procs, gpu::Device device, gpu::TextureFormat format);
  /// The pipeline and layout that write one layer per pass.
  gpu::RenderPipeline pipeline() const { return mip_pipeline(1); }
  /// The layout of pipeline().
  gpu::BindGroupLayout layout() const { return mip_layout(1); }
  /// `targets` in 1..max_targets(): the pass writes that many layers at once.
  gpu::RenderPipeline mip_pipeline(uint32_t targets) const { return mip_[targets - 1].pipeline.get(); }
  /// The layout of mip_pipeline(targets).
  gpu::BindGroupLayout mip_layout(uint32_t targets) const { return mip_[targets - 1].layout.get(); }
  /// The most layers one pass writes (kMaxLayersPerPass, or fewer if the device allows fewer attachments).
  uint32_t max_targets() const { return static_cast<uint32_t>(mip_.size()); }
  /// The bilinear sampler the passes read with.
  gpu::Sampler sampler() const { return sampler_.get(); }
  /// u32 i at offset 4 i for every layer index the device allows: a pass's layers are picked by
  /// vertex-buffer offsets into it, so no frame writes layer numbers anywhere.
  gpu::Buffer layer_indices() const { return layer_indices_.get(); }
  /// The format it was made for.
  gpu::TextureFormat format() const { return format_; }

 private:
  struct Stage {
    gpu::Ref<gpu::RenderPipeline> pipeline;
    gpu::Ref<gpu::BindGroupLayout> layout;
  };
  std::vector<Stage> mip_;  // [targets - 1]
  gpu::Ref<gpu::Sampler> sampler_;
  gpu::Ref<gpu::Buffer> layer_indices_;
  gpu::TextureFormat format_ = gpu::TextureFormat::Undefined;
};

/// What a TileArray is made of.
struct TileArrayDesc {
  uint32_t tile_size = 256;   ///< width and height of every layer
  /// Layers in the array.
  uint32_t layers = 64;
  uint32_t mip_levels = 0;    ///< 0: the full chain down to 1x1
  /// Label of the texture and its views.
  std::string label = "tile array";
};

/// One texture_2d_array of tiles with full mip chains, made once and reused layer by layer.
class TileArray {
 public:
  /// The array's format is the generator's; the generator must outlive the array.
  static Result<TileArray> create(const gpu::Procs& procs, gpu::Device device,
                                  const MipGenerator& mips, const TileArrayDesc& desc);

  /// Hands a layer to a new tile: writes mip 0 now (queue order: after every earlier submit,
  /// before every later one) and records the regeneration of every coarser level into
  /// `encoder`, so no level keeps the previous tile. `texels` is tile_size rows of
  /// tile_size texels. The caller touches the layer in the pool for the encoder's submission.
  Result<void> upload(gpu::Queue queue, gpu::CommandEncoder encoder, LayerIndex layer,
                      std::span<const uint8_t> texels) const;
  /// The two halves of upload(), for a frame that hands out several layers: write every new
  /// tile's level 0, then regenerate all their chains in one go, level by level (each level
  /// reads only the level above it, so passes of different layers never depend on each other).
  /// regenerate_mips writes up to MipGenerator::max_targets() layers of a level in one pass;
  /// record_mip_level is one pass for one (layer, level).
  Result<void> write_level0(gpu::Queue queue, LayerIndex layer, std::span<const uint8_t> texels) const;
  /// One pass for one (layer, level).
  Result<void> record_mip_level(gpu::CommandEncoder encoder, LayerIndex layer, uint32_t level) const;
  /// Every coarser level of `layers`, level by level.
  Result<void> regenerate_mips(gpu::CommandEncoder encoder, std::span<const LayerIndex> layers) const;
  /// One pass writing `level` of every layer in `layers` (1..max_targets() distinct layers).
  Result<void> record_mip_pass(gpu::CommandEncoder encoder, std::span<const LayerIndex> layers, uint32_t level) const;

  /// The view a draw samples: 2DArray, every layer, every level.
  gpu::TextureView sampled_view() const { return sampled_view_.get(); }
  /// The texture.
  gpu::Texture texture() const { return texture_.get(); }
  /// Width and height of every layer.
  uint32_t tile_size() const { return tile_size_; }
  /// Layers in the array.
  uint32_t layers() const { return layers_; }
  /// Mip levels of every layer.
  uint32_t mip_levels() const { return mip_levels_; }
  /// The whole texture's bytes, every level.
  uint64_t bytes() const { return bytes_; }
  /// One layer's bytes, every level.
  uint64_t layer_bytes() const { return bytes_ / layers_; }

  /// Retiring a whole zoom band: the only place an array is destroyed. Refused while a layer is
  /// still allocated or while the last submission that read any layer has not retired; off the
  /// frame path, the caller polls until it is allowed.
  Result<void> destroy_retired(const LayerPool& pool, const SubmissionClock& clock);
  /// True after destroy_retired() succeeded.
  bool destroyed() const { return destroyed_; }

 private:
  const gpu::Procs* procs_ = nullptr;
  gpu::Device device_ = nullptr;
  gpu::Ref<gpu::Texture> texture_;
  gpu::Ref<gpu::TextureView> sampled_view_;
  // The render-target view of one (layer, level >= 1), made at creation.
  gpu::TextureView target_view(LayerIndex layer, uint32_t level) const {
    return targets_[size_t{layer} * (mip_levels_ - 1) + level - 1].get();
  }

  // [targets - 1][m]: samples level m, all layers, for the pipeline writing `targets` layers.
  std::vector<std::vector<gpu::Ref<gpu::BindGroup>>> mip_sources_;
  std::vector<gpu::Ref<gpu::TextureView>> targets_;  // [layer * (mip_levels - 1) + level - 1]: 2D, one subresource
  // Borrowed from the MipGenerator, which must outlive the array: [targets - 1].
  std::vector<gpu::RenderPipeline> mip_pipelines_;
  gpu::Buffer layer_indices_ = nullptr;
  std::string label_;
  uint32_t tile_size_ = 0, layers_ = 0, mip_levels_ = 0, texel_bytes_ = 0;
  uint64_t bytes_ = 0;
  bool destroyed_ = false;
};

/// Per instance: where the tile goes (normalised device coordinates), which texels it shows
/// (a sub-rectangle: the tile itself, or its part of an ancestor) and from which layer.
struct TileInstance {
  /// The rectangle in normalised device coordinates.
  ///@{
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  ///@}
  /// The texels shown: [u0, u0 + uv_scale) x [v0, v0 + uv_scale); `unused` pads.
  ///@{
  float u0 = 0, v0 = 0, uv_scale = 1, unused = 0;
  ///@}
  /// The layer sampled.
  uint32_t layer = 0;
};
static_assert(sizeof(TileInstance) == 36, "the vertex layout in tile_gpu.cpp reads 36-byte instances");

/// Draws every visible tile of a viewport with one bind group and one instanced draw.
class TileRenderer {
 public:
  /// Builds the pipeline for `target_format` and room for `max_instances` instances.
  static Result<TileRenderer> create(const gpu::Procs& procs, gpu::Device device,
                                     gpu::TextureFormat target_format, uint32_t max_instances);
  /// The one bind group of an array (its sampled view and a trilinear sampler).
  gpu::Ref<gpu::BindGroup> make_bind_group(const TileArray& array) const;
  /// Writes the instances (queue order); one write per submission, before the draw's submit.
  Result<void> write_instances(gpu::Queue queue, std::span<const TileInstance> instances) const;
  /// Records a draw of instances [first, first + count) into `pass`.
  void draw(gpu::RenderPassEncoder pass, gpu::BindGroup group, uint32_t count, uint32_t first = 0) const;
  /// The most instances one write holds.
  uint32_t max_instances() const { return max_instances_; }

 private:
  const gpu::Procs* procs_ = nullptr;
  gpu::Device device_ = nullptr;
  gpu::Ref<gpu::RenderPipeline> pipeline_;
  gpu::Ref<gpu::BindGroupLayout> layout_;
  gpu::Ref<gpu::Sampler> sampler_;
  gpu::Ref<gpu::Buffer> instances_;
  uint32_t max_instances_ = 0;
};

/// A tile rectangle in target pixels (origin top left) as normalised device coordinates.
TileInstance place_tile(float x, float y, float size, uint32_t target_width, uint32_t target_height);

}  // namespace warden::tiles
