// The typed pipeline layer against Dawn (Null backend): translation, creation, the errors Dawn
// raises at pipeline creation named by the pipeline's label, and replace under the same handle.
#include <gmock/gmock.h>

#include <memory>

#include "support/gpu_test.h"
#include "support/error_object.h"
#include "support/messages.h"
#include "warden/pipelines/pipeline_library.h"
#include "warden/shaders/shader_manager.h"

namespace warden::pipelines {
namespace {

using ::testing::HasSubstr;
using testing::FailsWith;
using testing::NamesKind;
using testing::NamesLabel;

constexpr const char* kStorageDoubler = R"(
@group(0) @binding(0) var<storage, read_write> values : array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  if (id.x < arrayLength(&values)) { values[id.x] = values[id.x] * 2u; }
}
)";

constexpr const char* kTriangle = R"(
@vertex
fn vs(@builtin(vertex_index) i : u32) -> @builtin(position) vec4<f32> {
  var p = array<vec2<f32>, 3>(vec2<f32>(-1.0, -1.0), vec2<f32>(3.0, -1.0), vec2<f32>(-1.0, 3.0));
  return vec4<f32>(p[i], 0.0, 1.0);
}
@fragment
fn fs() -> @location(0) vec4<f32> { return vec4<f32>(1.0, 0.0, 0.0, 1.0); }
)";

class PipelineBuildTest : public warden::testing::NullDeviceTest {
 protected:
  void SetUp() override {
    NullDeviceTest::SetUp();
    registry = std::make_unique<resources::Registry>(*dev->context, dev->device.get(), dev->queue.get());
    shaders = std::make_unique<shaders::ShaderManager>(*dev->context, *registry);
    library = std::make_unique<PipelineLibrary>(*dev->context, *registry);
  }
  void TearDown() override {
    library.reset();
    shaders.reset();
    registry.reset();
    EXPECT_THAT(dev->take_errors(), ::testing::IsEmpty());
    NullDeviceTest::TearDown();
  }
  ShaderModuleHandle module(const char* path, const char* source) {
    auto handle = shaders->compile(path, source);
    EXPECT_TRUE(handle.ok()) << handle.error().message;
    return handle.ok() ? *handle : ShaderModuleHandle{};
  }
  resources::RenderPipelineDescription triangle(ShaderModuleHandle m, std::string label) {
    resources::RenderPipelineDescription d;
    d.label = std::move(label);
    d.vertex = {m, "vs", {}};
    d.fragment = resources::ShaderStage{m, "fs", {}};
    d.targets = {resources::ColorTarget{WGPUTextureFormat_RGBA8Unorm, std::nullopt, WGPUColorWriteMask_All}};
    return d;
  }
  std::unique_ptr<resources::Registry> registry;
  std::unique_ptr<shaders::ShaderManager> shaders;
  std::unique_ptr<PipelineLibrary> library;
};

TEST_F(PipelineBuildTest, RenderAndComputePipelinesAreRegisteredWithTheirDescriptions) {
  auto tri = module("triangle.wgsl", kTriangle);
  auto render = library->create_render_pipeline(triangle(tri, "triangle"));
  ASSERT_TRUE(render.ok()) << render.error().message;
  EXPECT_TRUE(registry->resolve(*render).ok());
  EXPECT_EQ(*registry->label(*render), "triangle");
  ASSERT_TRUE(library->description(*render).has_value());
  EXPECT_EQ(library->description(*render)->vertex.entry_point, "vs");

  auto doubler = module("doubler.wgsl", kStorageDoubler);
  auto compute = library->create_compute_pipeline({"doubler", {}, {doubler, "main", {}}});
  ASSERT_TRUE(compute.ok()) << compute.error().message;
  EXPECT_THAT(library->compute_users_of(doubler), ::testing::ElementsAre(*compute));
  EXPECT_THAT(library->render_users_of(tri), ::testing::ElementsAre(*render));
  EXPECT_TRUE(library->render_users_of(doubler).empty());
}

