// An application's use of warden's descriptions and options: each initialized by a few
// designators, the rest left to their defaults, as the README and the examples write them.
// tests/headers/compile_with_warnings.sh compiles it with -Wall -Wextra -Wpedantic -Werror,
// where GCC's -Wmissing-field-initializers names every omitted field that has no default
// member initializer (and clang's does for the positional forms at the end).
#include <cstdint>
#include <string_view>

#include "warden/debugdraw/debug_drawer.h"
#include "warden/device/controller.h"
#include "warden/device/dawn_provider.h"
#include "warden/device/device_end_policy.h"
#include "warden/device/rebuild_policy.h"
#include "warden/engine/engine.h"
#include "warden/engine/tile_layer.h"
#include "warden/gpu/context.h"
#include "warden/gpu/library.h"
#include "warden/pipelines/build.h"
#include "warden/present/render_target.h"
#include "warden/present/swapchain.h"
#include "warden/present/window.h"
#include "warden/resources/descriptions.h"
#include "warden/resources/registry.h"
#include "warden/shaders/shader_compiler.h"
#include "warden/tiles/tile_gpu.h"
#include "warden/tiles/upload_ring.h"

namespace {
using namespace warden;

// The descriptions a Registry creates from.
resources::BufferDescription vertex_buffer() {
  return {.size = 48, .usage = WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, .label = "vertices"};
}
resources::TextureDescription render_texture() {
  return {.size = {.width = 64, .height = 64, .depthOrArrayLayers = 1}, .usage = WGPUTextureUsage_RenderAttachment};
}
resources::TextureViewDescription layer_view() {
  return {.dimension = WGPUTextureViewDimension_2D, .base_array_layer = 2, .array_layer_count = 1};
}
resources::SamplerDescription linear_sampler() {
  return {.mag_filter = WGPUFilterMode_Linear, .min_filter = WGPUFilterMode_Linear};
}
resources::SamplerDescription shadow_sampler() {
  return {.address_mode_u = WGPUAddressMode_Repeat, .compare = WGPUCompareFunction_LessEqual};
}
resources::ShaderModuleDescription shader_module() { return {.wgsl = "@compute @workgroup_size(1) fn main() {}"}; }
resources::BindGroupLayoutDescription bind_group_layout() {
  // A webgpu.h struct, not a description: zeroed, then its fields written.
  WGPUBindGroupLayoutEntry uniforms{};
  uniforms.binding = 0;
  uniforms.visibility = WGPUShaderStage_Fragment;
  uniforms.buffer.type = WGPUBufferBindingType_Uniform;
  return {.entries = {uniforms}, .label = "uniforms"};
}
resources::PipelineLayoutDescription pipeline_layout(BindGroupLayoutHandle layout) { return {.layouts = {layout}}; }
resources::BindGroupDescription bind_group(BindGroupLayoutHandle layout, BufferHandle uniforms) {
  return {.layout = layout, .entries = {{.binding = 0, .resource = resources::BufferBinding{.buffer = uniforms}}}};
}
resources::QuerySetDescription query_set() { return {.count = 2}; }
resources::RenderBundleDescription render_bundle() {
  return {.label = "grid",
          .color_formats = {WGPUTextureFormat_RGBA8Unorm},
          .record = [](resources::RenderBundleRecording&) -> Result<void> { return {}; }};
}
resources::TextureWrite texture_write() { return {.size = {.width = 4, .height = 4, .depthOrArrayLayers = 1}, .bytes_per_row = 16}; }
resources::RenderPipelineDescription render_pipeline(ShaderModuleHandle module) {
  return {
      .label = "triangle",
      .vertex = {.module = module, .entry_point = "vs"},
      .vertex_buffers = {{.stride = 8, .attributes = {{.format = WGPUVertexFormat_Float32x2}}}},
      .depth = resources::DepthState{.write = false},
      .fragment = resources::ShaderStage{.module = module, .entry_point = "fs"},
      .targets = {{.blend = WGPUBlendState{.color = {.operation = WGPUBlendOperation_Add,
                                                     .srcFactor = WGPUBlendFactor_SrcAlpha,
                                                     .dstFactor = WGPUBlendFactor_OneMinusSrcAlpha},
                                           .alpha = {.operation = WGPUBlendOperation_Add,
                                                     .srcFactor = WGPUBlendFactor_One,
                                                     .dstFactor = WGPUBlendFactor_Zero}}}},
  };
}
resources::ComputePipelineDescription compute_pipeline(ShaderModuleHandle module) {
  return {.compute = {.module = module, .entry_point = "main", .constants = {{.key = "size", .value = 8}}}};
}
resources::LayoutEntry layout_entry() {
  return {.visibility = WGPUShaderStage_Compute, .type = resources::StorageTextureLayout{.format = WGPUTextureFormat_RGBA8Unorm}};
}
resources::RegistryOptions registry_options() { return {.generation_limit = 16}; }

// The options of the engine and of the layers below it.
engine::EngineOptions engine_options() { return {.device = {.label = "app"}, .hot_reload = false}; }
engine::EngineCallbacks engine_callbacks() {
  return {.on_failed = [](const device::GiveUp&) {}};
}
engine::TileLayerOptions tile_layer_options() { return {.tile_size = 128, .label = "map"}; }
gpu::DeviceOptions device_options() {
  return {.callbacks = {.on_lost = [](WGPUDeviceLostReason, std::string_view) {}},
          .backend = gpu::BackendChoice::Auto};
}
gpu::DeviceOptions large_texture_device() { return {.required_limits = {.max_texture_array_layers = 2048}}; }
gpu::LibraryOptions library_options() { return {.path = "libwebgpu_dawn.so"}; }
device::DawnProviderOptions provider_options() { return {.device = {.label = "provided"}}; }
device::RebuildPolicyOptions rebuild_options() { return {.faults_to_give_up = 5}; }
device::DeviceEndOptions device_end_options() { return {.gate_override = true}; }
device::ControllerOptions controller_options() { return {.device_label = "controlled"}; }
device::ControllerHooks controller_hooks() {
  return {.on_state = [](device::DeviceState, const device::StateReason&) {}};
}
pipelines::BuildOptions build_options() { return {.completion = gpu::Completion::ProcessEvents}; }
present::RenderTargetDescription render_target() { return {.width = 32, .height = 32}; }
present::WindowOptions window_options() { return {.title = "viewer"}; }
present::SwapchainOptions swapchain_options() { return {.present_mode = WGPUPresentMode_Fifo}; }
debugdraw::DebugDrawerOptions debug_drawer_options() { return {.depth_test = false}; }
shaders::CompilerOptions compiler_options() { return {.completion = gpu::Completion::ProcessEvents}; }
tiles::TileArrayDescription tile_array() { return {.layers = 16}; }
tiles::UploadRingDescription upload_ring() { return {.buffers = 2}; }

// The positional forms, which clang warns about as GCC does: leading fields only.
resources::BufferDescription positional_buffer() {
  return {256, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, false, "uniforms"};
}
engine::EngineCallbacks positional_callbacks() { return {[](uint64_t) {}}; }

}  // namespace

