#include "warden/pipelines/hot_reload.h"

#include <chrono>

#include <fmt/format.h>

#include "warden/shaders/shader_file.h"

namespace warden::pipelines {
namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

// What the worker is given: copies only; the worker never touches the registry or managers.
struct HotReloader::Job {
  uint64_t revision = 0;  // which change of the file: only the newest is published
  std::filesystem::path path;
  ShaderModuleHandle module;
  shaders::WeslOptions wesl;  // how to link it, as the manager said when the change was seen
};

struct HotReloader::Finished {
  Job job;
  ReloadReport report;
  gpu::Ref<WGPUShaderModule> module;  // null when the file did not compile
  std::string source;                  // what was compiled: the module's recipe once published
  std::vector<std::filesystem::path> files;  // what it was made from: watched once published
  std::vector<std::string> features_used;
  std::string diagnostics_text;  // when it did not compile: the diagnostics in compiler form, with excerpts
};

// Where the asynchronous builds of one reload land. Written by their callbacks, which run in
// ProcessEvents on the frame thread and hold it only weakly.
struct HotReloader::BuildResults {
  std::vector<std::pair<RenderPipelineHandle, gpu::Ref<WGPURenderPipeline>>> render;
  std::vector<std::pair<ComputePipelineHandle, gpu::Ref<WGPUComputePipeline>>> compute;
  size_t outstanding = 0;  // builds asked for and not yet delivered
  std::string error;       // the first build that failed
  void add(RenderPipelineHandle h, gpu::Ref<WGPURenderPipeline> p) { render.emplace_back(h, std::move(p)); }
  void add(ComputePipelineHandle h, gpu::Ref<WGPUComputePipeline> p) { compute.emplace_back(h, std::move(p)); }
};

// A compiled module whose pipelines are being built; published once none is outstanding.
struct HotReloader::Building {
  Job job;
  ReloadReport report;
  gpu::Ref<WGPUShaderModule> module;
  std::string source;
  std::vector<std::filesystem::path> files;
  std::vector<std::string> features_used;
  std::chrono::steady_clock::time_point requested;
  std::shared_ptr<BuildResults> results;
};

Result<std::unique_ptr<HotReloader>> HotReloader::create(const gpu::Context& context,
                                                         shaders::ShaderManager& shaders,
                                                         PipelineLibrary& pipelines) {
  WGPUDevice device = pipelines.registry().device();
  if (pipelines.registry().device_lost()) {
    return make_error(ErrorKind::DeviceFailed, MessageId::HotReloadDeviceLost,
                      "hot reload: the registry's device is lost; create the reloader for the device that "
                      "replaces it");
  }
  if (!context.procs().DeviceHasFeature(device, WGPUFeatureName_ImplicitDeviceSynchronization)) {
    return make_error(ErrorKind::Refused, MessageId::HotReloadNeedsImplicitSync,
                      "hot reload compiles on a worker thread: the device must be requested with "
                      "WGPUFeatureName_ImplicitDeviceSynchronization (DeviceOptions::required_features)");
  }
  auto watcher = shaders::FileWatcher::create();
  if (!watcher) return watcher.error();
  return std::unique_ptr<HotReloader>(
      new HotReloader(context, device, shaders, pipelines, std::move(watcher.value())));
}

HotReloader::HotReloader(const gpu::Context& context, WGPUDevice device, shaders::ShaderManager& shaders,
                         PipelineLibrary& pipelines, shaders::FileWatcher watcher)
    : context_(&context), device_(device), shaders_(&shaders), pipelines_(&pipelines), watcher_(std::move(watcher)) {
  worker_ = std::thread([this] { run_worker(); });
}

size_t HotReloader::ready() const {
  std::lock_guard lock(mutex_);
  return finished_.size() + building_.size();
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
    return make_error(ErrorKind::InvalidArgument, MessageId::HotReloadNotFromFile,
                      fmt::format("shader module (index {}, generation {}) was not loaded from a file; "
                                  "only ShaderManager::load modules can be watched",
                                  module.index(), module.generation()));
  }
  std::filesystem::path absolute = std::filesystem::absolute(*path).lexically_normal();
  const std::vector<std::filesystem::path>* files = shaders_->files_of(module);
  if (auto watched = watch_files(absolute, files ? *files : std::vector<std::filesystem::path>{*path}); !watched) {
    return watched;
  }
  watched_[absolute] = module;
  return {};
}

