/// @file
/// Engine: the composition root. One object owns what an application's GPU work needs across
/// device generations: the instance, the DeviceController and its DawnProvider, one Registry that
/// outlives every device, the submission clock, the shader manager, the pipeline library and hot
/// reload. It wires the controller's hooks itself: a lost device is ended, the next one
/// requested (within the rebuild policy), every object the registry holds made again under the
/// same handle, and the application told through a few plain callbacks. The application holds
/// handles and never sees a device change except through those callbacks
/// (docs/device-lifecycle.md, "The Engine").
///
/// Threads: the frame thread (the one that created the engine, or adopt_frame_thread()'s) makes
/// the frame calls (begin_frame, submit, poll, wait_until_ready, mark_presented,
/// force_device_loss, load_shader, add_observer, remove_observer); the registry's creation, destroy, write, resolve
/// and touch run on any thread. The contract, and what a call from the wrong thread gets, are in
/// warden/core/frame_thread.h.
///
/// Where the application's code runs: inside poll(), in its tell phase, once the state it tells
/// of has settled (see poll() for the phases; ADR 0055). Whatever the library reports meanwhile
/// (a device ready, a device lost, a request answered) waits for the next poll(), also when Dawn
/// hears of it inside another call (a shader compiled in load_shader() settles its error
/// scope); force_device_loss() settles the state at once and tells nothing. Every callback and
/// observer may call the engine back (poll() included) except its destructor; from inside a
/// loss, wait_until_ready() is refused. The exceptions, where application code runs inside
/// another call:
///  - create(): the first on_ready (create() polls until the first device is ready);
///  - wait_until_ready(): it polls;
///  - a diagnostics sink (Diagnostics::set_sink): wherever something is reported;
///  - RegistryOptions::on_release: inside the registry call that lets the object go (destroy_*,
///    replace_*, recreate_*, and in poll() the retired releases and a loss's walk);
///  - a recipe's callbacks (a render bundle's record, a refill): inside the call that makes the
///    object (create_render_bundle, rerecord_render_bundle, and the rebuild in poll()).
#pragma once

#include <atomic>
#include <chrono>
#include <deque>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "warden/core/diagnostics.h"
#include "warden/core/frame_thread.h"
#include "warden/core/result.h"
#include "warden/core/submission_clock.h"
#include "warden/device/controller.h"
#include "warden/device/dawn_provider.h"
#include "warden/device/device_end_policy.h"
#include "warden/device/device_stash.h"
#include "warden/device/rebuild_policy.h"
#include "warden/engine/present_target.h"
#include "warden/engine/recovery_timings.h"
#include "warden/pipelines/hot_reload.h"
#include "warden/pipelines/pipeline_library.h"
#include "warden/resources/registry.h"
#include "warden/shaders/shader_manager.h"
#include "warden/gpu/context.h"

