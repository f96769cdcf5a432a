#include "warden/present/render_target.h"

#include <fmt/format.h>

namespace warden::present {
namespace {

Result<void> require_area(const RenderTargetDescription& desc, uint32_t width, uint32_t height) {
  if (width == 0 || height == 0) {
    return make_error(ErrorKind::InvalidArgument, MessageId::RenderTargetZeroSize,
                      fmt::format("render target \"{}\": size {}x{} has no area", desc.label, width, height));
  }
  return {};
}

struct RawPair {
  gpu::Texture texture = nullptr;
  gpu::TextureView view = nullptr;
};

RawPair make_raw(const resources::Registry& registry, const RenderTargetDescription& desc) {
  gpu::TextureDescriptor td;
  td.label = desc.label;
  td.usage = desc.usage;
  td.size = {desc.width, desc.height, 1};
  td.format = desc.format;
  RawPair pair;
  pair.texture = registry.procs().DeviceCreateTexture(registry.device(), &td);
  if (pair.texture != nullptr) pair.view = registry.procs().TextureCreateView(pair.texture, nullptr);
  return pair;
}

}  // namespace

Result<RenderTarget> RenderTarget::create(resources::Registry& registry, const RenderTargetDescription& desc) {
  if (auto area = require_area(desc, desc.width, desc.height); !area) return area.error();
  RenderTarget target(registry, desc);
  RawPair raw = make_raw(registry, desc);
  if (raw.texture == nullptr || raw.view == nullptr) {
    if (raw.texture) registry.procs().TextureRelease(raw.texture);
    return make_error(ErrorKind::Validation, MessageId::RenderTargetNoTexture,
                      fmt::format("render target \"{}\": the device made no texture", desc.label));
  }
  // The view is adopted rather than made with create_texture_view: the target replaces texture
  // and view together, which the registry's live-view guard on replace_texture would refuse.
  auto texture = registry.adopt_texture(raw.texture, desc.label);
  if (!texture) {
    registry.procs().TextureViewRelease(raw.view);
    return texture.error();
  }
  auto view = registry.adopt_texture_view(raw.view, desc.label + " view");
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
  RawPair raw = make_raw(*registry_, next);
  if (raw.texture == nullptr || raw.view == nullptr) {
    if (raw.texture) registry_->procs().TextureRelease(raw.texture);
    return make_error(ErrorKind::Validation, MessageId::RenderTargetNoTexture,
                      fmt::format("render target \"{}\": the device made no {}x{} texture", desc_.label, width, height));
  }
  // View first: while it still shows the old texture, nothing refers to the new one yet.
  if (auto swapped = registry_->replace_texture_view(view_, raw.view); !swapped) {
    registry_->procs().TextureViewRelease(raw.view);
    registry_->procs().TextureRelease(raw.texture);
    return swapped;
  }
  if (auto swapped = registry_->replace_texture(texture_, raw.texture); !swapped) {
    registry_->procs().TextureRelease(raw.texture);
    return swapped;
  }
  desc_ = std::move(next);
  return {};
}

void RenderTarget::destroy() {
  (void)registry_->destroy_texture_view(view_);
  (void)registry_->destroy_texture(texture_);
}

}  // namespace warden::present
