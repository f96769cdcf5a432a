// FolderTiles: tiles from a slippy-map folder, DIR/{z}/{x}/{y}.png (or .jpg, .jpeg), what
// MapLibre and OpenStreetMap tooling leave on disk.
//
// A missing or malformed tile is an error on that tile only: produce() returns it, the
// failure is counted, and the tile is named once in the log (a tile asked for again fails
// again, counted, without a second log line).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <unordered_set>

#include "warden/core/diagnostics.h"
#include "warden/demo/tile_provider.h"

namespace warden::demo {

/// Tiles read from a slippy folder `DIR/{z}/{x}/{y}.png|jpg`.
class FolderTiles final : public TileProvider {
 public:
  /// `dir` must be an existing folder (else NotFound naming it). `log` must outlive this.
  static Result<std::unique_ptr<FolderTiles>> open(const std::filesystem::path& dir, Diagnostics& log,
                                                   uint32_t tile_size = 256);

  /// Safe from any thread. Errors: NotFound (no file for the tile), InvalidArgument (a file
  /// that does not decode, or of another size than tile_size), each naming the tile and file.
  Result<present::Image> produce(const tiles::TileKey& key) override;
  /// Width and height of the folder's tiles.
  uint32_t tile_size() const override { return tile_size_; }

  uint64_t failures() const;      ///< every failed produce()
  size_t failed_tiles() const;    ///< distinct tiles that failed at least once
  /// The folder.
  const std::filesystem::path& dir() const { return dir_; }

 private:
  FolderTiles(std::filesystem::path dir, Diagnostics& log, uint32_t tile_size)
      : dir_(std::move(dir)), log_(&log), tile_size_(tile_size) {}
  Result<present::Image> read_tile(const tiles::TileKey& key) const;
  void count_failure(const tiles::TileKey& key, const Error& error);

  std::filesystem::path dir_;
  Diagnostics* log_;
  uint32_t tile_size_;
  mutable std::mutex mutex_;
  uint64_t failures_ = 0;
  std::unordered_set<tiles::TileKey, tiles::TileKeyHash> failed_;
};

}  // namespace warden::demo
