// tiles::TileCache against a reference model: random loads (filled or failing, normal or
// urgent), draws, peeks, pins and unpins, evictions, frames, submissions, retirements and
// clears, on a pool and a clock driven by hand (no GPU). The model is the rule as tile_cache.h
// and docs/adr/0008 state it: a budget counted in tiles; the victim is the least recently used
// tile that is neither pinned nor protected; a pin is not a use. After every operation the
// cache's resident set, counts, statuses and errors must be the model's.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "fuzz/fuzz_support.h"
#include "warden/tiles/tile_cache.h"

namespace warden::fuzz {
namespace {

using tiles::LayerPool;
using tiles::LoadStatus;
using tiles::Priority;
using tiles::TileCache;
using tiles::TileKey;

constexpr uint64_t kLayerBytes = 1000;
constexpr uint32_t kModelZoom = 3;  // keys z0..z3: few enough that operations meet the same tiles

struct KeyLess {
  bool operator()(const TileKey& a, const TileKey& b) const {
    return std::tie(a.z, a.x, a.y) < std::tie(b.z, b.x, b.y);
  }
};

struct ModelTile {
  uint64_t last_use = 0;
  Serial layer_read;  // the last submission that reads the tile's layer
  bool pinned = false;
  bool protected_now = false;
};

// The cache as its header describes it, with the simplest data structures that say it.
class CacheModel {
 public:
  CacheModel(uint32_t layers, uint32_t reserve, uint64_t budget_tiles, const SubmissionClock& clock)
      : reserve_(std::min(reserve, layers)), budget_tiles_(budget_tiles), clock_(clock), released_(layers) {}

  std::map<TileKey, ModelTile, KeyLess> tiles;
  uint64_t evictions = 0;

  // What load must return; nullopt for the fill's own error.
  std::optional<LoadStatus> load(const TileKey& key, bool fill_fails, Priority priority) {
    if (auto it = tiles.find(key); it != tiles.end()) {
      it->second.last_use = ++uses_;
      return LoadStatus::AlreadyResident;
    }
    const bool budget_full = tiles.size() >= budget_tiles_;
    auto victim = least_recently_used();
    const uint32_t keep_free = priority == Priority::Urgent ? 0 : reserve_;
    std::optional<Serial> layer;
    if (budget_full && victim == tiles.end()) return LoadStatus::Held;
    if (free_layers() > keep_free) {
      if (budget_full) remove(victim);
      layer = take_free_layer();
    } else if (victim != tiles.end() && clock_.is_retired(victim->second.layer_read) && free_layers() + 1 > keep_free) {
      remove(victim);
      layer = take_free_layer();
    } else {
      const bool will_free = victim != tiles.end() || released_.size() > free_layers();
      return will_free ? LoadStatus::Deferred : LoadStatus::Held;
    }
    if (fill_fails) {
      released_.push_back(*layer);
      return std::nullopt;
    }
    tiles[key] = ModelTile{++uses_, *layer, false, visible_.contains(key)};
    return LoadStatus::Loaded;
  }

  // The tile or its nearest resident ancestor, and how many levels up.
  std::optional<std::pair<TileKey, uint32_t>> nearest(const TileKey& key) const {
    if (!key.in_pyramid()) return std::nullopt;
    std::optional<TileKey> at = key;
    for (uint32_t up = 0; at; ++up, at = at->parent()) {
      if (tiles.contains(*at)) return std::pair{*at, up};
    }
    return std::nullopt;
  }

  void draw(const TileKey& drawn) {
    ModelTile& tile = tiles.at(drawn);
    tile.last_use = ++uses_;
    tile.layer_read = clock_.recording();
  }

  void pin(const TileKey& key, bool pinned) {
    ModelTile& tile = tiles.at(key);
    if (pinned) tile.protected_now = false;
    if (!pinned && tile.pinned) tile.protected_now = visible_.contains(key);
    tile.pinned = pinned;
  }

  void evict(const TileKey& key) { remove(tiles.find(key)); }

  void clear() {
    while (!tiles.empty()) remove(tiles.begin());
  }

  void begin_frame(const std::vector<TileKey>& visible) {
    // The frame that ends used its protected tiles until its end, in their own order.
    std::map<uint64_t, ModelTile*> ending;
    for (auto& [key, tile] : tiles) {
      if (tile.protected_now) ending[tile.last_use] = &tile;
    }
    for (auto& [use, tile] : ending) {
      tile->last_use = ++uses_;
      tile->protected_now = false;
    }
    visible_ = std::set<TileKey, KeyLess>(visible.begin(), visible.end());
    for (const TileKey& key : visible) {
      if (auto drawn = nearest(key)) {
        ModelTile& tile = tiles.at(drawn->first);
        if (!tile.pinned) tile.protected_now = true;
      }
    }
  }