namespace warden::engine {

/// The category of the engine's own reports.
inline constexpr std::string_view kDiagnosticsCategory = "gfx.engine";

/// Where the Engine is: showing a device, recovering from a loss, or given up.
enum class EngineState {
  Ready,       ///< a device is shown: frames may be recorded
  Recovering,  ///< the device was lost; the next one is being requested and the registry rebuilt
  Failed,      ///< the rebuild policy gave up: message() says why; handles stay valid
};
/// The state's name, as messages print it.
const char* to_string(EngineState state);

/// What Engine::create sets up: the device to ask for, the library, the registry's sizes, the
/// rebuild policy, hot reload and the start-up bound.
struct EngineOptions {
  /// Backend, features and limits of every device the engine asks for, and the cache they share
  /// of what Dawn compiled (one of the engine's own when empty).
  gpu::DeviceOptions device{.label = "warden engine"};
  /// Which WebGPU library to load and how (gpu::Library::load).
  gpu::LibraryOptions library{};
  /// The registry's pool sizes and release hook.
  resources::RegistryOptions registry{};
  /// How many losses in how long before the engine stops rebuilding.
  device::RebuildPolicyOptions rebuild{};
  /// Hot reload of shader files loaded with load_shader(). Its feature
  /// (WGPUFeatureName_ImplicitDeviceSynchronization) is asked for when the adapter has it; without it,
  /// hot_reload_available() is false and loaded files are not watched.
  bool hot_reload = true;
  /// How load_shader() links WESL files: the packages they may import from and the values of
  /// the features their \@if and \@elif read (docs/shader-modules.md).
  shaders::WeslOptions shader_modules{};
  /// How long create() waits for the first device (start-up may block; frames never do).
  std::chrono::milliseconds startup_timeout{10000};
  /// The hang watchdog's bound: poll() calls the device hung when the oldest submission that
  /// has not finished made no progress for longer than this (measured on rebuild.now's clock
  /// from the first poll() that saw it outstanding, or from the last one that saw work finish).
  /// A hang ends the device as a loss does (see EngineCallbacks::on_lost). 0 turns the watchdog
  /// off: a submission that never finishes then freezes the picture for as long as the driver
  /// takes. A backend that runs the commands inside QueueSubmit (Dawn's GL) blocks there
  /// instead, where no watchdog can see it (docs/failure-policy.md, "Hangs: what the watchdog
  /// can and cannot see").
  std::chrono::milliseconds hang_limit{2000};
  /// Keep a spare device, asked for ahead of a loss, so that a recovery adopts it instead of
  /// waiting for a device request (88-109 ms of a recovery on a discrete GPU through Vulkan).
  /// The engine asks for it in the poll() after a device generation's first frame was
  /// submitted, and again after each recovery that used it. Costs a second device for the
  /// engine's life, and the poll() in which the library makes it blocks for as long as a device
  /// request takes (Dawn makes the device inside the call). A loss that takes every device of
  /// the adapter takes the spare too; the recovery then requests one as without it. ADR 0031.
  /// In the same poll, the engine makes on the spare the shader modules, layouts and pipelines
  /// the registry holds, and the recovery onto the spare takes them instead of making them
  /// (Registry::prepare_rebuild, ADR 0034).
  bool standby_device = false;
  /// With standby_device: the textures the engine also makes on the spare, in creation order,
  /// up to this many bytes (Registry::prepare_rebuild, ADR 0045). The recovery onto the spare
  /// then only writes their kept contents instead of making them; the price is a second copy
  /// of each while the spare waits. 0 (the default): none.
  uint64_t standby_texture_bytes = 0;
  /// With standby_device, where kept texture contents go back through staging buffers on the
  /// spare (resources::ContentsUpload::Staging: measured faster there, as on Vulkan): the kept
  /// contents the engine copies into staging buffers mapped on the spare after it prepares it, in
  /// creation order, up to this many bytes (Registry::stage_prepared_contents, ADR 0058). The
  /// recovery then only copies them into the new textures, unless they were written since. The
  /// price is host memory of that size while the spare waits, and the copies, a step a poll.
  /// 0: none, the recovery stages them itself.
  uint64_t standby_contents_bytes = uint64_t{1} << 30;
  /// The most kept contents one poll() stages on the spare (standby_contents_bytes): the frame
  /// that pays for it pays for this much (one subresource larger than it goes alone). Staging
  /// 358 MB in the one poll that prepared the spare took that poll from 90 to 330 ms on an H100.
  uint64_t standby_contents_step_bytes = uint64_t{16} << 20;
  /// A device that a loss ended waits, while the recovery is under way, until the first frame
  /// on its successor was submitted (or one poll() after that successor was shown, for a program
  /// that does not draw every poll), then goes in the next poll()'s let-go phase; it goes at once
  /// when no recovery is under way (a stop, a give-up, the engine's end). One device at most
  /// waits: a loss before the recovery's first frame ends the one held before. Ending a device on
  /// Vulkan waits for its queue and frees its memory, ~30 ms on a discrete GPU, which would
  /// otherwise sit between the loss and the first frame. The price: the lost device's memory is
  /// held while the new device's objects are made. ADR 0058.
  bool end_lost_device_after_first_frame = true;
};

/// An error the WebGPU implementation reported that no error scope caught (a render pass it
/// refused, a draw it would not record, a call an application made straight through webgpu.h),
/// named by the frame that was open when it was reported. Dawn refuses a frame's invalid commands
/// when submit() finishes its encoder: that frame is named. What Dawn reports on a recording
/// thread while a frame is open is that frame's too.
struct UncapturedError {
  WGPUErrorType type = WGPUErrorType_Validation;  ///< validation, out of memory, internal, ...
  std::string message{};                          ///< the implementation's words, as given
  /// The frame open when the error was reported (Frame::number()); 0: none was open.
  uint64_t frame = 0;
  std::string frame_label{};  ///< that frame's label (begin_frame), empty when it has none
  /// How many times the same error (type and words) was reported for the same frame since the
  /// last poll(): repeats inside one frame are told once, with their count.
  uint64_t count = 1;
};
/// "uncaptured validation error in frame 12 "label"" (or "... outside a frame"): how the
/// engine's reports name an error and the frame it came from.
std::string describe_origin(const UncapturedError& error);

/// What the engine tells the application. Any may be empty. They run in poll()'s tell phase (or
/// create() for the first on_ready) and may call the engine, except its destructor.
struct EngineCallbacks {
  /// A device is ready; device generation 1 is the first. Handles made before resolve again.
  std::function<void(uint64_t device_generation)> on_ready{};
  /// The device of `device_generation` is gone: the API's reason and message, as given (a loss
  /// force_device_loss() made: "device loss forced by force_device_loss: <why>"). A
  /// device the hang watchdog let go (EngineOptions::hang_limit) is told here too, with reason
  /// Unknown and a message that starts "hung: "; recovery then follows as for any loss.
  std::function<void(uint64_t device_generation, WGPUDeviceLostReason reason, std::string_view message)>
      on_lost{};
  /// After a rebuild, before on_ready: the buffers and textures whose contents are not what they
  /// were (resources::ContentsLost): ContentsSource::None, zeroed; those the GPU may have written
  /// (storage, render targets, readback), zeroed or, where listed in `*_with_kept_bytes`, holding
  /// the bytes last written through warden but not what the GPU wrote since; a buffer mapped at
  /// creation and not unmapped through unmap_buffer, zeroed. Produce them again: inside it (and
  /// inside on_rebuilt) device(), queue(), begin_frame() and submit() work on the new device.
  std::function<void(const resources::ContentsLost& lost)> on_contents_lost{};
  /// After every rebuild, before on_contents_lost: the whole report, including the objects the
  /// new device refused (now Failed) and the adopted or borrowed ones that await their owner's
  /// replace_* (warden has no recipe for them; until then they stay Lost).
  std::function<void(const resources::RebuildReport& report)> on_rebuilt{};
  /// The rebuild policy gave up: no more devices are requested. `why` holds the facts (which
  /// fault kind, how many, the last one's detail); the application words them for its users.
  std::function<void(const device::GiveUp& why)> on_failed{};
  /// A hot reload finished (applied or not).
  std::function<void(const pipelines::ReloadReport& report)> on_reload{};
  /// Errors no error scope caught, in the order reported, each once per frame it came from
  /// (UncapturedError::count says how often it repeated there). Set, it is the only place
  /// they are told (besides diagnostics()). Empty, the engine tells a person on stderr: each
  /// distinct error (type and words) once, with the frame it came from, then how often it
  /// repeated, when its repeats reach 10, 100, 1,000, ... and once more at the engine's end.
  /// Either way counters() counts them and the frames they came from (ADR 0050).
  std::function<void(const UncapturedError& error)> on_uncaptured_error{};
};

/// A part of the application that keeps GPU-derived state of its own (a tile cache) and must
/// drop it when the device goes and start again when the next one is ready.
class GenerationObserver {
 public:
  virtual ~GenerationObserver() = default;
  /// The device of `device_generation`, which was shown (device_ready was told of it), is gone;
  /// the registry has already let go of its objects. Told in poll()'s tell phase.
  virtual void device_lost(uint64_t device_generation) = 0;
  /// `device_generation` is ready: every registry object was made again under its handle.
  virtual void device_ready(uint64_t device_generation) = 0;
  /// The engine is being destroyed while this observer is still added: let go of everything
  /// made through the engine now; the engine is gone once this returns.
  virtual void engine_ending() {}
};

namespace detail {
class UncapturedErrors;
class Standby;
// What an engine's frames share with it: the library their encoders are released through (kept
// loaded while a frame lives, so a frame may outlive its engine), the registry Frame::use reads
// (null once the engine is being destroyed) and which frame is open.
struct FrameSlot {
  std::shared_ptr<const gpu::Library> library{};
  resources::Registry* registry = nullptr;
  uint64_t next_id = 1;
  // The open frame; 0: none. Atomic: an uncaptured error reported on a recording thread is
  // named by the frame open then.
  std::atomic<uint64_t> open_id{0};
  uint64_t open_device_generation = 0;  // the device generation it records for
};
}  // namespace detail

/// One frame's commands: an encoder on the device of one device generation. Submit it through the
/// engine; dropped unsubmitted, it is released. One frame of a device is open at a time (the
/// objects it touches are kept for the one submission being recorded). A frame may outlive its
/// engine: it then only releases its encoder.
///
/// The objects a pass records come from use(), never from Registry::resolve alone: use() also
/// keeps them for this frame's submission, and an object that cannot be used (its slot Lost or
/// Failed, a stale handle) makes the frame one to skip. The application checks once:
///
///     auto frame = engine->begin_frame();
///     if (!frame) return frame.error();             // no device now: skip, poll()
///     if (auto objects = frame->use(view, pipeline, group, vertices)) {
///       auto [v, p, g, b] = *objects;               // every one a live object of this device
///       ... record the pass with them ...
///     }                                             // else: record nothing with them
///     return engine->submit(std::move(*frame));     // EngineFrameDropped says which and why
class Frame {
 public:
  /// Moves the frame; `other` is left empty (its submit is refused: EngineFrameEmpty).
  ///@{
  Frame(Frame&& other) noexcept = default;
  Frame& operator=(Frame&& other) noexcept;
  ///@}
  /// Releases the encoder of a frame not submitted; the next frame may begin.
  ~Frame() { close(); }

