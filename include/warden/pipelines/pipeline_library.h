/// @file
/// PipelineLibrary: pipelines registered under handles with the descriptions they were built
/// from as their registry recipes, so they can be rebuilt (a changed description, hot reload of a
/// shader, a new device after a loss) and swapped under the same handle. Builds go to the
/// registry's current device.
#pragma once

#include <optional>
#include <unordered_set>
#include <vector>

#include "warden/pipelines/build.h"
#include "warden/pipelines/description.h"
#include "warden/resources/registry.h"

namespace warden::pipelines {

/// The Diagnostics category the library reports failed builds under.
inline constexpr std::string_view kDiagnosticsCategory = "gfx.pipelines";

/// Builds pipelines from descriptions and keeps them in the registry, where a device loss rebuilds
/// them from the same descriptions; hot reload swaps new builds in. Frame thread only.
class PipelineLibrary {
 public:
  /// Frame-thread object: it changes the registry, which is not thread-safe.
  PipelineLibrary(const gpu::Context& context, resources::Registry& registry);

  /// build_* then register under a new handle. A failed build registers nothing; its error
  /// (naming the label) is also reported to the registry's Diagnostics (gfx.pipelines).
  ///@{
  Result<RenderPipelineHandle> create_render_pipeline(resources::RenderPipelineDescription description);
  Result<ComputePipelineHandle> create_compute_pipeline(resources::ComputePipelineDescription description);

  ///@}
  /// Builds from `description` and swaps the result under `handle`. On failure the pipeline
  /// that was there stays, with its old description.
  ///@{
  Result<void> replace_render_pipeline(RenderPipelineHandle handle, resources::RenderPipelineDescription description);
  Result<void> replace_compute_pipeline(ComputePipelineHandle handle, resources::ComputePipelineDescription description);

  ///@}
  /// Swaps in a pipeline built elsewhere from this handle's current description (hot reload).
  ///@{
  Result<void> install(RenderPipelineHandle handle, gpu::Ref<WGPURenderPipeline> pipeline);
  Result<void> install(ComputePipelineHandle handle, gpu::Ref<WGPUComputePipeline> pipeline);

  ///@}
  /// Forgets the description and destroys the handle in the registry.
  ///@{
  Result<void> destroy(RenderPipelineHandle handle);
  Result<void> destroy(ComputePipelineHandle handle);

  ///@}
  /// A copy of the description a handle of this library was built from (the registry's recipe);
  /// nullopt for a handle it did not make or that is gone.
  ///@{
  std::optional<resources::RenderPipelineDescription> description(RenderPipelineHandle handle) const;
  std::optional<resources::ComputePipelineDescription> description(ComputePipelineHandle handle) const;

  ///@}
  /// The live pipelines whose description uses `module`.
  ///@{
  std::vector<RenderPipelineHandle> render_users_of(ShaderModuleHandle module) const;
  std::vector<ComputePipelineHandle> compute_users_of(ShaderModuleHandle module) const;

  ///@}
  /// The context builds go through.
  const gpu::Context& context() const { return *context_; }
  /// The registry's current device, which builds use.
  WGPUDevice device() const { return registry_->device(); }
  /// The registry the pipelines live in.
  resources::Registry& registry() { return *registry_; }

 private:
  template <typename Error>
  Error reported(Error error);
  const gpu::Context* context_;
  resources::Registry* registry_;
  // The handles this library made (their descriptions are the registry's recipes).
  std::unordered_set<RenderPipelineHandle> render_;
  std::unordered_set<ComputePipelineHandle> compute_;
};

}  // namespace warden::pipelines
