#include "warden/tiles/tile_cache.h"

#include <algorithm>
#include <limits>
#include <tuple>

#include <fmt/format.h>

#include "warden/core/enum_names.h"

namespace warden::tiles {

std::string to_string(const TileKey& key) { return fmt::format("tile z{}/{}/{}", key.z, key.x, key.y); }

constexpr EnumName<LoadStatus> kLoadStatusNames[] = {
    {LoadStatus::AlreadyResident, "already resident"},
    {LoadStatus::Loaded, "loaded"},
    {LoadStatus::Deferred, "deferred (no layer free yet, try next frame)"},
    {LoadStatus::Held, "held (the budget is full of pinned or visible tiles)"},
};
const char* to_string(LoadStatus status) { return name_in(kLoadStatusNames, status, "?"); }

// ---- replies from other threads ---------------------------------------------------------------

void detail::Mailbox::post(Arrival arrival) {
  std::lock_guard lock(mutex_);
  arrivals_.push_back(std::move(arrival));
}

std::vector<detail::Arrival> detail::Mailbox::take_all() {
  std::lock_guard lock(mutex_);
  return std::exchange(arrivals_, {});
}

TileReply& TileReply::operator=(TileReply&& other) noexcept {
  if (this != &other) {
    if (mailbox_) post(make_error(ErrorKind::Io, MessageId::TileReplyReplaced,
                                  fmt::format("the reply for {} was replaced unanswered", to_string(ticket_.key))));
    mailbox_ = std::move(other.mailbox_);
    ticket_ = other.ticket_;
  }
  return *this;
}

TileReply::~TileReply() {
  if (mailbox_) post(make_error(ErrorKind::Io, MessageId::TileReplyUnanswered,
                                fmt::format("the fetch of {} ended without an answer", to_string(ticket_.key))));
}

void TileReply::deliver(std::vector<uint8_t> texels) {
  if (mailbox_) post(std::move(texels));
}

void TileReply::fail(Error error) {
  if (mailbox_) post(std::move(error));
}

void TileReply::post(Result<std::vector<uint8_t>> texels) {
  mailbox_->post(detail::Arrival{ticket_, std::move(texels)});
  mailbox_.reset();  // one answer per ticket
}

// ---- the cache ---------------------------------------------------------------------------------

namespace {

Result<void> check_key(const TileKey& key, const char* call) {
  if (key.in_pyramid()) return {};
  return make_error(ErrorKind::InvalidArgument, MessageId::TileKeyOutsidePyramid,
                    fmt::format("{}: {} is outside the pyramid (x and y must be below 2^z, z <= {})", call,
                                to_string(key), kMaxZoom));
}

// Marks the cache as inside a callback for one scope; the mark is the re-entrancy rule.
class InsideCallback {
 public:
  InsideCallback(const char*& inside, const char* what) : inside_(inside) { inside_ = what; }
  ~InsideCallback() { inside_ = nullptr; }
  InsideCallback(const InsideCallback&) = delete;
  InsideCallback& operator=(const InsideCallback&) = delete;

 private:
  const char*& inside_;
};

}  // namespace

TileCache::TileCache(LayerPool& pool, uint64_t budget_tiles, uint64_t layer_bytes, uint32_t max_fetches)
    : pool_(&pool), budget_tiles_(budget_tiles), layer_bytes_(layer_bytes), max_fetches_(max_fetches) {}

Result<TileCache> TileCache::create(LayerPool& pool, uint64_t budget_bytes, uint64_t layer_bytes,
                                    uint32_t max_fetches_in_flight) {
  if (layer_bytes == 0) return make_error(ErrorKind::InvalidArgument, MessageId::TileCacheLayerBytesZero,
                                          "TileCache: layer_bytes is 0");
  if (budget_bytes < layer_bytes) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileCacheBudgetBelowLayer,
                      fmt::format("TileCache: budget of {} bytes holds no layer of {} bytes", budget_bytes, layer_bytes));
  }
  // Resident bytes are at most min(budget tiles, pool layers) x layer_bytes. Counting the
  // budget in tiles keeps the first factor in range; the pool's product is checked here.
  if (pool.layer_count() > std::numeric_limits<uint64_t>::max() / layer_bytes) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileCacheByteCountOverflow,
                      fmt::format("TileCache: {} layers of {} bytes overflow a 64-bit byte count", pool.layer_count(),
                                  layer_bytes));
  }
  if (max_fetches_in_flight == 0) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileCacheNoFetches,
                      "TileCache: max_fetches_in_flight is 0 (no fetch could start)");
  }
  return TileCache(pool, budget_bytes / layer_bytes, layer_bytes, max_fetches_in_flight);
}

