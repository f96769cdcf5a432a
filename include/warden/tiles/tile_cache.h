/// @file
/// TileCache: which tiles of a pyramid hold a layer of the array, under a VRAM byte budget.
///
/// Tiles are keyed by (z, x, y), 0 <= z <= 30 and x, y < 2^z; a key outside that pyramid is an
/// error for every call that takes one and has no tile and no ancestor for draw_source/peek.
/// Every resident tile costs exactly one layer's bytes; the budget is counted in tiles
/// (budget_bytes / layer_bytes), so no byte count can wrap. Layers come only from the LayerPool;
/// eviction releases the layer back to it, which makes eviction pure bookkeeping.
///
/// A resident tile is in one of three places (docs/adr/0008):
///   pinned     never evicted, by the budget or by evict(), until unpinned;
///   protected  visible this frame, or the resident ancestor a visible position draws from:
///              never evicted by a load (begin_frame sets the frame's visible set);
///   evictable  in the LRU order; the only tiles a load may evict, least recently used first.
/// So the eviction victim is always the first of one ordered set: O(1), however many tiles are
/// pinned. A use is a load (or a load that finds the tile resident) and a draw_source that draws
/// from it, pinned or not; a frame a tile is protected in counts as a use when the next frame
/// begins. Pinning takes a tile out of the order and unpinning puts it back where its last use
/// puts it, so a pin and an unpin with nothing between change no eviction.
///
/// A load evicts only what the budget requires or what frees a layer usable now; when neither
/// helps it evicts nothing and says why (LoadStatus::Deferred or LoadStatus::Held).
///
/// Fills and fetches run while the cache is in the middle of a change: from inside one, every
/// call that changes the cache (load, complete, deliver, request, dispatch, evict, pin,
/// begin_frame, clear) is refused with a Refused error naming the rule. Reads (is_resident,
/// layer_of, peek, the counters) are allowed.
///
/// Asynchronous tiles: request(key) queues a fetch; dispatch(fetcher) starts the nearest-to-centre
/// queued fetches, at most max_fetches_in_flight at once; the fetcher answers through a
/// TileReply from any thread; deliver(upload) on the frame thread uploads what arrived. A reply
/// for a tile no longer wanted this frame, evicted or cancelled, or from before clear(), is
/// dropped and counted (stale_completions()). Everything but TileReply is frame-thread only.
///
/// Fills that finish later: hand_off() is deliver() for an uploader that writes on other
/// threads. It acquires each arrived tile's layer on the frame thread and hands the layer and
/// the texels over; until finish_fill() the tile is filling: it holds its layer and counts
/// against the budget, but is not resident (never drawn, never evicted, request() says
/// Pending). evict() and clear() cancel a fill; its layer stays allocated until its
/// finish_fill, since the writer may still be writing it, and then goes back to the pool
/// unpublished.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "warden/core/diagnostics.h"
#include "warden/core/result.h"
#include "warden/tiles/layer_pool.h"

