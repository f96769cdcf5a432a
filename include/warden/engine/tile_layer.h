/// @file
/// TileLayer: what an application adds to an Engine to show a slippy-map pyramid. It owns the
/// tile systems of one layer — MipGenerator, TileArray, TileRenderer and its bind group (all in
/// the engine's registry, so a rebuild brings them back under their handles), a LayerPool on the
/// registry's clock (which outlives every device) and a TileCache over a byte budget — and a
/// small frame API over them:
///
///   layer.begin_frame(view); for each wanted key: layer.request(key); layer.dispatch(fetcher);
///   layer.deliver(frame);    // uploads what arrived into the frame's encoder
///   for each visible key: layer.draw_source(key) -> instances; layer.draw(pass, instances);
///
/// Decoded tiles are also kept in memory (a tiles::TexelCache, LRU under its own byte budget,
/// TileLayerOptions::cpu_cache_budget_bytes): every tile deliver() uploads is copied there, and
/// request() of a tile not resident whose texels it holds starts no fetch (RequestStatus::
/// FromMemory); deliver() uploads such tiles, at most memory_uploads_per_frame a frame, the
/// frame's visible tiles nearest the centre first. So a tile evicted from VRAM or lost with a
/// device costs an upload, not a fetch through a slow, failing source.
///
/// It is a GenerationObserver: when the device goes, every resident tile went with it, so the
/// cache is cleared (replies to earlier requests are stale from then on). When the next device
/// is ready (device_ready), before the application's first frame on it, the layer records a
/// frame of its own that uploads, from memory, the coarsest held ancestor of every position of
/// the last view (usually the root alone): the first frame drawn after a recovery shows the map,
/// coarser where it must, and no position the map covered before is blank. The frame loop then
/// asks for the visible tiles again; held ones come back memory_uploads_per_frame a frame, so a
/// view whose tiles are all held settles within ceil(visible / memory_uploads_per_frame) frames.
/// Should device_ready find no room to record (a layer still in flight), the first deliver()
/// after it does the same into its frame, before any other upload. Uploads go through queue.writeTexture (TileArray::upload),
/// which keeps no device-derived state of its own beside the registry's objects, so nothing else
/// has to be re-made (on llvmpipe it is also the faster path: docs/design.md, 'Measured').
///
/// A loss heard while the cache is inside one of its own calls (a diagnostics sink that polls
/// the engine during deliver) cannot clear it there: the clear happens as that call returns, and
/// nothing of the lost device is drawn meanwhile.
///
/// Uploads off the frame thread (TileLayerOptions::upload_threads > 0). The fetcher fetches and
/// decodes where it likes (TileReply answers from any thread); deliver() then acquires a layer
/// for each arrived tile on the frame thread and hands the layer and the texels to the layer's
/// upload threads (tiles::TileCache::hand_off), which write level 0 with queue.writeTexture.
/// A later deliver() publishes what they finished: the mip chain recorded into its frame, the
/// tile resident from then on (TileCache::finish_fill), its texels kept in memory. Until then
/// the tile is not drawn (its position draws an ancestor). A write holds its own references to
/// the array's texture and the queue of the device it was handed off on: after a loss it goes
/// to the lost device, never into the next one's array; the loss cancels its fill (the cache
/// is cleared), and a cancelled fill's layer goes back to the pool once its write returned,
/// unpublished. Tiles uploaded from memory (and the cover restored after a loss) are written on
/// the frame thread either way: they are at most memory_uploads_per_frame a frame.
///
/// On GL and GLES no thread writes (uploads_on_threads() is false): Dawn's GL backend makes its
/// one EGL context current on whichever thread calls it and leaves it there, so a write from a
/// second thread silently loses the frame thread's later GL work (docs/adr/0043). There the
/// frame thread writes each tile as it hands it off; the rest (publication in a later deliver,
/// cancellation by a loss) is the same.
///
/// A layer may outlive its engine: the engine's end lets go of everything the layer made
/// (engine_ending), and the layer's calls then fail with TileLayerEngineGone. Its parts (cache(),
/// pool(), array(), renderer()) exist only while the engine does.
///
/// Its calls are frame-thread calls, like the Engine's frame (warden/core/frame_thread.h); the
/// fetcher may answer from any thread (TileReply); the upload threads are the layer's own and
/// call nothing of the application's.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "warden/core/result.h"
#include "warden/engine/engine.h"
#include "warden/tiles/layer_pool.h"
#include "warden/tiles/texel_cache.h"
#include "warden/tiles/tile_cache.h"
#include "warden/tiles/tile_gpu.h"

