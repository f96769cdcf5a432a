/// @file
/// HotReloader: shader files rewritten on disk are read and compiled on a worker thread (off the
/// frame path); at the next frame boundary (poll) every pipeline that uses the module is asked
/// for from its description with the new module through the asynchronous pipeline-creation
/// calls, and at the first frame boundary that finds all of them built, module and pipelines are
/// swapped in under the same handles, all or nothing. A failed recompile or rebuild changes
/// nothing: the previous module and pipelines keep running, and the failure is reported.
/// Where the backend builds on the calling thread anyway (GL), that cost still lands on the
/// frame that asks (docs/adr/0004-shader-diagnostics-and-hot-reload.md, with numbers).
#pragma once

#include <condition_variable>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "warden/pipelines/pipeline_library.h"
#include "warden/shaders/file_watcher.h"
#include "warden/shaders/shader_manager.h"

namespace warden::pipelines {

/// What became of one reload.
struct ReloadReport {
  /// The file the module was loaded from (for a WESL module, its root: the file that changed
  /// may be one it imports).
  std::filesystem::path path{};
  /// The module loaded from it.
  ShaderModuleHandle module{};
  /// True when the new module and every pipeline using it were swapped in; false leaves the old
  /// ones in place.
  bool applied = false;
  /// The compiler's diagnostics for the new source (the errors, when it did not compile).
  std::vector<shaders::ShaderDiagnostic> diagnostics{};
  std::string error{};  ///< an unreadable file or a pipeline that did not build, named
  /// How many pipelines were built anew for it.
  size_t pipelines_rebuilt = 0;
  double compile_ms = 0;  ///< read + compile, on the worker thread
  double request_ms = 0;  ///< asking for the asynchronous builds, inside poll() on the frame thread
  double build_ms = 0;    ///< from that request to the frame boundary that found them all built
};

/// Watches the files shader modules were loaded from and, when one changes, compiles it and
/// rebuilds the pipelines that use it off the frame thread; poll() swaps the results in together,
/// or nothing (a ReloadReport says which).
class HotReloader {
 public:
  /// A reloader serves the registry's current device, which must have
  /// WGPUFeatureName_ImplicitDeviceSynchronization: compiles run on a worker thread while the frame
  /// thread goes on using the device. The reloader must be destroyed before the registry, the
  /// managers and that device; after a device loss, destroy it (work of the lost device is
  /// released, never published) and create one for the new device (the Engine does both).
  static Result<std::unique_ptr<HotReloader>> create(const gpu::Context& context, shaders::ShaderManager& shaders,
                                                     PipelineLibrary& pipelines);
  ~HotReloader();
  HotReloader(const HotReloader&) = delete;
  HotReloader& operator=(const HotReloader&) = delete;

  /// Watches the file `module` was loaded from (ShaderManager::load) and, for a WESL module,
  /// every file it imports: an edit to any of them reloads the module.
  Result<void> watch(ShaderModuleHandle module);
  /// Reloads a watched module's file now, changed or not (an edit saved while the device was
  /// lost, which no watcher of the new device saw; WESL feature values that changed). It goes
  /// through poll() like any change, linked with the manager's WESL options of that moment.
  Result<void> reload(ShaderModuleHandle module);

  /// The frame boundary; makes no blocking wait. In order: drains finished callbacks
  /// (ProcessEvents, non-blocking); hands every changed watched file to the worker; swaps in
  /// every reload whose pipelines are all built (or reports why not); asks for the pipelines of
  /// every module the worker finished. A reload overtaken by a newer change of the same file --
  /// still compiling, or with its pipelines half built -- is dropped unseen, its pipelines
  /// released (its revision is older than the file's). A swap is therefore never published in
  /// the poll that asked for its pipelines. A poll called from inside one (a diagnostics sink
  /// that hears a reload reported) does nothing and returns no report: the outer one goes on.
  std::vector<ReloadReport> poll();
  /// Its device is gone (lost from inside poll(): a sink that heard a reload forced the loss).
  /// The poll in progress publishes nothing more and returns what it reported so far; later
  /// polls do nothing. The owner destroys the reloader once that poll has returned.
  void abandon() { abandoned_ = true; }

  /// Reloads handed to the worker and not yet swapped in, reported or dropped.
  size_t in_flight() const;
  /// Of those, the ones the worker has finished (waiting for poll(), or for their pipelines).
  size_t ready() const;
  /// Of those, the ones whose pipelines are being built.
  size_t building() const { return building_.size(); }
  /// Reloads whose pipelines were built, or were being built, for a file changed again since:
  /// released, never published.
  uint64_t superseded_builds() const { return superseded_builds_; }

 private:
  struct Job;
  struct Finished;
  struct Building;
  struct BuildResults;
  HotReloader(const gpu::Context& context, WGPUDevice device, shaders::ShaderManager& shaders,
              PipelineLibrary& pipelines, shaders::FileWatcher watcher);
  void start_job(const std::filesystem::path& path, ShaderModuleHandle module);
  // Watches `files` for the module loaded from `root`, in place of what it watched before.
  Result<void> watch_files(const std::filesystem::path& root, const std::vector<std::filesystem::path>& files);
  // Asks for the pipelines of a compiled module; a report when there is nothing to wait for.
  std::optional<ReloadReport> start_builds(Finished& finished);
  ReloadReport publish(Building& building);
  ReloadReport keep_previous(const std::filesystem::path& path, ReloadReport report, const std::string& why);
  void run_worker();
  Finished work(Job job) const;

  const gpu::Context* context_;
  WGPUDevice device_;
  shaders::ShaderManager* shaders_;
  PipelineLibrary* pipelines_;
  shaders::FileWatcher watcher_;
  std::map<std::filesystem::path, ShaderModuleHandle> watched_;  // root file -> its module
  // Every watched file -> the root files of the modules made from it.
  std::map<std::filesystem::path, std::set<std::filesystem::path>> dependents_;
  // Per file: its newest change's revision (counted from 1); frame thread only.
  std::map<std::filesystem::path, uint64_t> latest_revision_;
  size_t in_flight_ = 0;
  std::vector<std::unique_ptr<Building>> building_;  // frame thread only
  uint64_t superseded_builds_ = 0;
  bool polling_ = false;  // poll() is running: a nested call returns at once
  bool abandoned_ = false;  // abandon() was called: nothing more is published

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> jobs_;
  std::deque<Finished> finished_;
  bool stopping_ = false;
  std::thread worker_;
};

}  // namespace warden::pipelines
