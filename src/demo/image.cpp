#include "warden/demo/image.h"
#include "warden/demo/messages.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string>

namespace warden::demo {

RgbaImage RgbaImage::filled(uint32_t width, uint32_t height, Rgba colour) {
  RgbaImage image{width, height, std::vector<uint8_t>(size_t{width} * height * 4)};
  for (size_t i = 0; i < image.texels.size(); i += 4) {
    image.texels[i] = colour.r;
    image.texels[i + 1] = colour.g;
    image.texels[i + 2] = colour.b;
    image.texels[i + 3] = colour.a;
  }
  return image;
}

Rgba RgbaImage::at(uint32_t x, uint32_t y) const {
  const uint8_t* p = &texels[(size_t{y} * width + x) * 4];
  return {p[0], p[1], p[2], p[3]};
}

void RgbaImage::set(uint32_t x, uint32_t y, Rgba colour) {
  uint8_t* p = &texels[(size_t{y} * width + x) * 4];
  p[0] = colour.r;
  p[1] = colour.g;
  p[2] = colour.b;
  p[3] = colour.a;
}

Result<RgbaImage> read_image(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (ext == ".png") return read_png(path);
  if (ext == ".jpg" || ext == ".jpeg") return read_jpeg(path);
  return make_error(ErrorKind::InvalidArgument, MessageId::ImageFormatUnknown,
                    fmt::format("{}: not an image warden reads (expected .png, .jpg or .jpeg)", path.string()));
}

}  // namespace warden::demo
