/// @file
/// What the pipelines layer asks of a pipeline description. The descriptions themselves are
/// resources::RenderPipelineDescription and friends (resources/descriptions.h): the Registry takes
/// and replays them, and pipelines/ speaks the same vocabulary under the same names.
#pragma once

#include "warden/resources/descriptions.h"

namespace warden::pipelines {

/// The shader modules a description uses (hot reload rebuilds the pipelines that use a module).
///@{
bool uses_module(const resources::RenderPipelineDescription& description, ShaderModuleHandle module);
bool uses_module(const resources::ComputePipelineDescription& description, ShaderModuleHandle module);

///@}
}  // namespace warden::pipelines
