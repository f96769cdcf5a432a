#include "warden/tiles/tile_gpu.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "warden/core/enum_names.h"
#include "warden/pipelines/build.h"
#include "warden/tiles/sizing.h"

namespace warden::tiles {
namespace {

using namespace gpu;

// The mip pass for `targets` layers: one full-target triangle; each layer's index comes from its
// own instance-rate vertex buffer bound at that layer's offset into the generator's index
// buffer. Integers cross stages flat; Compatibility mode accepts only the `either` vertex.
std::string mip_wgsl(uint32_t targets) {
  static const char* kLane[] = {"x", "y", "z", "w"};
  std::string inputs, lanes, outputs, body;
  for (uint32_t t = 0; t < targets; ++t) {
    inputs += fmt::format(", @location({0}) l{0} : u32", t);
    lanes += fmt::format("{}l{}", t ? ", " : "", t);
    outputs += fmt::format("  @location({0}) c{0} : vec4<f32>,\n", t);
    // At a target texel's centre a bilinear sample averages the 2x2 source block beneath it.
    body += fmt::format("  o.c{} = textureSampleLevel(src, smp, in.uv, in.layers.{}, 0.0);\n", t, kLane[t]);
  }
  for (uint32_t t = targets; t < 4; ++t) lanes += ", 0u";
  return fmt::format(R"(
@group(0) @binding(0) var src : texture_2d_array<f32>;
@group(0) @binding(1) var smp : sampler;
struct VOut {{
  @builtin(position) pos : vec4<f32>,
  @location(0) uv : vec2<f32>,
  @location(1) @interpolate(flat, either) layers : vec4<u32>,
}};
struct FOut {{
{}}};
@vertex
fn vs(@builtin(vertex_index) i : u32{}) -> VOut {{
  // One triangle covering the target.
  var p = array<vec2<f32>, 3>(vec2<f32>(-1.0, -1.0), vec2<f32>(3.0, -1.0), vec2<f32>(-1.0, 3.0));
  var out : VOut;
  out.pos = vec4<f32>(p[i], 0.0, 1.0);
  out.uv = vec2<f32>(p[i].x + 1.0, 1.0 - p[i].y) * 0.5;
  out.layers = vec4<u32>({});
  return out;
}}
@fragment
fn fs(in : VOut) -> FOut {{
  var o : FOut;
{}  return o;
}}
)", outputs, inputs, lanes, body);
}

constexpr const char* kDrawWgsl = R"(
@group(0) @binding(0) var tiles : texture_2d_array<f32>;
@group(0) @binding(1) var smp : sampler;
struct VOut {
  @builtin(position) pos : vec4<f32>,
  @location(0) uv : vec2<f32>,
  @location(1) @interpolate(flat, either) layer : u32,
};
@vertex
fn vs(@builtin(vertex_index) i : u32, @location(0) rect : vec4<f32>,
      @location(1) src : vec4<f32>, @location(2) layer : u32) -> VOut {
  var corners = array<vec2<f32>, 6>(vec2<f32>(0.0, 0.0), vec2<f32>(1.0, 0.0), vec2<f32>(0.0, 1.0),
                                    vec2<f32>(0.0, 1.0), vec2<f32>(1.0, 0.0), vec2<f32>(1.0, 1.0));
  let c = corners[i];
  var out : VOut;
  out.pos = vec4<f32>(mix(rect.xy, rect.zw, c), 0.0, 1.0);
  out.uv = src.xy + c * src.z;
  out.layer = layer;
  return out;
}
@fragment
fn fs(in : VOut) -> @location(0) vec4<f32> {
  return textureSample(tiles, smp, in.uv, in.layer);
}
)";

// Both the mip passes and the draw bind a texture_2d_array at 0 and a filtering sampler at 1,
// read in the fragment stage.
Result<BindGroupLayoutHandle> make_texture_layout(HeldObjects& held, const char* label) {
  const resources::LayoutEntry entries[] = {
      {.binding = 0,
       .visibility = WGPUShaderStage_Fragment,
       .type = resources::TextureLayout{.view_dimension = WGPUTextureViewDimension_2DArray}},
      {.binding = 1, .visibility = WGPUShaderStage_Fragment, .type = resources::SamplerLayout{}},
  };
  auto layout = held.registry().create_bind_group_layout(pipelines::translate_layout_entries(entries), label);
  if (!layout) return layout.error();
  return held.hold(*layout);
}

Result<SamplerHandle> make_linear_sampler(HeldObjects& held, WGPUMipmapFilterMode mip_filter, const char* label) {
  resources::SamplerDescription desc;
  desc.label = label;
  desc.mag_filter = WGPUFilterMode_Linear;
  desc.min_filter = WGPUFilterMode_Linear;
  desc.mipmap_filter = mip_filter;
  auto sampler = held.registry().create_sampler(desc);
  if (!sampler) return sampler.error();
  return held.hold(*sampler);
}

Result<BindGroupHandle> make_texture_group(HeldObjects& held, BindGroupLayoutHandle layout, TextureViewHandle view,
                                           SamplerHandle sampler, std::string label) {
  resources::BindGroupDescription desc;
  desc.layout = layout;
  desc.entries = {{0, view}, {1, sampler}};
  desc.label = std::move(label);
  auto group = held.registry().create_bind_group(desc);
  if (!group) return group.error();
  return held.hold(*group);
}

// A shader module of warden's own WGSL, held like every other tile object.
Result<ShaderModuleHandle> make_module(HeldObjects& held, const std::string& wgsl, const std::string& label) {
  auto module = held.registry().create_shader_module(wgsl, label);
  if (!module) return module.error();
  return held.hold(*module);
}

// A render pipeline with an explicit layout of one texture group (`layout`): "vs" and "fs" of
// `module`, `targets` colour targets of `format`. With a `library` (the application's draw
// module) it is made through the pipeline library, so that a hot reload of the module finds it
// (render_users_of) and swaps it under the same handle; the registry holds it like every other
// tile object, and a destroyed handle has no recipe, so the library forgets it too.
Result<RenderPipelineHandle> make_pipeline(HeldObjects& held, ShaderModuleHandle module, BindGroupLayoutHandle layout,
                                           std::vector<resources::VertexLayout> vertex_buffers, uint32_t targets,
                                           WGPUTextureFormat format, const std::string& label,
                                           pipelines::PipelineLibrary* library) {
  const BindGroupLayoutHandle layouts[] = {layout};
  auto pipeline_layout = held.registry().create_pipeline_layout(layouts, label);
  if (!pipeline_layout) return pipeline_layout.error();
  held.hold(*pipeline_layout);
  resources::RenderPipelineDescription desc;
  desc.label = label;
  desc.layout = *pipeline_layout;
  desc.vertex = {module, "vs", {}};
  desc.vertex_buffers = std::move(vertex_buffers);
  desc.fragment = warden::resources::ShaderStage{module, "fs", {}};
  desc.targets.assign(targets, resources::ColorTarget{format, std::nullopt, WGPUColorWriteMask_All});
  auto pipeline = library != nullptr ? library->create_render_pipeline(std::move(desc))
                                     : held.registry().create_render_pipeline(desc);
  if (!pipeline) return pipeline.error();
  return held.hold(*pipeline);
}

}  // namespace

