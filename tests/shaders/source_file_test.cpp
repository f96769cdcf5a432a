// Reading shader source: what is refused before it is read (FIFOs, devices, directories, files
// over the limit), symbolic link loops, UTF-8 checked while reading, the byte order mark.
#include <gmock/gmock.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "warden/shaders/source_file.h"

namespace warden::shaders {
namespace {

using ::testing::HasSubstr;

class SourceFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("warden_source_file_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path write(const std::string& name, const std::string& bytes) {
    std::ofstream(dir_ / name, std::ios::binary) << bytes;
    return dir_ / name;
  }
  std::filesystem::path dir_;
};

TEST_F(SourceFileTest, FifoIsRefusedWithoutOpeningIt) {
  // Opening a FIFO for reading would block until a writer comes: this returns at once.
  ASSERT_EQ(::mkfifo((dir_ / "pipe").c_str(), 0600), 0);
  auto read = read_source(dir_ / "pipe");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().kind, ErrorKind::Io);
  EXPECT_EQ(read.error().id, MessageId::SourceNotRegularFile);
  EXPECT_THAT(read.error().message, HasSubstr("pipe: is a FIFO (named pipe), not a regular file"));
}

TEST_F(SourceFileTest, CharacterDevicesAreRefused) {
  for (const char* device : {"/dev/zero", "/dev/urandom", "/dev/null"}) {
    auto read = read_source(device);
    ASSERT_FALSE(read.ok()) << device;
    EXPECT_EQ(read.error().id, MessageId::SourceNotRegularFile) << device;
    EXPECT_EQ(read.error().message,
              std::string(device) + ": is a character device, not a regular file (give it as standard input, "
                                    "'-', to read it)");
  }
}

TEST_F(SourceFileTest, SymlinkLoopIsNamedAsALoop) {
  std::filesystem::create_symlink("b", dir_ / "a");
  std::filesystem::create_symlink("a", dir_ / "b");
  auto read = read_source(dir_ / "a");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().kind, ErrorKind::Io);
  EXPECT_EQ(read.error().id, MessageId::SourceSymlinkLoop);
  EXPECT_THAT(read.error().message, HasSubstr("a: symbolic link loop"));
}

TEST_F(SourceFileTest, MissingFileIsNotFound) {
  auto read = read_source(dir_ / "absent.wgsl");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().kind, ErrorKind::NotFound);
  EXPECT_EQ(read.error().id, MessageId::SourceFileNotFound);
  EXPECT_THAT(read.error().message, HasSubstr("absent.wgsl: no such file"));
}

TEST_F(SourceFileTest, SizeLimitIsInclusiveAndRefusalIsRefused) {
  auto path = write("ten.wgsl", std::string(10, ' '));
  EXPECT_TRUE(read_source(path, 10).ok());
  auto over = read_source(path, 9);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.error().kind, ErrorKind::Refused);
  EXPECT_EQ(over.error().id, MessageId::SourceTooLarge);
  EXPECT_THAT(over.error().message, HasSubstr("ten.wgsl: larger than the limit of 9 bytes"));
}

TEST_F(SourceFileTest, ByteOrderMarkIsRemovedAndReported) {
  auto read = read_source(write("bom.wgsl", "\xEF\xBB\xBF" "fn f() {}\n"));
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(read->text, "fn f() {}\n");
  EXPECT_TRUE(read->byte_order_mark_removed);
  auto plain = read_source(write("plain.wgsl", "fn f() {}\n"));
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(plain->byte_order_mark_removed);
  // Only at the start: anywhere else it is left for the compiler to report.
  auto inner = read_source(write("inner.wgsl", "fn f() {}\xEF\xBB\xBF\n"));
  ASSERT_TRUE(inner.ok());
  EXPECT_EQ(inner->text, "fn f() {}\xEF\xBB\xBF\n");
}

TEST_F(SourceFileTest, CharactersCutBetweenReadsAreWholeAgainAndBadBytesKeepTheirFileOffset) {
  // Reads are 64 KiB: put a 4-byte character across that boundary, then a bad byte after it.
  std::string text(65534, 'a');
  text += "\xF0\x9F\x98\x80";  // bytes 65534..65537
  text += "bb";
  auto whole = read_source(write("cut.wgsl", text));
  ASSERT_TRUE(whole.ok()) << whole.error().message;
  EXPECT_EQ(whole->text, text);
  auto bad = read_source(write("bad.wgsl", text + "\xFF"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().kind, ErrorKind::InvalidArgument);
  EXPECT_EQ(bad.error().id, MessageId::SourceNotUtf8);
  EXPECT_THAT(bad.error().message, HasSubstr("not UTF-8: invalid byte 0xff at byte offset 65540"));
}

TEST_F(SourceFileTest, SequenceCutByTheEndOfTheFileIsInvalid) {
  auto read = read_source(write("cut_end.wgsl", "ok \xE2\x82"));
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().id, MessageId::SourceNotUtf8);
  EXPECT_THAT(read.error().message, HasSubstr("invalid byte 0xe2 at byte offset 3"));
}

TEST_F(SourceFileTest, StreamIsNamedAsGivenAndCapped) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ASSERT_EQ(::write(fds[1], "0123456789", 10), 10);
  ::close(fds[1]);
  auto read = read_source_stream(fds[0], "<stdin>", 5);
  ::close(fds[0]);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().id, MessageId::SourceTooLarge);
  EXPECT_EQ(read.error().message, "<stdin>: larger than the limit of 5 bytes");
}

}  // namespace
}  // namespace warden::shaders
