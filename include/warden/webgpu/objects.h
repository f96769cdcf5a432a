// Small constructors for raw objects that several layers make the same way.
#pragma once

#include <string_view>

#include "warden/webgpu/procs.h"

namespace warden::gpu {

// A shader module from WGSL source: the one place the WGSL source chain is assembled. Returns
// what the device returned (an invalid module when the source does not compile).
ShaderModule create_wgsl_module(const Procs& procs, Device device, std::string_view code, std::string_view label);

}  // namespace warden::gpu
