// Creation requests checked against the WebGPU spec and the device's limits, before Dawn sees
// them. Each rule is one Dawn would reject; checking it first gives an error that names the rule
// (and, from the caller, the label) instead of an error object. What is not checked here, the
// creation's own check still catches (RegistryImpl::create_checked).
#pragma once

#include <optional>
#include <string>

#include "warden/resources/registry.h"

namespace warden::resources {

// WebGPU: a query set holds at most 4,096 queries.
inline constexpr uint32_t kMaxQueryCount = 4096;

// The kind as the registry's call names spell it (replace_texture_view, destroy_bind_group);
// to_string(kind) is the words messages use ("texture view").
const char* call_suffix(ResourceKind kind);

// The first rule the request breaks, in words, or nullopt.
std::optional<std::string> broken_buffer_rule(const BufferDescription& desc, const WGPULimits& limits);
std::optional<std::string> broken_texture_rule(const TextureDescription& desc, const WGPULimits& limits);

}  // namespace warden::resources
