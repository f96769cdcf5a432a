#include "warden/engine/engine.h"

#include <algorithm>
#include <thread>

#include <fmt/format.h>

#include "warden/shaders/source_file.h"
#include "warden/gpu/names.h"

namespace warden::engine {

const char* to_string(EngineState state) {
  switch (state) {
    case EngineState::Ready: return "ready";
    case EngineState::Recovering: return "recovering";
    case EngineState::Failed: return "failed";
  }
  return "unknown";
}

// The provider the controller talks to: the DawnProvider, with every device's loss report kept
// on its way to the controller, so the application hears the API's own reason and words.
class Engine::LossRecorder final : public device::DeviceProvider {
 public:
  explicit LossRecorder(device::DawnProvider& dawn) : dawn_(dawn) {}
  Result<void> check_api() override { return dawn_.check_api(); }
  void request_adapter(device::AdapterContinuation done) override { dawn_.request_adapter(std::move(done)); }
  void request_device(const device::ProvidedAdapter& adapter, const std::string& label,
                      device::DeviceContinuation done, device::LostContinuation lost) override {
    dawn_.request_device(adapter, label, std::move(done), [this, lost = std::move(lost)](device::LossReport report) {
      last_loss = report;
      lost(std::move(report));
    });
  }
  void release_adapter(device::AdapterId adapter) override { dawn_.release_adapter(adapter); }
  void destroy_device(device::DeviceId device) override { dawn_.destroy_device(device); }
  void release_device(device::DeviceId device) override { dawn_.release_device(device); }

  device::LossReport last_loss;

