#include "warden/demo/tile_map_demo.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <list>
#include <memory>
#include <optional>
#include <thread>
#include <unordered_map>

#include "warden/core/enum_names.h"
#include "warden/demo/camera.h"
#include "warden/demo/folder_tiles.h"
#include "warden/demo/mercator_tiler.h"
#include "warden/demo/messages.h"
#include "warden/demo/report_html.h"
#include "warden/demo/tile_server.h"
#include "warden/engine/engine.h"
#include "warden/engine/tile_layer.h"
#include "warden/gpu/callback.h"
#include "warden/gpu/ledger.h"
#include "warden/gpu/names.h"
#include "warden/gpu/objects.h"
#include "warden/present/swapchain.h"
#include "warden/present/window.h"
#include "warden/tiles/sizing.h"
#include "warden/tiles/tile_cache.h"
#include "warden/tiles/tile_gpu.h"

namespace warden::demo {
namespace {

using tiles::TileKey;
using Clock = std::chrono::steady_clock;

constexpr uint32_t kTileSize = 256;
constexpr uint32_t kInFlightHeadroom = 16;
constexpr uint32_t kMemoryUploadsPerFrame = 8;  // tiles a layer uploads from memory a frame
constexpr uint32_t kRetryAfterFrames = 10;  // a failed fetch is asked for again this much later
// A broken shader file is fixed this long after its failed reload was reported (the developer
// read the error), or after kBrokenShaderLongest frames when no report came (a loss dropped it).
constexpr uint32_t kBrokenShaderFrames = 20;
constexpr uint32_t kBrokenShaderLongest = 200;
constexpr uint32_t kFetchFailureBurst = 12;      // fetches failed by one FetchFailures fault
constexpr uint32_t kPoolHeldFrames = 8;          // frames a PoolExhaustion fault holds the layers
constexpr std::chrono::seconds kDrainTimeout{30};
constexpr TileKey kRoot{0, 0, 0};
constexpr std::array<double, 4> kClearColour{0.05, 0.05, 0.08, 1};
// The clear colour as the RGBA8 target holds it.
std::array<uint8_t, 4> clear_colour_rgba8() {
  std::array<uint8_t, 4> rgba{};
  for (size_t c = 0; c < 4; ++c) rgba[c] = static_cast<uint8_t>(std::lround(kClearColour[c] * 255));
  return rgba;
}

// The tile shader the demo writes into its out folder as WESL modules and loads through the
// Engine: the root (tiles.wesl) draws the quads, with the quad's shape from quad.wesl and the
// colour grade from grade.wesl. Every reload rewrites the imported grade.wesl (a warm tint; a
// broken one misses a semicolon), so each one comes through an import (docs/shader-modules.md).
constexpr const char* kTilesRootWesl = R"(import package::quad::{VOut, corner};
import package::grade::grade;

@group(0) @binding(0) var tiles : texture_2d_array<f32>;
@group(0) @binding(1) var smp : sampler;

@vertex
fn vs(@builtin(vertex_index) i : u32, @location(0) rect : vec4<f32>,
      @location(1) src : vec4<f32>, @location(2) layer : u32) -> VOut {
  let c = corner(i);
  var out : VOut;
  out.pos = vec4<f32>(mix(rect.xy, rect.zw, c), 0.0, 1.0);
  out.uv = src.xy + c * src.z;
  out.layer = layer;
  return out;
}

@fragment
fn fs(in : VOut) -> @location(0) vec4<f32> {
  return grade(textureSample(tiles, smp, in.uv, in.layer));
}
)";
constexpr const char* kQuadWesl = R"(// The quad every tile is drawn as, and what its vertices hand the fragment stage.
struct VOut {
  @builtin(position) pos : vec4<f32>,
  @location(0) uv : vec2<f32>,
  @location(1) @interpolate(flat, either) layer : u32,
};

fn corner(i : u32) -> vec2<f32> {
  var corners = array<vec2<f32>, 6>(vec2<f32>(0.0, 0.0), vec2<f32>(1.0, 0.0), vec2<f32>(0.0, 1.0),
                                    vec2<f32>(0.0, 1.0), vec2<f32>(1.0, 0.0), vec2<f32>(1.0, 1.0));
  return corners[i];
}
)";
// The grade module: none at first, then a different warm tint per reload, strong enough to see.
std::string grade_module(uint32_t variant) {
  if (variant == 0) return "fn grade(c : vec4<f32>) -> vec4<f32> {\n  return c;\n}\n";
  const double k = static_cast<double>((variant - 1) % 4);
  return fmt::format("fn grade(c : vec4<f32>) -> vec4<f32> {{\n  return c * vec4<f32>(1.0, {:.2f}, {:.2f}, 1.0);\n}}\n",
                     0.8 - 0.1 * k, 0.55 - 0.1 * k);
}
std::string broken_grade_module() { return "fn grade(c : vec4<f32>) -> vec4<f32> {\n  return c\n}\n"; }

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

