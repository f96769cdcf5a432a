/// @file
/// Compiling WGSL into a shader module, with every diagnostic the compiler reports.
#pragma once

#include <chrono>
#include <filesystem>
#include <string_view>
#include <vector>

#include "warden/core/result.h"
#include "warden/shaders/diagnostic.h"
#include "warden/gpu/error_scope.h"
#include "warden/gpu/context.h"

namespace warden::shaders {

/// Where diagnostics come from (docs/adr/0004). Dawn implements compilation info, which gives
/// one structured message per diagnostic; the error-scope message is the fallback for
/// implementations that do not (its text is parsed for the place).
enum class DiagnosticSource { CompilationInfo, ErrorScope };

/// How a ShaderCompiler gets its diagnostics and waits for them.
struct CompilerOptions {
  /// Compilation info (Dawn) or the error-scope message.
  DiagnosticSource source = DiagnosticSource::CompilationInfo;
  /// Bound on the wait for results that did not arrive at the first ProcessEvents.
  std::chrono::milliseconds timeout{10000};
  /// WorkerWait when compiling on a thread other than the one that drives the instance (the
  /// device must then have WGPUFeatureName_ImplicitDeviceSynchronization).
  gpu::Completion completion = gpu::Completion::ProcessEvents;
};

/// A compiled module and what the compiler said about it.
struct CompiledShader {
  /// Null exactly when `diagnostics` holds an error: a module that failed is released here,
  /// never handed out beside its errors.
  gpu::Ref<WGPUShaderModule> module{};
  std::vector<ShaderDiagnostic> diagnostics{};  ///< errors, or warnings/info beside a module

  /// True when there is a module (no error).
  bool ok() const { return static_cast<bool>(module); }
};

/// Compiles WGSL into shader modules on one device, returning every diagnostic with its place; the
/// module is the caller's. Holds no state between compiles.
class ShaderCompiler {
 public:
  /// Compiles on `device`; `context` and `device` must outlive the compiler.
  ShaderCompiler(const gpu::Context& context, WGPUDevice device, CompilerOptions options = {});

  /// Compiles `source`, labelling the module and every diagnostic with `path`. An Error only
  /// when nothing could be asked of the compiler or no answer came: bytes that are not UTF-8
  /// (InvalidArgument naming path and byte offset; nothing is sent to the implementation) or a
  /// timeout. Compile errors are diagnostics in the result, not an Error.
  Result<CompiledShader> compile(std::string_view path, std::string_view source) const;

  /// Reads the file (read_source_file's errors) and compiles it.
  Result<CompiledShader> compile_file(const std::filesystem::path& path) const;

  /// The context the compiler calls through.
  const gpu::Context& context() const { return *context_; }
  /// The device modules are made on.
  WGPUDevice device() const { return device_; }

 private:
  const gpu::Context* context_;
  WGPUDevice device_;
  CompilerOptions options_;
};

}  // namespace warden::shaders