TEST_F(PipelineBuildTest, MissingEntryPointIsAValidationErrorNamingTheLabel) {
  auto tri = module("triangle.wgsl", kTriangle);
  auto d = triangle(tri, "sky pass");
  d.fragment->entry_point = "fs_main";
  auto render = library->create_render_pipeline(d);
  ASSERT_FALSE(render.ok());
  EXPECT_EQ(render.error().kind, ErrorKind::Validation);
  EXPECT_THAT(render, FailsWith(MessageId::PipelineBuildRejected));
  EXPECT_THAT(render, NamesKind("render pipeline"));
  EXPECT_THAT(render, NamesLabel("sky pass"));
  EXPECT_THAT(render.error().message, HasSubstr("fs_main"));
  EXPECT_EQ(registry->live_counts().of(ResourceKind::RenderPipeline), 0u);
  EXPECT_EQ(registry->diagnostics().count(kDiagnosticsCategory, Severity::Error), 1u);
  EXPECT_EQ(registry->diagnostics().count(MessageId::PipelineBuildRejected), 1u);  // reported with its id
}

TEST_F(PipelineBuildTest, BindingTypeThatDisagreesWithTheLayoutIsNamed) {
  // The shader reads binding 0 as a read-write storage buffer; the layout says uniform.
  auto doubler = module("doubler.wgsl", kStorageDoubler);
  std::vector<resources::LayoutEntry> entries = {
      {0, WGPUShaderStage_Compute, resources::BufferLayout{WGPUBufferBindingType_Uniform, false, 0}}};
  auto c_entries = translate_layout_entries(entries);
  auto group_layout = registry->create_bind_group_layout(c_entries, "uniform layout");
  ASSERT_TRUE(group_layout.ok()) << group_layout.error().message;
  std::vector<BindGroupLayoutHandle> groups = {*group_layout};
  auto layout = registry->create_pipeline_layout(groups, "doubler layout");
  ASSERT_TRUE(layout.ok()) << layout.error().message;
  auto compute = library->create_compute_pipeline({"doubler", *layout, {doubler, "main", {}}});
  ASSERT_FALSE(compute.ok());
  EXPECT_EQ(compute.error().kind, ErrorKind::Validation);
  EXPECT_THAT(compute, FailsWith(MessageId::PipelineBuildRejected));
  EXPECT_THAT(compute, NamesKind("compute pipeline"));
  EXPECT_THAT(compute, NamesLabel("doubler"));
  EXPECT_THAT(compute.error().message, HasSubstr("BufferBindingType::Uniform"));

  // The layout that agrees builds.
  std::vector<resources::LayoutEntry> storage = {
      {0, WGPUShaderStage_Compute, resources::BufferLayout{WGPUBufferBindingType_Storage, false, 0}}};
  auto storage_entries = translate_layout_entries(storage);
  auto storage_group = registry->create_bind_group_layout(storage_entries, "storage layout");
  ASSERT_TRUE(storage_group.ok());
  std::vector<BindGroupLayoutHandle> storage_groups = {*storage_group};
  auto storage_layout = registry->create_pipeline_layout(storage_groups, "storage doubler layout");
  ASSERT_TRUE(storage_layout.ok());
  auto good = library->create_compute_pipeline({"doubler", *storage_layout, {doubler, "main", {}}});
  EXPECT_TRUE(good.ok()) << good.error().message;
}

TEST_F(PipelineBuildTest, StaleModuleHandleIsRefusedNamingLabelAndStage) {
  auto tri = module("triangle.wgsl", kTriangle);
  auto d = triangle(tri, "hud");
  ASSERT_TRUE(registry->destroy_shader_module(tri).ok());
  auto render = library->create_render_pipeline(d);
  ASSERT_FALSE(render.ok());
  EXPECT_EQ(render.error().kind, ErrorKind::StaleHandle);
  EXPECT_THAT(render, FailsWith(MessageId::HandleDestroyed));  // the registry's id, kept under the prefix
  EXPECT_THAT(render.error().message, HasSubstr("render pipeline \"hud\": vertex stage module"));
}