// The TileCache's fetcher over a TileServer: replies wait here until the server's worker
// finished their tile; collect() answers them on the frame thread. Injected burst failures
// (the soak's FetchFailures) answer with an error at once.
class ServerFetcher final : public tiles::TileFetcher {
 public:
  explicit ServerFetcher(std::unique_ptr<TileServer> server) : server_(std::move(server)) {}
  void fetch(tiles::TileReply reply) override {
    const TileKey key = reply.ticket().key;
    if (fail_next_ > 0) {
      --fail_next_;
      reply.fail(make_error(ErrorKind::Io, MessageId::TileFetchFaultBurst,
                            fmt::format("tile {}: failed on purpose (a fault burst)", tiles::to_string(key))));
      return;
    }
    server_->request(key);  // already pending: the reply waits for that fetch
    waiting_[key].push_back(std::move(reply));
  }
  void collect() {
    for (FetchedTile& tile : server_->take_completed()) {
      auto it = waiting_.find(tile.key);
      if (it == waiting_.end()) continue;
      for (tiles::TileReply& reply : it->second) {
        if (tile.image) {
          reply.deliver(tile.image->rgba);
        } else {
          reply.fail(tile.image.error());
        }
      }
      waiting_.erase(it);
    }
  }
  void fail_next(uint32_t count) { fail_next_ += count; }
  TileServer& server() { return *server_; }

 private:
  std::unique_ptr<TileServer> server_;
  std::unordered_map<TileKey, std::vector<tiles::TileReply>, tiles::TileKeyHash> waiting_;
  uint32_t fail_next_ = 0;
};

// One map (day or night): its tiles' source and its layer in the engine.
struct MapTiles {
  std::unique_ptr<ServerFetcher> fetcher;
  std::unique_ptr<engine::TileLayer> layer;
  std::unordered_map<TileKey, uint32_t, tiles::TileKeyHash> retry_at;
};

// A snapshot copied into a buffer, mapped asynchronously; written once the map completes.
struct PendingSnapshot {
  uint32_t frame = 0;
  gpu::Ref<WGPUBuffer> buffer;
  bool mapped = false;
  WGPUMapAsyncStatus status = WGPUMapAsyncStatus_Error;
};

// What the application keeps on the CPU and a loss must not change.
struct AppState {
  uint32_t camera_frame = 0;
  size_t shown = 0;
  std::vector<TextureHandle> arrays;
  std::vector<RenderPipelineHandle> pipelines;
  ShaderModuleHandle shader;
  TextureHandle target;
  bool operator==(const AppState&) const = default;
};

class TileMapDemo {
 public:
  TileMapDemo(const DemoOptions& options, Diagnostics& log)
      : options_(options), camera_(options.frames), log_(log) {}
  ~TileMapDemo() { teardown(); }
  TileMapDemo(const TileMapDemo&) = delete;
  TileMapDemo& operator=(const TileMapDemo&) = delete;

  Result<DemoReport> run(ProgressLine* progress);

 private:
  const gpu::Procs& procs() const { return engine_->procs(); }
  Result<void> open_sources();
  Result<void> create_engine();
  Result<void> create_scene();
  // --window: a window the engine presents to across its device generations.
  Result<void> open_window();
  // Copies the frame's target to an acquired window frame; the frame to present, if any.
  Result<std::optional<present::SwapchainImage>> show_in_window(WGPUCommandEncoder encoder);

  void inject(const PlannedFault& fault, uint32_t frame);
  void misuse_handles();
  Result<bool> render_frame(uint32_t frame, FrameSample& sample);
  void request_snapshot(WGPUCommandEncoder encoder, uint32_t frame);
  void map_snapshot();
  void collect_snapshots();
  Result<void> drain_snapshots();
  // Each loss's first_drawn_blank_fraction, from the captured snapshots (sorted by frame).
  void measure_first_drawn();
  // Writes one of the tile shader's modules into the out folder.
  Result<void> write_module(const std::string& name, const std::string& text);
  AppState app_state() const;
  void check_layers();
  void teardown();

  DemoOptions options_;
  ScriptedCamera camera_;
  DemoReport report_;
  Diagnostics& log_;
  gpu::ReferenceCounts references_before_;

  std::optional<BlueMarble> earth_;
  std::unique_ptr<FolderTiles> folder_;
  std::vector<TileProvider*> providers_;

  std::unique_ptr<engine::Engine> engine_;
  std::vector<MapTiles> maps_;  // [MapLayer]
  ShaderModuleHandle shader_;
  std::filesystem::path shader_path_;
  TextureHandle target_;
  TextureViewHandle target_view_;
  std::unique_ptr<present::Window> window_;
  std::unique_ptr<engine::PresentTarget> window_target_;

  // Faults and their snapshots.
  std::vector<PlannedFault> faults_;  // sorted by frame
  size_t next_fault_ = 0;
  bool loss_due_ = false;             // waits for readbacks in flight, then fires
  uint32_t shader_variant_ = 0;
  std::optional<uint32_t> fix_shader_at_;
  uint32_t current_frame_ = 0;
  std::vector<tiles::LayerIndex> held_layers_;
  uint32_t release_held_at_ = 0;
  std::optional<AppState> state_at_loss_;
  std::optional<Clock::time_point> lost_at_;
  bool settle_watch_ = false;  // the last loss has no settled frame yet
  bool snapshot_next_drawn_ = false;

  std::list<PendingSnapshot> snapshots_;  // stable addresses: map callbacks point at them
  PendingSnapshot* unmapped_ = nullptr;   // copied this frame, mapped after the submit
  std::vector<uint32_t> snapshot_frames_;
  std::vector<std::pair<uint32_t, present::Image>> captured_;
};

