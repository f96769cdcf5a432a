#include "warden/gpu/blob_cache.h"

#include <cstring>

namespace warden::gpu {

size_t BlobCache::load(const void* key, size_t key_size, void* value, size_t value_size) {
  std::lock_guard lock(mutex_);
  const auto found = values_.find(std::string(static_cast<const char*>(key), key_size));
  if (found == values_.end()) {
    ++stats_.misses;
    return 0;
  }
  const std::string& kept = found->second;
  // Dawn asks for the size first (a null `value`), then for the bytes: one hit per value read.
  if (value != nullptr && value_size >= kept.size()) {
    std::memcpy(value, kept.data(), kept.size());
    ++stats_.hits;
  }
  return kept.size();
}

void BlobCache::store(const void* key, size_t key_size, const void* value, size_t value_size) {
  std::lock_guard lock(mutex_);
  std::string k(static_cast<const char*>(key), key_size);
  const auto old = values_.find(k);
  const size_t freed = old == values_.end() ? 0 : old->first.size() + old->second.size();
  if (stats_.bytes - freed + key_size + value_size > budget_bytes_) {
    ++stats_.dropped;
    return;
  }
  stats_.bytes = stats_.bytes - freed + key_size + value_size;
  values_[std::move(k)] = std::string(static_cast<const char*>(value), value_size);
  ++stats_.stores;
}

BlobCacheStats BlobCache::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

WGPUDawnCacheDeviceDescriptor BlobCache::descriptor() {
  WGPUDawnCacheDeviceDescriptor d{};
  d.chain.sType = WGPUSType_DawnCacheDeviceDescriptor;
  d.loadDataFunction = [](const void* key, size_t key_size, void* value, size_t value_size, void* self) {
    return static_cast<BlobCache*>(self)->load(key, key_size, value, value_size);
  };
  d.storeDataFunction = [](const void* key, size_t key_size, const void* value, size_t value_size, void* self) {
    static_cast<BlobCache*>(self)->store(key, key_size, value, value_size);
  };
  d.functionUserdata = this;
  return d;
}

}  // namespace warden::gpu
