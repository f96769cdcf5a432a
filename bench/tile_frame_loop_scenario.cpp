// Scenario: the same scripted pan drawn two ways, in one run on one device.
//   recycle: one texture_2d_array, layers recycled by the LayerPool under the submission clock,
//            one bind group and one instanced draw per frame (warden's design). Everything is
//            made at start-up (the array, its views and bind groups, the index buffer); a
//            frame's new layers get their chains in one pass per level for up to 4 layers,
//            rendered in the array itself or in a scratch array and copied in (tiles::MipPath);
//   destroy: a texture per tile created on load and destroyed on evict, a bind group and a
//            draw per tile (the design docs/adr/0005 argues against). Each texture's chain is drawn
//            by the same pipeline, one pass per (texture, level): separate textures cannot share
//            a pass's one source binding (docs/adr/0005, "Frame cost").
// 256x256 tiles with full mip chains, 64 visible (8 x 8), 4 new tiles and 4 evictions a frame,
// drawn into a small target so the numbers measure the frame's CPU and driver cost rather than
// the software rasteriser's fill rate. At most two frames in flight, learned only from
// QueueClock::poll() (non-blocking) in both loops.
// Prints: frame_loop_recycle_ms, frame_loop_destroy_ms (mean frame time, 128x128 target) and
// tile_frame_loop_blocking_waits (blocking waits made by the recycle loop: must be 0), then the
// same pan into a 512x512 target (keys ending _512), for the record (docs/adr/0005, "Frame cost").
// The recycle frame's parts (frame_loop_recycle_<part>_us, mean per frame): encoder, upload
// (evict, load, stage or write level 0), mips (regeneration recorded), instances (built and
// written), draw (pass, bind group, draw recorded), submit (end, finish, submit).
// Four recycle variants run at 64 visible tiles, side by side: mips in the array or through
// the scratch array, level 0 by writeTexture or through the upload ring
// (frame_loop_recycle_ms_<mip path>_<upload path>); the fastest is the recycle design of this
// backend (tile_frame_loop_mip_path, tile_frame_loop_upload_path: chosen by measurement, as warden
// chooses per backend) for the main keys, the parts and every curve point.
// tile_frame_loop_upload_probe is what tiles::measure_upload_paths (`warden info`) picks here.
// The device asks for the adapter's limits (gpu::LimitsChoice::Adapter), so the curve's larger
// points run where the adapter allows more than 256 array layers.
// The curve: frame_loop_{recycle,destroy}_ms_<visible> for 16, 64, 256, 1,024 visible tiles
// (grids of 4, 8, 16, 32; half a column enters a frame); a point whose layers the device cannot
// hold in one array (maxTextureArrayLayers) is recorded as tile_frame_loop_skipped_<visible>.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench_support.h"
#include "warden/core/submission_clock.h"
#include "warden/resources/registry.h"
#include "warden/tiles/tile_cache.h"
#include "warden/tiles/tile_gpu.h"
#include "warden/tiles/upload_ring.h"
#include "warden/gpu/context.h"
#include "warden/gpu/names.h"
#include "warden/gpu/objects.h"

