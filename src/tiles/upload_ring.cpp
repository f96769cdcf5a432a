#include "warden/gpu/queue_clock.h"
#include "warden/tiles/upload_ring.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include <fmt/format.h>

#include "warden/core/enum_names.h"
#include "warden/gpu/callback.h"

namespace warden::tiles {

using namespace gpu;

uint32_t aligned_row_pitch(uint32_t width, uint32_t texel_bytes) {
  const uint32_t row = width * texel_bytes;
  return (row + kCopyRowAlignment - 1) / kCopyRowAlignment * kCopyRowAlignment;
}

struct UploadRing::Buffer {
  struct Staged {
    WGPUTexture texture = nullptr;
    LayerIndex layer = 0;
    uint64_t offset = 0;
  };
  Ref<WGPUBuffer> buffer;
  uint64_t size = 0;
  BufferState state = BufferState::Mapped;
  uint8_t* mapped = nullptr;  // while Mapped
  Serial serial;              // while InFlight or Mapping: the submission that reads it
  std::vector<Staged> staged;
};

namespace {

// Owned by the map callback, which Dawn calls exactly once (Aborted when the buffer went first).
struct MapRequest {
  const Procs* procs;
  std::weak_ptr<UploadRing::Buffer> buffer;

  void operator()(WGPUMapAsyncStatus status, WGPUStringView) const {
    std::shared_ptr<UploadRing::Buffer> b = buffer.lock();
    if (!b || status != WGPUMapAsyncStatus_Success) return;  // the ring is gone, or the device
    b->mapped = static_cast<uint8_t*>(procs->BufferGetMappedRange(b->buffer.get(), 0, b->size));
    if (b->mapped != nullptr) b->state = UploadRing::BufferState::Mapped;
  }
};

}  // namespace

Result<std::unique_ptr<UploadRing>> UploadRing::create(const Procs& p, WGPUDevice device, const UploadRingDescription& d) {
  if (d.tile_size == 0 || d.texel_bytes == 0 || d.buffers == 0 || d.tiles_per_buffer == 0) {
    const ErrorObject ring{"upload ring", {}, {}, d.label};
    return make_error(ErrorKind::InvalidArgument, MessageId::UploadRingZeroSize, ring,
                      fmt::format("{} \"{}\": tile size {}, texel bytes {}, {} buffers of {} tiles: none may be 0",
                                  ring.kind, *ring.label, d.tile_size, d.texel_bytes, d.buffers, d.tiles_per_buffer));
  }
  std::unique_ptr<UploadRing> ring(new UploadRing);
  ring->procs_ = &p;
  ring->tile_size_ = d.tile_size;
  ring->texel_bytes_ = d.texel_bytes;
  ring->row_pitch_ = aligned_row_pitch(d.tile_size, d.texel_bytes);
  ring->tiles_per_buffer_ = d.tiles_per_buffer;
  ring->tile_bytes_ = uint64_t{ring->row_pitch_} * d.tile_size;
  for (uint32_t i = 0; i < d.buffers; ++i) {
    WGPUBufferDescriptor desc{};
    const std::string label = fmt::format("{} {}", d.label, i);
    desc.label = gpu::string_view(label);
    desc.usage = WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc;
    desc.size = ring->tile_bytes_ * d.tiles_per_buffer;
    desc.mappedAtCreation = 1;  // starts Mapped: the first frame needs no map
    auto b = std::make_shared<Buffer>();
    b->buffer = Ref<WGPUBuffer>(&p, p.DeviceCreateBuffer(device, &desc));
    b->size = desc.size;
    if (b->buffer) b->mapped = static_cast<uint8_t*>(p.BufferGetMappedRange(b->buffer.get(), 0, desc.size));
    if (b->mapped == nullptr) {
      return make_error(ErrorKind::Validation, MessageId::UploadRingStagingNotMapped,
                        fmt::format("upload ring \"{}\": staging buffer {} of {} bytes was not created mapped", d.label,
                                    i, desc.size));
    }
    ring->buffers_.push_back(std::move(b));
  }
  return ring;
}

UploadRing::~UploadRing() = default;  // a pending map is aborted with its buffer; its callback finds nothing

UploadRing::BufferState UploadRing::state(uint32_t buffer) const { return buffers_.at(buffer)->state; }

uint32_t UploadRing::mapped_count() const {
  return static_cast<uint32_t>(
      std::count_if(buffers_.begin(), buffers_.end(), [](const auto& b) { return b->state == BufferState::Mapped; }));
}

UploadRing::Buffer* UploadRing::current() {
  // Fill a buffer before starting the next, so a frame's tiles share as few buffers as can be.
  Buffer* empty = nullptr;
  for (const auto& b : buffers_) {
    if (b->state != BufferState::Mapped || b->staged.size() >= tiles_per_buffer_) continue;
    if (!b->staged.empty()) return b.get();
    if (empty == nullptr) empty = b.get();
  }
  return empty;
}

Result<bool> UploadRing::stage(WGPUTexture texture, LayerIndex layer, std::span<const uint8_t> texels) {
  const uint64_t row = uint64_t{tile_size_} * texel_bytes_;
  if (texels.size() != row * tile_size_) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileTexelsSizeMismatch,
                      fmt::format("upload ring: tile for layer {} has {} bytes, expected {} ({}x{} texels of {} bytes)",
                                  layer, texels.size(), row * tile_size_, tile_size_, tile_size_, texel_bytes_));
  }
  Buffer* b = current();
  if (b == nullptr) {
    ++turned_away_;
    return false;
  }
  const uint64_t offset = tile_bytes_ * b->staged.size();
  if (row == row_pitch_) {
    std::memcpy(b->mapped + offset, texels.data(), texels.size());
  } else {
    for (uint32_t y = 0; y < tile_size_; ++y) {
      std::memcpy(b->mapped + offset + uint64_t{y} * row_pitch_, texels.data() + y * row, row);
    }
  }
  b->staged.push_back({texture, layer, offset});
  return true;
}

