/// @file
/// The GPU side of tiles: a texture_2d_array of tile layers with full mip chains, the pass that
/// regenerates a layer's mip chain on the GPU, and the instanced draw of a whole viewport.
///
/// Compatibility mode (the GL backend) fixes the dimension a texture is bound with at creation,
/// so the array is created with TextureBindingViewDimensionDescriptor (2DArray) chained on.
///
/// Everything a frame needs is made once, when the array is created: a render-target view per
/// (layer, level >= 1), the bind groups that sample each level, the layer-index buffer. A frame that
/// hands out layers records passes and nothing else (docs/adr/0005, "Frame cost"); it resolves the
/// handles it records (a few ns each).
///
/// Every GPU object here is made through a Registry and held by handle (held_objects.h): after
/// registry.on_device_lost() and registry.rebuild(...) each exists again under the same handle,
/// with no tile code involved. Only the registry destroys them. The registry releases an owned
/// object no earlier than the submission being recorded when it was destroyed, so the frame path
/// need not touch them; submissions go through the registry's clock (Registry::submit).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "warden/core/result.h"
#include "warden/core/submission_clock.h"
#include "warden/gpu/ref.h"
#include "warden/pipelines/pipeline_library.h"
#include "warden/resources/registry.h"
#include "warden/tiles/held_objects.h"
#include "warden/tiles/layer_pool.h"

namespace warden::tiles {

/// The most layers one pass writes: Compatibility mode's maxColorAttachments (4), and 4 RGBA8
/// targets are its 32 bytes per sample.
inline constexpr uint32_t kMaxLayersPerPass = 4;

/// Pipelines that draw mip m of up to kMaxLayersPerPass layers (one color attachment per layer)
/// from mip m - 1 (a 2x2 box filter: a bilinear sample at the centre of each 2x2 block).
/// Created once per registry and format; every pipeline shares one bind group layout (a
/// texture_2d_array and a sampler), so a level's bind group serves passes of any width.
class MipGenerator {
 public:
  /// Makes the mip pipelines, their layout and sampler and the layer-index buffer in `registry`.
  /// InvalidArgument for a format whose texel size warden does not know; DeviceFailed while the
  /// device is lost.
  static Result<MipGenerator> create(resources::Registry& registry, WGPUTextureFormat format);
  /// `targets` in 1..max_targets(): the pipeline whose pass writes that many layers at once.
  RenderPipelineHandle mip_pipeline(uint32_t targets) const { return pipelines_[targets - 1]; }
  /// The pipeline of a pass that writes one layer: mip_pipeline(1).
  RenderPipelineHandle pipeline() const { return mip_pipeline(1); }
  /// The bind group layout every mip pipeline shares: a texture_2d_array and a sampler.
  BindGroupLayoutHandle layout() const { return layout_; }
  /// The most layers one mip pass writes on this device (at most kMaxLayersPerPass).
  uint32_t max_targets() const { return static_cast<uint32_t>(pipelines_.size()); }
  /// The sampler the mip passes read the level above with (bilinear).
  SamplerHandle sampler() const { return sampler_; }
  /// u32 i at offset 4 i for every layer index the device allows: a pass's layers are picked by
  /// vertex-buffer offsets into it, so no frame writes layer numbers anywhere. Written once, its
  /// contents kept by the registry for a rebuild (ContentsSource::Kept).
  BufferHandle layer_indices() const { return layer_indices_; }
  /// The format of every array the generator serves.
  WGPUTextureFormat format() const { return format_; }
  /// The registry its objects live in.
  resources::Registry& registry() const { return held_.registry(); }

