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
  const uint64_t layer_count = budget_layers + options.in_flight_headroom;
  if (layer_count > limits.maxTextureArrayLayers) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileLayerTooManyLayers,
                      fmt::format("tile layer '{}': {} tile layers of {} bytes plus {} in flight exceed this device's "
                                  "{} array layers; a budget of at most {} bytes fits",
                                  name, budget_layers, *layer_bytes, options.in_flight_headroom,
                                  limits.maxTextureArrayLayers,
                                  uint64_t{limits.maxTextureArrayLayers - options.in_flight_headroom} * *layer_bytes));
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
  if (observing_) engine_.remove_observer(*this);
  // The pool outlives the cache here, so the layers go back to it; then the objects go, users
  // first (the members' reverse order).
  if (cache_) (void)cache_->clear();
}

Result<void> TileLayer::begin_frame(const tiles::FrameView& view) {
  if (!within_budget()) ++counters_.over_budget_frames;
  return cache_->begin_frame(view);
}

Result<tiles::RequestStatus> TileLayer::request(const tiles::TileKey& key) { return cache_->request(key); }

Result<uint32_t> TileLayer::dispatch(tiles::TileFetcher& fetcher) { return cache_->dispatch(fetcher); }

Result<tiles::DeliverReport> TileLayer::deliver(const Frame& frame, tiles::Priority priority) {
  gpu::CommandEncoder encoder = frame.encoder();
  auto report = cache_->deliver(
      [&](const tiles::TileKey&, tiles::LayerIndex index, std::span<const uint8_t> texels) -> Result<void> {
        if (auto written = array_->upload(encoder, index, texels); !written) return written;
        return pool_->touch(index);  // its mip passes are recorded into this frame
      },
      priority);
  if (!report) return report;
  counters_.tiles_uploaded += report->loaded;
  counters_.fetch_failures += report->failed.size();
  return report;
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
  if (instances.empty()) return {};
  if (auto written = renderer_->write_instances(instances); !written) return written;
  if (auto drawn = renderer_->draw(pass, *group_, static_cast<uint32_t>(instances.size())); !drawn) return drawn;
  engine_.registry().touch(group_->handle());
  return {};
}

void TileLayer::device_lost(uint64_t) {
  // Every resident tile was in the lost device's array: none may be drawn again. After the
  // registry's next poll every layer is free (nothing of the lost device is waited for).
  (void)cache_->clear();
  ++counters_.clears;
}

void TileLayer::device_ready(uint64_t) {
  // The registry made the array, views, pipelines and bind groups again under their handles;
  // the cache is empty and the frame loop's requests fill it, nearest first.
}

}  // namespace warden::engine