  /// The frame's encoder; the frame keeps its reference. Record passes into it before
  /// Engine::submit. Null once moved from or submitted.
  WGPUCommandEncoder encoder() const { return encoder_.get(); }
  /// The device generation the encoder belongs to; submit refuses the frame once it was lost.
  uint64_t device_generation() const { return device_generation_; }
  /// The frame's number: 1 for the engine's first begin_frame, one more for each after it.
  /// Uncaptured errors name their frame by it (UncapturedError::frame).
  uint64_t number() const { return id_; }

  /// The live object behind `handle`, marked used by this frame's submission (Registry::touch),
  /// or an error, never a null object: the handle's (Registry::resolve: a stale handle, or a
  /// Lost or Failed slot, with its kind, label and why) or the frame's (moved from or submitted:
  /// EngineFrameEmpty; begun on a device since lost: EngineFrameFromLostDevice; its engine
  /// destroyed: EngineFrameEngineGone). The frame keeps its first error: Engine::submit then
  /// submits nothing and returns it (EngineFrameDropped).
  template <typename Tag>
  Result<resources::Registry::Object<Tag>> use(Handle<Tag> handle);
  /// Several objects at once, in the order of their handles, each as use(handle) gives it; the
  /// first error among them when any cannot be used (then none is marked used).
  template <typename... Tags>
    requires(sizeof...(Tags) > 1)
  Result<std::tuple<resources::Registry::Object<Tags>...>> use(Handle<Tags>... handles);
  /// The first error use() returned on this frame; null while every use succeeded.
  const Error* failure() const { return failure_.get(); }

