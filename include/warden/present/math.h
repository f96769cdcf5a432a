/// @file
/// The little linear algebra presentation needs: vectors, column-major 4x4 matrices (the layout
/// WGSL's mat4x4<f32> reads from a buffer), and projections. Right-handed view space looking down
/// -z; clip depth in [0, 1] as WebGPU defines it.
#pragma once

#include <array>

namespace warden::present {

/// A point or direction in 3D.
struct Vec3 {
  /// The coordinates.
  ///@{
  float x = 0, y = 0, z = 0;
  ///@}
};
/// Component-wise sum.
Vec3 operator+(Vec3 a, Vec3 b);
/// Component-wise difference.
Vec3 operator-(Vec3 a, Vec3 b);
/// `a` scaled by `s`.
Vec3 operator*(Vec3 a, float s);
/// The dot product.
float dot(Vec3 a, Vec3 b);
/// The cross product (right-handed).
Vec3 cross(Vec3 a, Vec3 b);
/// `a` scaled to length 1.
Vec3 normalize(Vec3 a);

/// A homogeneous point (w = 1) or direction (w = 0).
struct Vec4 {
  /// The coordinates.
  ///@{
  float x = 0, y = 0, z = 0, w = 0;
  ///@}
};

/// A 4x4 float matrix, column-major as WGSL's mat4x4f reads it.
struct Mat4 {
  std::array<float, 16> m{};  ///< m[column * 4 + row]
  /// The element at `row`, `column`.
  ///@{
  float& at(int row, int column) { return m[column * 4 + row]; }
  float at(int row, int column) const { return m[column * 4 + row]; }
  ///@}
  /// The identity matrix.
  static Mat4 identity();
};
/// The product: `b` applied first, then `a`.
Mat4 operator*(const Mat4& a, const Mat4& b);
/// `v` transformed by `a`.
Vec4 operator*(const Mat4& a, Vec4 v);

/// A translation by `offset`.
Mat4 translation(Vec3 offset);
/// A rotation about the x axis (right-handed).
Mat4 rotation_x(float radians);
/// A rotation about the y axis (right-handed).
Mat4 rotation_y(float radians);
/// The view matrix of a camera at `eye` looking at `target` (right-handed, looking down -z).
Mat4 look_at(Vec3 eye, Vec3 target, Vec3 up);

/// Reverse-Z with the far plane at infinity (docs/design.md, presenting rule P4): depth = near / distance,
/// 1 at the near plane, falling towards 0 with distance. Float depth keeps about the same relative
/// precision at every distance this way; compare with GreaterEqual and clear to 0 (depth.h).
Mat4 perspective_reverse_z_infinite(float fovy_radians, float aspect, float near);
/// The conventional mapping: depth 0 at `near`, 1 at `far`; compare Less and clear to 1
/// (standard_depth_state() and standard_depth_attachment(), depth.h).
Mat4 perspective_standard(float fovy_radians, float aspect, float near, float far);

}  // namespace warden::present