  size_t pinned_count() const { return count_if([](const ModelTile& t) { return t.pinned; }); }
  size_t protected_count() const { return count_if([](const ModelTile& t) { return t.protected_now; }); }
  uint32_t free_layers() const {
    uint32_t free = 0;
    for (Serial read : released_) free += clock_.is_retired(read);
    return free;
  }
  uint32_t in_flight_layers() const { return static_cast<uint32_t>(released_.size()) - free_layers(); }

 private:
  using Tiles = std::map<TileKey, ModelTile, KeyLess>;
  Tiles::iterator least_recently_used() {
    auto best = tiles.end();
    for (auto it = tiles.begin(); it != tiles.end(); ++it) {
      const ModelTile& t = it->second;
      if (t.pinned || t.protected_now) continue;
      if (best == tiles.end() || t.last_use < best->second.last_use) best = it;
    }
    return best;
  }
  Serial take_free_layer() {
    for (auto it = released_.begin(); it != released_.end(); ++it) {
      if (!clock_.is_retired(*it)) continue;
      Serial read = *it;
      released_.erase(it);
      return read;
    }
    fail("model: no free layer to take");
  }
  void remove(Tiles::iterator it) {
    released_.push_back(it->second.layer_read);
    tiles.erase(it);
    ++evictions;
  }
  template <typename Pred>
  size_t count_if(Pred pred) const {
    size_t n = 0;
    for (const auto& [key, tile] : tiles) n += pred(tile);
    return n;
  }

  uint32_t reserve_;
  uint64_t budget_tiles_;
  const SubmissionClock& clock_;
  std::vector<Serial> released_;  // the last reader of each layer no tile holds
  std::set<TileKey, KeyLess> visible_;
  uint64_t uses_ = 0;
};

std::string name(const TileKey& key) { return tiles::to_string(key); }

TileKey read_key(Bytes& in) {
  const uint8_t b = in.byte();
  if (b == 255) return TileKey{kModelZoom, 1u << kModelZoom, 0};  // outside the pyramid
  if (b == 254) return TileKey{31, 0, 0};
  // Index into z0..z3 (1 + 4 + 16 + 64 = 85 keys).
  uint32_t index = b % 85;
  for (uint32_t z = 0;; ++z) {
    const uint32_t side = 1u << z;
    if (index < side * side) return TileKey{z, index % side, index / side};
    index -= side * side;
  }
}

class Run {
 public:
  explicit Run(Bytes& in)
      : in_(in),
        layers_(1 + in.below(8)),
        reserve_(in.below(3)),
        budget_tiles_(1 + in.below(8)),
        pool_(layers_, clock_, reserve_),
        cache_(make_cache()),
        model_(layers_, reserve_, budget_tiles_, clock_) {}

  void go() {
    for (int step = 0; step < 4096 && !in_.empty(); ++step) {
      what_ = "";
      operation();
      compare();
    }
  }

 private:
  TileCache make_cache() {
    // A budget that is not a whole number of layers rounds down to whole tiles.
    auto made = TileCache::create(pool_, budget_tiles_ * kLayerBytes + in_.below(kLayerBytes), kLayerBytes);
    if (!made) fail("TileCache::create refused a valid size: " + made.error().message);
    return std::move(*made);
  }

  void operation() {
    switch (in_.below(11)) {
      case 0: case 1: case 2: load(); break;
      case 3: draw(); break;
      case 4: peek(); break;
      case 5: pin(); break;
      case 6: evict(); break;
      case 7: begin_frame(); break;
      case 8: clock_.on_submitted(); what_ = "submit"; break;
      case 9: retire(); break;
      case 10:
        if (in_.below(4) == 0) clear();
        else load();
        break;
    }
  }

  void load() {
    const TileKey key = read_key(in_);
    const uint8_t how = in_.byte();
    const bool fill_fails = (how & 7) == 0;
    const Priority priority = (how & 8) ? Priority::Urgent : Priority::Normal;
    what_ = fmt::format("load {}{}{}", name(key), fill_fails ? " (failing fill)" : "",
                        priority == Priority::Urgent ? " urgent" : "");
    const TileCache::Fill fill = [&](const TileKey&, tiles::LayerIndex) -> Result<void> {
      if (fill_fails) return make_error(ErrorKind::Io, "the fill failed");
      return {};
    };
    Result<LoadStatus> got = cache_.load(key, fill, priority);
    if (!key.in_pyramid()) return expect_error(got, MessageId::TileKeyOutsidePyramid);
    std::optional<LoadStatus> want = model_.load(key, fill_fails, priority);
    if (!want) {
      require(!got && got.error().message == "the fill failed", what_ + ": the fill's error did not come back as made");
      return;
    }
    if (!got) fail(what_ + ": " + got.error().message);
    require(*got == *want, fmt::format("{}: {}, the model says {}", what_, tiles::to_string(*got), tiles::to_string(*want)));
  }

  void draw() {
    const TileKey key = read_key(in_);
    what_ = "draw_source " + name(key);
    auto want = model_.nearest(key);
    auto got = cache_.draw_source(key);
    same_source(got, want);
    if (want) model_.draw(want->first);
  }