Result<void> TileCache::refuse_inside_callback(const char* call) const {
  if (inside_ == nullptr) return {};
  return make_error(ErrorKind::Refused, MessageId::TileCacheCalledInsideCallback,
                    fmt::format("TileCache::{} called from inside {}: code the cache calls (a fill, an upload, "
                                "a fetch, a diagnostics sink) may read the cache but not change it; call it "
                                "before or after",
                                call, inside_));
}

// ---- where a resident tile lives ---------------------------------------------------------------

void TileCache::move_to(UseOrder& from, UseOrder& to, Entry& entry) {
  // The node moves, nothing is allocated: O(1) to the end (a fresh use), O(log n) elsewhere.
  auto node = from.extract(entry.position);
  node.key() = entry.last_use;
  entry.position = to.insert(to.end(), std::move(node));
}

void TileCache::mark_used(Entry& entry) {
  entry.last_use = ++uses_;
  // A pinned tile keeps only the number, for where unpinning puts it back.
  if (entry.place != Place::Pinned) move_to(order_of(entry.place), order_of(entry.place), entry);
}

void TileCache::protect(Entry& entry) {
  if (entry.place != Place::Evictable) return;
  move_to(lru_, frame_list_, entry);
  entry.place = Place::Protected;
}

void TileCache::insert(const TileKey& key, LayerIndex layer) {
  Entry entry{layer, visible_.contains(key) ? Place::Protected : Place::Evictable, ++uses_, {}};
  UseOrder& order = order_of(entry.place);
  entry.position = order.emplace_hint(order.end(), entry.last_use, key);
  entries_.emplace(key, entry);
}

void TileCache::remove(std::unordered_map<TileKey, Entry, TileKeyHash>::iterator it) {
  Entry& entry = it->second;
  if (entry.place == Place::Pinned) --pinned_count_;
  else order_of(entry.place).erase(entry.position);
  // A resident tile's layer is allocated, so release cannot fail.
  (void)pool_->release(entry.layer);
  entries_.erase(it);
  ++evictions_;
}

// ---- the frame --------------------------------------------------------------------------------

Result<void> TileCache::begin_frame(const FrameView& view) {
  if (auto ok = refuse_inside_callback("begin_frame"); !ok) return ok;
  for (const TileKey& key : view.visible) {
    if (auto ok = check_key(key, "begin_frame"); !ok) return ok;
  }
  // Last frame's protected tiles were in use until it ended: after every evictable tile, in
  // the order of their own last uses.
  while (!frame_list_.empty()) {
    Entry& entry = entries_.at(frame_list_.begin()->second);
    entry.place = Place::Evictable;
    entry.last_use = ++uses_;
    move_to(frame_list_, lru_, entry);
  }
  ++frame_;
  centre_x_ = view.centre_x;
  centre_y_ = view.centre_y;
  visible_.clear();
  for (const TileKey& key : view.visible) {
    visible_.insert(key);
    // The visible tile, or the ancestor its position draws from until it arrives.
    if (auto drawn = nearest_resident(key)) protect(entries_.at(drawn->first));
  }
  return {};
}

