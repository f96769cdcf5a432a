#include "warden/demo/tile_map_demo.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <deque>
#include <list>
#include <memory>
#include <optional>
#include <thread>
#include <unordered_map>

#include "warden/core/submission_clock.h"
#include "warden/resources/registry.h"
#include "warden/demo/camera.h"
#include "warden/demo/folder_tiles.h"
#include "warden/demo/mercator_tiler.h"
#include "warden/demo/report_html.h"
#include "warden/demo/tile_server.h"
#include "warden/tiles/sizing.h"
#include "warden/tiles/tile_cache.h"
#include "warden/tiles/tile_gpu.h"
#include "warden/gpu/objects.h"

namespace warden::demo {
namespace {

using tiles::TileKey;
using Clock = std::chrono::steady_clock;

constexpr uint32_t kTileSize = 256;
// Layers beyond the budget's, so that layers released this frame (in flight until their last
// reader retires) do not starve the next frame's uploads.
constexpr uint32_t kInFlightHeadroom = 16;
constexpr uint32_t kMaxUploadsPerFrame = 6;
constexpr uint32_t kRetryAfterFrames = 10;  // a failed fetch is asked for again this much later
constexpr std::chrono::seconds kDrainTimeout{30};

// One map layer (day or night): where its tiles come from and which of them are resident.
struct LayerTiles {
  std::unique_ptr<TileServer> server;
  std::optional<tiles::TileCache> cache;
  std::deque<FetchedTile> ready;  // fetched, waiting for a frame with upload room
  std::unordered_map<TileKey, uint32_t, tiles::TileKeyHash> retry_at;
};

// A snapshot copied into a buffer, mapped asynchronously; written once the map completes.
struct PendingSnapshot {
  uint32_t frame = 0;
  gpu::Ref<gpu::Buffer> buffer;
  bool mapped = false;
  gpu::MapAsyncStatus status = gpu::MapAsyncStatus::Error;
};

// A tile position visible this frame, in target pixels.
struct VisibleTile {
  TileKey key;
  float x = 0, y = 0, size = 0;
};

std::vector<VisibleTile> visible_tiles(const CameraPose& pose, uint32_t max_zoom, uint32_t width, uint32_t height) {
  const auto z = static_cast<uint32_t>(std::clamp(std::floor(pose.zoom), 0.0, static_cast<double>(max_zoom)));
  const double scale = std::exp2(pose.zoom - z);  // target pixels per world pixel of zoom z
  const WorldPixel centre = to_world_pixel(pose.centre, z, kTileSize);
  const double left = centre.x - width / 2.0 / scale, top = centre.y - height / 2.0 / scale;
  const auto side = static_cast<int64_t>(1) << z;
  std::vector<VisibleTile> out;
  const auto tx0 = static_cast<int64_t>(std::floor(left / kTileSize));
  const auto tx1 = static_cast<int64_t>(std::floor((left + width / scale) / kTileSize));
  const auto ty0 = std::max<int64_t>(0, static_cast<int64_t>(std::floor(top / kTileSize)));
  const auto ty1 = std::min<int64_t>(side - 1, static_cast<int64_t>(std::floor((top + height / scale) / kTileSize)));
  for (int64_t ty = ty0; ty <= ty1; ++ty) {
    for (int64_t tx = tx0; tx <= tx1; ++tx) {
      const int64_t wrapped = ((tx % side) + side) % side;  // the map repeats east and west
      out.push_back({{z, static_cast<uint32_t>(wrapped), static_cast<uint32_t>(ty)},
                     static_cast<float>((tx * kTileSize - left) * scale), static_cast<float>((ty * kTileSize - top) * scale),
                     static_cast<float>(kTileSize * scale)});
    }
  }
  return out;
}

class TileMapDemo {
 public:
  TileMapDemo(const DemoDevice& gpu, const DemoOptions& options, Diagnostics& log)
      : gpu_(gpu), options_(options), camera_(options.frames), log_(log) {}
  // A run that ended early may leave readbacks mapping: abort them and let their callbacks
  // run now, while the PendingSnapshots they point at still exist.
  ~TileMapDemo() {
    if (snapshots_.empty()) return;
    for (PendingSnapshot& pending : snapshots_) procs().BufferUnmap(pending.buffer.get());
    gpu_.context->process_events();
  }
  TileMapDemo(const TileMapDemo&) = delete;
  TileMapDemo& operator=(const TileMapDemo&) = delete;