namespace {

using namespace warden;
using namespace warden::gpu;
using tiles::TileKey;

constexpr uint32_t kTile = 256;
constexpr uint32_t kGrid = 8;  // 8 x 8 visible: the main keys
constexpr uint32_t kCurveGrids[] = {4, 8, 16, 32};
// The first size gives the keys. 128x128: at 512x512 the final draw of 64 tiles is
// llvmpipe fill-rate work shared by both designs (removing it takes a frame from ~11 ms to
// 4-5 ms), which is what a small target is meant to keep out of the comparison.
constexpr uint32_t kTargets[] = {128, 512};
// Visible tiles, the column entering and the one leaving, two frames in flight: 2 x visible
// covers them all (128 layers for the 8 x 8 grid).
uint32_t layers_for(uint32_t grid) { return 2 * grid * grid; }
constexpr int kWarmupFrames = 10;
constexpr int kRounds = 4;
constexpr int kFramesPerRound = 30;
constexpr uint32_t kZoom = 10;

// The scripted pan: the view moves one column right every two frames; each frame loads half of
// the column about to enter (4 tiles) and evicts half of the column that left.
struct PanStep {
  std::vector<TileKey> evict, load, visible;
  uint32_t first_column = 0;
};
PanStep pan_step(int frame, uint32_t grid) {
  const uint32_t new_per_frame = grid / 2;
  PanStep step;
  const uint32_t s = static_cast<uint32_t>(frame / 2), half = static_cast<uint32_t>(frame % 2);
  step.first_column = s;
  for (uint32_t r = half * new_per_frame; r < (half + 1) * new_per_frame; ++r) {
    if (s >= 1) step.evict.push_back({kZoom, s - 1, r});
    step.load.push_back({kZoom, s + grid, r});
  }
  for (uint32_t y = 0; y < grid; ++y) {
    for (uint32_t x = s; x < s + grid; ++x) step.visible.push_back({kZoom, x, y});
  }
  return step;
}

std::vector<std::vector<uint8_t>> make_images() {
  std::vector<std::vector<uint8_t>> images;
  for (uint32_t i = 0; i < 8; ++i) {
    std::vector<uint8_t> t(kTile * kTile * 4);
    for (uint32_t y = 0; y < kTile; ++y) {
      for (uint32_t x = 0; x < kTile; ++x) {
        uint8_t* px = &t[(y * kTile + x) * 4];
        px[0] = static_cast<uint8_t>(x + i * 31);
        px[1] = static_cast<uint8_t>(y + i * 57);
        px[2] = static_cast<uint8_t>(((x / 32 + y / 32 + i) % 2) * 255);
        px[3] = 255;
      }
    }
    images.push_back(std::move(t));
  }
  return images;
}
const std::vector<uint8_t>& image_for(const std::vector<std::vector<uint8_t>>& images, const TileKey& k) {
  return images[(k.x * 3 + k.y) % images.size()];
}

struct Gpu {
  const Procs* p = nullptr;
  WGPUDevice device = nullptr;
  WGPUQueue queue = nullptr;
  // Custody of every tile object of both designs; its clock is the one both loops submit through.
  std::unique_ptr<resources::Registry> registry;
  std::unique_ptr<tiles::MipGenerator> mips;
  std::unique_ptr<tiles::TileRenderer> renderer;
  Ref<WGPUTexture> target;
  Ref<WGPUTextureView> target_view;
  uint32_t target_size = 0;
  uint32_t grid = kGrid;