Result<void> TileMapDemo::open_sources() {
  if (options_.tiles_dir.empty()) {
    auto earth = BlueMarble::load(kXplanetImagesDir, kTileSize);
    if (!earth) return earth.error();
    earth_.emplace(std::move(*earth));
    providers_ = {&earth_->day, &earth_->night};
  } else {
    auto folder = FolderTiles::open(options_.tiles_dir, log_, kTileSize);
    if (!folder) return folder.error();
    folder_ = std::move(*folder);
    providers_ = {folder_.get()};  // one layer: a folder has no night
  }
  return {};
}

Result<void> TileMapDemo::create_engine() {
  engine::EngineOptions options;
  options.device.backend = options_.backend;
  options.device.label = "warden demo";
  options.library.ledger = options_.ledger ? gpu::LedgerMode::On : gpu::LedgerMode::FromEnvironment;
  // Every planned loss is recovered: the policy gives up only beyond them (and a driver's own).
  unsigned losses = 0;
  for (const PlannedFault& f : faults_) losses += f.kind == PlannedFaultKind::DeviceLoss;
  options.rebuild.faults_to_give_up = std::max(3u, losses + 3);
  options.rebuild.young_deaths_to_give_up = options.rebuild.faults_to_give_up;  // its losses are forced seconds apart
  // Two tile arrays with a view per (layer, level >= 1) each.
  const uint32_t mip_levels = tiles::full_mip_count(kTileSize, kTileSize);
  const uint64_t layer_bytes = uint64_t{kTileSize} * kTileSize * 4 * 4 / 3 + 4;
  const uint64_t layers = (options_.budget_mb << 20) / layer_bytes + kInFlightHeadroom * 2;
  options.registry.texture_view_capacity = std::max<uint32_t>(
      options.registry.texture_view_capacity,
      static_cast<uint32_t>(std::min<uint64_t>(tiles::TileArray::view_count(static_cast<uint32_t>(layers), mip_levels) * 2 + 64,
                                               UINT32_MAX / 2)));
  engine::EngineCallbacks callbacks;
  callbacks.on_reload = [this](const pipelines::ReloadReport& reload) {
    if (!reload.applied) {
      ++report_.reload_failures;
      if (fix_shader_at_) fix_shader_at_ = std::min(*fix_shader_at_, current_frame_ + kBrokenShaderFrames);
      return;
    }
    if (options_.snapshot_faults) snapshot_next_drawn_ = true;  // the first frame with the new shader
  };
  callbacks.on_failed = [this](const device::GiveUp& why) {
    report_.gave_up = true;
    report_.gave_up_message = graphics_off_words(why);
  };
  if (options_.ledger) references_before_ = gpu::Ledger::process().outstanding();
  auto engine = engine::Engine::create(std::move(options), std::move(callbacks));
  if (!engine) {
    // The policy gave up while starting (on_failed ran): the same error, in the demo's words.
    Error failed = engine.error();
    if (report_.gave_up) failed.message = report_.gave_up_message;
    return failed;
  }
  engine_ = std::move(*engine);
  report_.backend = gpu::to_string(engine_->backend());
  report_.adapter = engine_->adapter_name();
  return {};
}

Result<void> TileMapDemo::open_window() {
  if (!options_.window) return {};
  if (auto display = present::check_display(); !display) return display.error();
  auto window = present::Window::open({"warden demo", options_.width, options_.height});
  if (!window) return window.error();
  window_ = std::move(*window);
  present::SwapchainOptions options;
  options.label = "demo window";
  options.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopyDst;
  options.preferred_formats = {WGPUTextureFormat_RGBA8Unorm};  // the target's: a plain copy
  // The engine attaches it to every device it shows (a new surface each) and marks a device
  // presenting at its first present: it is then released, never destroyed.
  auto target = engine_->present_to(window_->surface_source(), options_.width, options_.height, options);
  if (!target) return target.error();
  window_target_ = std::move(*target);
  return {};
}

Result<std::optional<present::SwapchainImage>> TileMapDemo::show_in_window(WGPUCommandEncoder encoder) {
  if (!window_target_) return std::optional<present::SwapchainImage>();
  window_->poll_events();
  auto acquired = window_target_->acquire();  // a window the engine could not attach says why here
  if (!acquired) return acquired.error();
  if (!*acquired) return std::optional<present::SwapchainImage>();  // no area (minimised)
  const present::SwapchainImage& shown = **acquired;
  if (shown.format != WGPUTextureFormat_RGBA8Unorm || shown.width != options_.width || shown.height != options_.height) {
    return make_error(
        ErrorKind::Refused, MessageId::DemoWindowSurfaceMismatch,
        fmt::format("--window: the window's surface is {} {}x{}; the demo copies its {}x{} rgba8unorm "
                    "frames into it and needs the same",
                    gpu::to_string(shown.format), shown.width, shown.height, options_.width, options_.height));
  }
  auto target = engine_->registry().resolve(target_);
  if (!target) return target.error();
  WGPUTexelCopyTextureInfo from{};
  from.aspect = WGPUTextureAspect_All;
  from.texture = *target;
  WGPUTexelCopyTextureInfo to{};
  to.aspect = WGPUTextureAspect_All;
  to.texture = shown.texture;
  const WGPUExtent3D size{options_.width, options_.height, 1};
  procs().CommandEncoderCopyTextureToTexture(encoder, &from, &to, &size);
  return *acquired;
}

