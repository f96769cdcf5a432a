// Names for enum values, as warden prints them (lower case, the WebGPU spec's spelling).
#pragma once

#include <string>

#include "warden/webgpu/abi.h"

namespace warden::gpu {

const char* to_string(BackendType type);
const char* to_string(AdapterType type);
const char* to_string(FeatureLevel level);
const char* to_string(ErrorType type);
const char* to_string(DeviceLostReason reason);
const char* to_string(TextureFormat format);
/// Known feature names; unknown numbers print as "feature-0xNNNN".
std::string feature_name(FeatureName feature);
/// "CopyDst|TextureBinding" style lists of flag names.
std::string buffer_usage_names(Flags usage);
std::string texture_usage_names(Flags usage);

}  // namespace warden::gpu
