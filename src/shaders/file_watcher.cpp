#include "warden/shaders/file_watcher.h"

#include <sys/inotify.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include <fmt/format.h>

namespace warden::shaders {

Result<FileWatcher> FileWatcher::create() {
  int fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd < 0) {
    return make_error(ErrorKind::Io, MessageId::WatcherInitFailed,
                      fmt::format("inotify_init1 failed: {}", std::strerror(errno)));
  }
  return FileWatcher(fd);
}

FileWatcher::FileWatcher(FileWatcher&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      directories_(std::move(other.directories_)),
      files_(std::move(other.files_)) {}

FileWatcher& FileWatcher::operator=(FileWatcher&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    directories_ = std::move(other.directories_);
    files_ = std::move(other.files_);
  }
  return *this;
}

FileWatcher::~FileWatcher() {
  if (fd_ >= 0) ::close(fd_);
}

Result<void> FileWatcher::watch(const std::filesystem::path& path) {
  std::error_code ec;
  std::filesystem::path absolute = std::filesystem::absolute(path, ec).lexically_normal();
  if (ec) {
    return make_error(ErrorKind::Io, MessageId::WatchPathInvalid, fmt::format("{}: {}", path.string(), ec.message()));
  }
  std::filesystem::path directory = absolute.parent_path();
  int wd = ::inotify_add_watch(fd_, directory.c_str(), IN_CLOSE_WRITE | IN_MOVED_TO);
  if (wd < 0) {
    return make_error(errno == ENOENT ? ErrorKind::NotFound : ErrorKind::Io, MessageId::WatchDirectoryFailed,
                      fmt::format("{}: cannot watch its directory {}: {}", path.string(), directory.string(),
                                  std::strerror(errno)));
  }
  directories_[wd] = directory;  // inotify returns the same wd for a directory watched again
  files_.insert(absolute);
  return {};
}

std::vector<std::filesystem::path> FileWatcher::poll() {
  std::set<std::filesystem::path> changed;
  alignas(inotify_event) char buffer[16384];
  for (;;) {
    ssize_t n = ::read(fd_, buffer, sizeof buffer);
    if (n <= 0) break;  // EAGAIN: nothing more now
    for (ssize_t offset = 0; offset < n;) {
      const auto* event = reinterpret_cast<const inotify_event*>(buffer + offset);
      offset += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
      auto directory = directories_.find(event->wd);
      if (directory == directories_.end() || event->len == 0) continue;
      std::filesystem::path file = directory->second / event->name;
      if (files_.count(file) != 0) changed.insert(std::move(file));
    }
  }
  return {changed.begin(), changed.end()};
}

}  // namespace warden::shaders
