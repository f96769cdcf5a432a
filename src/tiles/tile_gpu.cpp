#include "warden/tiles/tile_gpu.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "warden/tiles/sizing.h"
#include "warden/webgpu/objects.h"

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

Ref<ShaderModule> make_module(const Procs& p, Device device, const char* code, const char* label) {
  return Ref<ShaderModule>(&p, create_wgsl_module(p, device, code, label));
}

Ref<Sampler> make_linear_sampler(const Procs& p, Device device, MipmapFilterMode mip_filter, const char* label) {
  SamplerDescriptor desc;
  desc.label = label;
  desc.magFilter = FilterMode::Linear;
  desc.minFilter = FilterMode::Linear;
  desc.mipmapFilter = mip_filter;
  return Ref<Sampler>(&p, p.DeviceCreateSampler(device, &desc));
}

Ref<BindGroup> make_texture_group(const Procs& p, Device device, BindGroupLayout layout,
                                  TextureView view, Sampler sampler, const std::string& label) {
  BindGroupEntry entries[2];
  entries[0].binding = 0;
  entries[0].textureView = view;
  entries[1].binding = 1;
  entries[1].sampler = sampler;
  BindGroupDescriptor desc;
  desc.label = label;
  desc.layout = layout;
  desc.entryCount = 2;
  desc.entries = entries;
  return Ref<BindGroup>(&p, p.DeviceCreateBindGroup(device, &desc));
}

}  // namespace

// ---- MipGenerator ---------------------------------------------------------------------------

Result<MipGenerator> MipGenerator::create(const Procs& p, Device device, TextureFormat format) {
  auto texel = bytes_per_texel(format);
  if (!texel) return texel.error();
  Limits limits;
  p.DeviceGetLimits(device, &limits);
  // As many targets as the device takes: an RGBA8 target costs 8 bytes per sample against
  // maxColorAttachmentBytesPerSample (32 in Compatibility mode); wider formats are counted at
  // twice their texel size, which never undercounts.
  uint32_t max_targets = std::min({kMaxLayersPerPass, limits.maxColorAttachments,
                                   limits.maxColorAttachmentBytesPerSample / std::max(8u, *texel * 2)});
  max_targets = std::max(max_targets, 1u);
  MipGenerator g;
  g.format_ = format;
  ColorTargetState colors[kMaxLayersPerPass];
  for (auto& c : colors) c.format = format;
  VertexAttribute layer_attrs[kMaxLayersPerPass];
  VertexBufferLayout layer_buffers[kMaxLayersPerPass];
  for (uint32_t t = 0; t < kMaxLayersPerPass; ++t) {
    layer_attrs[t].format = VertexFormat::Uint32;
    layer_attrs[t].shaderLocation = t;
    layer_buffers[t].stepMode = VertexStepMode::Instance;
    layer_buffers[t].arrayStride = sizeof(uint32_t);
    layer_buffers[t].attributeCount = 1;
    layer_buffers[t].attributes = &layer_attrs[t];
  }
  auto make = [&](const std::string& code, uint32_t targets, const char* label) -> Stage {
    auto module = make_module(p, device, code.c_str(), label);
    FragmentState fragment;
    fragment.module = module.get();
    fragment.entryPoint = "fs";
    fragment.targetCount = targets;
    fragment.targets = colors;
    RenderPipelineDescriptor desc;
    desc.label = label;
    desc.vertex.module = module.get();
    desc.vertex.entryPoint = "vs";
    desc.vertex.bufferCount = targets;
    desc.vertex.buffers = layer_buffers;
    desc.fragment = &fragment;
    Stage stage;
    stage.pipeline = Ref<RenderPipeline>(&p, p.DeviceCreateRenderPipeline(device, &desc));
    if (stage.pipeline) {
      stage.layout = Ref<BindGroupLayout>(&p, p.RenderPipelineGetBindGroupLayout(stage.pipeline.get(), 0));
    }
    return stage;
  };
  for (uint32_t t = 1; t <= max_targets; ++t) {
    Stage mip = make(mip_wgsl(t), t, "tile mip chain");
    if (!mip.pipeline) {
      return make_error(ErrorKind::Validation, fmt::format("tile mip pipeline for {} layers was not created", t));
    }
    g.mip_.push_back(std::move(mip));
  }
  g.sampler_ = make_linear_sampler(p, device, MipmapFilterMode::Nearest, "tile mip chain");

  const uint32_t count = std::max(limits.maxTextureArrayLayers, 1u);
  BufferDescriptor bdesc;
  bdesc.label = "tile layer indices";
  bdesc.usage = BufferUsage::Vertex;
  bdesc.size = uint64_t{count} * sizeof(uint32_t);
  bdesc.mappedAtCreation = 1;
  g.layer_indices_ = Ref<Buffer>(&p, p.DeviceCreateBuffer(device, &bdesc));
  if (auto* mapped = static_cast<uint32_t*>(p.BufferGetMappedRange(g.layer_indices_.get(), 0, bdesc.size))) {
    for (uint32_t i = 0; i < count; ++i) mapped[i] = i;
  }
  p.BufferUnmap(g.layer_indices_.get());
  return g;
}

