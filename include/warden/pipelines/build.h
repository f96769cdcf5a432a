/// @file
/// Translation of warden's descriptions into the C descriptors, and creation of the objects.
///
/// build_* translates and creates, and returns the object without registering it; the Registry
/// (or PipelineLibrary) registers it. Keeping the two apart is what lets hot reload build a
/// replacement and swap it under the same handle. Every pointee of a C descriptor lives in a
/// local of build_* until the create call returned.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "warden/core/result.h"
#include "warden/pipelines/description.h"
#include "warden/resources/registry.h"
#include "warden/gpu/error_scope.h"
#include "warden/gpu/context.h"

namespace warden::pipelines {

/// Where build_* finds the objects a description names by handle.
class ObjectSource {
 public:
  virtual ~ObjectSource() = default;
  /// The module `handle` names, or an error (a stale handle, a lost device) naming it.
  virtual Result<WGPUShaderModule> module(ShaderModuleHandle handle) const = 0;
  /// The pipeline layout `handle` names, or an error naming it.
  virtual Result<WGPUPipelineLayout> layout(PipelineLayoutHandle handle) const = 0;
};

/// The registry's live objects. Frame thread only (the registry is not thread-safe).
class RegistrySource final : public ObjectSource {
 public:
  /// Reads `registry`, which must outlive the source.
  explicit RegistrySource(const resources::Registry& registry) : registry_(&registry) {}
  Result<WGPUShaderModule> module(ShaderModuleHandle handle) const override { return registry_->resolve(handle); }
  Result<WGPUPipelineLayout> layout(PipelineLayoutHandle handle) const override { return registry_->resolve(handle); }

 private:
  const resources::Registry* registry_;
};

/// Another source, except that `module` answers for `handle`: hot reload builds the pipelines of
/// a recompiled module with it before anything is swapped in.
class SubstituteSource final : public ObjectSource {
 public:
  /// `base` answers for everything but `handle`, which `module` replaces; both must outlive the
  /// source.
  SubstituteSource(const ObjectSource& base, ShaderModuleHandle handle, WGPUShaderModule module)
      : base_(&base), handle_(handle), module_(module) {}
  /// `module` for the substituted handle, `base`'s answer for the rest.
  Result<WGPUShaderModule> module(ShaderModuleHandle handle) const override {
    return handle == handle_ ? Result<WGPUShaderModule>(module_) : base_->module(handle);
  }
  /// `base`'s answer.
  Result<WGPUPipelineLayout> layout(PipelineLayoutHandle handle) const override { return base_->layout(handle); }

 private:
  const ObjectSource* base_;
  ShaderModuleHandle handle_;
  WGPUShaderModule module_;
};

/// The C entries for a bind group layout (for Registry::create_bind_group_layout).
std::vector<WGPUBindGroupLayoutEntry> translate_layout_entries(std::span<const resources::LayoutEntry> entries);

/// How a blocking build waits for its result.
struct BuildOptions {
  /// How the wait runs: ProcessEvents on the thread that drives the instance, or WorkerWait from
  /// another thread (the device must then have WGPUFeatureName_ImplicitDeviceSynchronization).
  gpu::Completion completion = gpu::Completion::ProcessEvents;
  /// Bound on that wait; past it the build is a Timeout error.
  std::chrono::milliseconds timeout{10000};
};

/// Validation errors from the implementation are caught with an error scope and returned as a
/// Validation error naming the pipeline's label, with the implementation's message whole.
/// A handle the source cannot resolve is a StaleHandle error naming the label and the stage.
///@{
Result<gpu::Ref<WGPURenderPipeline>> build_render_pipeline(const gpu::Context& context, WGPUDevice device,
                                                            const ObjectSource& source,
                                                            const resources::RenderPipelineDescription& description,
                                                            BuildOptions options = {});
Result<gpu::Ref<WGPUComputePipeline>> build_compute_pipeline(const gpu::Context& context, WGPUDevice device,
                                                              const ObjectSource& source,
                                                              const resources::ComputePipelineDescription& description,
                                                              BuildOptions options = {});
///@}
/// The same builds through CreateRenderPipelineAsync / CreateComputePipelineAsync: the
/// implementation may build on its own threads. A description that does not translate (a handle
/// the source cannot resolve) is returned at once and `done` is never called; otherwise `done`
/// is called exactly once, from ProcessEvents on the thread that drives the instance (callback
/// mode AllowProcessEvents), with the pipeline or a Validation error naming the label (Refused
/// when the instance went away first). The source's objects need only live through the call.
template <typename Pipeline>
using BuiltCallback = std::function<void(Result<gpu::Ref<Pipeline>>)>;
/// Starts an asynchronous render pipeline build (see BuiltCallback for when and how `done` is
/// called).
Result<void> build_render_pipeline_async(const gpu::Context& context, WGPUDevice device, const ObjectSource& source,
                                         const resources::RenderPipelineDescription& description,
                                         BuiltCallback<WGPURenderPipeline> done);
/// Starts an asynchronous compute pipeline build (see BuiltCallback for when and how `done` is
/// called).
Result<void> build_compute_pipeline_async(const gpu::Context& context, WGPUDevice device, const ObjectSource& source,
                                          const resources::ComputePipelineDescription& description,
                                          BuiltCallback<WGPUComputePipeline> done);

/// Builds a bind group layout from warden's entries outside the registry; a rejection is a
/// Validation error naming `label` with the implementation's message.
Result<gpu::Ref<WGPUBindGroupLayout>> build_bind_group_layout(const gpu::Context& context, WGPUDevice device,
                                                               std::string_view label,
                                                               std::span<const resources::LayoutEntry> entries,
                                                               BuildOptions options = {});

}  // namespace warden::pipelines
