/// @file
/// warden's descriptions of the objects Registry::create_* makes (buffers, textures, views,
/// samplers, shader modules, layouts, bind groups, pipelines, query sets, render bundles) and
/// of content writes: the one vocabulary that create_* takes and that a rebuild after a device
/// loss replays (docs/adr/0013).
/// They name shader modules and layouts by handle, so the same description can be built again
/// after its module was replaced (hot reload) or on a new device, and carry no pointers but the
/// chains they own (ChainCopy).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "warden/core/handle.h"
#include "warden/core/result.h"
#include "warden/gpu/abi.h"

namespace warden::resources {

// ---- chained structs ------------------------------------------------------------------------
/// A copy of a chain of webgpu.h extension structs (what a `nextInChain` points to) that owns its
/// structs, so a description keeps the chain after the call that gave it and a rebuild after a
/// device loss hands the same chain to the new device. Only structs made of values are kept (a
/// device object named in one would be the lost device's after a rebuild): kept_size() says
/// which.
class ChainCopy {
 public:
  /// A chain longer than this is taken for a loop (a struct whose `next` leads back into it).
  static constexpr size_t kLongest = 64;
  /// No chain.
  ChainCopy() = default;
  /// A copy of every struct of the chain that starts at `head` (null: an empty copy).
  /// InvalidArgument (ChainStructNotKept) names the first struct whose sType is not kept.
  static Result<ChainCopy> of(const WGPUChainedStruct* head);
  /// The size of the struct of `type` where a copy keeps such structs; 0 where it does not.
  static size_t kept_size(WGPUSType type);
  /// Copies every struct again, linked in the same order.
  ChainCopy(const ChainCopy& other);
  /// Copies every struct of `other` again, linked in the same order.
  ChainCopy& operator=(const ChainCopy& other);
  /// Takes the structs: they do not move, so the chain's links stay valid.
  ChainCopy(ChainCopy&& other) noexcept = default;
  /// Takes the structs of `other`.
  ChainCopy& operator=(ChainCopy&& other) noexcept = default;
  ~ChainCopy() = default;

  /// The first struct, for a descriptor's `nextInChain`, valid while this copy lives; null when
  /// the chain is empty.
  WGPUChainedStruct* head() const;
  /// The sType of each struct, in chain order.
  std::vector<WGPUSType> types() const;
  /// True when there is no struct.
  bool empty() const { return structs_.empty(); }