 private:
  HeldObjects held_;
  std::vector<RenderPipelineHandle> pipelines_;  // [targets - 1]
  BindGroupLayoutHandle layout_;
  SamplerHandle sampler_;
  BufferHandle layer_indices_;
  WGPUTextureFormat format_ = WGPUTextureFormat_Undefined;
};

/// Where regenerate_mips renders a new tile's chain (docs/adr/0020).
enum class MipPath {
  /// Passes into the array itself: each pass samples one level of the whole array, so Dawn
  /// tracks every (layer, level) of the array for every pass: its cost grows with the layers.
  InArray,
  /// Passes into a scratch array of MipGenerator::max_targets() layers, then a copy per (tile,
  /// level) into the array: the passes touch a few subresources, the copies one each.
  Scratch,
};
/// The path's name as messages and benchmarks print it ("in-array", "scratch").
const char* to_string(MipPath path);

/// The size, layer count and mip levels of a TileArray, and where its mip chains are rendered.
struct TileArrayDescription {
  uint32_t tile_size = 256;   ///< width and height of every layer
  /// How many tiles the array holds at once, 1 to the device's maxTextureArrayLayers.
  uint32_t layers = 64;
  uint32_t mip_levels = 0;    ///< 0: the full chain down to 1x1
  /// The name messages and the GPU debugger show; the array's objects are labelled from it.
  std::string label = "tile array";
  /// Where regenerate_mips renders new chains; Scratch costs less per frame at many layers.
  MipPath mip_path = MipPath::InArray;
};

/// Level 0 of one layer of a TileArray, written off the frame thread (TileArray::level0_write):
/// the array's texture and its device's queue, each held by a reference of its own, so a write
/// that runs after a device loss goes to the lost device and never into its successor's array.
/// Made and destroyed on the frame thread (the references are released there); write() may run
/// on any thread.
class Level0Write {
 public:
  /// queue.writeTexture of `texels`, whose size level0_write checked: from any thread, on a
  /// device with WGPUFeatureName_ImplicitDeviceSynchronization (Dawn then serialises the calls).
  void write(std::span<const uint8_t> texels) const;
  /// The layer written.
  LayerIndex layer() const { return layer_; }

 private:
  friend class TileArray;
  const gpu::Procs* procs_ = nullptr;
  gpu::Ref<WGPUQueue> queue_;
  gpu::Ref<WGPUTexture> texture_;
  LayerIndex layer_ = 0;
  uint32_t tile_size_ = 0, row_bytes_ = 0;
};

/// A texture_2d_array of tile layers with full mip chains, and every view and bind group its frames
/// need, made once at creation in the registry. Which layers are in use is a LayerPool's business,
/// not the array's.
class TileArray {
 public:
  /// The array's format and registry are the generator's; the generator must outlive the array.
  /// Texture views made in the registry: layers x (levels - 1) render targets, levels - 1
  /// sources of the mip passes and one sampled view (view_count()); RegistryOptions'
  /// texture_view_capacity must leave room for them. A MipPath::Scratch array makes its sampled
  /// view and a scratch array of max_targets() layers (view_count(max_targets(), levels) more).
  static Result<TileArray> create(const MipGenerator& mips, const TileArrayDescription& desc);
  /// How many texture views an array of `layers` layers and `mip_levels` levels makes in the
  /// registry.
  static uint64_t view_count(uint32_t layers, uint32_t mip_levels) {
    return uint64_t{layers + 1} * (mip_levels - 1) + 1;
  }

