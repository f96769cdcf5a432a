#include "warden/engine/tile_layer.h"

#include <fmt/format.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <tuple>

#include "warden/tiles/sizing.h"

namespace warden::engine {

// The upload threads: each takes a handed-off write, writes level 0 unless a loss came after
// its hand-off, and leaves it for the frame thread's next deliver(). Jobs are made and
// destroyed on the frame thread only (they hold GPU references); a thread only moves them.
class TileLayer::Uploads {
 public:
  struct Job {
    tiles::FillTicket ticket;
    tiles::Level0Write target;
    std::vector<uint8_t> texels;
    uint64_t losses = 0;  // TileLayer::losses_ at hand-off
    Result<void> written{};
  };

  // No threads: the frame thread writes each job at hand-off, and push() finishes it at once.
  Uploads(uint32_t threads, const std::atomic<uint64_t>& losses) : losses_(losses) {
    for (uint32_t i = 0; i < threads; ++i) threads_.emplace_back([this] { run(); });
  }
  bool threads_write() const { return !threads_.empty(); }
  ~Uploads() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& thread : threads_) thread.join();
  }
  Uploads(const Uploads&) = delete;
  Uploads& operator=(const Uploads&) = delete;

  void push(Job job) {
    {
      std::lock_guard lock(mutex_);
      if (threads_write()) {
        queued_.push_back(std::move(job));
      } else {
        finished_.push_back(std::move(job));
      }
      ++in_progress_;
    }
    wake_.notify_one();
  }
  std::vector<Job> take_finished() {
    std::lock_guard lock(mutex_);
    in_progress_ -= finished_.size();
    return std::exchange(finished_, {});
  }
  size_t in_progress() const {
    std::lock_guard lock(mutex_);
    return in_progress_;
  }

 private:
  void run() {
    std::unique_lock lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stopping_ || !queued_.empty(); });
      if (stopping_) return;  // what is queued is the frame thread's to let go of
      Job job = std::move(queued_.front());
      queued_.pop_front();
      lock.unlock();
      if (job.losses == losses_.load()) {
        job.target.write(job.texels);
      } else {
        // Its fill was cancelled by the loss: nothing to write, and nothing to publish.
        job.written = make_error(ErrorKind::DeviceFailed, MessageId::EngineDeviceLost,
                                 fmt::format("upload of {}: the device was lost after its hand-off",
                                             tiles::to_string(job.ticket.key)));
      }
      lock.lock();
      finished_.push_back(std::move(job));
    }
  }

  const std::atomic<uint64_t>& losses_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> queued_;
  std::vector<Job> finished_;
  size_t in_progress_ = 0;  // pushed, not yet taken back
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

