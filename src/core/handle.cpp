#include "warden/core/handle.h"
#include "warden/core/enum_names.h"

namespace warden {

constexpr EnumName<ResourceKind> kResourceKindNames[] = {
    {ResourceKind::None, "none"},
    {ResourceKind::Buffer, "buffer"},
    {ResourceKind::Texture, "texture"},
    {ResourceKind::TextureView, "texture view"},
    {ResourceKind::Sampler, "sampler"},
    {ResourceKind::ShaderModule, "shader module"},
    {ResourceKind::BindGroupLayout, "bind group layout"},
    {ResourceKind::PipelineLayout, "pipeline layout"},
    {ResourceKind::BindGroup, "bind group"},
    {ResourceKind::RenderPipeline, "render pipeline"},
    {ResourceKind::ComputePipeline, "compute pipeline"},
    {ResourceKind::QuerySet, "query set"},
    {ResourceKind::RenderBundle, "render bundle"},
};
const char* to_string(ResourceKind kind) { return name_in(kResourceKindNames, kind); }

}  // namespace warden