// ---- MipGenerator ---------------------------------------------------------------------------

Result<MipGenerator> MipGenerator::create(resources::Registry& registry, WGPUTextureFormat format) {
  auto texel = bytes_per_texel(format);
  if (!texel) return texel.error();
  if (registry.device_lost()) {
    return make_error(ErrorKind::DeviceFailed, MessageId::TileDeviceLost,
                      fmt::format("tile mip generator: device lost (device generation {}), rebuilding",
                                  registry.device_generation()));
  }
  const Procs& p = registry.procs();
  WGPULimits limits{};
  p.DeviceGetLimits(registry.device(), &limits);
  // As many targets as the device takes: an RGBA8 target costs 8 bytes per sample against
  // maxColorAttachmentBytesPerSample (32 in Compatibility mode); wider formats are counted at
  // twice their texel size, which never undercounts.
  uint32_t max_targets = std::min({kMaxLayersPerPass, limits.maxColorAttachments,
                                   limits.maxColorAttachmentBytesPerSample / std::max(8u, *texel * 2)});
  max_targets = std::max(max_targets, 1u);
  MipGenerator g;
  g.held_ = HeldObjects(registry);
  g.format_ = format;
  auto layout = make_texture_layout(g.held_, "tile mip chain");
  if (!layout) return layout.error();
  g.layout_ = *layout;
  for (uint32_t t = 1; t <= max_targets; ++t) {
    // Layer t's index: an instance-rate u32 at location t - 1, from its own vertex buffer.
    std::vector<resources::VertexLayout> layer_buffers(t);
    for (uint32_t i = 0; i < t; ++i) {
      layer_buffers[i] = {sizeof(uint32_t), WGPUVertexStepMode_Instance, {{WGPUVertexFormat_Uint32, 0, i}}};
    }
    const std::string label = fmt::format("tile mip chain x{}", t);
    auto module = make_module(g.held_, mip_wgsl(t), label);
    auto pipeline = module ? make_pipeline(g.held_, *module, g.layout_, std::move(layer_buffers), t, format, label, nullptr)
                           : Result<RenderPipelineHandle>(module.error());
    if (!pipeline) {
      return make_error(ErrorKind::Validation, MessageId::TileMipPipelineNotCreated,
                        fmt::format("tile mip pipeline for {} layers was not created: {}", t, pipeline.error().message));
    }
    g.pipelines_.push_back(*pipeline);
  }
  auto sampler = make_linear_sampler(g.held_, WGPUMipmapFilterMode_Nearest, "tile mip chain");
  if (!sampler) return sampler.error();
  g.sampler_ = *sampler;

  const uint32_t count = std::max(limits.maxTextureArrayLayers, 1u);
  resources::BufferDescription bdesc;
  bdesc.label = "tile layer indices";
  bdesc.usage = WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst;
  bdesc.size = uint64_t{count} * sizeof(uint32_t);
  bdesc.contents = resources::ContentsSource::Kept;  // written once, here: a rebuild writes the same bytes again
  auto indices = registry.create_buffer(bdesc);
  if (!indices) return indices.error();
  g.layer_indices_ = g.held_.hold(*indices);
  std::vector<uint32_t> values(count);
  for (uint32_t i = 0; i < count; ++i) values[i] = i;
  if (auto written = registry.write_buffer(g.layer_indices_, 0, values.data(), values.size() * sizeof(uint32_t));
      !written) {
    return written.error();
  }
  return g;
}

