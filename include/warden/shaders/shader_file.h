/// @file
/// A shader file made ready for the compiler: plain WGSL as it is, WESL linked first, and the
/// compiler's diagnostics given in the files the user wrote. ShaderManager::load and hot
/// reload's worker both go through here, so a reload sees exactly what a load saw.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "warden/core/result.h"
#include "warden/shaders/shader_compiler.h"
#include "warden/shaders/wesl.h"

namespace warden::shaders {

/// What a shader file gave the compiler, and what came back.
struct CompiledFile {
  /// The module, or the diagnostics that say why there is none (the linker's or the compiler's,
  /// each at its place in the file the user wrote).
  CompiledShader shader{};
  /// What was compiled: the file's text, or the linked WGSL. A module's recipe.
  std::string wgsl{};
  /// Every file read, the root first: what hot reload watches for this module.
  std::vector<std::filesystem::path> files{};
  /// The features a WESL condition read: a change of one of them relinks the module.
  std::vector<std::string> features_used{};
  /// Set when the file was linked: where excerpts of its diagnostics come from.
  std::optional<WeslSourceMap> source_map{};

  /// Every diagnostic in the compiler's form, each with the excerpt of its own file.
  std::string format_diagnostics() const;
};

/// The WGSL `path` gives now: the file's text, or, when it uses WESL, the link of it and its
/// imports. Errors: the root file's (read_source's), or the linker's diagnostics, formatted.
Result<std::string> shader_file_wgsl(const std::filesystem::path& path, const WeslOptions& wesl);

/// Reads `path`, links it when it uses WESL (or is named .wesl), and compiles the result.
/// An Error only when the root file cannot be read or the compiler gave no answer; link and
/// compile errors are diagnostics of the result.
Result<CompiledFile> compile_shader_file(const ShaderCompiler& compiler, const std::filesystem::path& path,
                                         const WeslOptions& wesl);

}  // namespace warden::shaders
