// FileWatcher on a real directory: saves in place and saves by rename are seen, other files in
// the same directory are not, and nothing is reported twice.
#include <gmock/gmock.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "warden/shaders/file_watcher.h"

namespace warden::shaders {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

class FileWatcherTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = std::filesystem::temp_directory_path() /
          ("warden_watch_" + std::to_string(::getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir);
    auto created = FileWatcher::create();
    ASSERT_TRUE(created.ok()) << created.error().message;
    watcher = std::make_unique<FileWatcher>(std::move(created.value()));
  }
  void TearDown() override { std::filesystem::remove_all(dir); }
  void write(const std::filesystem::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::trunc);
    out << text;
  }
  std::filesystem::path dir;
  std::unique_ptr<FileWatcher> watcher;
};

TEST_F(FileWatcherTest, SaveInPlaceIsReportedOnce) {
  auto file = dir / "a.wgsl";
  write(file, "v1");
  ASSERT_TRUE(watcher->watch(file).ok());
  EXPECT_THAT(watcher->poll(), IsEmpty());
  write(file, "v2");
  write(file, "v3");  // two saves before one poll: one report
  EXPECT_THAT(watcher->poll(), ElementsAre(file));
  EXPECT_THAT(watcher->poll(), IsEmpty());
}

TEST_F(FileWatcherTest, SaveByRenameIsReported) {
  auto file = dir / "a.wgsl";
  write(file, "v1");
  ASSERT_TRUE(watcher->watch(file).ok());
  write(dir / "a.wgsl.swp", "v2");
  std::filesystem::rename(dir / "a.wgsl.swp", file);
  EXPECT_THAT(watcher->poll(), ElementsAre(file));
  // The watch outlives the replaced file: the next save is seen too.
  write(file, "v3");
  EXPECT_THAT(watcher->poll(), ElementsAre(file));
}

TEST_F(FileWatcherTest, OtherFilesInTheDirectoryAreIgnored) {
  auto watched = dir / "a.wgsl";
  auto other = dir / "b.wgsl";
  write(watched, "v1");
  ASSERT_TRUE(watcher->watch(watched).ok());
  write(other, "x");
  EXPECT_THAT(watcher->poll(), IsEmpty());
  ASSERT_TRUE(watcher->watch(other).ok());
  write(other, "y");
  write(watched, "v2");
  EXPECT_THAT(watcher->poll(), ElementsAre(watched, other));
}

TEST_F(FileWatcherTest, RelativePathsAreMadeAbsolute) {
  auto file = dir / "rel.wgsl";
  write(file, "v1");
  auto previous = std::filesystem::current_path();
  std::filesystem::current_path(dir);
  auto watched = watcher->watch("rel.wgsl");
  std::filesystem::current_path(previous);
  ASSERT_TRUE(watched.ok()) << watched.error().message;
  write(file, "v2");
  EXPECT_THAT(watcher->poll(), ElementsAre(file));
}

TEST_F(FileWatcherTest, MissingDirectoryIsNotFoundNamingThePath) {
  auto watched = watcher->watch(dir / "no_such_dir" / "a.wgsl");
  ASSERT_FALSE(watched.ok());
  EXPECT_EQ(watched.error().kind, ErrorKind::NotFound);
  EXPECT_EQ(watched.error().id, MessageId::WatchDirectoryFailed);
  EXPECT_THAT(watched.error().message, ::testing::HasSubstr("no_such_dir"));
}

}  // namespace
}  // namespace warden::shaders