Result<std::unique_ptr<TileLayer>> TileLayer::create(Engine& engine, TileLayerOptions options) {
  const std::string& name = options.label;
  if (engine.device() == nullptr) {
    return make_error(ErrorKind::DeviceFailed, MessageId::EngineDeviceLost,
                      fmt::format("tile layer \"{}\": device lost (device generation {}), rebuilding", name,
                                  engine.device_generation()));
  }
  const uint32_t mip_levels = tiles::full_mip_count(options.tile_size, options.tile_size);
  auto layer_bytes = tiles::texture_bytes(options.target_format, options.tile_size, options.tile_size, mip_levels, 1);
  if (!layer_bytes) return layer_bytes.error();
  const uint64_t budget_layers = options.budget_bytes / *layer_bytes;
  if (budget_layers == 0) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileLayerBudgetBelowLayer,
                      fmt::format("tile layer \"{}\": a budget of {} bytes is below one tile layer ({} bytes)", name,
                                  options.budget_bytes, *layer_bytes));
  }
  if (options.cpu_cache_budget_bytes > 0 && options.memory_uploads_per_frame == 0) {
    // A held tile is never fetched, so with no uploads from memory it would never come back.
    return make_error(ErrorKind::InvalidArgument, MessageId::TileLayerNoMemoryUploads,
                      fmt::format("tile layer \"{}\": memory_uploads_per_frame is 0 while {} bytes of tiles are kept in "
                                  "memory, so a tile held there would never be uploaded; allow at least 1, or set "
                                  "cpu_cache_budget_bytes to 0",
                                  name, options.cpu_cache_budget_bytes));
  }
  if (options.upload_threads > 0 &&
      !engine.procs().DeviceHasFeature(engine.device(), WGPUFeatureName_ImplicitDeviceSynchronization)) {
    return make_error(ErrorKind::Refused, MessageId::TileLayerUploadThreadsNeedImplicitSync,
                      fmt::format("tile layer \"{}\": {} upload threads write into the device's queue beside the "
                                  "frame thread, which needs a device with "
                                  "WGPUFeatureName_ImplicitDeviceSynchronization (EngineOptions::hot_reload asks for it "
                                  "where the adapter has it); set upload_threads to 0",
                                  name, options.upload_threads));
  }
  WGPULimits limits{};
  engine.procs().DeviceGetLimits(engine.device(), &limits);
  if (options.in_flight_headroom >= limits.maxTextureArrayLayers) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileLayerHeadroomTooLarge,
                      fmt::format("tile layer \"{}\": an in-flight headroom of {} layers leaves none of this device's {} "
                                  "array layers for tiles; the headroom must be below {}",
                                  name, options.in_flight_headroom, limits.maxTextureArrayLayers,
                                  limits.maxTextureArrayLayers));
  }
  const uint64_t layer_count = budget_layers + options.in_flight_headroom;
  if (layer_count > limits.maxTextureArrayLayers) {
    const uint64_t fitting_layers = uint64_t{limits.maxTextureArrayLayers} - options.in_flight_headroom;
    return make_error(ErrorKind::InvalidArgument, MessageId::TileLayerTooManyLayers,
                      fmt::format("tile layer \"{}\": {} tile layers of {} bytes plus {} in flight exceed this device's "
                                  "{} array layers; a budget of at most {} bytes fits",
                                  name, budget_layers, *layer_bytes, options.in_flight_headroom,
                                  limits.maxTextureArrayLayers, fitting_layers * *layer_bytes));
  }

  std::unique_ptr<TileLayer> layer(new TileLayer(engine, options));
  resources::Registry& registry = engine.registry();
  auto mips = tiles::MipGenerator::create(registry, options.target_format);
  if (!mips) return mips.error();
  layer->mips_.emplace(std::move(*mips));
  auto array = tiles::TileArray::create(
      *layer->mips_, {options.tile_size, static_cast<uint32_t>(layer_count), mip_levels, options.label});
  if (!array) return array.error();
  layer->array_.emplace(std::move(*array));
  auto renderer = options.shader.is_null()
                      ? tiles::TileRenderer::create(registry, options.target_format, options.max_instances)
                      : tiles::TileRenderer::create(registry, options.target_format, options.max_instances,
                                                    {options.shader, &engine.pipelines()});
  if (!renderer) return renderer.error();
  layer->renderer_.emplace(std::move(*renderer));
  auto group = layer->renderer_->make_bind_group(*layer->array_);
  if (!group) return group.error();
  layer->group_.emplace(std::move(*group));
  layer->pool_.emplace(static_cast<uint32_t>(layer_count), registry.clock());
  auto cache = tiles::TileCache::create(*layer->pool_, options.budget_bytes, *layer_bytes, options.max_fetches_in_flight);
  if (!cache) return cache.error();
  layer->cache_.emplace(std::move(*cache));
  layer->cache_->set_diagnostics(&engine.diagnostics());
  if (options.upload_threads > 0) {
    const bool gl = engine.backend() == WGPUBackendType_OpenGL || engine.backend() == WGPUBackendType_OpenGLES;
    layer->uploads_ = std::make_unique<Uploads>(gl ? 0 : options.upload_threads, layer->losses_);
  }
  engine.add_observer(*layer);
  layer->observing_ = true;
  return layer;
}

TileLayer::TileLayer(Engine& engine, const TileLayerOptions& options)
    : engine_(engine), texels_(options.cpu_cache_budget_bytes), memory_uploads_per_frame_(options.memory_uploads_per_frame) {}

