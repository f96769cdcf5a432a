// Proves the last declarations not covered elsewhere: every declared vertex format by name,
// the Vertex step mode by the draw check Dawn applies to it, and the compilation-info
// statuses and message types Dawn reports.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "warden/gpu/objects.h"
#include "support/error_scope.h"
#include "support/poll_until.h"
#include "warden/gpu/objects.h"

namespace warden {
namespace {

using namespace gpu;
using testing::NullDeviceTest;
using ::testing::HasSubstr;

// A pipeline whose only vertex attribute is declared `format` while the shader reads an
// `i32`: no declared format is a signed integer, so Dawn refuses each one by name.
std::string vertex_format_message(testing::TestDevice& dev, WGPUVertexFormat format) {
  const Procs& p = dev.procs();
  WGPUDevice device = dev.device.get();
  return testing::validation_message(dev, [&] {
    Ref<WGPUShaderModule> module(&p, create_wgsl_module(p, device,
                                                    "@vertex fn vs(@location(0) v : i32) -> @builtin(position) vec4<f32> {\n"
                                                    "  return vec4<f32>(f32(v));\n}\n"
                                                    "@fragment fn fs() -> @location(0) vec4<f32> { return vec4<f32>(1.0); }",
                                                    "vertex format probe"));
    WGPUVertexAttribute attribute{};
    attribute.format = format;
    attribute.shaderLocation = 0;
    WGPUVertexBufferLayout buffer{};
    buffer.stepMode = WGPUVertexStepMode_Vertex;
    buffer.arrayStride = 16;
    buffer.attributeCount = 1;
    buffer.attributes = &attribute;
    gpu::VsFsPipelineDescription pipeline(module.get());
    pipeline.desc.vertex.bufferCount = 1;
    pipeline.desc.vertex.buffers = &buffer;
    p.RenderPipelineRelease(p.DeviceCreateRenderPipeline(device, &pipeline.desc));
  });
}

TEST_F(NullDeviceTest, VertexFormatValuesAreNamedByTheLibrary) {
  const std::vector<std::pair<WGPUVertexFormat, const char*>> formats = {
      {WGPUVertexFormat_Float32, "Float32"},     {WGPUVertexFormat_Float32x2, "Float32x2"},
      {WGPUVertexFormat_Float32x3, "Float32x3"}, {WGPUVertexFormat_Float32x4, "Float32x4"},
      {WGPUVertexFormat_Uint32, "Uint32"},       {WGPUVertexFormat_Uint32x4, "Uint32x4"},
  };
  for (const auto& [format, name] : formats) {
    std::string msg = vertex_format_message(*dev, format);
    EXPECT_THAT(msg, HasSubstr(std::string("VertexFormat::") + name + ")")) << msg;
  }
}

// Drawing more vertices (or instances) than the bound buffer holds is refused with the kind of
// range the buffer's step mode makes it: "Vertex range" or "Instance range".
std::string overrun_message(testing::TestDevice& dev, WGPUVertexStepMode mode) {
  const Procs& p = dev.procs();
  WGPUDevice device = dev.device.get();
  return testing::validation_message(dev, [&] {
    Ref<WGPUShaderModule> module(&p, create_wgsl_module(p, device,
                                                    "@vertex fn vs(@location(0) v : f32) -> @builtin(position) vec4<f32> {\n"
                                                    "  return vec4<f32>(v);\n}\n"
                                                    "@fragment fn fs() -> @location(0) vec4<f32> { return vec4<f32>(1.0); }",
                                                    "step mode probe"));
    WGPUVertexAttribute attribute{};
    attribute.format = WGPUVertexFormat_Float32;
    WGPUVertexBufferLayout layout{};
    layout.stepMode = mode;
    layout.arrayStride = 4;
    layout.attributeCount = 1;
    layout.attributes = &attribute;
    gpu::VsFsPipelineDescription desc(module.get());
    desc.desc.vertex.bufferCount = 1;
    desc.desc.vertex.buffers = &layout;
    Ref<WGPURenderPipeline> pipeline(&p, p.DeviceCreateRenderPipeline(device, &desc.desc));
    WGPUBufferDescriptor bd{};
    bd.size = 8;  // two floats
    bd.usage = WGPUBufferUsage_Vertex;
    Ref<WGPUBuffer> buffer(&p, p.DeviceCreateBuffer(device, &bd));
    WGPUTextureDescriptor td{};
    td.dimension = WGPUTextureDimension_2D;
    td.mipLevelCount = 1;
    td.sampleCount = 1;
    td.size = {4, 4, 1};
    td.format = WGPUTextureFormat_RGBA8Unorm;
    td.usage = WGPUTextureUsage_RenderAttachment;
    Ref<WGPUTexture> target(&p, p.DeviceCreateTexture(device, &td));
    Ref<WGPUTextureView> view(&p, p.TextureCreateView(target.get(), nullptr));
    Ref<WGPUCommandEncoder> encoder(&p, p.DeviceCreateCommandEncoder(device, nullptr));
    WGPURenderPassEncoder pass = begin_clear_pass(p, encoder.get(), view.get());
    p.RenderPassEncoderSetPipeline(pass, pipeline.get());
    p.RenderPassEncoderSetVertexBuffer(pass, 0, buffer.get(), 0, 8);
    p.RenderPassEncoderDraw(pass, 3, 3, 0, 0);
    p.RenderPassEncoderEnd(pass);
    p.RenderPassEncoderRelease(pass);
    p.CommandBufferRelease(p.CommandEncoderFinish(encoder.get(), nullptr));
  });
}

TEST_F(NullDeviceTest, VertexStepModesSelectWhichRangeTheBufferMustHold) {
  std::string per_vertex = overrun_message(*dev, WGPUVertexStepMode_Vertex);
  EXPECT_THAT(per_vertex, HasSubstr("Vertex range")) << per_vertex;
  std::string per_instance = overrun_message(*dev, WGPUVertexStepMode_Instance);
  EXPECT_THAT(per_instance, HasSubstr("Instance range")) << per_instance;
}

struct InfoOutcome {
  WGPUCompilationInfoRequestStatus status{};
  std::vector<WGPUCompilationMessageType> types;
  std::vector<std::string> texts;
  int calls = 0;
};

WGPUCompilationInfoCallbackInfo info_callback(InfoOutcome* out, WGPUCallbackMode mode) {
  WGPUCompilationInfoCallbackInfo cb{};
  cb.mode = mode;
  cb.userdata1 = out;
  cb.callback = [](WGPUCompilationInfoRequestStatus s, const WGPUCompilationInfo* info, void* u, void*) {
    auto* o = static_cast<InfoOutcome*>(u);
    o->status = s;
    ++o->calls;
    for (size_t i = 0; info != nullptr && i < info->messageCount; ++i) {
      o->types.push_back(info->messages[i].type);
      o->texts.emplace_back(gpu::to_std(info->messages[i].message));
    }
  };
  return cb;
}

// A uniformity error comes with notes that say why: Dawn reports those as Info messages.
TEST_F(NullDeviceTest, CompilationInfoReportsNotesAsInfoMessages) {
  const Procs& p = dev->procs();
  InfoOutcome out;
  testing::validation_message(*dev, [&] {
    Ref<WGPUShaderModule> module(&p, create_wgsl_module(p, dev->device.get(),
                                                    "@group(0) @binding(0) var t : texture_2d<f32>;\n"
                                                    "@group(0) @binding(1) var s : sampler;\n"
                                                    "@fragment fn fs(@location(0) uv : vec2<f32>) -> @location(0) vec4<f32> {\n"
                                                    "  if (uv.x > 0.5) {\n"
                                                    "    return textureSample(t, s, uv);\n"
                                                    "  }\n"
                                                    "  return vec4<f32>(0.0);\n"
                                                    "}\n",
                                                    "uniformity probe"));
    auto waited = dev->context->wait(p.ShaderModuleGetCompilationInfo(module.get(), info_callback(&out, WGPUCallbackMode_WaitAnyOnly)),
                                     warden::testing::kSafetyNet);
    EXPECT_TRUE(waited.ok());
  });
  EXPECT_EQ(out.status, WGPUCompilationInfoRequestStatus_Success);
  ASSERT_GE(out.types.size(), 2u);
  EXPECT_EQ(out.types[0], WGPUCompilationMessageType_Error);
  EXPECT_THAT(out.texts[0], HasSubstr("uniform control flow"));
  bool has_info = false;
  for (auto type : out.types) has_info |= type == WGPUCompilationMessageType_Info;
  EXPECT_TRUE(has_info) << "a note of the uniformity error arrives as an Info message";
}

// A compilation-info request still pending when its instance goes away is cancelled.
TEST(WebGpuAbi, InstanceReleaseCancelsPendingCompilationInfo) {
  auto ctx = Context::create(testing::shared_context()->library_ptr());
  ASSERT_TRUE(ctx.ok());
  auto adapter = ctx.value()->select_adapter(BackendChoice::Null);
  ASSERT_TRUE(adapter.ok());
  auto device = ctx.value()->request_device(adapter->adapter.get(), {});
  ASSERT_TRUE(device.ok());
  const Procs& p = ctx.value()->procs();
  InfoOutcome out;
  WGPUShaderModule module = create_wgsl_module(p, device->get(), "fn f() {}", "cancel probe");
  p.ShaderModuleGetCompilationInfo(module, info_callback(&out, WGPUCallbackMode_AllowProcessEvents));
  p.ShaderModuleRelease(module);
  device->reset();
  adapter->adapter.reset();
  ctx.value().reset();
  EXPECT_EQ(out.calls, 1);
  EXPECT_EQ(out.status, WGPUCompilationInfoRequestStatus_CallbackCancelled);
}

}  // namespace
}  // namespace warden
