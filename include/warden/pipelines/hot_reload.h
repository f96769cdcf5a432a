// HotReloader: shader files rewritten on disk are read and compiled on a worker thread (off the
// frame path); at the next frame boundary (poll) every pipeline that uses the module is rebuilt
// from its description with the new module, and module and pipelines are swapped in under the
// same handles, all or nothing. A failed recompile or rebuild changes nothing: the previous
// module and pipelines keep running, and the failure is reported. Pipelines are built on the
// frame thread because the GL backend ties its context to that thread: a pipeline built on the
// worker drew nothing there (docs/adr/0004-shader-diagnostics-and-hot-reload.md).
#pragma once

#include <condition_variable>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "warden/pipelines/pipeline_library.h"
#include "warden/shaders/file_watcher.h"
#include "warden/shaders/shader_manager.h"

namespace warden::pipelines {

// What became of one reload.
struct ReloadReport {
  std::filesystem::path path;
  ShaderModuleHandle module;
  bool applied = false;
  // The compiler's diagnostics for the new source (the errors, when it did not compile).
  std::vector<shaders::ShaderDiagnostic> diagnostics;
  std::string error;  // an unreadable file or a pipeline that did not build, named
  size_t pipelines_rebuilt = 0;
  double compile_ms = 0;  // read + compile, on the worker thread
  double build_ms = 0;    // pipeline rebuilds, on the frame thread inside poll()
};

class HotReloader {
 public:
  // `device` must have gpu::kFeatureImplicitDeviceSynchronization: compiles run on a worker
  // thread while the frame thread goes on using the device. The reloader must
  // be destroyed before the registry, the managers and the device it was given.
  static Result<std::unique_ptr<HotReloader>> create(const gpu::Context& context, gpu::Device device,
                                                     shaders::ShaderManager& shaders, PipelineLibrary& pipelines);
  ~HotReloader();
  HotReloader(const HotReloader&) = delete;
  HotReloader& operator=(const HotReloader&) = delete;

  // Watches the file `module` was loaded from (ShaderManager::load).
  Result<void> watch(ShaderModuleHandle module);

  // The frame boundary; makes no blocking wait. Hands every changed watched file to the worker,
  // then, for each module the worker finished, rebuilds its pipelines and swaps them in (or
  // reports why not). A result overtaken by a newer change of the same file is dropped unseen
  // (its generation is older than the file's).
  std::vector<ReloadReport> poll();

  // Reloads handed to the worker and not yet swapped in or reported.
  size_t in_flight() const;
  // Of those, the ones the worker has finished: the next poll() swaps them in or reports them.
  size_t ready() const;

 private:
  struct Job;
  struct Finished;
  HotReloader(const gpu::Context& context, gpu::Device device, shaders::ShaderManager& shaders,
              PipelineLibrary& pipelines, shaders::FileWatcher watcher);
  void start_job(const std::filesystem::path& path, ShaderModuleHandle module);
  ReloadReport finish(Finished& finished);
  void run_worker();
  Finished work(Job job) const;

  const gpu::Context* context_;
  gpu::Device device_;
  shaders::ShaderManager* shaders_;
  PipelineLibrary* pipelines_;
  shaders::FileWatcher watcher_;
  std::map<std::filesystem::path, ShaderModuleHandle> watched_;
  std::map<std::filesystem::path, uint64_t> latest_generation_;  // per file, frame thread only
  size_t in_flight_ = 0;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> jobs_;
  std::deque<Finished> finished_;
  bool stopping_ = false;
  std::thread worker_;
};

}  // namespace warden::pipelines