// ---- TileArray ------------------------------------------------------------------------------

constexpr EnumName<MipPath> kMipPathNames[] = {{MipPath::InArray, "in-array"}, {MipPath::Scratch, "scratch"}};
const char* to_string(MipPath path) { return name_in(kMipPathNames, path); }

Result<TileArray> TileArray::create(const MipGenerator& mips, const TileArrayDescription& d) {
  resources::Registry& registry = mips.registry();
  if (registry.device_lost()) {
    return make_error(ErrorKind::DeviceFailed, MessageId::TileDeviceLost,
                      fmt::format("tile array \"{}\": device lost (device generation {}), rebuilding",
                                  d.label, registry.device_generation()));
  }
  WGPULimits limits{};
  registry.procs().DeviceGetLimits(registry.device(), &limits);
  if (d.tile_size == 0 || d.tile_size > limits.maxTextureDimension2D) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileArrayTileSizeOutOfRange,
                      fmt::format("tile array \"{}\": tile size {} (1..{})", d.label, d.tile_size, limits.maxTextureDimension2D));
  }
  if (d.layers == 0 || d.layers > limits.maxTextureArrayLayers) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileArrayLayerCountOutOfRange,
                      fmt::format("tile array \"{}\": {} layers (1..{} on this device)", d.label, d.layers, limits.maxTextureArrayLayers));
  }
  const uint32_t levels = d.mip_levels == 0 ? full_mip_count(d.tile_size, d.tile_size) : d.mip_levels;
  auto bytes = texture_bytes(mips.format(), d.tile_size, d.tile_size, levels, d.layers);
  if (!bytes) return make_error(ErrorKind::InvalidArgument, bytes.error().id,
                                fmt::format("tile array \"{}\": {}", d.label, bytes.error().message));
  // Whatever fails below, `a` goes out of scope and its objects are destroyed in the registry.
  auto in_array = [&](std::string what, const Error& error) {
    return make_error(error.kind, error.id, fmt::format("tile array \"{}\": {}: {}", d.label, what, error.message));
  };

  TileArray a;
  a.held_ = HeldObjects(registry);
  a.label_ = d.label;
  a.tile_size_ = d.tile_size;
  a.layers_ = d.layers;
  a.mip_levels_ = levels;
  a.bytes_ = *bytes;
  a.texel_bytes_ = *bytes_per_texel(mips.format());
  a.layer_indices_ = mips.layer_indices();

  resources::TextureDescription tdesc;
  tdesc.label = d.label;
  tdesc.usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst | WGPUTextureUsage_CopySrc |
                WGPUTextureUsage_RenderAttachment;
  tdesc.size = {d.tile_size, d.tile_size, d.layers};
  tdesc.format = mips.format();
  tdesc.mip_level_count = levels;
  tdesc.binding_view_dimension = WGPUTextureViewDimension_2DArray;  // Compatibility mode fixes it at creation
  tdesc.contents = resources::ContentsSource::None;  // after a loss the tiles are fetched again
  auto texture = registry.create_texture(tdesc);
  if (!texture) return texture.error();
  a.texture_ = a.held_.hold(*texture);

  resources::TextureViewDescription vdesc;
  vdesc.dimension = WGPUTextureViewDimension_2DArray;
  vdesc.label = d.label + " sampled";
  auto sampled = registry.create_texture_view(a.texture_, vdesc);
  if (!sampled) return sampled.error();
  a.sampled_view_ = a.held_.hold(*sampled);
  if (d.mip_path == MipPath::Scratch) {
    // Chains are rendered in the scratch array, built the InArray way, and copied in here.
    TileArrayDescription scratch{d.tile_size, std::min(mips.max_targets(), d.layers), levels, d.label + " mip scratch",
                          MipPath::InArray};
    auto made = create(mips, scratch);
    if (!made) return in_array("mip scratch array", made.error());
    a.scratch_ = std::make_unique<TileArray>(std::move(*made));
    return a;
  }
  // A pass never writes more layers than the array has: a one-layer texture gets one pipeline.
  const uint32_t widths = std::min(mips.max_targets(), d.layers);
  for (uint32_t t = 1; t <= widths; ++t) a.mip_pipelines_.push_back(mips.mip_pipeline(t));
  for (uint32_t m = 0; m + 1 < levels; ++m) {
    resources::TextureViewDescription level;
    level.dimension = WGPUTextureViewDimension_2DArray;
    level.base_mip_level = m;
    level.mip_level_count = 1;
    level.label = fmt::format("{} mip {}", d.label, m);
    auto view = registry.create_texture_view(a.texture_, level);
    if (!view) return in_array(fmt::format("source view of level {}", m), view.error());
    a.held_.hold(*view);
    auto group = make_texture_group(a.held_, mips.layout(), *view, mips.sampler(), level.label);
    if (!group) return in_array(fmt::format("bind group of level {}", m), group.error());
    a.mip_sources_.push_back(*group);
  }
  // Level 0 is written by copies, never rendered: views for levels 1.. only.
  a.targets_.reserve(size_t{d.layers} * (levels - 1));
  for (uint32_t layer = 0; layer < d.layers; ++layer) {
    for (uint32_t m = 1; m < levels; ++m) {
      resources::TextureViewDescription target;
      target.dimension = WGPUTextureViewDimension_2D;
      target.base_mip_level = m;
      target.mip_level_count = 1;
      target.base_array_layer = layer;
      target.array_layer_count = 1;
      target.label = d.label;
      auto view = registry.create_texture_view(a.texture_, target);
      if (!view) {
        return in_array(fmt::format("target view of layer {} level {} (the array needs {} views in all)", layer, m,
                                    view_count(d.layers, levels)),
                        view.error());
      }
      a.targets_.push_back(a.held_.hold(*view));
    }
  }
  return a;
}

