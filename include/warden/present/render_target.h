/// @file
/// RenderTarget: an offscreen colour target of any size and format, kept under one texture handle
/// and one view handle for its whole life. resize() makes a new texture and view and swaps them
/// in with replace_* (the old ones go once their last submission retired), so whatever holds the
/// handles (bind groups aside) keeps working.
#pragma once

#include <cstdint>
#include <string>

#include "warden/resources/registry.h"

namespace warden::present {

/// What a RenderTarget is made of.
struct RenderTargetDescription {
  /// Pixels across; not 0.
  uint32_t width = 0;
  /// Rows; not 0.
  uint32_t height = 0;
  /// The colour format.
  gpu::TextureFormat format = gpu::TextureFormat::RGBA8Unorm;
  /// CopySrc: read back; TextureBinding: sampled by a later pass.
  gpu::Flags usage = gpu::TextureUsage::RenderAttachment | gpu::TextureUsage::CopySrc |
                     gpu::TextureUsage::TextureBinding;
  /// Label of the texture and its view.
  std::string label = "render target";
};

/// An offscreen colour texture and its view, owned by a Registry: what a pass draws into without a window.
class RenderTarget {
 public:
  /// Errors: zero area, or the registry's (pool full, device refused).
  static Result<RenderTarget> create(resources::Registry& registry, const RenderTargetDescription& desc);

  /// The same handles afterwards; same size is a no-op. Zero area is refused.
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
  gpu::TextureFormat format() const { return desc_.format; }

 private:
  RenderTarget(resources::Registry& registry, RenderTargetDescription desc) : registry_(&registry), desc_(std::move(desc)) {}
  resources::Registry* registry_;
  RenderTargetDescription desc_;
  TextureHandle texture_;
  TextureViewHandle view_;
};

}  // namespace warden::present