// ---- TileArray ------------------------------------------------------------------------------

Result<TileArray> TileArray::create(const Procs& p, Device device, const MipGenerator& mips,
                                    const TileArrayDesc& d) {
  Limits limits;
  p.DeviceGetLimits(device, &limits);
  if (d.tile_size == 0 || d.tile_size > limits.maxTextureDimension2D) {
    return make_error(ErrorKind::InvalidArgument,
                      fmt::format("tile array '{}': tile size {} (1..{})", d.label, d.tile_size, limits.maxTextureDimension2D));
  }
  if (d.layers == 0 || d.layers > limits.maxTextureArrayLayers) {
    return make_error(ErrorKind::InvalidArgument,
                      fmt::format("tile array '{}': {} layers (1..{} on this device)", d.label, d.layers, limits.maxTextureArrayLayers));
  }
  const uint32_t levels = d.mip_levels == 0 ? full_mip_count(d.tile_size, d.tile_size) : d.mip_levels;
  auto bytes = texture_bytes(mips.format(), d.tile_size, d.tile_size, levels, d.layers);
  if (!bytes) return make_error(ErrorKind::InvalidArgument, fmt::format("tile array '{}': {}", d.label, bytes.error().message));

  TileArray a;
  a.procs_ = &p;
  a.device_ = device;
  a.label_ = d.label;
  a.tile_size_ = d.tile_size;
  a.layers_ = d.layers;
  a.mip_levels_ = levels;
  a.bytes_ = *bytes;
  a.texel_bytes_ = *bytes_per_texel(mips.format());
  a.layer_indices_ = mips.layer_indices();

  TextureBindingViewDimensionDescriptor bound_as;
  bound_as.textureBindingViewDimension = TextureViewDimension::e2DArray;
  TextureDescriptor tdesc;
  tdesc.nextInChain = &bound_as.chain;
  tdesc.label = d.label;
  tdesc.usage = TextureUsage::TextureBinding | TextureUsage::CopyDst | TextureUsage::CopySrc |
                TextureUsage::RenderAttachment;
  tdesc.size = {d.tile_size, d.tile_size, d.layers};
  tdesc.format = mips.format();
  tdesc.mipLevelCount = levels;
  a.texture_ = Ref<Texture>(&p, p.DeviceCreateTexture(device, &tdesc));

  TextureViewDescriptor vdesc;
  vdesc.dimension = TextureViewDimension::e2DArray;
  a.sampled_view_ = Ref<TextureView>(&p, p.TextureCreateView(a.texture_.get(), &vdesc));
  // A pass never writes more layers than the array has: a one-layer texture gets one set.
  const uint32_t widths = std::min(mips.max_targets(), d.layers);
  a.mip_sources_.resize(widths);
  for (uint32_t t = 1; t <= widths; ++t) a.mip_pipelines_.push_back(mips.mip_pipeline(t));
  for (uint32_t m = 0; m + 1 < levels; ++m) {
    TextureViewDescriptor level;
    level.dimension = TextureViewDimension::e2DArray;
    level.baseMipLevel = m;
    level.mipLevelCount = 1;
    Ref<TextureView> view(&p, p.TextureCreateView(a.texture_.get(), &level));
    for (uint32_t t = 1; t <= widths; ++t) {
      a.mip_sources_[t - 1].push_back(make_texture_group(p, device, mips.mip_layout(t), view.get(), mips.sampler(),
                                                         fmt::format("{} mip {}", d.label, m)));
    }
  }
  // Level 0 is written by copies, never rendered: views for levels 1.. only.
  a.targets_.reserve(size_t{d.layers} * (levels - 1));
  for (uint32_t layer = 0; layer < d.layers; ++layer) {
    for (uint32_t m = 1; m < levels; ++m) {
      TextureViewDescriptor target;
      target.dimension = TextureViewDimension::e2D;
      target.baseMipLevel = m;
      target.mipLevelCount = 1;
      target.baseArrayLayer = layer;
      target.arrayLayerCount = 1;
      a.targets_.emplace_back(&p, p.TextureCreateView(a.texture_.get(), &target));
    }
  }
  return a;
}

