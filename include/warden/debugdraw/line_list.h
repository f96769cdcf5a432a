/// @file
/// LineList: the CPU side of debug drawing (docs/design.md, presenting rule P3). Calls append vertices to
/// one vector; clear() keeps its capacity, so a steady set of lines allocates nothing per frame.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "warden/present/math.h"

namespace warden::debugdraw {

using present::Mat4;
using present::Vec3;

/// 8-bit RGBA packed with red in the low byte: the order WGSL's unpack4x8unorm reads.
using Colour = uint32_t;
/// Packs a Colour.
constexpr Colour rgba(uint8_t r, uint8_t g, uint8_t b, uint8_t a = 255) {
  return uint32_t{r} | uint32_t{g} << 8 | uint32_t{b} << 16 | uint32_t{a} << 24;
}
/// Colours at full alpha.
///@{
inline constexpr Colour kRed = rgba(255, 0, 0), kGreen = rgba(0, 255, 0), kBlue = rgba(0, 0, 255),
                        kWhite = rgba(255, 255, 255), kYellow = rgba(255, 255, 0);
///@}

/// What the GPU reads: 16 bytes a vertex.
struct LineVertex {
  /// The position, world units.
  ///@{
  float x = 0, y = 0, z = 0;
  ///@}
  /// The colour.
  Colour colour = 0;
};
static_assert(sizeof(LineVertex) == 16);

/// Lines collected on the CPU during a frame, as pairs of LineVertex.
class LineList {
 public:
  /// One line from `a` to `b`.
  void line(Vec3 a, Vec3 b, Colour colour);
  /// The 12 edges of an axis-aligned box.
  void box(Vec3 min, Vec3 max, Colour colour);
  /// x red, y green, z blue, each `length` long from `origin`.
  void axes(Vec3 origin, float length);
  /// The 12 edges of a camera's view volume: a perspective camera placed by `world_from_view`
  /// (right-handed, looking down -z) with the given vertical field of view, aspect, near, far.
  void frustum(const Mat4& world_from_view, float fovy_radians, float aspect, float near, float far, Colour colour);

  /// Empties the list, keeping its storage.
  void clear() { vertices_.clear(); }
  /// Two vertices per line, in the order added.
  std::span<const LineVertex> vertices() const { return vertices_; }
  /// Lines in the list.
  size_t line_count() const { return vertices_.size() / 2; }

 private:
  std::vector<LineVertex> vertices_;
};

}  // namespace warden::debugdraw