Result<void> TileMapDemo::create_scene() {
  shader_path_ = options_.out / "tiles.wesl";
  for (const auto& [name, text] : {std::pair<const char*, std::string>{"tiles.wesl", kTilesRootWesl},
                                   {"quad.wesl", kQuadWesl}, {"grade.wesl", grade_module(0)}}) {
    if (auto written = write_module(name, text); !written) return written;
  }
  auto module = engine_->load_shader(shader_path_);
  if (!module) return module.error();
  shader_ = *module;
  const uint64_t budget = options_.budget_mb << 20;
  report_.vram_budget_bytes = budget;
  const uint64_t memory_budget = options_.cpu_cache_mb << 20;
  report_.cpu_cache_budget_bytes = memory_budget / providers_.size() * providers_.size();
  // At zoom scale >= 1 a tile covers at least 256 pixels: this many positions at most.
  const uint32_t max_instances = (options_.width / kTileSize + 2) * (options_.height / kTileSize + 2);
  for (size_t i = 0; i < providers_.size(); ++i) {
    // Each map draws its own failures from the run's seed: day and night differ, runs repeat.
    auto server = TileServer::start(*providers_[i], {options_.fetch_latency, options_.fetch_failure_rate, options_.seed * 2 + i});
    if (!server) return server.error();
    // The root first, before any frame asks: no position stays blank for long (its reply
    // waits for this fetch when the cache dispatches it).
    (*server)->request(kRoot);
    MapTiles map;
    map.fetcher = std::make_unique<ServerFetcher>(std::move(*server));
    engine::TileLayerOptions layer;
    layer.tile_size = kTileSize;
    layer.budget_bytes = budget / providers_.size();
    layer.cpu_cache_budget_bytes = memory_budget / providers_.size();
    layer.memory_uploads_per_frame = kMemoryUploadsPerFrame;
    layer.in_flight_headroom = kInFlightHeadroom;
    layer.max_instances = max_instances;
    layer.shader = shader_;
    layer.label = i == 0 ? "demo day tiles" : "demo night tiles";
    auto made = engine::TileLayer::create(*engine_, layer);
    if (!made) {
      if (made.error().kind == ErrorKind::InvalidArgument) {
        return make_error(ErrorKind::InvalidArgument, made.error().id,
                          fmt::format("--budget-mb {}: {}", options_.budget_mb, made.error().message));
      }
      return made.error();
    }
    map.layer = std::move(*made);
    maps_.push_back(std::move(map));
  }
  auto texture = engine_->registry().create_texture(
      {.size = {options_.width, options_.height, 1},
       .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc,
       .label = "demo target"});
  if (!texture) return texture.error();
  target_ = *texture;
  auto view = engine_->registry().create_texture_view(target_);
  if (!view) return view.error();
  target_view_ = *view;
  return {};
}

Result<void> TileMapDemo::write_module(const std::string& name, const std::string& text) {
  // Written beside and renamed over: the watcher never reads half a file.
  const std::filesystem::path path = options_.out / name;
  const auto part = path.string() + ".part";
  {
    std::ofstream out(part, std::ios::trunc);
    out << text;
    if (!out) {
      return make_error(ErrorKind::Io, MessageId::DemoShaderUnwritable,
                        fmt::format("{}: cannot write the tile shader", part));
    }
  }
  std::error_code ec;
  std::filesystem::rename(part, path, ec);
  if (ec) {
    return make_error(ErrorKind::Io, MessageId::DemoShaderUnwritable, fmt::format("{}: {}", path.string(), ec.message()));
  }
  return {};
}

AppState TileMapDemo::app_state() const {
  AppState state;
  state.shader = shader_;
  state.target = target_;
  for (const MapTiles& map : maps_) {
    state.arrays.push_back(map.layer->array().texture());
    state.pipelines.push_back(map.layer->renderer().pipeline());
  }
  return state;
}

void TileMapDemo::inject(const PlannedFault& fault, uint32_t frame) {
  ++report_.faults_injected[to_string(fault.kind)];
  switch (fault.kind) {
    case PlannedFaultKind::DeviceLoss: loss_due_ = true; break;
    case PlannedFaultKind::ShaderReload:
      if (write_module("grade.wesl", grade_module(++shader_variant_))) {
        report_.events.push_back({frame, ReportEventKind::ShaderReload});
      }
      break;
    case PlannedFaultKind::ShaderBroken:
      if (write_module("grade.wesl", broken_grade_module())) fix_shader_at_ = frame + kBrokenShaderLongest;
      break;
    case PlannedFaultKind::FetchFailures:
      for (MapTiles& map : maps_) map.fetcher->fail_next(kFetchFailureBurst);
      break;
    case PlannedFaultKind::PoolExhaustion: {
      tiles::LayerPool& pool = maps_[0].layer->pool();
      while (auto layer = pool.acquire(tiles::Priority::Urgent)) held_layers_.push_back(*layer);
      release_held_at_ = frame + kPoolHeldFrames;
      break;
    }
    case PlannedFaultKind::CarelessClient: misuse_handles(); break;
  }
}

