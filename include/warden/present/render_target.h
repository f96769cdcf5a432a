/// @file
/// RenderTarget: an offscreen colour or depth target of any size and format, kept under one
/// texture handle and one view handle for its whole life, device losses included. Both are made
/// with create_* (the registry keeps their recipes, so a rebuild makes them again); resize() is
/// Registry::recreate_texture, which makes the texture, its view and the bind groups that bind
/// the view again under their handles (the old ones go once their last submission retired), so
/// whatever holds the handles keeps working (docs/adr/0024).
#pragma once

#include <cstdint>
#include <string>

#include "warden/present/depth.h"
#include "warden/resources/registry.h"

namespace warden::present {

/// What a RenderTarget is made of.
struct RenderTargetDescription {
  /// Pixels across; not 0.
  uint32_t width = 0;
  /// Rows; not 0.
  uint32_t height = 0;
  /// The colour format.
  WGPUTextureFormat format = WGPUTextureFormat_RGBA8Unorm;
  /// CopySrc: read back; TextureBinding: sampled by a later pass.
  WGPUTextureUsage usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc |
                     WGPUTextureUsage_TextureBinding;
  /// Label of the texture and its view.
  std::string label = "render target";
};

/// A reverse-Z depth target (kDepthFormat, RenderAttachment) of `width` x `height`: the depth
/// attachment of a pass drawn with reverse_z_depth(), attached with reverse_z_depth_attachment().
RenderTargetDescription depth_target(uint32_t width, uint32_t height, std::string label = "depth");

/// An offscreen colour or depth texture and its view, owned by a Registry: what a pass draws
/// into without a window.
class RenderTarget {
 public:
  /// Errors: zero area, the device refused the texture (RenderTargetNoTexture), or the
  /// registry's (a size over the device's limits, pool full, device lost).
  static Result<RenderTarget> create(resources::Registry& registry, const RenderTargetDescription& desc);

  /// The same handles afterwards, made again at the new size, and the bind groups that bind the
  /// view with them; the contents start cleared. Same size is a no-op. Zero area is refused;
  /// other errors as create's, and then the target keeps its size.
  Result<void> resize(uint32_t width, uint32_t height);
  /// Destroys both handles (deferred like any owned object).
  void destroy();

  /// The texture (for readback or sampling).
  TextureHandle texture() const { return texture_; }
  /// The view a render pass attaches.
  TextureViewHandle view() const { return view_; }
  /// Pixels across.
  uint32_t width() const { return desc_.width; }
  /// Rows.
  uint32_t height() const { return desc_.height; }
  /// The colour format.
  WGPUTextureFormat format() const { return desc_.format; }

 private:
  RenderTarget(resources::Registry& registry, RenderTargetDescription desc) : registry_(&registry), desc_(std::move(desc)) {}
  resources::Registry* registry_;
  RenderTargetDescription desc_;
  TextureHandle texture_;
  TextureViewHandle view_;
};

}  // namespace warden::present
