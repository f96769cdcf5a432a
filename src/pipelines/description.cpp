#include "warden/pipelines/description.h"

namespace warden::pipelines {

bool uses_module(const resources::RenderPipelineDescription& description, ShaderModuleHandle module) {
  return description.vertex.module == module ||
         (description.fragment.has_value() && description.fragment->module == module);
}

bool uses_module(const resources::ComputePipelineDescription& description, ShaderModuleHandle module) {
  return description.compute.module == module;
}

}  // namespace warden::pipelines