namespace warden::tiles {

/// The Diagnostics category the tile systems report under.
inline constexpr std::string_view kDiagnosticsCategory = "gfx.tiles";

/// The deepest zoom level a TileKey may have.
inline constexpr uint32_t kMaxZoom = 30;

/// A tile of the pyramid: zoom level z, column x, row y.
struct TileKey {
  /// Zoom level, column, row.
  ///@{
  uint32_t z = 0, x = 0, y = 0;
  ///@}
  /// Equal when z, x and y are.
  bool operator==(const TileKey&) const = default;
  /// The tile one level up that covers this one; none at z = 0.
  std::optional<TileKey> parent() const {
    if (z == 0) return std::nullopt;
    return TileKey{z - 1, x / 2, y / 2};
  }
  /// 0 <= z <= kMaxZoom and x, y < 2^z.
  bool in_pyramid() const { return z <= kMaxZoom && x < (1u << z) && y < (1u << z); }
};
/// "z/x/y".
std::string to_string(const TileKey& key);

/// Hashes a TileKey, for unordered containers.
struct TileKeyHash {
  /// The hash of `k`.
  size_t operator()(const TileKey& k) const noexcept {
    uint64_t h = (uint64_t{k.z} << 58) ^ (uint64_t{k.x} << 29) ^ k.y;
    return std::hash<uint64_t>{}(h);
  }
};

/// Where to sample for a tile position: a layer and the sub-rectangle of its texels.
struct TileSource {
  TileKey drawn{};  ///< the tile itself, or the ancestor standing in for it
  /// The layer holding `drawn`.
  LayerIndex layer = 0;
  /// The sub-rectangle of the layer to sample.
  ///@{
  float u0 = 0, v0 = 0, scale = 1;  ///< texels [u0, u0 + scale) x [v0, v0 + scale)
  ///@}
  uint32_t levels_up = 0;           ///< 0: the tile itself
};

/// What load() did.
enum class LoadStatus {
  AlreadyResident,
  Loaded,
  /// No layer can be handed out now (the ones that would be free are still read by frames in
  /// flight): try again next frame, it will succeed once they retire.
  Deferred,
  /// The budget (or the pool) is full of tiles no load may evict: pinned, or protected this
  /// frame. Retrying cannot succeed until one is unpinned, evicted, or leaves the visible set.
  Held,
};
/// The status in words, for messages ("deferred (no layer free yet, try next frame)").
const char* to_string(LoadStatus status);

/// What one frame shows. `visible` is every tile position the frame draws; `centre_x`/`centre_y`
/// is the view's centre in world units (0..1 across the whole pyramid, any zoom), the point
/// fetches are ordered by.
struct FrameView {
  /// Every tile position the frame draws.
  std::span<const TileKey> visible{};
  /// The view's centre, 0..1 across the whole pyramid.
  ///@{
  double centre_x = 0.5, centre_y = 0.5;
  ///@}
};

/// One fetch, as handed to a TileFetcher and answered through a TileReply.
struct FetchTicket {
  /// The tile to fetch.
  TileKey key{};
  uint64_t id = 0;  ///< unique per request over the cache's life: a later request is another id
};

namespace detail {
struct Arrival {
  FetchTicket ticket{};
  Result<std::vector<uint8_t>> texels;
};
// Where replies wait for the frame thread: the one piece of the cache other threads touch.
class Mailbox {
 public:
  void post(Arrival arrival);
  std::vector<Arrival> take_all();

 private:
  std::mutex mutex_;
  std::vector<Arrival> arrivals_;
};
}  // namespace detail

/// A fill started by TileCache::hand_off: the tile, the layer acquired for it, and the fill's id
/// (its request's), which finish_fill() hands back.
struct FillTicket {
  TileKey key{};        ///< the tile being filled
  LayerIndex layer{};   ///< the layer it fills, allocated until finish_fill()
  uint64_t id = 0;      ///< unique per request over the cache's life
};

/// A fetcher's answer to one ticket: call deliver() or fail() once, from any thread. A reply
/// destroyed unanswered counts as a failed fetch, so a lost reply never holds a fetch slot.
class TileReply {
 public:
  /// A reply for `ticket` (made by the cache's dispatch()).
  TileReply(std::shared_ptr<detail::Mailbox> mailbox, FetchTicket ticket)
      : mailbox_(std::move(mailbox)), ticket_(ticket) {}
  /// Moves the duty to answer; the moved-from reply answers nothing.
  ///@{
  TileReply(TileReply&&) noexcept = default;
  TileReply& operator=(TileReply&&) noexcept;
  ///@}
  TileReply(const TileReply&) = delete;
  TileReply& operator=(const TileReply&) = delete;
  ~TileReply();

  /// The fetch this reply answers.
  const FetchTicket& ticket() const { return ticket_; }
  /// Level-0 texels of the tile, in whatever layout the deliver() upload expects.
  void deliver(std::vector<uint8_t> texels);
  /// Answers that the fetch failed, with why.
  void fail(Error error);