void UploadRing::record(WGPUCommandEncoder encoder, Serial recording) {
  for (const auto& b : buffers_) {
    if (b->state != BufferState::Mapped || b->staged.empty()) continue;
    procs_->BufferUnmap(b->buffer.get());
    b->mapped = nullptr;
    for (const Buffer::Staged& s : b->staged) {
      WGPUTexelCopyBufferInfo src{};
      src.buffer = b->buffer.get();
      src.layout.offset = s.offset;
      src.layout.bytesPerRow = row_pitch_;
      src.layout.rowsPerImage = tile_size_;
      WGPUTexelCopyTextureInfo dst{};
      dst.aspect = WGPUTextureAspect_All;
      dst.texture = s.texture;
      dst.origin = {0, 0, s.layer};
      WGPUExtent3D extent{tile_size_, tile_size_, 1};
      procs_->CommandEncoderCopyBufferToTexture(encoder, &src, &dst, &extent);
    }
    b->staged.clear();
    b->state = BufferState::InFlight;
    b->serial = recording;
  }
}

void UploadRing::recycle(const SubmissionClock& clock) {
  for (const auto& b : buffers_) {
    // The invariant of the ring: mapped again only once the submission reading it retired.
    if (b->state != BufferState::InFlight || !clock.is_retired(b->serial)) continue;
    b->state = BufferState::Mapping;
    (void)procs_->BufferMapAsync(b->buffer.get(), WGPUMapMode_Write, 0, b->size,
                                 once_callback<WGPUBufferMapCallbackInfo>(WGPUCallbackMode_AllowProcessEvents, MapRequest{procs_, b}));
  }
}

constexpr EnumName<UploadPath> kUploadPathNames[] = {{UploadPath::WriteTexture, "write-texture"}, {UploadPath::Ring, "ring"}};
const char* to_string(UploadPath path) { return name_in(kUploadPathNames, path); }

// ---- measurement ----------------------------------------------------------------------------

namespace {

using Clock = std::chrono::steady_clock;

double gbps(uint64_t bytes, Clock::duration d) {
  return static_cast<double>(bytes) / std::chrono::duration<double>(d).count() * 1e-9;
}

}  // namespace