 private:
  device::DawnProvider& dawn_;
};

namespace {

EngineOptions with_engine_features(EngineOptions options) {
  if (options.hot_reload) {
    auto& optional = options.device.optional_features;
    if (std::find(optional.begin(), optional.end(), gpu::kFeatureImplicitDeviceSynchronization) == optional.end()) {
      optional.push_back(gpu::kFeatureImplicitDeviceSynchronization);
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
      retirement_(device::RetirementOptions{}) {
  context_->set_diagnostics(&diagnostics_);
  dawn_ = std::make_unique<device::DawnProvider>(
      context_.get(), device::DawnProviderOptions{
                          .device = options_.device,
                          .on_uncaptured_error =
                              [this](device::DeviceId, gpu::ErrorType type, std::string_view message) {
                                ++counters_.uncaptured_errors;
                                diagnostics_.error(
                                    device::kDiagnosticsCategory, MessageId::EngineUncapturedError,
                                    fmt::format("uncaptured {} error: {}", gpu::to_string(type), message));
                              }});
  provider_ = std::make_unique<LossRecorder>(*dawn_);
  controller_ = std::make_unique<device::DeviceController>(
      *provider_, hooks(),
      device::ControllerOptions{.device_label = options_.device.label,
                                .retirement = &retirement_,
                                .rebuild = &policy_,
                                .diagnostics = &diagnostics_});
}

Engine::~Engine() {
  reloader_.reset();
  if (registry_) registry_->shutdown();  // reports what the application left alive
  pipelines_.reset();
  shaders_.reset();
  // Callbacks are not told about the teardown: the application is going away.
  callbacks_ = {};
  observers_.clear();
  (void)controller_->shutdown();
  registry_.reset();
  queue_.reset();
  controller_.reset();
  // Continuations still in Dawn (a request in flight) find the provider gone and release what
  // they bring when the instance runs them.
  context_->process_events();
}

const std::string& Engine::message() const { return controller_->message(); }

// Ready and not let go of yet: a forced loss lets go of the device before the controller hears.
bool Engine::has_device() const { return state_ == EngineState::Ready && !registry_->device_lost(); }

gpu::Device Engine::device() const { return state_ == EngineState::Ready ? registry_->device() : nullptr; }
gpu::Queue Engine::queue() const { return state_ == EngineState::Ready ? queue_.get() : nullptr; }

device::ControllerHooks Engine::hooks() {
  device::ControllerHooks hooks;
  hooks.prepare_resources = [this](const device::DeviceView& view) { prepare(view); };
  hooks.show_graphics = [this](const device::DeviceView&) { ready(); };
  hooks.dispose_resources = [this](const device::DeviceView& view) {
    if (view.generation.value == prepared_token_) lose();
  };
  hooks.on_state = [this](device::DeviceState state, std::string_view) { on_state(state); };
  return hooks;
}

// A new device: the registry is made (first generation) or rebuilt under the same handles,
// then the controller is told the generation is prepared, which shows it (ready()).
void Engine::prepare(const device::DeviceView& view) {
  // Device generations count devices (1, 2, 3...): the controller's tokens also count the
  // transitions between them.
  const uint64_t generation = ++generation_;
  prepared_token_ = view.generation.value;
  const gpu::Procs& procs = context_->procs();
  queue_ = gpu::Ref<gpu::Queue>(&procs, procs.DeviceGetQueue(view.device));
  gpu::AdapterInfo info;
  if (procs.DeviceGetAdapterInfo(view.device, &info) == gpu::Status::Success) {
    adapter_name_ = std::string(info.device.view());
    backend_ = info.backendType;
    procs.AdapterInfoFreeMembers(info);
  }
  if (!registry_) {
    resources::RegistryOptions registry_options = options_.registry;
    registry_options.device_generation = generation;
    registry_options.diagnostics = &diagnostics_;
    registry_ = std::make_unique<resources::Registry>(*context_, view.device, queue_.get(), std::move(registry_options));
    shaders_ = std::make_unique<shaders::ShaderManager>(*context_, *registry_);
    pipelines_ = std::make_unique<pipelines::PipelineLibrary>(*context_, *registry_);
    last_rebuild_ = resources::RebuildReport{.generation = generation};
  } else {
    last_rebuild_ = registry_->rebuild(view.device, queue_.get(), generation);
    counters_.objects_rebuilt += last_rebuild_.rebuilt;
    counters_.rebuild_failures += last_rebuild_.failed.size();
  }
  // Lost again while rebuilding or inside a callback (a refill forced it, or the driver): this
  // generation ends through the loss path, and the next one starts over.
  const auto superseded = [&] { return registry_->device_lost() || !controller_->is_current(view.generation); };
  if (superseded()) return;
  start_hot_reload();
  if (generation > 1 && callbacks_.on_rebuilt) callbacks_.on_rebuilt(last_rebuild_);
  if (superseded()) return;
  if (!last_rebuild_.contents_lost.empty() && callbacks_.on_contents_lost) {
    callbacks_.on_contents_lost(last_rebuild_.contents_lost);
  }
  if (superseded()) return;
  (void)controller_->finish_preparation(view.generation, {});
}

void Engine::ready() {
  state_ = EngineState::Ready;
  failure_told_ = false;
  shown_generation_ = generation_;
  if (lost_generation_ != 0) ++counters_.recoveries;
  for (GenerationObserver* observer : std::vector<GenerationObserver*>(observers_)) observer->device_ready(generation_);
  if (callbacks_.on_ready) callbacks_.on_ready(generation_);
}

void Engine::lose() {
  const uint64_t generation = generation_;
  if (!registry_ || lost_generation_ >= generation) return;
  lost_generation_ = generation;
  if (shown_generation_ == generation) ++counters_.device_losses;
  // Work of the lost device (compiles, pipeline builds) is released, never published.
  reloader_.reset();
  registry_->on_device_lost();
  queue_.reset();
  for (GenerationObserver* observer : std::vector<GenerationObserver*>(observers_)) observer->device_lost(generation);
}

void Engine::on_state(device::DeviceState state) {
  switch (state) {
    case device::DeviceState::Lost: {
      state_ = EngineState::Recovering;
      // The application hears of the loss of a device it was shown, once, with the API's words
      // (a forced loss was already let go of; this is when the API reports it).
      if (shown_generation_ == generation_ && told_lost_ < generation_) {
        told_lost_ = generation_;
        const device::LossReport& loss = provider_->last_loss;
        if (callbacks_.on_lost) callbacks_.on_lost(generation_, loss.reason, loss.message);
      }
      retry_pending_ = true;
      break;
    }
    case device::DeviceState::Failed:
      state_ = EngineState::Recovering;
      retry_pending_ = true;
      break;
    default: break;
  }
  // The fault that ended this generation was scored before the hooks ran: when it exhausted the
  // policy, a retry would be refused, so the engine stops here and says why, once.
  if (policy_.gave_up() && (state == device::DeviceState::Lost || state == device::DeviceState::Failed)) {
    retry_pending_ = false;
    state_ = EngineState::Failed;
    if (!failure_told_) {
      failure_told_ = true;
      if (callbacks_.on_failed) callbacks_.on_failed(policy_.explanation());
    }
  }
}

void Engine::start_hot_reload() {
  reloader_.reset();
  if (!options_.hot_reload) return;
  auto created = pipelines::HotReloader::create(*context_, *shaders_, *pipelines_);
  if (!created) return;  // the device lacks the feature: hot_reload_available() says so
  reloader_ = std::move(created.value());
  std::erase_if(watched_, [&](ShaderModuleHandle module) { return !registry_->is_alive(module); });
  for (ShaderModuleHandle module : watched_) {
    const resources::ShaderModuleDescription* recipe = registry_->recipe(module);
    if (recipe == nullptr || !reloader_->watch(module)) continue;
    // An edit saved while there was no device: no watcher saw it, the rebuild compiled the old
    // text; reload it now so it applies on this device.
    auto text = shaders::read_source_file(recipe->path);
    if (text && *text != recipe->wgsl) (void)reloader_->reload(module);
  }
}

Result<ShaderModuleHandle> Engine::load_shader(const std::filesystem::path& path) {
  if (!has_device()) return no_device_error(fmt::format("load_shader \"{}\"", path.string()));
  auto module = shaders_->load(path);
  if (!module) return module;
  watched_.push_back(*module);
  if (reloader_) (void)reloader_->watch(*module);
  return module;
}

Error Engine::no_device_error(std::string_view call) const {
  if (state_ == EngineState::Failed) {
    return make_error(ErrorKind::DeviceFailed, MessageId::EngineGaveUp,
                      fmt::format("{}: the engine gave up rebuilding: {}", call, message()));
  }
  return make_error(ErrorKind::DeviceFailed, MessageId::EngineDeviceLost,
                    fmt::format("{}: device lost (generation {}), rebuilding", call, generation_));
}

Result<Frame> Engine::begin_frame() {
  if (!has_device()) return no_device_error("begin_frame");
  const gpu::Procs& procs = context_->procs();
  gpu::CommandEncoderDescriptor desc;
  desc.label = "warden frame";
  gpu::Ref<gpu::CommandEncoder> encoder(&procs, procs.DeviceCreateCommandEncoder(registry_->device(), &desc));
  return Frame(std::move(encoder), generation_);
}

Result<Serial> Engine::submit(Frame frame) {
  if (frame.generation_ != generation_ || !has_device()) {
    return make_error(ErrorKind::DeviceFailed, MessageId::EngineFrameFromLostDevice,
                      fmt::format("submit: the frame was recorded on generation {}, whose device was lost; "
                                  "nothing was submitted",
                                  frame.generation_));
  }
  const gpu::Procs& procs = context_->procs();
  gpu::Ref<gpu::CommandBuffer> commands(&procs, procs.CommandEncoderFinish(frame.encoder_.get(), nullptr));
  return registry_->submit(commands.get());
}

void Engine::poll() {
  dawn_->process_events();
  if (registry_ && !registry_->device_lost()) registry_->poll();
  if (reloader_) {
    for (const pipelines::ReloadReport& report : reloader_->poll()) {
      if (report.applied) ++counters_.hot_reloads;
      if (callbacks_.on_reload) callbacks_.on_reload(report);
      if (!reloader_) break;  // a callback lost the device
    }
  }
  if (retry_pending_) {
    retry_pending_ = false;
    if (auto retried = controller_->retry(); !retried) on_state(device::DeviceState::Failed);
  }
}

Result<void> Engine::wait_until_ready(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  gpu::count_blocking_wait();
  for (;;) {
    poll();
    if (state_ == EngineState::Ready) return {};
    if (state_ == EngineState::Failed) return make_error(ErrorKind::DeviceFailed, MessageId::EngineGaveUp, message());
    if (std::chrono::steady_clock::now() >= deadline) {
      return make_error(ErrorKind::Timeout, MessageId::EngineReadyTimeout,
                        fmt::format("no device was ready within {} ms: {}", timeout.count(), message()));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

Result<void> Engine::force_device_loss(std::string_view why) {
  // Allowed while a device is being prepared too (a loss in the middle of a rebuild).
  if (registry_->device_lost() || state_ == EngineState::Failed) return no_device_error("force_device_loss");
  context_->procs().DeviceForceLoss(registry_->device(), gpu::DeviceLostReason::Unknown, gpu::StringView(why));
  // The device is gone now; the controller hears of it at the next poll().
  lose();
  state_ = EngineState::Recovering;
  return {};
}

Result<void> Engine::mark_presented() {
  if (state_ != EngineState::Ready) return no_device_error("mark_presented");
  return controller_->mark_presented();
}

void Engine::add_observer(GenerationObserver& observer) { observers_.push_back(&observer); }

void Engine::remove_observer(GenerationObserver& observer) { std::erase(observers_, &observer); }

}  // namespace warden::engine
