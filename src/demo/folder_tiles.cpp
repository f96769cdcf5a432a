#include "warden/demo/folder_tiles.h"
#include "warden/demo/messages.h"

#include <fmt/format.h>

#include <array>

namespace warden::demo {

Result<std::unique_ptr<FolderTiles>> FolderTiles::open(const std::filesystem::path& dir, Diagnostics& log,
                                                       uint32_t tile_size) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    return make_error(
        ErrorKind::NotFound, MessageId::TileFolderMissing,
        fmt::format("--tiles {}: no such folder (expected DIR/{{z}}/{{x}}/{{y}}.png or .jpg)", dir.string()));
  }
  if (tile_size == 0) {
    return make_error(ErrorKind::InvalidArgument, MessageId::TileSourceSizeZero, "FolderTiles: tile size is 0");
  }
  return std::unique_ptr<FolderTiles>(new FolderTiles(dir, log, tile_size));
}

Result<present::Image> FolderTiles::read_tile(const tiles::TileKey& key) const {
  if (auto valid = check_tile_key(key); !valid) return valid.error();
  const std::filesystem::path stem = dir_ / std::to_string(key.z) / std::to_string(key.x) / std::to_string(key.y);
  for (const char* ext : {".png", ".jpg", ".jpeg"}) {
    std::filesystem::path file = stem;
    file += ext;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) continue;
    auto image = read_image(file);
    if (!image) {
      return make_error(image.error().kind, image.error().id,
                        fmt::format("tile {}/{}/{}: {}", key.z, key.x, key.y, image.error().message));
    }
    if (image->width != tile_size_ || image->height != tile_size_) {
      return make_error(ErrorKind::InvalidArgument, MessageId::FolderTileWrongSize,
                        fmt::format("tile {}/{}/{}: {} is {}x{}, expected {}x{}", key.z, key.x, key.y, file.string(),
                                    image->width, image->height, tile_size_, tile_size_));
    }
    return image;
  }
  return make_error(ErrorKind::NotFound, MessageId::FolderTileMissing,
                    fmt::format("tile {}/{}/{}: no file {}.png, .jpg or .jpeg", key.z, key.x, key.y, stem.string()));
}

void FolderTiles::count_failure(const tiles::TileKey& key, const Error& error) {
  bool first;
  {
    std::lock_guard lock(mutex_);
    ++failures_;
    first = failed_.insert(key).second;
  }
  if (first) log_->warning(error.id, error.message);
}

Result<present::Image> FolderTiles::produce(const tiles::TileKey& key) {
  auto tile = read_tile(key);
  if (!tile) count_failure(key, tile.error());
  return tile;
}

uint64_t FolderTiles::failures() const {
  std::lock_guard lock(mutex_);
  return failures_;
}

size_t FolderTiles::failed_tiles() const {
  std::lock_guard lock(mutex_);
  return failed_.size();
}

}  // namespace warden::demo