namespace warden::engine {

/// How a TileLayer is sized and drawn.
struct TileLayerOptions {
  uint32_t tile_size = 256;  ///< width and height of every tile, in texels
  /// The cache's byte budget: whole layers of tile_size with their full mip chain.
  uint64_t budget_bytes = 16ull << 20;
  /// Layers beyond the budget's, so that layers released this frame (in flight until their last
  /// reader retires) do not starve the next frame's uploads.
  uint32_t in_flight_headroom = 16;
  uint32_t max_instances = 64;  ///< tile positions one draw() may show
  uint32_t max_fetches_in_flight = tiles::TileCache::kDefaultMaxFetches;  ///< fetches dispatch() keeps running at once
  WGPUTextureFormat target_format = WGPUTextureFormat_RGBA8Unorm;  ///< the format draw() renders into
  /// The application's draw shader (Engine::load_shader, watched for hot reload): its pipeline is
  /// made through engine.pipelines(). Null: warden's own (TileRenderer::default_wgsl()).
  ShaderModuleHandle shader{};
  std::string label = "tile layer";  ///< names the layer's objects in the registry and in errors
  /// Bytes of decoded level-0 texels kept in memory (tiles::TexelCache), LRU by request. Sized
  /// to hold what a view shows plus its ancestors several times over: 64 MiB is 256 tiles of
  /// 256 x 256 RGBA8. 0: off, every tile not resident is fetched.
  uint64_t cpu_cache_budget_bytes = 64ull << 20;
  /// Tiles deliver() uploads from memory in one frame (fetched tiles are uploaded as they
  /// arrive). Bounds an upload burst after a loss; the view settles within ceil(visible / this).
  /// At least 1 while cpu_cache_budget_bytes is not 0.
  uint32_t memory_uploads_per_frame = 8;
  /// Threads that write fetched tiles into their layers off the frame thread (see the top). 0:
  /// deliver() writes them on the frame thread. More than 0 needs a device with
  /// WGPUFeatureName_ImplicitDeviceSynchronization (EngineOptions::hot_reload asks for it).
  uint32_t upload_threads = 0;
};

/// What the layer has seen across device generations.
struct TileLayerCounters {
  uint64_t tiles_uploaded = 0;  ///< tiles deliver() put into a layer (published, with upload threads)
  uint64_t fetch_failures = 0;    ///< failed fetches and failed uploads (DeliverReport::failed)
  uint64_t clears = 0;            ///< device losses that emptied the cache
  uint64_t over_budget_frames = 0;  ///< begin_frame found resident bytes above the budget (never, by design)
  uint64_t memory_uploads = 0;      ///< tiles uploaded from the TexelCache, no fetch (also in tiles_uploaded)
  uint64_t restored_after_loss = 0;  ///< ancestors uploaded from memory before the first frame on a new device
  uint64_t uploads_handed_off = 0;   ///< fetched tiles given to the upload threads
  uint64_t stale_uploads = 0;        ///< their writes that finished after their fill was cancelled: never published
};

/// The tile systems of one slippy-map layer in an Engine, cleared on a device loss and refilled
/// by the frame loop (see the top of this file).
class TileLayer final : public GenerationObserver {
 public:
  /// Makes the layer's objects on the engine's current device. Errors: DeviceFailed while the
  /// engine has no device; InvalidArgument for a budget below one layer, more layers than the
  /// device allows, no room for the array's views (RegistryOptions::texture_view_capacity), or
  /// tiles kept in memory with memory_uploads_per_frame 0; Refused for upload threads on a device
  /// without WGPUFeatureName_ImplicitDeviceSynchronization.
  static Result<std::unique_ptr<TileLayer>> create(Engine& engine, TileLayerOptions options);
  /// Stops the upload threads (a write in progress finishes first), stops observing, gives the
  /// cache's layers back and destroys its objects in the registry.
  ~TileLayer() override;
  TileLayer(const TileLayer&) = delete;
  TileLayer& operator=(const TileLayer&) = delete;

  // ---- the frame (TileCache's, see there) -------------------------------------------------
  /// Starts a frame: the visible set and the view's centre (TileCache::begin_frame); counts a
  /// frame found over budget.
  Result<void> begin_frame(const tiles::FrameView& view);
  /// Wants `key` this frame: queues its fetch unless resident, already asked for, or held in
  /// memory (FromMemory: the next deliver uploads it). Marks its texels used in memory.
  Result<tiles::RequestStatus> request(const tiles::TileKey& key);
  /// Starts the queued fetches nearest the centre first; how many it started.
  Result<uint32_t> dispatch(tiles::TileFetcher& fetcher);
  /// With upload threads: first publishes the tiles they finished writing (mip chain recorded
  /// into `frame`, resident, texels kept in memory: report.loaded), then hands every tile that
  /// arrived to them (report.handed_off); the rest as below.
  /// Without: uploads every tile that arrived into a layer (and keeps its texels in memory), then up to
  /// memory_uploads_per_frame tiles requested FromMemory: level 0 written now, the mip chain
  /// recorded into `frame`'s encoder, the layer touched for that frame's submission. A failed
  /// fetch is counted and listed in the report; the caller may request the tile again.
  Result<tiles::DeliverReport> deliver(const Frame& frame, tiles::Priority priority = tiles::Priority::Normal);
  /// The tile or the nearest resident ancestor to draw in its place (TileCache::draw_source).
  /// Nothing while a clear is pending or the engine is gone.
  std::optional<tiles::TileSource> draw_source(const tiles::TileKey& key);
  /// An instance for a tile position in target pixels, showing `source`.
  static tiles::TileInstance place(const tiles::TileSource& source, float x, float y, float size, uint32_t target_width,
                                   uint32_t target_height);
  /// Writes `instances` and records one instanced draw of them into `pass`.
  Result<void> draw(WGPURenderPassEncoder pass, std::span<const tiles::TileInstance> instances);