 private:
  // One block per struct, linked through their `next` in chain order.
  std::vector<std::unique_ptr<std::max_align_t[]>> structs_;
};

// ---- bind group layouts ---------------------------------------------------------------------
/// A buffer binding of a bind group layout entry (webgpu.h's WGPUBufferBindingLayout).
struct BufferLayout {
  /// Uniform, storage or read-only storage.
  WGPUBufferBindingType type = WGPUBufferBindingType_Uniform;
  /// Whether the offset is given at setBindGroup time.
  bool has_dynamic_offset = false;
  /// The smallest range a group may bind, in bytes; 0: checked at draw time instead.
  uint64_t min_binding_size = 0;
};
/// A sampler binding of a bind group layout entry.
struct SamplerLayout {
  /// Filtering, non-filtering or comparison.
  WGPUSamplerBindingType type = WGPUSamplerBindingType_Filtering;
};
/// A sampled-texture binding of a bind group layout entry.
struct TextureLayout {
  /// What the shader reads the texels as.
  WGPUTextureSampleType sample_type = WGPUTextureSampleType_Float;
  /// The dimension of the view the group must bind.
  WGPUTextureViewDimension view_dimension = WGPUTextureViewDimension_2D;
  /// Whether the view must be multisampled.
  bool multisampled = false;
};
/// A storage-texture binding of a bind group layout entry.
struct StorageTextureLayout {
  /// Write-only, read-only or read-write.
  WGPUStorageTextureAccess access = WGPUStorageTextureAccess_WriteOnly;
  /// The format the view must have.
  WGPUTextureFormat format = WGPUTextureFormat_RGBA8Unorm;
  /// The dimension of the view the group must bind.
  WGPUTextureViewDimension view_dimension = WGPUTextureViewDimension_2D;
};
/// What one layout entry binds: exactly one of the four kinds.
using BindingType = std::variant<BufferLayout, SamplerLayout, TextureLayout, StorageTextureLayout>;

/// One entry of a bind group layout in warden's terms: the binding number, the stages that see it
/// and what it binds.
struct LayoutEntry {
  /// The binding number, as the shader declares it.
  uint32_t binding = 0;
  /// WGPUShaderStage bits of the stages that may use the binding.
  WGPUShaderStage visibility = WGPUShaderStage_None;
  /// What the binding holds.
  BindingType type = BufferLayout{};
};

// ---- pipelines ------------------------------------------------------------------------------
/// One pipeline-overridable constant of a stage (a WGSL `override`).
struct Constant {
  /// The constant's name or numeric id in the shader.
  std::string key{};
  /// Its value, converted to the constant's type.
  double value = 0;
};

/// One programmable stage of a pipeline: a registered module, its entry point and its constants.
struct ShaderStage {
  /// The module; a stale handle makes the create call fail naming it.
  ShaderModuleHandle module{};
  std::string entry_point{};  ///< empty: the module's one entry point of the stage, as webgpu.h's null
  /// Values for the stage's override constants.
  std::vector<Constant> constants{};
};

/// One attribute of a vertex buffer.
struct VertexAttribute {
  /// Its format.
  WGPUVertexFormat format = WGPUVertexFormat_Float32x4;
  /// Its offset within one vertex, in bytes.
  uint64_t offset = 0;
  /// The shader location it feeds.
  uint32_t location = 0;
};
/// How one vertex buffer is read.
struct VertexLayout {
  /// Bytes from one element to the next.
  uint64_t stride = 0;
  /// Per vertex or per instance.
  WGPUVertexStepMode step_mode = WGPUVertexStepMode_Vertex;
  /// The attributes one element holds.
  std::vector<VertexAttribute> attributes{};
};

/// One color attachment a render pipeline writes.
struct ColorTarget {
  /// The attachment's format.
  WGPUTextureFormat format = WGPUTextureFormat_RGBA8Unorm;
  /// Blending; none: the fragment's output replaces the texel.
  std::optional<WGPUBlendState> blend{};
  /// WGPUColorWriteMask bits of the channels written.
  WGPUColorWriteMask write_mask = WGPUColorWriteMask_All;
};

/// One face's stencil test and what it writes (webgpu.h's WGPUStencilFaceState); the default
/// passes every fragment and keeps the stored value.
inline constexpr WGPUStencilFaceState kStencilKeep{.compare = WGPUCompareFunction_Always,
                                                  .failOp = WGPUStencilOperation_Keep,
                                                  .depthFailOp = WGPUStencilOperation_Keep,
                                                  .passOp = WGPUStencilOperation_Keep};

/// The depth and stencil tests of a render pipeline, and its depth bias.
struct DepthState {
  /// The depth attachment's format; a stencil test needs one with stencil (Depth24PlusStencil8).
  WGPUTextureFormat format = WGPUTextureFormat_Depth24Plus;
  /// Whether passing fragments write their depth.
  bool write = true;
  /// The test a fragment's depth must pass against the stored one.
  WGPUCompareFunction compare = WGPUCompareFunction_Less;
  /// The stencil test and operations of front faces (the stencil reference is the pass's).
  WGPUStencilFaceState stencil_front = kStencilKeep;
  /// The stencil test and operations of back faces.
  WGPUStencilFaceState stencil_back = kStencilKeep;
  /// The bits of the stored stencil value the test reads.
  uint32_t stencil_read_mask = 0xFFFFFFFF;
  /// The bits of the stencil value the operations write.
  uint32_t stencil_write_mask = 0xFFFFFFFF;
  /// A constant added to each fragment's depth, in the format's smallest steps.
  int32_t depth_bias = 0;
  /// Added depth per unit of the primitive's depth slope.
  float depth_bias_slope_scale = 0.0f;
  /// The largest bias applied (0: no clamp).
  float depth_bias_clamp = 0.0f;
};

/// What create_render_pipeline makes a render pipeline from, by handle, kept as its recipe so a
/// rebuild can make it again.
struct RenderPipelineDescription {
  /// The name messages, reports and the GPU debugger show.
  std::string label{};
  PipelineLayoutHandle layout{};  ///< null: derived from the shaders ("auto")
  /// The vertex stage.
  ShaderStage vertex{};
  /// One layout per vertex buffer slot, in slot order.
  std::vector<VertexLayout> vertex_buffers{};
  /// How vertices form primitives.
  WGPUPrimitiveTopology topology = WGPUPrimitiveTopology_TriangleList;
  /// A strip topology's index format, whose largest value restarts the strip in an indexed draw;
  /// Undefined (webgpu.h's default): the bound index buffer's. The device refuses it with a list
  /// topology.
  WGPUIndexFormat strip_index_format = WGPUIndexFormat_Undefined;
  /// Which winding faces the viewer.
  WGPUFrontFace front_face = WGPUFrontFace_CCW;
  /// Which faces are dropped.
  WGPUCullMode cull_mode = WGPUCullMode_None;
  /// Fragments outside the depth range are kept with their depth clamped, not clipped; needs the
  /// device feature DepthClipControl (the device refuses the pipeline without it).
  bool unclipped_depth = false;
  /// The depth test; none: the pass has no depth attachment.
  std::optional<DepthState> depth{};
  /// Samples per pixel of the attachments: 1, or 4.
  uint32_t sample_count = 1;
  /// Which of the samples a draw may write, bit i for sample i.
  uint32_t sample_mask = 0xFFFFFFFF;
  /// Whether the fragment's alpha decides which samples it covers.
  bool alpha_to_coverage = false;
  std::optional<ShaderStage> fragment{};  ///< its targets are `targets`
  /// The color attachments, in attachment order.
  std::vector<ColorTarget> targets{};
};

/// What create_compute_pipeline makes a compute pipeline from, kept as its recipe.
struct ComputePipelineDescription {
  /// The name messages, reports and the GPU debugger show.
  std::string label{};
  PipelineLayoutHandle layout{};  ///< null: derived from the shader ("auto")
  /// The compute stage.
  ShaderStage compute{};
};

// ---- buffers, textures, views, samplers, modules, groups, query sets, bundles -----------------
/// Where a buffer's or texture's contents come from on a new device (docs/adr/0013).
enum class ContentsSource : uint8_t {
  Kept,      ///< warden keeps a copy of what was written through write_buffer/write_texture
  Callback,  ///< the application writes them again (the description's refill callback)
  None,      ///< it comes back zeroed, and the rebuild reports it (ContentsLost)
};
/// The name of `source` as messages print it ("kept", "callback", "none").
const char* to_string(ContentsSource source);

class Registry;

/// What create_buffer makes a buffer from, kept as its recipe: a rebuild after a device loss makes
/// the buffer again from it.
struct BufferDescription {
  /// Size in bytes; 0 is refused.
  uint64_t size = 0;
  /// WGPUBufferUsage bits; write_buffer needs CopyDst, bind groups check their bindings against
  /// them.
  WGPUBufferUsage usage = WGPUBufferUsage_None;
  /// Made mapped for writing. With ContentsSource::Kept, what is written through the mapping is
  /// kept when the buffer is unmapped with Registry::unmap_buffer, and a rebuild writes it back;
  /// unmapped with wgpuBufferUnmap it is not kept, and the rebuild lists it in contents_lost.
  bool mapped_at_creation = false;
  /// The name messages, reports and the GPU debugger show.
  std::string label{};
  /// Where the contents come from after a device loss (docs/adr/0013). Kept: the bytes last
  /// written through warden; what the GPU wrote since (a Storage or QueryResolve buffer) is not
  /// among them, and the rebuild lists such a buffer in ContentsLost.
  ContentsSource contents = ContentsSource::Kept;
  /// ContentsSource::Callback: called after a rebuild made every object again; writes the
  /// contents through the registry (write_buffer). Required for Callback, ignored otherwise.
  std::function<void(Registry&, BufferHandle)> refill{};
};

/// What create_texture makes a texture from, kept as its recipe for a rebuild after a device loss.
struct TextureDescription {
  /// Width, height and depth or array layers, in texels; each must be at least 1 and within the
  /// device's limits.
  WGPUExtent3D size{0, 1, 1};
  /// The texel format.
  WGPUTextureFormat format = WGPUTextureFormat_RGBA8Unorm;
  /// WGPUTextureUsage bits; write_texture needs CopyDst, bind groups check their bindings against
  /// them.
  WGPUTextureUsage usage = WGPUTextureUsage_None;
  /// 1D, 2D or 3D.
  WGPUTextureDimension dimension = WGPUTextureDimension_2D;
  /// Mip levels, the full size first.
  uint32_t mip_level_count = 1;
  /// Samples per texel: 1, or 4 for a multisampled render target.
  uint32_t sample_count = 1;
  /// Compatibility mode fixes the view dimension a texture is bound with at creation;
  /// Undefined leaves it to the implementation's default.
  WGPUTextureViewDimension binding_view_dimension = WGPUTextureViewDimension_Undefined;
  /// The formats views of it may have besides `format` (e.g. its sRGB twin); a view of any
  /// other format is refused.
  std::vector<WGPUTextureFormat> view_formats{};
  /// The name messages, reports and the GPU debugger show.
  std::string label{};
  /// Where the contents come from after a device loss (docs/adr/0013). Kept: the texels last
  /// written through write_texture; what the GPU rendered or stored since (a RenderAttachment or
  /// StorageBinding texture) is not among them, and the rebuild lists such a texture in
  /// ContentsLost.
  ContentsSource contents = ContentsSource::Kept;
  std::function<void(Registry&, TextureHandle)> refill{};  ///< as BufferDescription::refill
};

/// How create_texture_view sees its texture; Undefined and the *Undefined counts mean "as the
/// texture is" (webgpu.h's defaults).
struct TextureViewDescription {
  /// The view's format; Undefined: the texture's.
  WGPUTextureFormat format = WGPUTextureFormat_Undefined;
  /// The view's dimension; Undefined: the texture's natural one.
  WGPUTextureViewDimension dimension = WGPUTextureViewDimension_Undefined;
  /// The first mip level the view shows.
  uint32_t base_mip_level = 0;
  /// How many levels from there; WGPU_MIP_LEVEL_COUNT_UNDEFINED: all the rest.
  uint32_t mip_level_count = WGPU_MIP_LEVEL_COUNT_UNDEFINED;
  /// The first array layer the view shows.
  uint32_t base_array_layer = 0;
  /// How many layers from there; WGPU_ARRAY_LAYER_COUNT_UNDEFINED: all the rest.
  uint32_t array_layer_count = WGPU_ARRAY_LAYER_COUNT_UNDEFINED;
  /// Which aspect (color, depth, stencil) the view shows.
  WGPUTextureAspect aspect = WGPUTextureAspect_All;
  /// The name messages, reports and the GPU debugger show.
  std::string label{};
};

/// What create_sampler makes a sampler from: address modes, filters, LOD clamps, comparison and
/// anisotropy; every default is webgpu.h's.
struct SamplerDescription {
  /// What a coordinate outside [0, 1] reads, on every axis without its own mode below.
  WGPUAddressMode address_mode = WGPUAddressMode_ClampToEdge;
  /// The u axis' mode where it differs from `address_mode` (e.g. Repeat across a seam).
  std::optional<WGPUAddressMode> address_mode_u{};
  /// The v axis' mode where it differs from `address_mode`.
  std::optional<WGPUAddressMode> address_mode_v{};
  /// The w axis' mode where it differs from `address_mode`.
  std::optional<WGPUAddressMode> address_mode_w{};
  /// Filter when a texel covers more than a pixel.
  WGPUFilterMode mag_filter = WGPUFilterMode_Nearest;
  /// Filter when a pixel covers more than a texel.
  WGPUFilterMode min_filter = WGPUFilterMode_Nearest;
  /// Filter between mip levels.
  WGPUMipmapFilterMode mipmap_filter = WGPUMipmapFilterMode_Nearest;
  /// The lowest mip level sampled; at most `lod_max_clamp` (the library refuses otherwise).
  float lod_min_clamp = 0.0f;
  /// The highest mip level sampled.
  float lod_max_clamp = 32.0f;
  /// Undefined: an ordinary sampler; another function: a comparison sampler, which only a
  /// WGPUSamplerBindingType_Comparison binding (a WGSL sampler_comparison) takes.
  WGPUCompareFunction compare = WGPUCompareFunction_Undefined;
  /// Above 1 only with every filter Linear (the library refuses otherwise).
  uint16_t max_anisotropy = 1;
  /// The name messages, reports and the GPU debugger show.
  std::string label{};
};

/// A range of a registered buffer bound to one bind group entry.
struct BufferBinding {
  /// The buffer; it must be alive when the group is made, and is touched with the group.
  BufferHandle buffer{};
  /// Start of the range in bytes.
  uint64_t offset = 0;
  /// Length of the range in bytes; WGPU_WHOLE_SIZE: to the end of the buffer.
  uint64_t size = WGPU_WHOLE_SIZE;
};
/// One entry of a bind group: what is bound at `binding`.
struct BindGroupEntryDescription {
  /// The binding number, as the layout and the shader declare it.
  uint32_t binding = 0;
  /// A buffer range, a texture view or a sampler, all registered; the layout's entry says which is
  /// allowed.
  std::variant<BufferBinding, TextureViewHandle, SamplerHandle> resource{};
  /// The entry's chained structs (WGPUBindGroupEntry::nextInChain), kept with the recipe.
  ChainCopy chain{};
};
/// What create_bind_group makes a group from, by handle, so a rebuild can make it again from the
/// rebuilt objects.
struct BindGroupDescription {
  /// The layout the group follows.
  BindGroupLayoutHandle layout{};
  /// One entry per binding of the layout.
  std::vector<BindGroupEntryDescription> entries{};
  /// The name messages, reports and the GPU debugger show.
  std::string label{};
};

/// A shader module's recipe: its WGSL source, kept so a rebuild or a hot reload can compile it
/// again.
struct ShaderModuleDescription {
  /// The WGSL source.
  std::string wgsl{};
  /// The name messages, reports and the GPU debugger show.
  std::string label{};
  std::string path{};  ///< where the source came from, when it came from a file (hot reload)
};

/// A bind group layout's recipe: the entries create_bind_group_layout took.
struct BindGroupLayoutDescription {
  /// The entries, each nextInChain null: its chain is in `entry_chains`.
  std::vector<WGPUBindGroupLayoutEntry> entries{};
  /// A copy of each entry's chain, by entry index; empty when no entry had one.
  std::vector<ChainCopy> entry_chains{};
  /// The name messages, reports and the GPU debugger show.
  std::string label{};
};

/// A pipeline layout's recipe: its bind group layouts, by handle.
struct PipelineLayoutDescription {
  /// The bind group layouts, in group order.
  std::vector<BindGroupLayoutHandle> layouts{};
  /// The name messages, reports and the GPU debugger show.
  std::string label{};
};

/// What create_texture_view makes a view from, kept as its recipe: the texture it views (by
/// handle, so a rebuild views the rebuilt texture) and how (its TextureViewDescription).
struct TextureAndViewDescription {
  /// The texture the view was made of.
  TextureHandle texture{};
  /// How it views that texture.
  TextureViewDescription desc{};
};

/// What create_query_set makes a query set from.
struct QuerySetDescription {
  /// Occlusion or timestamp queries.
  WGPUQueryType type = WGPUQueryType_Occlusion;
  /// How many queries the set holds; 0 is refused.
  uint32_t count = 0;
  /// The name messages, reports and the GPU debugger show.
  std::string label{};
};

class RenderBundleRecording;

/// What create_render_bundle makes a render bundle from, kept as its recipe: the attachments the
/// bundle's passes have, and the application's `record`, which records the commands. A bundle
/// holds the device's pipelines, bind groups and buffers, so it cannot outlive them: after a loss
/// the rebuild calls `record` again on the new device, after every other kind is made again
/// (docs/adr/0039).
struct RenderBundleDescription {
  /// The name messages, reports and the GPU debugger show.
  std::string label{};
  /// The color attachments of the passes that execute the bundle, in attachment order.
  std::vector<WGPUTextureFormat> color_formats{};
  /// Their depth-stencil attachment's format; Undefined: none.
  WGPUTextureFormat depth_stencil_format = WGPUTextureFormat_Undefined;
  /// Samples per pixel of the attachments.
  uint32_t sample_count = 1;
  /// Whether the bundle's draws leave depth unwritten (the pass may then bind depth read-only).
  bool depth_read_only = false;
  /// Whether the bundle's draws leave stencil unwritten.
  bool stencil_read_only = false;
  /// Records the bundle's commands into the recording's encoder, resolving the handles they use
  /// through it. Called by create_render_bundle, by rerecord_render_bundle, and by the rebuild
  /// after a device loss, each time on the registry's current device; an error it returns fails
  /// that call (the bundle's label and the error's words are named). Required. It may read the
  /// registry and write buffers and textures; making, replacing or destroying an object from
  /// inside it is refused (RenderBundleRecordReentered), as is driving device generations.
  std::function<Result<void>(RenderBundleRecording&)> record{};
};

/// Where write_texture puts its bytes.
struct TextureWrite {
  /// The mip level written.
  uint32_t mip_level = 0;
  /// The first texel written, in texels of that level.
  WGPUOrigin3D origin{};
  /// How many texels are written on each axis.
  WGPUExtent3D size{0, 1, 1};
  /// Bytes from one row of the data to the next; 0 (or WGPU_COPY_STRIDE_UNDEFINED): rows are
  /// packed, `size.width` texels each. Shorter than a row of the region is refused.
  uint32_t bytes_per_row = 0;
  /// Rows from one image (depth slice or layer) of the data to the next; WGPU_COPY_STRIDE_UNDEFINED:
  /// `size`'s height. Fewer than `size`'s height is refused.
  uint32_t rows_per_image = WGPU_COPY_STRIDE_UNDEFINED;
  /// The aspect written.
  WGPUTextureAspect aspect = WGPUTextureAspect_All;
};

}  // namespace warden::resources
