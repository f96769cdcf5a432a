/// @file
/// Diagnostics read out of a validation error-scope message, for implementations that do not
/// offer compilation info (wgpu-native 29 aborts in wgpuShaderModuleGetCompilationInfo).
#pragma once

#include <string_view>
#include <vector>

#include "warden/shaders/diagnostic.h"

namespace warden::shaders {

/// Two report forms are understood:
///  - Dawn/Tint: every diagnostic is a line "...:LINE:COL error: MESSAGE" (the file part is
///    empty in Dawn's messages); one diagnostic per such line, the message being the rest of it.
///  - naga: one report locates itself with "wgsl:LINE:COLUMN"; one diagnostic at the first such
///    place whose message is the whole report (naga already folds its spans into it).
/// A message in neither form becomes one error without a place (line 0) carrying the message.
/// An empty message yields no diagnostics.
std::vector<ShaderDiagnostic> parse_error_scope_message(std::string_view path, std::string_view message);

}  // namespace warden::shaders