 private:
  void post(Result<std::vector<uint8_t>> texels);
  std::shared_ptr<detail::Mailbox> mailbox_;  // null once answered (or moved from)
  FetchTicket ticket_;
};

/// A source of tiles that answers later: a worker thread, a network client, a disk reader.
/// fetch() runs on the frame thread (inside dispatch) and must not call into the cache; it
/// starts the work and keeps the reply until it answers. The cache keeps the data, not the
/// fetcher: nothing has to be buffered on the fetcher's side.
class TileFetcher {
 public:
  virtual ~TileFetcher() = default;
  /// Starts fetching reply.ticket(); answer through `reply` later, from any thread.
  virtual void fetch(TileReply reply) = 0;
};

/// What one deliver() did.
struct DeliverReport {
  uint32_t loaded = 0;   ///< uploaded and resident
  uint32_t waiting = 0;  ///< arrived, no layer yet (Deferred/Held): kept, retried next deliver
  uint32_t stale = 0;    ///< dropped: no longer wanted, evicted, cancelled, or from before clear()
  uint32_t handed_off = 0;  ///< hand_off() only: layers acquired and handed to fills that finish later
  std::vector<std::pair<TileKey, Error>> failed{};  ///< the fetch or the upload failed
};

/// What became of one reply.
enum class ReplyOutcome {
  Loaded,   ///< uploaded and resident
  Waiting,  ///< kept: no layer yet (Deferred or Held); deliver() retries it
  Stale,    ///< dropped and counted: not wanted this frame, evicted, cancelled, or before clear()
};

/// What request() did.
enum class RequestStatus {
  AlreadyResident,
  Queued,   ///< a new request; dispatch starts it
  Pending,  ///< already queued, being fetched, or arrived and waiting for a layer
  /// Not resident, but its texels are held in memory (engine::TileLayer's TexelCache): no
  /// fetch starts, the next deliver uploads it. TileCache itself never answers this.
  FromMemory,
};

/// Which tiles hold a layer of the array, under a VRAM byte budget (see the file comment).
class TileCache {
 public:
  /// Fills the acquired layer (upload + mip chain); an error leaves the tile not resident.
  /// Runs inside load: it may read the cache but not change it (see the top of this file).
  using Fill = std::function<Result<void>(const TileKey&, LayerIndex)>;
  /// Uploads arrived texels into the acquired layer; the same rules as Fill.
  using Upload = std::function<Result<void>(const TileKey&, LayerIndex, std::span<const uint8_t>)>;
  /// Starts the fill of `ticket`'s layer with the arrived texels (hand_off); the same rules as
  /// Fill. An error releases the layer and fails the fetch.
  using HandOff = std::function<Result<void>(const FillTicket&, std::vector<uint8_t> texels)>;

  /// Fetches in flight at once unless create() is told otherwise.
  static constexpr uint32_t kDefaultMaxFetches = 8;

  /// `layer_bytes` is one layer's exact cost. Errors: layer_bytes 0, a budget smaller than one
  /// layer, the pool's bytes (layers x layer_bytes) beyond 64 bits, max_fetches_in_flight 0.
  static Result<TileCache> create(LayerPool& pool, uint64_t budget_bytes, uint64_t layer_bytes,
                                  uint32_t max_fetches_in_flight = kDefaultMaxFetches);

  /// Destroying (or assigning over) a cache does not release its layers: the pool may already be
  /// gone. clear() first to hand them back to a pool that lives on.
  TileCache(TileCache&&) noexcept = default;
  /// See the move constructor.
  TileCache& operator=(TileCache&&) noexcept = default;
  /// A copy would share the layers (both would release them) and its LRU positions would point
  /// into the original's order.
  TileCache(const TileCache&) = delete;
  TileCache& operator=(const TileCache&) = delete;

  // ---- the frame ----------------------------------------------------------------------------
  /// Starts a frame: the previous frame's protected tiles become evictable, more recently used
  /// than every other evictable tile and in the order of their own last uses, and each visible
  /// position's tile, or the resident ancestor it draws from, is protected until the next
  /// begin_frame. Requests not renewed since the last begin_frame stop
  /// being wanted. An error (a key outside the pyramid) changes nothing.
  Result<void> begin_frame(const FrameView& view);

  /// Makes `key` resident now: evicts what the budget requires, acquires a layer, fills it.
  /// A failed fill releases the layer on every path (error or exception) and returns the error.
  Result<LoadStatus> load(const TileKey& key, const Fill& fill, Priority priority = Priority::Normal);
  /// The tile or its nearest resident ancestor, marked used (LRU) and touched in the pool for
  /// the frame being recorded; nullopt when neither the tile nor any ancestor is resident.
  std::optional<TileSource> draw_source(const TileKey& key);
  /// What draw_source would return, without marking use or touching the layer.
  std::optional<TileSource> peek(const TileKey& key) const;

