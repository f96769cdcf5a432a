// JPEG through libjpeg-turbo's libjpeg API. libjpeg reports a fatal error by calling
// error_exit, which must not return: it longjmps back to decode(). Only C frames of libjpeg
// lie between, and decode() keeps no object whose state changes after setjmp, so nothing is
// skipped that needed a destructor.
// jpeglib.h uses size_t and FILE without including their headers.
#include <csetjmp>
#include <cstddef>
#include <cstdio>

#include <jpeglib.h>
#include <fmt/format.h>

#include <fstream>
#include <iterator>

#include "warden/demo/image.h"
#include "warden/demo/messages.h"

namespace warden::demo {
namespace {

struct JpegErrorManager {
  jpeg_error_mgr base;  // first: libjpeg sees a jpeg_error_mgr*
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

[[noreturn]] void on_jpeg_error(j_common_ptr info) {
  auto* errors = reinterpret_cast<JpegErrorManager*>(info->err);
  errors->base.format_message(info, errors->message);
  std::longjmp(errors->jump, 1);
}

// Warnings (a corrupt but decodable stream) are not failures; keep them out of stderr.
void on_jpeg_message(j_common_ptr) {}

// Decodes `bytes` into `out`; returns false with `errors.message` set on a fatal error.
bool decode(const std::vector<uint8_t>& bytes, present::Image& out, JpegErrorManager& errors) {
  jpeg_decompress_struct info{};
  info.err = jpeg_std_error(&errors.base);
  errors.base.error_exit = on_jpeg_error;
  errors.base.output_message = on_jpeg_message;
  if (setjmp(errors.jump) != 0) {
    jpeg_destroy_decompress(&info);
    return false;
  }
  jpeg_create_decompress(&info);
  jpeg_mem_src(&info, bytes.data(), static_cast<unsigned long>(bytes.size()));
  jpeg_read_header(&info, TRUE);
  info.out_color_space = JCS_EXT_RGBA;  // libjpeg-turbo: gray and YCbCr straight to RGBA
  jpeg_start_decompress(&info);
  out.width = info.output_width;
  out.height = info.output_height;
  out.rgba.resize(size_t{out.width} * out.height * 4);
  while (info.output_scanline < info.output_height) {
    JSAMPROW row = &out.rgba[size_t{info.output_scanline} * out.width * 4];
    jpeg_read_scanlines(&info, &row, 1);
  }
  jpeg_finish_decompress(&info);
  jpeg_destroy_decompress(&info);
  return true;
}

}  // namespace

Result<present::Image> read_jpeg(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    return make_error(std::filesystem::exists(path) ? ErrorKind::Io : ErrorKind::NotFound, MessageId::JpegUnopenable,
                      fmt::format("{}: cannot open JPEG file", path.string()));
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (bytes.empty()) {
    return make_error(ErrorKind::InvalidArgument, MessageId::JpegEmpty,
                      fmt::format("{}: empty file, not a JPEG", path.string()));
  }
  present::Image image;
  JpegErrorManager errors{};
  if (!decode(bytes, image, errors)) {
    return make_error(ErrorKind::InvalidArgument, MessageId::JpegUnreadable,
                      fmt::format("{}: not a readable JPEG: {}", path.string(), errors.message));
  }
  return image;
}

}  // namespace warden::demo