Result<void> HotReloader::watch_files(const std::filesystem::path& root, const std::vector<std::filesystem::path>& files) {
  std::vector<std::filesystem::path> absolute;
  for (const std::filesystem::path& file : files) {
    absolute.push_back(std::filesystem::absolute(file).lexically_normal());
    if (auto watched = watcher_.watch(absolute.back()); !watched) return watched;
  }
  for (auto& [file, roots] : dependents_) roots.erase(root);
  for (const std::filesystem::path& file : absolute) dependents_[file].insert(root);
  dependents_[root].insert(root);
  return {};
}

Result<void> HotReloader::reload(ShaderModuleHandle module) {
  for (const auto& [path, watched] : watched_) {
    if (watched == module) {
      start_job(path, module);
      return {};
    }
  }
  return make_error(ErrorKind::InvalidArgument, MessageId::HotReloadNotWatched,
                    fmt::format("shader module (index {}, generation {}) is not watched; watch() it first",
                                module.index(), module.generation()));
}

size_t HotReloader::in_flight() const { return in_flight_; }

void HotReloader::start_job(const std::filesystem::path& path, ShaderModuleHandle module) {
  Job job{++latest_revision_[path], path, module, shaders_->wesl_options()};
  {
    std::lock_guard lock(mutex_);
    jobs_.push_back(std::move(job));
  }
  ++in_flight_;
  wake_.notify_one();
}

std::vector<ReloadReport> HotReloader::poll() {
  // poll() reports to the registry's diagnostics in the middle of its loops; a sink that polls
  // again would publish or erase what the outer loop holds.
  if (polling_ || abandoned_) return {};
  polling_ = true;
  struct Done {
    bool& flag;
    ~Done() { flag = false; }
  } done{polling_};
  // Builds that finished since the last boundary deliver their pipelines now (non-blocking).
  context_->process_events();
  // Results are taken before new changes are handed out, so a job never completes in the poll
  // that started it; changes are handed out before anything is published, so a reload whose
  // file changed again since is recognised below, wherever it is.
  std::deque<Finished> finished;
  {
    std::lock_guard lock(mutex_);
    finished.swap(finished_);
  }
  // A changed file reloads every module made from it (a WESL module from each file it imports),
  // each once however many of its files changed.
  std::set<std::filesystem::path> roots;
  for (const std::filesystem::path& path : watcher_.poll()) {
    if (auto dependents = dependents_.find(path); dependents != dependents_.end()) {
      roots.insert(dependents->second.begin(), dependents->second.end());
    }
  }
  for (const std::filesystem::path& root : roots) {
    auto watched = watched_.find(root);
    if (watched != watched_.end()) start_job(root, watched->second);
  }
  std::vector<ReloadReport> reports;
  for (auto it = building_.begin(); it != building_.end();) {
    Building& b = **it;
    const bool superseded = b.job.revision != latest_revision_[b.job.path];
    if (!superseded && b.results->outstanding > 0) {
      ++it;
      continue;
    }
    if (superseded) {
      ++superseded_builds_;  // dropping it releases what was built; late callbacks release theirs
    } else {
      reports.push_back(publish(b));  // reports: a sink may abandon this reloader from here
    }
    --in_flight_;
    it = building_.erase(it);
    if (abandoned_) return reports;
  }
  for (Finished& f : finished) {
    if (abandoned_) return reports;
    // A newer change of the same file is on its way: this result is already out of date.
    if (f.job.revision != latest_revision_[f.job.path]) {
      --in_flight_;
      continue;
    }
    if (auto report = start_builds(f)) {
      --in_flight_;
      reports.push_back(std::move(*report));
    }
  }
  return reports;
}

ReloadReport HotReloader::keep_previous(const std::filesystem::path& path, ReloadReport report,
                                        const std::string& why) {
  pipelines_->registry().diagnostics().error(
      MessageId::HotReloadKeptPrevious,
      fmt::format("hot reload of {} kept the previous module and pipelines: {}", path.string(), why));
  return report;
}