  // ---- asynchronous tiles -------------------------------------------------------------------
  /// Wants `key` this frame: queues a fetch unless resident or already requested. Renew every
  /// frame the tile is still wanted; a request not renewed is dropped (queued) or its reply
  /// counted stale (in flight).
  Result<RequestStatus> request(const TileKey& key);
  /// Starts queued, wanted fetches nearest to the view's centre first (coarser zoom first on a
  /// tie) until max_fetches_in_flight are outstanding. Returns how many it started.
  Result<uint32_t> dispatch(TileFetcher& fetcher);
  /// Uploads what arrived (and what waited for a layer), nearest to the centre first.
  Result<DeliverReport> deliver(const Upload& upload, Priority priority = Priority::Normal);
  /// deliver() for fills that finish later (see the top of this file): every arrival, nearest
  /// to the centre first, gets a layer (Deferred and Held ones wait, as in deliver) and goes to
  /// `hand_off` with its texels; report.handed_off counts them, report.loaded stays 0. The
  /// fetch's slot is free from then on.
  Result<DeliverReport> hand_off(const HandOff& hand_off, Priority priority = Priority::Normal);
  /// A fill started by hand_off ended with `written`. Written and not cancelled: `publish`
  /// finishes the layer on this thread (its mip chain; the same rules as Fill) and the tile
  /// becomes resident (Loaded). Cancelled by evict() or clear(), or made resident another way
  /// meanwhile: its layer goes back to the pool, nothing is published (Stale). A failed write
  /// or publish releases the layer and is a failed fetch (counted, reported, returned).
  /// NotFound for a ticket the cache never handed off or already finished.
  Result<ReplyOutcome> finish_fill(const FillTicket& ticket, Result<void> written, const Fill& publish);
  /// One reply, on the frame thread: for sources that answer there (and for tests). deliver()
  /// calls it for every arrival.
  Result<ReplyOutcome> complete(const FetchTicket& ticket, Result<std::vector<uint8_t>> texels,
                              const Upload& upload, Priority priority = Priority::Normal);

  // ---- explicit control ---------------------------------------------------------------------
  /// True when `key` is being filled (hand_off): it holds a layer, and is not resident yet.
  bool is_filling(const TileKey& key) const { return fills_.contains(key); }
  /// True when `key` holds a layer.
  bool is_resident(const TileKey& key) const { return entries_.contains(key); }
  /// The layer `key` holds, if resident.
  std::optional<LayerIndex> layer_of(const TileKey& key) const;
  /// A pinned tile is never evicted, by the budget or by evict(); unpin to let it go. An
  /// unpinned tile is as recently used as its last use (while pinned or before) makes it.
  Result<void> pin(const TileKey& key, bool pinned = true);
  /// Drops a tile now and releases its layer, and cancels any request or fill for it. Refused
  /// for a pinned tile; NotFound when the key is neither resident, requested nor filling.
  Result<void> evict(const TileKey& key);
  /// Drops every tile (pinned ones too), every request and every fill; replies to earlier
  /// requests and fills not finished are stale from now on (a new epoch: device loss, a new data
  /// set). A cancelled fill's layer is released by its finish_fill.
  Result<void> clear();

  /// Bytes of the resident tiles' layers.
  uint64_t resident_bytes() const { return entries_.size() * layer_bytes_; }
  /// The budget, in whole layers' bytes.
  uint64_t budget_bytes() const { return budget_tiles_ * layer_bytes_; }
  /// The budget in tiles.
  uint64_t budget_tiles() const { return budget_tiles_; }
  /// One layer's bytes.
  uint64_t layer_bytes() const { return layer_bytes_; }
  /// Tiles resident now.
  size_t resident_count() const { return entries_.size(); }
  /// Fills handed off and not finished, cancelled ones included: each holds a layer.
  size_t filling_count() const { return fills_.size() + cancelled_fills_.size(); }
  /// Tiles pinned now.
  size_t pinned_count() const { return pinned_count_; }
  /// Tiles protected this frame.
  size_t protected_count() const { return frame_list_.size(); }
  /// Tiles evicted so far.
  uint64_t evictions() const { return evictions_; }
  /// Fetches dispatched and not answered.
  uint32_t fetches_in_flight() const { return fetches_in_flight_; }
  /// The limit on those.
  uint32_t max_fetches_in_flight() const { return max_fetches_; }
  /// Replies dropped as stale so far.
  uint64_t stale_completions() const { return stale_completions_; }
  /// Fetches answered with fail() (or dropped unanswered) so far.
  uint64_t failed_fetches() const { return failed_fetches_; }

  /// Where each failed fetch or upload is also reported (gfx.tiles, a warning with the failure's
  /// own message id and words); null, the default: only the return value says so. Must outlive
  /// the cache, or be unset first.
  void set_diagnostics(Diagnostics* diagnostics) { diagnostics_ = diagnostics; }
  /// The cache's epoch: incremented by clear(); replies from before it are stale.
  uint64_t epoch() const { return epoch_; }

 private:
  TileCache(LayerPool& pool, uint64_t budget_tiles, uint64_t layer_bytes, uint32_t max_fetches);

