#include "warden/engine/engine.h"

#include <algorithm>
#include <deque>
#include <thread>
#include <type_traits>
#include <utility>
#include <variant>

#include <fmt/format.h>

#include "engine/standby.h"
#include "engine/uncaptured_errors.h"
#include "warden/shaders/source_file.h"
#include "warden/tiles/upload_ring.h"
#include "warden/gpu/names.h"
#include "warden/core/enum_names.h"

namespace warden::engine {

namespace {

double ms_between(std::chrono::steady_clock::time_point from, std::chrono::steady_clock::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

}  // namespace

constexpr EnumName<EngineState> kEngineStateNames[] = {
    {EngineState::Ready, "ready"},
    {EngineState::Recovering, "recovering"},
    {EngineState::Failed, "failed"},
};
const char* to_string(EngineState state) { return name_in(kEngineStateNames, state); }

// What Dawn reports to the provider waits here until poll()'s hear phase, so the controller, and
// through it the engine's news, hears of it only there: each event (provider.h) with the receiver
// it goes to. Dawn may report wherever the library processes events, and after the engine is
// gone (a device request in flight at its destruction): the reports hold the inbox, never the
// engine.
struct Engine::ProviderInbox {
  struct Addressed {
    std::shared_ptr<device::ProviderEvents> to;
    device::ProviderEvent event;
  };
  uint32_t delivering = 0;  // poll() calls in progress: what arrives meanwhile is heard at once
  bool closed = false;      // the engine is being destroyed: what arrives is dropped
  std::deque<Addressed> waiting;

  void post(Addressed addressed) {
    if (closed) return;  // a device or adapter it brings stays the DawnProvider's, which releases it
    if (delivering > 0) return addressed.to->receive(std::move(addressed.event));
    waiting.push_back(std::move(addressed));
  }
  void deliver_waiting() {
    while (!waiting.empty() && !closed) {
      Addressed next = std::move(waiting.front());
      waiting.pop_front();
      next.to->receive(std::move(next.event));
    }
  }
};

// The provider the controller talks to: the DawnProvider, with every answer routed through the
// inbox, and every end of a device held until poll()'s let-go phase (Engine::let_go): a device
// the controller ends outside poll() (force_device_loss settles the state at once) is ended
// where releases belong, never under a recording thread (docs/threads.md).
class Engine::QueuedProvider final : public device::DeviceProvider {
 public:
  QueuedProvider(device::DawnProvider& dawn, std::shared_ptr<ProviderInbox> inbox)
      : dawn_(dawn), inbox_(std::move(inbox)) {}
  Result<void> check_api() override { return dawn_.check_api(); }
  void request_adapter(device::RequestId request, std::shared_ptr<device::ProviderEvents> to) override {
    dawn_.request_adapter(request, std::make_shared<ToInbox>(inbox_, std::move(to)));
  }
  void request_device(device::RequestId request, const device::ProvidedAdapter& adapter, const std::string& label,
                      std::shared_ptr<device::ProviderEvents> to) override {
    dawn_.request_device(request, adapter, label, std::make_shared<ToInbox>(inbox_, std::move(to)));
  }
  void release_adapter(device::AdapterId adapter) override { dawn_.release_adapter(adapter); }
  void destroy_device(device::DeviceId device) override { ending_.push_back({device, Ending::Destroy}); }
  void release_device(device::DeviceId device) override { ending_.push_back({device, Ending::Release}); }
  void end_hung_device(device::DeviceId device, device::DeviceEnd end) override {
    ending_.push_back({device, end == device::DeviceEnd::Destroy ? Ending::HungDestroy : Ending::HungRelease});
  }
  // How many devices wait to be ended.
  size_t waiting() const { return ending_.size(); }
  // The let-go phase: the devices ended since the last one, in the order they were ended, but
  // for the newest `keep` (a lost device held until its successor's first frame).
  void end_devices(size_t keep = 0) {
    while (ending_.size() > keep) {
      const Pending next = ending_.front();
      ending_.pop_front();
      switch (next.how) {
        case Ending::Destroy: dawn_.destroy_device(next.device); break;
        case Ending::Release: dawn_.release_device(next.device); break;
        case Ending::HungDestroy: dawn_.end_hung_device(next.device, device::DeviceEnd::Destroy); break;
        case Ending::HungRelease: dawn_.end_hung_device(next.device, device::DeviceEnd::Release); break;
      }
    }
  }

 private:
  // Dawn's receiver for one request: what it reports goes to the inbox, addressed to `to`.
  struct ToInbox final : device::ProviderEvents {
    ToInbox(std::shared_ptr<ProviderInbox> inbox, std::shared_ptr<device::ProviderEvents> to)
        : inbox(std::move(inbox)), to(std::move(to)) {}
    void receive(device::ProviderEvent event) override { inbox->post({to, std::move(event)}); }
    std::shared_ptr<ProviderInbox> inbox;
    std::shared_ptr<device::ProviderEvents> to;
  };
  enum class Ending { Destroy, Release, HungDestroy, HungRelease };
  struct Pending {
    device::DeviceId device;
    Ending how;
  };
  device::DawnProvider& dawn_;
  std::shared_ptr<ProviderInbox> inbox_;
  std::deque<Pending> ending_;
};

// What the application hears, one kind of news each. Queued where the state settles (the
// controller's hooks, which run no application code), told in poll()'s tell phase in the order
// queued (Engine::tell_one).
struct LossNews {
  uint64_t device_generation = 0;
  device::LossReport loss{};
};
struct RebuiltNews {
  uint64_t device_generation = 0;
  device::Token token{};
  resources::RebuildReport report{};
};
struct ReadyNews {
  uint64_t device_generation = 0;
};
struct GaveUpNews {
  device::GiveUp why{};
};
struct Engine::Told {
  std::variant<LossNews, RebuiltNews, ReadyNews, GaveUpNews> news;
};

// Marks the application's code running: a callback, or an observer's call.
struct Engine::InCallback {
  InCallback(Engine& engine, const char* name) : engine_(engine), outer_(engine.innermost_callback_) {
    engine_.innermost_callback_ = name;
  }
  ~InCallback() { engine_.innermost_callback_ = outer_; }
  InCallback(const InCallback&) = delete;
  InCallback& operator=(const InCallback&) = delete;