  // Keeps at most two frames in flight without blocking: poll only.
  void throttle(uint64_t frames) {
    registry->poll();  // also lets go of what the registry released once its readers retired
    while (registry->clock().in_flight() > frames) registry->poll();
  }
  Ref<WGPUCommandEncoder> encoder() const { return Ref<WGPUCommandEncoder>(p, p->DeviceCreateCommandEncoder(device, nullptr)); }
  WGPURenderPassEncoder begin(WGPUCommandEncoder enc) const { return begin_clear_pass(*p, enc, target_view.get()); }
  void end_and_submit(WGPUCommandEncoder enc, WGPURenderPassEncoder pass) const {
    p->RenderPassEncoderEnd(pass);
    p->RenderPassEncoderRelease(pass);
    WGPUCommandBuffer commands = p->CommandEncoderFinish(enc, nullptr);
    registry->submit(commands);
    p->CommandBufferRelease(commands);
  }
};

tiles::TileInstance at(const Gpu& gpu, uint32_t column, uint32_t row, uint32_t first_column) {
  const float size = static_cast<float>(gpu.target_size), on_screen = size / static_cast<float>(gpu.grid);
  return tiles::place_tile(static_cast<float>(column - first_column) * on_screen,
                           static_cast<float>(row) * on_screen, on_screen, size, size);
}

// The frame's own work, timed, with the poll that keeps two frames in flight outside it.
struct FrameTimes {
  double work_ms = 0;  // poll, evict, load and upload, record, submit: the CPU and driver cost
  double wall_ms = 0;  // also the non-blocking wait for the GPU to retire earlier frames
  int frames = 0;
};

// Where the recycle frame's time goes (ms summed over timed frames).
struct FrameParts {
  double encoder = 0, upload = 0, mips = 0, instances = 0, draw = 0, submit = 0;
};

// One way of running the recycle design.
struct RecycleVariant {
  tiles::MipPath mips = tiles::MipPath::InArray;
  tiles::UploadPath upload = tiles::UploadPath::WriteTexture;
  std::string name() const {  // in_array_write_texture, scratch_ring, ...
    std::string n = fmt::format("{}_{}", tiles::to_string(mips), tiles::to_string(upload));
    std::replace(n.begin(), n.end(), '-', '_');
    return n;
  }
};

class RecycleLoop {
 public:
  RecycleLoop(Gpu& gpu, const std::vector<std::vector<uint8_t>>& images, RecycleVariant variant)
      : gpu_(gpu), images_(images), variant_(variant) {}
  Result<void> init() {
    const uint32_t layers = layers_for(gpu_.grid);
    auto array = tiles::TileArray::create(*gpu_.mips, {kTile, layers, 0, "pan tiles", variant_.mips});
    if (!array) return array.error();
    array_ = std::make_unique<tiles::TileArray>(std::move(array.value()));
    pool_ = std::make_unique<tiles::LayerPool>(layers, gpu_.registry->clock());
    auto cache = tiles::TileCache::create(*pool_, uint64_t{layers} * array_->layer_bytes(), array_->layer_bytes());
    if (!cache) return cache.error();
    cache_ = std::make_unique<tiles::TileCache>(std::move(cache.value()));
    auto group = gpu_.renderer->make_bind_group(*array_);
    if (!group) return group.error();
    group_.emplace(std::move(*group));
    if (variant_.upload == tiles::UploadPath::Ring) {
      // Two frames in flight and one mapping back: three buffers of one frame's tiles, plus
      // the first view's, which goes through writeTexture when the ring turns it away.
      auto ring = tiles::UploadRing::create(*gpu_.p, gpu_.device, {kTile, 4, 4, gpu_.grid / 2, "pan upload ring"});
      if (!ring) return ring.error();
      ring_ = std::move(ring.value());
    }
    return {};
  }

  Result<void> frame(int f, FrameParts* parts) {
    using Clock = std::chrono::steady_clock;
    auto t = Clock::now();
    auto lap = [&](double FrameParts::*part) {
      const auto now = Clock::now();
      if (parts) parts->*part += std::chrono::duration<double, std::milli>(now - t).count();
      t = now;
    };
    PanStep step = pan_step(f, gpu_.grid);
    if (ring_) ring_->recycle(gpu_.registry->clock());
    auto enc = gpu_.encoder();
    lap(&FrameParts::encoder);
    fresh_.clear();
    auto fill = [&](const TileKey& k, tiles::LayerIndex layer) -> Result<void> {
      bool staged = false;
      if (ring_) {
        auto texture = gpu_.registry->resolve(array_->texture());
        if (!texture) return texture.error();
        auto s = ring_->stage(*texture, layer, image_for(images_, k));
        if (!s) return s.error();
        staged = *s;
      }
      if (!staged) {
        if (auto ok = array_->write_level0(layer, image_for(images_, k)); !ok) return ok;
      }
      fresh_.push_back(layer);
      return {};
    };
    if (f == 0) {  // the first view
      for (const TileKey& k : step.visible) {
        if (auto s = cache_->load(k, fill); !s) return s.error();
      }
    }
    for (const TileKey& k : step.evict) (void)cache_->evict(k);
    for (const TileKey& k : step.load) {
      auto s = cache_->load(k, fill);
      if (!s) return s.error();
      deferred_ += *s == tiles::LoadStatus::Deferred;
    }
    if (ring_) ring_->record(enc.get(), gpu_.registry->clock().recording());
    lap(&FrameParts::upload);
    if (auto ok = array_->regenerate_mips(enc.get(), fresh_); !ok) return ok;
    lap(&FrameParts::mips);
    instances_.clear();
    for (const TileKey& k : step.visible) {
      auto source = cache_->draw_source(k);
      if (!source) continue;
      tiles::TileInstance t = at(gpu_, k.x, k.y, step.first_column);
      t.u0 = source->u0;
      t.v0 = source->v0;
      t.uv_scale = source->scale;
      t.layer = source->layer;
      instances_.push_back(t);
    }
    if (auto ok = gpu_.renderer->write_instances(instances_); !ok) return ok;
    lap(&FrameParts::instances);
    WGPURenderPassEncoder pass = gpu_.begin(enc.get());
    auto drawn = gpu_.renderer->draw(pass, *group_, static_cast<uint32_t>(instances_.size()));
    lap(&FrameParts::draw);
    gpu_.end_and_submit(enc.get(), pass);
    lap(&FrameParts::submit);
    return drawn;
  }
  uint64_t deferred() const { return deferred_; }