TileLayer::~TileLayer() {
  stop_uploads();
  if (engine_gone_) return;  // engine_ending let go of everything
  if (observing_) engine_.remove_observer(*this);
  // The pool outlives the cache here, so the layers go back to it; then the objects go, users
  // first (the members' reverse order).
  if (cache_) (void)cache_->clear();
}

void TileLayer::stop_uploads() {
  // Joined first: no thread writes into a layer the cache gives back below.
  uploads_.reset();
}

size_t TileLayer::uploads_in_progress() const { return uploads_ ? uploads_->in_progress() : 0; }

bool TileLayer::uploads_on_threads() const { return uploads_ && uploads_->threads_write(); }

Result<void> TileLayer::usable(std::string_view call) const {
  if (engine_gone_) {
    return make_error(ErrorKind::Refused, MessageId::TileLayerEngineGone,
                      fmt::format("tile layer {}: its engine was destroyed", call));
  }
  // The layer's state and the engine's frame are the frame thread's, as the engine's frame calls are.
  if (auto refused = engine_.frame_thread().check("tile layer", call)) return *refused;
  return {};
}

Result<void> TileLayer::begin_frame(const tiles::FrameView& view) {
  if (auto ok = usable("begin_frame"); !ok) return ok;
  settle_pending_clear();
  if (!within_budget()) ++counters_.over_budget_frames;
  auto begun = cache_->begin_frame(view);
  settle_pending_clear();
  if (!begun) return begun;
  last_view_.assign(view.visible.begin(), view.visible.end());
  centre_x_ = view.centre_x;
  centre_y_ = view.centre_y;
  from_memory_.clear();  // requests are renewed every frame, as the cache's are
  return begun;
}

Result<tiles::RequestStatus> TileLayer::request(const tiles::TileKey& key) {
  if (auto ok = usable("request"); !ok) return ok.error();
  // Every request is a use in memory, resident or not: the tiles on screen go out last.
  if (texels_.touch(key) && !cache_->is_resident(key) && !cache_->is_filling(key)) {
    if (std::find(from_memory_.begin(), from_memory_.end(), key) == from_memory_.end()) from_memory_.push_back(key);
    return tiles::RequestStatus::FromMemory;
  }
  auto status = cache_->request(key);
  settle_pending_clear();
  return status;
}

Result<uint32_t> TileLayer::dispatch(tiles::TileFetcher& fetcher) {
  if (auto ok = usable("dispatch"); !ok) return ok.error();
  auto started = cache_->dispatch(fetcher);
  settle_pending_clear();
  return started;
}

Result<tiles::DeliverReport> TileLayer::deliver(const Frame& frame, tiles::Priority priority) {
  if (auto ok = usable("deliver"); !ok) return ok.error();
  WGPUCommandEncoder encoder = frame.encoder();
  // device_ready could not record the cover: it goes first into this frame, before it draws.
  if (restore_pending_ && !clear_pending_) restore_pending_ = !restore_view(encoder);
  auto report = uploads_ ? deliver_through_threads(encoder, priority) : cache_->deliver(
      [&](const tiles::TileKey& key, tiles::LayerIndex index, std::span<const uint8_t> texels) -> Result<void> {
        if (auto written = array_->upload(encoder, index, texels); !written) return written;
        if (auto touched = pool_->touch(index); !touched) return touched;  // its mip passes are recorded into this frame
        texels_.put(key, std::vector<uint8_t>(texels.begin(), texels.end()));
        return {};
      },
      priority);
  // A loss heard inside deliver (a sink that polled) left the lost device's tiles resident.
  settle_pending_clear();
  if (!report) return report;
  counters_.tiles_uploaded += report->loaded;
  counters_.fetch_failures += report->failed.size();
  if (clear_pending_) return report;

  // The visible positions' own tiles first (what settles the view), then nearest the centre.
  auto visible = [&](const tiles::TileKey& key) {
    return std::find(last_view_.begin(), last_view_.end(), key) != last_view_.end();
  };
  auto distance = [&](const tiles::TileKey& key) {
    const double tiles = static_cast<double>(uint64_t{1} << key.z);
    const double dx = (key.x + 0.5) / tiles - centre_x_, dy = (key.y + 0.5) / tiles - centre_y_;
    return dx * dx + dy * dy;
  };
  std::sort(from_memory_.begin(), from_memory_.end(), [&](const tiles::TileKey& a, const tiles::TileKey& b) {
    return std::make_tuple(!visible(a), distance(a), a.z, a.y, a.x) < std::make_tuple(!visible(b), distance(b), b.z, b.y, b.x);
  });
  uint32_t uploaded = 0;
  for (auto it = from_memory_.begin(); it != from_memory_.end() && uploaded < memory_uploads_per_frame_;) {
    // Gone from memory since its request (evicted by this deliver's puts): the next request fetches it.
    if (cache_->is_resident(*it) || !texels_.contains(*it)) {
      it = from_memory_.erase(it);
      continue;
    }
    auto status = upload_from_memory(encoder, *it, priority);
    if (!status) {
      // Texels the array refuses are no use kept: the tile's next request fetches it afresh.
      texels_.erase(*it);
      report->failed.emplace_back(*it, status.error());
      ++counters_.fetch_failures;
      it = from_memory_.erase(it);
      continue;
    }
    if (*status != tiles::LoadStatus::Loaded) {  // Deferred or Held: asked again next frame
      ++report->waiting;
      ++it;
      continue;
    }
    ++uploaded;
    ++report->loaded;
    ++counters_.tiles_uploaded;
    ++counters_.memory_uploads;
    it = from_memory_.erase(it);
  }
  return report;
}