 private:
  friend class Engine;
  Frame(std::shared_ptr<detail::FrameSlot> slot, gpu::Ref<WGPUCommandEncoder> encoder, uint64_t id,
        uint64_t device_generation)
      : slot_(std::move(slot)), encoder_(std::move(encoder)), id_(id), device_generation_(device_generation) {}
  // Releases the encoder and, if this is the open frame, lets the next one begin.
  void close();
  // use()'s precondition, checked on every call: an encoder, an engine, the same device.
  bool recording() const {
    return encoder_ && slot_->registry != nullptr && slot_->registry->device_generation() == device_generation_;
  }
  // Why the frame cannot record (kept as its failure), out of line.
  Error refuse_use();
  // Keeps `error` as the frame's failure if it is the first, and gives it back.
  Error keep_failure(const Error& error);
  std::shared_ptr<detail::FrameSlot> slot_;  // declared first: the library outlives the encoder
  gpu::Ref<WGPUCommandEncoder> encoder_;
  uint64_t id_ = 0;
  uint64_t device_generation_ = 0;
  std::unique_ptr<Error> failure_;  // the first use() that failed; submit drops the frame
};

template <typename Tag>
Result<resources::Registry::Object<Tag>> Frame::use(Handle<Tag> handle) {
  if (!recording()) [[unlikely]] return refuse_use();
  resources::Registry& registry = *slot_->registry;
  auto object = registry.resolve(handle);
  if (!object) [[unlikely]] return keep_failure(object.error());
  registry.touch(handle);
  return object;
}

template <typename... Tags>
  requires(sizeof...(Tags) > 1)
Result<std::tuple<resources::Registry::Object<Tags>...>> Frame::use(Handle<Tags>... handles) {
  if (!recording()) [[unlikely]] return refuse_use();
  resources::Registry& registry = *slot_->registry;
  std::tuple<resources::Registry::Object<Tags>...> objects{};
  Error failure;
  // Resolves one handle into its place in `objects`; false (and why, in `failure`) if it cannot.
  const auto take = [&](auto handle, auto& object) {
    auto resolved = registry.resolve(handle);
    if (!resolved) [[unlikely]] {
      failure = resolved.error();
      return false;
    }
    object = *resolved;
    return true;
  };
  const bool all = std::apply([&](auto&... object) { return (take(handles, object) && ...); }, objects);
  if (!all) [[unlikely]] return keep_failure(failure);
  (registry.touch(handles), ...);
  return objects;
}

/// What the engine has lived through since create(): losses, recoveries, rebuilt and refused
/// objects, hot reloads, uncaught errors.
struct EngineCounters {
  uint64_t device_losses = 0;   ///< losses of a device the engine was using
  uint64_t recoveries = 0;      ///< devices made ready after a loss
  /// Objects made again on new devices, over every rebuild (RebuildReport::rebuilt).
  uint64_t objects_rebuilt = 0;
  uint64_t rebuild_failures = 0;  ///< objects a new device refused (RebuildReport::failed)
  uint64_t hot_reloads = 0;       ///< reloads applied
  /// Errors no error scope caught, on any device (each also reported as a gfx.engine error at
  /// once); counted when poll() tells them (EngineCallbacks::on_uncaptured_error).
  uint64_t uncaptured_errors = 0;
  /// Frames at least one of those errors came from (UncapturedError::frame): frames whose
  /// commands the device refused in part or whole, though submit() succeeded. Counted when
  /// poll() tells their errors.
  uint64_t frames_with_errors = 0;
  /// The last of those frames (Frame::number()); 0: none yet.
  uint64_t last_frame_with_errors = 0;
  /// Frames submit() dropped because an object they use could not be used (Frame::use).
  uint64_t frames_dropped = 0;
  /// Devices the hang watchdog let go (EngineOptions::hang_limit); each is also a device loss.
  uint64_t hangs = 0;
  /// Of those, the hangs seen after the rebuild policy had given up: recorded by it, not scored
  /// (RebuildPolicy::unscored_hangs), and no device requested after them.
  uint64_t unscored_hangs = 0;
  /// Recoveries (and retries) that adopted the standby device instead of requesting one
  /// (EngineOptions::standby_device).
  uint64_t standby_takeovers = 0;
  /// Times the engine made its shader modules, layouts and pipelines on the standby device
  /// ahead of a loss (Registry::prepare_rebuild, ADR 0034): once per spare, and again after a
  /// replacement (a hot reload) released what was made.
  uint64_t standby_preparations = 0;
  /// Triangles those preparations drew on the spare to make the GL driver's draw-time code
  /// before a recovery needs it (Registry::last_rehearsal, ADR 0044); 0 on other backends.
  uint64_t standby_rehearsed_draws = 0;
  /// Times the engine measured, on a spare it prepared, which path writes kept texture contents
  /// faster (tiles::measure_upload_paths; ContentsUpload::Auto, ADR 0058).
  uint64_t standby_upload_measurements = 0;
  /// Objects recoveries took from what was prepared on the spare instead of making them
  /// (RebuildReport::prepared_taken; also counted in objects_rebuilt).
  uint64_t objects_prepared_taken = 0;
};

/// One object that owns a device through its losses: the loaded library, the device controller and
/// rebuild policy, the registry, the shader manager, the pipeline library and hot reload.
/// Frame calls on the frame thread, the registry's on any (warden/core/frame_thread.h).
class Engine {
 public:
  /// Loads the WebGPU library, asks for a device and waits (bounded by startup_timeout) until it
  /// is ready. Errors: LibraryMissing, NoAdapter / DeviceFailed with the device layer's message,
  /// Timeout.
  static Result<std::unique_ptr<Engine>> create(EngineOptions options = {}, EngineCallbacks callbacks = {});
  /// Tells observers still added that the engine ends (GenerationObserver::engine_ending),
  /// reports what the registry still holds (one gfx.resources warning, by label), then lets go
  /// of the device. No EngineCallbacks run; a diagnostics sink may, and every engine call it
  /// makes from here on is refused (EngineDestroying).
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  /// Ready, Recovering or Failed.
  EngineState state() const;
  /// The device layer's words for the current state, for a log or an error (why it failed,
  /// what was lost: device::describe); the facts are controller().reason().
  const std::string& message() const;
  /// The device generation the registry's objects belong to (or are being rebuilt for): 1 for
  /// the first device, one more for each device after it.
  uint64_t device_generation() const { return controller_->generation().number; }

