#include "warden/demo/image.h"
#include "warden/demo/messages.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string>

namespace warden::demo {

Result<present::Image> read_image(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (ext == ".png") return present::read_png(path);
  if (ext == ".jpg" || ext == ".jpeg") return read_jpeg(path);
  return make_error(ErrorKind::InvalidArgument, MessageId::ImageFormatUnknown,
                    fmt::format("{}: not an image warden reads (expected .png, .jpg or .jpeg)", path.string()));
}

}  // namespace warden::demo