  void peek() {
    const TileKey key = read_key(in_);
    what_ = "peek " + name(key);
    same_source(cache_.peek(key), model_.nearest(key));
  }

  void same_source(const std::optional<tiles::TileSource>& got, const std::optional<std::pair<TileKey, uint32_t>>& want) {
    require(got.has_value() == want.has_value(), what_ + ": a source where the model has none, or none where it has one");
    if (!got) return;
    require(got->drawn == want->first && got->levels_up == want->second,
            fmt::format("{}: draws {} {} levels up, the model {} {} up", what_, name(got->drawn), got->levels_up,
                        name(want->first), want->second));
    require(cache_.layer_of(got->drawn) == got->layer, what_ + ": the source's layer is not the tile's");
    require(got->scale * static_cast<float>(1u << got->levels_up) == 1.0f, what_ + ": the scale is not 2^-levels");
  }

  void pin() {
    const TileKey key = read_key(in_);
    const bool pinned = in_.coin();
    what_ = fmt::format("pin {} {}", name(key), pinned);
    Result<void> got = cache_.pin(key, pinned);
    if (!key.in_pyramid()) return expect_error(got, MessageId::TileKeyOutsidePyramid);
    if (!model_.tiles.contains(key)) return expect_error(got, MessageId::TilePinNotResident);
    if (!got) fail(what_ + ": " + got.error().message);
    model_.pin(key, pinned);
  }

  void evict() {
    const TileKey key = read_key(in_);
    what_ = "evict " + name(key);
    Result<void> got = cache_.evict(key);
    if (!key.in_pyramid()) return expect_error(got, MessageId::TileKeyOutsidePyramid);
    auto it = model_.tiles.find(key);
    if (it == model_.tiles.end()) return expect_error(got, MessageId::TileEvictUnknown);
    if (it->second.pinned) return expect_error(got, MessageId::TileEvictPinned);
    if (!got) fail(what_ + ": " + got.error().message);
    model_.evict(key);
  }

  void begin_frame() {
    std::vector<TileKey> visible(in_.below(6));
    bool all_inside = true;
    what_ = "begin_frame";
    for (TileKey& key : visible) {
      key = read_key(in_);
      all_inside = all_inside && key.in_pyramid();
      what_ += " " + name(key);
    }
    Result<void> got = cache_.begin_frame({visible});
    if (!all_inside) return expect_error(got, MessageId::TileKeyOutsidePyramid);
    if (!got) fail(what_ + ": " + got.error().message);
    model_.begin_frame(visible);
  }

  void retire() {
    const uint64_t behind = in_.below(4);
    const uint64_t submitted = clock_.last_submitted().value;
    clock_.retire_through(Serial{submitted > behind ? submitted - behind : 0});
    what_ = fmt::format("retire to {} behind", behind);
  }

  void clear() {
    what_ = "clear";
    if (!cache_.clear()) fail("clear failed");
    model_.clear();
  }

  template <typename T>
  void expect_error(const Result<T>& got, MessageId id) {
    require(!got, what_ + ": succeeded, the model expects " + std::string(to_string(id)));
    require_named(got.error(), what_);
    require(got.error().id == id, fmt::format("{}: error {} ({}), the model expects {}", what_, to_string(got.error().id),
                                              got.error().message, to_string(id)));
  }

  void compare() {
    require(cache_.resident_count() == model_.tiles.size(),
            fmt::format("after {}: {} resident, the model has {}", what_, cache_.resident_count(), model_.tiles.size()));
    for (const auto& [key, tile] : model_.tiles) {
      require(cache_.is_resident(key), fmt::format("after {}: {} was evicted, the model keeps it", what_, name(key)));
    }
    require(cache_.pinned_count() == model_.pinned_count(), "after " + what_ + ": pinned count differs");
    require(cache_.protected_count() == model_.protected_count(), "after " + what_ + ": protected count differs");
    require(cache_.evictions() == model_.evictions, "after " + what_ + ": eviction count differs");
    require(cache_.resident_bytes() <= cache_.budget_bytes(), "after " + what_ + ": over budget");
    const tiles::LayerPoolCounts counts = pool_.counts();
    require(counts.allocated == model_.tiles.size(), "after " + what_ + ": allocated layers differ from resident tiles");
    require(counts.free == model_.free_layers() && counts.in_flight == model_.in_flight_layers(),
            fmt::format("after {}: pool {} free {} in flight, the model {} and {}", what_, counts.free, counts.in_flight,
                        model_.free_layers(), model_.in_flight_layers()));
    if (auto ok = pool_.check_invariants(); !ok) fail("after " + what_ + ": " + ok.error().message);
  }

  Bytes& in_;
  std::string what_;
  uint32_t layers_, reserve_;
  uint64_t budget_tiles_;
  SubmissionClock clock_;
  LayerPool pool_;
  TileCache cache_;
  CacheModel model_;
};

}  // namespace
}  // namespace warden::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  warden::fuzz::Bytes in(data, size);
  warden::fuzz::Run run(in);
  run.go();
  return 0;
}
