// Objects made from native descriptors (docs/adr/0059): each descriptor becomes the registry's
// description of the object, with the objects it names as their handles, so the registry keeps
// the recipe and makes the object again after every loss. A creation the registry or Dawn
// refuses still hands out an object, as webgpu.h does (an error object): every call on it is an
// error naming it.
#include <fmt/format.h>

#include "warden/gpu/names.h"
#include "webgpu_h/entries.h"
#include "webgpu_h/library.h"

namespace warden::webgpu_h {

Object* make_derived_group(Device& device, const WGPUBindGroupDescriptor& desc, std::string* failure);

namespace {

std::string label_of(WGPUStringView label) { return std::string(gpu::to_std(label)); }

// The device of a creation, ready: a creation during a recovery waits for it (bounded).
Device* creating_device(WGPUDevice device, ProcId id) {
  auto* self = checked<Device>(device, Kind::Device, id);
  if (self != nullptr) (void)self->ready_device();
  return self;
}

// The handle behind an application object a descriptor names; a null handle and the call's
// failure set when it is not one of warden's custody objects of that kind.
template <typename Tag>
Handle<Tag> handle_of(const void* pointer, Kind kind, const char* what, std::string& failure) {
  Object* any = from_app(pointer, kind);
  auto* object = dynamic_cast<Custody<Tag>*>(any);
  if (any != nullptr && object == nullptr) {
    // warden's object of the kind, but not the registry's: a pipeline's implicit layout, a
    // surface's texture or view. Nothing with a recipe can name it.
    if (failure.empty()) {
      failure = fmt::format("{}: {} is made again by the library on each device and cannot be named here "
                            "(docs/webgpu-library.md, \"What is not served yet\")", what, describe(*any));
    }
    return {};
  }
  if (object == nullptr) {
    if (failure.empty()) {
      failure = pointer == nullptr ? fmt::format("{} is null", what)
                                   : fmt::format("{}: {}", what, not_warden_object(pointer, kind));
    }
    return {};
  }
  if (object->handle().is_null() && failure.empty()) {
    // An error object (its creation failed): what it names cannot be made either.
    std::string why;
    (void)object->dawn(&why);
    failure = fmt::format("{}: {}", what, why);
  }
  return object->handle();
}

// What a creation came to: the new handle, or why there is none.
template <typename Tag>
struct Outcome {
  Handle<Tag> handle{};
  std::string why{};
};
template <typename Tag>
Outcome<Tag> outcome(Result<Handle<Tag>> made) {
  if (made) return {*made, {}};
  return {{}, made.error().message};
}
template <typename Tag>
Outcome<Tag> failed(std::string why) {
  return {{}, std::move(why)};
}
// `make`'s outcome, unless the descriptor chains a struct warden does not keep (unkept_chain).
template <typename Tag, typename Make>
Outcome<Tag> unless_chained(const WGPUChainedStruct* chain, Make&& make) {
  if (std::string refused = unkept_chain(chain, "the descriptor"); !refused.empty()) return failed<Tag>(std::move(refused));
  return make();
}

// The application's object for a creation's outcome: the new handle, or a failed object.
template <typename Tag, typename Wgpu>
Wgpu hand_out(Device& device, Kind kind, ProcId id, Outcome<Tag> made, std::string label) {
  auto* object = new Custody<Tag>(kind, device, made.handle, std::move(label));
  if (!made.why.empty()) {
    object->fail(made.why);
    Call call{id, &device, made.why};
    call.report();
  } else if constexpr (std::is_same_v<Tag, BufferTag> || std::is_same_v<Tag, TextureTag>) {
    device.track(made.handle.bits(), object);
  }
  return to_app<Wgpu>(object);
}

resources::ShaderStage stage_of(const void* module, WGPUStringView entry_point, size_t constant_count,
                                const WGPUConstantEntry* constants, const char* what, std::string& failure) {
  resources::ShaderStage stage;
  stage.module = handle_of<ShaderModuleTag>(module, Kind::ShaderModule, what, failure);
  stage.entry_point = std::string(gpu::to_std(entry_point));
  for (size_t i = 0; i < constant_count; ++i) {
    stage.constants.push_back({std::string(gpu::to_std(constants[i].key)), constants[i].value});
  }
  return stage;
}

}  // namespace

WGPUBuffer Entry<ProcId::DeviceCreateBuffer>::call(WGPUDevice device, const WGPUBufferDescriptor* desc) {
  Device* self = creating_device(device, ProcId::DeviceCreateBuffer);
  if (self == nullptr) return nullptr;
  WGPUBufferDescriptor none{};
  if (desc == nullptr) desc = &none;
  resources::BufferDescription d;
  d.size = desc->size;
  d.usage = desc->usage;
  d.mapped_at_creation = desc->mappedAtCreation != 0;
  d.label = label_of(desc->label);
  return hand_out<BufferTag, WGPUBuffer>(
      *self, Kind::Buffer, ProcId::DeviceCreateBuffer,
      unless_chained<BufferTag>(desc->nextInChain, [&] { return outcome(self->registry().create_buffer(d)); }), d.label);
}

WGPUTexture Entry<ProcId::DeviceCreateTexture>::call(WGPUDevice device, const WGPUTextureDescriptor* desc) {
  Device* self = creating_device(device, ProcId::DeviceCreateTexture);
  if (self == nullptr) return nullptr;
  WGPUTextureDescriptor none{};
  if (desc == nullptr) desc = &none;
  resources::TextureDescription d;
  d.size = desc->size;
  d.format = desc->format;
  d.usage = desc->usage;
  d.dimension = desc->dimension == WGPUTextureDimension_Undefined ? WGPUTextureDimension_2D : desc->dimension;
  d.mip_level_count = desc->mipLevelCount;
  d.sample_count = desc->sampleCount;
  d.view_formats.assign(desc->viewFormats, desc->viewFormats + desc->viewFormatCount);
  d.label = label_of(desc->label);
  std::string refused = unkept_chain(desc->nextInChain, "the descriptor", {WGPUSType_TextureBindingViewDimensionDescriptor});
  for (const WGPUChainedStruct* chain = desc->nextInChain; refused.empty() && chain != nullptr; chain = chain->next) {
    // Kept in the description: a compatibility-mode device needs it again on every device.
    d.binding_view_dimension =
        reinterpret_cast<const WGPUTextureBindingViewDimensionDescriptor*>(chain)->textureBindingViewDimension;
  }
  return hand_out<TextureTag, WGPUTexture>(
      *self, Kind::Texture, ProcId::DeviceCreateTexture,
      refused.empty() ? outcome(self->registry().create_texture(d)) : failed<TextureTag>(std::move(refused)), d.label);
}

WGPUTextureView Entry<ProcId::TextureCreateView>::call(WGPUTexture texture, const WGPUTextureViewDescriptor* desc) {
  if (auto* surface_texture = dynamic_cast<SurfaceTexture*>(from_app(texture, Kind::Texture))) {
    // A view of a surface's texture belongs to the texture's generation, as the texture does.
    Device& self = *surface_texture->device();
    auto dawn_texture = static_cast<WGPUTexture>(surface_texture->dawn(nullptr));
    WGPUTextureView view = dawn_texture != nullptr ? dawn_procs().TextureCreateView(dawn_texture, desc) : nullptr;
    return to_app<WGPUTextureView>(new SurfaceTextureView(Kind::TextureView, self, view, surface_texture->generation(),
                                                          desc != nullptr ? label_of(desc->label) : surface_texture->label()));
  }
  auto* owner = checked<Texture>(texture, Kind::Texture, ProcId::TextureCreateView);
  if (owner == nullptr) return nullptr;
  Device& self = *owner->device();
  (void)self.ready_device();
  WGPUTextureViewDescriptor none{};
  none.mipLevelCount = WGPU_MIP_LEVEL_COUNT_UNDEFINED;
  none.arrayLayerCount = WGPU_ARRAY_LAYER_COUNT_UNDEFINED;
  if (desc == nullptr) desc = &none;
  resources::TextureViewDescription d;
  d.format = desc->format;
  d.dimension = desc->dimension;
  d.base_mip_level = desc->baseMipLevel;
  d.mip_level_count = desc->mipLevelCount;
  d.base_array_layer = desc->baseArrayLayer;
  d.array_layer_count = desc->arrayLayerCount;
  d.aspect = desc->aspect == WGPUTextureAspect_Undefined ? WGPUTextureAspect_All : desc->aspect;
  d.label = label_of(desc->label);
  return hand_out<TextureViewTag, WGPUTextureView>(
      self, Kind::TextureView, ProcId::TextureCreateView,
      unless_chained<TextureViewTag>(desc->nextInChain,
                                     [&] { return outcome(self.registry().create_texture_view(owner->handle(), d)); }),
      d.label);
}

WGPUSampler Entry<ProcId::DeviceCreateSampler>::call(WGPUDevice device, const WGPUSamplerDescriptor* desc) {
  Device* self = creating_device(device, ProcId::DeviceCreateSampler);
  if (self == nullptr) return nullptr;
  resources::SamplerDescription d;
  if (desc != nullptr) {
    const auto address = [](WGPUAddressMode mode) {
      return mode == WGPUAddressMode_Undefined ? WGPUAddressMode_ClampToEdge : mode;
    };
    d.address_mode_u = address(desc->addressModeU);
    d.address_mode_v = address(desc->addressModeV);
    d.address_mode_w = address(desc->addressModeW);
    d.mag_filter = desc->magFilter == WGPUFilterMode_Undefined ? WGPUFilterMode_Nearest : desc->magFilter;
    d.min_filter = desc->minFilter == WGPUFilterMode_Undefined ? WGPUFilterMode_Nearest : desc->minFilter;
    d.mipmap_filter = desc->mipmapFilter == WGPUMipmapFilterMode_Undefined ? WGPUMipmapFilterMode_Nearest : desc->mipmapFilter;
    d.lod_min_clamp = desc->lodMinClamp;
    d.lod_max_clamp = desc->lodMaxClamp;
    d.compare = desc->compare;
    d.max_anisotropy = desc->maxAnisotropy == 0 ? 1 : desc->maxAnisotropy;
    d.label = label_of(desc->label);
  }
  return hand_out<SamplerTag, WGPUSampler>(
      *self, Kind::Sampler, ProcId::DeviceCreateSampler,
      unless_chained<SamplerTag>(desc != nullptr ? desc->nextInChain : nullptr,
                                 [&] { return outcome(self->registry().create_sampler(d)); }),
      d.label);
}

WGPUShaderModule Entry<ProcId::DeviceCreateShaderModule>::call(WGPUDevice device, const WGPUShaderModuleDescriptor* desc) {
  Device* self = creating_device(device, ProcId::DeviceCreateShaderModule);
  if (self == nullptr) return nullptr;
  resources::ShaderModuleDescription d;
  std::string failure;
  const WGPUChainedStruct* chain = desc != nullptr ? desc->nextInChain : nullptr;
  for (; chain != nullptr; chain = chain->next) {
    if (chain->sType == WGPUSType_ShaderSourceWGSL) {
      d.wgsl = std::string(gpu::to_std(reinterpret_cast<const WGPUShaderSourceWGSL*>(chain)->code));
      break;
    }
  }
  if (chain == nullptr) {
    failure = "the descriptor chains no WGPUShaderSourceWGSL: warden's webgpu.h library keeps WGSL sources "
              "(SPIR-V is not served)";
  }
  if (desc != nullptr) d.label = label_of(desc->label);
  auto made = failure.empty() ? outcome(self->registry().create_shader_module(d)) : failed<ShaderModuleTag>(failure);
  return hand_out<ShaderModuleTag, WGPUShaderModule>(*self, Kind::ShaderModule, ProcId::DeviceCreateShaderModule,
                                                     std::move(made), d.label);
}

WGPUBindGroupLayout Entry<ProcId::DeviceCreateBindGroupLayout>::call(WGPUDevice device,
                                                                     const WGPUBindGroupLayoutDescriptor* desc) {
  Device* self = creating_device(device, ProcId::DeviceCreateBindGroupLayout);
  if (self == nullptr) return nullptr;
  WGPUBindGroupLayoutDescriptor none{};
  if (desc == nullptr) desc = &none;
  std::string label = label_of(desc->label);
  return hand_out<BindGroupLayoutTag, WGPUBindGroupLayout>(
      *self, Kind::BindGroupLayout, ProcId::DeviceCreateBindGroupLayout, unless_chained<BindGroupLayoutTag>(desc->nextInChain, [&] {
        return outcome(self->registry().create_bind_group_layout(std::span(desc->entries, desc->entryCount), label));
      }),
      label);
}

WGPUPipelineLayout Entry<ProcId::DeviceCreatePipelineLayout>::call(WGPUDevice device,
                                                                   const WGPUPipelineLayoutDescriptor* desc) {
  Device* self = creating_device(device, ProcId::DeviceCreatePipelineLayout);
  if (self == nullptr) return nullptr;
  WGPUPipelineLayoutDescriptor none{};
  if (desc == nullptr) desc = &none;
  std::string failure;
  std::vector<BindGroupLayoutHandle> layouts;
  for (size_t i = 0; i < desc->bindGroupLayoutCount; ++i) {
    const std::string what = fmt::format("bindGroupLayouts[{}]", i);
    layouts.push_back(handle_of<BindGroupLayoutTag>(desc->bindGroupLayouts[i], Kind::BindGroupLayout, what.c_str(), failure));
  }
  std::string label = label_of(desc->label);
  if (failure.empty()) failure = unkept_chain(desc->nextInChain, "the descriptor");
  auto made = failure.empty() ? outcome(self->registry().create_pipeline_layout(layouts, label)) : failed<PipelineLayoutTag>(failure);
  return hand_out<PipelineLayoutTag, WGPUPipelineLayout>(*self, Kind::PipelineLayout, ProcId::DeviceCreatePipelineLayout,
                                                         std::move(made), label);
}

WGPUBindGroup Entry<ProcId::DeviceCreateBindGroup>::call(WGPUDevice device, const WGPUBindGroupDescriptor* desc) {
  Device* self = creating_device(device, ProcId::DeviceCreateBindGroup);
  if (self == nullptr) return nullptr;
  WGPUBindGroupDescriptor none{};
  if (desc == nullptr) desc = &none;
  std::string failure;
  // A group of a pipeline's implicit layout is made by the library (entries_derived.cpp).
  if (Object* derived = make_derived_group(*self, *desc, &failure)) {
    std::string why;
    if (derived->dawn(&why) == nullptr && !why.empty()) {
      Call call{ProcId::DeviceCreateBindGroup, self, why};
      call.report();
    }
    return to_app<WGPUBindGroup>(derived);
  }
  if (!failure.empty()) {
    return hand_out<BindGroupTag, WGPUBindGroup>(*self, Kind::BindGroup, ProcId::DeviceCreateBindGroup,
                                                 failed<BindGroupTag>(failure), label_of(desc->label));
  }
  resources::BindGroupDescription d;
  d.label = label_of(desc->label);
  d.layout = handle_of<BindGroupLayoutTag>(desc->layout, Kind::BindGroupLayout, "layout", failure);
  for (size_t i = 0; i < desc->entryCount; ++i) {
    const WGPUBindGroupEntry& entry = desc->entries[i];
    resources::BindGroupEntryDescription e;
    e.binding = entry.binding;
    const std::string what = fmt::format("entries[{}] (binding {})", i, entry.binding);
    if (entry.buffer != nullptr) {
      e.resource = resources::BufferBinding{handle_of<BufferTag>(entry.buffer, Kind::Buffer, what.c_str(), failure),
                                            entry.offset, entry.size};
    } else if (entry.sampler != nullptr) {
      e.resource = handle_of<SamplerTag>(entry.sampler, Kind::Sampler, what.c_str(), failure);
    } else if (entry.textureView != nullptr) {
      e.resource = handle_of<TextureViewTag>(entry.textureView, Kind::TextureView, what.c_str(), failure);
    } else if (failure.empty()) {
      failure = fmt::format("{} binds no buffer, sampler or texture view", what);
    }
    if (entry.nextInChain != nullptr && failure.empty()) {
      auto chain = resources::ChainCopy::of(entry.nextInChain);
      if (chain) {
        e.chain = std::move(*chain);
      } else {
        failure = fmt::format("{}: {}", what, chain.error().message);
      }
    }
    d.entries.push_back(std::move(e));
  }
  if (failure.empty()) failure = unkept_chain(desc->nextInChain, "the descriptor");
  auto made = failure.empty() ? outcome(self->registry().create_bind_group(d)) : failed<BindGroupTag>(failure);
  return hand_out<BindGroupTag, WGPUBindGroup>(*self, Kind::BindGroup, ProcId::DeviceCreateBindGroup, std::move(made),
                                               d.label);
}

namespace {

// A render pipeline's description from its native descriptor; `failure` names what cannot be.
resources::RenderPipelineDescription render_pipeline_description(const WGPURenderPipelineDescriptor& desc,
                                                                  std::string& failure) {
  resources::RenderPipelineDescription d;
  d.label = label_of(desc.label);
  if (desc.layout != nullptr) d.layout = handle_of<PipelineLayoutTag>(desc.layout, Kind::PipelineLayout, "layout", failure);
  d.vertex = stage_of(desc.vertex.module, desc.vertex.entryPoint, desc.vertex.constantCount, desc.vertex.constants,
                      "vertex.module", failure);
  for (size_t i = 0; i < desc.vertex.bufferCount; ++i) {
    const WGPUVertexBufferLayout& b = desc.vertex.buffers[i];
    resources::VertexLayout layout;
    layout.stride = b.arrayStride;
    layout.step_mode = b.stepMode;
    for (size_t a = 0; a < b.attributeCount; ++a) {
      layout.attributes.push_back({b.attributes[a].format, b.attributes[a].offset, b.attributes[a].shaderLocation});
    }
    d.vertex_buffers.push_back(std::move(layout));
  }
  d.topology = desc.primitive.topology;
  d.strip_index_format = desc.primitive.stripIndexFormat;
  d.front_face = desc.primitive.frontFace;
  d.cull_mode = desc.primitive.cullMode;
  d.unclipped_depth = desc.primitive.unclippedDepth != 0;
  if (desc.depthStencil != nullptr) {
    const WGPUDepthStencilState& s = *desc.depthStencil;
    resources::DepthState depth;
    depth.format = s.format;
    depth.write = s.depthWriteEnabled == WGPUOptionalBool_True;
    depth.compare = s.depthCompare;
    depth.stencil_front = s.stencilFront;
    depth.stencil_back = s.stencilBack;
    depth.stencil_read_mask = s.stencilReadMask;
    depth.stencil_write_mask = s.stencilWriteMask;
    depth.depth_bias = s.depthBias;
    depth.depth_bias_slope_scale = s.depthBiasSlopeScale;
    depth.depth_bias_clamp = s.depthBiasClamp;
    d.depth = depth;
  }
  d.sample_count = desc.multisample.count == 0 ? 1 : desc.multisample.count;
  d.sample_mask = desc.multisample.mask;
  d.alpha_to_coverage = desc.multisample.alphaToCoverageEnabled != 0;
  if (desc.fragment != nullptr) {
    const WGPUFragmentState& f = *desc.fragment;
    d.fragment = stage_of(f.module, f.entryPoint, f.constantCount, f.constants, "fragment.module", failure);
    for (size_t i = 0; i < f.targetCount; ++i) {
      resources::ColorTarget target;
      target.format = f.targets[i].format;
      if (f.targets[i].blend != nullptr) target.blend = *f.targets[i].blend;
      target.write_mask = f.targets[i].writeMask;
      d.targets.push_back(target);
    }
  }
  return d;
}

resources::ComputePipelineDescription compute_pipeline_description(const WGPUComputePipelineDescriptor& desc,
                                                                    std::string& failure) {
  resources::ComputePipelineDescription d;
  d.label = label_of(desc.label);
  if (desc.layout != nullptr) d.layout = handle_of<PipelineLayoutTag>(desc.layout, Kind::PipelineLayout, "layout", failure);
  d.compute = stage_of(desc.compute.module, desc.compute.entryPoint, desc.compute.constantCount, desc.compute.constants,
                       "compute.module", failure);
  return d;
}

WGPURenderPipeline make_render_pipeline(Device& self, const WGPURenderPipelineDescriptor* desc, ProcId id) {
  std::string failure = desc == nullptr ? "the descriptor is null" : "";
  resources::RenderPipelineDescription d;
  if (desc != nullptr) d = render_pipeline_description(*desc, failure);
  if (failure.empty()) failure = unkept_chain(desc->nextInChain, "the descriptor");
  auto made = failure.empty() ? outcome(self.registry().create_render_pipeline(d)) : failed<RenderPipelineTag>(failure);
  return hand_out<RenderPipelineTag, WGPURenderPipeline>(self, Kind::RenderPipeline, id, std::move(made), d.label);
}

WGPUComputePipeline make_compute_pipeline(Device& self, const WGPUComputePipelineDescriptor* desc, ProcId id) {
  std::string failure = desc == nullptr ? "the descriptor is null" : "";
  resources::ComputePipelineDescription d;
  if (desc != nullptr) d = compute_pipeline_description(*desc, failure);
  if (failure.empty()) failure = unkept_chain(desc->nextInChain, "the descriptor");
  auto made = failure.empty() ? outcome(self.registry().create_compute_pipeline(d)) : failed<ComputePipelineTag>(failure);
  return hand_out<ComputePipelineTag, WGPUComputePipeline>(self, Kind::ComputePipeline, id, std::move(made), d.label);
}

// The future of an asynchronous pipeline creation: the pipeline is made in the call (the
// registry keeps its recipe), and the callback hands out warden's object.
template <typename Wgpu, typename Info>
WGPUFuture complete_pipeline(Device& self, Wgpu pipeline, Info info) {
  FutureTable& futures = self.instance().futures();
  const WGPUFuture future = futures.add(info.mode);
  std::string why;
  if (reinterpret_cast<Object*>(pipeline)->dawn(&why) == nullptr) {
    reinterpret_cast<Object*>(pipeline)->release();
    futures.complete(future, [info, why] {
      if (info.callback != nullptr) {
        info.callback(WGPUCreatePipelineAsyncStatus_ValidationError, nullptr, gpu::string_view(why), info.userdata1,
                      info.userdata2);
      }
    });
    return future;
  }
  futures.complete(future, [info, pipeline] {
    if (info.callback != nullptr) {
      info.callback(WGPUCreatePipelineAsyncStatus_Success, pipeline, WGPUStringView{nullptr, 0}, info.userdata1,
                    info.userdata2);
    } else {
      reinterpret_cast<Object*>(pipeline)->release();
    }
  });
  return future;
}

}  // namespace

WGPURenderPipeline Entry<ProcId::DeviceCreateRenderPipeline>::call(WGPUDevice device,
                                                                   const WGPURenderPipelineDescriptor* desc) {
  Device* self = creating_device(device, ProcId::DeviceCreateRenderPipeline);
  return self != nullptr ? make_render_pipeline(*self, desc, ProcId::DeviceCreateRenderPipeline) : nullptr;
}

WGPUComputePipeline Entry<ProcId::DeviceCreateComputePipeline>::call(WGPUDevice device,
                                                                     const WGPUComputePipelineDescriptor* desc) {
  Device* self = creating_device(device, ProcId::DeviceCreateComputePipeline);
  return self != nullptr ? make_compute_pipeline(*self, desc, ProcId::DeviceCreateComputePipeline) : nullptr;
}

WGPUFuture Entry<ProcId::DeviceCreateRenderPipelineAsync>::call(WGPUDevice device,
                                                                const WGPURenderPipelineDescriptor* desc,
                                                                WGPUCreateRenderPipelineAsyncCallbackInfo info) {
  Device* self = creating_device(device, ProcId::DeviceCreateRenderPipelineAsync);
  if (self == nullptr) return WGPUFuture{0};
  return complete_pipeline(*self, make_render_pipeline(*self, desc, ProcId::DeviceCreateRenderPipelineAsync), info);
}

WGPUFuture Entry<ProcId::DeviceCreateComputePipelineAsync>::call(WGPUDevice device,
                                                                 const WGPUComputePipelineDescriptor* desc,
                                                                 WGPUCreateComputePipelineAsyncCallbackInfo info) {
  Device* self = creating_device(device, ProcId::DeviceCreateComputePipelineAsync);
  if (self == nullptr) return WGPUFuture{0};
  return complete_pipeline(*self, make_compute_pipeline(*self, desc, ProcId::DeviceCreateComputePipelineAsync), info);
}

WGPUQuerySet Entry<ProcId::DeviceCreateQuerySet>::call(WGPUDevice device, const WGPUQuerySetDescriptor* desc) {
  Device* self = creating_device(device, ProcId::DeviceCreateQuerySet);
  if (self == nullptr) return nullptr;
  WGPUQuerySetDescriptor none{};
  if (desc == nullptr) desc = &none;
  resources::QuerySetDescription d;
  d.type = desc->type;
  d.count = desc->count;
  d.label = label_of(desc->label);
  return hand_out<QuerySetTag, WGPUQuerySet>(
      *self, Kind::QuerySet, ProcId::DeviceCreateQuerySet,
      unless_chained<QuerySetTag>(desc->nextInChain, [&] { return outcome(self->registry().create_query_set(d)); }), d.label);
}

WGPUFuture Entry<ProcId::ShaderModuleGetCompilationInfo>::call(WGPUShaderModule module,
                                                               WGPUCompilationInfoCallbackInfo info) {
  auto* self = checked<ShaderModule>(module, Kind::ShaderModule, ProcId::ShaderModuleGetCompilationInfo);
  if (self == nullptr) return WGPUFuture{0};
  FutureTable& futures = self->device()->instance().futures();
  const WGPUFuture future = futures.add(info.mode);
  auto dawn_module = static_cast<WGPUShaderModule>(self->dawn(nullptr));
  if (dawn_module == nullptr) {
    futures.complete(future, [info] {
      if (info.callback != nullptr) info.callback(WGPUCompilationInfoRequestStatus_CallbackCancelled, nullptr, info.userdata1, info.userdata2);
    });
    return future;
  }
  struct Relay {
    FutureTable* futures;
    WGPUFuture future;
    WGPUCompilationInfoCallbackInfo info;
  };
  WGPUCompilationInfoCallbackInfo dawn_info{};
  dawn_info.mode = dawn_mode(info.mode);
  dawn_info.userdata1 = new Relay{&futures, future, info};
  // The compilation info is Dawn's, valid only inside its callback: the application's callback
  // runs there when its mode allows, else it is told the request was cancelled.
  dawn_info.callback = [](WGPUCompilationInfoRequestStatus status, const WGPUCompilationInfo* compilation, void* userdata1,
                          void*) {
    auto* relay = static_cast<Relay*>(userdata1);
    const WGPUCompilationInfoCallbackInfo app = relay->info;
    relay->futures->complete(relay->future, {});
    if (app.callback != nullptr) app.callback(status, compilation, app.userdata1, app.userdata2);
    delete relay;
  };
  dawn_procs().ShaderModuleGetCompilationInfo(dawn_module, dawn_info);
  return future;
}

}  // namespace warden::webgpu_h