TileCache::Room TileCache::make_room(Priority priority) {
  const bool budget_full = budgeted_tiles() >= budget_tiles_;
  auto victim = lru_.empty() ? entries_.end() : entries_.find(lru_.begin()->second);
  const bool has_victim = victim != entries_.end();
  if (budget_full && !has_victim) return {std::nullopt, LoadStatus::Held};
  if (pool_->can_acquire(priority)) {
    if (budget_full) remove(victim);
    return {pool_->acquire(priority)};
  }
  // No layer to hand out. Evicting the victim helps only if its layer is free at once: a layer
  // still read by a frame in flight would just cost a drawn tile and load nothing.
  if (has_victim && pool_->can_acquire_after_releasing(victim->second.layer, priority)) {
    remove(victim);
    return {pool_->acquire(priority)};
  }
  // Layers in flight retire, and the victim's reader retires: either way, next frame may do.
  // With neither, every layer belongs to a pinned or protected tile (or the reserve).
  const bool will_free = has_victim || pool_->counts().in_flight > 0;
  return {std::nullopt, will_free ? LoadStatus::Deferred : LoadStatus::Held};
}

Result<LoadStatus> TileCache::place_tile(const TileKey& key, const Fill& fill, Priority priority) {
  Room room = make_room(priority);
  if (!room.layer) return room.otherwise;

  // The finally: whatever way the fill ends short of success, the layer goes back to the pool
  // (docs/design.md, tiles rule T5: "layers leak until nothing is free").
  struct ReleaseUnlessKept {
    LayerPool* pool;
    LayerIndex layer;
    bool keep = false;
    ~ReleaseUnlessKept() {
      if (!keep) (void)pool->release(layer);
    }
  } guard{pool_, *room.layer};
  {
    InsideCallback inside(inside_, "a fill");
    Result<void> filled = fill(key, *room.layer);
    if (!filled) return filled.error();
  }
  // The fill could not change the cache (refused above), so the room made is still there.
  if (budgeted_tiles() >= budget_tiles_ || entries_.contains(key)) {
    return make_error(ErrorKind::Internal, MessageId::TileCacheChangedDuringFill,
                      fmt::format("load: the cache changed during the fill of {}", to_string(key)));
  }
  guard.keep = true;
  insert(key, *room.layer);
  return LoadStatus::Loaded;
}

Result<LoadStatus> TileCache::load(const TileKey& key, const Fill& fill, Priority priority) {
  if (auto ok = refuse_inside_callback("load"); !ok) return ok.error();
  if (auto ok = check_key(key, "load"); !ok) return ok.error();
  if (auto it = entries_.find(key); it != entries_.end()) {
    mark_used(it->second);
    return LoadStatus::AlreadyResident;
  }
  return place_tile(key, fill, priority);
}

std::optional<std::pair<TileKey, uint32_t>> TileCache::nearest_resident(const TileKey& key) const {
  if (!key.in_pyramid()) return std::nullopt;
  TileKey at = key;
  for (uint32_t up = 0;; ++up) {
    if (entries_.contains(at)) return std::pair{at, up};
    auto parent = at.parent();
    if (!parent) return std::nullopt;
    at = *parent;
  }
}

std::optional<TileSource> TileCache::peek(const TileKey& key) const {
  auto drawn = nearest_resident(key);
  if (!drawn) return std::nullopt;
  TileSource source;
  source.drawn = drawn->first;
  source.layer = entries_.at(drawn->first).layer;
  source.levels_up = drawn->second;
  const uint32_t span = 1u << drawn->second;  // tiles of `key`'s zoom across one ancestor
  source.scale = 1.0f / static_cast<float>(span);
  source.u0 = static_cast<float>(key.x % span) * source.scale;
  source.v0 = static_cast<float>(key.y % span) * source.scale;
  return source;
}

std::optional<TileSource> TileCache::draw_source(const TileKey& key) {
  std::optional<TileSource> source = peek(key);
  if (!source) return std::nullopt;
  Entry& entry = entries_.at(source->drawn);
  mark_used(entry);
  // The entry is resident, so its layer is allocated: touch cannot fail.
  (void)pool_->touch(entry.layer);
  return source;
}

// ---- explicit control --------------------------------------------------------------------------

std::optional<LayerIndex> TileCache::layer_of(const TileKey& key) const {
  auto it = entries_.find(key);
  if (it == entries_.end()) return std::nullopt;
  return it->second.layer;
}

