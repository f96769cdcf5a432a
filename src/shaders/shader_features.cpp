#include "warden/shaders/shader_features.h"

#include <algorithm>
#include <string>

#include <fmt/format.h>

namespace warden::shaders {

std::vector<WGPUFeatureName> shader_features_among(const std::vector<WGPUFeatureName>& offered) {
  std::vector<WGPUFeatureName> features;
  for (const ShaderFeature& f : kShaderFeatures) {
    if (std::find(offered.begin(), offered.end(), f.value) != offered.end()) features.push_back(f.value);
  }
  return features;
}

Result<ShaderFeature> find_shader_feature(std::string_view feature_name) {
  std::string known;
  for (const ShaderFeature& f : kShaderFeatures) {
    if (f.feature == feature_name) return f;
    known += known.empty() ? "" : ", ";
    known += f.feature;
  }
  return make_error(ErrorKind::InvalidArgument, MessageId::ShaderFeatureUnknown,
                    fmt::format("unknown shader feature '{}': expected {}", feature_name, known));
}

std::optional<ShaderFeature> find_shader_extension(std::string_view extension) {
  for (const ShaderFeature& f : kShaderFeatures) {
    if (f.extension == extension) return f;
  }
  return std::nullopt;
}

std::optional<std::string_view> extension_not_allowed(std::string_view message) {
  constexpr std::string_view kBefore = "extension '";
  constexpr std::string_view kAfter = "' is not allowed in the current environment";
  if (!message.starts_with(kBefore) || !message.ends_with(kAfter)) return std::nullopt;
  return message.substr(kBefore.size(), message.size() - kBefore.size() - kAfter.size());
}

}  // namespace warden::shaders