int main() {
  // Every function is used, so -Wunused-function stays quiet without a suppression.
  const ShaderModuleHandle module{};
  const BindGroupLayoutHandle layout{};
  return vertex_buffer().size == 0 || render_texture().size.width == 0 || layer_view().label != "" ||
         linear_sampler().label != "" || shadow_sampler().label != "" || shader_module().wgsl.empty() || bind_group_layout().entries.empty() ||
         pipeline_layout(layout).layouts.empty() || bind_group(layout, BufferHandle{}).entries.empty() ||
         query_set().count == 0 || !render_bundle().record || texture_write().bytes_per_row == 0 || render_pipeline(module).targets.empty() ||
         compute_pipeline(module).compute.constants.empty() || layout_entry().binding != 0 ||
         registry_options().generation_limit == 0 || engine_options().hot_reload ||
         !engine_callbacks().on_failed || tile_layer_options().tile_size == 0 || !device_options().callbacks.on_lost ||
         !large_texture_device().required_limits.max_texture_array_layers ||
         library_options().path.empty() || provider_options().device.label.empty() ||
         rebuild_options().faults_to_give_up == 0 || !device_end_options().gate_override ||
         controller_options().device_label.empty() || !controller_hooks().on_state ||
         build_options().timeout.count() == 0 || render_target().width == 0 || window_options().title.empty() ||
         swapchain_options().label.empty() || debug_drawer_options().depth_test ||
         compiler_options().timeout.count() == 0 || tile_array().layers == 0 || upload_ring().buffers == 0 ||
         positional_buffer().size == 0 || !positional_callbacks().on_ready;
}