Result<void> TileArray::upload(Queue queue, CommandEncoder encoder, LayerIndex layer,
                               std::span<const uint8_t> texels) const {
  if (auto ok = write_level0(queue, layer, texels); !ok) return ok;
  const LayerIndex one[] = {layer};
  return regenerate_mips(encoder, one);
}

Result<void> TileArray::write_level0(Queue queue, LayerIndex layer, std::span<const uint8_t> texels) const {
  if (destroyed_) return make_error(ErrorKind::StaleHandle, fmt::format("upload into '{}': the array was destroyed", label_));
  if (layer >= layers_) {
    return make_error(ErrorKind::InvalidArgument,
                      fmt::format("upload into '{}': layer {} of {}", label_, layer, layers_));
  }
  const uint64_t row = uint64_t{tile_size_} * texel_bytes_;
  if (texels.size() != row * tile_size_) {
    return make_error(ErrorKind::InvalidArgument,
                      fmt::format("upload into '{}' layer {}: {} bytes, expected {} ({}x{} texels of {} bytes)",
                                  label_, layer, texels.size(), row * tile_size_, tile_size_, tile_size_, texel_bytes_));
  }
  TexelCopyTextureInfo dst;
  dst.texture = texture_.get();
  dst.origin = {0, 0, layer};
  TexelCopyBufferLayout layout;
  layout.bytesPerRow = static_cast<uint32_t>(row);
  layout.rowsPerImage = tile_size_;
  Extent3D extent{tile_size_, tile_size_, 1};
  procs_->QueueWriteTexture(queue, &dst, texels.data(), texels.size(), &layout, &extent);
  return {};
}

Result<void> TileArray::record_mip_level(CommandEncoder encoder, LayerIndex layer, uint32_t level) const {
  const LayerIndex one[] = {layer};
  return record_mip_pass(encoder, one, level);
}

Result<void> TileArray::record_mip_pass(CommandEncoder encoder, std::span<const LayerIndex> layers, uint32_t level) const {
  const Procs& p = *procs_;
  if (destroyed_) return make_error(ErrorKind::StaleHandle, fmt::format("mip chain of '{}': the array was destroyed", label_));
  if (layers.empty() || layers.size() > mip_sources_.size()) {
    return make_error(ErrorKind::InvalidArgument, fmt::format("mip chain of '{}': {} layers in one pass (1..{})", label_,
                                                              layers.size(), mip_sources_.size()));
  }
  for (size_t i = 0; i < layers.size(); ++i) {
    const LayerIndex layer = layers[i];
    if (layer >= layers_ || level == 0 || level >= mip_levels_) {
      return make_error(ErrorKind::InvalidArgument,
                        fmt::format("mip chain of '{}': layer {} of {}, level {} (1..{})", label_, layer, layers_,
                                    level, mip_levels_ - 1));
    }
    for (size_t j = 0; j < i; ++j) {
      if (layers[j] == layer) {
        return make_error(ErrorKind::InvalidArgument,
                          fmt::format("mip chain of '{}': layer {} twice in one pass", label_, layer));
      }
    }
  }
  const uint32_t targets = static_cast<uint32_t>(layers.size());
  RenderPassColorAttachment attachments[kMaxLayersPerPass];
  for (uint32_t t = 0; t < targets; ++t) {
    attachments[t].view = target_view(layers[t], level);
    attachments[t].loadOp = LoadOp::Clear;
    attachments[t].storeOp = StoreOp::Store;
  }
  RenderPassDescriptor pass_desc;
  pass_desc.colorAttachmentCount = targets;
  pass_desc.colorAttachments = attachments;
  RenderPassEncoder pass = p.CommandEncoderBeginRenderPass(encoder, &pass_desc);
  p.RenderPassEncoderSetPipeline(pass, mip_pipelines_[targets - 1]);
  p.RenderPassEncoderSetBindGroup(pass, 0, mip_sources_[targets - 1][level - 1].get(), 0, nullptr);
  for (uint32_t t = 0; t < targets; ++t) {
    p.RenderPassEncoderSetVertexBuffer(pass, t, layer_indices_, uint64_t{layers[t]} * sizeof(uint32_t),
                                       sizeof(uint32_t));
  }
  p.RenderPassEncoderDraw(pass, 3, 1, 0, 0);
  p.RenderPassEncoderEnd(pass);
  p.RenderPassEncoderRelease(pass);
  return {};
}

