// Compile time of a typical shader and of a 1 MB source through ShaderCompiler (Null backend:
// the compiler's own cost, no driver). docs/adr/0004 quotes these.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include <fmt/format.h>

#include "warden/shaders/shader_compiler.h"

namespace {

using namespace warden;

constexpr const char* kTypical = R"(
struct Uniforms { view_proj : mat4x4<f32>, tint : vec4<f32> };
@group(0) @binding(0) var<uniform> u : Uniforms;
@group(0) @binding(1) var atlas : texture_2d<f32>;
@group(0) @binding(2) var atlas_sampler : sampler;
struct VertexOut { @builtin(position) position : vec4<f32>, @location(0) uv : vec2<f32> };
@vertex
fn vs(@location(0) position : vec3<f32>, @location(1) uv : vec2<f32>) -> VertexOut {
  var out : VertexOut;
  out.position = u.view_proj * vec4<f32>(position, 1.0);
  out.uv = uv;
  return out;
}
@fragment
fn fs(in : VertexOut) -> @location(0) vec4<f32> {
  return textureSample(atlas, atlas_sampler, in.uv) * u.tint;
}
)";

std::string megabyte_source() {
  std::string source;
  for (int i = 0; source.size() < (1u << 20); ++i) {
    source += fmt::format("fn helper_{0}(x : f32) -> f32 {{\n  let y = x * {0}.0 + 1.5;\n  return y * y;\n}}\n", i);
  }
  return source;
}

struct NullCompiler {
  std::unique_ptr<gpu::Context> context;
  gpu::OpenedDevice gpu;
  std::unique_ptr<shaders::ShaderCompiler> compiler;
};

NullCompiler* null_compiler() {
  static NullCompiler* made = [] {
    auto* c = new NullCompiler;  // lives to the end of the process (Dawn's statics outlive it)
    auto context = gpu::Context::create();
    if (!context) return c;
    c->context = std::move(context.value());
    auto opened = c->context->open_device(gpu::BackendChoice::Null, {"shader bench", {}});
    if (!opened) return c;
    c->gpu = std::move(opened.value());
    c->compiler = std::make_unique<shaders::ShaderCompiler>(*c->context, c->gpu.device.get());
    return c;
  }();
  return made;
}

void compile_loop(benchmark::State& state, const std::string& source) {
  NullCompiler* c = null_compiler();
  if (!c->compiler) {
    state.SkipWithError("no Null device");
    return;
  }
  for (auto _ : state) {
    auto compiled = c->compiler->compile("bench.wgsl", source);
    if (!compiled || !compiled->ok()) {
      state.SkipWithError("compile failed");
      return;
    }
    benchmark::DoNotOptimize(compiled->module.get());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * source.size()));
}

void shader_compile_typical(benchmark::State& state) { compile_loop(state, kTypical); }
BENCHMARK(shader_compile_typical)->Unit(benchmark::kMicrosecond);

void shader_compile_1mb(benchmark::State& state) {
  static const std::string source = megabyte_source();
  compile_loop(state, source);
}
BENCHMARK(shader_compile_1mb)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
