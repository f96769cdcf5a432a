// PNG through libpng's simplified API (png_image), which handles every colour type and bit
// depth and reports errors as text instead of longjmp.
#include "warden/present/image.h"

#include <png.h>

#include <string>

#include <fmt/format.h>

namespace warden::present {

Image Image::filled(uint32_t width, uint32_t height, Rgba colour) {
  Image image{width, height, std::vector<uint8_t>(size_t{width} * height * 4)};
  for (size_t i = 0; i < image.rgba.size(); i += 4) {
    image.rgba[i] = colour.r;
    image.rgba[i + 1] = colour.g;
    image.rgba[i + 2] = colour.b;
    image.rgba[i + 3] = colour.a;
  }
  return image;
}

Rgba Image::at(uint32_t x, uint32_t y) const {
  const uint8_t* p = &rgba[(size_t{y} * width + x) * 4];
  return {p[0], p[1], p[2], p[3]};
}

std::array<uint8_t, 4> Image::pixel(uint32_t x, uint32_t y) const {
  const Rgba p = at(x, y);
  return {p.r, p.g, p.b, p.a};
}

void Image::set(uint32_t x, uint32_t y, Rgba colour) {
  uint8_t* p = &rgba[(size_t{y} * width + x) * 4];
  p[0] = colour.r;
  p[1] = colour.g;
  p[2] = colour.b;
  p[3] = colour.a;
}

Result<Image> read_png(const std::filesystem::path& path) {
  if (!std::filesystem::exists(path)) {
    return make_error(ErrorKind::NotFound, MessageId::PngReadFailed,
                      fmt::format("read_png {}: no such file", path.string()));
  }
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_file(&png, path.c_str()) == 0) {
    return make_error(ErrorKind::InvalidArgument, MessageId::PngReadFailed,
                      fmt::format("read_png {}: not a readable PNG: {}", path.string(), png.message));
  }
  png.format = PNG_FORMAT_RGBA;
  Image image{png.width, png.height, std::vector<uint8_t>(PNG_IMAGE_SIZE(png))};
  if (png_image_finish_read(&png, nullptr, image.rgba.data(), 0, nullptr) == 0) {
    std::string message = png.message;
    png_image_free(&png);
    return make_error(ErrorKind::InvalidArgument, MessageId::PngReadFailed,
                      fmt::format("read_png {}: not a readable PNG: {}", path.string(), message));
  }
  return image;
}

Result<void> write_png(const Image& image, const std::filesystem::path& path) {
  if (image.width == 0 || image.height == 0 || image.rgba.size() != size_t{image.width} * image.height * 4) {
    return make_error(ErrorKind::InvalidArgument, MessageId::PngImageSizeMismatch,
                      fmt::format("write_png {}: the image is {}x{} with {} bytes, not width*height*4 (and not 0)",
                                  path.string(), image.width, image.height, image.rgba.size()));
  }
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  png.width = image.width;
  png.height = image.height;
  png.format = PNG_FORMAT_RGBA;
  if (png_image_write_to_file(&png, path.c_str(), 0, image.rgba.data(), 0, nullptr) == 0) {
    return make_error(ErrorKind::Io, MessageId::PngWriteFailed,
                      fmt::format("write_png {}: {}", path.string(), png.message));
  }
  return {};
}

}  // namespace warden::present