// An application that destroys a handle twice and uses it after destroy. The failure policy
// (docs/failure-policy.md): a double destroy is a logged no-op (a warning naming it), a use
// after destroy an error naming the stale handle. Anything else is counted as unclean.
void TileMapDemo::misuse_handles() {
  resources::Registry& registry = engine_->registry();
  auto buffer = registry.create_buffer({.size = 256, .usage = WGPUBufferUsage_CopyDst, .label = "careless"});
  if (!buffer) {
    report_.unclean_misuse += buffer.error().kind != ErrorKind::DeviceFailed;  // no device: a clean error
    return;
  }
  // The right error, and its words name the object by its label.
  auto stale = [&](const Error& e) {
    return e.id == MessageId::HandleDestroyed && e.message.find("careless") != std::string::npos;
  };
  report_.unclean_misuse += !registry.destroy_buffer(*buffer).ok();
  // Kept entries plus those the full store dropped: every report counts, however long the run.
  auto reported = [&] { return registry.diagnostics().entries().size() + registry.diagnostics().dropped(); };
  const uint64_t before = reported();
  const bool again = registry.destroy_buffer(*buffer).ok();
  const std::vector<Diagnostic> entries = registry.diagnostics().entries();
  report_.unclean_misuse += !again || reported() != before + 1 ||
                            entries.back().id != MessageId::DoubleDestroyIgnored;
  const uint32_t word = 7;
  auto written = registry.write_buffer(*buffer, 0, &word, sizeof word);
  report_.unclean_misuse += written.ok() || !stale(written.error());
  auto resolved = registry.resolve(*buffer);
  report_.unclean_misuse += resolved.ok() || !stale(resolved.error());
}

void TileMapDemo::check_layers() {
  for (MapTiles& map : maps_) {
    if (!map.layer->pool().check_invariants()) ++report_.layer_invariant_violations;
  }
}

Result<bool> TileMapDemo::render_frame(uint32_t frame, FrameSample& sample) {
  engine_->poll();
  collect_snapshots();
  for (MapTiles& map : maps_) map.fetcher->collect();

  // A planned loss waits for the readbacks in flight (their buffers belong to this device).
  if (loss_due_ && snapshots_.empty()) {
    loss_due_ = false;
    if (engine_->force_device_loss("forced by the demo")) {
      report_.events.push_back({frame, ReportEventKind::DeviceLoss});
      report_.losses.emplace_back().frame = frame;
      lost_at_ = Clock::now();
      state_at_loss_ = app_state();
      state_at_loss_->camera_frame = frame;
    }
  }
  auto f = engine_->begin_frame();
  if (!f) return false;  // recovering: skip the frame, the camera goes on

  const uint32_t camera_frame = options_.camera == CameraMode::Still ? 0 : frame;
  const bool first_after_loss = lost_at_.has_value();
  if (lost_at_) {
    report_.recovery_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - *lost_at_).count());
    report_.losses.back().first_drawn = frame;
    lost_at_.reset();
    settle_watch_ = true;
    AppState now = app_state();
    now.camera_frame = state_at_loss_->camera_frame;  // the camera went on by itself; what it kept is compared
    if (!(now == *state_at_loss_)) report_.app_state_preserved = false;
    if (options_.snapshot_faults) snapshot_next_drawn_ = true;
  }

  const CameraPose pose = camera_.pose(camera_frame);
  const size_t shown = camera_.layer(camera_frame) == MapLayer::Night && maps_.size() > 1 ? 1 : 0;
  MapTiles& map = maps_[shown];
  engine::TileLayer& layer = *map.layer;
  const std::vector<VisibleTile> visible = visible_tiles(pose, options_.max_zoom, options_.width, options_.height);
  std::vector<TileKey> keys;
  for (const VisibleTile& tile : visible) keys.push_back(tile.key);
  if (first_after_loss) {
    report_.losses.back().settle_bound_frames =
        static_cast<uint32_t>((visible.size() + kMemoryUploadsPerFrame - 1) / kMemoryUploadsPerFrame);
  }
  const WorldPixel centre = to_world_pixel(pose.centre, 0, 1);
  if (!layer.within_budget()) ++report_.budget_exceeded_frames;
  if (auto begun = layer.begin_frame({keys, centre.x, centre.y}); !begun) return begun.error();
  std::vector<TileKey> wanted{kRoot};  // the root first: no position is ever blank for long
  for (const TileKey& key : keys) {
    for (std::optional<TileKey> k = key; k && k->z + 2 >= key.z; k = k->parent()) wanted.push_back(*k);
  }
  for (const TileKey& key : wanted) {
    if (auto wait = map.retry_at.find(key); wait != map.retry_at.end()) {
      if (frame < wait->second) continue;
      map.retry_at.erase(wait);
    }
    if (auto requested = layer.request(key); !requested) return requested.error();
  }
  if (auto dispatched = layer.dispatch(*map.fetcher); !dispatched) return dispatched.error();
  auto delivered = layer.deliver(*f);
  if (!delivered) return delivered.error();
  for (const auto& [key, error] : delivered->failed) {
    ++report_.tile_fetch_failures;
    map.retry_at[key] = frame + kRetryAfterFrames;
  }
  if (layer.cache().is_resident(kRoot) && layer.cache().pinned_count() == 0) (void)layer.cache().pin(kRoot);

  std::vector<tiles::TileInstance> instances;
  bool settled = true;
  for (const VisibleTile& tile : visible) {
    auto source = layer.draw_source(tile.key);
    settled = settled && source && source->levels_up == 0;
    if (!source) continue;  // before the root arrives: the clear colour shows
    instances.push_back(engine::TileLayer::place(*source, tile.x, tile.y, tile.size, options_.width, options_.height));
  }
  if (settle_watch_ && settled) {
    settle_watch_ = false;
    report_.losses.back().settled = frame;
    if (options_.snapshot_faults) snapshot_next_drawn_ = true;
  }
  const gpu::Procs& p = procs();
  auto view = engine_->registry().resolve(target_view_);
  if (!view) return view.error();
  WGPURenderPassEncoder pass = gpu::begin_clear_pass(
      p, f->encoder(), *view, {kClearColour[0], kClearColour[1], kClearColour[2], kClearColour[3]});
  auto drawn = layer.draw(pass, instances);
  p.RenderPassEncoderEnd(pass);
  p.RenderPassEncoderRelease(pass);
  if (!drawn) return drawn.error();

  const bool snapshot = std::binary_search(snapshot_frames_.begin(), snapshot_frames_.end(), frame) ||
                        snapshot_next_drawn_ ||
                        (options_.snapshot_faults && next_fault_ < faults_.size() && faults_[next_fault_].frame == frame + 1 &&
                         (faults_[next_fault_].kind == PlannedFaultKind::DeviceLoss || faults_[next_fault_].kind == PlannedFaultKind::ShaderReload));
  if (snapshot) {
    snapshot_next_drawn_ = false;
    request_snapshot(f->encoder(), frame);
  }
  auto in_window = show_in_window(f->encoder());
  if (!in_window) return in_window.error();
  engine_->registry().touch(target_);
  if (auto submitted = engine_->submit(std::move(*f)); !submitted) {
    unmapped_ = nullptr;
    if (!snapshots_.empty()) snapshots_.pop_back();
    return false;  // lost while recording: nothing was submitted
  }
  if (*in_window) {
    if (auto presented = window_target_->present(); !presented) return presented.error();
    ++report_.window_frames_presented;
  }
  map_snapshot();

  const tiles::LayerPoolCounts counts = layer.pool().counts();
  sample.layers_free = counts.free;
  sample.layers_in_flight = counts.in_flight;
  sample.layers_allocated = counts.allocated;
  for (const MapTiles& each : maps_) {
    sample.vram_bytes += each.layer->cache().resident_bytes();
    sample.cpu_cache_bytes += each.layer->texel_cache().bytes();
  }
  sample.uploads = delivered->loaded;
  sample.misses = delivered->waiting;
  report_.tiles_uploaded += delivered->loaded;
  report_.acquire_misses += delivered->waiting;
  return true;
}

