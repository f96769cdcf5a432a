// Draws rehearsed on a device prepared ahead of a rebuild (docs/adr/0044).
//
// Dawn's GL backend hands each draw's state to the GL driver, and GL drivers (Mesa's llvmpipe
// among them) make a program's machine code for each combination of the state bound at a draw
// (texture formats and dimensions, sampler states, target formats, blending, depth test) the
// first time a context draws with it. A recovery onto a spare prepared with the pipelines alone
// pays all of that in its first frame (about 10 ms for 16 pipelines on llvmpipe). Here the
// spare draws once with every prepared render pipeline, binding stand-ins that a driver cannot
// tell from the application's objects by that state: same formats, dimensions, sample counts,
// mip level and layer counts and power-of-two sides, the same sampler states, but a few texels
// each. What it costs lands in the poll that prepares the spare, while the picture is up.
#include <algorithm>
#include <bit>
#include <map>
#include <set>

#include <fmt/format.h>

#include "resources/registry_impl.h"
#include "resources/standby_preparer.h"
#include "warden/gpu/names.h"
#include "warden/gpu/ref.h"

namespace warden::resources {

namespace rehearsal {

// Stand-ins larger than this are not made (a cube map with a long chain would need its full
// size): the rehearsal skips what would use one, and the recovery's first frame makes that code.
constexpr uint64_t kMaxStandInBytes = uint64_t{4} << 20;
// Distinct bound states rehearsed per bind group layout; an application with more draws the
// rest for the first time after a recovery.
constexpr size_t kMaxStatesPerLayout = 8;

bool draws_make_code(const gpu::Procs& procs, WGPUDevice device) {
  WGPUAdapterInfo info{};
  if (procs.DeviceGetAdapterInfo(device, &info) != WGPUStatus_Success) return false;
  const bool gl = info.backendType == WGPUBackendType_OpenGL || info.backendType == WGPUBackendType_OpenGLES;
  procs.AdapterInfoFreeMembers(info);
  return gl;
}

bool has_stencil(WGPUTextureFormat format) {
  return format == WGPUTextureFormat_Stencil8 || format == WGPUTextureFormat_Depth24PlusStencil8 ||
         format == WGPUTextureFormat_Depth32FloatStencil8;
}

// The smallest texture a driver keys like `real`: each side 1 where the real side is a power of
// two and 3 where it is not, the largest side grown (keeping that) until the chain fits, square
// where a cube view of it is bound (`view_dimension`, the bound view's) or declared, every layer
// kept. Nothing when it would still be large.
std::optional<WGPUTextureDescriptor> stand_in_texture(const TextureDescription& real,
                                                      WGPUTextureViewDimension view_dimension) {
  if (gpu::is_block_compressed(real.format)) return std::nullopt;  // sides must be whole blocks
  const uint64_t bytes = gpu::texel_bytes_at_most(real.format);
  auto small = [](uint32_t side) { return std::has_single_bit(side) ? 1u : 3u; };
  const bool is_3d = real.dimension == WGPUTextureDimension_3D;
  const bool is_1d = real.dimension == WGPUTextureDimension_1D;
  uint32_t sides[3] = {small(real.size.width), is_1d ? 1u : small(real.size.height),
                       is_3d ? small(real.size.depthOrArrayLayers) : 1u};
  const uint32_t real_sides[3] = {real.size.width, real.size.height, is_3d ? real.size.depthOrArrayLayers : 1u};
  const uint32_t chain = uint32_t{1} << (std::max(real.mip_level_count, 1u) - 1);  // the largest side needed
  if (*std::max_element(sides, sides + 3) < chain) {
    const auto longest = std::max_element(real_sides, real_sides + 3) - real_sides;
    sides[longest] = std::has_single_bit(real_sides[longest]) ? chain : chain + 1;  // chain + 1 > 2 is odd
  }
  auto is_cube = [](WGPUTextureViewDimension d) {
    return d == WGPUTextureViewDimension_Cube || d == WGPUTextureViewDimension_CubeArray;
  };
  const bool square = is_cube(view_dimension) || is_cube(real.binding_view_dimension);
  if (square) sides[0] = sides[1] = std::max(sides[0], sides[1]);
  const uint32_t layers = is_3d ? sides[2] : real.size.depthOrArrayLayers;
  const uint64_t texels = uint64_t{sides[0]} * sides[1] * (is_3d ? sides[2] : layers) * real.sample_count;
  if (texels * bytes * 2 > kMaxStandInBytes) return std::nullopt;  // x2: the chain below the top
  WGPUTextureDescriptor d{};
  // A multisampled texture must be a render attachment too.
  d.usage = real.usage & (WGPUTextureUsage_TextureBinding | WGPUTextureUsage_StorageBinding |
                          (real.sample_count > 1 ? WGPUTextureUsage_RenderAttachment : WGPUTextureUsage_None));
  d.dimension = real.dimension;
  d.size = {sides[0], sides[1], layers};
  d.format = real.format;
  d.mipLevelCount = real.mip_level_count;
  d.sampleCount = real.sample_count;
  d.viewFormatCount = real.view_formats.size();
  d.viewFormats = real.view_formats.data();
  return d;
}

}  // namespace rehearsal

namespace detail {

// What of a bind group a driver keys a draw's code on: its views' formats and shapes and its
// samplers' states (buffers only by their binding). Nothing when an entry cannot be stood in for.
std::optional<std::string> StandbyPreparer::bound_state_of(const BindGroupDescription& group) const {
  std::string state;
  for (const BindGroupEntryDescription& entry : group.entries) {
    if (std::holds_alternative<BufferBinding>(entry.resource)) {
      fmt::format_to(std::back_inserter(state), "b{};", entry.binding);
    } else if (const auto* view = std::get_if<TextureViewHandle>(&entry.resource)) {
      const auto* view_rec = registry_.record(*view);
      if (view_rec == nullptr || !view_rec->recipe) return std::nullopt;
      const auto* texture_rec = registry_.record(view_rec->recipe->texture);
      if (texture_rec == nullptr || !texture_rec->recipe) return std::nullopt;
      const TextureDescription& t = *texture_rec->recipe;
      const TextureViewDescription& v = view_rec->recipe->desc;
      auto pot = [](uint32_t side) { return std::has_single_bit(side) ? 'p' : 'n'; };
      fmt::format_to(std::back_inserter(state), "v{}:{},{},{},{},{}{}{},{},{},{},{},{},{},{};", entry.binding,
                     static_cast<int>(t.format), static_cast<int>(t.dimension), t.sample_count, t.mip_level_count,
                     pot(t.size.width), pot(t.size.height), pot(t.size.depthOrArrayLayers),
                     static_cast<int>(v.format), static_cast<int>(v.dimension), v.base_mip_level, v.mip_level_count,
                     v.array_layer_count, static_cast<int>(v.aspect), t.size.depthOrArrayLayers);
    } else {
      const auto* sampler_rec = registry_.record(std::get<SamplerHandle>(entry.resource));
      if (sampler_rec == nullptr || !sampler_rec->recipe) return std::nullopt;
      const SamplerDescription& s = *sampler_rec->recipe;
      fmt::format_to(std::back_inserter(state), "s{}:{},{},{},{},{},{},{},{},{},{};", entry.binding,
                     static_cast<int>(s.address_mode_u.value_or(s.address_mode)),
                     static_cast<int>(s.address_mode_v.value_or(s.address_mode)),
                     static_cast<int>(s.address_mode_w.value_or(s.address_mode)), static_cast<int>(s.mag_filter),
                     static_cast<int>(s.min_filter), static_cast<int>(s.mipmap_filter), s.lod_min_clamp,
                     s.lod_max_clamp, static_cast<int>(s.compare), s.max_anisotropy);
    }
  }
  return state;
}

// A bind group on device_ (the prepared device) with `group`'s layout, binding a stand-in for
// each of its entries; the stand-ins go into `held`. Null when one cannot be made.
WGPUBindGroup StandbyPreparer::stand_in_bind_group(const BindGroupDescription& group, StandIns& held) {
  auto layout = registry_.resolve_now(group.layout);  // the prepared layout
  if (!layout) return nullptr;
  std::vector<WGPUBindGroupEntry> entries;
  for (const BindGroupEntryDescription& entry : group.entries) {
    WGPUBindGroupEntry out{};
    out.nextInChain = entry.chain.head();
    out.binding = entry.binding;
    if (const auto* binding = std::get_if<BufferBinding>(&entry.resource)) {
      const auto* buffer_rec = registry_.record(binding->buffer);
      if (buffer_rec == nullptr || !buffer_rec->recipe) return nullptr;
      const BufferDescription& real = *buffer_rec->recipe;
      const uint64_t size = binding->size == WGPU_WHOLE_SIZE ? real.size - std::min(real.size, binding->offset)
                                                             : binding->size;
      if (size == 0 || size > rehearsal::kMaxStandInBytes) return nullptr;
      WGPUBufferDescriptor d{};
      d.size = (size + 3) & ~uint64_t{3};
      d.usage = real.usage & ~(WGPUBufferUsage_MapRead | WGPUBufferUsage_MapWrite);
      held.buffers.emplace_back(&procs_, procs_.DeviceCreateBuffer(device_, &d));
      out.buffer = held.buffers.back().get();
      out.size = size;
    } else if (const auto* view = std::get_if<TextureViewHandle>(&entry.resource)) {
      const auto& view_recipe = *registry_.record(*view)->recipe;  // bound_state_of found both recipes
      const TextureDescription& real = *registry_.record(view_recipe.texture)->recipe;
      auto descriptor = rehearsal::stand_in_texture(real, view_recipe.desc.dimension);
      if (!descriptor) return nullptr;
      held.textures.emplace_back(&procs_, procs_.DeviceCreateTexture(device_, &*descriptor));
      const WGPUTextureViewDescriptor vd = detail::view_descriptor(view_recipe.desc);
      held.views.emplace_back(&procs_, procs_.TextureCreateView(held.textures.back().get(), &vd));
      out.textureView = held.views.back().get();
    } else {
      auto sampler = registry_.make_object<SamplerTag>(*registry_.record(std::get<SamplerHandle>(entry.resource))->recipe);
      if (!sampler) return nullptr;
      held.samplers.emplace_back(&procs_, *sampler);
      out.sampler = *sampler;
    }
    entries.push_back(out);
  }
  WGPUBindGroupDescriptor d{};
  d.layout = *layout;
  d.entryCount = entries.size();
  d.entries = entries.data();
  held.groups.emplace_back(&procs_, procs_.DeviceCreateBindGroup(device_, &d));
  return held.groups.back().get();
}

// One render pass and submission per prepared render pipeline, drawing a triangle once for each
// distinct bound state of the application's bind groups made with its layouts, into stand-in
// attachments of its formats. Runs inside prepare(), with device_ the spare.
DrawRehearsal StandbyPreparer::rehearse_draws() {
  DrawRehearsal report;
  if (!rehearsal::draws_make_code(procs_, device_)) return report;
  // The groups to draw with, per bind group layout: one per distinct bound state.
  std::map<uint64_t, std::vector<BindGroupHandle>> groups_by_layout;
  {
    std::map<uint64_t, std::set<std::string>> states_by_layout;
    auto groups = registry_.store<BindGroupTag>();
    groups.pool.for_each_live([&](SlotId id, WGPUBindGroup object) {
      const auto& rec = groups.records[id.index];
      if (object == nullptr || !rec.recipe) return;
      auto state = bound_state_of(*rec.recipe);
      if (!state) return;
      auto& states = states_by_layout[rec.recipe->layout.bits()];
      if (states.size() < rehearsal::kMaxStatesPerLayout && states.insert(*state).second) {
        groups_by_layout[rec.recipe->layout.bits()].push_back(BindGroupHandle::from_bits(id.bits));
      }
    });
  }
  StandIns held;
  std::map<uint64_t, WGPUBindGroup> stand_in_groups;  // by the application's group's bits
  auto stand_in_for = [&](BindGroupHandle group) {
    auto [at, made] = stand_in_groups.try_emplace(group.bits(), nullptr);
    if (made) at->second = stand_in_bind_group(*registry_.record(group)->recipe, held);
    return at->second;
  };
  gpu::Ref<WGPUQueue> queue(&procs_, procs_.DeviceGetQueue(device_));
  auto pipelines = registry_.store<RenderPipelineTag>();
  pipelines.pool.for_each_live([&](SlotId id, WGPURenderPipeline object) {
    const auto& rec = pipelines.records[id.index];
    const auto prepared = objects_.find({ResourceKind::RenderPipeline, id.bits});
    if (object == nullptr || !rec.recipe || prepared == objects_.end()) return;
    // One submission a pipeline, under error scopes (not a capture: a refusal must reach no
    // handler): a pipeline the device refuses to draw this way loses only its own rehearsal.
    uint32_t drawn = 0;
    const std::string error = registry_.run_scoped([&] {
      gpu::Ref<WGPUCommandEncoder> encoder(&procs_, procs_.DeviceCreateCommandEncoder(device_, nullptr));
      drawn = rehearse_pipeline(*rec.recipe, static_cast<WGPURenderPipeline>(prepared->second), encoder.get(),
                                groups_by_layout, stand_in_for, held);
      if (drawn == 0) return;
      gpu::Ref<WGPUCommandBuffer> commands(&procs_, procs_.CommandEncoderFinish(encoder.get(), nullptr));
      WGPUCommandBuffer submitted = commands.get();
      procs_.QueueSubmit(queue.get(), 1, &submitted);
    });
    if (drawn == 0 || !error.empty()) {
      ++report.pipelines_skipped;
      if (report.error.empty()) report.error = error;
      return;
    }
    report.draws += drawn;
    ++report.pipelines;
  });
  return report;
}

// Records `pipeline`'s pass into `encoder`; the draws recorded (0: nothing to record, and the
// encoder is left unused).
template <typename StandInFor>
uint32_t StandbyPreparer::rehearse_pipeline(const RenderPipelineDescription& pipeline, WGPURenderPipeline prepared,
                                         WGPUCommandEncoder encoder,
                                         const std::map<uint64_t, std::vector<BindGroupHandle>>& groups_by_layout,
                                         StandInFor&& stand_in_for, StandIns& held) {
  if (pipeline.layout.is_null()) return 0;  // "auto" layouts: the groups made of them are not known here
  // A pass needs an attachment; a pipeline with no target and no depth test draws nowhere.
  if (!pipeline.depth && std::none_of(pipeline.targets.begin(), pipeline.targets.end(), [](const ColorTarget& t) {
        return t.format != WGPUTextureFormat_Undefined;
      })) {
    return 0;
  }
  const auto* layout_rec = registry_.record(pipeline.layout);
  if (layout_rec == nullptr || !layout_rec->recipe) return 0;
  const std::vector<BindGroupLayoutHandle>& layouts = layout_rec->recipe->layouts;
  // Per group index, the groups to bind; the k-th draw binds each index's k-th (or its last).
  std::vector<const std::vector<BindGroupHandle>*> choices;
  size_t draws = 1;
  for (BindGroupLayoutHandle layout : layouts) {
    auto found = groups_by_layout.find(layout.bits());
    if (found == groups_by_layout.end()) return 0;  // nothing the application could bind there yet
    choices.push_back(&found->second);
    draws = std::max(draws, found->second.size());
  }
  // Attachments of the pipeline's formats, one texel each.
  auto attachment = [&](WGPUTextureFormat format) {
    WGPUTextureDescriptor d{};
    d.usage = WGPUTextureUsage_RenderAttachment;
    d.dimension = WGPUTextureDimension_2D;
    d.size = {1, 1, 1};
    d.format = format;
    d.mipLevelCount = 1;
    d.sampleCount = pipeline.sample_count;
    held.textures.emplace_back(&procs_, procs_.DeviceCreateTexture(device_, &d));
    held.views.emplace_back(&procs_, procs_.TextureCreateView(held.textures.back().get(), nullptr));
    return held.views.back().get();
  };
  std::vector<WGPURenderPassColorAttachment> colors(pipeline.targets.size());
  for (size_t i = 0; i < colors.size(); ++i) {
    colors[i].depthSlice = WGPU_DEPTH_SLICE_UNDEFINED;
    if (pipeline.targets[i].format == WGPUTextureFormat_Undefined) continue;  // a hole in the list
    colors[i].view = attachment(pipeline.targets[i].format);
    colors[i].loadOp = WGPULoadOp_Clear;
    colors[i].storeOp = WGPUStoreOp_Store;
  }
  WGPURenderPassDepthStencilAttachment depth{};
  WGPURenderPassDescriptor pass_desc{};
  pass_desc.colorAttachmentCount = colors.size();
  pass_desc.colorAttachments = colors.data();
  if (pipeline.depth) {
    depth.view = attachment(pipeline.depth->format);
    depth.depthLoadOp = WGPULoadOp_Clear;
    depth.depthStoreOp = WGPUStoreOp_Store;
    depth.depthClearValue = 1.0f;
    if (rehearsal::has_stencil(pipeline.depth->format)) {
      depth.stencilLoadOp = WGPULoadOp_Clear;
      depth.stencilStoreOp = WGPUStoreOp_Store;
    }
    if (pipeline.depth->format == WGPUTextureFormat_Stencil8) {
      depth.depthLoadOp = WGPULoadOp_Undefined;
      depth.depthStoreOp = WGPUStoreOp_Undefined;
    }
    pass_desc.depthStencilAttachment = &depth;
  }
  // Vertex buffers long enough for three vertices (or instances) of each layout.
  std::vector<WGPUBuffer> vertex_buffers;
  for (const VertexLayout& layout : pipeline.vertex_buffers) {
    uint64_t end = layout.stride * 3;
    for (const VertexAttribute& a : layout.attributes) end = std::max<uint64_t>(end, a.offset + 16);
    WGPUBufferDescriptor d{};
    d.size = (std::max<uint64_t>(end, 4) + 3) & ~uint64_t{3};
    d.usage = WGPUBufferUsage_Vertex;
    held.buffers.emplace_back(&procs_, procs_.DeviceCreateBuffer(device_, &d));
    vertex_buffers.push_back(held.buffers.back().get());
  }
  std::vector<WGPUBindGroup> bound(choices.size());
  std::vector<std::vector<uint32_t>> dynamic_offsets(choices.size());
  for (size_t g = 0; g < layouts.size(); ++g) {
    const auto* layout_rec_g = registry_.record(layouts[g]);
    if (layout_rec_g == nullptr || !layout_rec_g->recipe) return 0;
    for (const WGPUBindGroupLayoutEntry& e : layout_rec_g->recipe->entries) {
      if (e.buffer.hasDynamicOffset) dynamic_offsets[g].push_back(0);
    }
  }
  WGPURenderPassEncoder pass = procs_.CommandEncoderBeginRenderPass(encoder, &pass_desc);
  procs_.RenderPassEncoderSetPipeline(pass, prepared);
  for (uint32_t slot = 0; slot < vertex_buffers.size(); ++slot) {
    procs_.RenderPassEncoderSetVertexBuffer(pass, slot, vertex_buffers[slot], 0, WGPU_WHOLE_SIZE);
  }
  uint32_t drawn = 0;
  for (size_t k = 0; k < draws; ++k) {
    bool complete = true;
    for (size_t g = 0; g < choices.size() && complete; ++g) {
      const std::vector<BindGroupHandle>& options = *choices[g];
      bound[g] = stand_in_for(options[std::min(k, options.size() - 1)]);
      complete = bound[g] != nullptr;
    }
    if (!complete) continue;
    for (uint32_t g = 0; g < bound.size(); ++g) {
      procs_.RenderPassEncoderSetBindGroup(pass, g, bound[g], dynamic_offsets[g].size(), dynamic_offsets[g].data());
    }
    procs_.RenderPassEncoderDraw(pass, 3, 1, 0, 0);
    ++drawn;
  }
  procs_.RenderPassEncoderEnd(pass);
  procs_.RenderPassEncoderRelease(pass);
  return drawn;
}

}  // namespace detail
}  // namespace warden::resources
