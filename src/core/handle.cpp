#include "warden/core/handle.h"

namespace warden {

const char* to_string(ResourceKind kind) {
  switch (kind) {
    case ResourceKind::None: return "none";
    case ResourceKind::Buffer: return "buffer";
    case ResourceKind::Texture: return "texture";
    case ResourceKind::TextureView: return "texture view";
    case ResourceKind::Sampler: return "sampler";
    case ResourceKind::ShaderModule: return "shader module";
    case ResourceKind::BindGroupLayout: return "bind group layout";
    case ResourceKind::PipelineLayout: return "pipeline layout";
    case ResourceKind::BindGroup: return "bind group";
    case ResourceKind::RenderPipeline: return "render pipeline";
    case ResourceKind::ComputePipeline: return "compute pipeline";
    case ResourceKind::QuerySet: return "query set";
  }
  return "unknown";
}

}  // namespace warden