Result<void> TileCache::pin(const TileKey& key, bool pinned) {
  if (auto ok = refuse_inside_callback("pin"); !ok) return ok;
  if (auto ok = check_key(key, "pin"); !ok) return ok;
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    return make_error(ErrorKind::NotFound, MessageId::TilePinNotResident,
                      fmt::format("pin: {} is not resident", to_string(key)));
  }
  Entry& entry = it->second;
  if (pinned && entry.place != Place::Pinned) {
    order_of(entry.place).erase(entry.position);
    entry.place = Place::Pinned;
    ++pinned_count_;
  } else if (!pinned && entry.place == Place::Pinned) {
    --pinned_count_;
    // Back where its last use puts it (O(log n)): a pin is no use, so it moves nothing ahead.
    entry.place = Place::Evictable;
    entry.position = lru_.emplace_hint(lru_.end(), entry.last_use, key);
    if (visible_.contains(key)) protect(entry);
  }
  return {};
}

Result<void> TileCache::evict(const TileKey& key) {
  if (auto ok = refuse_inside_callback("evict"); !ok) return ok;
  if (auto ok = check_key(key, "evict"); !ok) return ok;
  auto it = entries_.find(key);
  if (it != entries_.end() && it->second.place == Place::Pinned) {
    return make_error(ErrorKind::Refused, MessageId::TileEvictPinned,
                      fmt::format("evict: {} is pinned; unpin it first", to_string(key)));
  }
  auto request = requests_.find(key);
  auto fill = fills_.find(key);
  if (it == entries_.end() && request == requests_.end() && fill == fills_.end()) {
    return make_error(ErrorKind::NotFound, MessageId::TileEvictUnknown,
                      fmt::format("evict: {} is neither resident, requested nor being filled", to_string(key)));
  }
  if (request != requests_.end()) drop_request(request);
  if (fill != fills_.end()) {
    cancelled_fills_.emplace(fill->second.id, fill->second.layer);
    fills_.erase(fill);
  }
  if (it != entries_.end()) remove(it);
  return {};
}

Result<void> TileCache::clear() {
  if (auto ok = refuse_inside_callback("clear"); !ok) return ok;
  while (!entries_.empty()) remove(entries_.begin());
  while (!requests_.empty()) drop_request(requests_.begin());
  for (const auto& [key, fill] : fills_) cancelled_fills_.emplace(fill.id, fill.layer);
  fills_.clear();
  ++epoch_;
  return {};
}

// ---- asynchronous tiles ------------------------------------------------------------------------

double TileCache::distance_to_centre(const TileKey& key) const {
  const double tiles = static_cast<double>(uint64_t{1} << key.z);
  const double dx = (key.x + 0.5) / tiles - centre_x_;
  const double dy = (key.y + 0.5) / tiles - centre_y_;
  return dx * dx + dy * dy;
}

std::vector<TileKey> TileCache::nearest_first(std::vector<TileKey> keys) const {
  std::sort(keys.begin(), keys.end(), [this](const TileKey& a, const TileKey& b) {
    const double da = distance_to_centre(a), db = distance_to_centre(b);
    if (da != db) return da < db;
    // A coarser tile covers more of the view: it comes first on a tie; then a fixed order, so
    // a run does not depend on the hash map's.
    return std::tie(a.z, a.y, a.x) < std::tie(b.z, b.y, b.x);
  });
  return keys;
}

void TileCache::drop_request(Requests::iterator it) {
  const Request& request = it->second;
  if (request.state == Request::State::Fetching) orphaned_fetches_.insert(request.id);
  if (request.state == Request::State::Arrived) {
    --fetches_in_flight_;
    ++stale_completions_;  // fetched, then not used
  }
  requests_.erase(it);
}

Result<RequestStatus> TileCache::request(const TileKey& key) {
  if (auto ok = refuse_inside_callback("request"); !ok) return ok.error();
  if (auto ok = check_key(key, "request"); !ok) return ok.error();
  if (entries_.contains(key)) return RequestStatus::AlreadyResident;
  if (fills_.contains(key)) return RequestStatus::Pending;  // its texels are on their way into a layer
  auto [it, fresh] = requests_.try_emplace(key);
  it->second.wanted_in_frame = frame_;
  if (!fresh) return RequestStatus::Pending;
  it->second.id = next_request_id_++;
  return RequestStatus::Queued;
}

