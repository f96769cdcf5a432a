// Registry::create_* with random descriptions on the Null backend: buffers, textures, views,
// samplers, query sets, bind group layouts, bind groups, and writes into what was made. Every
// outcome must be a handle that resolves, or an error with a message id of its own; Dawn must
// never report an error outside warden's error scopes (warden let a bad request through to a
// call it does not scope); and every Dawn reference taken is given back by the end.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "fuzz/fuzz_support.h"
#include "fuzz/null_device.h"
#include "fuzz/registry_support.h"
#include "warden/gpu/error_scope.h"
#include "warden/resources/registry.h"

namespace warden::fuzz {
namespace {

using namespace resources;

// Values around WebGPU's default limits and the edges of each field, besides small ones.
uint32_t extent(Bytes& in) {
  static constexpr uint32_t kEdges[] = {0, 1, 2, 3, 4, 5, 7, 8, 16, 255, 256, 257, 2048, 2049, 8192, 8193,
                                        65536, 0x7fffffff, 0xffffffff};
  return in.coin() ? kEdges[in.below(std::size(kEdges))] : in.below(64);
}

uint64_t buffer_size(Bytes& in) {
  // No large size the device accepts: the Null backend allocates what a buffer holds.
  static constexpr uint64_t kEdges[] = {0, 1, 3, 4, 16, 256, 1 << 20, (uint64_t{1} << 28) + 1, uint64_t{1} << 40,
                                        UINT64_MAX - 3, UINT64_MAX};
  return in.coin() ? kEdges[in.below(std::size(kEdges))] : in.below(4096);
}

// One of the enum's values this build names, or (now and then) any number.
template <typename Enum, size_t N>
Enum one_of(Bytes& in, const Enum (&values)[N]) {
  if (in.below(16) == 0) return static_cast<Enum>(in.below(64));
  return values[in.below(N)];
}

constexpr WGPUTextureFormat kFormats[] = {
    WGPUTextureFormat_Undefined,   WGPUTextureFormat_R8Unorm,     WGPUTextureFormat_R32Float,
    WGPUTextureFormat_R32Uint,     WGPUTextureFormat_RGBA8Unorm,  WGPUTextureFormat_RGBA8UnormSrgb,
    WGPUTextureFormat_RGBA8Sint,   WGPUTextureFormat_BGRA8Unorm,  WGPUTextureFormat_RGBA16Float,
    WGPUTextureFormat_RGBA32Float, WGPUTextureFormat_Depth24Plus, WGPUTextureFormat_Depth32Float};
constexpr WGPUTextureDimension kDimensions[] = {WGPUTextureDimension_Undefined, WGPUTextureDimension_1D,
                                                 WGPUTextureDimension_2D, WGPUTextureDimension_3D};
constexpr WGPUTextureViewDimension kViewDimensions[] = {
    WGPUTextureViewDimension_Undefined, WGPUTextureViewDimension_1D,  WGPUTextureViewDimension_2D,
    WGPUTextureViewDimension_2DArray,  WGPUTextureViewDimension_Cube, WGPUTextureViewDimension_CubeArray,
    WGPUTextureViewDimension_3D};
constexpr WGPUTextureAspect kAspects[] = {WGPUTextureAspect_All, WGPUTextureAspect_StencilOnly,
                                           WGPUTextureAspect_DepthOnly};
constexpr WGPUAddressMode kAddressModes[] = {WGPUAddressMode_Undefined, WGPUAddressMode_ClampToEdge,
                                              WGPUAddressMode_Repeat, WGPUAddressMode_MirrorRepeat};
constexpr WGPUFilterMode kFilters[] = {WGPUFilterMode_Undefined, WGPUFilterMode_Nearest, WGPUFilterMode_Linear};
constexpr WGPUMipmapFilterMode kMipFilters[] = {WGPUMipmapFilterMode_Undefined, WGPUMipmapFilterMode_Nearest,
                                                 WGPUMipmapFilterMode_Linear};
constexpr WGPUQueryType kQueryTypes[] = {WGPUQueryType_Occlusion, WGPUQueryType_Timestamp};
constexpr WGPUBufferBindingType kBufferBindings[] = {
    WGPUBufferBindingType_BindingNotUsed, WGPUBufferBindingType_Uniform, WGPUBufferBindingType_Storage,
    WGPUBufferBindingType_ReadOnlyStorage};
constexpr WGPUSamplerBindingType kSamplerBindings[] = {
    WGPUSamplerBindingType_BindingNotUsed, WGPUSamplerBindingType_Filtering,
    WGPUSamplerBindingType_NonFiltering, WGPUSamplerBindingType_Comparison};
constexpr WGPUTextureSampleType kSampleTypes[] = {
    WGPUTextureSampleType_BindingNotUsed, WGPUTextureSampleType_Float, WGPUTextureSampleType_UnfilterableFloat,
    WGPUTextureSampleType_Depth,          WGPUTextureSampleType_Sint,  WGPUTextureSampleType_Uint};
constexpr WGPUStorageTextureAccess kStorageAccess[] = {
    WGPUStorageTextureAccess_BindingNotUsed, WGPUStorageTextureAccess_WriteOnly,
    WGPUStorageTextureAccess_ReadOnly, WGPUStorageTextureAccess_ReadWrite};
constexpr ContentsSource kSources[] = {ContentsSource::Kept, ContentsSource::Callback, ContentsSource::None};

class Creations {
 public:
  explicit Creations(Bytes& in) : in_(in), registry_(make_fuzz_registry(RegistryOptions::uniform(16))) {}

