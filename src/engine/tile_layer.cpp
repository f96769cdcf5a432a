#include "warden/engine/tile_layer.h"

#include <fmt/format.h>

#include "warden/tiles/sizing.h"

namespace warden::engine {

Result<std::unique_ptr<TileLayer>> TileLayer::create(Engine& engine, TileLayerOptions options) {
  const std::string& name = options.label;
  if (engine.device() == nullptr) {
    return make_error(ErrorKind::DeviceFailed, MessageId::EngineDeviceLost,
                      fmt::format("tile layer '{}': device lost (generation {}), rebuilding", name, engine.generation()));
  }
  const uint32_t mip_levels = tiles::full_mip_count(options.tile_size, options.tile_size);
  auto layer_bytes = tiles::texture_bytes(options.target_format, options.tile_size, options.tile_size, mip_levels, 1);
  if (!layer_bytes) return layer_bytes.error();
  const uint64_t budget_layers = options.budget_bytes / *layer_bytes;
  if (budget_layers == 0) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileLayerBudgetBelowLayer,
                      fmt::format("tile layer '{}': a budget of {} bytes is below one tile layer ({} bytes)", name,
                                  options.budget_bytes, *layer_bytes));
  }
  gpu::Limits limits;
  engine.procs().DeviceGetLimits(engine.device(), &limits);
  if (options.in_flight_headroom >= limits.maxTextureArrayLayers) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileLayerHeadroomTooLarge,
                      fmt::format("tile layer '{}': an in-flight headroom of {} layers leaves none of this device's {} "
                                  "array layers for tiles; the headroom must be below {}",
                                  name, options.in_flight_headroom, limits.maxTextureArrayLayers,
                                  limits.maxTextureArrayLayers));
  }
  const uint64_t layer_count = budget_layers + options.in_flight_headroom;
  if (layer_count > limits.maxTextureArrayLayers) {
    const uint64_t fitting_layers = uint64_t{limits.maxTextureArrayLayers} - options.in_flight_headroom;
    return make_error(ErrorKind::InvalidArgument, MessageId::TileLayerTooManyLayers,
                      fmt::format("tile layer '{}': {} tile layers of {} bytes plus {} in flight exceed this device's "
                                  "{} array layers; a budget of at most {} bytes fits",
                                  name, budget_layers, *layer_bytes, options.in_flight_headroom,
                                  limits.maxTextureArrayLayers, fitting_layers * *layer_bytes));
  }

  std::unique_ptr<TileLayer> layer(new TileLayer(engine));
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
  engine.add_observer(*layer);
  layer->observing_ = true;
  return layer;
}

TileLayer::~TileLayer() {
  if (engine_gone_) return;  // engine_ending let go of everything
  if (observing_) engine_.remove_observer(*this);
  // The pool outlives the cache here, so the layers go back to it; then the objects go, users
  // first (the members' reverse order).
  if (cache_) (void)cache_->clear();
}

Result<void> TileLayer::usable(std::string_view call) const {
  if (!engine_gone_) return {};
  return make_error(ErrorKind::Refused, MessageId::TileLayerEngineGone,
                    fmt::format("tile layer {}: its engine was destroyed", call));
}

Result<void> TileLayer::begin_frame(const tiles::FrameView& view) {
  if (auto ok = usable("begin_frame"); !ok) return ok;
  settle_pending_clear();
  if (!within_budget()) ++counters_.over_budget_frames;
  auto begun = cache_->begin_frame(view);
  settle_pending_clear();
  return begun;
}

Result<tiles::RequestStatus> TileLayer::request(const tiles::TileKey& key) {
  if (auto ok = usable("request"); !ok) return ok.error();
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
  gpu::CommandEncoder encoder = frame.encoder();
  auto report = cache_->deliver(
      [&](const tiles::TileKey&, tiles::LayerIndex index, std::span<const uint8_t> texels) -> Result<void> {
        if (auto written = array_->upload(encoder, index, texels); !written) return written;
        return pool_->touch(index);  // its mip passes are recorded into this frame
      },
      priority);
  // A loss heard inside deliver (a sink that polled) left the lost device's tiles resident.
  settle_pending_clear();
  if (!report) return report;
  counters_.tiles_uploaded += report->loaded;
  counters_.fetch_failures += report->failed.size();
  return report;
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

Result<void> TileLayer::draw(gpu::RenderPassEncoder pass, std::span<const tiles::TileInstance> instances) {
  if (auto ok = usable("draw"); !ok) return ok;
  if (instances.empty()) return {};
  if (auto written = renderer_->write_instances(instances); !written) return written;
  if (auto drawn = renderer_->draw(pass, *group_, static_cast<uint32_t>(instances.size())); !drawn) return drawn;
  engine_.registry().touch(group_->handle());
  return {};
}

void TileLayer::device_lost(uint64_t) {
  // Every resident tile was in the lost device's array: none may be drawn again. After the
  // registry's next poll every layer is free (nothing of the lost device is waited for).
  clear_pending_ = true;
  settle_pending_clear();
}

void TileLayer::settle_pending_clear() {
  // Refused while the cache is inside one of its own calls: retried as that call returns.
  if (!clear_pending_ || !cache_->clear()) return;
  clear_pending_ = false;
  ++counters_.clears;
}

void TileLayer::device_ready(uint64_t) {
  // The registry made the array, views, pipelines and bind groups again under their handles;
  // the cache is empty and the frame loop's requests fill it, nearest first.
}

void TileLayer::engine_ending() {
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