  /// Where every layer under the engine reports, each message with its id (docs/messages.md):
  /// the instance's log (gfx.gpu), the device's states and ends (gfx.device), the
  /// registry (gfx.resources), shaders and pipelines, and its tile layers (gfx.tiles).
  ///@{
  Diagnostics& diagnostics() { return diagnostics_; }
  const Diagnostics& diagnostics() const { return diagnostics_; }
  ///@}

  /// The registry every GPU object of the application lives in; valid for the engine's life,
  /// through every loss.
  resources::Registry& registry() { return *registry_; }
  /// The shader manager, which compiles WGSL into registry modules with diagnostics.
  shaders::ShaderManager& shaders() { return *shaders_; }
  /// The pipeline library, which builds pipelines into the registry.
  pipelines::PipelineLibrary& pipelines() { return *pipelines_; }
  /// The context: the loaded library and its instance.
  const gpu::Context& context() const { return *context_; }
  /// The loaded library's proc table, for calling webgpu.h.
  const gpu::Procs& procs() const { return context_->procs(); }
  /// The current device and queue: null unless state() is Ready.
  ///@{
  WGPUDevice device() const;
  WGPUQueue queue() const;
  ///@}
  /// The adapter of the current (or last) device: its name and backend.
  const std::string& adapter_name() const { return adapter_name_; }
  /// The backend of the current (or last) device.
  WGPUBackendType backend() const { return backend_; }

  /// Reads and compiles a WGSL file into a module registered with its recipe, and watches the
  /// file when hot reload is available. A WESL file is linked first (EngineOptions::
  /// shader_modules), and every file it imports is watched too. Compile errors:
  /// ShaderManager::load's.
  Result<ShaderModuleHandle> load_shader(const std::filesystem::path& path);
  /// Sets the WESL feature values load_shader() links with. Every loaded module whose last link
  /// read a feature that changed is linked again and swapped in by hot reload, as an edit would
  /// be: in a later poll(), with its pipelines, or not at all (the previous ones stay) when it
  /// fails. Refused (engine.EngineShaderFeaturesNeedHotReload, nothing changed) when hot reload is
  /// not available; while there is no device, the values are kept and the modules are linked
  /// with them when the next device's hot reload starts.
  Result<void> set_shader_features(std::map<std::string, bool, std::less<>> features);
  /// True when loaded shader files are watched and reloaded (the device has the feature hot reload
  /// needs).
  bool hot_reload_available() const { return reloader_ != nullptr; }

