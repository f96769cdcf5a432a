#include "warden/present/render_target.h"

#include <fmt/format.h>

namespace warden::present {
namespace {

Result<void> require_area(const RenderTargetDescription& desc, uint32_t width, uint32_t height) {
  if (width == 0 || height == 0) {
    const ErrorObject target{"render target", {}, {}, desc.label};
    return make_error(ErrorKind::InvalidArgument, MessageId::RenderTargetZeroSize, target,
                      fmt::format("{} \"{}\": size {}x{} has no area", target.kind, *target.label, width, height));
  }
  return {};
}

// The texture's recipe: the registry makes it from this on create, resize and every rebuild.
resources::TextureDescription texture_description(const RenderTargetDescription& desc) {
  resources::TextureDescription texture;
  texture.label = desc.label;
  texture.usage = desc.usage;
  texture.size = {desc.width, desc.height, 1};
  texture.format = desc.format;
  // What passes draw into it: after a loss it comes back cleared, and the rebuild lists it in
  // contents_lost for the application to draw again.
  texture.contents = resources::ContentsSource::None;
  return texture;
}

// The device's refusal is this layer's to name; the registry's own errors (limits, a full pool,
// a lost device) keep their ids.
Error no_texture(const RenderTargetDescription& desc, uint32_t width, uint32_t height, Error error) {
  if (error.kind != ErrorKind::Validation) return error;
  return make_error(ErrorKind::Validation, MessageId::RenderTargetNoTexture,
                    fmt::format("render target \"{}\": the device made no {}x{} texture: {}", desc.label, width,
                                height, error.message));
}

}  // namespace

RenderTargetDescription depth_target(uint32_t width, uint32_t height, std::string label) {
  return {.width = width,
          .height = height,
          .format = kDepthFormat,
          .usage = WGPUTextureUsage_RenderAttachment,
          .label = std::move(label)};
}

Result<RenderTarget> RenderTarget::create(resources::Registry& registry, const RenderTargetDescription& desc) {
  if (auto area = require_area(desc, desc.width, desc.height); !area) return area.error();
  RenderTarget target(registry, desc);
  auto texture = registry.create_texture(texture_description(desc));
  if (!texture) return no_texture(desc, desc.width, desc.height, texture.error());
  auto view = registry.create_texture_view(*texture, {.label = desc.label + " view"});
  if (!view) {
    (void)registry.destroy_texture(*texture);
    return view.error();
  }
  target.texture_ = *texture;
  target.view_ = *view;
  return target;
}

Result<void> RenderTarget::resize(uint32_t width, uint32_t height) {
  if (auto area = require_area(desc_, width, height); !area) return area;
  if (width == desc_.width && height == desc_.height) return {};
  RenderTargetDescription next = desc_;
  next.width = width;
  next.height = height;
  // The view's recipe names the texture's handle: the registry makes it again from the new
  // texture, under the same handle, with the bind groups that bind it.
  auto remade = registry_->recreate_texture(texture_, texture_description(next));
  // Any error but a refused view or bind group comes before the new texture: the target keeps its size.
  if (!remade && remade.error().id != MessageId::RecreateDependentFailed) {
    return no_texture(desc_, width, height, remade.error());
  }
  desc_ = std::move(next);
  return remade;
}

void RenderTarget::destroy() {
  (void)registry_->destroy_texture_view(view_);
  (void)registry_->destroy_texture(texture_);
}

}  // namespace warden::present