std::optional<ReloadReport> HotReloader::start_builds(Finished& f) {
  ReloadReport report = std::move(f.report);
  if (!report.diagnostics.empty()) shaders_->record(report.diagnostics);
  if (!f.module) {
    // A file the failed source brought in (a new import that does not compile) is watched too,
    // beside the last good source's files: fixing it reloads the module.
    std::vector<std::filesystem::path> files = f.files;
    if (const auto* kept = shaders_->files_of(f.job.module)) files.insert(files.end(), kept->begin(), kept->end());
    (void)watch_files(f.job.path, files);
    // The compiler's (or the linker's) words with their excerpts, each from the file it is in.
    const std::string why = !report.error.empty()           ? report.error
                            : f.diagnostics_text.empty()     ? std::string("it did not compile")
                                                              : "it did not compile:\n" + f.diagnostics_text;
    return keep_previous(f.job.path, report, why);
  }
  if (!pipelines_->registry().is_alive(f.job.module)) {
    report.error = "its shader module handle was destroyed meanwhile";
    return keep_previous(f.job.path, report, report.error);
  }

  auto building = std::make_unique<Building>();
  auto results = std::make_shared<BuildResults>();
  std::weak_ptr<BuildResults> inbox = results;
  auto start = std::chrono::steady_clock::now();
  RegistrySource registry_source(pipelines_->registry());
  SubstituteSource source(registry_source, f.job.module, f.module.get());
  auto ask = [&](auto handle, const auto& description, auto build_async) {
    ++results->outstanding;
    auto asked = build_async(*context_, device_, source, description, [inbox, handle](auto built) {
      // A result for a reload that was dropped (superseded, or the reloader gone with its
      // device) finds no inbox: `built` releases its pipeline here.
      std::shared_ptr<BuildResults> results = inbox.lock();
      if (!results) return;
      --results->outstanding;
      if (built) {
        results->add(handle, std::move(built.value()));
      } else if (results->error.empty()) {
        results->error = built.error().message;
      }
    });
    if (!asked) {
      --results->outstanding;
      if (results->error.empty()) results->error = asked.error().message;
    }
  };
  for (RenderPipelineHandle handle : pipelines_->render_users_of(f.job.module)) {
    ask(handle, *pipelines_->description(handle), build_render_pipeline_async);
  }
  for (ComputePipelineHandle handle : pipelines_->compute_users_of(f.job.module)) {
    ask(handle, *pipelines_->description(handle), build_compute_pipeline_async);
  }
  report.request_ms = ms_since(start);
  // A description that did not translate fails the reload at once (builds already asked for
  // release their pipelines when they arrive to no inbox).
  if (!results->error.empty()) {
    report.error = results->error;
    return keep_previous(f.job.path, report, report.error);
  }
  building->job = std::move(f.job);
  building->report = std::move(report);
  building->module = std::move(f.module);
  building->source = std::move(f.source);
  building->files = std::move(f.files);
  building->features_used = std::move(f.features_used);
  building->requested = start;
  building->results = std::move(results);
  building_.push_back(std::move(building));
  return std::nullopt;
}

ReloadReport HotReloader::publish(Building& b) {
  ReloadReport report = std::move(b.report);
  report.build_ms = ms_since(b.requested);
  BuildResults& built = *b.results;
  // All or nothing: one pipeline that did not build keeps every previous one.
  if (!built.error.empty()) {
    report.error = built.error;
    return keep_previous(b.job.path, report, report.error);
  }
  if (!pipelines_->registry().is_alive(b.job.module)) {
    report.error = "its shader module handle was destroyed meanwhile";
    return keep_previous(b.job.path, report, report.error);
  }
  if (auto installed = shaders_->install(b.job.module, std::move(b.module), std::move(b.source)); !installed) {
    report.error = installed.error().message;
    return keep_previous(b.job.path, report, report.error);
  }
  if (abandoned_) return report;  // the install's reports reached a sink that lost the device
  // The new source may import other files than the old one did.
  if (auto watched = watch_files(b.job.path, b.files); !watched) report.error = watched.error().message;
  shaders_->update_sources(b.job.module, std::move(b.files), std::move(b.features_used));
  for (auto& [handle, pipeline] : built.render) {
    if (pipelines_->install(handle, std::move(pipeline))) ++report.pipelines_rebuilt;
  }
  for (auto& [handle, pipeline] : built.compute) {
    if (pipelines_->install(handle, std::move(pipeline))) ++report.pipelines_rebuilt;
  }
  report.applied = true;
  pipelines_->registry().diagnostics().info(
      MessageId::HotReloadApplied,
      fmt::format("hot reload of {}: module and {} pipeline(s) swapped in",
                                                 b.job.path.string(), report.pipelines_rebuilt));
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
  compile_options.completion = gpu::Completion::WorkerWait;
  shaders::ShaderCompiler compiler(*context_, device_, compile_options);

  auto start = std::chrono::steady_clock::now();
  auto compiled = shaders::compile_shader_file(compiler, job.path, job.wesl);
  f.report.compile_ms = ms_since(start);
  if (!compiled) {
    f.report.error = compiled.error().message;
  } else {
    if (!compiled->shader.ok()) f.diagnostics_text = compiled->format_diagnostics();
    f.report.diagnostics = std::move(compiled->shader.diagnostics);
    f.module = std::move(compiled->shader.module);
    f.source = std::move(compiled->wgsl);
    f.files = std::move(compiled->files);
    f.features_used = std::move(compiled->features_used);
  }
  f.job = std::move(job);
  return f;
}

}  // namespace warden::pipelines