  // ---- the frame -----------------------------------------------------------------------------
  /// An encoder on the current device. DeviceFailed ("device lost (device generation N), rebuilding",
  /// N the device generation, or the policy's words once it gave up) while there is no device:
  /// skip the frame and poll. Refused while another frame of this device is open (EngineFrameAlreadyOpen).
  /// `label` names the frame in the errors reported while it is open (UncapturedError).
  Result<Frame> begin_frame(std::string_view label = {});
  /// Finishes and submits the frame; its serial. `recorded`: command buffers finished from
  /// encoders of their own on the frame's device (device() while the frame is open), typically
  /// on recording threads that took their objects with Registry::resolve and touch; they are
  /// submitted after the frame's commands, in the same queue submission, and stay the caller's
  /// to release, submitted or not. DeviceFailed when the frame's device was lost
  /// since begin_frame (nothing is submitted: its commands name objects of a dead device);
  /// InvalidArgument for a frame moved from (EngineFrameEmpty). A frame whose Frame::use failed
  /// is dropped: nothing is submitted, its encoder is released, counters().frames_dropped grows,
  /// and the error is EngineFrameDropped, of the failure's kind, with its words (which handle,
  /// its label, why). Skip that frame; the next one may use the object again once it is back.
  Result<Serial> submit(Frame frame, std::span<const WGPUCommandBuffer> recorded = {});
  /// The frame boundary, never blocking, and the only call that lets go of objects after a loss
  /// or tells the application anything. Its phases, in order (ADR 0055):
  ///  1. hear: what the library reported since the last poll (device requests answered, losses)
  ///     moves the device controller; the state settles, nothing of the application runs;
  ///  2. let go: a device generation that ended lets go of its objects (the registry's walk),
  ///     its hot-reload work and its queue, and the devices ended since are ended;
  ///  3. tell: the application hears what settled, in the order it settled: a loss (observers'
  ///     device_lost, then on_lost), a rebuild (on_rebuilt, on_contents_lost; the device is
  ///     shown after them), a device ready (observers' device_ready, then on_ready), the rebuild
  ///     policy giving up (on_failed);
  ///  4. retire: releases whose submissions finished;
  ///  5. reload: finished hot reloads are published and told (on_reload);
  ///  6. watch: the hang watchdog (a hang ends the device as a loss does), then let go and tell;
  ///  7. ask: the spare device and what is made on it, the next device after a loss (within
  ///     the rebuild policy), then let go and tell;
  ///  8. errors: the uncaptured errors reported since the last poll (on_uncaptured_error, or
  ///     stderr).
  void poll();
  /// poll() until the state is Ready (or Failed), at most `timeout`. Blocking, counted: tests,
  /// tools and start-up only. Error: the policy's message when Failed (EngineGaveUp, at once,
  /// inside on_failed too), Timeout otherwise; EngineWaitInsideCallback from inside a callback
  /// while no device is ready and the engine has not given up (the next device is asked for
  /// only once the callback returns).
  Result<void> wait_until_ready(std::chrono::milliseconds timeout);

  // ---- faults --------------------------------------------------------------------------------
  /// The current device presented to a surface (a Swapchain's first present): from now on it is
  /// released, never destroyed, when it ends (DeviceController::mark_presented). Refused
  /// while there is no device.
  Result<void> mark_presented();

  /// Makes the current device lost now (wgpuDeviceForceLoss): what a driver reset would do. The
  /// state settles in the call, as for any loss: state() is Recovering (Failed when this loss
  /// made the rebuild policy give up), controller().state() Lost, device() null. Nothing is let
  /// go of and no application code runs here: the registry's objects go, and the application
  /// hears (observers, on_lost), in the next poll(), so an object a recording thread resolved
  /// for this frame stays valid until then (docs/threads.md). Allowed while a rebuild runs (from
  /// a refill, a render bundle's record): that device ends, and the next one starts over.
  /// on_lost and the device layer's report say "device loss forced by force_device_loss: <why>".
  Result<void> force_device_loss(std::string_view why = "forced by the application");