Result<uint32_t> TileCache::dispatch(TileFetcher& fetcher) {
  if (auto ok = refuse_inside_callback("dispatch"); !ok) return ok.error();
  std::vector<TileKey> queued;
  for (auto it = requests_.begin(); it != requests_.end();) {
    const Request& request = it->second;
    const bool not_started = request.state == Request::State::Queued;
    if (not_started && (!wanted_now(request) || entries_.contains(it->first))) {
      it = requests_.erase(it);  // never started: nothing to count
      continue;
    }
    if (not_started) queued.push_back(it->first);
    ++it;
  }
  uint32_t started = 0;
  for (const TileKey& key : nearest_first(std::move(queued))) {
    if (fetches_in_flight_ >= max_fetches_) break;
    Request& request = requests_.at(key);
    request.state = Request::State::Fetching;
    ++fetches_in_flight_;
    ++started;
    InsideCallback inside(inside_, "a fetch");
    fetcher.fetch(TileReply(mailbox_, FetchTicket{key, request.id}));
  }
  return started;
}

Result<bool> TileCache::accept(const FetchTicket& ticket, Result<std::vector<uint8_t>> texels) {
  if (orphaned_fetches_.erase(ticket.id) > 0) {  // cancelled, evicted or cleared while running
    --fetches_in_flight_;
    ++stale_completions_;
    return false;
  }
  auto it = requests_.find(ticket.key);
  if (it == requests_.end() || it->second.id != ticket.id || it->second.state != Request::State::Fetching) {
    ++stale_completions_;  // a ticket this cache is not waiting for
    return false;
  }
  if (!texels) {
    const Error& error = texels.error();
    return fail_request(it, make_error(error.kind, error.id,
                                       fmt::format("fetch of {} failed: {}", to_string(ticket.key), error.message)));
  }
  it->second.state = Request::State::Arrived;
  it->second.texels = std::move(*texels);
  return true;
}

Result<ReplyOutcome> TileCache::place_arrived(Requests::iterator it, const Upload& upload, Priority priority) {
  const TileKey key = it->first;
  if (!wanted_now(it->second) || entries_.contains(key)) {
    drop_request(it);  // the camera left, or the tile was loaded another way
    return ReplyOutcome::Stale;
  }
  const std::vector<uint8_t>& texels = it->second.texels;
  Result<LoadStatus> placed = place_tile(
      key, [&](const TileKey& k, LayerIndex layer) { return upload(k, layer, texels); }, priority);
  if (!placed) return fail_request(it, placed.error());
  if (*placed != LoadStatus::Loaded) return ReplyOutcome::Waiting;
  --fetches_in_flight_;
  requests_.erase(it);
  return ReplyOutcome::Loaded;
}

Error TileCache::fail_request(Requests::iterator it, Error error) {
  --fetches_in_flight_;
  ++failed_fetches_;
  requests_.erase(it);
  if (diagnostics_ != nullptr) {
    // The sink is the application's code, called in the middle of deliver(): like a fill, it
    // may read the cache but not change it (the loop it interrupts holds iterators into it).
    InsideCallback inside(inside_, "a diagnostics sink");
    diagnostics_->warning(error.id, error.message);
  }
  return error;
}

Result<ReplyOutcome> TileCache::complete(const FetchTicket& ticket, Result<std::vector<uint8_t>> texels,
                                       const Upload& upload, Priority priority) {
  if (auto ok = refuse_inside_callback("complete"); !ok) return ok.error();
  Result<bool> accepted = accept(ticket, std::move(texels));
  if (!accepted) return accepted.error();
  if (!*accepted) return ReplyOutcome::Stale;
  return place_arrived(requests_.find(ticket.key), upload, priority);
}

std::vector<TileKey> TileCache::take_arrivals(DeliverReport& report) {
  for (detail::Arrival& arrival : mailbox_->take_all()) {
    Result<bool> accepted = accept(arrival.ticket, std::move(arrival.texels));
    if (!accepted) report.failed.emplace_back(arrival.ticket.key, accepted.error());
    if (accepted && !*accepted) ++report.stale;
  }
  std::vector<TileKey> arrived;
  for (const auto& [key, request] : requests_) {
    if (request.state == Request::State::Arrived) arrived.push_back(key);
  }
  return nearest_first(std::move(arrived));
}

