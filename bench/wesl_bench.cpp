// The WESL linker on a 50-module package (docs/shader-modules.md), through Dawn's compiler on
// the Null backend: the link alone, link + compile the first time, and link + compile after a
// one-file edit (the work hot reload does for an edit to a shared module). The package lives in
// memory, so no file system time is counted.
//   wesl_link_50_modules            the link alone
//   wesl_link_compile_50_modules    link + compile
//   wesl_relink_after_edit          one module edited, then link + compile again
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "warden/shaders/shader_compiler.h"
#include "warden/shaders/wesl.h"

namespace wesl_bench {

using namespace warden;

constexpr int kModules = 50;

// Module k imports the two before it, declares a struct, a constant and three functions, two of
// which the root reaches; the root imports the last four.
std::map<std::string, std::string> package_files() {
  std::map<std::string, std::string> files;
  for (int k = 0; k < kModules; ++k) {
    std::string text;
    for (int j = k - 2; j < k; ++j) {
      if (j >= 0) text += fmt::format("import package::lib::m{0:02}::{{shade_{0}, Sample{0}}};\n", j);
    }
    text += fmt::format("struct Sample{0} {{ value : f32, weight : f32 }}\n", k);
    text += fmt::format("const scale_{0} = {0}.5;\n", k);
    std::string below = "x";
    for (int j = k - 2; j < k; ++j) {
      if (j >= 0) below += fmt::format(" + shade_{0}(Sample{0}(x, 1.0))", j);
    }
    text += fmt::format(
        "fn shade_{0}(s : Sample{0}) -> f32 {{\n  let x = s.value * s.weight;\n  return helper_{0}({1}) * scale_{0};\n}}\n"
        "fn helper_{0}(x : f32) -> f32 {{\n  var acc = 0.0;\n  for (var i = 0; i < 4; i++) {{ acc += x * f32(i); }}\n"
        "  return acc;\n}}\n"
        "fn unused_{0}() -> f32 {{ return scale_{0}; }}\n",
        k, below);
    files[fmt::format("pkg/lib/m{:02}.wesl", k)] = text;
  }
  std::string root;
  for (int k = kModules - 4; k < kModules; ++k) root += fmt::format("import package::lib::m{0:02}::{{shade_{0}, Sample{0}}};\n", k);
  root += "@compute @workgroup_size(1) fn main() {\n  var total = 0.0;\n";
  for (int k = kModules - 4; k < kModules; ++k) root += fmt::format("  total += shade_{0}(Sample{0}(1.0, 2.0));\n", k);
  root += "  _ = total;\n}\n";
  files["pkg/main.wesl"] = root;
  return files;
}

struct Bench {
  std::map<std::string, std::string> files = package_files();
  shaders::WeslOptions options;
  std::unique_ptr<gpu::Context> context;
  gpu::OpenedDevice gpu;
  std::unique_ptr<shaders::ShaderCompiler> compiler;

  Bench() {
    options.read_file = [this](const std::filesystem::path& path) -> Result<shaders::SourceText> {
      auto found = files.find(path.generic_string());
      if (found == files.end()) return make_error(ErrorKind::NotFound, MessageId::SourceFileNotFound, path.string());
      return shaders::SourceText{found->second, false};
    };
    auto made = gpu::Context::create();
    if (!made) return;
    context = std::move(made.value());
    auto opened = context->open_device(gpu::BackendChoice::Null, {"wesl bench", {}});
    if (!opened) return;
    gpu = std::move(opened.value());
    compiler = std::make_unique<shaders::ShaderCompiler>(*context, gpu.device.get());
  }
  static Bench& get() {
    static Bench* bench = new Bench;  // lives to the end of the process (Dawn's statics outlive it)
    return *bench;
  }

  // Links (and compiles, when asked); false when either failed.
  bool run(bool compile) {
    auto linked = shaders::link_wesl("pkg/main.wesl", options);
    if (!linked || !linked->ok()) return false;
    if (!compile) {
      benchmark::DoNotOptimize(linked->wgsl.data());
      return true;
    }
    auto compiled = compiler->compile("pkg/main.wesl", linked->wgsl);
    return compiled && compiled->ok();
  }
};

void link_loop(benchmark::State& state, bool compile, bool edit) {
  Bench& bench = Bench::get();
  if (!bench.compiler) {
    state.SkipWithError("no Null device");
    return;
  }
  const std::string edited = fmt::format("pkg/lib/m{:02}.wesl", kModules / 2);
  const std::string original = bench.files[edited];
  int n = 0;
  for (auto _ : state) {
    if (edit) {
      state.PauseTiming();
      // A one-file edit: the constant's value changes, every module above it relinks.
      std::string text = original;
      const std::string constant = fmt::format("const scale_{} = ", kModules / 2);
      const size_t at = text.find(constant) + constant.size();
      text.replace(at, text.find(';', at) - at, fmt::format("{}.25", ++n % 100));
      bench.files[edited] = std::move(text);
      state.ResumeTiming();
    }
    if (!bench.run(compile)) {
      state.SkipWithError("link or compile failed");
      return;
    }
  }
  bench.files[edited] = original;
}

void wesl_link_50_modules(benchmark::State& state) { link_loop(state, false, false); }
BENCHMARK(wesl_link_50_modules)->Unit(benchmark::kMicrosecond);
void wesl_link_compile_50_modules(benchmark::State& state) { link_loop(state, true, false); }
BENCHMARK(wesl_link_compile_50_modules)->Unit(benchmark::kMicrosecond);
void wesl_relink_after_edit(benchmark::State& state) { link_loop(state, true, true); }
BENCHMARK(wesl_relink_after_edit)->Unit(benchmark::kMicrosecond);

}  // namespace wesl_bench