namespace {

// A call on a destroyed tile array: `use` is what the call was ("upload into").
Error array_destroyed(const char* use, const std::string& label) {
  const ErrorObject array{"tile array", {}, {}, label};
  return make_error(ErrorKind::StaleHandle, MessageId::TileArrayDestroyed, array,
                    fmt::format("{} \"{}\": the array was destroyed", use, *array.label));
}

}  // namespace

Result<void> TileArray::upload(WGPUCommandEncoder encoder, LayerIndex layer, std::span<const uint8_t> texels) const {
  if (auto ok = write_level0(layer, texels); !ok) return ok;
  const LayerIndex one[] = {layer};
  return regenerate_mips(encoder, one);
}

Result<void> TileArray::write_level0(LayerIndex layer, std::span<const uint8_t> texels) const {
  if (destroyed_) return array_destroyed("upload into", label_);
  if (layer >= layers_) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileArrayLayerOutOfRange,
                      fmt::format("upload into \"{}\": layer {} of {}", label_, layer, layers_));
  }
  const uint64_t row = uint64_t{tile_size_} * texel_bytes_;
  if (texels.size() != row * tile_size_) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileTexelsSizeMismatch,
                      fmt::format("upload into \"{}\" layer {}: {} bytes, expected {} ({}x{} texels of {} bytes)",
                                  label_, layer, texels.size(), row * tile_size_, tile_size_, tile_size_, texel_bytes_));
  }
  resources::TextureWrite where;
  where.origin = {0, 0, layer};
  where.size = {tile_size_, tile_size_, 1};
  where.bytes_per_row = static_cast<uint32_t>(row);
  where.rows_per_image = tile_size_;
  // The registry's write: a texture whose device is lost is an error, not a dropped write.
  auto written = held_.registry().write_texture(texture_, where, texels.data(), texels.size());
  if (!written) return make_error(written.error().kind, written.error().id,
                                  fmt::format("upload into \"{}\" layer {}: {}", label_, layer, written.error().message));
  return {};
}

