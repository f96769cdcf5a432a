/// @file
/// UploadRing: tile uploads through a ring of mapped staging buffers, recycled under the
/// submission clock, then copyBufferToTexture into the tile's layer.
///
/// Each buffer holds `tiles_per_buffer` tiles at a row pitch rounded up to 256 bytes (the copy's
/// bytesPerRow alignment). A buffer is, in turn:
///   Mapped    mapped for writing: stage() copies tiles into it;
///   InFlight  unmapped, its copies recorded into submission `serial`;
///   Mapping   that submission retired; MapAsync(Write) asked, its callback (ProcessEvents, which
///             the caller drives anyway) makes it Mapped again.
/// A buffer is mapped again only after the submission that read it retired, and nothing waits:
/// when no buffer is mapped, stage() says so and the caller writes that tile with writeTexture.
///
/// The buffers live on the device given to create(), outside any Registry (a rebuild cannot make
/// a buffer mapped again): after a device loss the owner drops the ring and creates one on the new
/// device (docs/adr/0018). The Engine's TileLayer holds none: it writes tiles with write_texture.
///
/// Which path is faster depends on the backend (docs/design.md, 'Measured': on llvmpipe
/// writeTexture, on the H200's Vulkan the ring, ~3x): measure_upload_paths() measures both on the
/// device at hand.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "warden/core/result.h"
#include "warden/core/submission_clock.h"
#include "warden/tiles/layer_pool.h"
#include "warden/gpu/context.h"

namespace warden::tiles {

/// The copy's bytesPerRow alignment (WebGPU's 256).
inline constexpr uint32_t kCopyRowAlignment = 256;
/// A row of `width` texels of `texel_bytes`, rounded up to kCopyRowAlignment.
uint32_t aligned_row_pitch(uint32_t width, uint32_t texel_bytes);

/// What an UploadRing is made of.
struct UploadRingDescription {
  /// Width and height of a tile.
  uint32_t tile_size = 256;
  /// Bytes per texel.
  uint32_t texel_bytes = 4;
  uint32_t buffers = 4;           ///< two frames in flight, plus room for one to be mapping
  uint32_t tiles_per_buffer = 8;  ///< tiles one frame stages
  /// Label of its buffers.
  std::string label = "tile upload ring";
};

/// Mapped staging buffers recycled under the submission clock: tiles are copied in on the CPU and into the array by the GPU.
class UploadRing {
 public:
  /// Where a buffer is: mapped (stage() may write), in flight (submitted), mapping (map requested).
  enum class BufferState { Mapped, InFlight, Mapping };

  /// Makes and maps the buffers on `device`.
  static Result<std::unique_ptr<UploadRing>> create(const gpu::Procs& procs, WGPUDevice device,
                                                    const UploadRingDescription& desc);
  ~UploadRing();
  UploadRing(const UploadRing&) = delete;
  UploadRing& operator=(const UploadRing&) = delete;

  /// Copies one tile (tile_size rows of tile_size * texel_bytes bytes, packed) into the current
  /// mapped buffer, to be copied into `layer` of `texture` by the next record(). False when no
  /// buffer has room: the caller uploads this tile another way (nothing waits).
  Result<bool> stage(WGPUTexture texture, LayerIndex layer, std::span<const uint8_t> texels);
  /// Unmaps the buffer that has staged tiles and records their copies into `encoder`, which
  /// will be submitted as `recording` (SubmissionClock::recording()). Nothing staged: nothing.
  void record(WGPUCommandEncoder encoder, Serial recording);
  /// Asks to map again every buffer whose submission `clock` has retired (non-blocking).
  void recycle(const SubmissionClock& clock);

  /// Where buffer `buffer` is.
  BufferState state(uint32_t buffer) const;
  /// Buffers in the ring.
  uint32_t buffer_count() const { return static_cast<uint32_t>(buffers_.size()); }
  /// Buffers mapped now.
  uint32_t mapped_count() const;
  /// Tiles one buffer holds.
  uint32_t tiles_per_buffer() const { return tiles_per_buffer_; }
  /// Bytes per staged row (aligned_row_pitch()).
  uint32_t row_pitch() const { return row_pitch_; }
  /// Tiles stage() turned away because no buffer was mapped (the caller's fallbacks).
  uint64_t turned_away() const { return turned_away_; }

  struct Buffer;  ///< shared with its map callback, which may outlive the ring

 private:
  UploadRing() = default;
  Buffer* current();
  const gpu::Procs* procs_ = nullptr;
  std::vector<std::shared_ptr<Buffer>> buffers_;
  uint32_t tile_size_ = 0, texel_bytes_ = 0, row_pitch_ = 0, tiles_per_buffer_ = 0;
  uint64_t tile_bytes_ = 0;  // row_pitch * tile_size: one tile's slot
  uint64_t turned_away_ = 0;
};

/// The two ways to get a tile's level 0 to the GPU, measured side by side on one device.
enum class UploadPath { WriteTexture, Ring };
/// "write-texture" or "ring".
const char* to_string(UploadPath path);

/// What measure_upload_paths() measured.
struct UploadMeasurement {
  /// queue.writeTexture, GB/s.
  double write_texture_gbps = 0;
  /// The UploadRing, GB/s.
  double ring_gbps = 0;
  /// The faster of the two.
  UploadPath faster = UploadPath::WriteTexture;
  /// Tiles per round.
  uint32_t tiles = 0;
  /// Width and height of a tile.
  uint32_t tile_size = 0;
};

/// Uploads `tiles` tiles of tile_size^2 RGBA8 texels into a texture array both ways, `rounds`
/// times, each round submitted and waited for (blocking, counted: start-up and tools only), and
/// returns both rates (bytes of texels per second, best round) and the faster path.
Result<UploadMeasurement> measure_upload_paths(const gpu::Context& context, WGPUDevice device, WGPUQueue queue,
                                               uint32_t tile_size = 256, uint32_t tiles = 16, uint32_t rounds = 3);

}  // namespace warden::tiles
