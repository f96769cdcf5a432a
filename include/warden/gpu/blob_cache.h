/// @file
/// BlobCache: what Dawn compiles for a device (translated shaders, the backend's pipeline cache
/// data), kept in memory under Dawn's keys so that the next device of the same adapter loads it
/// instead of compiling again. A device loss makes every pipeline again; with the cache, the
/// rebuild finds its shaders already translated (docs/PERFORMANCE.md, "Recovery").
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

#include "warden/gpu/abi.h"

namespace warden::gpu {

/// How a BlobCache has been used.
struct BlobCacheStats {
  uint64_t hits = 0;     ///< loads that found a value
  uint64_t misses = 0;   ///< loads that found none
  uint64_t stores = 0;   ///< values kept
  uint64_t dropped = 0;  ///< values not kept: the budget was full
  size_t bytes = 0;      ///< keys and values kept
};

/// An in-memory cache Dawn reads and writes through WGPUDawnCacheDeviceDescriptor. Thread-safe:
/// Dawn calls it from the thread that creates a pipeline and from its worker threads. Bounded
/// by bytes: once full, new values are dropped (what is kept stays valid: Dawn's keys name
/// everything that decides a value).
class BlobCache {
 public:
  /// The default budget: ample for a few hundred pipelines' translated shaders.
  static constexpr size_t kDefaultBudgetBytes = size_t{64} << 20;

  /// An empty cache that keeps at most `budget_bytes` of keys and values.
  explicit BlobCache(size_t budget_bytes = kDefaultBudgetBytes) : budget_bytes_(budget_bytes) {}
  BlobCache(const BlobCache&) = delete;
  BlobCache& operator=(const BlobCache&) = delete;

  /// The size of the value under `key`; copied into `value` when `value_size` is at least that
  /// (Dawn asks with a null `value` for the size first). 0: none.
  size_t load(const void* key, size_t key_size, void* value, size_t value_size);
  /// Keeps `value` under `key` (replacing an older one) unless the budget is full.
  void store(const void* key, size_t key_size, const void* value, size_t value_size);

  /// How the cache has been used so far.
  BlobCacheStats stats() const;

  /// The descriptor to chain on a WGPUDeviceDescriptor; `this` must outlive the device.
  WGPUDawnCacheDeviceDescriptor descriptor();

 private:
  const size_t budget_bytes_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::string> values_;
  BlobCacheStats stats_{};
};

}  // namespace warden::gpu
