#include "harness/reference_layer_pool.h"

#include <cstddef>

namespace warden::tiles {

ReferenceLayerPool::ReferenceLayerPool(uint32_t layer_count, const SubmissionClock& clock)
    : clock_(clock) {
  for (uint32_t i = layer_count; i-- > 0;) free_.push_back(i);
}

void ReferenceLayerPool::touch(LayerIndex layer) { last_used_[layer] = clock_.recording(); }

void ReferenceLayerPool::release(LayerIndex layer) { free_.push_back(layer); }

std::optional<LayerIndex> ReferenceLayerPool::acquire() {
  for (size_t i = free_.size(); i-- > 0;) {
    LayerIndex layer = free_[i];
    auto it = last_used_.find(layer);
    Serial last = it == last_used_.end() ? Serial{} : it->second;
    if (clock_.is_retired(last)) {
      free_.erase(free_.begin() + static_cast<std::ptrdiff_t>(i));
      return layer;
    }
  }
  return std::nullopt;
}

}  // namespace warden::tiles
