// The shader features' numbers, proven against the real library (Null backend): the adapter
// offers each, a device asked for it has it, and the `enable` it stands for then compiles;
// without it, Dawn's "not allowed" is followed by a note naming the feature.
#include <gmock/gmock.h>

#include <string>

#include "support/gpu_test.h"
#include "warden/shaders/shader_compiler.h"
#include "warden/shaders/shader_features.h"
#include "warden/gpu/names.h"

namespace warden::shaders {
namespace {

using ::testing::HasSubstr;

// The smallest module that uses each extension (tests/data/shaders/enable_*.wgsl, inline here).
std::string module_enabling(std::string_view extension) {
  if (extension == "f16") return "enable f16;\nfn f() -> f16 { return 1.0h; }\n";
  if (extension == "subgroups") return "enable subgroups;\n@compute @workgroup_size(64) fn main() { }\n";
  if (extension == "clip_distances") {
    return "enable clip_distances;\n"
           "struct O { @builtin(position) p: vec4f, @builtin(clip_distances) c: array<f32, 1> }\n"
           "@vertex fn v() -> O { var o: O; return o; }\n";
  }
  return "enable dual_source_blending;\n"
         "struct O { @location(0) @blend_src(0) a: vec4f, @location(0) @blend_src(1) b: vec4f }\n"
         "@fragment fn f() -> O { var o: O; return o; }\n";
}

class ShaderFeaturesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    context_ = warden::testing::shared_context();
    ASSERT_NE(context_, nullptr);
    auto adapter = context_->select_adapter(gpu::BackendChoice::Null);
    ASSERT_TRUE(adapter.ok()) << adapter.error().message;
    adapter_ = std::move(adapter.value());
  }
  gpu::Ref<WGPUDevice> device_with(std::vector<WGPUFeatureName> features) {
    auto device = context_->request_device(adapter_.adapter.get(), {"shader features test", {}, std::move(features)});
    EXPECT_TRUE(device.ok()) << device.error().message;
    return device.ok() ? std::move(device.value()) : gpu::Ref<WGPUDevice>{};
  }
  gpu::Context* context_ = nullptr;
  gpu::SelectedAdapter adapter_;
};

TEST_F(ShaderFeaturesTest, NullAdapterOffersEachAndTheDeviceGetsIt) {
  const auto offered = shader_features_among(adapter_.description.features);
  ASSERT_EQ(offered.size(), kShaderFeatures.size());
  for (const ShaderFeature& f : kShaderFeatures) {
    EXPECT_NE(context_->procs().AdapterHasFeature(adapter_.adapter.get(), f.value), 0u) << f.feature;
    auto device = device_with({f.value});
    ASSERT_TRUE(device) << f.feature;
    EXPECT_NE(context_->procs().DeviceHasFeature(device.get(), f.value), 0u) << f.feature;
    // The name table `warden info` prints agrees with this one.
    EXPECT_EQ(gpu::feature_name(f.value), f.feature);
  }
}

TEST_F(ShaderFeaturesTest, EachFeatureAllowsItsExtensionAndOnlyIt) {
  for (const ShaderFeature& f : kShaderFeatures) {
    auto device = device_with({f.value});
    ASSERT_TRUE(device);
    ShaderCompiler compiler(*context_, device.get());
    for (const ShaderFeature& g : kShaderFeatures) {
      auto compiled = compiler.compile("enable.wgsl", module_enabling(g.extension));
      ASSERT_TRUE(compiled.ok()) << compiled.error().message;
      EXPECT_EQ(compiled->ok(), f.value == g.value) << "device with " << f.feature << ", enable " << g.extension;
    }
  }
}

TEST_F(ShaderFeaturesTest, WithoutTheFeatureTheErrorIsFollowedByANoteNamingIt) {
  auto device = device_with({});
  ASSERT_TRUE(device);
  ShaderCompiler compiler(*context_, device.get());
  for (const ShaderFeature& f : kShaderFeatures) {
    auto compiled = compiler.compile("enable.wgsl", module_enabling(f.extension));
    ASSERT_TRUE(compiled.ok()) << compiled.error().message;
    ASSERT_EQ(compiled->diagnostics.size(), 2u) << f.feature;
    const ShaderDiagnostic& error = compiled->diagnostics[0];
    const ShaderDiagnostic& note = compiled->diagnostics[1];
    EXPECT_EQ(error.severity, Severity::Error);
    EXPECT_EQ(error.id, MessageId::ShaderCompilerMessage);
    EXPECT_EQ(error.message, "extension '" + std::string(f.extension) + "' is not allowed in the current environment");
    EXPECT_EQ(note.severity, Severity::Info);
    EXPECT_EQ(note.id, MessageId::ShaderNeedsDeviceFeature);
    EXPECT_EQ(note.line, error.line);
    EXPECT_EQ(note.column, error.column);
    EXPECT_EQ(note.message, "extension '" + std::string(f.extension) + "' needs the device feature '" +
                                std::string(f.feature) + "', which this device was not created with");
  }
}

TEST(ShaderFeatures, NamesAreLookedUpAndUnknownOnesListTheKnown) {
  auto f16 = find_shader_feature("shader-f16");
  ASSERT_TRUE(f16.ok());
  EXPECT_EQ(f16->extension, "f16");
  auto unknown = find_shader_feature("f16");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().id, MessageId::ShaderFeatureUnknown);
  EXPECT_EQ(unknown.error().message,
            "unknown shader feature 'f16': expected shader-f16, clip-distances, dual-source-blending, subgroups");
  EXPECT_EQ(extension_not_allowed("extension 'f16' is not allowed in the current environment"), "f16");
  EXPECT_FALSE(extension_not_allowed("unresolved value 'f16'").has_value());
}

}  // namespace
}  // namespace warden::shaders
