#include "warden/present/readback.h"

#include <cstring>

#include <fmt/format.h>

#include "warden/gpu/names.h"
#include "warden/gpu/objects.h"

namespace warden::present {
namespace {

constexpr uint32_t kRowAlignment = 256;  // WebGPU's bytesPerRow alignment for buffer copies

uint32_t aligned_row_bytes(uint32_t width) { return (width * 4 + kRowAlignment - 1) / kRowAlignment * kRowAlignment; }

}  // namespace

Result<Image> read_image(const gpu::Context& context, WGPUDevice device, WGPUQueue queue, WGPUTexture texture,
                         std::chrono::milliseconds timeout) {
  const gpu::Procs& procs = context.procs();
  const WGPUTextureFormat format = procs.TextureGetFormat(texture);
  const bool bgra = format == WGPUTextureFormat_BGRA8Unorm;
  if (!bgra && format != WGPUTextureFormat_RGBA8Unorm && format != WGPUTextureFormat_RGBA8UnormSrgb) {
    return make_error(ErrorKind::InvalidArgument, MessageId::ReadImageFormatUnreadable,
                      fmt::format("read_image: format {} is not readable as an 8-bit RGBA image (rgba8unorm, "
                                  "rgba8unorm-srgb and bgra8unorm are)", gpu::to_string(format)));
  }
  if ((procs.TextureGetUsage(texture) & WGPUTextureUsage_CopySrc) == 0) {
    return make_error(ErrorKind::MissingUsage, MessageId::ReadImageMissingCopySrc,
                      "read_image: the texture was not created with CopySrc");
  }
  Image image;
  image.width = procs.TextureGetWidth(texture);
  image.height = procs.TextureGetHeight(texture);
  const uint32_t row_bytes = aligned_row_bytes(image.width);
  WGPUBufferDescriptor bd{};
  bd.label = gpu::string_view("readback");
  bd.size = static_cast<uint64_t>(row_bytes) * image.height;
  bd.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
  gpu::Ref<WGPUBuffer> buffer(&procs, procs.DeviceCreateBuffer(device, &bd));

  WGPUCommandEncoder encoder = procs.DeviceCreateCommandEncoder(device, nullptr);
  gpu::copy_image_to_buffer(procs, encoder, texture, buffer.get(), image.width, image.height, row_bytes);
  WGPUCommandBuffer commands = procs.CommandEncoderFinish(encoder, nullptr);
  procs.QueueSubmit(queue, 1, &commands);
  procs.CommandBufferRelease(commands);
  procs.CommandEncoderRelease(encoder);

  auto bytes = context.read_mapped(buffer.get(), bd.size, timeout);
  if (!bytes) return bytes.error();
  image.rgba.resize(static_cast<size_t>(image.width) * image.height * 4);
  for (uint32_t y = 0; y < image.height; ++y) {
    std::memcpy(&image.rgba[static_cast<size_t>(y) * image.width * 4], bytes->data() + static_cast<size_t>(y) * row_bytes,
                static_cast<size_t>(image.width) * 4);
  }
  if (bgra) {
    for (size_t i = 0; i < image.rgba.size(); i += 4) std::swap(image.rgba[i], image.rgba[i + 2]);
  }
  return image;
}

Result<Image> read_image(const gpu::Context& context, resources::Registry& registry, TextureHandle texture,
                         std::chrono::milliseconds timeout) {
  if (auto usage = registry.require_usage(texture, WGPUTextureUsage_CopySrc); !usage) return usage.error();
  auto raw = registry.resolve(texture);
  if (!raw) return raw.error();
  return read_image(context, registry.device(), registry.queue(), *raw, timeout);
}

}  // namespace warden::present