Result<Level0Write> TileArray::level0_write(LayerIndex layer, size_t texel_bytes) const {
  if (destroyed_) return array_destroyed("upload into", label_);
  if (layer >= layers_) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileArrayLayerOutOfRange,
                      fmt::format("upload into \"{}\": layer {} of {}", label_, layer, layers_));
  }
  const uint64_t row = uint64_t{tile_size_} * texel_bytes_;
  if (texel_bytes != row * tile_size_) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileTexelsSizeMismatch,
                      fmt::format("upload into \"{}\" layer {}: {} bytes, expected {} ({}x{} texels of {} bytes)",
                                  label_, layer, texel_bytes, row * tile_size_, tile_size_, tile_size_, texel_bytes_));
  }
  const resources::Registry& registry = held_.registry();
  auto texture = registry.resolve(texture_);
  if (!texture) return make_error(texture.error().kind, texture.error().id,
                                  fmt::format("upload into \"{}\" layer {}: {}", label_, layer, texture.error().message));
  const Procs& p = registry.procs();
  Level0Write w;
  w.procs_ = &p;
  p.TextureAddRef(*texture);
  w.texture_ = Ref<WGPUTexture>(&p, *texture);
  w.queue_ = Ref<WGPUQueue>(&p, p.DeviceGetQueue(registry.device()));
  w.layer_ = layer;
  w.tile_size_ = tile_size_;
  w.row_bytes_ = static_cast<uint32_t>(row);
  return w;
}

void Level0Write::write(std::span<const uint8_t> texels) const {
  WGPUTexelCopyTextureInfo destination{};
  destination.texture = texture_.get();
  destination.origin = {0, 0, layer_};
  destination.aspect = WGPUTextureAspect_All;
  WGPUTexelCopyBufferLayout layout{};
  layout.bytesPerRow = row_bytes_;
  layout.rowsPerImage = tile_size_;
  const WGPUExtent3D extent{tile_size_, tile_size_, 1};
  procs_->QueueWriteTexture(queue_.get(), &destination, texels.data(), texels.size(), &layout, &extent);
}

Result<void> TileArray::record_mip_level(WGPUCommandEncoder encoder, LayerIndex layer, uint32_t level) const {
  const LayerIndex one[] = {layer};
  return record_mip_pass(encoder, one, level);
}

