// Kept texture contents through staging buffers (staged_upload.h).
#include "resources/staged_upload.h"

#include <cstring>

#include "resources/registry_impl.h"
#include "warden/gpu/abi.h"
#include "warden/gpu/ref.h"

namespace warden::resources::detail {

namespace {

constexpr uint64_t kRowAlignment = 256;  // a buffer-to-texture copy's bytesPerRow

uint64_t row_pitch(const KeptSubresource& kept) {
  return (uint64_t{kept.row_bytes} + kRowAlignment - 1) / kRowAlignment * kRowAlignment;
}

// Where `kept` goes in `texture`, and its extent.
WGPUTexelCopyTextureInfo destination(WGPUTexture texture, const KeptSubresource& kept) {
  WGPUTexelCopyTextureInfo dst{};
  dst.texture = texture;
  dst.mipLevel = kept.mip_level;
  dst.origin = {0, 0, kept.layer};
  dst.aspect = kept.aspect;
  return dst;
}
WGPUExtent3D extent(const KeptSubresource& kept) { return {kept.width, kept.rows, 1}; }

}  // namespace

void StagedTextureUpload::write_texture(const gpu::Procs& procs, WGPUQueue queue, WGPUTexture texture,
                                        const KeptSubresource& kept) {
  const WGPUTexelCopyTextureInfo dst = destination(texture, kept);
  WGPUTexelCopyBufferLayout layout{};
  layout.bytesPerRow = kept.row_bytes;
  layout.rowsPerImage = kept.rows;
  const WGPUExtent3D size = extent(kept);
  procs.QueueWriteTexture(queue, &dst, kept.texels.data(), kept.texels.size(), &layout, &size);
}

uint64_t StagedTextureUpload::staged_bytes(const KeptSubresource& kept) { return row_pitch(kept) * kept.rows; }

bool StagedTextureUpload::stageable(const KeptSubresource& kept) {
  return kept.aspect == WGPUTextureAspect_All && kept.rows > 0 && kept.row_bytes > 0 &&
         kept.texels.size() == uint64_t{kept.row_bytes} * kept.rows && staged_bytes(kept) <= kChunkBytes;
}

void StagedTextureUpload::stage_into(uint8_t* to, const KeptSubresource& kept) {
  const uint64_t pitch = row_pitch(kept);
  if (pitch == kept.row_bytes) {
    std::memcpy(to, kept.texels.data(), kept.texels.size());
    return;
  }
  for (uint32_t y = 0; y < kept.rows; ++y) {
    std::memcpy(to + y * pitch, kept.texels.data() + uint64_t{y} * kept.row_bytes, kept.row_bytes);
  }
}

StagedTextureUpload::Mapped StagedTextureUpload::make_mapped(const gpu::Procs& procs, WGPUDevice device,
                                                             uint64_t size, const char* label) {
  WGPUBufferDescriptor desc{};
  desc.label = gpu::string_view(label);
  desc.usage = WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc;
  desc.size = size;
  desc.mappedAtCreation = 1;
  Mapped made{gpu::Ref<WGPUBuffer>(&procs, procs.DeviceCreateBuffer(device, &desc))};
  if (made.buffer) made.bytes = static_cast<uint8_t*>(procs.BufferGetMappedRange(made.buffer.get(), 0, size));
  if (made.bytes == nullptr) made.buffer.reset();
  return made;
}

uint64_t StagedTextureUpload::submit() {
  staged_ahead_bytes_ = 0;
  if (pending_.empty()) return 0;
  for (const Pending& p : pending_) {
    if (p.source != nullptr) staged_ahead_bytes_ += staged_bytes(*p.kept);
  }
  // What is not staged yet goes into chunks of consecutive subresources, each as many as fit in
  // kChunkBytes; released with `chunks`, after the submission (which keeps what it reads alive).
  std::vector<gpu::Ref<WGPUBuffer>> chunks;
  for (size_t i = 0; i < pending_.size();) {
    if (pending_[i].source != nullptr) {
      ++i;
      continue;
    }
    std::vector<size_t> members;
    uint64_t size = 0;
    for (; i < pending_.size() && (pending_[i].source != nullptr || size + staged_bytes(*pending_[i].kept) <= kChunkBytes);
         ++i) {
      if (pending_[i].source != nullptr) continue;
      members.push_back(i);
      size += staged_bytes(*pending_[i].kept);
    }
    auto [chunk, mapped] = make_mapped(procs_, device_, size, "warden kept contents staging");
    if (mapped == nullptr) continue;  // refused (lost meanwhile, out of memory): writeTexture
    uint64_t offset = 0;
    for (size_t k : members) {
      stage_into(mapped + offset, *pending_[k].kept);
      pending_[k].source = chunk.get();
      pending_[k].offset = offset;
      offset += staged_bytes(*pending_[k].kept);
    }
    procs_.BufferUnmap(chunk.get());
    chunks.push_back(std::move(chunk));
  }

  uint64_t copied = 0;
  gpu::Ref<WGPUCommandEncoder> encoder(&procs_, procs_.DeviceCreateCommandEncoder(device_, nullptr));
  for (const Pending& p : pending_) {
    const KeptSubresource& kept = *p.kept;
    if (p.source == nullptr) {
      write_texture(procs_, queue_, p.texture, kept);
      continue;
    }
    const WGPUTexelCopyTextureInfo dst = destination(p.texture, kept);
    const WGPUExtent3D size = extent(kept);
    WGPUTexelCopyBufferInfo src{};
    src.buffer = p.source;
    src.layout.offset = p.offset;
    src.layout.bytesPerRow = static_cast<uint32_t>(row_pitch(kept));
    src.layout.rowsPerImage = kept.rows;
    procs_.CommandEncoderCopyBufferToTexture(encoder.get(), &src, &dst, &size);
    copied += staged_bytes(kept);
  }
  gpu::Ref<WGPUCommandBuffer> commands(&procs_, procs_.CommandEncoderFinish(encoder.get(), nullptr));
  WGPUCommandBuffer submitted = commands.get();
  procs_.QueueSubmit(queue_, 1, &submitted);
  pending_.clear();
  return copied;
}

}  // namespace warden::resources::detail
