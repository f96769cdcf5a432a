// Private to the resources layer: kept texture contents written back through staging buffers
// (ContentsUpload::Staging; docs/adr/0058). A rebuild adds each kept subresource here instead of
// calling writeTexture for it; submit() copies those not staged yet into buffers made mapped, at
// the 256-byte row pitch a copy needs, and records one copyBufferToTexture each into one
// submission. Subresources the standby preparer staged on the spare ahead of the loss are added
// with their place there and only copied. On a backend whose writeTexture stages through a slow
// path of its own (Vulkan here), this is the upload ring's speed rather than writeTexture's.
#pragma once

#include <cstdint>
#include <vector>

#include "warden/gpu/procs.h"
#include "warden/gpu/ref.h"

namespace warden::resources::detail {

struct KeptSubresource;

class StagedTextureUpload {
 public:
  // The largest staging buffer made: under every device's maxBufferSize (256 MiB by default), and
  // small enough that a recovery never asks for one huge mapped allocation.
  static constexpr uint64_t kChunkBytes = uint64_t{64} << 20;

  // Whether `kept` can be staged: a colour subresource (the copy rules of depth and stencil
  // differ) whose texels are `rows` packed rows, within one chunk. Otherwise writeTexture.
  static bool stageable(const KeptSubresource& kept);
  // The bytes `kept` takes in a staging buffer (its rows at the copy's pitch).
  static uint64_t staged_bytes(const KeptSubresource& kept);
  // Copies `kept`'s rows to `to`, at the copy's pitch.
  static void stage_into(uint8_t* to, const KeptSubresource& kept);
  // Writes `kept` into `texture` by queue.writeTexture: the path for what is not staged.
  static void write_texture(const gpu::Procs& procs, WGPUQueue queue, WGPUTexture texture,
                            const KeptSubresource& kept);
  // A staging buffer of `size` bytes made mapped on `device`, and its mapping; a null buffer
  // when the device refused it (lost, out of memory).
  struct Mapped {
    gpu::Ref<WGPUBuffer> buffer;
    uint8_t* bytes = nullptr;
  };
  static Mapped make_mapped(const gpu::Procs& procs, WGPUDevice device, uint64_t size, const char* label);

  StagedTextureUpload(const gpu::Procs& procs, WGPUDevice device, WGPUQueue queue)
      : procs_(procs), device_(device), queue_(queue) {}
  StagedTextureUpload(const StagedTextureUpload&) = delete;
  StagedTextureUpload& operator=(const StagedTextureUpload&) = delete;

  // Queues `kept` for `texture`; `kept` must outlive submit().
  void add(WGPUTexture texture, const KeptSubresource& kept) { pending_.push_back({texture, &kept, nullptr, 0}); }
  // Queues `kept`, already staged at `offset` in `buffer` (unmapped).
  void add_staged(WGPUTexture texture, const KeptSubresource& kept, WGPUBuffer buffer, uint64_t offset) {
    pending_.push_back({texture, &kept, buffer, offset});
  }
  bool empty() const { return pending_.empty(); }
  // Stages what is not staged yet, then submits every queued copy, in the order added, as one
  // submission; empties the queue. Returns the bytes copied from staging buffers.
  uint64_t submit();
  // Of what the last submit() copied, the bytes staged ahead (add_staged).
  uint64_t staged_ahead_bytes() const { return staged_ahead_bytes_; }

 private:
  struct Pending {
    WGPUTexture texture;
    const KeptSubresource* kept;
    WGPUBuffer source;  // null: to be staged, or written by writeTexture where staging failed
    uint64_t offset;
  };
  const gpu::Procs& procs_;
  WGPUDevice device_;
  WGPUQueue queue_;
  std::vector<Pending> pending_;
  uint64_t staged_ahead_bytes_ = 0;
};

}  // namespace warden::resources::detail