void TileMapDemo::request_snapshot(WGPUCommandEncoder encoder, uint32_t frame) {
  const gpu::Procs& p = procs();
  WGPUBufferDescriptor desc{};
  desc.label = gpu::string_view("demo snapshot");
  desc.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
  desc.size = uint64_t{options_.width} * options_.height * 4;
  PendingSnapshot& snapshot = snapshots_.emplace_back();
  snapshot.frame = frame;
  snapshot.buffer = gpu::Ref<WGPUBuffer>(&p, p.DeviceCreateBuffer(engine_->device(), &desc));
  gpu::copy_image_to_buffer(p, encoder, *engine_->registry().resolve(target_), snapshot.buffer.get(), options_.width,
                            options_.height, options_.width * 4);
  unmapped_ = &snapshot;
}

void TileMapDemo::map_snapshot() {
  if (unmapped_ == nullptr) return;
  auto on_mapped = [pending = unmapped_](WGPUMapAsyncStatus status, WGPUStringView) {
    pending->mapped = true;
    pending->status = status;
  };
  // Delivered by a later poll: no wait.
  const auto done = gpu::once_callback<WGPUBufferMapCallbackInfo>(WGPUCallbackMode_AllowProcessEvents, on_mapped);
  procs().BufferMapAsync(unmapped_->buffer.get(), WGPUMapMode_Read, 0,
                         uint64_t{options_.width} * options_.height * 4, done);
  unmapped_ = nullptr;
}

void TileMapDemo::collect_snapshots() {
  const gpu::Procs& p = procs();
  for (auto it = snapshots_.begin(); it != snapshots_.end();) {
    if (!it->mapped) {
      ++it;
      continue;
    }
    const uint64_t size = uint64_t{options_.width} * options_.height * 4;
    const auto* data = it->status == WGPUMapAsyncStatus_Success
                           ? static_cast<const uint8_t*>(p.BufferGetConstMappedRange(it->buffer.get(), 0, size))
                           : nullptr;
    if (data != nullptr) {
      captured_.push_back({it->frame, present::Image{options_.width, options_.height, std::vector<uint8_t>(data, data + size)}});
      p.BufferUnmap(it->buffer.get());
    } else {
      log_.error(MessageId::DemoSnapshotUnmapped,
                 fmt::format("snapshot of frame {}: the readback could not be mapped", it->frame));
    }
    it = snapshots_.erase(it);
  }
}

