/// @file
/// FileWatcher: which of the watched files were rewritten since the last poll (Linux inotify).
///
/// It watches the directories that hold the files, not the files: editors save by writing a
/// new file and renaming it over the old one, which ends a watch on the file itself. A file is
/// reported when it was closed after writing (IN_CLOSE_WRITE) or renamed into place
/// (IN_MOVED_TO). IN_CREATE is not watched: a file just created is still empty, and its
/// IN_CLOSE_WRITE follows once the writer is done.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "warden/core/result.h"

namespace warden::shaders {

/// Watches files for changes through inotify on their directories, so a file replaced by an
/// editor's rename is seen too. Move-only; one thread polls it.
class FileWatcher {
 public:
  /// A watcher watching nothing yet; an Io error when inotify cannot be set up.
  static Result<FileWatcher> create();
  /// Takes `other`'s watches; `other` is left watching nothing.
  ///@{
  FileWatcher(FileWatcher&& other) noexcept;
  FileWatcher& operator=(FileWatcher&& other) noexcept;
  ///@}
  FileWatcher(const FileWatcher&) = delete;
  FileWatcher& operator=(const FileWatcher&) = delete;
  ~FileWatcher();

  /// Watches `path` (made absolute); its directory must exist. Watching twice is harmless.
  Result<void> watch(const std::filesystem::path& path);
  /// Non-blocking: the watched files changed since the last call, each once, in path order.
  std::vector<std::filesystem::path> poll();

 private:
  explicit FileWatcher(int fd) : fd_(fd) {}
  int fd_ = -1;
  std::map<int, std::filesystem::path> directories_;  // inotify watch -> directory
  std::set<std::filesystem::path> files_;
};

}  // namespace warden::shaders
