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

Result<gpu::Ref<gpu::RenderPipeline>> build_render_pipeline(const gpu::Context& context, gpu::Device device,
                                                            const ObjectSource& source,
                                                            const RenderPipelineDescription& d,
                                                            BuildOptions options) {
  const std::string_view label = d.label;
  auto layout = translate_layout(source, d.layout, "render", label);
  if (!layout) return layout.error();
  auto vertex = translate_stage(source, d.vertex, "render", label, "vertex");
  if (!vertex) return vertex.error();

  // Every array below outlives the create call: the descriptor points into them.
  std::vector<std::vector<gpu::VertexAttribute>> attributes(d.vertex_buffers.size());
  std::vector<gpu::VertexBufferLayout> buffers;
  for (size_t i = 0; i < d.vertex_buffers.size(); ++i) {
    const VertexLayout& v = d.vertex_buffers[i];
    for (const VertexAttribute& a : v.attributes) {
      gpu::VertexAttribute c;
      c.format = a.format;
      c.offset = a.offset;
      c.shaderLocation = a.location;
      attributes[i].push_back(c);
    }
    gpu::VertexBufferLayout c;
    c.stepMode = v.step_mode;
    c.arrayStride = v.stride;
    c.attributeCount = attributes[i].size();
    c.attributes = attributes[i].data();
    buffers.push_back(c);
  }

  gpu::RenderPipelineDescriptor desc;
  desc.label = gpu::StringView(label);
  desc.layout = *layout;
  desc.vertex.module = vertex->module;
  desc.vertex.entryPoint = gpu::StringView(d.vertex.entry_point);
  desc.vertex.constantCount = vertex->constants.size();
  desc.vertex.constants = vertex->constants.data();
  desc.vertex.bufferCount = buffers.size();
  desc.vertex.buffers = buffers.data();
  desc.primitive.topology = d.topology;
  desc.primitive.frontFace = d.front_face;
  desc.primitive.cullMode = d.cull_mode;
  desc.multisample.count = d.sample_count;

  gpu::DepthStencilState depth;
  if (d.depth) {
    depth.format = d.depth->format;
    depth.depthWriteEnabled = d.depth->write ? gpu::OptionalBool::True : gpu::OptionalBool::False;
    depth.depthCompare = d.depth->compare;
    desc.depthStencil = &depth;
  }

  std::vector<gpu::BlendState> blends(d.targets.size());
  std::vector<gpu::ColorTargetState> targets;
  for (size_t i = 0; i < d.targets.size(); ++i) {
    gpu::ColorTargetState c;
    c.format = d.targets[i].format;
    c.writeMask = d.targets[i].write_mask;
    if (d.targets[i].blend) {
      blends[i] = *d.targets[i].blend;
      c.blend = &blends[i];
    }
    targets.push_back(c);
  }
  gpu::FragmentState fragment;
  StageParts fragment_parts;
  if (d.fragment) {
    auto translated = translate_stage(source, *d.fragment, "render", label, "fragment");
    if (!translated) return translated.error();
    fragment_parts = std::move(translated.value());
    fragment.module = fragment_parts.module;
    fragment.entryPoint = gpu::StringView(d.fragment->entry_point);
    fragment.constantCount = fragment_parts.constants.size();
    fragment.constants = fragment_parts.constants.data();
    fragment.targetCount = targets.size();
    fragment.targets = targets.data();
    desc.fragment = &fragment;
  }
  return create_in_scope<gpu::RenderPipeline>(context, device, options, fmt::format("render pipeline '{}'", label),
                                              [&] { return context.procs().DeviceCreateRenderPipeline(device, &desc); });
}

Result<gpu::Ref<gpu::ComputePipeline>> build_compute_pipeline(const gpu::Context& context, gpu::Device device,
                                                              const ObjectSource& source,
                                                              const ComputePipelineDescription& d,
                                                              BuildOptions options) {
  const std::string_view label = d.label;
  auto layout = translate_layout(source, d.layout, "compute", label);
  if (!layout) return layout.error();
  auto stage = translate_stage(source, d.compute, "compute", label, "compute");
  if (!stage) return stage.error();
  gpu::ComputePipelineDescriptor desc;
  desc.label = gpu::StringView(label);
  desc.layout = *layout;
  desc.compute.module = stage->module;
  desc.compute.entryPoint = gpu::StringView(d.compute.entry_point);
  desc.compute.constantCount = stage->constants.size();
  desc.compute.constants = stage->constants.data();
  return create_in_scope<gpu::ComputePipeline>(context, device, options, fmt::format("compute pipeline '{}'", label),
                                               [&] { return context.procs().DeviceCreateComputePipeline(device, &desc); });
}

}  // namespace warden::pipelines