 private:
  Engine& engine_;
  const char* outer_;
};

Frame& Frame::operator=(Frame&& other) noexcept {
  if (this != &other) {
    close();
    slot_ = std::move(other.slot_);
    encoder_ = std::move(other.encoder_);
    id_ = other.id_;
    device_generation_ = other.device_generation_;
    failure_ = std::move(other.failure_);
  }
  return *this;
}

Error Frame::refuse_use() {
  if (!encoder_) {
    return keep_failure(make_error(ErrorKind::InvalidArgument, MessageId::EngineFrameEmpty,
                                   "use: the frame holds no encoder (moved from, or already submitted)"));
  }
  if (slot_->registry == nullptr) {
    return keep_failure(make_error(ErrorKind::Refused, MessageId::EngineFrameEngineGone,
                                   "use: the frame's engine was destroyed; the frame can only be dropped"));
  }
  return keep_failure(make_error(ErrorKind::DeviceFailed, MessageId::EngineFrameFromLostDevice,
                                 fmt::format("use: the frame was begun on device generation {}, whose device was "
                                             "lost (the registry is on device generation {}); begin a new frame",
                                             device_generation_, slot_->registry->device_generation())));
}

Error Frame::keep_failure(const Error& error) {
  if (!failure_) failure_ = std::make_unique<Error>(error);
  return error;
}

void Frame::close() {
  encoder_.reset();
  if (slot_ && slot_->open_id == id_) {
    slot_->open_id = 0;
    slot_->open_device_generation = 0;
  }
  slot_.reset();
}

namespace {

EngineOptions with_engine_features(EngineOptions options) {
  // Every device of the engine shares one cache of what Dawn compiled: a recovery's pipelines
  // load their translated shaders instead of compiling them again.
  if (!options.device.cache) options.device.cache = std::make_shared<gpu::BlobCache>();
  if (options.hot_reload) {
    auto& optional = options.device.optional_features;
    if (std::find(optional.begin(), optional.end(), WGPUFeatureName_ImplicitDeviceSynchronization) == optional.end()) {
      optional.push_back(WGPUFeatureName_ImplicitDeviceSynchronization);
    }
  }
  return options;
}

}  // namespace

Result<std::unique_ptr<Engine>> Engine::create(EngineOptions options, EngineCallbacks callbacks) {
  auto context = gpu::Context::create(options.library);
  if (!context) return context.error();
  const auto timeout = options.startup_timeout;
  std::unique_ptr<Engine> engine(new Engine(std::move(context.value()), std::move(options), std::move(callbacks)));
  if (auto api = engine->dawn_->check_api(); !api) return api.error();
  engine->controller_->initialize();
  if (auto ready = engine->wait_until_ready(timeout); !ready) return ready.error();
  return engine;
}

Engine::Engine(std::unique_ptr<gpu::Context> context, EngineOptions options, EngineCallbacks callbacks)
    : context_(std::move(context)),
      options_(with_engine_features(std::move(options))),
      callbacks_(std::move(callbacks)),
      policy_(options_.rebuild),
      end_policy_(device::device_end_options_from_environment()) {  // WARDEN_GPU_DESTROY=1: the A/B arm (ADR 0003)
  context_->set_diagnostics(&diagnostics_);
  uncaptured_ = std::make_unique<detail::UncapturedErrors>();
  standby_ = std::make_unique<detail::Standby>();
  frames_ = std::make_shared<detail::FrameSlot>();
  // Dawn reports on the thread whose call raised the error: the report is named by the frame
  // open now and waits for poll() to be told and counted (ADR 0023).
  dawn_ = std::make_unique<device::DawnProvider>(
      context_.get(), device::DawnProviderOptions{
                          .device = options_.device,
                          .on_uncaptured_error =
                              [this](device::DeviceId, WGPUErrorType type, std::string_view message) {
                                const UncapturedError error =
                                    uncaptured_->report(type, message, frames_->open_id.load());
                                diagnostics_.error(MessageId::EngineUncapturedError,
                                                   fmt::format("{}: {}", describe_origin(error), message));
                              }});
  inbox_ = std::make_shared<ProviderInbox>();
  told_ = std::make_unique<std::deque<Told>>();
  provider_ = std::make_unique<QueuedProvider>(*dawn_, inbox_);
  frames_->library = context_->library_ptr();
  controller_ = std::make_unique<device::DeviceController>(
      *provider_, hooks(),
      device::ControllerOptions{.device_label = options_.device.label,
                                .device_end = &end_policy_,
                                .rebuild = &policy_,
                                .standby = options_.standby_device ? &standby_->stash() : nullptr,
                                .diagnostics = &diagnostics_});
  if (options_.hang_limit.count() > 0) {
    hang_watch_ = std::make_unique<device::HangWatch>(options_.hang_limit, options_.rebuild.now);
  }
}

Engine::~Engine() {
  // Flipped first: a diagnostics sink called from here on finds every engine call refused.
  destroying_ = true;
  frames_->registry = nullptr;  // a frame that outlives the engine refuses use()
  // No callback runs from here on: errors not told yet go to stderr unless the application
  // takes them, and the repeats stderr has not counted yet are printed now.
  const bool errors_to_stderr = !callbacks_.on_uncaptured_error;
  callbacks_ = {};
  // What Dawn reports from now on (a request in flight, the instance's last callbacks) is dropped.
  inbox_->closed = true;
  inbox_->waiting.clear();
  // Targets that outlive the engine hold no surface from here on and refuse every call.
  for (PresentTarget* target : std::exchange(targets_, {})) {
    target->detach();
    target->engine_ = nullptr;
  }
  if (!observers_.empty()) {
    diagnostics_.info(MessageId::EngineObserversOutlived,
                      fmt::format("the engine ends with {} observer(s) still added; each lets go of what it made",
                                  observers_.size()));
    const std::vector<Observing> ending = std::move(observers_);
    observers_.clear();
    for (const Observing& o : ending) o.observer->engine_ending();
  }
  reloader_.reset();
  abandoned_reloaders_.clear();
  if (registry_) registry_->shutdown();  // reports what the application left alive
  pipelines_.reset();
  shaders_.reset();
  (void)controller_->shutdown();
  standby_->clear();  // it never presented; let go while the provider is still here
  told_->clear();
  registry_.reset();
  queue_.reset();
  controller_.reset();
  provider_->end_devices();  // what the controller ended above, and any end still held
  // Callbacks still in Dawn (a request in flight) find the provider gone and release what
  // they bring when the instance runs them.
  context_->process_events();
  if (errors_to_stderr) {
    for (const UncapturedError& error : uncaptured_->take().errors) uncaptured_->print(error);
    uncaptured_->print_repeats();
  }
}

const std::string& Engine::message() const { return controller_->message(); }

// Read, never kept: the controller owns the device's state, the rebuild policy whether the
// engine gave up.
EngineState Engine::state() const {
  if (controller_->state() == device::DeviceState::Ready) return EngineState::Ready;
  return policy_.gave_up() ? EngineState::Failed : EngineState::Recovering;
}

const device::DeviceStash& Engine::standby() const { return standby_->stash(); }

// The registry's objects belong to the newest device generation (it rebuilt onto it), and the
// controller has not ended that generation.
bool Engine::generation_lives() const {
  const device::GenerationRecord& newest = controller_->generation();
  return registry_ && newest.phase != device::GenerationPhase::Ended &&
         registry_->device_generation() == newest.number;
}

// Shown (or being prepared, after the rebuild: on_rebuilt and on_contents_lost may record), and
// its generation not ended: a forced loss ends it at once, before its objects go.
bool Engine::has_device() const {
  return !destroying_ && generation_lives() && (state() == EngineState::Ready || telling_rebuild_);
}

WGPUDevice Engine::device() const { return has_device() ? registry_->device() : nullptr; }
WGPUQueue Engine::queue() const { return has_device() ? queue_.get() : nullptr; }

template <typename Tell>
void Engine::tell_observers(Tell&& tell) {
  const std::vector<Observing> told = observers_;
  for (const Observing& o : told) {
    // One removed (and perhaps destroyed) by an earlier observer is not called.
    const bool still_added = std::any_of(observers_.begin(), observers_.end(), [&](const Observing& current) {
      return current.observer == o.observer && current.added == o.added;
    });
    if (still_added) tell(*o.observer);
  }
}

// The reloader's work belongs to one device. Inside its own poll() (a sink that heard a reload
// lost the device) it is told to publish nothing more and destroyed once that poll returns.
void Engine::drop_reloader() {
  if (!reloader_) return;
  ++reloaders_dropped_;
  if (reloader_polls_ > 0) {
    reloader_->abandon();
    abandoned_reloaders_.push_back(std::move(reloader_));
  }
  reloader_.reset();
}

device::ControllerHooks Engine::hooks() {
  device::ControllerHooks hooks;
  hooks.prepare_resources = [this](const device::DeviceView& view) { prepare(view); };
  hooks.show_graphics = [this](const device::DeviceView& view) { shown(view); };
  hooks.on_state = [this](device::DeviceState state, const device::StateReason& reason) {
    if (state == device::DeviceState::Lost || state == device::DeviceState::Failed) ended(reason);
  };
  return hooks;
}

// A new device: the registry is made (first device generation) or rebuilt under the same
// handles. The application hears of it in the tell phase (on_rebuilt, on_contents_lost), which
// then tells the controller the device is prepared, and that shows it (shown()).
void Engine::prepare(const device::DeviceView& view) {
  const auto prepare_started = std::chrono::steady_clock::now();
  let_go();  // what the ended generation held goes before the registry moves to this one
  // The controller numbers the devices it hands over and the engine prepares each of them, so
  // the engine's device generations and the controller's logs name a device by one number.
  current_ = DeviceGeneration{};
  standby_->new_device();
  const uint64_t generation = view.device_generation;
  const gpu::Procs& procs = context_->procs();
  queue_ = gpu::Ref<WGPUQueue>(&procs, procs.DeviceGetQueue(view.device));
  WGPUAdapterInfo info{};
  if (procs.DeviceGetAdapterInfo(view.device, &info) == WGPUStatus_Success) {
    adapter_name_ = std::string(gpu::to_std(info.device));
    backend_ = info.backendType;
    procs.AdapterInfoFreeMembers(info);
  }
  resources::RebuildReport report{.generation = generation};
  if (!registry_) {
    resources::RegistryOptions registry_options = options_.registry;
    registry_options.device_generation = generation;
    registry_options.diagnostics = &diagnostics_;
    registry_ = std::make_unique<resources::Registry>(*context_, view.device, queue_.get(), std::move(registry_options));
    shaders_ = std::make_unique<shaders::ShaderManager>(*context_, *registry_);
    shaders_->set_wesl_packages(options_.shader_modules.packages);
    (void)shaders_->set_wesl_features(options_.shader_modules.features);
    pipelines_ = std::make_unique<pipelines::PipelineLibrary>(*context_, *registry_);
  } else {
    report = registry_->rebuild(view.device, queue_.get(), generation);
    if (timing_recovery_) {
      rebuilt_at_ = std::chrono::steady_clock::now();
      recovering_.device_generation = generation;
      recovering_.device_request_ms = ms_between(lost_at_, prepare_started);
      recovering_.rebuild_ms = ms_between(prepare_started, rebuilt_at_);
      recovering_.rebuild = report.timings;
    }
    counters_.objects_rebuilt += report.rebuilt;
    counters_.objects_prepared_taken += report.prepared_taken;
    counters_.rebuild_failures += report.failed.size();
  }
  // Kept whatever happens next: a loss inside the rebuild (a refill forced it) leaves this
  // generation the latest, and its report is the one last_rebuild() promises. A newer device
  // prepared from inside the rebuild (a refill that polled) has put its own report there.
  if (device_generation() == generation) last_rebuild_ = report;
  // Ended inside the rebuild: its device goes in the let-go phase, the next one starts over.
  if (!controller_->is_current(view.token)) return;
  start_hot_reload();
  told_->push_back(Told{RebuiltNews{generation, view.token, std::move(report)}});
}

void Engine::shown(const device::DeviceView& view) {
  current_.shown = true;
  shown_in_poll_ = polls_;
  // Before anything of the application hears of this device: its windows present on it.
  for (PresentTarget* target : targets_) target->attach_to_engine_device();
  failure_told_ = false;
  // Every device after the first is prepared after the loss of the one before it.
  if (view.device_generation > 1) ++counters_.recoveries;
  counters_.standby_takeovers = controller_->standby_takeovers();
  told_->push_back(Told{ReadyNews{view.device_generation}});
}

void Engine::ended(const device::StateReason& reason) {
  // The generation the registry belongs to ends once; a failed start after it ends nothing more.
  const uint64_t newest = device_generation();
  if (newest != 0 && newest > ended_through_ && !generation_lives()) {
    ended_through_ = newest;
    // A loss during a recovery extends that recovery: its time counts from the first loss.
    if (!timing_recovery_) {
      timing_recovery_ = true;
      lost_at_ = std::chrono::steady_clock::now();
    }
    recovering_ = RecoveryTimings{};
    ready_at_ = {};
    // The application hears of the loss of a device it was shown, once, with the API's words
    // (for a forced loss, the caller's), or the watchdog's for a hang.
    if (current_.shown) {
      ++counters_.device_losses;
      const device::LossReport loss =
          reason.cause == device::StateCause::DeviceHung
              ? device::LossReport{WGPUDeviceLostReason_Unknown, "hung: " + reason.detail}
              : reason.loss;
      told_->push_back(Told{LossNews{newest, loss}});
    }
  }
  // The fault that ended this device was scored before the hooks ran: when it exhausted the
  // policy, no device is asked for again, and the application hears why, once.
  if (policy_.gave_up() && !failure_told_) {
    failure_told_ = true;
    told_->push_back(Told{GaveUpNews{*policy_.give_up()}});
  }
}

// The let-go phase: a generation that ended lets go of its objects (the registry's loss walk),
// its reloader's work and its queue; then the devices the controller ended are ended. Run by
// poll() and before a new device is prepared; does nothing when there is nothing to let go of.
void Engine::let_go() {
  if (registry_ && !generation_lives() && !registry_->device_lost()) {
    // Each window ends the frame view it imported, before the registry's walk would.
    for (PresentTarget* target : targets_) target->detach();
    // Work of the lost device (compiles, pipeline builds) is released, never published.
    drop_reloader();
    queue_.reset();
    telling_rebuild_ = false;
    registry_->on_device_lost();
  }
  end_devices();
}

size_t Engine::devices_waiting_to_end() const { return provider_->waiting(); }

bool Engine::device_ends_wait() const {
  if (!options_.end_lost_device_after_first_frame || destroying_ || !timing_recovery_ || policy_.gave_up()) {
    return false;
  }
  // Shown and given a poll() to draw in: a program that draws no frame does not hold it longer.
  if (current_.shown && polls_ > shown_in_poll_ && generation_lives()) return false;
  const device::DeviceState state = controller_->state();
  return state == device::DeviceState::Lost || state == device::DeviceState::Starting ||
         state == device::DeviceState::Ready;
}

// One device at most is held: a loss before the first frame of the recovery ends the device
// held for it, so that losses in a row never pile devices up.
void Engine::end_devices() {
  const size_t keep = device_ends_wait() ? 1 : 0;
  if (provider_->waiting() <= keep) return;
  const auto ending = std::chrono::steady_clock::now();
  provider_->end_devices(keep);
  if (keep != 0) return;
  // Held past the first frame of the recovery last published: its cost is told there.
  if (last_recovery_ && !timing_recovery_ && last_recovery_->lost_device_end_ms == 0 &&
      last_recovery_->device_generation == device_generation()) {
    last_recovery_->lost_device_end_ms = ms_between(ending, std::chrono::steady_clock::now());
  }
}

// The tell phase: what settled, told in the order it settled. A callback may call the engine
// back (poll() included): each piece of news is taken off the queue before it is told, so a
// nested poll() tells the rest, once.
void Engine::tell() {
  while (!told_->empty() && !destroying_) {
    Told next = std::move(told_->front());
    told_->pop_front();
    tell_one(std::move(next));
  }
}

void Engine::tell_one(Told told) {
  if (auto* lost = std::get_if<LossNews>(&told.news)) {
    let_go();  // observers hear a loss once the registry has let go of the device's objects
    tell_observers([&](GenerationObserver& observer) {
      InCallback in(*this, "GenerationObserver::device_lost");
      observer.device_lost(lost->device_generation);
    });
    if (callbacks_.on_lost) {
      InCallback in(*this, "on_lost");
      callbacks_.on_lost(lost->device_generation, lost->loss.reason, lost->loss.message);
    }
  } else if (auto* rebuilt = std::get_if<RebuiltNews>(&told.news)) {
    // Ended before it was told (a callback told earlier forced a loss): its device goes, and
    // the next one starts over.
    if (!controller_->is_current(rebuilt->token)) return;
    {
      telling_rebuild_ = true;
      struct Prepared {
        bool& flag;
        ~Prepared() { flag = false; }
      } prepared{telling_rebuild_};
      if (rebuilt->device_generation > 1 && callbacks_.on_rebuilt) {
        InCallback in(*this, "on_rebuilt");
        callbacks_.on_rebuilt(rebuilt->report);
      }
      if (!controller_->is_current(rebuilt->token)) return;
      if (!rebuilt->report.contents_lost.empty() && callbacks_.on_contents_lost) {
        InCallback in(*this, "on_contents_lost");
        callbacks_.on_contents_lost(rebuilt->report.contents_lost);
      }
      if (!controller_->is_current(rebuilt->token)) return;
    }
    (void)controller_->finish_preparation(rebuilt->token, {});  // shows it: shown() queues ReadyNews
  } else if (auto* ready = std::get_if<ReadyNews>(&told.news)) {
    const uint64_t generation = ready->device_generation;
    tell_observers([&](GenerationObserver& observer) {
      InCallback in(*this, "GenerationObserver::device_ready");
      observer.device_ready(generation);
    });
    // Every owner has had its say (on_rebuilt, on_contents_lost, the observers): what is still
    // Lost now fails the first frame that uses it, so it is named before the application hears
    // that the device is ready. Not when an observer ended this device meanwhile.
    if (generation > 1 && generation_lives() && device_generation() == generation) {
      (void)registry_->report_awaiting_owner();
    }
    if (callbacks_.on_ready) {
      InCallback in(*this, "on_ready");
      callbacks_.on_ready(generation);
    }
    if (timing_recovery_ && recovering_.device_generation == generation && device_generation() == generation) {
      ready_at_ = std::chrono::steady_clock::now();
      recovering_.callbacks_ms = ms_between(rebuilt_at_, ready_at_);
    }
  } else if (auto* gave_up = std::get_if<GaveUpNews>(&told.news)) {
    if (callbacks_.on_failed) {
      InCallback in(*this, "on_failed");
      callbacks_.on_failed(gave_up->why);
    }
  }
}

void Engine::settle() {
  let_go();
  tell();
}

void Engine::start_hot_reload() {
  drop_reloader();
  if (!options_.hot_reload) return;
  auto created = pipelines::HotReloader::create(*context_, *shaders_, *pipelines_);
  if (!created) return;  // the device lacks the feature: hot_reload_available() says so
  reloader_ = std::move(created.value());
  std::erase_if(watched_, [&](ShaderModuleHandle module) { return !registry_->is_alive(module); });
  for (ShaderModuleHandle module : watched_) {
    const std::optional<resources::ShaderModuleDescription> recipe = registry_->recipe(module);
    if (!recipe || !reloader_->watch(module)) continue;
    // An edit saved (or a feature value set) while there was no device: no watcher saw it, the
    // rebuild compiled the old text; reload it now so it applies on this device. A file that no
    // longer links is reloaded too, so that its error is reported again on this device.
    auto text = shaders_->current_wgsl(module);
    if (!text || *text != recipe->wgsl) (void)reloader_->reload(module);
  }
}

Result<ShaderModuleHandle> Engine::load_shader(const std::filesystem::path& path) {
  if (auto refused = frame_thread_.check("engine", "load_shader")) return *refused;
  if (!has_device()) return no_device_error(fmt::format("load_shader \"{}\"", path.string()));
  auto module = shaders_->load(path);
  if (!module) return module;
  watched_.push_back(*module);
  if (reloader_) (void)reloader_->watch(*module);
  return module;
}

Result<void> Engine::set_shader_features(std::map<std::string, bool, std::less<>> features) {
  if (auto refused = frame_thread_.check("engine", "set_shader_features")) return *refused;
  if (!shaders_) {  // no device yet: the values wait in the options for the first one
    options_.shader_modules.features = std::move(features);
    return {};
  }
  if (!reloader_ && has_device()) {
    return make_error(ErrorKind::Refused, MessageId::EngineShaderFeaturesNeedHotReload,
                      "set_shader_features: hot reload is not available on this device (EngineOptions::hot_reload, "
                      "or a device without WGPUFeatureName_ImplicitDeviceSynchronization), and it is what links "
                      "the modules again; the feature values are unchanged");
  }
  const std::vector<ShaderModuleHandle> changed = shaders_->set_wesl_features(std::move(features));
  if (reloader_) {
    for (ShaderModuleHandle module : changed) (void)reloader_->reload(module);
  }
  return {};
}

Error Engine::no_device_error(std::string_view call) const {
  if (destroying_) {
    return make_error(ErrorKind::Refused, MessageId::EngineDestroying,
                      fmt::format("{}: the engine is being destroyed", call));
  }
  if (state() == EngineState::Failed) {
    return make_error(ErrorKind::DeviceFailed, MessageId::EngineGaveUp,
                      fmt::format("{}: the engine gave up rebuilding: {}", call, message()));
  }
  return make_error(ErrorKind::DeviceFailed, MessageId::EngineDeviceLost,
                    fmt::format("{}: device lost (device generation {}), rebuilding", call, device_generation()));
}

Result<Frame> Engine::begin_frame(std::string_view label) {
  if (auto refused = frame_thread_.check("engine", "begin_frame")) return *refused;
  if (!has_device()) return no_device_error("begin_frame");
  // Deferral keys on the one submission being recorded: a second open frame's submit would
  // retire what the first frame still records.
  if (frames_->open_id != 0 && frames_->open_device_generation == device_generation()) {
    return make_error(ErrorKind::Refused, MessageId::EngineFrameAlreadyOpen,
                      fmt::format("begin_frame: a frame of device generation {} is open; submit it or drop it first",
                                  device_generation()));
  }
  const gpu::Procs& procs = context_->procs();
  WGPUCommandEncoderDescriptor desc{};
  desc.label = gpu::string_view("warden frame");
  gpu::Ref<WGPUCommandEncoder> encoder(&procs, procs.DeviceCreateCommandEncoder(registry_->device(), &desc));
  const uint64_t id = frames_->next_id++;
  frames_->registry = registry_.get();
  uncaptured_->frame_begun(id, label);  // before it is open: a report that sees it open finds its label
  frames_->open_id = id;
  frames_->open_device_generation = device_generation();
  return Frame(frames_, std::move(encoder), id, device_generation());
}

Result<Serial> Engine::submit(Frame frame, std::span<const WGPUCommandBuffer> recorded) {
  if (auto refused = frame_thread_.check("engine", "submit")) return *refused;
  if (destroying_) return no_device_error("submit");
  if (!frame.encoder_) {
    return make_error(ErrorKind::InvalidArgument, MessageId::EngineFrameEmpty,
                      "submit: the frame holds no encoder (moved from, or already submitted); nothing was submitted");
  }
  if (frame.device_generation_ != device_generation() || !has_device()) {
    return make_error(ErrorKind::DeviceFailed, MessageId::EngineFrameFromLostDevice,
                      fmt::format("submit: the frame was recorded on device generation {}, whose device was lost; "
                                  "nothing was submitted",
                                  frame.device_generation_));
  }
  if (frame.failure_) {
    // Its commands may lack what the failed use() would have recorded: submit none of them.
    ++counters_.frames_dropped;
    return make_error(frame.failure_->kind, MessageId::EngineFrameDropped,
                      fmt::format("submit: frame dropped, nothing was submitted: {}", frame.failure_->message));
  }
  const gpu::Procs& procs = context_->procs();
  gpu::Ref<WGPUCommandBuffer> commands(&procs, procs.CommandEncoderFinish(frame.encoder_.get(), nullptr));
  std::vector<WGPUCommandBuffer> all{commands.get()};
  all.insert(all.end(), recorded.begin(), recorded.end());
  Result<Serial> submitted = registry_->submit(all.data(), all.size());
  if (submitted) current_.submitted = true;
  // The first frame of a recovered device ends the recovery's timing.
  if (submitted && timing_recovery_ && current_.shown && recovering_.device_generation == device_generation() &&
      ready_at_ != std::chrono::steady_clock::time_point{}) {
    const auto now = std::chrono::steady_clock::now();
    recovering_.first_frame_ms = ms_between(ready_at_, now);
    recovering_.total_ms = ms_between(lost_at_, now);
    last_recovery_ = recovering_;
    timing_recovery_ = false;
  }
  return submitted;
}

// The phases are written once, on poll() in engine.h.
void Engine::poll() {
  if (auto refused = frame_thread_.check("engine", "poll")) {
    diagnostics_.error(refused->id, std::move(refused->message));
    return;
  }
  if (destroying_) return;
  ++polls_;
  ++inbox_->delivering;
  struct Delivering {
    ProviderInbox& inbox;
    ~Delivering() { --inbox.delivering; }
  } delivering{*inbox_};
  // Hear: what arrived outside poll() first, in the order it came; then what Dawn has ready now.
  inbox_->deliver_waiting();
  dawn_->process_events();
  // Let go, tell.
  settle();
  // Retire: what finished lets go of what it used.
  if (generation_lives() && !registry_->device_lost()) registry_->poll();
  // Reload.
  poll_reloader();
  // Watch: a shown device whose work stopped finishing ends as a loss does.
  watch_for_hang();
  settle();
  // Ask: the spare after the shown device's first frame, not before (making it blocks this
  // poll for as long as a device request takes, and a recovery's first frame must not wait for
  // it); once per device (standby.h).
  if (options_.standby_device && state() == EngineState::Ready && current_.shown && current_.submitted) {
    standby_->ask(*controller_);
  }
  prepare_standby();
  // And the next device, while there is none and the rebuild policy has not given up.
  const device::DeviceState device_state = controller_->state();
  if ((device_state == device::DeviceState::Lost || device_state == device::DeviceState::Failed) &&
      !policy_.gave_up()) {
    (void)controller_->retry();  // refused only once the policy gave up: ended() tells that
  }
  settle();
  tell_uncaptured_errors();
}

void Engine::poll_reloader() {
  if (!reloader_) return;
  ++reloader_polls_;
  const uint64_t polled = reloaders_dropped_;
  std::vector<pipelines::ReloadReport> reports = reloader_->poll();
  --reloader_polls_;
  if (reloader_polls_ == 0) abandoned_reloaders_.clear();
  for (const pipelines::ReloadReport& report : reports) {
    // Lost meanwhile (a sink, or an earlier on_reload): the rest were for the lost device.
    if (reloaders_dropped_ != polled || !generation_lives()) break;
    if (report.applied) ++counters_.hot_reloads;
    if (callbacks_.on_reload) {
      InCallback in(*this, "on_reload");
      callbacks_.on_reload(report);
    }
  }
}

// What Dawn reported since the last poll, counted and told: to the application's callback, or
// to stderr. Last in poll(): what Dawn reported while this poll processed its events (an error
// of work that ran on the GPU) is told in this poll too.
void Engine::tell_uncaptured_errors() {
  detail::UncapturedErrors::Taken taken = uncaptured_->take();
  counters_.uncaptured_errors += taken.not_told;
  for (const UncapturedError& error : taken.errors) {
    counters_.uncaptured_errors += error.count;
    // Frames are numbered in the order begun, and an error is named by the frame open when it
    // was reported: a frame's errors never follow a later frame's.
    if (error.frame != 0 && error.frame > counters_.last_frame_with_errors) {
      ++counters_.frames_with_errors;
      counters_.last_frame_with_errors = error.frame;
    }
  }
  for (const UncapturedError& error : taken.errors) {
    if (callbacks_.on_uncaptured_error) {
      InCallback in(*this, "on_uncaptured_error");
      callbacks_.on_uncaptured_error(error);
    } else {
      uncaptured_->print(error);
    }
  }
}

// A spare waits and nothing was prepared on it since (or a reload released what was): make on
// it the shader modules, layouts and pipelines a recovery onto it would make, so the recovery
// takes them instead (ADR 0034). In the poll that made the spare, while the picture is up; the
// shared compile cache makes them cheap. Each poll does one step, so that no frame pays for the
// whole (ADR 0058): the preparation; then the upload paths measured on the spare; then the kept
// contents staged there, standby_contents_step_bytes a poll.
void Engine::prepare_standby() {
  if (!options_.standby_device || state() != EngineState::Ready || !generation_lives()) return;
  // While the spare is worked on the registry's resolves may find its objects: what Dawn reports
  // meanwhile (a loss would let go of the slots' objects) waits for the next poll.
  if (const WGPUDevice spare = standby_->to_prepare(*registry_); spare != nullptr) {
    const uint32_t delivering = std::exchange(inbox_->delivering, 0);
    registry_->prepare_rebuild(spare, options_.standby_texture_bytes, 0);
    inbox_->delivering = delivering;
    ++counters_.standby_preparations;
    counters_.standby_rehearsed_draws += registry_->last_rehearsal().draws;
    return;
  }
  const WGPUDevice prepared = registry_->prepared_device();
  if (prepared == nullptr || standby_prepared()) return;
  if (measured_preparation_ != counters_.standby_preparations) {
    measured_preparation_ = counters_.standby_preparations;  // once, whether the spare takes it or not
    measure_upload_on(prepared);
    return;
  }
  if (options_.standby_contents_bytes == 0 ||
      registry_->stage_prepared_contents(options_.standby_contents_bytes, options_.standby_contents_step_bytes) == 0) {
    standby_prepared_ = counters_.standby_preparations;  // nothing more to stage
  }
}

bool Engine::standby_prepared() const {
  return standby_prepared_ != 0 && standby_prepared_ == counters_.standby_preparations && registry_ != nullptr &&
         registry_->prepared_device() != nullptr;
}

// Which path writes kept texture contents faster on the spare, which the recovery onto it
// takes (ContentsUpload::Auto, ADR 0058): both measured there, 16 MiB each way, twice, while
// the spare waits and the picture is up (its queue is idle, and the poll already makes it).
void Engine::measure_upload_on(WGPUDevice spare) {
  if (options_.registry.contents_upload != resources::ContentsUpload::Auto) return;
  const gpu::Procs& procs = context_->procs();
  const gpu::Ref<WGPUQueue> queue(&procs, procs.DeviceGetQueue(spare));
  auto measured = tiles::measure_upload_paths(*context_, spare, queue.get(), 512, 16, 2);
  if (!measured) return;  // the spare refused it: the backend's known faster path serves
  counters_.standby_upload_measurements += 1;
  registry_->set_measured_upload(spare, measured->faster == tiles::UploadPath::Ring
                                            ? resources::ContentsUpload::Staging
                                            : resources::ContentsUpload::WriteTexture);
}

// Runs after the registry's poll, so what finished by now has retired. A hang goes the loss's
// way through the controller (report_hang): the device let go as the device end policy says
// (never destroyed once it presented, never handed to its replacement), the fault scored as
// hung (recorded, not scored, once the policy gave up), the application told through on_lost,
// and the next device asked for by the retry below, within the policy.
void Engine::watch_for_hang() {
  if (!hang_watch_ || state() != EngineState::Ready || !generation_lives()) return;
  if (!hang_watch_->check(registry_->clock())) return;
  const device::Token token = controller_->generation().token;  // the device the registry's work went to
  const uint64_t generation = device_generation();
  const Serial oldest = registry_->clock().retired().next();
  const std::string detail = fmt::format("submission {} did not finish within {} ms", oldest.value,
                                         options_.hang_limit.count());
  const uint64_t unscored_before = policy_.unscored_hangs();
  ++counters_.hangs;
  controller_->report_hang(token, detail);
  const bool scored = policy_.unscored_hangs() == unscored_before;
  if (!scored) ++counters_.unscored_hangs;
  diagnostics_.warning(MessageId::EngineHang,
                       fmt::format("device generation {}: {}: the device was let go as hung; {}", generation, detail,
                                   scored ? fmt::format("hang strikes now {}", policy_.strikes(device::FaultKind::Hung))
                                          : std::string("not scored: the rebuild policy has given up")));
}

Result<void> Engine::wait_until_ready(std::chrono::milliseconds timeout) {
  if (auto refused = frame_thread_.check("engine", "wait_until_ready")) return *refused;
  if (destroying_) return no_device_error("wait_until_ready");
  // Given up is final wherever the call comes from (on_failed included): polling brings no device.
  // Outside a callback the loop below polls once first, so that the application hears why.
  if (innermost_callback_ != nullptr && state() == EngineState::Failed) {
    return make_error(ErrorKind::DeviceFailed, MessageId::EngineGaveUp, message());
  }
  if (innermost_callback_ != nullptr && state() != EngineState::Ready) {
    return make_error(ErrorKind::Refused, MessageId::EngineWaitInsideCallback,
                      fmt::format("wait_until_ready: called from inside {}, while device generation {} has no "
                                  "device; the next device is asked for only after the callback returns: return, "
                                  "then poll()",
                                  innermost_callback_, device_generation()));
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  gpu::count_blocking_wait();
  for (;;) {
    poll();
    if (state() == EngineState::Ready) return {};
    if (state() == EngineState::Failed) return make_error(ErrorKind::DeviceFailed, MessageId::EngineGaveUp, message());
    if (std::chrono::steady_clock::now() >= deadline) {
      return make_error(ErrorKind::Timeout, MessageId::EngineReadyTimeout,
                        fmt::format("no device was ready within {} ms: {}", timeout.count(), message()));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

Result<void> Engine::force_device_loss(std::string_view why) {
  if (auto refused = frame_thread_.check("engine", "force_device_loss")) return *refused;
  // Allowed while a device is being prepared too (a loss in the middle of a rebuild).
  if (destroying_ || !generation_lives() || state() == EngineState::Failed) return no_device_error("force_device_loss");
  const std::string words = fmt::format("device loss forced by force_device_loss: {}", why);
  if (!dawn_->force_loss(controller_->generation().device, words)) {
    // Not the provider's to name (none it holds): lost all the same, in the API's words.
    context_->procs().DeviceForceLoss(registry_->device(), WGPUDeviceLostReason_Unknown, gpu::string_view(words));
  }
  // The state settles now, through the path every loss takes (ended()): the controller says
  // Lost, state() Recovering, device() null. The device's objects are let go of, and the
  // application told, in the next poll() (docs/threads.md: a recording thread may still record
  // with what it resolved for this frame). The API's own report of this loss comes later and
  // is stale.
  controller_->report_loss(controller_->generation().token, device::LossReport{WGPUDeviceLostReason_Unknown, words});
  return {};
}

Result<void> Engine::mark_presented() {
  if (auto refused = frame_thread_.check("engine", "mark_presented")) return *refused;
  if (destroying_ || state() != EngineState::Ready) return no_device_error("mark_presented");
  return controller_->mark_presented();
}

Result<std::unique_ptr<PresentTarget>> Engine::present_to(present::X11WindowSource window, uint32_t width,
                                                          uint32_t height, present::SwapchainOptions options,
                                                          present::SurfaceDriver* driver) {
  if (auto refused = frame_thread_.check("engine", "present_to")) return *refused;
  if (destroying_) return no_device_error("present_to");
  std::unique_ptr<PresentTarget> target(new PresentTarget(*this, window, width, height, std::move(options), driver));
  if (state() == EngineState::Ready) {  // the shown device is the registry's generation
    target->attach_to_engine_device();
    if (target->attach_failure_) return *target->attach_failure_;
  }
  targets_.push_back(target.get());
  return target;
}

void Engine::forget_present_target(PresentTarget& target) { std::erase(targets_, &target); }

// A target's first present on the shown device: from now on it is released, never destroyed.
void Engine::device_presented() { (void)controller_->mark_presented(); }

void Engine::add_observer(GenerationObserver& observer) {
  if (auto refused = frame_thread_.check("engine", "add_observer")) {
    diagnostics_.error(refused->id, std::move(refused->message));
    return;
  }
  observers_.push_back({&observer, ++observers_added_});
}

Result<void> Engine::adopt_frame_thread() {
  // Dawn's GL context stays current on the thread that made the device: the adopting thread's
  // first submission would lose the device (eglCreateSync fails with EGL_BAD_MATCH).
  if (backend_ == WGPUBackendType_OpenGL || backend_ == WGPUBackendType_OpenGLES) {
    return make_error(ErrorKind::Refused, MessageId::EngineAdoptFrameThreadOnGl,
                      fmt::format("adopt_frame_thread: the device is on {}, whose context stays on the thread that "
                                  "made it; the frame thread stays the engine's first (run the frames on the thread "
                                  "that creates the engine)",
                                  gpu::to_string(backend_)));
  }
  frame_thread_.adopt_current();
  registry_->adopt_frame_thread();
  return {};
}

void Engine::remove_observer(GenerationObserver& observer) {
  if (auto refused = frame_thread_.check("engine", "remove_observer")) {
    diagnostics_.error(refused->id, std::move(refused->message));
    return;
  }
  std::erase_if(observers_, [&](const Observing& o) { return o.observer == &observer; });
}

}  // namespace warden::engine
