#include "warden/shaders/shader_compiler.h"

#include <memory>

#include <fmt/format.h>

#include "warden/gpu/callback.h"
#include "warden/gpu/error_scope.h"
#include "warden/shaders/error_scope_message.h"
#include "warden/shaders/shader_features.h"
#include "warden/shaders/source_file.h"
#include "warden/gpu/objects.h"

namespace warden::shaders {
namespace {

struct CompilationOutcome {
  bool done = false;
  WGPUCompilationInfoRequestStatus status = WGPUCompilationInfoRequestStatus_CallbackCancelled;
  std::vector<ShaderDiagnostic> diagnostics;
};

Severity severity_from(WGPUCompilationMessageType type) {
  switch (type) {
    case WGPUCompilationMessageType_Error: return Severity::Error;
    case WGPUCompilationMessageType_Warning: return Severity::Warning;
    case WGPUCompilationMessageType_Info: return Severity::Info;
    default: break;  // a type this header does not name reads as an error
  }
  return Severity::Error;
}

struct PendingCompilationInfo {
  WGPUFuture future{};
  std::shared_ptr<CompilationOutcome> outcome;
};

PendingCompilationInfo request_compilation_info(const gpu::Procs& procs, WGPUShaderModule module,
                                                std::string path, gpu::Completion completion) {
  auto outcome = std::make_shared<CompilationOutcome>();
  auto on_info = [outcome, path = std::move(path)](WGPUCompilationInfoRequestStatus status,
                                                   const WGPUCompilationInfo* info) {
    CompilationOutcome& o = *outcome;
    o.status = status;
    if (status == WGPUCompilationInfoRequestStatus_Success && info != nullptr) {
      for (size_t i = 0; i < info->messageCount; ++i) {
        const WGPUCompilationMessage& m = info->messages[i];
        o.diagnostics.push_back(ShaderDiagnostic{severity_from(m.type), path,
                                                 static_cast<uint32_t>(m.lineNum),
                                                 static_cast<uint32_t>(m.linePos),
                                                 std::string(gpu::to_std(m.message))});
      }
    }
    o.done = true;
  };
  WGPUFuture future = procs.ShaderModuleGetCompilationInfo(
      module, gpu::once_callback<WGPUCompilationInfoCallbackInfo>(gpu::callback_mode(completion), std::move(on_info)));
  return PendingCompilationInfo{future, std::move(outcome)};
}

// Dawn's "extension 'f16' is not allowed in the current environment" does not say that a device
// feature would allow it, nor which: a note right after the error does.
void note_missing_features(const gpu::Procs& procs, WGPUDevice device, std::vector<ShaderDiagnostic>& diagnostics) {
  for (size_t i = 0; i < diagnostics.size(); ++i) {
    auto extension = extension_not_allowed(diagnostics[i].message);
    if (!extension) continue;
    auto needed = find_shader_extension(*extension);
    if (!needed || procs.DeviceHasFeature(device, needed->value) != 0) continue;
    ShaderDiagnostic note = diagnostics[i];
    note.severity = Severity::Info;
    note.id = MessageId::ShaderNeedsDeviceFeature;
    // Named by the extension alone: one directive may enable several (`enable f16, subgroups;`).
    note.message = fmt::format("extension '{}' needs the device feature '{}', which this device was not created with",
                               needed->extension, needed->feature);
    diagnostics.insert(diagnostics.begin() + static_cast<std::ptrdiff_t>(++i), std::move(note));
  }
}

}  // namespace

ShaderCompiler::ShaderCompiler(const gpu::Context& context, WGPUDevice device, CompilerOptions options)
    : context_(&context), device_(device), options_(options) {}

Result<CompiledShader> ShaderCompiler::compile(std::string_view path, std::string_view source) const {
  if (auto valid = check_utf8(path, source); !valid) return valid.error();
  const gpu::Procs& procs = context_->procs();

  gpu::push_validation_scope(procs, device_);
  WGPUShaderModule created = nullptr;
  try {
    created = gpu::create_wgsl_module(procs, device_, source, path);
  } catch (...) {
    // Out of memory inside the compiler throws through the device call (shader check goes on
    // with its next file): the scope pushed for this module is popped, not left to catch the
    // next call's errors.
    gpu::pop_scope(procs, device_, options_.completion);
    throw;
  }
  gpu::Ref<WGPUShaderModule> module(&procs, created);
  // The scope is popped in every mode: it keeps a compile error from reaching the device's
  // uncaptured-error callback, and it is the only report when compilation info is not used.
  gpu::PendingScope scope = gpu::pop_scope(procs, device_, options_.completion);

  CompiledShader compiled;
  bool from_compilation_info = false;
  if (options_.source == DiagnosticSource::CompilationInfo && module) {
    PendingCompilationInfo info = request_compilation_info(procs, module.get(), std::string(path), options_.completion);
    if (auto settled = gpu::settle(*context_, info.future, info.outcome->done, options_.timeout, options_.completion); !settled) {
      return make_error(settled.error().kind, settled.error().id,
                        fmt::format("{}: no compilation info: {}", path, settled.error().message));
    }
    if (info.outcome->status == WGPUCompilationInfoRequestStatus_Success) {
      compiled.diagnostics = std::move(info.outcome->diagnostics);
      from_compilation_info = true;
    }
  }
  if (auto settled = gpu::settle(*context_, scope.future, scope.outcome->done, options_.timeout, options_.completion); !settled) {
    return make_error(settled.error().kind, settled.error().id,
                      fmt::format("{}: error scope did not pop: {}", path, settled.error().message));
  }
  // A scope error that compilation info did not explain (compilation info said no error, or
  // was not asked) is reported from the scope's own text.
  if (scope.outcome->has_error() && !(from_compilation_info && has_error(compiled.diagnostics))) {
    auto parsed = parse_error_scope_message(path, scope.outcome->message);
    compiled.diagnostics.insert(compiled.diagnostics.end(), parsed.begin(), parsed.end());
  }
  note_missing_features(procs, device_, compiled.diagnostics);
  if (!module && !has_error(compiled.diagnostics)) {
    compiled.diagnostics.push_back(ShaderDiagnostic{Severity::Error, std::string(path), 0, 0,
                                                    "the implementation returned no shader module",
                                                    MessageId::ShaderModuleMissing});
  }
  if (!has_error(compiled.diagnostics)) compiled.module = std::move(module);
  return compiled;
}

Result<CompiledShader> ShaderCompiler::compile_file(const std::filesystem::path& path) const {
  auto source = read_source_file(path);
  if (!source) return source.error();
  return compile(path.string(), *source);
}

}  // namespace warden::shaders
