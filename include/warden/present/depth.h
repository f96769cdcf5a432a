/// @file
/// The depth convention, baked in (docs/design.md, presenting rule P4; docs/presentation.md):
///   format    Depth32Float: reverse-Z pays off only with a float depth buffer, whose precision
///             is densest near 0, where reverse-Z puts the far distances;
///   clear     0.0 (the far end, at infinity);
///   compare   GreaterEqual (nearer is larger);
///   project   perspective_reverse_z_infinite() (math.h).
/// Using Less or a clear of 1.0 with this projection draws nothing or the wrong surface in
/// front: the three travel together, so take them from here.
///
/// A pass with the conventional mapping (perspective_standard(): depth 0 at near, 1 at far)
/// takes the other set, standard_depth_*(): clear 1.0, compare Less, the same format. Written
/// out by hand, the zeroed structs are the hazard: a depth clear of 0.0 with Less passes no
/// fragment, and an undefined compare or write is a validation error.
#pragma once

#include "warden/resources/descriptions.h"
#include "warden/gpu/abi.h"

namespace warden::present {

/// The depth format warden's passes use.
inline constexpr WGPUTextureFormat kDepthFormat = WGPUTextureFormat_Depth32Float;
/// Reverse Z: the far plane is depth 0, so depth clears to 0.
inline constexpr float kReverseZClearDepth = 0.0f;
/// Reverse Z: nearer is greater.
inline constexpr WGPUCompareFunction kReverseZCompare = WGPUCompareFunction_GreaterEqual;

/// Depth test on, GreaterEqual; writes depth unless `write` is false (overlays such as debug lines).
WGPUDepthStencilState reverse_z_depth_state(bool write = true);
/// The same, as the depth of a pipeline description (what Registry::create_render_pipeline takes).
resources::DepthState reverse_z_depth(bool write = true);
/// A depth attachment cleared to 0.0 and stored.
WGPURenderPassDepthStencilAttachment reverse_z_depth_attachment(WGPUTextureView view);

/// Conventional depth: the far plane is depth 1, so depth clears to 1.
inline constexpr float kStandardClearDepth = 1.0f;
/// Conventional depth: nearer is smaller.
inline constexpr WGPUCompareFunction kStandardCompare = WGPUCompareFunction_Less;

/// Depth test on, Less, in kDepthFormat; writes depth unless `write` is false.
WGPUDepthStencilState standard_depth_state(bool write = true);
/// The same, as the depth of a pipeline description (what Registry::create_render_pipeline takes).
resources::DepthState standard_depth(bool write = true);
/// A depth attachment cleared to 1.0 and stored.
WGPURenderPassDepthStencilAttachment standard_depth_attachment(WGPUTextureView view);

}  // namespace warden::present
