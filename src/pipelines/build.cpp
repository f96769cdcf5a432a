#include "warden/pipelines/build.h"

#include <fmt/format.h>

namespace warden::pipelines {
namespace {

template <typename... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <typename... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

// The C form of one stage; `constants` is where its ConstantEntry array lives.
struct StageParts {
  gpu::ShaderModule module = nullptr;
  std::vector<gpu::ConstantEntry> constants;
};

Result<StageParts> translate_stage(const ObjectSource& source, const ShaderStage& stage,
                                   std::string_view pipeline_kind, std::string_view label,
                                   std::string_view stage_name) {
  auto module = source.module(stage.module);
  if (!module) {
    return make_error(module.error().kind, fmt::format("{} pipeline '{}': {} stage module: {}", pipeline_kind,
                                                       label, stage_name, module.error().message));
  }
  StageParts parts;
  parts.module = *module;
  for (const Constant& c : stage.constants) {
    gpu::ConstantEntry entry;
    entry.key = gpu::StringView(c.key);
    entry.value = c.value;
    parts.constants.push_back(entry);
  }
  return parts;
}

Result<gpu::PipelineLayout> translate_layout(const ObjectSource& source, PipelineLayoutHandle handle,
                                             std::string_view pipeline_kind, std::string_view label) {
  if (handle.is_null()) return gpu::PipelineLayout{nullptr};
  auto layout = source.layout(handle);
  if (!layout) {
    return make_error(layout.error().kind,
                      fmt::format("{} pipeline '{}': layout: {}", pipeline_kind, label, layout.error().message));
  }
  return *layout;
}

// Creates an object inside a validation scope; a scope error becomes a Validation error whose
// message starts with `what` (the kind and label of the object).
template <typename Object, typename Create>
Result<gpu::Ref<Object>> create_in_scope(const gpu::Context& context, gpu::Device device,
                                         const BuildOptions& options, std::string_view what, Create&& create) {
  const gpu::Procs& procs = context.procs();
  shaders::push_validation_scope(procs, device);
  gpu::Ref<Object> object(&procs, create());
  shaders::PendingScope scope = shaders::pop_scope(procs, device, options.completion);
  if (auto settled = shaders::settle(context, scope.future, scope.outcome->done, options.timeout, options.completion);
      !settled) {
    return make_error(settled.error().kind, fmt::format("{}: error scope did not pop: {}", what, settled.error().message));
  }
  if (scope.outcome->has_error()) {
    return make_error(ErrorKind::Validation, fmt::format("{}: {}", what, scope.outcome->message));
  }
  if (!object) return make_error(ErrorKind::Internal, fmt::format("{}: the implementation returned null", what));
  return object;
}

}  // namespace

// ---- translation ----------------------------------------------------------------------------
std::vector<gpu::BindGroupLayoutEntry> translate_layout_entries(std::span<const LayoutEntry> entries) {
  std::vector<gpu::BindGroupLayoutEntry> out;
  out.reserve(entries.size());
  for (const LayoutEntry& e : entries) {
    gpu::BindGroupLayoutEntry c;
    c.binding = e.binding;
    c.visibility = e.visibility;
    std::visit(Overloaded{
                   [&](const BufferLayout& b) {
                     c.buffer.type = b.type;
                     c.buffer.hasDynamicOffset = b.has_dynamic_offset ? 1 : 0;
                     c.buffer.minBindingSize = b.min_binding_size;
                   },
                   [&](const SamplerLayout& s) { c.sampler.type = s.type; },
                   [&](const TextureLayout& t) {
                     c.texture.sampleType = t.sample_type;
                     c.texture.viewDimension = t.view_dimension;
                     c.texture.multisampled = t.multisampled ? 1 : 0;
                   },
                   [&](const StorageTextureLayout& s) {
                     c.storageTexture.access = s.access;
                     c.storageTexture.format = s.format;
                     c.storageTexture.viewDimension = s.view_dimension;
                   },
               },
               e.type);
    out.push_back(c);
  }
  return out;
}

Result<gpu::Ref<gpu::BindGroupLayout>> build_bind_group_layout(const gpu::Context& context, gpu::Device device,
                                                               std::string_view label,
                                                               std::span<const LayoutEntry> entries,
                                                               BuildOptions options) {
  std::vector<gpu::BindGroupLayoutEntry> c_entries = translate_layout_entries(entries);
  gpu::BindGroupLayoutDescriptor desc;
  desc.label = gpu::StringView(label);
  desc.entryCount = c_entries.size();
  desc.entries = c_entries.data();
  return create_in_scope<gpu::BindGroupLayout>(context, device, options, fmt::format("bind group layout '{}'", label),
                                               [&] { return context.procs().DeviceCreateBindGroupLayout(device, &desc); });
}

namespace {

// A pipeline descriptor and every array it points into: one allocation, so the pointers stay
// put while the create call (or the asynchronous request) reads them.
struct RenderPipelineParts {
  StageParts vertex, fragment_parts;
  std::vector<std::vector<gpu::VertexAttribute>> attributes;
  std::vector<gpu::VertexBufferLayout> buffers;
  gpu::DepthStencilState depth;
  std::vector<gpu::BlendState> blends;
  std::vector<gpu::ColorTargetState> targets;
  gpu::FragmentState fragment;
  gpu::RenderPipelineDescriptor desc;
};
struct ComputePipelineParts {
  StageParts stage;
  gpu::ComputePipelineDescriptor desc;
};

// One asynchronous build in flight: what its callback needs, owned by the callback, which the
// implementation calls exactly once (cancelled when the instance goes first).
template <typename Pipeline>
struct PendingBuild {
  const gpu::Procs* procs;
  std::string what;  // "render pipeline 'label'": the start of every error message
  BuiltCallback<Pipeline> done;