  // ---- GenerationObserver -----------------------------------------------------------------
  /// The device went: every resident tile went with it, so the cache is cleared.
  void device_lost(uint64_t generation) override;
  /// The next device is ready: the registry made the layer's objects again; the coarsest held
  /// ancestors of the last view are uploaded in a frame of the layer's own (see the top).
  void device_ready(uint64_t generation) override;
  /// The engine ends first: the layer lets go of its objects now and refuses later calls.
  void engine_ending() override;

  /// The parts, for what the frame API does not cover (pinning, counters, invariants).
  ///@{
  tiles::TileCache& cache() { return *cache_; }
  const tiles::TileCache& cache() const { return *cache_; }
  tiles::LayerPool& pool() { return *pool_; }
  const tiles::TileArray& array() const { return *array_; }
  const tiles::TileRenderer& renderer() const { return *renderer_; }
  ///@}
  /// The decoded tiles kept in memory (exists while the layer does, engine or not).
  const tiles::TexelCache& texel_cache() const { return texels_; }
  /// What the layer has seen across device generations.
  const TileLayerCounters& counters() const { return counters_; }
  /// Writes handed to the upload threads and not yet published (0 without upload threads).
  size_t uploads_in_progress() const;
  /// True when upload threads run and write: upload_threads > 0 on a backend other than GL and
  /// GLES (see the top of this file).
  bool uploads_on_threads() const;
  /// resident bytes <= budget: what the cache guarantees, checked where the application asks.
  bool within_budget() const { return !cache_ || cache_->resident_bytes() <= cache_->budget_bytes(); }

 private:
  TileLayer(Engine& engine, const TileLayerOptions& options);
  // Clears the cache a loss could not clear from inside the cache's own call.
  void settle_pending_clear();
  // Uploads a tile whose texels are held in memory into a layer; the load's status.
  Result<tiles::LoadStatus> upload_from_memory(WGPUCommandEncoder encoder, const tiles::TileKey& key,
                                               tiles::Priority priority);
  // The coarsest held ancestor (or the tile) of each position of the last view, uploaded into
  // `encoder`; true once every one is resident (or nothing is held to cover the view).
  bool restore_view(WGPUCommandEncoder encoder);
  // Refused once the engine is gone (TileLayerEngineGone), and from a thread other than the
  // engine's frame thread (core.WrongThread).
  Result<void> usable(std::string_view call) const;
  // With upload threads: publishes the finished writes into `encoder`, then hands off arrivals.
  Result<tiles::DeliverReport> deliver_through_threads(WGPUCommandEncoder encoder, tiles::Priority priority);
  // Stops the upload threads and lets go of their writes, finished or not (frame thread).
  void stop_uploads();

  class Uploads;  // the upload threads and their queues

  Engine& engine_;
  // Made in this order, destroyed the other way round: users before what they use.
  std::optional<tiles::MipGenerator> mips_;
  std::optional<tiles::TileArray> array_;
  std::optional<tiles::TileRenderer> renderer_;
  std::optional<tiles::TileBindGroup> group_;
  std::optional<tiles::LayerPool> pool_;
  std::optional<tiles::TileCache> cache_;
  std::unique_ptr<Uploads> uploads_;  // null without upload threads
  // Losses seen so far: a write handed off before the latest loss is skipped by its thread.
  std::atomic<uint64_t> losses_{0};
  TileLayerCounters counters_;
  tiles::TexelCache texels_;
  uint32_t memory_uploads_per_frame_;
  std::vector<tiles::TileKey> from_memory_;  // requested this frame, held in memory, not resident
  std::vector<tiles::TileKey> last_view_;    // the visible positions of the last begin_frame
  double centre_x_ = 0.5, centre_y_ = 0.5;   // and its centre: memory uploads go nearest first
  bool restore_pending_ = false;  // a loss emptied VRAM; the last view's cover is not uploaded yet
  bool observing_ = false;
  bool clear_pending_ = false;  // a loss came while the cache was inside a call of its own
  bool engine_gone_ = false;
};

}  // namespace warden::engine