 private:
  Gpu& gpu_;
  const std::vector<std::vector<uint8_t>>& images_;
  RecycleVariant variant_;
  std::unique_ptr<tiles::TileArray> array_;
  std::unique_ptr<tiles::LayerPool> pool_;
  std::unique_ptr<tiles::TileCache> cache_;
  std::optional<tiles::TileBindGroup> group_;
  std::vector<tiles::TileInstance> instances_;
  std::vector<tiles::LayerIndex> fresh_;  // layers handed out this frame: their chains to rebuild
  std::unique_ptr<tiles::UploadRing> ring_;  // when the ring is the faster path here
  uint64_t deferred_ = 0;
};

class DestroyLoop {
 public:
  DestroyLoop(Gpu& gpu, const std::vector<std::vector<uint8_t>>& images) : gpu_(gpu), images_(images) {}
  Result<void> init() { return {}; }

  Result<void> frame(int f, FrameParts*) {
    PanStep step = pan_step(f, gpu_.grid);
    auto enc = gpu_.encoder();
    auto load = [&](const TileKey& k) -> Result<void> {
      auto texture = tiles::TileArray::create(*gpu_.mips, {kTile, 1, 0, "pan tile"});
      if (!texture) return texture.error();
      if (auto ok = texture->write_level0(0, image_for(images_, k)); !ok) return ok;
      TileTexture t{std::make_unique<tiles::TileArray>(std::move(texture.value())), {}};
      auto group = gpu_.renderer->make_bind_group(*t.texture);
      if (!group) return group.error();
      t.group.emplace(std::move(*group));
      fresh_.push_back(t.texture.get());
      tiles_.insert_or_assign(k, std::move(t));
      return {};
    };
    fresh_.clear();
    if (f == 0) {
      for (const TileKey& k : step.visible) {
        if (auto ok = load(k); !ok) return ok;
      }
    }
    // Erasing destroys the tile's objects in the registry, which calls Destroy on the texture
    // once the submission being recorded now retired.
    for (const TileKey& k : step.evict) tiles_.erase(k);
    for (const TileKey& k : step.load) {
      if (auto ok = load(k); !ok) return ok;
    }
    // Level-major, like the recycle loop; one pass per (texture, level).
    for (uint32_t level = 1; level < (fresh_.empty() ? 0 : fresh_[0]->mip_levels()); ++level) {
      for (const tiles::TileArray* texture : fresh_) {
        if (auto ok = texture->record_mip_level(enc.get(), 0, level); !ok) return ok;
      }
    }
    instances_.clear();
    groups_.clear();
    for (const TileKey& k : step.visible) {
      auto it = tiles_.find(k);
      if (it == tiles_.end()) continue;
      instances_.push_back(at(gpu_, k.x, k.y, step.first_column));
      groups_.push_back(&*it->second.group);
    }
    if (auto ok = gpu_.renderer->write_instances(instances_); !ok) return ok;
    WGPURenderPassEncoder pass = gpu_.begin(enc.get());
    // A bind group and a draw per tile; pipeline and instance buffer are set once.
    Result<void> drawn;
    for (uint32_t i = 0; i < groups_.size() && drawn; ++i) {
      if (i == 0) {
        drawn = gpu_.renderer->draw(pass, *groups_[0], 1, 0);
      } else if (auto group = gpu_.registry->resolve(groups_[i]->handle()); group) {
        gpu_.p->RenderPassEncoderSetBindGroup(pass, 0, *group, 0, nullptr);
        gpu_.p->RenderPassEncoderDraw(pass, 6, 1, 0, i);
      } else {
        drawn = group.error();
      }
    }
    gpu_.end_and_submit(enc.get(), pass);
    return drawn;
  }