Result<tiles::DeliverReport> TileLayer::deliver_through_threads(WGPUCommandEncoder encoder, tiles::Priority priority) {
  tiles::DeliverReport report;
  for (Uploads::Job& job : uploads_->take_finished()) {
    // A loss heard inside the last finish_fill (a sink that polled) cancels the fills left.
    settle_pending_clear();
    auto outcome = cache_->finish_fill(job.ticket, std::move(job.written),
                                       [&](const tiles::TileKey&, tiles::LayerIndex index) -> Result<void> {
                                         const tiles::LayerIndex one[] = {index};
                                         if (auto mips = array_->regenerate_mips(encoder, one); !mips) return mips;
                                         return pool_->touch(index);  // its mip passes are recorded into this frame
                                       });
    if (!outcome) {
      report.failed.emplace_back(job.ticket.key, outcome.error());
    } else if (*outcome == tiles::ReplyOutcome::Loaded) {
      ++report.loaded;
      texels_.put(job.ticket.key, std::move(job.texels));
    } else {
      ++report.stale;
      ++counters_.stale_uploads;
    }
  }
  settle_pending_clear();
  if (clear_pending_) return report;
  auto handed = cache_->hand_off(
      [&](const tiles::FillTicket& ticket, std::vector<uint8_t> texels) -> Result<void> {
        auto target = array_->level0_write(ticket.layer, texels.size());
        if (!target) return target.error();
        if (!uploads_->threads_write()) target->write(texels);  // GL: see uploads_on_threads()
        uploads_->push({ticket, std::move(*target), std::move(texels), losses_.load(), {}});
        return {};
      },
      priority);
  if (!handed) return handed;
  report.waiting += handed->waiting;
  report.stale += handed->stale;
  report.handed_off += handed->handed_off;
  for (auto& failure : handed->failed) report.failed.push_back(std::move(failure));
  counters_.uploads_handed_off += handed->handed_off;
  return report;
}

Result<tiles::LoadStatus> TileLayer::upload_from_memory(WGPUCommandEncoder encoder, const tiles::TileKey& key,
                                                        tiles::Priority priority) {
  // Held: the callers check contains() first, and nothing changes the TexelCache during the load.
  const std::span<const uint8_t> texels = *texels_.take(key);
  return cache_->load(
      key,
      [&](const tiles::TileKey&, tiles::LayerIndex index) -> Result<void> {
        if (auto written = array_->upload(encoder, index, texels); !written) return written;
        return pool_->touch(index);
      },
      priority);
}