  enum class Place : uint8_t { Evictable, Protected, Pinned };
  // Tiles by last use, oldest first. A map, not a list, so an unpinned tile can go back to the
  // place its last use gives it (O(log n), no scan); a fresh use goes to the end, O(1) by a hint.
  using UseOrder = std::map<uint64_t, TileKey>;
  struct Entry {
    LayerIndex layer{};
    Place place = Place::Evictable;
    uint64_t last_use = 0;       // kept while pinned: where unpinning puts the tile back
    UseOrder::iterator position{};  // in lru_ or frame_list_; unused when pinned
  };
  struct Request {
    enum class State : uint8_t { Queued, Fetching, Arrived };
    uint64_t id = 0;
    State state = State::Queued;
    uint64_t wanted_in_frame = 0;
    std::vector<uint8_t> texels{};  // Arrived: waiting for a layer
  };
  // Either a layer to fill or the reason there is none.
  struct Room {
    std::optional<LayerIndex> layer{};
    LoadStatus otherwise = LoadStatus::Deferred;
  };

  Result<void> refuse_inside_callback(const char* call) const;
  Room make_room(Priority priority);
  Result<LoadStatus> place_tile(const TileKey& key, const Fill& fill, Priority priority);
  void insert(const TileKey& key, LayerIndex layer);
  void remove(std::unordered_map<TileKey, Entry, TileKeyHash>::iterator it);
  void protect(Entry& entry);
  void mark_used(Entry& entry);
  // Moves a tile's node from one order to `to`, at the place `last_use` gives it.
  void move_to(UseOrder& from, UseOrder& to, Entry& entry);
  UseOrder& order_of(Place place) { return place == Place::Protected ? frame_list_ : lru_; }
  // The tile or its nearest resident ancestor, and how many levels up it is.
  std::optional<std::pair<TileKey, uint32_t>> nearest_resident(const TileKey& key) const;
  double distance_to_centre(const TileKey& key) const;
  std::vector<TileKey> nearest_first(std::vector<TileKey> keys) const;
  // deliver's and hand_off's first half: what the mailbox holds accepted (failures and stale
  // replies counted in `report`), then every arrived tile's key, nearest first.
  std::vector<TileKey> take_arrivals(DeliverReport& report);

  using Requests = std::unordered_map<TileKey, Request, TileKeyHash>;
  bool wanted_now(const Request& request) const { return request.wanted_in_frame == frame_; }
  // A reply's first stop: true when its texels now wait in the request, false when stale.
  Result<bool> accept(const FetchTicket& ticket, Result<std::vector<uint8_t>> texels);
  Result<ReplyOutcome> place_arrived(Requests::iterator it, const Upload& upload, Priority priority);
  // A fetch that ended in failure: its slot and request go, and it is counted and reported.
  Error fail_request(Requests::iterator it, Error error);
  // Forgets a request; a fetch still running keeps its slot until its reply comes back.
  void drop_request(Requests::iterator it);
  // Resident tiles and fills not cancelled: what the budget counts.
  uint64_t budgeted_tiles() const { return entries_.size() + fills_.size(); }

  LayerPool* pool_;
  uint64_t budget_tiles_;
  uint64_t layer_bytes_;
  uint32_t max_fetches_;
  UseOrder lru_;         // evictable tiles; first: least recently used
  UseOrder frame_list_;  // protected tiles of this frame
  uint64_t uses_ = 0;    // the last use's number: every use takes the next one
  std::unordered_map<TileKey, Entry, TileKeyHash> entries_;
  std::unordered_set<TileKey, TileKeyHash> visible_;
  size_t pinned_count_ = 0;
  uint64_t frame_ = 0;
  double centre_x_ = 0.5, centre_y_ = 0.5;
  uint64_t evictions_ = 0;
  // Set while a fill or a fetch runs: the re-entrancy rule's single source of truth.
  const char* inside_ = nullptr;

  Requests requests_;
  std::unordered_set<uint64_t> orphaned_fetches_;  // ids of running fetches no request wants
  std::unordered_map<TileKey, FillTicket, TileKeyHash> fills_;  // handed off, not finished
  std::unordered_map<uint64_t, LayerIndex> cancelled_fills_;      // by fill id: layers still being written
  std::shared_ptr<detail::Mailbox> mailbox_ = std::make_shared<detail::Mailbox>();
  uint64_t next_request_id_ = 1;
  uint32_t fetches_in_flight_ = 0;  // Fetching + Arrived: both hold a slot (and, Arrived, data)
  uint64_t stale_completions_ = 0;
  uint64_t failed_fetches_ = 0;
  Diagnostics* diagnostics_ = nullptr;
  uint64_t epoch_ = 0;
};

}  // namespace warden::tiles
