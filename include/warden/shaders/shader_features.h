/// @file
/// The WGSL `enable` extensions that need a device feature. Without the feature on the device,
/// Dawn rejects `enable f16;` as "not allowed in the current environment" without saying why;
/// a device for checking shaders asks for these, and the compiler names the one that is missing.
#pragma once

#include <array>
#include <optional>
#include <string_view>
#include <vector>

#include "warden/core/result.h"
#include "warden/shaders/diagnostic.h"
#include "warden/gpu/abi.h"

namespace warden::shaders {

/// A WGSL `enable` extension and the device feature it needs.
struct ShaderFeature {
  std::string_view extension{};  ///< as written after `enable` in WGSL
  std::string_view feature{};    ///< the device feature's name (webgpu.h, `warden info`)
  WGPUFeatureName value{};      ///< its number in this ABI
};

/// Numbers from the library's own tables (docs/adr/0001), each proven against the library by
/// tests/shaders/shader_features_test.cpp: the Null adapter offers them, a device gets them, and
/// `enable` then compiles.
inline constexpr std::array<ShaderFeature, 4> kShaderFeatures{{
    {"f16", "shader-f16", WGPUFeatureName_ShaderF16},
    {"clip_distances", "clip-distances", WGPUFeatureName_ClipDistances},
    {"dual_source_blending", "dual-source-blending", WGPUFeatureName_DualSourceBlending},
    {"subgroups", "subgroups", WGPUFeatureName_Subgroups},
}};

/// The shader features among `offered` (an adapter's features), in kShaderFeatures order.
std::vector<WGPUFeatureName> shader_features_among(const std::vector<WGPUFeatureName>& offered);

/// The entry for a feature name ("shader-f16"); InvalidArgument listing the names otherwise.
Result<ShaderFeature> find_shader_feature(std::string_view feature_name);

/// The entry for an `enable` extension ("f16"), if it needs a feature.
std::optional<ShaderFeature> find_shader_extension(std::string_view extension);

/// The extension named by Dawn's "extension 'NAME' is not allowed in the current environment",
/// or nullopt for any other message.
std::optional<std::string_view> extension_not_allowed(std::string_view message);

}  // namespace warden::shaders