Result<void> TileArray::record_mip_pass(WGPUCommandEncoder encoder, std::span<const LayerIndex> layers, uint32_t level) const {
  if (destroyed_) return array_destroyed("mip chain of", label_);
  if (scratch_) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileMipPassInScratchArray,
                      fmt::format("mip pass into \"{}\": its chains are rendered in its scratch array (MipPath::Scratch); "
                                  "use regenerate_mips",
                                  label_));
  }
  if (layers.empty() || layers.size() > mip_pipelines_.size()) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileMipPassWidthOutOfRange,
                      fmt::format("mip chain of \"{}\": {} layers in one pass (1..{})", label_,
                                  layers.size(), mip_pipelines_.size()));
  }
  for (size_t i = 0; i < layers.size(); ++i) {
    const LayerIndex layer = layers[i];
    if (layer >= layers_ || level == 0 || level >= mip_levels_) {
      return make_error(ErrorKind::InvalidArgument,
                        layer >= layers_ ? MessageId::TileArrayLayerOutOfRange : MessageId::TileMipLevelOutOfRange,
                        fmt::format("mip chain of \"{}\": layer {} of {}, level {} (1..{})", label_, layer, layers_,
                                    level, mip_levels_ - 1));
    }
    for (size_t j = 0; j < i; ++j) {
      if (layers[j] == layer) {
        return make_error(ErrorKind::InvalidArgument, MessageId::TileMipLayerTwice,
                          fmt::format("mip chain of \"{}\": layer {} twice in one pass", label_, layer));
      }
    }
  }
  // Resolve everything before recording: an error (a lost device) leaves the encoder untouched.
  const resources::Registry& registry = held_.registry();
  auto failed = [&](const Error& error) {
    return make_error(error.kind, error.id,
                      fmt::format("mip chain of \"{}\" level {}: {}", label_, level, error.message));
  };
  const uint32_t targets = static_cast<uint32_t>(layers.size());
  auto pipeline = registry.resolve(mip_pipelines_[targets - 1]);
  if (!pipeline) return failed(pipeline.error());
  auto source = registry.resolve(mip_sources_[level - 1]);
  if (!source) return failed(source.error());
  auto indices = registry.resolve(layer_indices_);
  if (!indices) return failed(indices.error());
  WGPURenderPassColorAttachment attachments[kMaxLayersPerPass]{};
  for (uint32_t t = 0; t < targets; ++t) {
    auto view = registry.resolve(target_view(layers[t], level));
    if (!view) return failed(view.error());
    attachments[t].view = *view;
    attachments[t].depthSlice = WGPU_DEPTH_SLICE_UNDEFINED;
    attachments[t].loadOp = WGPULoadOp_Clear;
    attachments[t].storeOp = WGPUStoreOp_Store;
  }
  const Procs& p = registry.procs();
  WGPURenderPassDescriptor pass_desc{};
  pass_desc.colorAttachmentCount = targets;
  pass_desc.colorAttachments = attachments;
  WGPURenderPassEncoder pass = p.CommandEncoderBeginRenderPass(encoder, &pass_desc);
  p.RenderPassEncoderSetPipeline(pass, *pipeline);
  p.RenderPassEncoderSetBindGroup(pass, 0, *source, 0, nullptr);
  for (uint32_t t = 0; t < targets; ++t) {
    p.RenderPassEncoderSetVertexBuffer(pass, t, *indices, uint64_t{layers[t]} * sizeof(uint32_t), sizeof(uint32_t));
  }
  p.RenderPassEncoderDraw(pass, 3, 1, 0, 0);
  p.RenderPassEncoderEnd(pass);
  p.RenderPassEncoderRelease(pass);
  return {};
}

Result<void> TileArray::regenerate_mips(WGPUCommandEncoder encoder, std::span<const LayerIndex> layers) const {
  if (scratch_) return regenerate_through_scratch(encoder, layers);
  const size_t width = std::max<size_t>(mip_pipelines_.size(), 1);
  for (uint32_t level = 1; level < mip_levels_; ++level) {
    for (size_t first = 0; first < layers.size(); first += width) {
      if (auto ok = record_mip_pass(encoder, layers.subspan(first, std::min(width, layers.size() - first)), level); !ok) {
        return ok;
      }
    }
  }
  return {};
}

namespace {

// Copies level `level` of one layer to one layer of another texture of the same size and format.
void copy_level(const Procs& p, WGPUCommandEncoder encoder, WGPUTexture from, LayerIndex from_layer, WGPUTexture to,
                LayerIndex to_layer, uint32_t level, uint32_t tile_size) {
  WGPUTexelCopyTextureInfo src{};
  src.aspect = WGPUTextureAspect_All;
  src.texture = from;
  src.mipLevel = level;
  src.origin = {0, 0, from_layer};
  WGPUTexelCopyTextureInfo dst{};
  dst.aspect = WGPUTextureAspect_All;
  dst.texture = to;
  dst.mipLevel = level;
  dst.origin = {0, 0, to_layer};
  const uint32_t size = std::max(tile_size >> level, 1u);
  const WGPUExtent3D extent{size, size, 1};
  p.CommandEncoderCopyTextureToTexture(encoder, &src, &dst, &extent);
}

}  // namespace

