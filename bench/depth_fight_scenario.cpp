// Scenario: why reverse-Z exists, measured (docs/design.md, presenting rule P4). Two parallel planes
// 1e-4 apart (the far one a copy of the near one moved 1e-4 further away), tilted so that their
// depth varies over the 256x256 target, at distances from 1 to 1e5, rendered into a Depth32Float
// target with the standard mapping (near 0.1, far 2e5, LessEqual, clear 1) and with reverse-Z
// (infinite far, GreaterEqual, clear 0). The near plane is drawn first; a pixel where the far
// plane then passes the depth test (equal counts: the planes are indistinguishable there) is a
// depth-fighting pixel. Prints one JSON object: depth_fight_pixels_standard_N and
// depth_fight_pixels_reverse_N per distance N, and the table on stderr.
#include <array>
#include <cmath>
#include <numbers>
#include <optional>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "warden/present/depth.h"
#include "warden/present/math.h"
#include "warden/present/readback.h"
#include "warden/present/render_target.h"
#include "warden/gpu/names.h"
#include "warden/gpu/objects.h"

namespace {

using namespace warden;
using present::Mat4;

constexpr uint32_t kSize = 256;
constexpr double kSeparation = 1e-4;
constexpr float kNear = 0.1f;
constexpr float kStandardFar = 2e5f;
constexpr float kFovy = std::numbers::pi_v<float> / 3;
constexpr std::array<double, 11> kDistances = {1, 3, 10, 30, 100, 300, 1000, 3000, 10000, 30000, 100000};

constexpr const char* kPlaneWgsl = R"(
struct Frame { clip_from_view : mat4x4<f32> }
@group(0) @binding(0) var<uniform> frame : Frame;
override red : f32 = 1.0;
override green : f32 = 0.0;
@vertex fn vs(@location(0) position : vec3<f32>) -> @builtin(position) vec4<f32> {
  return frame.clip_from_view * vec4<f32>(position, 1.0);
}
@fragment fn fs() -> @location(0) vec4<f32> { return vec4<f32>(red, green, 0.0, 1.0); }
)";

// The two planes' 12 vertices (near quad, then far quad), computed in double and stored as the
// float positions an application would have. The quad slopes away to the right (distance 0.75d
// at the left edge, 1.25d at the right) and overfills the view.
std::vector<float> plane_vertices(double distance) {
  const double k = std::tan(kFovy / 2.0) * 1.1;
  const int corners[6][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, -1}, {1, 1}, {-1, 1}};
  std::vector<float> out;
  for (double offset : {0.0, kSeparation}) {
    for (const auto& [sx, sy] : corners) {
      const double d = distance * (1 + 0.25 * sx);
      out.push_back(static_cast<float>(sx * d * k));
      out.push_back(static_cast<float>(sy * d * k));
      out.push_back(static_cast<float>(-(d + offset)));
    }
  }
  return out;
}

struct Mode {
  const char* name;
  Mat4 projection;
  WGPUCompareFunction compare;
  float clear_depth;
};

class Bench {
 public:
  Bench(gpu::Context& context, resources::Registry& registry) : context_(context), registry_(registry) {}

