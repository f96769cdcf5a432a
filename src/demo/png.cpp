// PNG through libpng's simplified API (png_image), which handles every colour type and bit
// depth and reports errors as text instead of longjmp.
#include <png.h>
#include <fmt/format.h>

#include "warden/demo/image.h"
#include "warden/demo/messages.h"

namespace warden::demo {

Result<RgbaImage> read_png(const std::filesystem::path& path) {
  if (!std::filesystem::exists(path)) {
    return make_error(ErrorKind::NotFound, MessageId::PngMissing, fmt::format("{}: no such PNG file", path.string()));
  }
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_file(&png, path.c_str()) == 0) {
    return make_error(ErrorKind::InvalidArgument, MessageId::PngUnreadable,
                      fmt::format("{}: not a readable PNG: {}", path.string(), png.message));
  }
  png.format = PNG_FORMAT_RGBA;
  RgbaImage image{png.width, png.height, std::vector<uint8_t>(PNG_IMAGE_SIZE(png))};
  if (png_image_finish_read(&png, nullptr, image.texels.data(), 0, nullptr) == 0) {
    std::string message = png.message;
    png_image_free(&png);
    return make_error(ErrorKind::InvalidArgument, MessageId::PngUnreadable,
                      fmt::format("{}: not a readable PNG: {}", path.string(), message));
  }
  return image;
}

Result<void> write_png(const RgbaImage& image, const std::filesystem::path& path) {
  if (image.width == 0 || image.height == 0 || image.texels.size() != size_t{image.width} * image.height * 4) {
    return make_error(ErrorKind::InvalidArgument, MessageId::PngImageInvalid,
                      fmt::format("{}: cannot write a {}x{} image holding {} bytes", path.string(), image.width,
                                  image.height, image.texels.size()));
  }
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  png.width = image.width;
  png.height = image.height;
  png.format = PNG_FORMAT_RGBA;
  if (png_image_write_to_file(&png, path.c_str(), 0, image.texels.data(), 0, nullptr) == 0) {
    return make_error(ErrorKind::Io, MessageId::PngUnwritable,
                      fmt::format("{}: cannot write PNG: {}", path.string(), png.message));
  }
  return {};
}

}  // namespace warden::demo
