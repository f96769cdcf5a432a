// What `warden shader check` does with a file, on any bytes and any name: read the source (from
// a file or a stream, under a byte limit, UTF-8 checked, a byte order mark dropped), compile it
// on the Null backend, and format every diagnostic with its source line and caret. Every read
// error and diagnostic must carry a message id of its own, a diagnostic must name the file it
// was given, and Dawn must report nothing outside warden's error scopes.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "fuzz/fuzz_support.h"
#include "fuzz/null_device.h"
#include "warden/shaders/shader_compiler.h"
#include "warden/shaders/source_file.h"

namespace warden::fuzz {
namespace {

// The bytes in a file: one temporary file for the process, rewritten per input, read through its
// path (as `warden shader check FILE` does) or through its descriptor (as it reads stdin).
class SourceFile {
 public:
  SourceFile() {
    const char* dir = std::getenv("TMPDIR");
    path_ = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/warden-shader-fuzz-XXXXXX";
    fd_ = mkstemp(path_.data());
    if (fd_ < 0) fail("could not make a temporary file at " + path_);
  }
  ~SourceFile() {
    close(fd_);
    unlink(path_.c_str());
  }
  SourceFile(const SourceFile&) = delete;
  SourceFile& operator=(const SourceFile&) = delete;
  void write(std::string_view bytes) {
    if (ftruncate(fd_, 0) != 0 || pwrite(fd_, bytes.data(), bytes.size(), 0) != static_cast<ssize_t>(bytes.size())) {
      fail("could not write the source file");
    }
    lseek(fd_, 0, SEEK_SET);
  }
  int fd() const { return fd_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
};

void check_source(Bytes& in) {
  static SourceFile file;
  static const shaders::ShaderCompiler compiler(*null_device().context, null_device().device);
  const std::string name = in.text(40);
  const bool as_stream = in.coin();
  // Mostly the default limit; now and then one the source may exceed.
  const uint64_t max_bytes = in.below(4) == 0 ? in.below(64) : shaders::kDefaultMaxSourceBytes;
  const std::string_view bytes = in.rest();
  file.write(bytes);

  Result<shaders::SourceText> source = as_stream ? shaders::read_source_stream(file.fd(), name, max_bytes)
                                                 : shaders::read_source(file.path(), max_bytes);
  if (!source) return require_named(source.error(), "read_source");
  require(source->text.size() <= bytes.size(), "read_source returned more than the file holds");

  auto compiled = compiler.compile(name, source->text);
  if (!compiled) return require_named(compiled.error(), "compile");
  for (const shaders::ShaderDiagnostic& d : compiled->diagnostics) {
    require(d.id != MessageId::Application, "a diagnostic without a message id of its own: " + d.message);
    require(d.path == name, "a diagnostic names another file than the one compiled");
    const std::string printed = shaders::format_diagnostic(d, source->text);
    require(printed.find(d.message) != std::string::npos, "a printed diagnostic lost its message");
  }
  require(compiled->ok() != shaders::has_error(compiled->diagnostics), "a module beside an error, or none without one");
  check_no_uncaptured_errors();
}

}  // namespace
}  // namespace warden::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  warden::fuzz::Bytes in(data, size);
  warden::fuzz::check_source(in);
  return 0;
}