Result<UploadMeasurement> measure_upload_paths(const Context& context, WGPUDevice device, WGPUQueue queue, uint32_t tile_size,
                                               uint32_t tiles, uint32_t rounds) {
  const Procs& p = context.procs();
  if (tile_size == 0 || tiles == 0 || rounds == 0) {
    return make_error(ErrorKind::InvalidArgument, MessageId::UploadMeasurementZero,
                      fmt::format("upload measurement: tile size {}, {} tiles, {} rounds: none may be 0", tile_size,
                                  tiles, rounds));
  }
  WGPUTextureDescriptor tdesc{};
  tdesc.dimension = WGPUTextureDimension_2D;
  tdesc.mipLevelCount = 1;
  tdesc.sampleCount = 1;
  tdesc.label = gpu::string_view("upload measurement");
  tdesc.size = {tile_size, tile_size, tiles};
  tdesc.format = WGPUTextureFormat_RGBA8Unorm;
  tdesc.usage = WGPUTextureUsage_CopyDst | WGPUTextureUsage_TextureBinding;
  Ref<WGPUTexture> texture(&p, p.DeviceCreateTexture(device, &tdesc));
  auto ring = UploadRing::create(p, device, {tile_size, 4, 2, tiles, "upload measurement ring"});
  if (!ring) return ring.error();
  gpu::QueueClock clock(p, context.instance(), queue);
  const uint64_t tile_bytes = uint64_t{tile_size} * tile_size * 4;
  std::vector<uint8_t> texels(tile_bytes);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = static_cast<uint8_t>(i * 7);
  constexpr std::chrono::seconds kTimeout{30};

  UploadMeasurement m;
  m.tiles = tiles;
  m.tile_size = tile_size;
  for (uint32_t round = 0; round < rounds; ++round) {
    auto start = Clock::now();
    for (uint32_t layer = 0; layer < tiles; ++layer) {
      WGPUTexelCopyTextureInfo dst{};
      dst.aspect = WGPUTextureAspect_All;
      dst.texture = texture.get();
      dst.origin = {0, 0, layer};
      WGPUTexelCopyBufferLayout layout{};
      layout.bytesPerRow = tile_size * 4;
      layout.rowsPerImage = tile_size;
      WGPUExtent3D extent{tile_size, tile_size, 1};
      p.QueueWriteTexture(queue, &dst, texels.data(), texels.size(), &layout, &extent);
    }
    if (auto idle = context.wait_queue_idle(queue, kTimeout); !idle) return idle.error();
    m.write_texture_gbps = std::max(m.write_texture_gbps, gbps(tile_bytes * tiles, Clock::now() - start));

    // Off the clock: the ring's buffers mapped again, as a frame loop finds them in steady state.
    const auto deadline = Clock::now() + kTimeout;
    while ((*ring)->mapped_count() == 0 && Clock::now() < deadline) {
      (*ring)->recycle(clock.clock());
      clock.poll();
    }
    start = Clock::now();
    for (uint32_t layer = 0; layer < tiles; ++layer) {
      auto staged = (*ring)->stage(texture.get(), layer, texels);
      if (!staged) return staged.error();
      if (!*staged) return make_error(ErrorKind::Internal, MessageId::UploadMeasurementNoMappedBuffer,
                                      "upload measurement: the ring had no mapped buffer");
    }
    Ref<WGPUCommandEncoder> encoder(&p, p.DeviceCreateCommandEncoder(device, nullptr));
    (*ring)->record(encoder.get(), clock.clock().recording());
    WGPUCommandBuffer commands = p.CommandEncoderFinish(encoder.get(), nullptr);
    clock.submit(commands);
    p.CommandBufferRelease(commands);
    if (auto idle = context.wait_queue_idle(queue, kTimeout); !idle) return idle.error();
    m.ring_gbps = std::max(m.ring_gbps, gbps(tile_bytes * tiles, Clock::now() - start));
    clock.poll();
  }
  m.faster = m.ring_gbps > m.write_texture_gbps ? UploadPath::Ring : UploadPath::WriteTexture;
  return m;
}

}  // namespace warden::tiles