 private:
  struct TileTexture {
    std::unique_ptr<tiles::TileArray> texture;  // one layer: a texture of its own
    std::optional<tiles::TileBindGroup> group;  // declared after the texture: destroyed first
  };
  Gpu& gpu_;
  const std::vector<std::vector<uint8_t>>& images_;
  std::unordered_map<TileKey, TileTexture, tiles::TileKeyHash> tiles_;
  std::vector<tiles::TileInstance> instances_;
  std::vector<const tiles::TileBindGroup*> groups_;
  std::vector<const tiles::TileArray*> fresh_;  // textures created this frame
};

// Runs `count` frames of one design from frame `first`, then lets the GPU drain (wall time).
template <typename Loop>
Result<void> run_block(Gpu& gpu, Loop& loop, int first, int count, FrameTimes* times, FrameParts* parts = nullptr) {
  using Clock = std::chrono::steady_clock;
  const auto block_start = Clock::now();
  for (int f = first; f < first + count; ++f) {
    gpu.throttle(2);
    const auto t0 = Clock::now();
    if (auto ok = loop.frame(f, times ? parts : nullptr); !ok) return ok;
    if (times) times->work_ms += std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  }
  gpu.throttle(0);
  if (times) {
    times->wall_ms += std::chrono::duration<double, std::milli>(Clock::now() - block_start).count();
    times->frames += count;
  }
  return {};
}

int fail(const std::string& what) {
  fmt::print(stderr, "tile_frame_loop_scenario: {}\n", what);
  return 1;
}

}  // namespace

