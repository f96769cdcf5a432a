// The image files the demo reads: JPEG through Debian's libjpeg-turbo, and PNG through the
// present layer's reader (present/image.h, which also writes them), into present::Image.
#pragma once

#include <filesystem>

#include "warden/core/result.h"
#include "warden/present/image.h"

namespace warden::demo {

/// Decoders name the file and what is wrong with it (missing, truncated, not that format).
Result<present::Image> read_jpeg(const std::filesystem::path& path);
/// By extension: .png (present::read_png), or .jpg / .jpeg; any other extension is an InvalidArgument error.
Result<present::Image> read_image(const std::filesystem::path& path);

}  // namespace warden::demo