TEST_F(PipelineBuildTest, ReplaceSwapsUnderTheSameHandleAndAFailedReplaceKeepsTheOld) {
  auto tri = module("triangle.wgsl", kTriangle);
  auto render = library->create_render_pipeline(triangle(tri, "triangle"));
  ASSERT_TRUE(render.ok());
  WGPURenderPipeline first = *registry->resolve(*render);

  auto culled = triangle(tri, "triangle");
  culled.cull_mode = WGPUCullMode_Back;
  ASSERT_TRUE(library->replace_render_pipeline(*render, culled).ok());
  WGPURenderPipeline second = *registry->resolve(*render);
  EXPECT_NE(second, first);
  EXPECT_EQ(library->description(*render)->cull_mode, WGPUCullMode_Back);

  auto broken = triangle(tri, "triangle");
  broken.vertex.entry_point = "no_such_vs";
  auto failed = library->replace_render_pipeline(*render, broken);
  EXPECT_THAT(failed, FailsWith(MessageId::PipelineBuildRejected));
  EXPECT_THAT(failed.error().message, HasSubstr("no_such_vs"));
  EXPECT_EQ(*registry->resolve(*render), second);
  EXPECT_EQ(library->description(*render)->vertex.entry_point, "vs");
}

TEST_F(PipelineBuildTest, EveryLayoutEntryKindTranslates) {
  std::vector<resources::LayoutEntry> entries = {
      {0, WGPUShaderStage_Vertex, resources::BufferLayout{WGPUBufferBindingType_ReadOnlyStorage, true, 16}},
      {1, WGPUShaderStage_Fragment, resources::SamplerLayout{WGPUSamplerBindingType_NonFiltering}},
      {2, WGPUShaderStage_Fragment,
       resources::TextureLayout{WGPUTextureSampleType_UnfilterableFloat, WGPUTextureViewDimension_2DArray, false}},
      {3, WGPUShaderStage_Compute,
       resources::StorageTextureLayout{WGPUStorageTextureAccess_WriteOnly, WGPUTextureFormat_RGBA8Unorm,
                            WGPUTextureViewDimension_2D}},
  };
  auto c = translate_layout_entries(entries);
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0].buffer.type, WGPUBufferBindingType_ReadOnlyStorage);
  EXPECT_EQ(c[0].buffer.hasDynamicOffset, 1u);
  EXPECT_EQ(c[0].buffer.minBindingSize, 16u);
  EXPECT_EQ(c[0].sampler.type, WGPUSamplerBindingType_BindingNotUsed);
  EXPECT_EQ(c[1].sampler.type, WGPUSamplerBindingType_NonFiltering);
  EXPECT_EQ(c[1].buffer.type, WGPUBufferBindingType_BindingNotUsed);
  EXPECT_EQ(c[2].texture.sampleType, WGPUTextureSampleType_UnfilterableFloat);
  EXPECT_EQ(c[2].texture.viewDimension, WGPUTextureViewDimension_2DArray);
  EXPECT_EQ(c[3].storageTexture.access, WGPUStorageTextureAccess_WriteOnly);
  EXPECT_EQ(c[3].binding, 3u);
  EXPECT_EQ(c[3].visibility, WGPUShaderStage_Compute);
  // Dawn accepts the translated layout.
  auto built = build_bind_group_layout(*dev->context, dev->device.get(), "all kinds", entries);
  EXPECT_TRUE(built.ok()) << built.error().message;
}

TEST_F(PipelineBuildTest, ShaderManagerCompileErrorGivesNoHandleAndReportsDiagnostics) {
  auto handle = shaders->compile("broken.wgsl", "fn f() {\n  let x = nope;\n}\n");
  ASSERT_FALSE(handle.ok());
  EXPECT_EQ(handle.error().kind, ErrorKind::Compilation);
  EXPECT_THAT(handle, FailsWith(MessageId::ShaderCompileFailed));
  EXPECT_EQ(handle.error().message,
            "broken.wgsl:2:11: error: unresolved value 'nope'\n  let x = nope;\n          ^");
  ASSERT_EQ(shaders->last_diagnostics().size(), 1u);
  EXPECT_EQ(shaders->last_diagnostics()[0].line, 2u);
  EXPECT_EQ(registry->live_counts().of(ResourceKind::ShaderModule), 0u);
  auto entries = registry->diagnostics().entries();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].category, shaders::kDiagnosticsCategory);
  EXPECT_EQ(entries[0].id, MessageId::ShaderCompilerMessage);
  EXPECT_EQ(entries[0].message, "broken.wgsl:2:11: unresolved value 'nope'");
}

}  // namespace
}  // namespace warden::pipelines
