#include "warden/pipelines/hot_reload.h"

#include <chrono>

#include <fmt/format.h>

#include "warden/shaders/source_file.h"

namespace warden::pipelines {
namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

// What the worker is given: copies only; the worker never touches the registry or managers.
struct HotReloader::Job {
  uint64_t generation = 0;
  std::filesystem::path path;
  ShaderModuleHandle module;
};

struct HotReloader::Finished {
  Job job;
  ReloadReport report;
  gpu::Ref<gpu::ShaderModule> module;  // null when the file did not compile
};

Result<std::unique_ptr<HotReloader>> HotReloader::create(const gpu::Context& context, gpu::Device device,
                                                         shaders::ShaderManager& shaders,
                                                         PipelineLibrary& pipelines) {
  if (!context.procs().DeviceHasFeature(device, gpu::kFeatureImplicitDeviceSynchronization)) {
    return make_error(ErrorKind::Refused,
                      "hot reload compiles on a worker thread: the device must be requested with "
                      "kFeatureImplicitDeviceSynchronization (DeviceOptions::required_features)");
  }
  auto watcher = shaders::FileWatcher::create();
  if (!watcher) return watcher.error();
  return std::unique_ptr<HotReloader>(
      new HotReloader(context, device, shaders, pipelines, std::move(watcher.value())));
}

HotReloader::HotReloader(const gpu::Context& context, gpu::Device device, shaders::ShaderManager& shaders,
                         PipelineLibrary& pipelines, shaders::FileWatcher watcher)
    : context_(&context), device_(device), shaders_(&shaders), pipelines_(&pipelines), watcher_(std::move(watcher)) {
  worker_ = std::thread([this] { run_worker(); });
}

HotReloader::~HotReloader() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  worker_.join();
  // Unfinished jobs and unseen results release their references here, on the frame thread.
}

Result<void> HotReloader::watch(ShaderModuleHandle module) {
  const std::filesystem::path* path = shaders_->path_of(module);
  if (path == nullptr) {
    return make_error(ErrorKind::InvalidArgument,
                      fmt::format("shader module (index {}, generation {}) was not loaded from a file; "
                                  "only ShaderManager::load modules can be watched",
                                  module.index(), module.generation()));
  }
  std::filesystem::path absolute = std::filesystem::absolute(*path).lexically_normal();
  if (auto watched = watcher_.watch(absolute); !watched) return watched;
  watched_[absolute] = module;
  return {};
}

size_t HotReloader::in_flight() const { return in_flight_; }

size_t HotReloader::ready() const {
  std::lock_guard lock(mutex_);
  return finished_.size();
}

void HotReloader::start_job(const std::filesystem::path& path, ShaderModuleHandle module) {
  Job job{++latest_generation_[path], path, module};
  {
    std::lock_guard lock(mutex_);
    jobs_.push_back(std::move(job));
  }
  ++in_flight_;
  wake_.notify_one();
}

std::vector<ReloadReport> HotReloader::poll() {
  // Results are taken before new changes are handed out, so a job never completes in the poll
  // that started it, and a result whose file changed again since is recognised below.
  std::deque<Finished> finished;
  {
    std::lock_guard lock(mutex_);
    finished.swap(finished_);
  }
  for (const std::filesystem::path& path : watcher_.poll()) {
    auto watched = watched_.find(path);
    if (watched != watched_.end()) start_job(path, watched->second);
  }
  std::vector<ReloadReport> reports;
  for (Finished& f : finished) {
    --in_flight_;
    // A newer change of the same file is on its way: this result is already out of date.
    if (f.job.generation != latest_generation_[f.job.path]) continue;
    reports.push_back(finish(f));
  }
  return reports;
}

ReloadReport HotReloader::finish(Finished& f) {
  ReloadReport report = std::move(f.report);
  Diagnostics& diagnostics = pipelines_->registry().diagnostics();
  if (!report.diagnostics.empty()) shaders_->record(report.diagnostics);
  auto keep_previous = [&](const std::string& why) {
    diagnostics.error(shaders::kDiagnosticsCategory,
                      fmt::format("hot reload of {} kept the previous module and pipelines: {}", f.job.path.string(), why));
    return report;
  };
  if (!f.module) return keep_previous(report.error.empty() ? "it did not compile" : report.error);
  if (!pipelines_->registry().is_alive(f.job.module)) {
    report.error = "its shader module handle was destroyed meanwhile";
    return keep_previous(report.error);
  }

  // Every pipeline is built before anything is swapped in: all or nothing.
  auto start = std::chrono::steady_clock::now();
  RegistrySource registry_source(pipelines_->registry());
  SubstituteSource source(registry_source, f.job.module, f.module.get());
  std::vector<std::pair<RenderPipelineHandle, gpu::Ref<gpu::RenderPipeline>>> render;
  std::vector<std::pair<ComputePipelineHandle, gpu::Ref<gpu::ComputePipeline>>> compute;
  for (RenderPipelineHandle handle : pipelines_->render_users_of(f.job.module)) {
    auto built = build_render_pipeline(*context_, device_, source, *pipelines_->description(handle));
    if (!built) {
      report.error = built.error().message;
      break;
    }
    render.emplace_back(handle, std::move(built.value()));
  }
  for (ComputePipelineHandle handle : pipelines_->compute_users_of(f.job.module)) {
    if (!report.error.empty()) break;
    auto built = build_compute_pipeline(*context_, device_, source, *pipelines_->description(handle));
    if (!built) {
      report.error = built.error().message;
      break;
    }
    compute.emplace_back(handle, std::move(built.value()));
  }
  report.build_ms = ms_since(start);
  if (!report.error.empty()) return keep_previous(report.error);

  if (auto installed = shaders_->install(f.job.module, std::move(f.module)); !installed) {
    report.error = installed.error().message;
    return keep_previous(report.error);
  }
  for (auto& [handle, pipeline] : render) {
    if (pipelines_->install(handle, std::move(pipeline))) ++report.pipelines_rebuilt;
  }
  for (auto& [handle, pipeline] : compute) {
    if (pipelines_->install(handle, std::move(pipeline))) ++report.pipelines_rebuilt;
  }
  report.applied = true;
  diagnostics.info(shaders::kDiagnosticsCategory,
                   fmt::format("hot reload of {}: module and {} pipeline(s) swapped in", f.job.path.string(),
                               report.pipelines_rebuilt));
  return report;
}

void HotReloader::run_worker() {
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (stopping_) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    Finished finished = work(std::move(job));
    std::lock_guard lock(mutex_);
    finished_.push_back(std::move(finished));
  }
}

// Worker thread: reads and compiles with WaitAnyOnly callbacks collected by its own bounded
// waits, so nothing it asks for completes on the frame thread.
HotReloader::Finished HotReloader::work(Job job) const {
  Finished f;
  f.report.path = job.path;
  f.report.module = job.module;
  shaders::CompilerOptions compile_options;
  compile_options.completion = shaders::Completion::WorkerWait;
  shaders::ShaderCompiler compiler(*context_, device_, compile_options);

  auto start = std::chrono::steady_clock::now();
  auto compiled = compiler.compile_file(job.path);
  f.report.compile_ms = ms_since(start);
  if (!compiled) {
    f.report.error = compiled.error().message;
  } else {
    f.report.diagnostics = std::move(compiled->diagnostics);
    f.module = std::move(compiled->module);
  }
  f.job = std::move(job);
  return f;
}

}  // namespace warden::pipelines