Result<void> TileArray::regenerate_through_scratch(WGPUCommandEncoder encoder, std::span<const LayerIndex> layers) const {
  if (destroyed_) return array_destroyed("mip chain of", label_);
  const size_t width = scratch_->layers();
  for (size_t i = 0; i < layers.size(); ++i) {
    if (layers[i] >= layers_) {
      return make_error(ErrorKind::InvalidArgument, MessageId::TileArrayLayerOutOfRange,
                        fmt::format("mip chain of \"{}\": layer {} of {}", label_, layers[i], layers_));
    }
    // A layer twice in one group would be copied from two scratch layers.
    for (size_t j = i - i % width; j < i; ++j) {
      if (layers[j] == layers[i]) {
        return make_error(ErrorKind::InvalidArgument, MessageId::TileMipLayerTwice,
                          fmt::format("mip chain of \"{}\": layer {} twice in one pass", label_, layers[i]));
      }
    }
  }
  // Resolve before recording: an error (a lost device) leaves the encoder untouched.
  const resources::Registry& registry = held_.registry();
  auto texture = registry.resolve(texture_);
  if (!texture) return make_error(texture.error().kind, texture.error().id,
                                  fmt::format("mip chain of \"{}\": {}", label_, texture.error().message));
  auto scratch = registry.resolve(scratch_->texture());
  if (!scratch) return make_error(scratch.error().kind, scratch.error().id,
                                  fmt::format("mip chain of \"{}\": {}", label_, scratch.error().message));
  const Procs& p = registry.procs();
  std::vector<LayerIndex> slots(width);
  for (size_t t = 0; t < width; ++t) slots[t] = static_cast<LayerIndex>(t);
  // WGPUQueue order keeps groups apart: a group's copies out of the scratch array are recorded
  // before the next group's copies into it.
  for (size_t first = 0; first < layers.size(); first += width) {
    const auto group = layers.subspan(first, std::min(width, layers.size() - first));
    for (size_t t = 0; t < group.size(); ++t) copy_level(p, encoder, *texture, group[t], *scratch, slots[t], 0, tile_size_);
    if (auto ok = scratch_->regenerate_mips(encoder, std::span(slots).first(group.size())); !ok) return ok;
    for (size_t t = 0; t < group.size(); ++t) {
      for (uint32_t level = 1; level < mip_levels_; ++level) {
        copy_level(p, encoder, *scratch, slots[t], *texture, group[t], level, tile_size_);
      }
    }
  }
  return {};
}

Result<void> TileArray::destroy_retired(const LayerPool& pool, const SubmissionClock& clock) {
  if (destroyed_) return {};
  if (pool.allocated_count() != 0) {
    return make_error(ErrorKind::Refused, MessageId::TileArrayLayersStillAllocated,
                      fmt::format("destroy \"{}\": {} layers are still allocated", label_, pool.allocated_count()));
  }
  if (!clock.is_retired(pool.last_use_of_any())) {
    return make_error(ErrorKind::Refused, MessageId::TileArrayStillInUse,
                      fmt::format("destroy \"{}\": submission {} still reads it (retired through {})", label_,
                                  pool.last_use_of_any().value, clock.retired().value));
  }
  // Users before what they use; the registry calls Destroy on the texture once it may.
  held_.release();
  if (scratch_) {
    scratch_->held_.release();
    scratch_->destroyed_ = true;
  }
  destroyed_ = true;
  return {};
}

// ---- TileRenderer ---------------------------------------------------------------------------

Result<TileRenderer> TileRenderer::create(resources::Registry& registry, WGPUTextureFormat target_format, uint32_t max_instances) {
  return create(registry, target_format, max_instances, TileDrawShader{});
}

