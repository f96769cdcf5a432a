#include "warden/webgpu/objects.h"

namespace warden::gpu {

ShaderModule create_wgsl_module(const Procs& procs, Device device, std::string_view code, std::string_view label) {
  ShaderSourceWGSL wgsl;
  wgsl.code = code;
  ShaderModuleDescriptor desc;
  desc.nextInChain = &wgsl.chain;
  desc.label = label;
  return procs.DeviceCreateShaderModule(device, &desc);
}

}  // namespace warden::gpu