  /// Hands a layer to a new tile: writes mip 0 now (queue order: after every earlier submit,
  /// before every later one) and records the regeneration of every coarser level into
  /// `encoder`, so no level keeps the previous tile. `texels` is tile_size rows of
  /// tile_size texels. The caller touches the layer in the pool for the encoder's submission.
  Result<void> upload(WGPUCommandEncoder encoder, LayerIndex layer, std::span<const uint8_t> texels) const;
  /// The two halves of upload(), for a frame that hands out several layers: write every new
  /// tile's level 0, then regenerate all their chains in one go, level by level (each level
  /// reads only the level above it, so passes of different layers never depend on each other).
  /// regenerate_mips writes up to MipGenerator::max_targets() layers of a level in one pass;
  /// record_mip_level is one pass for one (layer, level).
  ///@{
  Result<void> write_level0(LayerIndex layer, std::span<const uint8_t> texels) const;
  /// write_level0 in two steps, for a write on another thread: checks the layer and the texels'
  /// size (`texel_bytes`) as write_level0 does and takes the array's texture and the device's
  /// queue (Level0Write), on the frame thread. DeviceFailed while the device is lost.
  Result<Level0Write> level0_write(LayerIndex layer, size_t texel_bytes) const;
  Result<void> record_mip_level(WGPUCommandEncoder encoder, LayerIndex layer, uint32_t level) const;
  Result<void> regenerate_mips(WGPUCommandEncoder encoder, std::span<const LayerIndex> layers) const;
  /// One pass writing `level` of every layer in `layers` (1..max_targets() distinct layers).
  /// InArray only: a Scratch array has no render targets of its own.
  ///@}
  Result<void> record_mip_pass(WGPUCommandEncoder encoder, std::span<const LayerIndex> layers, uint32_t level) const;

  /// The view a draw samples: 2DArray, every layer, every level.
  TextureViewHandle sampled_view() const { return sampled_view_; }
  /// Its contents are ContentsSource::None: after a device loss the layers come back empty and
  /// the tiles are fetched again (the TileCache is cleared).
  TextureHandle texture() const { return texture_; }
  /// The registry its objects live in.
  resources::Registry& registry() const { return held_.registry(); }
  /// Width and height of every layer, in texels.
  uint32_t tile_size() const { return tile_size_; }
  /// How many layers the array has.
  uint32_t layers() const { return layers_; }
  /// Mip levels per layer, the full size first.
  uint32_t mip_levels() const { return mip_levels_; }
  /// Bytes of texture memory the array takes: every layer, every level.
  uint64_t bytes() const { return bytes_; }
  /// Bytes of one layer with its mip chain.
  uint64_t layer_bytes() const { return bytes_ / layers_; }
  /// Where this array renders its mip chains.
  MipPath mip_path() const { return scratch_ ? MipPath::Scratch : MipPath::InArray; }

  /// Giving up a whole zoom band: the array's objects are destroyed in the registry, which
  /// releases them once their last reader retired. Refused while a layer is still allocated or
  /// while the last submission that read any layer has not retired; off the frame path, the
  /// caller polls until it is allowed. Bind groups made of the array (TileBindGroup) go first.
  /// Destroying the TileArray object destroys its registry objects the same way, unchecked.
  Result<void> destroy_retired(const LayerPool& pool, const SubmissionClock& clock);
  /// True once destroy_retired() succeeded: the array's handles are dead.
  bool destroyed() const { return destroyed_; }

 private:
  // The render-target view of one (layer, level >= 1), made at creation.
  TextureViewHandle target_view(LayerIndex layer, uint32_t level) const {
    return targets_[size_t{layer} * (mip_levels_ - 1) + level - 1];
  }

  // MipPath::Scratch: chains for up to max_targets() layers rendered into `scratch_` (an
  // InArray array of that many layers), then copied into `layers`' levels 1...
  Result<void> regenerate_through_scratch(WGPUCommandEncoder encoder, std::span<const LayerIndex> layers) const;

  HeldObjects held_;
  std::unique_ptr<TileArray> scratch_;  // MipPath::Scratch only
  TextureHandle texture_;
  TextureViewHandle sampled_view_;
  std::vector<BindGroupHandle> mip_sources_;  // [m]: samples level m, all layers
  std::vector<TextureViewHandle> targets_;    // [layer * (mip_levels - 1) + level - 1]: 2D, one subresource
  // The generator's, which must outlive the array: [targets - 1].
  std::vector<RenderPipelineHandle> mip_pipelines_;
  BufferHandle layer_indices_;
  std::string label_;
  uint32_t tile_size_ = 0, layers_ = 0, mip_levels_ = 0, texel_bytes_ = 0;
  uint64_t bytes_ = 0;
  bool destroyed_ = false;
};

/// One bind group of an array for a TileRenderer, destroyed in the registry with this object.
class TileBindGroup {
 public:
  /// The bind group, as TileRenderer::draw uses it.
  BindGroupHandle handle() const { return handle_; }

