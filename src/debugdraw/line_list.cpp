#include "warden/debugdraw/line_list.h"

#include <array>
#include <cmath>

namespace warden::debugdraw {
namespace {

// The 12 edges of a box whose 8 corners are numbered by bits (x: 1, y: 2, z: 4).
constexpr std::array<std::array<int, 2>, 12> kBoxEdges = {{
    {0, 1}, {2, 3}, {4, 5}, {6, 7},  // along x
    {0, 2}, {1, 3}, {4, 6}, {5, 7},  // along y
    {0, 4}, {1, 5}, {2, 6}, {3, 7},  // along z
}};

Vec3 transform_point(const Mat4& m, Vec3 p) {
  const present::Vec4 r = m * present::Vec4{p.x, p.y, p.z, 1};
  return {r.x, r.y, r.z};
}

}  // namespace

void LineList::line(Vec3 a, Vec3 b, Colour colour) {
  vertices_.push_back({a.x, a.y, a.z, colour});
  vertices_.push_back({b.x, b.y, b.z, colour});
}

void LineList::box(Vec3 min, Vec3 max, Colour colour) {
  std::array<Vec3, 8> corners;
  for (int i = 0; i < 8; ++i) {
    corners[i] = {(i & 1) ? max.x : min.x, (i & 2) ? max.y : min.y, (i & 4) ? max.z : min.z};
  }
  for (const auto& [a, b] : kBoxEdges) line(corners[a], corners[b], colour);
}

void LineList::axes(Vec3 origin, float length) {
  line(origin, origin + Vec3{length, 0, 0}, kRed);
  line(origin, origin + Vec3{0, length, 0}, kGreen);
  line(origin, origin + Vec3{0, 0, length}, kBlue);
}

void LineList::frustum(const Mat4& world_from_view, float fovy_radians, float aspect, float near, float far,
                       Colour colour) {
  const float tan_half = std::tan(fovy_radians / 2);
  std::array<Vec3, 8> corners;
  for (int i = 0; i < 8; ++i) {
    const float distance = (i & 4) ? far : near;
    const float half_height = distance * tan_half;
    const float half_width = half_height * aspect;
    const Vec3 in_view{(i & 1) ? half_width : -half_width, (i & 2) ? half_height : -half_height, -distance};
    corners[i] = transform_point(world_from_view, in_view);
  }
  for (const auto& [a, b] : kBoxEdges) line(corners[a], corners[b], colour);
}

}  // namespace warden::debugdraw