Result<DeliverReport> TileCache::deliver(const Upload& upload, Priority priority) {
  if (auto ok = refuse_inside_callback("deliver"); !ok) return ok.error();
  DeliverReport report;
  for (const TileKey& key : take_arrivals(report)) {
    Result<ReplyOutcome> done = place_arrived(requests_.find(key), upload, priority);
    if (!done) {
      report.failed.emplace_back(key, done.error());
      continue;
    }
    if (*done == ReplyOutcome::Loaded) ++report.loaded;
    if (*done == ReplyOutcome::Waiting) ++report.waiting;
    if (*done == ReplyOutcome::Stale) ++report.stale;
  }
  return report;
}

// ---- fills that finish later -------------------------------------------------------------------

Result<DeliverReport> TileCache::hand_off(const HandOff& hand_off, Priority priority) {
  if (auto ok = refuse_inside_callback("hand_off"); !ok) return ok.error();
  DeliverReport report;
  for (const TileKey& key : take_arrivals(report)) {
    auto it = requests_.find(key);
    if (!wanted_now(it->second) || entries_.contains(key)) {
      drop_request(it);  // the camera left, or the tile was loaded another way
      ++report.stale;
      continue;
    }
    Room room = make_room(priority);
    if (!room.layer) {
      ++report.waiting;
      continue;
    }
    const FillTicket ticket{key, *room.layer, it->second.id};
    Result<void> started;
    {
      InsideCallback inside(inside_, "a hand-off");
      started = hand_off(ticket, std::move(it->second.texels));
    }
    if (!started) {
      (void)pool_->release(ticket.layer);
      report.failed.emplace_back(key, fail_request(it, started.error()));
      continue;
    }
    // The fetch is over: its slot goes to the next fetch while the fill runs.
    --fetches_in_flight_;
    requests_.erase(it);
    fills_.emplace(key, ticket);
    ++report.handed_off;
  }
  return report;
}

Result<ReplyOutcome> TileCache::finish_fill(const FillTicket& ticket, Result<void> written, const Fill& publish) {
  if (auto ok = refuse_inside_callback("finish_fill"); !ok) return ok.error();
  if (auto cancelled = cancelled_fills_.find(ticket.id); cancelled != cancelled_fills_.end()) {
    // Its writer is done with the layer: only now may it go back (to be handed out again).
    (void)pool_->release(cancelled->second);
    cancelled_fills_.erase(cancelled);
    ++stale_completions_;
    return ReplyOutcome::Stale;
  }
  auto fill = fills_.find(ticket.key);
  if (fill == fills_.end() || fill->second.id != ticket.id || fill->second.layer != ticket.layer) {
    return make_error(ErrorKind::NotFound, MessageId::TileFillUnknown,
                      fmt::format("finish_fill: no fill {} of {} into layer {} is running", ticket.id,
                                  to_string(ticket.key), ticket.layer));
  }
  fills_.erase(fill);
  auto failed = [&](const Error& error) {
    (void)pool_->release(ticket.layer);
    ++failed_fetches_;
    Error named = make_error(error.kind, error.id,
                             fmt::format("fill of {} failed: {}", to_string(ticket.key), error.message));
    if (diagnostics_ != nullptr) {
      InsideCallback inside(inside_, "a diagnostics sink");
      diagnostics_->warning(named.id, named.message);
    }
    return named;
  };
  if (!written) return failed(written.error());
  if (entries_.contains(ticket.key)) {  // loaded another way meanwhile (a load from memory)
    (void)pool_->release(ticket.layer);
    ++stale_completions_;
    return ReplyOutcome::Stale;
  }
  {
    InsideCallback inside(inside_, "a fill");
    if (Result<void> published = publish(ticket.key, ticket.layer); !published) return failed(published.error());
  }
  insert(ticket.key, ticket.layer);
  return ReplyOutcome::Loaded;
}

}  // namespace warden::tiles