  static void deliver(gpu::CreatePipelineAsyncStatus status, Pipeline pipeline, gpu::StringView message, void* self,
                      void*) {
    std::unique_ptr<PendingBuild> build(static_cast<PendingBuild*>(self));
    gpu::Ref<Pipeline> made(build->procs, pipeline);
    build->done(build->outcome(status, std::move(made), message.view()));
  }

  Result<gpu::Ref<Pipeline>> outcome(gpu::CreatePipelineAsyncStatus status, gpu::Ref<Pipeline> made,
                                     std::string_view message) const {
    switch (status) {
      case gpu::CreatePipelineAsyncStatus::Success:
        if (made) return made;
        return make_error(ErrorKind::Internal, fmt::format("{}: the implementation returned null", what));
      case gpu::CreatePipelineAsyncStatus::ValidationError:
        return make_error(ErrorKind::Validation, fmt::format("{}: {}", what, message));
      case gpu::CreatePipelineAsyncStatus::CallbackCancelled:
        return make_error(ErrorKind::Refused, fmt::format("{}: cancelled, the instance went away: {}", what, message));
      case gpu::CreatePipelineAsyncStatus::InternalError:
        break;
    }
    return make_error(ErrorKind::Internal, fmt::format("{}: internal error (status {}): {}", what,
                                                       static_cast<uint32_t>(status), message));
  }
};

Result<std::unique_ptr<RenderPipelineParts>> translate_render_pipeline(const ObjectSource& source,
                                                                       const RenderPipelineDescription& d) {
  const std::string_view label = d.label;
  auto layout = translate_layout(source, d.layout, "render", label);
  if (!layout) return layout.error();
  auto vertex = translate_stage(source, d.vertex, "render", label, "vertex");
  if (!vertex) return vertex.error();

  auto parts = std::make_unique<RenderPipelineParts>();
  RenderPipelineParts& c = *parts;
  c.vertex = std::move(vertex.value());
  c.attributes.resize(d.vertex_buffers.size());
  for (size_t i = 0; i < d.vertex_buffers.size(); ++i) {
    const VertexLayout& v = d.vertex_buffers[i];
    for (const VertexAttribute& a : v.attributes) {
      gpu::VertexAttribute attribute;
      attribute.format = a.format;
      attribute.offset = a.offset;
      attribute.shaderLocation = a.location;
      c.attributes[i].push_back(attribute);
    }
    gpu::VertexBufferLayout buffer;
    buffer.stepMode = v.step_mode;
    buffer.arrayStride = v.stride;
    buffer.attributeCount = c.attributes[i].size();
    buffer.attributes = c.attributes[i].data();
    c.buffers.push_back(buffer);
  }

  gpu::RenderPipelineDescriptor& desc = c.desc;
  desc.label = gpu::StringView(label);
  desc.layout = *layout;
  desc.vertex.module = c.vertex.module;
  desc.vertex.entryPoint = gpu::StringView(d.vertex.entry_point);
  desc.vertex.constantCount = c.vertex.constants.size();
  desc.vertex.constants = c.vertex.constants.data();
  desc.vertex.bufferCount = c.buffers.size();
  desc.vertex.buffers = c.buffers.data();
  desc.primitive.topology = d.topology;
  desc.primitive.frontFace = d.front_face;
  desc.primitive.cullMode = d.cull_mode;
  desc.multisample.count = d.sample_count;

  if (d.depth) {
    c.depth.format = d.depth->format;
    c.depth.depthWriteEnabled = d.depth->write ? gpu::OptionalBool::True : gpu::OptionalBool::False;
    c.depth.depthCompare = d.depth->compare;
    desc.depthStencil = &c.depth;
  }

  c.blends.resize(d.targets.size());
  for (size_t i = 0; i < d.targets.size(); ++i) {
    gpu::ColorTargetState target;
    target.format = d.targets[i].format;
    target.writeMask = d.targets[i].write_mask;
    if (d.targets[i].blend) {
      c.blends[i] = *d.targets[i].blend;
      target.blend = &c.blends[i];
    }
    c.targets.push_back(target);
  }
  if (d.fragment) {
    auto translated = translate_stage(source, *d.fragment, "render", label, "fragment");
    if (!translated) return translated.error();
    c.fragment_parts = std::move(translated.value());
    c.fragment.module = c.fragment_parts.module;
    c.fragment.entryPoint = gpu::StringView(d.fragment->entry_point);
    c.fragment.constantCount = c.fragment_parts.constants.size();
    c.fragment.constants = c.fragment_parts.constants.data();
    c.fragment.targetCount = c.targets.size();
    c.fragment.targets = c.targets.data();
    desc.fragment = &c.fragment;
  }
  return parts;
}

Result<std::unique_ptr<ComputePipelineParts>> translate_compute_pipeline(const ObjectSource& source,
                                                                         const ComputePipelineDescription& d) {
  const std::string_view label = d.label;
  auto layout = translate_layout(source, d.layout, "compute", label);
  if (!layout) return layout.error();
  auto stage = translate_stage(source, d.compute, "compute", label, "compute");
  if (!stage) return stage.error();
  auto parts = std::make_unique<ComputePipelineParts>();
  parts->stage = std::move(stage.value());
  gpu::ComputePipelineDescriptor& desc = parts->desc;
  desc.label = gpu::StringView(label);
  desc.layout = *layout;
  desc.compute.module = parts->stage.module;
  desc.compute.entryPoint = gpu::StringView(d.compute.entry_point);
  desc.compute.constantCount = parts->stage.constants.size();
  desc.compute.constants = parts->stage.constants.data();
  return parts;
}

}  // namespace

Result<gpu::Ref<gpu::RenderPipeline>> build_render_pipeline(const gpu::Context& context, gpu::Device device,
                                                            const ObjectSource& source,
                                                            const RenderPipelineDescription& d,
                                                            BuildOptions options) {
  auto parts = translate_render_pipeline(source, d);
  if (!parts) return parts.error();
  const gpu::RenderPipelineDescriptor& desc = (*parts)->desc;
  return create_in_scope<gpu::RenderPipeline>(context, device, options, fmt::format("render pipeline '{}'", d.label),
                                              [&] { return context.procs().DeviceCreateRenderPipeline(device, &desc); });
}

Result<gpu::Ref<gpu::ComputePipeline>> build_compute_pipeline(const gpu::Context& context, gpu::Device device,
                                                              const ObjectSource& source,
                                                              const ComputePipelineDescription& d,
                                                              BuildOptions options) {
  auto parts = translate_compute_pipeline(source, d);
  if (!parts) return parts.error();
  const gpu::ComputePipelineDescriptor& desc = (*parts)->desc;
  return create_in_scope<gpu::ComputePipeline>(context, device, options, fmt::format("compute pipeline '{}'", d.label),
                                               [&] { return context.procs().DeviceCreateComputePipeline(device, &desc); });
}

Result<void> build_render_pipeline_async(const gpu::Context& context, gpu::Device device, const ObjectSource& source,
                                         const RenderPipelineDescription& d, BuiltCallback<gpu::RenderPipeline> done) {
  auto parts = translate_render_pipeline(source, d);
  if (!parts) return parts.error();
  auto* pending = new PendingBuild<gpu::RenderPipeline>{&context.procs(), fmt::format("render pipeline '{}'", d.label),
                                                        std::move(done)};
  gpu::CreateRenderPipelineAsyncCallbackInfo info;
  info.mode = gpu::CallbackMode::AllowProcessEvents;
  info.userdata1 = pending;
  info.callback = &PendingBuild<gpu::RenderPipeline>::deliver;
  (void)context.procs().DeviceCreateRenderPipelineAsync(device, &(*parts)->desc, info);
  return {};
}

Result<void> build_compute_pipeline_async(const gpu::Context& context, gpu::Device device, const ObjectSource& source,
                                          const ComputePipelineDescription& d, BuiltCallback<gpu::ComputePipeline> done) {
  auto parts = translate_compute_pipeline(source, d);
  if (!parts) return parts.error();
  auto* pending = new PendingBuild<gpu::ComputePipeline>{&context.procs(), fmt::format("compute pipeline '{}'", d.label),
                                                         std::move(done)};
  gpu::CreateComputePipelineAsyncCallbackInfo info;
  info.mode = gpu::CallbackMode::AllowProcessEvents;
  info.userdata1 = pending;
  info.callback = &PendingBuild<gpu::ComputePipeline>::deliver;
  (void)context.procs().DeviceCreateComputePipelineAsync(device, &(*parts)->desc, info);
  return {};
}

}  // namespace warden::pipelines
