// A copy of a WebGPU library with some of its exports hidden, for the tests of what warden does
// with a library that lacks entry points (every published build of warden's Dawn has them all).
#pragma once

#include <string>
#include <vector>

namespace warden::testing {

// Writes a copy of `library` into the test's temporary folder as `file_name`, with each of the
// exported names in `hidden` ("wgpuRenderPassEncoderSetBlendConstant") spelled "xgpu...", so that
// dlsym no longer finds it; returns its path. Fails the calling test when a name is not there.
std::string dawn_without(const std::string& library, const std::vector<std::string>& hidden,
                         const std::string& file_name);

}  // namespace warden::testing