  /// A window the engine presents to across its device generations (PresentTarget, ADR 0056):
  /// a new surface for each device it shows, attached before observers and on_ready hear of
  /// it, detached at a loss before the registry lets go, the device marked presented at its
  /// first present. Attached here at once when a device is shown, so its format and
  /// capabilities are known when this returns; otherwise at the next device. Errors: the
  /// engine is being destroyed; the window could not be attached to the shown device (no
  /// surface, no format: PresentTargetAttachFailed, with the surface's words). `driver`: null
  /// for the library's own calls (tests pass their own). A frame-thread call.
  Result<std::unique_ptr<PresentTarget>> present_to(present::X11WindowSource window, uint32_t width, uint32_t height,
                                                    present::SwapchainOptions options = {},
                                                    present::SurfaceDriver* driver = nullptr);

  /// Observers are told, in the order added, after the registry on a loss and after the
  /// rebuild on ready. An observer must be removed before it is destroyed; one removed by
  /// another observer's call is not called after its removal. Frame-thread calls: from another
  /// thread each is refused (core.WrongThread, reported to diagnostics) and changes nothing.
  void add_observer(GenerationObserver& observer);
  /// Stops telling `observer`; one not added is ignored.
  void remove_observer(GenerationObserver& observer);
  /// Makes the calling thread the frame thread of the engine and its registry (it was the
  /// thread that created the engine). No frame call may run meanwhile. Refused on GL and GLES
  /// (EngineAdoptFrameThreadOnGl): Dawn keeps the device's context on the thread that made it,
  /// and a submission from another thread loses the device; the role stays where it was.
  Result<void> adopt_frame_thread();
  /// The frame thread's role, which objects built on the engine share (a TileLayer's frame
  /// calls check it).
  const FrameThread& frame_thread() const { return frame_thread_; }

  /// What the engine has lived through so far.
  const EngineCounters& counters() const { return counters_; }
  /// The device controller: the current device's state, reason and token, for tools and tests.
  const device::DeviceController& controller() const { return *controller_; }
  /// The rebuild policy: how many losses it has counted and whether it gave up. The mutable one
  /// is for a Swapchain on the engine's device, which scores its surface failures there
  /// (SwapchainOptions::rebuild): once they give up, a hang is recorded, not scored.
  ///@{
  const device::RebuildPolicy& rebuild_policy() const { return policy_; }
  device::RebuildPolicy& rebuild_policy() { return policy_; }
  ///@}
  /// The rebuild report of the latest device generation (empty for the first).
  const resources::RebuildReport& last_rebuild() const { return last_rebuild_; }
  /// The last recovery that reached its first frame (submit() on the new device), by part;
  /// empty until one has.
  const std::optional<RecoveryTimings>& last_recovery() const { return last_recovery_; }
  /// Where the standby device waits for the next loss (EngineOptions::standby_device):
  /// holds() is true while one does.
  const device::DeviceStash& standby() const;
  /// True once a standby device waits with everything the engine prepares on it, each step in
  /// a poll of its own: its objects (Registry::prepare_rebuild), the upload paths measured on it,
  /// and the kept contents staged on it within standby_contents_bytes (ADR 0058). False with no
  /// spare, and again when it is prepared anew (a reload released what was made on it).
  bool standby_prepared() const;
  /// Devices the controller ended whose end (Dawn's release or destroy) waits for poll()'s
  /// let-go phase: during a recovery, the lost device until the first frame on its successor
  /// (EngineOptions::end_lost_device_after_first_frame, ADR 0058).
  size_t devices_waiting_to_end() const;

  class QueuedProvider;  ///< the provider seam that holds what Dawn reports until poll()

 private:
  struct ProviderInbox;
  struct Observing {
    GenerationObserver* observer{};
    uint64_t added{};  // tells apart an observer removed and another added at the same address
  };
  // What the engine did with the newest device generation. The generation itself (its number,
  // token, device and phase) is the controller's record (DeviceController::generation()), read,
  // never copied.
  struct DeviceGeneration {
    bool shown = false;         // made Ready: the application hears of its loss
    bool submitted = false;     // a frame was submitted on it (the standby is asked for after)
  };
  // What the application hears, queued where the state settles and told in poll()'s tell phase
  // in the order queued, through one dispatch (tell_one); defined in engine.cpp.
  struct Told;
  // The application's code runs in an InCallback scope: wait_until_ready() knows it is inside one.
  struct InCallback;
  template <typename Tell>
  void tell_observers(Tell&& tell);
  void drop_reloader();
  Engine(std::unique_ptr<gpu::Context> context, EngineOptions options, EngineCallbacks callbacks);
  device::ControllerHooks hooks();
  // The controller's hooks. None runs application code: each settles what the engine keeps and
  // queues what the application hears.
  void prepare(const device::DeviceView& view);
  void shown(const device::DeviceView& view);
  // The one place a device generation ends for the engine, whatever ended it (a loss the API
  // reported, force_device_loss, the hang watchdog, a failed start): the controller has
  // settled the state; this starts the recovery's clock and queues what the application hears.
  void ended(const device::StateReason& reason);
  // poll()'s phases after hearing (engine.h, poll): let go of what an ended generation held,
  // then tell the application what settled.
  void settle();
  void let_go();
  void tell();
  void tell_one(Told told);
  // True while the generation the registry belongs to is the controller's current one.
  bool generation_lives() const;
  // Present targets: the engine attaches them to each device it shows and detaches them at a
  // loss; a target's first present on a device marks it presented.
  friend class PresentTarget;
  void forget_present_target(PresentTarget& target);
  void device_presented();
  // poll(): counts and tells the uncaptured errors reported since the last poll.
  void tell_uncaptured_errors();
  // poll(): the reloader's finished work, told through on_reload.
  void poll_reloader();
  // The watchdog (poll()): lets go of a shown device whose oldest submission did not finish.
  void watch_for_hang();
  // Makes the registry's modules, layouts and pipelines on a waiting spare (poll()); in the
  // polls after, measures the upload paths on it, then stages kept contents on it a step a poll.
  void prepare_standby();
  void start_hot_reload();
  Error no_device_error(std::string_view call) const;
  bool has_device() const;