  Result<void> build() {
    auto colour = present::RenderTarget::create(registry_, {.width = kSize, .height = kSize, .label = "planes"});
    if (!colour) return colour.error();
    colour_.emplace(std::move(colour.value()));
    auto depth = present::RenderTarget::create(registry_, {.width = kSize, .height = kSize, .format = present::kDepthFormat,
                                                           .usage = WGPUTextureUsage_RenderAttachment, .label = "depth"});
    if (!depth) return depth.error();
    depth_.emplace(std::move(depth.value()));
    auto module = registry_.create_shader_module(kPlaneWgsl, "planes");
    if (!module) return module.error();
    module_ = *module;
    auto uniforms = registry_.create_buffer({.size = 64, .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, .label = "projection"});
    if (!uniforms) return uniforms.error();
    uniforms_ = *uniforms;
    auto vertices = registry_.create_buffer({.size = 12 * 3 * sizeof(float), .usage = WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, .label = "planes"});
    if (!vertices) return vertices.error();
    vertices_ = *vertices;
    WGPUBindGroupLayoutEntry entry{};
    entry.binding = 0;
    entry.visibility = WGPUShaderStage_Vertex;
    entry.buffer.type = WGPUBufferBindingType_Uniform;
    auto group_layout = registry_.create_bind_group_layout({&entry, 1}, "projection");
    if (!group_layout) return group_layout.error();
    const BindGroupLayoutHandle layouts[] = {*group_layout};
    auto layout = registry_.create_pipeline_layout(layouts, "planes");
    if (!layout) return layout.error();
    layout_ = *layout;
    auto group = registry_.create_bind_group({.layout = *group_layout, .entries = {{0, resources::BufferBinding{uniforms_}}}});
    if (!group) return group.error();
    group_ = *group;
    return {};
  }

  // Far-plane pixels after drawing the near plane, then the far one.
  Result<uint64_t> far_pixels(const Mode& mode, double distance) {
    (void)registry_.write_buffer(uniforms_, 0, mode.projection.m.data(), 64);
    const std::vector<float> vertices = plane_vertices(distance);
    (void)registry_.write_buffer(vertices_, 0, vertices.data(), vertices.size() * sizeof(float));
    auto near_pipeline = pipeline(mode, 1.0, 0.0);
    auto far_pipeline = pipeline(mode, 0.0, 1.0);
    if (!near_pipeline || !far_pipeline) return make_error(ErrorKind::Validation, "no pipeline");

    const gpu::Procs& procs = registry_.procs();
    WGPURenderPassColorAttachment colour{};
    colour.depthSlice = WGPU_DEPTH_SLICE_UNDEFINED;
    colour.view = *registry_.resolve(colour_->view());
    colour.loadOp = WGPULoadOp_Clear;
    colour.storeOp = WGPUStoreOp_Store;
    WGPURenderPassDepthStencilAttachment depth{};
    depth.view = *registry_.resolve(depth_->view());
    depth.depthLoadOp = WGPULoadOp_Clear;
    depth.depthStoreOp = WGPUStoreOp_Store;
    depth.depthClearValue = mode.clear_depth;
    WGPURenderPassDescriptor desc{};
    desc.colorAttachmentCount = 1;
    desc.colorAttachments = &colour;
    desc.depthStencilAttachment = &depth;
    WGPUCommandEncoder encoder = procs.DeviceCreateCommandEncoder(registry_.device(), nullptr);
    WGPURenderPassEncoder pass = procs.CommandEncoderBeginRenderPass(encoder, &desc);
    procs.RenderPassEncoderSetBindGroup(pass, 0, *registry_.resolve(group_), 0, nullptr);
    procs.RenderPassEncoderSetVertexBuffer(pass, 0, *registry_.resolve(vertices_), 0, WGPU_WHOLE_SIZE);
    procs.RenderPassEncoderSetPipeline(pass, near_pipeline.get());
    procs.RenderPassEncoderDraw(pass, 6, 1, 0, 0);
    procs.RenderPassEncoderSetPipeline(pass, far_pipeline.get());
    procs.RenderPassEncoderDraw(pass, 6, 1, 6, 0);
    procs.RenderPassEncoderEnd(pass);
    procs.RenderPassEncoderRelease(pass);
    WGPUCommandBuffer commands = procs.CommandEncoderFinish(encoder, nullptr);
    registry_.submit(commands);
    procs.CommandBufferRelease(commands);
    procs.CommandEncoderRelease(encoder);

    auto image = present::read_image(context_, registry_, colour_->texture());
    if (!image) return image.error();
    uint64_t far = 0;
    for (size_t i = 0; i < image->rgba.size(); i += 4) far += image->rgba[i + 1] > 128 ? 1 : 0;
    return far;
  }