Result<void> TileMapDemo::drain_snapshots() {
  // After the last frame: a tool wait, outside the frame loop, for the last readbacks.
  if (engine_->queue() != nullptr) {
    if (auto idle = engine_->context().wait_queue_idle(engine_->queue(), kDrainTimeout); !idle) return idle.error();
  }
  const auto deadline = Clock::now() + kDrainTimeout;
  while (!snapshots_.empty() && Clock::now() < deadline) {
    engine_->poll();
    collect_snapshots();
  }
  if (!snapshots_.empty()) {
    return make_error(ErrorKind::Timeout, MessageId::DemoSnapshotsUnfinished,
                      fmt::format("{} snapshot readbacks did not finish", snapshots_.size()));
  }
  // PNG encoding and file writes stay off the frame path: all of them after the last frame.
  std::sort(captured_.begin(), captured_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  measure_first_drawn();
  for (const auto& [frame, image] : captured_) {
    const auto path = options_.out / fmt::format("frame-{:04}.png", frame);
    if (auto written = present::write_png(image, path); !written) return written.error();
    report_.snapshots.push_back({frame, path});
  }
  return {};
}

void TileMapDemo::measure_first_drawn() {
  auto snapshot = [&](uint32_t frame) -> const present::Image* {
    for (const auto& [at, image] : captured_) {
      if (at == frame) return &image;
    }
    return nullptr;
  };
  for (DemoReport::Loss& loss : report_.losses) {
    // The last frame snapshotted before the loss: the planned loss waits for its readback.
    const present::Image* before = nullptr;
    for (const auto& [at, image] : captured_) {
      if (at < loss.frame) {
        before = &image;
        loss.compared_frame = at;
      }
    }
    const present::Image* first = loss.first_drawn != 0 ? snapshot(loss.first_drawn) : nullptr;
    if (before != nullptr && first != nullptr) {
      loss.first_drawn_blank_fraction = blank_fraction(before->rgba, first->rgba, clear_colour_rgba8());
    }
  }
}

// Destroys what the run made, in the registry; what the registry still holds then is a leak.
void TileMapDemo::teardown() {
  if (!engine_) return;
  for (PendingSnapshot& pending : snapshots_) procs().BufferUnmap(pending.buffer.get());
  engine_->context().process_events();  // aborted maps call back now, while their records exist
  snapshots_.clear();
  for (tiles::LayerIndex layer : held_layers_) (void)maps_[0].layer->pool().release(layer);
  held_layers_.clear();
  for (MapTiles& map : maps_) {
    report_.memory_uploads += map.layer->counters().memory_uploads;
    report_.restored_after_loss += map.layer->counters().restored_after_loss;
    map.layer.reset();
    (void)map.fetcher->server().stop();
  }
  maps_.clear();
  if (window_target_) report_.window_surfaces = window_target_->counters().surfaces_created;
  window_target_.reset();  // its surface goes before the device
  window_.reset();
  resources::Registry& registry = engine_->registry();
  (void)registry.destroy_texture_view(target_view_);
  (void)registry.destroy_texture(target_);
  (void)registry.destroy_shader_module(shader_);
  report_.leaked_objects = registry.live_counts().total();
  engine_.reset();
  if (options_.ledger) {
    report_.ledger_outstanding = gpu::to_string(gpu::Ledger::process().outstanding() - references_before_);
  }
}

Result<DemoReport> TileMapDemo::run(ProgressLine* progress) {
  if (auto valid = check_options(options_); !valid) return valid.error();
  std::error_code ec;
  std::filesystem::create_directories(options_.out, ec);
  if (ec) {
    return make_error(ErrorKind::Io, MessageId::DemoOutFolderUncreatable,
                      fmt::format("--out {}: cannot create it: {}", options_.out.string(), ec.message()));
  }
  faults_ = options_.faults;
  std::stable_sort(faults_.begin(), faults_.end(), [](const auto& a, const auto& b) { return a.frame < b.frame; });
  if (auto opened = open_sources(); !opened) return opened.error();
  if (auto created = create_engine(); !created) return created.error();
  if (auto scene = create_scene(); !scene) return scene.error();
  if (auto window = open_window(); !window) return window.error();
  snapshot_frames_ = snapshot_frames(options_);
  snapshot_frames_.insert(snapshot_frames_.end(), options_.snapshot_at.begin(), options_.snapshot_at.end());
  std::sort(snapshot_frames_.begin(), snapshot_frames_.end());

  const uint64_t waits_before = gpu::blocking_wait_count_this_thread();
  const auto start = Clock::now();
  uint32_t frame = 0;
  while (frame < options_.frames) {
    const auto frame_start = Clock::now();
    current_frame_ = frame;
    for (; next_fault_ < faults_.size() && faults_[next_fault_].frame <= frame; ++next_fault_) inject(faults_[next_fault_], frame);
    if (fix_shader_at_ && frame >= *fix_shader_at_) {
      fix_shader_at_.reset();
      (void)write_module("grade.wesl", grade_module(shader_variant_));
    }
    if (!held_layers_.empty() && frame >= release_held_at_) {
      for (tiles::LayerIndex layer : held_layers_) (void)maps_[0].layer->pool().release(layer);
      held_layers_.clear();
    }
    FrameSample sample;
    sample.frame = frame;
    auto rendered = render_frame(frame, sample);
    if (!rendered) return rendered.error();
    if (window_ && window_->should_close()) break;  // the user closed it
    check_layers();
    if (*rendered) {
      ++report_.frames_drawn;
      sample.frame_ms = std::chrono::duration<double, std::milli>(Clock::now() - frame_start).count();
      report_.samples.push_back(sample);
    } else {
      ++report_.frames_skipped;
    }
    // The display's pace, not a GPU wait; a skipped frame waits at least a millisecond for the
    // device requests to move on.
    const auto pace = std::max(options_.frame_interval, std::chrono::milliseconds(*rendered ? 0 : 1));
    std::this_thread::sleep_until(frame_start + pace);
    if (progress != nullptr) {
      const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
      ProgressSample status{frame, seconds > 0 ? (frame + 1) / seconds : 0, 0, sample.vram_bytes, report_.vram_budget_bytes,
                            engine_->counters().device_losses, engine_->counters().hot_reloads};
      for (const MapTiles& each : maps_) status.tiles_resident += each.layer->cache().resident_count();
      progress->update(status);
    }
    if (*rendered || !options_.count_drawn_frames_only) ++frame;
    if (report_.gave_up) break;
  }
  report_.frames = frame;
  report_.blocking_waits = gpu::blocking_wait_count_this_thread() - waits_before;
  report_.device_losses = engine_->counters().device_losses;
  report_.recoveries = engine_->counters().recoveries;
  report_.hot_reloads = engine_->counters().hot_reloads;
  engine_->poll();  // the last frame's refused commands, if any, are counted here
  report_.uncaptured_errors = engine_->counters().uncaptured_errors;
  report_.frames_with_errors = engine_->counters().frames_with_errors;
  for (MapTiles& map : maps_) (void)map.fetcher->server().stop();
  if (auto drained = drain_snapshots(); !drained) return drained.error();
  teardown();

  if (!options_.write_report_files) return report_;
  if (auto json = write_report_json(report_, options_.out / "report.json"); !json) return json.error();
  auto uplot = UplotAssets::load();
  if (!uplot) return uplot.error();
  if (auto html = write_report_html(report_, *uplot, options_.out / "report.html"); !html) return html.error();
  return report_;
}

}  // namespace