 private:
  friend class TileRenderer;
  HeldObjects held_;
  BindGroupHandle handle_;
};

/// Per instance: where the tile goes (normalised device coordinates), which texels it shows
/// (a sub-rectangle: the tile itself, or its part of an ancestor) and from which layer.
struct TileInstance {
  /// The tile's rectangle in normalised device coordinates: (x0, y0) one corner, (x1, y1) the
  /// opposite one (place_tile makes them from pixels).
  ///@{
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  ///@}
  /// The texels shown, in the layer's [0, 1] coordinates: from (u0, v0), uv_scale wide and high (1
  /// with u0 = v0 = 0: the whole tile). `unused` pads the instance to the vertex layout.
  ///@{
  float u0 = 0, v0 = 0, uv_scale = 1, unused = 0;
  ///@}
  /// The array layer the texels come from.
  uint32_t layer = 0;
};
static_assert(sizeof(TileInstance) == 36, "the vertex layout in tile_gpu.cpp reads 36-byte instances");

/// A tile draw shader the application owns (a file it loaded, watched for hot reload): the
/// module must have "vs" and "fs" with the interface of TileRenderer::default_wgsl(). The draw
/// pipeline is made through `library`, so a hot reload of the module swaps it under its handle.
struct TileDrawShader {
  ShaderModuleHandle module{};                      ///< the application's module, with "vs" and "fs"
  pipelines::PipelineLibrary* library = nullptr;  ///< makes (and on hot reload swaps) the pipeline
};

/// Draws every visible tile of a viewport with one bind group and one instanced draw.
class TileRenderer {
 public:
  /// With warden's own draw shader (default_wgsl()), made in the registry.
  static Result<TileRenderer> create(resources::Registry& registry, WGPUTextureFormat target_format, uint32_t max_instances);
  /// With the application's shader: the pipeline is the library's, from `shader.module`.
  static Result<TileRenderer> create(resources::Registry& registry, WGPUTextureFormat target_format, uint32_t max_instances,
                                     const TileDrawShader& shader);
  /// The WGSL of the default draw: a starting point for an application's own tile shader.
  static std::string_view default_wgsl();
  /// The draw pipeline's handle (the library's when made from the application's shader).
  RenderPipelineHandle pipeline() const { return pipeline_; }
  /// The one bind group of an array (its sampled view and a trilinear sampler). Destroy it
  /// (drop the TileBindGroup) before the array.
  Result<TileBindGroup> make_bind_group(const TileArray& array) const;
  /// Writes the instances (queue order); one write per submission, before the draw's submit.
  /// The buffer's contents are ContentsSource::None: every frame writes them again.
  Result<void> write_instances(std::span<const TileInstance> instances) const;
  /// Records a draw of instances [first, first + count) into `pass`. An error (the device is
  /// lost, a stale group) records nothing.
  Result<void> draw(WGPURenderPassEncoder pass, const TileBindGroup& group, uint32_t count, uint32_t first = 0) const;
  /// The most instances one write_instances call may write.
  uint32_t max_instances() const { return max_instances_; }
  /// The registry its objects live in.
  resources::Registry& registry() const { return held_.registry(); }

 private:
  HeldObjects held_;
  RenderPipelineHandle pipeline_;
  BindGroupLayoutHandle layout_;
  SamplerHandle sampler_;
  BufferHandle instances_;
  uint32_t max_instances_ = 0;
};

/// A tile rectangle in target pixels (origin top left) as normalised device coordinates.
TileInstance place_tile(float x, float y, float size, uint32_t target_width, uint32_t target_height);

}  // namespace warden::tiles