int main() {
  auto ctx = Context::create();
  if (!ctx) return bench::exit_for("tile_frame_loop_scenario", ctx.error());
  std::mutex mutex;
  std::vector<std::string> errors;
  DeviceOptions options;
  options.label = "tile frame loop";
  options.limits = LimitsChoice::Adapter;  // the curve's 256 and 1,024 points need 512 and 2,048 layers
  options.callbacks.on_uncaptured_error = [&](WGPUErrorType, std::string_view message) {
    std::lock_guard lock(mutex);
    errors.emplace_back(message);
  };
  auto opened = bench::open_bench_device(*ctx.value(), std::move(options));
  if (!opened) return bench::exit_for("tile_frame_loop_scenario", opened.error());

  const Procs& p = ctx.value()->procs();
  Gpu gpu;
  gpu.p = &p;
  gpu.device = opened->device.get();
  gpu.queue = opened->queue.get();
  // The recycle design's largest array makes a view per (layer, level >= 1); the destroy design
  // a texture, 17 views and 9 bind groups per tile, with two frames of evictions still pending.
  const uint32_t max_grid = *std::max_element(std::begin(kCurveGrids), std::end(kCurveGrids));
  resources::RegistryOptions registry_options;
  registry_options.texture_view_capacity = 1u << 16;
  registry_options.bind_group_capacity = 1u << 15;
  registry_options.texture_capacity = 1u << 13;
  gpu.registry = std::make_unique<resources::Registry>(*ctx.value(), gpu.device, gpu.queue, std::move(registry_options));
  auto mips = tiles::MipGenerator::create(*gpu.registry, WGPUTextureFormat_RGBA8Unorm);
  if (!mips) return fail(mips.error().message);
  gpu.mips = std::make_unique<tiles::MipGenerator>(std::move(mips.value()));
  auto renderer = tiles::TileRenderer::create(*gpu.registry, WGPUTextureFormat_RGBA8Unorm, max_grid * max_grid);
  if (!renderer) return fail(renderer.error().message);
  gpu.renderer = std::make_unique<tiles::TileRenderer>(std::move(renderer.value()));
  // What `warden info` reports for uploads on this backend, for the record (blocking: start-up).
  auto upload = tiles::measure_upload_paths(*ctx.value(), gpu.device, gpu.queue, kTile, 16, 3);
  if (!upload) return fail(upload.error().message);
  WGPULimits limits{};
  p.DeviceGetLimits(gpu.device, &limits);
  const auto images = make_images();
  nlohmann::json out = nlohmann::json::object();
  out["tile_frame_loop_backend"] = bench::backend_name(*opened);
  out["tile_frame_loop_upload_probe"] = tiles::to_string(upload->faster);
  out["tile_frame_loop_max_array_layers"] = limits.maxTextureArrayLayers;
  // Every recycle variant, measured at the main point; the fastest runs everywhere else.
  std::vector<RecycleVariant> variants;
  for (tiles::MipPath mips : {tiles::MipPath::InArray, tiles::MipPath::Scratch}) {
    for (tiles::UploadPath path : {tiles::UploadPath::WriteTexture, tiles::UploadPath::Ring}) variants.push_back({mips, path});
  }
  struct Config {
    uint32_t grid, target;
    bool main_keys;  // the keys and the frame's parts
  };
  std::vector<Config> configs = {{kGrid, kTargets[0], true}, {kGrid, kTargets[1], false}};
  for (uint32_t grid : kCurveGrids) {
    if (grid != kGrid) configs.push_back({grid, kTargets[0], false});
  }
  for (const Config& config : configs) {
    const uint32_t size = config.target, visible = config.grid * config.grid;
    if (layers_for(config.grid) > limits.maxTextureArrayLayers) {
      out[fmt::format("tile_frame_loop_skipped_{}", visible)] =
          fmt::format("{} visible tiles need {} layers in one array; maxTextureArrayLayers is {} on this device",
                      visible, layers_for(config.grid), limits.maxTextureArrayLayers);
      continue;
    }
    gpu.grid = config.grid;
    WGPUTextureDescriptor tdesc{};
    tdesc.dimension = WGPUTextureDimension_2D;
    tdesc.mipLevelCount = 1;
    tdesc.sampleCount = 1;
    tdesc.label = gpu::string_view("pan target");
    tdesc.size = {size, size, 1};
    tdesc.format = WGPUTextureFormat_RGBA8Unorm;
    tdesc.usage = WGPUTextureUsage_RenderAttachment;
    gpu.target = Ref<WGPUTexture>(&p, p.DeviceCreateTexture(gpu.device, &tdesc));
    gpu.target_view = Ref<WGPUTextureView>(&p, p.TextureCreateView(gpu.target.get(), nullptr));
    gpu.target_size = size;

    // The recycle variants and the destroy design, in blocks that alternate, so a change in
    // the machine's load falls on all of them.
    struct Measured {
      RecycleVariant variant{};
      std::unique_ptr<RecycleLoop> loop{};
      FrameTimes times{};
      FrameParts parts{};
      uint64_t waits = 0;
    };
    std::vector<Measured> recycles;
    for (const RecycleVariant& v : variants) recycles.push_back({v, std::make_unique<RecycleLoop>(gpu, images, v)});
    DestroyLoop destroy(gpu, images);
    for (Measured& m : recycles) {
      if (auto ok = m.loop->init(); !ok) return fail(ok.error().message);
    }
    if (auto ok = destroy.init(); !ok) return fail(ok.error().message);
    FrameTimes destroy_times;
    int frame = 0;
    for (int round = 0; round <= kRounds; ++round) {
      const int count = round == 0 ? kWarmupFrames : kFramesPerRound;
      const bool timed = round > 0;
      for (Measured& m : recycles) {
        const uint64_t waits = blocking_wait_count();
        if (auto ok = run_block(gpu, *m.loop, frame, count, timed ? &m.times : nullptr, &m.parts); !ok) {
          return fail(fmt::format("recycle ({}): {}", m.variant.name(), ok.error().message));
        }
        m.waits += blocking_wait_count() - waits;
      }
      if (auto ok = run_block(gpu, destroy, frame, count, timed ? &destroy_times : nullptr); !ok) return fail(ok.error().message);
      frame += count;
    }
    gpu.throttle(0);
    p.InstanceProcessEvents(ctx.value()->instance());
    {
      std::lock_guard lock(mutex);
      if (!errors.empty()) return fail(fmt::format("{} validation errors, first: {}", errors.size(), errors.front()));
    }
    for (const Measured& m : recycles) {
      if (m.loop->deferred() != 0) {
        return fail(fmt::format("recycle loop ({}) deferred {} loads", m.variant.name(), m.loop->deferred()));
      }
      if (config.main_keys) out["frame_loop_recycle_ms_" + m.variant.name()] = m.times.work_ms / m.times.frames;
    }
    const Measured& best = *std::min_element(recycles.begin(), recycles.end(), [](const Measured& a, const Measured& b) {
      return a.times.work_ms / a.times.frames < b.times.work_ms / b.times.frames;
    });
    if (config.main_keys) {
      variants = {best.variant};
      out["tile_frame_loop_mip_path"] = tiles::to_string(best.variant.mips);
      out["tile_frame_loop_upload_path"] = tiles::to_string(best.variant.upload);
    }
    const FrameTimes& recycle_times = best.times;
    const FrameParts& parts = best.parts;
    const uint64_t recycle_waits = best.waits;
    const double recycle_ms = recycle_times.work_ms / recycle_times.frames;
    const double destroy_ms = destroy_times.work_ms / destroy_times.frames;
    const double recycle_wall = recycle_times.wall_ms / recycle_times.frames;
    const double destroy_wall = destroy_times.wall_ms / destroy_times.frames;
    fmt::print(stderr,
               "tile_frame_loop_scenario: backend {}, adapter '{}', {} visible, {}x{} target, {} frames each: frame work "
               "recycle ({}) {:.3f} ms, destroy {:.3f} ms ({:.2f}x); with GPU drain recycle {:.3f} ms, destroy {:.3f} ms "
               "({:.2f}x)\n",
               to_string(opened->adapter.description.backend), opened->adapter.description.device, visible, size, size,
               recycle_times.frames, best.variant.name(), recycle_ms, destroy_ms, destroy_ms / recycle_ms, recycle_wall, destroy_wall,
               destroy_wall / recycle_wall);
    if (size == kTargets[0]) {
      out[fmt::format("frame_loop_recycle_ms_{}", visible)] = recycle_ms;
      out[fmt::format("frame_loop_destroy_ms_{}", visible)] = destroy_ms;
    }
    if (config.grid != kGrid) continue;
    const std::string suffix = config.main_keys ? "" : fmt::format("_{}", size);
    out["frame_loop_recycle_ms" + suffix] = recycle_ms;
    out["frame_loop_destroy_ms" + suffix] = destroy_ms;
    out["tile_frame_loop_recycle_wall_ms" + suffix] = recycle_wall;
    out["tile_frame_loop_destroy_wall_ms" + suffix] = destroy_wall;
    out["tile_frame_loop_blocking_waits" + suffix] = recycle_waits;
    if (!config.main_keys) continue;
    const double us_per_frame = 1000.0 / recycle_times.frames;
    out["frame_loop_recycle_encoder_us"] = parts.encoder * us_per_frame;
    out["frame_loop_recycle_upload_us"] = parts.upload * us_per_frame;
    out["frame_loop_recycle_mips_us"] = parts.mips * us_per_frame;
    out["frame_loop_recycle_instances_us"] = parts.instances * us_per_frame;
    out["frame_loop_recycle_draw_us"] = parts.draw * us_per_frame;
    out["frame_loop_recycle_submit_us"] = parts.submit * us_per_frame;
  }
  fmt::print("{}\n", out.dump());
  return 0;
}