Result<TileRenderer> TileRenderer::create(resources::Registry& registry, WGPUTextureFormat target_format, uint32_t max_instances,
                                          const TileDrawShader& shader) {
  if (max_instances == 0) return make_error(ErrorKind::InvalidArgument, MessageId::TileRendererZeroInstances,
                                            "TileRenderer: max_instances is 0");
  if (shader.module.is_null() == (shader.library != nullptr)) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileDrawShaderIncomplete,
                      "TileRenderer: an application's draw shader needs both its module and the pipeline library");
  }
  TileRenderer r;
  r.held_ = HeldObjects(registry);
  r.max_instances_ = max_instances;
  auto layout = make_texture_layout(r.held_, "tile draw");
  if (!layout) return layout.error();
  r.layout_ = *layout;
  resources::VertexLayout instances;
  instances.step_mode = WGPUVertexStepMode_Instance;
  instances.stride = sizeof(TileInstance);
  instances.attributes = {{WGPUVertexFormat_Float32x4, offsetof(TileInstance, x0), 0},
                          {WGPUVertexFormat_Float32x4, offsetof(TileInstance, u0), 1},
                          {WGPUVertexFormat_Uint32, offsetof(TileInstance, layer), 2}};
  auto module = shader.library == nullptr ? make_module(r.held_, kDrawWgsl, "tile draw")
                                          : Result<ShaderModuleHandle>(shader.module);
  auto pipeline = module ? make_pipeline(r.held_, *module, r.layout_, {instances}, 1, target_format, "tile draw",
                                         shader.library)
                         : Result<RenderPipelineHandle>(module.error());
  if (!pipeline) {
    return make_error(ErrorKind::Validation, MessageId::TileDrawPipelineNotCreated,
                      fmt::format("tile draw pipeline was not created: {}", pipeline.error().message));
  }
  r.pipeline_ = *pipeline;
  auto sampler = make_linear_sampler(r.held_, WGPUMipmapFilterMode_Linear, "tile draw");
  if (!sampler) return sampler.error();
  r.sampler_ = *sampler;
  resources::BufferDescription bdesc;
  bdesc.label = "tile instances";
  bdesc.usage = WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst;
  bdesc.size = uint64_t{max_instances} * sizeof(TileInstance);
  bdesc.contents = resources::ContentsSource::None;  // every frame writes it again: keeping a copy would copy every frame
  auto buffer = registry.create_buffer(bdesc);
  if (!buffer) return buffer.error();
  r.instances_ = r.held_.hold(*buffer);
  return r;
}

std::string_view TileRenderer::default_wgsl() { return kDrawWgsl; }

Result<TileBindGroup> TileRenderer::make_bind_group(const TileArray& array) const {
  TileBindGroup group;
  group.held_ = HeldObjects(held_.registry());
  auto made = make_texture_group(group.held_, layout_, array.sampled_view(), sampler_, "tile draw");
  if (!made) return made.error();
  group.handle_ = *made;
  return group;
}

Result<void> TileRenderer::write_instances(std::span<const TileInstance> instances) const {
  if (instances.size() > max_instances_) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileRendererTooManyInstances,
                      fmt::format("TileRenderer: {} instances, room for {}", instances.size(), max_instances_));
  }
  if (instances.empty()) return {};
  // writeBuffer wants a multiple of 4 bytes; 36-byte instances always are.
  return held_.registry().write_buffer(instances_, 0, instances.data(), instances.size_bytes());
}

Result<void> TileRenderer::draw(WGPURenderPassEncoder pass, const TileBindGroup& group, uint32_t count,
                                uint32_t first) const {
  const resources::Registry& registry = held_.registry();
  auto pipeline = registry.resolve(pipeline_);
  if (!pipeline) return pipeline.error();
  auto bind_group = registry.resolve(group.handle());
  if (!bind_group) return bind_group.error();
  auto instances = registry.resolve(instances_);
  if (!instances) return instances.error();
  const Procs& p = registry.procs();
  p.RenderPassEncoderSetPipeline(pass, *pipeline);
  p.RenderPassEncoderSetBindGroup(pass, 0, *bind_group, 0, nullptr);
  p.RenderPassEncoderSetVertexBuffer(pass, 0, *instances, 0, WGPU_WHOLE_SIZE);
  p.RenderPassEncoderDraw(pass, 6, count, 0, first);
  return {};
}

TileInstance place_tile(float x, float y, float size, uint32_t target_width, uint32_t target_height) {
  TileInstance t;
  const float w = static_cast<float>(target_width), h = static_cast<float>(target_height);
  t.x0 = x / w * 2.0f - 1.0f;
  t.x1 = (x + size) / w * 2.0f - 1.0f;
  t.y0 = 1.0f - y / h * 2.0f;
  t.y1 = 1.0f - (y + size) / h * 2.0f;
  return t;
}

}  // namespace warden::tiles
