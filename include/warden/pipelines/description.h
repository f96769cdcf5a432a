// The pipelines layer's names for warden's descriptions. They are defined once, in
// resources/descriptions.h, because the Registry takes and replays them (one vocabulary).
#pragma once

#include "warden/resources/descriptions.h"

namespace warden::pipelines {

using warden::resources::BufferLayout;
using warden::resources::SamplerLayout;
using warden::resources::TextureLayout;
using warden::resources::StorageTextureLayout;
using warden::resources::BindingType;
using warden::resources::LayoutEntry;
using warden::resources::Constant;
using warden::resources::ShaderStage;
using warden::resources::VertexAttribute;
using warden::resources::VertexLayout;
using warden::resources::ColorTarget;
using warden::resources::DepthState;
using warden::resources::RenderPipelineDescription;
using warden::resources::ComputePipelineDescription;

// The shader modules a description uses (hot reload rebuilds the pipelines that use a module).
bool uses_module(const resources::RenderPipelineDescription& description, ShaderModuleHandle module);
bool uses_module(const resources::ComputePipelineDescription& description, ShaderModuleHandle module);

}  // namespace warden::pipelines