  Diagnostics diagnostics_;  // first in, last out: every member below reports into it
  // Uncaptured errors until poll() tells them, and what stderr was told; before the provider,
  // whose uncaptured-error callback reports into it.
  std::unique_ptr<detail::UncapturedErrors> uncaptured_;
  FrameThread frame_thread_;
  std::unique_ptr<gpu::Context> context_;
  EngineOptions options_;
  EngineCallbacks callbacks_;
  std::unique_ptr<device::DawnProvider> dawn_;
  std::shared_ptr<ProviderInbox> inbox_;  // shared with Dawn's receivers (QueuedProvider), which may outlive the engine
  std::unique_ptr<QueuedProvider> provider_;
  device::RebuildPolicy policy_;
  device::DeviceEndPolicy end_policy_;
  // The spare device (EngineOptions::standby_device; standby.h); emptied before the provider goes.
  std::unique_ptr<detail::Standby> standby_;
  std::unique_ptr<device::DeviceController> controller_;
  std::unique_ptr<resources::Registry> registry_;
  std::unique_ptr<shaders::ShaderManager> shaders_;
  std::unique_ptr<pipelines::PipelineLibrary> pipelines_;
  std::unique_ptr<pipelines::HotReloader> reloader_;
  // Reloaders abandoned inside their own poll() (a loss there): destroyed once it has returned.
  std::vector<std::unique_ptr<pipelines::HotReloader>> abandoned_reloaders_;
  uint32_t reloader_polls_ = 0;  // HotReloader::poll() calls in progress
  // Counts reloaders let go of: a poll's reports are delivered only while it has not changed
  // (a pointer compare could meet a new reloader at the old one's address).
  uint64_t reloaders_dropped_ = 0;
  std::vector<ShaderModuleHandle> watched_;  // loaded from files: watched on every device
  std::vector<Observing> observers_;
  std::vector<PresentTarget*> targets_;  // each removes itself when destroyed
  uint64_t observers_added_ = 0;
  std::shared_ptr<detail::FrameSlot> frames_;
  const char* innermost_callback_ = nullptr;  // the application callback running, if any
  bool telling_rebuild_ = false;   // on_rebuilt or on_contents_lost runs: the new device records
  bool destroying_ = false;  // the destructor has started
  gpu::Ref<WGPUQueue> queue_;
  DeviceGeneration current_;      // the newest device prepared (number 0: none yet)
  uint64_t ended_through_ = 0;    // the newest device generation ended() has seen end
  bool failure_told_ = false;     // on_failed queued since the last device was shown
  std::unique_ptr<std::deque<Told>> told_;  // what the application has yet to hear, in order
  std::string adapter_name_;
  WGPUBackendType backend_ = WGPUBackendType_Undefined;
  resources::RebuildReport last_rebuild_;
  // The recovery under way: its loss, its device, its rebuild; published at its first frame.
  RecoveryTimings recovering_{};
  std::chrono::steady_clock::time_point lost_at_{};
  std::chrono::steady_clock::time_point rebuilt_at_{};
  std::chrono::steady_clock::time_point ready_at_{};
  bool timing_recovery_ = false;  // a loss was let go of; its first frame not yet submitted
  // EngineOptions::end_lost_device_after_first_frame: whether the devices ended so far wait.
  bool device_ends_wait() const;
  void measure_upload_on(WGPUDevice spare);
  uint64_t measured_preparation_ = 0;  // the standby preparation whose spare was last measured
  uint64_t standby_prepared_ = 0;      // the standby preparation all of whose steps are done
  void end_devices();
  uint64_t polls_ = 0;            // poll() calls begun
  uint64_t shown_in_poll_ = 0;    // the poll() in which the newest device was shown
  std::optional<RecoveryTimings> last_recovery_;
  EngineCounters counters_;
  std::unique_ptr<device::HangWatch> hang_watch_;  // null: hang_limit 0, no watchdog
};

}  // namespace warden::engine
