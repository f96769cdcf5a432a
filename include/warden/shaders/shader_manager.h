/// @file
/// ShaderManager: shader modules compiled from files (or text) and kept in the Registry under
/// handles, with the diagnostics of their last compile. Every module is registered with its
/// recipe (WGSL text, label, file), so a rebuild after a device loss compiles it again on the
/// new device; hot reload swaps a recompiled module in under the same handle (install).
/// Compiles go to the registry's current device.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "warden/core/result.h"
#include "warden/resources/registry.h"
#include "warden/shaders/shader_compiler.h"
#include "warden/shaders/shader_file.h"
#include "warden/shaders/wesl.h"

namespace warden::shaders {

/// The Diagnostics category the manager reports compiler messages under.
inline constexpr std::string_view kDiagnosticsCategory = "gfx.shaders";

/// Shader modules compiled from files or text and kept in the registry with their source, so a
/// device loss or a hot reload can compile them again. Frame thread only.
class ShaderManager {
 public:
  /// Frame-thread object: it changes the registry, which is not thread-safe.
  ShaderManager(const gpu::Context& context, resources::Registry& registry, CompilerOptions options = {});

  /// Compiles `source` and registers the module under a new handle labelled `path`. A compile
  /// error gives no handle: an Error (Compilation) whose message is the diagnostics in compiler
  /// form; the diagnostics themselves are in last_diagnostics(). Warnings beside a module are
  /// kept there too. Every diagnostic is also summarised in the registry's Diagnostics
  /// (category gfx.shaders). Bytes that are not UTF-8: InvalidArgument, nothing compiled.
  Result<ShaderModuleHandle> compile(std::string path, std::string_view source);
  /// Reads `path` and compiles it; the manager remembers the file so hot reload can watch it.
  /// A file that uses WESL (or is named .wesl) is linked first with wesl_options(): its recipe is
  /// the linked WGSL, the diagnostics are in the files the user wrote, and hot reload watches
  /// every file it imports (files_of).
  Result<ShaderModuleHandle> load(const std::filesystem::path& path);

  /// The packages WESL files may import from; links made from now on use them.
  void set_wesl_packages(std::vector<WeslPackage> packages) { wesl_.packages = std::move(packages); }
  /// Sets WESL feature values. Returns the loaded modules whose last link read a feature whose
  /// value changed (or appeared, or went): the ones to link again (HotReloader::reload).
  std::vector<ShaderModuleHandle> set_wesl_features(std::map<std::string, bool, std::less<>> features);
  /// How loads link WESL: packages and feature values (a copy goes to hot reload's worker).
  const WeslOptions& wesl_options() const { return wesl_; }
  /// Every file a loaded module was made from, the root first; null for handles not made by
  /// load().
  const std::vector<std::filesystem::path>* files_of(ShaderModuleHandle handle) const;
  /// After a reload: the files and features the module's new source was made from.
  void update_sources(ShaderModuleHandle handle, std::vector<std::filesystem::path> files,
                      std::vector<std::string> features_used);
  /// The WGSL a loaded module's file gives now (linked again when it is WESL), to tell an edit
  /// made while nothing watched it. Errors: shader_file_wgsl's; InvalidArgument for a handle
  /// not made by load().
  Result<std::string> current_wgsl(ShaderModuleHandle handle) const;

  /// Puts a module compiled elsewhere (hot reload's worker) from `source` under `handle`, which
  /// must be one this manager made; `source` becomes its recipe. The old module goes when its
  /// last submission retired.
  Result<void> install(ShaderModuleHandle handle, gpu::Ref<WGPUShaderModule> module, std::string source);
  /// Records diagnostics of a compile done elsewhere (hot reload) and reports them.
  void record(const std::vector<ShaderDiagnostic>& diagnostics);

  /// The diagnostics of the latest compile (or record()), errors and warnings alike.
  const std::vector<ShaderDiagnostic>& last_diagnostics() const { return last_diagnostics_; }
  /// The file a handle was loaded from; null for handles not made by load().
  const std::filesystem::path* path_of(ShaderModuleHandle handle) const;

  /// A compiler for the registry's current device.
  ShaderCompiler compiler() const { return ShaderCompiler(*context_, registry_->device(), options_); }
  /// The registry the modules live in.
  resources::Registry& registry() { return *registry_; }

 private:
  // Records a compile's diagnostics and registers its module with the compiled text as its
  // recipe; a compile error gives the diagnostics in compiler form, each with its own excerpt.
  Result<ShaderModuleHandle> register_compiled(CompiledFile compiled, std::string label, std::string file);
  // An error that left nothing to compile (unreadable file, no answer): reported, returned.
  Error refused(Error error);
  const gpu::Context* context_;
  CompilerOptions options_;
  resources::Registry* registry_;
  std::vector<ShaderDiagnostic> last_diagnostics_;
  // What a loaded module was made from.
  struct LoadedFile {
    std::filesystem::path path;                // the file load() was given
    std::vector<std::filesystem::path> files;  // it and every file it imports
    std::vector<std::string> features_used;
  };
  std::unordered_map<ShaderModuleHandle, LoadedFile> files_;
  WeslOptions wesl_;
};

}  // namespace warden::shaders