 private:
  gpu::Ref<WGPURenderPipeline> pipeline(const Mode& mode, double red, double green) {
    const WGPUConstantEntry constants[] = {{nullptr, gpu::string_view("red"), red},
                                               {nullptr, gpu::string_view("green"), green}};
    const WGPUVertexAttribute attribute{nullptr, WGPUVertexFormat_Float32x3, 0, 0};
    WGPUVertexBufferLayout vertex_layout{};
    vertex_layout.stepMode = WGPUVertexStepMode_Vertex;
    vertex_layout.arrayStride = 3 * sizeof(float);
    vertex_layout.attributeCount = 1;
    vertex_layout.attributes = &attribute;
    WGPUDepthStencilState depth{};
    depth.stencilReadMask = 0xFFFFFFFF;
    depth.stencilWriteMask = 0xFFFFFFFF;
    depth.format = present::kDepthFormat;
    depth.depthWriteEnabled = WGPUOptionalBool_True;
    depth.depthCompare = mode.compare;
    gpu::VsFsPipelineDescription p(*registry_.resolve(module_));
    p.fragment.constantCount = 2;
    p.fragment.constants = constants;
    p.desc.vertex.bufferCount = 1;
    p.desc.vertex.buffers = &vertex_layout;
    p.desc.depthStencil = &depth;
    p.desc.layout = *registry_.resolve(layout_);
    return gpu::Ref<WGPURenderPipeline>(&registry_.procs(),
                                         registry_.procs().DeviceCreateRenderPipeline(registry_.device(), &p.desc));
  }

  gpu::Context& context_;
  resources::Registry& registry_;
  std::optional<present::RenderTarget> colour_;
  std::optional<present::RenderTarget> depth_;
  ShaderModuleHandle module_;
  BufferHandle uniforms_;
  BufferHandle vertices_;
  PipelineLayoutHandle layout_;
  BindGroupHandle group_;
};

}  // namespace

int main() {
  auto ctx = gpu::Context::create();
  if (!ctx) {
    fmt::print(stderr, "depth_fight_scenario: {}\n", ctx.error().message);
    return 2;
  }
  auto opened = ctx.value()->open_device(gpu::BackendChoice::Auto);
  if (!opened) {
    fmt::print(stderr, "depth_fight_scenario: {}\n", opened.error().message);
    return 1;
  }
  resources::Registry registry(*ctx.value(), opened->device.get(), opened->queue.get());
  Bench bench(*ctx.value(), registry);
  if (auto built = bench.build(); !built) {
    fmt::print(stderr, "depth_fight_scenario: {}\n", built.error().message);
    return 1;
  }
  const Mode modes[] = {
      {"standard", present::perspective_standard(kFovy, 1.0f, kNear, kStandardFar), WGPUCompareFunction_LessEqual, 1.0f},
      {"reverse", present::perspective_reverse_z_infinite(kFovy, 1.0f, kNear), present::kReverseZCompare,
       present::kReverseZClearDepth},
  };
  nlohmann::json out = nlohmann::json::object();
  fmt::print(stderr, "depth_fight_scenario: backend {}, {}x{} Depth32Float, planes {} apart, near {}\n",
             gpu::to_string(opened->adapter.description.backend), kSize, kSize, kSeparation, kNear);
  fmt::print(stderr, "{:>10} {:>16} {:>16}\n", "distance", "standard", "reverse-Z");
  for (double distance : kDistances) {
    uint64_t counts[2] = {};
    for (int m = 0; m < 2; ++m) {
      auto far = bench.far_pixels(modes[m], distance);
      if (!far) {
        fmt::print(stderr, "depth_fight_scenario: {}\n", far.error().message);
        return 1;
      }
      counts[m] = *far;
      out[fmt::format("depth_fight_pixels_{}_{}", modes[m].name, static_cast<uint64_t>(distance))] = *far;
    }
    fmt::print(stderr, "{:>10} {:>16} {:>16}\n", distance, counts[0], counts[1]);
  }
  fmt::print("{}\n", out.dump());
  return 0;
}