  Result<DemoReport> run(ProgressLine* progress);

 private:
  const gpu::Procs& procs() const { return gpu_.context->procs(); }
  Result<void> open_sources();
  Result<void> create_gpu_objects();
  void collect_fetched(uint32_t frame);
  Result<uint32_t> upload_ready(LayerTiles& layer, gpu::CommandEncoder encoder, uint32_t& misses);
  Result<void> render_frame(uint32_t frame, FrameSample& sample);
  // Copies finished readbacks to the host (captured_); never waits.
  void collect_snapshots();
  Result<void> drain_snapshots();

  DemoDevice gpu_;
  DemoOptions options_;
  ScriptedCamera camera_;
  DemoReport report_;
  Diagnostics& log_;

  // Tile sources: Blue Marble (day and night) or one folder (one layer).
  std::optional<BlueMarble> earth_;
  std::unique_ptr<FolderTiles> folder_;
  std::vector<LayerTiles> layers_;  // [MapLayer]

  // Custody of the tile GPU objects, and the submission clock; declared before what it holds,
  // so it goes after them.
  std::unique_ptr<resources::Registry> registry_;
  std::unique_ptr<tiles::LayerPool> pool_;
  std::unique_ptr<tiles::MipGenerator> mips_;
  std::unique_ptr<tiles::TileArray> array_;
  std::unique_ptr<tiles::TileRenderer> renderer_;
  std::optional<tiles::TileBindGroup> bind_group_;
  gpu::Ref<gpu::Texture> target_;
  gpu::Ref<gpu::TextureView> target_view_;
  std::list<PendingSnapshot> snapshots_;  // stable addresses: map callbacks point at them
  std::vector<uint32_t> snapshot_frames_;
  std::vector<std::pair<uint32_t, RgbaImage>> captured_;  // (frame, pixels), written after the run
};

Result<void> TileMapDemo::open_sources() {
  std::vector<TileProvider*> providers;
  if (options_.tiles_dir.empty()) {
    auto earth = BlueMarble::load(kXplanetImagesDir, kTileSize);
    if (!earth) return earth.error();
    earth_.emplace(std::move(*earth));
    providers = {&earth_->day, &earth_->night};
  } else {
    auto folder = FolderTiles::open(options_.tiles_dir, log_, kTileSize);
    if (!folder) return folder.error();
    folder_ = std::move(*folder);
    providers = {folder_.get()};  // one layer: a folder has no night
  }
  layers_.resize(providers.size());
  for (size_t i = 0; i < providers.size(); ++i) {
    // Each layer draws its own failures from the seed: day and night differ, runs repeat.
    auto server = TileServer::start(*providers[i], {options_.fetch_latency, options_.fetch_failure_rate, options_.seed * 2 + i});
    if (!server) return server.error();
    layers_[i].server = std::move(*server);
    layers_[i].server->request({0, 0, 0});  // the root, pinned once resident: no position is ever blank
  }
  return {};
}

Result<void> TileMapDemo::create_gpu_objects() {
  const gpu::Procs& p = procs();
  auto layer_bytes = tiles::texture_bytes(gpu::TextureFormat::RGBA8Unorm, kTileSize, kTileSize,
                                          tiles::full_mip_count(kTileSize, kTileSize), 1);
  if (!layer_bytes) return layer_bytes.error();
  const uint64_t budget = options_.budget_mb << 20;
  const uint64_t per_layer_budget = budget / layers_.size();
  const uint64_t budget_layers = budget / *layer_bytes;
  gpu::Limits limits;
  p.DeviceGetLimits(gpu_.device, &limits);
  const uint64_t layer_count = budget_layers + kInFlightHeadroom;
  if (layer_count > limits.maxTextureArrayLayers) {
    return make_error(ErrorKind::InvalidArgument,
                      fmt::format("--budget-mb {}: {} tile layers of {} bytes plus {} in flight exceed this device's "
                                  "{} array layers; choose at most {} MB",
                                  options_.budget_mb, budget_layers, *layer_bytes, kInFlightHeadroom,
                                  limits.maxTextureArrayLayers,
                                  (limits.maxTextureArrayLayers - kInFlightHeadroom) * *layer_bytes >> 20));
  }
  // A view per (layer, level >= 1): a large budget on a device with many array layers needs
  // more than the default 4,096 views.
  resources::RegistryOptions registry_options;
  const uint64_t views = tiles::TileArray::view_count(static_cast<uint32_t>(layer_count),
                                                      tiles::full_mip_count(kTileSize, kTileSize));
  registry_options.texture_view_capacity = std::max<uint32_t>(registry_options.texture_view_capacity,
                                                               static_cast<uint32_t>(views) + 64);
  registry_ = std::make_unique<resources::Registry>(*gpu_.context, gpu_.device, gpu_.queue, std::move(registry_options));
  pool_ = std::make_unique<tiles::LayerPool>(static_cast<uint32_t>(layer_count), registry_->clock());
  for (LayerTiles& layer : layers_) {
    auto cache = tiles::TileCache::create(*pool_, per_layer_budget, *layer_bytes);
    if (!cache) return cache.error();
    layer.cache.emplace(std::move(*cache));
  }
  auto mips = tiles::MipGenerator::create(*registry_, gpu::TextureFormat::RGBA8Unorm);
  if (!mips) return mips.error();
  mips_ = std::make_unique<tiles::MipGenerator>(std::move(*mips));
  auto array = tiles::TileArray::create(*mips_, {kTileSize, static_cast<uint32_t>(layer_count), 0, "demo tiles"});
  if (!array) return array.error();
  array_ = std::make_unique<tiles::TileArray>(std::move(*array));
  // At zoom scale >= 1 a tile covers at least 256 pixels: this many positions at most.
  const uint32_t max_instances = (options_.width / kTileSize + 2) * (options_.height / kTileSize + 2);
  auto renderer = tiles::TileRenderer::create(*registry_, gpu::TextureFormat::RGBA8Unorm, max_instances);
  if (!renderer) return renderer.error();
  renderer_ = std::make_unique<tiles::TileRenderer>(std::move(*renderer));
  auto group = renderer_->make_bind_group(*array_);
  if (!group) return group.error();
  bind_group_.emplace(std::move(*group));

  gpu::TextureDescriptor desc;
  desc.label = "demo target";
  desc.size = {options_.width, options_.height, 1};
  desc.format = gpu::TextureFormat::RGBA8Unorm;
  desc.usage = gpu::TextureUsage::RenderAttachment | gpu::TextureUsage::CopySrc;
  target_ = gpu::Ref<gpu::Texture>(&p, p.DeviceCreateTexture(gpu_.device, &desc));
  target_view_ = gpu::Ref<gpu::TextureView>(&p, p.TextureCreateView(target_.get(), nullptr));
  report_.vram_budget_bytes = budget;
  return {};
}

void TileMapDemo::collect_fetched(uint32_t frame) {
  for (LayerTiles& layer : layers_) {
    for (FetchedTile& tile : layer.server->take_completed()) {
      if (tile.image) {
        layer.ready.push_back(std::move(tile));
      } else {
        ++report_.tile_fetch_failures;
        layer.retry_at[tile.key] = frame + kRetryAfterFrames;
      }
    }
  }
}

Result<uint32_t> TileMapDemo::upload_ready(LayerTiles& layer, gpu::CommandEncoder encoder, uint32_t& misses) {
  uint32_t uploaded = 0;
  while (!layer.ready.empty() && uploaded < kMaxUploadsPerFrame) {
    const FetchedTile& tile = layer.ready.front();
    auto fill = [&](const TileKey&, tiles::LayerIndex index) -> Result<void> {
      if (auto written = array_->upload(encoder, index, tile.image->texels); !written) return written;
      return pool_->touch(index);  // the mip passes are recorded into this frame's encoder
    };
    const bool root = tile.key == TileKey{0, 0, 0};
    auto loaded = layer.cache->load(tile.key, fill, root ? tiles::Priority::Urgent : tiles::Priority::Normal);
    if (!loaded) return loaded.error();
    if (*loaded == tiles::LoadStatus::Deferred || *loaded == tiles::LoadStatus::Held) {
      ++misses;  // no layer can be had this frame: try again next frame
      break;
    }
    if (*loaded == tiles::LoadStatus::Loaded) {
      ++uploaded;
      if (root) (void)layer.cache->pin(tile.key);
    }
    layer.ready.pop_front();
  }
  return uploaded;
}

Result<void> TileMapDemo::render_frame(uint32_t frame, FrameSample& sample) {
  const gpu::Procs& p = procs();
  registry_->poll();
  collect_snapshots();
  collect_fetched(frame);

  const CameraPose pose = camera_.pose(frame);
  const size_t shown = camera_.layer(frame) == MapLayer::Night && layers_.size() > 1 ? 1 : 0;
  LayerTiles& layer = layers_[shown];
  const std::vector<VisibleTile> visible = visible_tiles(pose, options_.max_zoom, options_.width, options_.height);
  std::vector<TileKey> wanted{{0, 0, 0}};  // the root until it is resident (a failed fetch is retried)
  for (const VisibleTile& tile : visible) wanted.push_back(tile.key);
  for (const TileKey& key : wanted) {
    if (layer.cache->is_resident(key)) continue;
    if (auto wait = layer.retry_at.find(key); wait != layer.retry_at.end()) {
      if (frame < wait->second) continue;
      layer.retry_at.erase(wait);
    }
    layer.server->request(key);  // already pending: a no-op
  }

  gpu::Ref<gpu::CommandEncoder> encoder(&p, p.DeviceCreateCommandEncoder(gpu_.device, nullptr));
  uint32_t uploads = 0, misses = 0;
  for (LayerTiles& each : layers_) {
    auto uploaded = upload_ready(each, encoder.get(), misses);
    if (!uploaded) return uploaded.error();
    uploads += *uploaded;
  }

  std::vector<tiles::TileInstance> instances;
  for (const VisibleTile& tile : visible) {
    auto source = layer.cache->draw_source(tile.key);
    if (!source) continue;  // before the root arrives: the clear colour shows
    tiles::TileInstance instance = tiles::place_tile(tile.x, tile.y, tile.size, options_.width, options_.height);
    instance.u0 = source->u0;
    instance.v0 = source->v0;
    instance.uv_scale = source->scale;
    instance.layer = source->layer;
    instances.push_back(instance);
  }
  if (auto written = renderer_->write_instances(instances); !written) return written;
  gpu::RenderPassEncoder pass = gpu::begin_clear_pass(p, encoder.get(), target_view_.get(), {0.05, 0.05, 0.08, 1});
  auto drawn = renderer_->draw(pass, *bind_group_, static_cast<uint32_t>(instances.size()));
  p.RenderPassEncoderEnd(pass);
  p.RenderPassEncoderRelease(pass);
  if (!drawn) return drawn;

  PendingSnapshot* snapshot = nullptr;
  if (std::binary_search(snapshot_frames_.begin(), snapshot_frames_.end(), frame)) {
    gpu::BufferDescriptor desc;
    desc.usage = gpu::BufferUsage::MapRead | gpu::BufferUsage::CopyDst;
    desc.size = uint64_t{options_.width} * options_.height * 4;
    snapshot = &snapshots_.emplace_back();
    snapshot->frame = frame;
    snapshot->buffer = gpu::Ref<gpu::Buffer>(&p, p.DeviceCreateBuffer(gpu_.device, &desc));
    gpu::copy_image_to_buffer(p, encoder.get(), target_.get(), snapshot->buffer.get(), options_.width, options_.height,
                              options_.width * 4);
  }
  gpu::CommandBuffer commands = p.CommandEncoderFinish(encoder.get(), nullptr);
  registry_->submit(commands);
  p.CommandBufferRelease(commands);
  if (snapshot != nullptr) {
    gpu::BufferMapCallbackInfo done;
    done.mode = gpu::CallbackMode::AllowProcessEvents;  // delivered by a later poll: no wait
    done.userdata1 = snapshot;
    done.callback = [](gpu::MapAsyncStatus status, gpu::StringView, void* pending, void*) {
      static_cast<PendingSnapshot*>(pending)->mapped = true;
      static_cast<PendingSnapshot*>(pending)->status = status;
    };
    p.BufferMapAsync(snapshot->buffer.get(), gpu::MapMode::Read, 0, uint64_t{options_.width} * options_.height * 4, done);
  }

  const tiles::LayerPoolCounts counts = pool_->counts();
  sample.layers_free = counts.free;
  sample.layers_in_flight = counts.in_flight;
  sample.layers_allocated = counts.allocated;
  for (const LayerTiles& each : layers_) sample.vram_bytes += each.cache->resident_bytes();
  sample.uploads = uploads;
  sample.misses = misses;
  report_.tiles_uploaded += uploads;
  report_.acquire_misses += misses;
  return {};
}

void TileMapDemo::collect_snapshots() {
  const gpu::Procs& p = procs();
  for (auto it = snapshots_.begin(); it != snapshots_.end();) {
    if (!it->mapped) {
      ++it;
      continue;
    }
    const uint64_t size = uint64_t{options_.width} * options_.height * 4;
    const auto* data = it->status == gpu::MapAsyncStatus::Success
                           ? static_cast<const uint8_t*>(p.BufferGetConstMappedRange(it->buffer.get(), 0, size))
                           : nullptr;
    if (data != nullptr) {
      captured_.push_back({it->frame, RgbaImage{options_.width, options_.height, std::vector<uint8_t>(data, data + size)}});
      p.BufferUnmap(it->buffer.get());
    } else {
      log_.error(category::kDemoTiles, fmt::format("snapshot of frame {}: the readback could not be mapped", it->frame));
    }
    it = snapshots_.erase(it);
  }
}

Result<void> TileMapDemo::drain_snapshots() {
  // After the last frame: a tool wait, outside the frame loop, for the last readbacks.
  if (auto idle = gpu_.context->wait_queue_idle(gpu_.queue, kDrainTimeout); !idle) return idle.error();
  const auto deadline = Clock::now() + kDrainTimeout;
  while (!snapshots_.empty() && Clock::now() < deadline) {
    gpu_.context->process_events();
    collect_snapshots();
  }
  if (!snapshots_.empty()) {
    return make_error(ErrorKind::Timeout, fmt::format("{} snapshot readbacks did not finish", snapshots_.size()));
  }
  // PNG encoding and file writes stay off the frame path: all of them after the last frame.
  std::sort(captured_.begin(), captured_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [frame, image] : captured_) {
    const auto path = options_.out / fmt::format("frame-{:04}.png", frame);
    if (auto written = write_png(image, path); !written) return written.error();
    report_.snapshots.push_back({frame, path});
  }
  return {};
}

Result<DemoReport> TileMapDemo::run(ProgressLine* progress) {
  if (auto valid = check_options(options_); !valid) return valid.error();
  std::error_code ec;
  std::filesystem::create_directories(options_.out, ec);
  if (ec) return make_error(ErrorKind::Io, fmt::format("--out {}: cannot create it: {}", options_.out.string(), ec.message()));
  if (auto opened = open_sources(); !opened) return opened.error();
  if (auto created = create_gpu_objects(); !created) return created.error();
  snapshot_frames_ = snapshot_frames(options_);
  report_.backend = gpu_.backend;
  report_.adapter = gpu_.adapter;

  const uint64_t waits_before = gpu::blocking_wait_count();
  const auto start = Clock::now();
  for (uint32_t frame = 0; frame < options_.frames; ++frame) {
    const auto frame_start = Clock::now();
    FrameSample sample;
    sample.frame = frame;
    if (auto rendered = render_frame(frame, sample); !rendered) return rendered.error();
    sample.frame_ms = std::chrono::duration<double, std::milli>(Clock::now() - frame_start).count();
    std::this_thread::sleep_until(frame_start + options_.frame_interval);  // the display's pace, not a GPU wait
    report_.samples.push_back(sample);
    report_.frames = frame + 1;
    if (progress != nullptr) {
      const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
      ProgressSample status{frame, seconds > 0 ? (frame + 1) / seconds : 0, 0, sample.vram_bytes,
                            report_.vram_budget_bytes, 0, 0};
      for (const LayerTiles& each : layers_) status.tiles_resident += each.cache->resident_count();
      progress->update(status);
    }
  }
  report_.blocking_waits = gpu::blocking_wait_count() - waits_before;
  for (LayerTiles& layer : layers_) (void)layer.server->stop();
  if (auto drained = drain_snapshots(); !drained) return drained.error();

  if (auto json = write_report_json(report_, options_.out / "report.json"); !json) return json.error();
  auto uplot = UplotAssets::load();
  if (!uplot) return uplot.error();
  if (auto html = write_report_html(report_, *uplot, options_.out / "report.html"); !html) return html.error();
  return report_;
}

}  // namespace

Result<void> check_options(const DemoOptions& o) {
  auto bad = [](std::string message) { return make_error(ErrorKind::InvalidArgument, std::move(message)); };
  if (o.frames == 0) return bad("--frames must be at least 1");
  if (o.width == 0 || o.height == 0 || o.width > 4096 || o.height > 4096) {
    return bad(fmt::format("--size {}x{}: width and height must be in 1..4096", o.width, o.height));
  }
  if (o.width % 64 != 0) {
    return bad(fmt::format("--size {}x{}: the width must be a multiple of 64 (snapshot rows are read back in "
                           "256-byte steps)", o.width, o.height));
  }
  if (o.budget_mb == 0) return bad("--budget-mb must be at least 1");
  if (o.frame_interval.count() < 0) return bad(fmt::format("--frame-interval-ms {} is negative", o.frame_interval.count()));
  if (o.max_zoom > kMaxZoom) return bad(fmt::format("--max-zoom {} is beyond {}", o.max_zoom, kMaxZoom));
  if (!(o.fetch_failure_rate >= 0.0 && o.fetch_failure_rate <= 1.0)) {
    return bad(fmt::format("--failure-rate {} is outside [0, 1]", o.fetch_failure_rate));
  }
  if (o.fetch_latency.count() < 0) return bad(fmt::format("--fetch-latency-ms {} is negative", o.fetch_latency.count()));
  return {};
}

std::vector<uint32_t> snapshot_frames(const DemoOptions& o) {
  std::vector<uint32_t> frames;
  const uint32_t count = std::min(o.snapshots, o.frames);  // a short run snapshots every frame
  for (uint32_t i = 1; i <= count; ++i) {
    const auto frame = static_cast<uint32_t>(uint64_t{o.frames} * i / count) - 1;
    if (frames.empty() || frames.back() != frame) frames.push_back(frame);
  }
  return frames;
}

Result<DemoReport> run_tile_map_demo(const DemoDevice& gpu, const DemoOptions& options, ProgressLine* progress,
                                     Diagnostics& log) {
  TileMapDemo demo(gpu, options, log);
  return demo.run(progress);
}

}  // namespace warden::demo