bool TileLayer::restore_view(WGPUCommandEncoder encoder) {
  // The coarsest held ancestor of each position: the fewest uploads that leave no position the
  // map covered blank (usually the root alone covers the whole view).
  std::vector<tiles::TileKey> cover;
  for (const tiles::TileKey& position : last_view_) {
    std::optional<tiles::TileKey> coarsest;
    for (std::optional<tiles::TileKey> k = position; k; k = k->parent()) {
      if (texels_.contains(*k)) coarsest = *k;
    }
    if (coarsest && std::find(cover.begin(), cover.end(), *coarsest) == cover.end()) cover.push_back(*coarsest);
  }
  bool complete = true;
  for (const tiles::TileKey& key : cover) {
    if (cache_->is_resident(key)) continue;
    auto status = upload_from_memory(encoder, key, tiles::Priority::Urgent);
    if (!status) {
      texels_.erase(key);  // the frame loop fetches it afresh
      ++counters_.fetch_failures;
      continue;
    }
    if (*status != tiles::LoadStatus::Loaded) {
      complete = false;
      continue;
    }
    ++counters_.tiles_uploaded;
    ++counters_.memory_uploads;
    ++counters_.restored_after_loss;
  }
  return complete;
}

std::optional<tiles::TileSource> TileLayer::draw_source(const tiles::TileKey& key) {
  if (engine_gone_ || clear_pending_) return std::nullopt;
  return cache_->draw_source(key);
}

tiles::TileInstance TileLayer::place(const tiles::TileSource& source, float x, float y, float size,
                                     uint32_t target_width, uint32_t target_height) {
  tiles::TileInstance instance = tiles::place_tile(x, y, size, target_width, target_height);
  instance.u0 = source.u0;
  instance.v0 = source.v0;
  instance.uv_scale = source.scale;
  instance.layer = source.layer;
  return instance;
}

Result<void> TileLayer::draw(WGPURenderPassEncoder pass, std::span<const tiles::TileInstance> instances) {
  if (auto ok = usable("draw"); !ok) return ok;
  if (instances.empty()) return {};
  if (auto written = renderer_->write_instances(instances); !written) return written;
  if (auto drawn = renderer_->draw(pass, *group_, static_cast<uint32_t>(instances.size())); !drawn) return drawn;
  engine_.registry().touch(group_->handle());
  return {};
}

void TileLayer::device_lost(uint64_t) {
  // Every resident tile was in the lost device's array: none may be drawn again. After the
  // registry's next poll every layer is free (nothing of the lost device is waited for). The
  // texels in memory stay: they bring the view back on the next device.
  losses_.fetch_add(1);  // writes handed off before now are skipped by their threads
  clear_pending_ = true;
  settle_pending_clear();
  from_memory_.clear();
  restore_pending_ = true;
}

void TileLayer::settle_pending_clear() {
  // Refused while the cache is inside one of its own calls: retried as that call returns.
  if (!clear_pending_ || !cache_->clear()) return;
  clear_pending_ = false;
  ++counters_.clears;
}

void TileLayer::device_ready(uint64_t) {
  // The registry made the array, views, pipelines and bind groups again under their handles;
  // the cache is empty. The Engine lets an observer record and submit here, so the last view's
  // cover is on the new device before the application's first frame; the frame loop's
  // requests fill in the rest.
  settle_pending_clear();
  if (engine_gone_ || !restore_pending_ || clear_pending_) return;
  auto frame = engine_.begin_frame();
  if (!frame) return;  // the first deliver() restores instead
  const bool restored = restore_view(frame->encoder());
  if (auto submitted = engine_.submit(std::move(*frame)); !submitted) {
    // Nothing was uploaded: what the cover made resident holds no texels, so none may be drawn.
    // (Lost again, the loss has cleared the cache already.)
    (void)cache_->clear();
    return;
  }
  restore_pending_ = !restored;
}

void TileLayer::engine_ending() {
  stop_uploads();
  engine_gone_ = true;
  observing_ = false;
  if (cache_) (void)cache_->clear();
  // Users before what they use, as the destructor would, while the registry is still there.
  cache_.reset();
  pool_.reset();
  group_.reset();
  renderer_.reset();
  array_.reset();
  mips_.reset();
}

}  // namespace warden::engine
