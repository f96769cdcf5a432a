#include "warden/pipelines/build.h"

#include <fmt/format.h>

#include "warden/gpu/callback.h"
#include "warden/resources/pipeline_parts.h"

namespace warden::pipelines {
namespace {

template <typename... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <typename... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

// The module a stage names, from `source`; a failure says which pipeline and stage.
Result<WGPUShaderModule> stage_module(const ObjectSource& source, const resources::ShaderStage& stage,
                                       std::string_view pipeline_kind, std::string_view label,
                                       std::string_view stage_name) {
  auto module = source.module(stage.module);
  if (!module) {
    return make_error(module.error().kind, module.error().id,
                      fmt::format("{} pipeline \"{}\": {} stage module: {}", pipeline_kind,
                                                       label, stage_name, module.error().message));
  }
  return *module;
}

Result<WGPUPipelineLayout> translate_layout(const ObjectSource& source, PipelineLayoutHandle handle,
                                             std::string_view pipeline_kind, std::string_view label) {
  if (handle.is_null()) return WGPUPipelineLayout{nullptr};
  auto layout = source.layout(handle);
  if (!layout) {
    return make_error(layout.error().kind, layout.error().id,
                      fmt::format("{} pipeline \"{}\": layout: {}", pipeline_kind, label, layout.error().message));
  }
  return *layout;
}

// The object a build error is about: its kind ("render pipeline") and label.
ErrorObject built_object(std::string_view kind, std::string_view label) {
  return ErrorObject{std::string(kind), {}, {}, std::string(label)};
}

// "render pipeline 'label'": the start of every build error's message.
std::string named(const ErrorObject& built) { return fmt::format("{} \"{}\"", built.kind, *built.label); }

// Creates an object inside a validation scope; a scope error becomes a Validation error about
// `built` (the kind and label of the object).
template <typename Object, typename Create>
Result<gpu::Ref<Object>> create_in_scope(const gpu::Context& context, WGPUDevice device,
                                         const BuildOptions& options, const ErrorObject& built, Create&& create) {
  const std::string what = named(built);
  const gpu::Procs& procs = context.procs();
  gpu::push_validation_scope(procs, device);
  gpu::Ref<Object> object(&procs, create());
  gpu::PendingScope scope = gpu::pop_scope(procs, device, options.completion);
  if (auto settled = gpu::settle(context, scope.future, scope.outcome->done, options.timeout, options.completion);
      !settled) {
    return make_error(settled.error().kind, settled.error().id,
                      fmt::format("{}: error scope did not pop: {}", what, settled.error().message));
  }
  if (scope.outcome->has_error()) {
    return make_error(ErrorKind::Validation, MessageId::PipelineBuildRejected, built,
                      fmt::format("{}: {}", what, scope.outcome->message));
  }
  if (!object) {
    return make_error(ErrorKind::Internal, MessageId::PipelineBuildReturnedNull, built,
                      fmt::format("{}: the implementation returned null", what));
  }
  return object;
}

}  // namespace

// ---- translation ----------------------------------------------------------------------------
std::vector<WGPUBindGroupLayoutEntry> translate_layout_entries(std::span<const resources::LayoutEntry> entries) {
  std::vector<WGPUBindGroupLayoutEntry> out;
  out.reserve(entries.size());
  for (const resources::LayoutEntry& e : entries) {
    WGPUBindGroupLayoutEntry c{};
    c.binding = e.binding;
    c.visibility = e.visibility;
    std::visit(Overloaded{
                   [&](const resources::BufferLayout& b) {
                     c.buffer.type = b.type;
                     c.buffer.hasDynamicOffset = b.has_dynamic_offset ? 1 : 0;
                     c.buffer.minBindingSize = b.min_binding_size;
                   },
                   [&](const resources::SamplerLayout& s) { c.sampler.type = s.type; },
                   [&](const resources::TextureLayout& t) {
                     c.texture.sampleType = t.sample_type;
                     c.texture.viewDimension = t.view_dimension;
                     c.texture.multisampled = t.multisampled ? 1 : 0;
                   },
                   [&](const resources::StorageTextureLayout& s) {
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

Result<gpu::Ref<WGPUBindGroupLayout>> build_bind_group_layout(const gpu::Context& context, WGPUDevice device,
                                                               std::string_view label,
                                                               std::span<const resources::LayoutEntry> entries,
                                                               BuildOptions options) {
  std::vector<WGPUBindGroupLayoutEntry> c_entries = translate_layout_entries(entries);
  WGPUBindGroupLayoutDescriptor desc{};
  desc.label = gpu::string_view(label);
  desc.entryCount = c_entries.size();
  desc.entries = c_entries.data();
  return create_in_scope<WGPUBindGroupLayout>(context, device, options, built_object("bind group layout", label),
                                               [&] { return context.procs().DeviceCreateBindGroupLayout(device, &desc); });
}

namespace {

// One asynchronous build in flight: what its callback needs, owned by the callback, which the
// implementation calls exactly once (cancelled when the instance goes first).
template <typename Pipeline>
struct PendingBuild {
  const gpu::Procs* procs;
  ErrorObject built;  // the pipeline every error is about (built_object)
  BuiltCallback<Pipeline> done;

  // The build's one callback.
  void operator()(WGPUCreatePipelineAsyncStatus status, Pipeline pipeline, WGPUStringView message) {
    gpu::Ref<Pipeline> made(procs, pipeline);
    done(outcome(status, std::move(made), gpu::to_std(message)));
  }

  Result<gpu::Ref<Pipeline>> outcome(WGPUCreatePipelineAsyncStatus status, gpu::Ref<Pipeline> made,
                                     std::string_view message) const {
    const std::string what = named(built);
    switch (status) {
      case WGPUCreatePipelineAsyncStatus_Success:
        if (made) return made;
        return make_error(ErrorKind::Internal, MessageId::PipelineBuildReturnedNull, built,
                          fmt::format("{}: the implementation returned null", what));
      case WGPUCreatePipelineAsyncStatus_ValidationError:
        return make_error(ErrorKind::Validation, MessageId::PipelineBuildRejected, built,
                          fmt::format("{}: {}", what, message));
      case WGPUCreatePipelineAsyncStatus_CallbackCancelled:
        return make_error(ErrorKind::Refused, MessageId::PipelineBuildCancelled, built,
                          fmt::format("{}: cancelled, the instance went away: {}", what, message));
      case WGPUCreatePipelineAsyncStatus_InternalError:
      default:  // a status this header does not name reads as an internal error
        break;
    }
    return make_error(ErrorKind::Internal, MessageId::PipelineBuildInternalError, built,
                    fmt::format("{}: internal error (status {}): {}", what,
                                                       static_cast<uint32_t>(status), message));
  }
};

// The description's handles resolved through `source`, then its C form (pipeline_parts.h).
Result<std::unique_ptr<resources::RenderPipelineParts>> translate_render_pipeline(const ObjectSource& source,
                                                                       const resources::RenderPipelineDescription& d) {
  auto layout = translate_layout(source, d.layout, "render", d.label);
  if (!layout) return layout.error();
  auto vertex = stage_module(source, d.vertex, "render", d.label, "vertex");
  if (!vertex) return vertex.error();
  WGPUShaderModule fragment = nullptr;
  if (d.fragment) {
    auto translated = stage_module(source, *d.fragment, "render", d.label, "fragment");
    if (!translated) return translated.error();
    fragment = *translated;
  }
  return resources::render_pipeline_parts(d, *layout, *vertex, fragment);
}

Result<std::unique_ptr<resources::ComputePipelineParts>> translate_compute_pipeline(const ObjectSource& source,
                                                                         const resources::ComputePipelineDescription& d) {
  auto layout = translate_layout(source, d.layout, "compute", d.label);
  if (!layout) return layout.error();
  auto module = stage_module(source, d.compute, "compute", d.label, "compute");
  if (!module) return module.error();
  return resources::compute_pipeline_parts(d, *layout, *module);
}

}  // namespace

Result<gpu::Ref<WGPURenderPipeline>> build_render_pipeline(const gpu::Context& context, WGPUDevice device,
                                                            const ObjectSource& source,
                                                            const resources::RenderPipelineDescription& d,
                                                            BuildOptions options) {
  auto parts = translate_render_pipeline(source, d);
  if (!parts) return parts.error();
  const WGPURenderPipelineDescriptor& desc = (*parts)->desc;
  return create_in_scope<WGPURenderPipeline>(context, device, options, built_object("render pipeline", d.label),
                                              [&] { return context.procs().DeviceCreateRenderPipeline(device, &desc); });
}

Result<gpu::Ref<WGPUComputePipeline>> build_compute_pipeline(const gpu::Context& context, WGPUDevice device,
                                                              const ObjectSource& source,
                                                              const resources::ComputePipelineDescription& d,
                                                              BuildOptions options) {
  auto parts = translate_compute_pipeline(source, d);
  if (!parts) return parts.error();
  const WGPUComputePipelineDescriptor& desc = (*parts)->desc;
  return create_in_scope<WGPUComputePipeline>(context, device, options, built_object("compute pipeline", d.label),
                                               [&] { return context.procs().DeviceCreateComputePipeline(device, &desc); });
}

Result<void> build_render_pipeline_async(const gpu::Context& context, WGPUDevice device, const ObjectSource& source,
                                         const resources::RenderPipelineDescription& d, BuiltCallback<WGPURenderPipeline> done) {
  auto parts = translate_render_pipeline(source, d);
  if (!parts) return parts.error();
  const auto info = gpu::once_callback<WGPUCreateRenderPipelineAsyncCallbackInfo>(
      WGPUCallbackMode_AllowProcessEvents,
      PendingBuild<WGPURenderPipeline>{&context.procs(), built_object("render pipeline", d.label), std::move(done)});
  (void)context.procs().DeviceCreateRenderPipelineAsync(device, &(*parts)->desc, info);
  return {};
}

Result<void> build_compute_pipeline_async(const gpu::Context& context, WGPUDevice device, const ObjectSource& source,
                                          const resources::ComputePipelineDescription& d, BuiltCallback<WGPUComputePipeline> done) {
  auto parts = translate_compute_pipeline(source, d);
  if (!parts) return parts.error();
  const auto info = gpu::once_callback<WGPUCreateComputePipelineAsyncCallbackInfo>(
      WGPUCallbackMode_AllowProcessEvents,
      PendingBuild<WGPUComputePipeline>{&context.procs(), built_object("compute pipeline", d.label), std::move(done)});
  (void)context.procs().DeviceCreateComputePipelineAsync(device, &(*parts)->desc, info);
  return {};
}

}  // namespace warden::pipelines