  void go() {
    for (int step = 0; step < 64 && !in_.empty(); ++step) {
      switch (in_.below(11)) {
        case 0: buffer(); break;
        case 1: texture(); break;
        case 2: view(); break;
        case 3: sampler(); break;
        case 4: query_set(); break;
        case 5: bind_group_layout(); break;
        case 6: bind_group(); break;
        case 7: write_buffer(); break;
        case 8: write_texture(); break;
        case 9: destroy(); break;
        case 10: submit_and_poll(*registry_); break;
      }
    }
    check_no_uncaptured_errors();
  }

 private:
  template <typename H>
  void check(const char* call, const Result<H>& made, const std::string& label, std::vector<H>& into) {
    if (!made) return require_named(made.error(), call);
    require(!made->is_null() && registry_->resolve(*made).ok(), std::string(call) + " returned a handle that does not resolve");
    const std::string* kept = registry_->label(*made);
    // No label: the registry names the object by kind and slot ("sampler#0.1").
    require(kept != nullptr && (label.empty() ? !kept->empty() : *kept == label),
            fmt::format("{} was given the label {:?} and kept {:?}", call, label, kept ? *kept : std::string("none")));
    into.push_back(*made);
  }
  template <typename H>
  H pick(const std::vector<H>& from) {
    // Now and then a null handle, or a stale one (destroyed since).
    if (from.empty() || in_.below(8) == 0) return H{};
    return from[in_.below(static_cast<uint32_t>(from.size()))];
  }

  // Where the contents come from after a loss (now and then Callback without the refill it
  // needs), and the label.
  template <typename Description>
  void contents_and_label(Description& d) {
    d.contents = kSources[in_.below(3)];
    if (d.contents == ContentsSource::Callback && in_.coin()) d.refill = [](Registry&, auto) {};
    d.label = in_.text(24);
  }

  void buffer() {
    BufferDescription d;
    d.size = buffer_size(in_);
    d.usage = in_.below(0x400);
    d.mapped_at_creation = in_.below(4) == 0;
    contents_and_label(d);
    check("create_buffer", registry_->create_buffer(d), d.label, buffers_);
  }

  void texture() {
    TextureDescription d;
    d.size = {extent(in_), extent(in_), extent(in_)};
    d.format = one_of(in_, kFormats);
    d.usage = in_.below(0x20);
    d.dimension = one_of(in_, kDimensions);
    d.mip_level_count = in_.coin() ? 1 : extent(in_);
    d.sample_count = in_.coin() ? 1 : extent(in_);
    d.binding_view_dimension = in_.coin() ? WGPUTextureViewDimension_Undefined : one_of(in_, kViewDimensions);
    contents_and_label(d);
    check("create_texture", registry_->create_texture(d), d.label, textures_);
  }

  void view() {
    TextureViewDescription d;
    d.format = in_.coin() ? WGPUTextureFormat_Undefined : one_of(in_, kFormats);
    d.dimension = in_.coin() ? WGPUTextureViewDimension_Undefined : one_of(in_, kViewDimensions);
    d.base_mip_level = in_.coin() ? 0 : extent(in_);
    d.mip_level_count = in_.coin() ? WGPU_MIP_LEVEL_COUNT_UNDEFINED : extent(in_);
    d.base_array_layer = in_.coin() ? 0 : extent(in_);
    d.array_layer_count = in_.coin() ? WGPU_ARRAY_LAYER_COUNT_UNDEFINED : extent(in_);
    d.aspect = one_of(in_, kAspects);
    d.label = in_.text(24);
    check("create_texture_view", registry_->create_texture_view(pick(textures_), d), d.label, views_);
  }

  void sampler() {
    SamplerDescription d;
    d.address_mode = one_of(in_, kAddressModes);
    d.mag_filter = one_of(in_, kFilters);
    d.min_filter = one_of(in_, kFilters);
    d.mipmap_filter = one_of(in_, kMipFilters);
    d.label = in_.text(24);
    check("create_sampler", registry_->create_sampler(d), d.label, samplers_);
  }

