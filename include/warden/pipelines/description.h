// The pipelines layer's names for warden's descriptions. They are defined once, in
// resources/descriptions.h, because the Registry takes and replays them (one vocabulary).
#pragma once

#include "warden/resources/descriptions.h"

namespace warden::pipelines {

using warden::BufferLayout;
using warden::SamplerLayout;
using warden::TextureLayout;
using warden::StorageTextureLayout;
using warden::BindingType;
using warden::LayoutEntry;
using warden::Constant;
using warden::ShaderStage;
using warden::VertexAttribute;
using warden::VertexLayout;
using warden::ColorTarget;
using warden::DepthState;
using warden::RenderPipelineDescription;
using warden::ComputePipelineDescription;

// The shader modules a description uses (hot reload rebuilds the pipelines that use a module).
bool uses_module(const RenderPipelineDescription& description, ShaderModuleHandle module);
bool uses_module(const ComputePipelineDescription& description, ShaderModuleHandle module);

}  // namespace warden::pipelines
