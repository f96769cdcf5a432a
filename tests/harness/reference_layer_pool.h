// The reference layer-pool algorithm (docs/design.md, tiles rule T5), kept for comparison with
// tiles::LayerPool: a free list scanned from the back and spliced on every acquire, a map of
// last uses. No reserve, no checks. The benchmark (layerpool_reference_ns) and the model test
// use it; it is not part of the installed library.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "warden/core/submission_clock.h"
#include "warden/tiles/layer_pool.h"

namespace warden::tiles {

class ReferenceLayerPool {
 public:
  ReferenceLayerPool(uint32_t layer_count, const SubmissionClock& clock);
  void touch(LayerIndex layer);
  void release(LayerIndex layer);
  std::optional<LayerIndex> acquire();

 private:
  const SubmissionClock& clock_;
  std::vector<LayerIndex> free_;
  std::unordered_map<LayerIndex, Serial> last_used_;
};

}  // namespace warden::tiles