  void query_set() {
    QuerySetDescription d;
    d.type = one_of(in_, kQueryTypes);
    d.count = extent(in_);
    d.label = in_.text(24);
    check("create_query_set", registry_->create_query_set(d), d.label, query_sets_);
  }

  void bind_group_layout() {
    std::vector<WGPUBindGroupLayoutEntry> entries(in_.below(5));
    for (auto& e : entries) {
      e.binding = in_.coin() ? in_.below(4) : extent(in_);
      e.visibility = in_.below(8);
      // Usually one kind of binding, as WebGPU requires; now and then several or none.
      switch (in_.below(5)) {
        case 0: e.buffer.type = one_of(in_, kBufferBindings);
                e.buffer.hasDynamicOffset = in_.coin();
                e.buffer.minBindingSize = in_.coin() ? 0 : buffer_size(in_);
                break;
        case 1: e.sampler.type = one_of(in_, kSamplerBindings); break;
        case 2: e.texture.sampleType = one_of(in_, kSampleTypes);
                e.texture.viewDimension = one_of(in_, kViewDimensions);
                e.texture.multisampled = in_.coin();
                break;
        case 3: e.storageTexture.access = one_of(in_, kStorageAccess);
                e.storageTexture.format = one_of(in_, kFormats);
                e.storageTexture.viewDimension = one_of(in_, kViewDimensions);
                break;
        case 4: e.buffer.type = one_of(in_, kBufferBindings);
                e.sampler.type = one_of(in_, kSamplerBindings);
                break;
      }
    }
    const std::string label = in_.text(24);
    check("create_bind_group_layout", registry_->create_bind_group_layout(entries, label), label, layouts_);
  }

  void bind_group() {
    BindGroupDescription d;
    d.layout = pick(layouts_);
    d.entries.resize(in_.below(5));
    for (auto& e : d.entries) {
      e.binding = in_.coin() ? in_.below(4) : extent(in_);
      switch (in_.below(3)) {
        case 0: e.resource = BufferBinding{pick(buffers_), in_.coin() ? 0 : buffer_size(in_),
                                           in_.coin() ? WGPU_WHOLE_SIZE : buffer_size(in_)};
                break;
        case 1: e.resource = pick(views_); break;
        case 2: e.resource = pick(samplers_); break;
      }
    }
    d.label = in_.text(24);
    check("create_bind_group", registry_->create_bind_group(d), d.label, groups_);
  }

  void write_buffer() {
    const BufferHandle target = pick(buffers_);
    const uint64_t offset = in_.coin() ? in_.below(16) * 4 : buffer_size(in_);
    const std::string bytes = in_.text(64);
    // Now and then a null pointer with a size, which must be refused, not read.
    const bool no_data = in_.below(16) == 0;
    Result<void> written =
        registry_->write_buffer(target, offset, no_data ? nullptr : bytes.data(), no_data ? 4 : bytes.size());
    if (!written) require_named(written.error(), "write_buffer");
  }

  void write_texture() {
    const TextureHandle target = pick(textures_);
    TextureWrite where;
    where.mip_level = in_.coin() ? 0 : in_.below(4);
    where.origin = {in_.below(8), in_.below(8), in_.below(2)};
    where.size = {extent(in_) % 17, extent(in_) % 17, 1 + in_.below(2)};
    where.bytes_per_row = in_.coin() ? where.size.width * 4 : extent(in_);
    where.rows_per_image = in_.coin() ? WGPU_COPY_STRIDE_UNDEFINED : extent(in_);
    where.aspect = one_of(in_, kAspects);
    const uint64_t length = in_.coin() ? uint64_t{where.bytes_per_row} * where.size.height * where.size.depthOrArrayLayers
                                       : in_.below(256);
    if (length > (1u << 20)) return;  // a stride of gigabytes: not worth allocating
    const std::vector<uint8_t> bytes(length);
    Result<void> written = registry_->write_texture(target, where, bytes.data(), bytes.size());
    if (!written) require_named(written.error(), "write_texture");
  }

  void destroy() {
    // Destroying is how stale handles reach the later calls.
    Result<void> done = in_.coin() ? registry_->destroy_texture(pick(textures_)) : registry_->destroy_buffer(pick(buffers_));
    if (!done) require_named(done.error(), "destroy");
  }

  Bytes& in_;
  LedgerBalance balance_;  // declared before the registry: checked after it is gone
  std::unique_ptr<Registry> registry_;
  std::vector<BufferHandle> buffers_;
  std::vector<TextureHandle> textures_;
  std::vector<TextureViewHandle> views_;
  std::vector<SamplerHandle> samplers_;
  std::vector<QuerySetHandle> query_sets_;
  std::vector<BindGroupLayoutHandle> layouts_;
  std::vector<BindGroupHandle> groups_;
};

}  // namespace
}  // namespace warden::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  warden::fuzz::Bytes in(data, size);
  warden::fuzz::Creations(in).go();
  return 0;
}