Result<void> TileArray::regenerate_mips(CommandEncoder encoder, std::span<const LayerIndex> layers) const {
  const size_t width = std::max<size_t>(mip_sources_.size(), 1);
  for (uint32_t level = 1; level < mip_levels_; ++level) {
    for (size_t first = 0; first < layers.size(); first += width) {
      if (auto ok = record_mip_pass(encoder, layers.subspan(first, std::min(width, layers.size() - first)), level); !ok) {
        return ok;
      }
    }
  }
  return {};
}

Result<void> TileArray::destroy_retired(const LayerPool& pool, const SubmissionClock& clock) {
  if (destroyed_) return {};
  if (pool.allocated_count() != 0) {
    return make_error(ErrorKind::Refused, fmt::format("destroy '{}': {} layers are still allocated", label_,
                                                      pool.allocated_count()));
  }
  if (!clock.is_retired(pool.last_use_of_any())) {
    return make_error(ErrorKind::Refused,
                      fmt::format("destroy '{}': submission {} still reads it (retired through {})", label_,
                                  pool.last_use_of_any().value, clock.retired().value));
  }
  procs_->TextureDestroy(texture_.get());
  destroyed_ = true;
  return {};
}

// ---- TileRenderer ---------------------------------------------------------------------------

Result<TileRenderer> TileRenderer::create(const Procs& p, Device device, TextureFormat target_format,
                                          uint32_t max_instances) {
  if (max_instances == 0) return make_error(ErrorKind::InvalidArgument, "TileRenderer: max_instances is 0");
  TileRenderer r;
  r.procs_ = &p;
  r.device_ = device;
  r.max_instances_ = max_instances;
  auto module = make_module(p, device, kDrawWgsl, "tile draw");
  VertexAttribute attrs[3];
  attrs[0].format = VertexFormat::Float32x4;
  attrs[0].offset = offsetof(TileInstance, x0);
  attrs[0].shaderLocation = 0;
  attrs[1].format = VertexFormat::Float32x4;
  attrs[1].offset = offsetof(TileInstance, u0);
  attrs[1].shaderLocation = 1;
  attrs[2].format = VertexFormat::Uint32;
  attrs[2].offset = offsetof(TileInstance, layer);
  attrs[2].shaderLocation = 2;
  VertexBufferLayout instances;
  instances.stepMode = VertexStepMode::Instance;
  instances.arrayStride = sizeof(TileInstance);
  instances.attributeCount = 3;
  instances.attributes = attrs;
  VsFsPipelineDesc desc(module.get(), target_format);
  desc.desc.label = "tile draw";
  desc.desc.vertex.bufferCount = 1;
  desc.desc.vertex.buffers = &instances;
  r.pipeline_ = Ref<RenderPipeline>(&p, p.DeviceCreateRenderPipeline(device, &desc.desc));
  if (!r.pipeline_) return make_error(ErrorKind::Validation, "tile draw pipeline was not created");
  r.layout_ = Ref<BindGroupLayout>(&p, p.RenderPipelineGetBindGroupLayout(r.pipeline_.get(), 0));
  r.sampler_ = make_linear_sampler(p, device, MipmapFilterMode::Linear, "tile draw");
  BufferDescriptor bdesc;
  bdesc.label = "tile instances";
  bdesc.usage = BufferUsage::Vertex | BufferUsage::CopyDst;
  bdesc.size = uint64_t{max_instances} * sizeof(TileInstance);
  r.instances_ = Ref<Buffer>(&p, p.DeviceCreateBuffer(device, &bdesc));
  return r;
}

Ref<BindGroup> TileRenderer::make_bind_group(const TileArray& array) const {
  return make_texture_group(*procs_, device_, layout_.get(), array.sampled_view(), sampler_.get(), "tile draw");
}

Result<void> TileRenderer::write_instances(Queue queue, std::span<const TileInstance> instances) const {
  if (instances.size() > max_instances_) {
    return make_error(ErrorKind::InvalidArgument, fmt::format("TileRenderer: {} instances, room for {}",
                                                              instances.size(), max_instances_));
  }
  if (instances.empty()) return {};
  // writeBuffer wants a multiple of 4 bytes; 36-byte instances always are.
  procs_->QueueWriteBuffer(queue, instances_.get(), 0, instances.data(), instances.size_bytes());
  return {};
}

void TileRenderer::draw(RenderPassEncoder pass, BindGroup group, uint32_t count, uint32_t first) const {
  const Procs& p = *procs_;
  p.RenderPassEncoderSetPipeline(pass, pipeline_.get());
  p.RenderPassEncoderSetBindGroup(pass, 0, group, 0, nullptr);
  p.RenderPassEncoderSetVertexBuffer(pass, 0, instances_.get(), 0, kWholeSize);
  p.RenderPassEncoderDraw(pass, 6, count, 0, first);
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