constexpr EnumName<PlannedFaultKind> kPlannedFaultKindNames[] = {
    {PlannedFaultKind::DeviceLoss, "device_loss"},
    {PlannedFaultKind::ShaderReload, "shader_reload"},
    {PlannedFaultKind::ShaderBroken, "shader_broken"},
    {PlannedFaultKind::FetchFailures, "fetch_failures"},
    {PlannedFaultKind::PoolExhaustion, "pool_exhaustion"},
    {PlannedFaultKind::CarelessClient, "careless_client"},
};
const char* to_string(PlannedFaultKind kind) { return name_in(kPlannedFaultKindNames, kind); }

Result<void> check_options(const DemoOptions& o) {
  auto bad = [](warden::MessageId id, std::string message) {
    return make_error(ErrorKind::InvalidArgument, id, std::move(message));
  };
  if (o.frames == 0) return bad(MessageId::DemoFramesZero, "--frames must be at least 1");
  if (o.width == 0 || o.height == 0 || o.width > 4096 || o.height > 4096) {
    return bad(MessageId::DemoSizeOutOfRange,
               fmt::format("--size {}x{}: width and height must be in 1..4096", o.width, o.height));
  }
  if (o.width % 64 != 0) {
    return bad(MessageId::DemoWidthNotMultipleOf64,
               fmt::format("--size {}x{}: the width must be a multiple of 64 (snapshot rows are read back in "
                           "256-byte steps)",
                           o.width, o.height));
  }
  if (o.budget_mb == 0) return bad(MessageId::DemoBudgetZero, "--budget-mb must be at least 1");
  if (o.frame_interval.count() < 0) {
    return bad(MessageId::DemoFrameIntervalNegative,
               fmt::format("--frame-interval-ms {} is negative", o.frame_interval.count()));
  }
  if (o.max_zoom > kMaxSourceZoom) {
    return bad(MessageId::DemoZoomTooDeep, fmt::format("--max-zoom {} is beyond {}", o.max_zoom, kMaxSourceZoom));
  }
  if (!(o.fetch_failure_rate >= 0.0 && o.fetch_failure_rate <= 1.0)) {
    return bad(MessageId::TileFetchFailureRateOutOfRange,
               fmt::format("--failure-rate {} is outside [0, 1]", o.fetch_failure_rate));
  }
  if (o.fetch_latency.count() < 0) {
    return bad(MessageId::TileFetchLatencyNegative,
               fmt::format("--fetch-latency-ms {} is negative", o.fetch_latency.count()));
  }
  if (o.backend == gpu::BackendChoice::Null) {
    return bad(MessageId::DemoNullBackend,
               "--backend null: the demo draws and reads pixels back; the null backend only validates "
               "(choose auto, vulkan, gl or gles)");
  }
  for (const PlannedFault& f : o.faults) {
    if (f.frame >= o.frames) {
      return bad(MessageId::DemoFaultBeyondRun,
                 fmt::format("a {} at frame {} is beyond the run's {} frames", to_string(f.kind), f.frame, o.frames));
    }
  }
  return {};
}

std::string graphics_off_words(const device::GiveUp& why) {
  return fmt::format("Graphics are off: {}. They stay off until you turn them on again; your work is still available.",
                     device::describe(why));
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

Result<DemoReport> run_tile_map_demo(const DemoOptions& options, ProgressLine* progress, Diagnostics& log) {
  TileMapDemo demo(options, log);
  return demo.run(progress);
}

}  // namespace warden::demo
