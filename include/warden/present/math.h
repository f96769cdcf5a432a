// The little linear algebra presentation needs: vectors, column-major 4x4 matrices (the layout
// WGSL's mat4x4<f32> reads from a buffer), and projections. Right-handed view space looking down
// -z; clip depth in [0, 1] as WebGPU defines it.
#pragma once

#include <array>

namespace warden::present {

struct Vec3 {
  float x = 0, y = 0, z = 0;
};
Vec3 operator+(Vec3 a, Vec3 b);
Vec3 operator-(Vec3 a, Vec3 b);
Vec3 operator*(Vec3 a, float s);
float dot(Vec3 a, Vec3 b);
Vec3 cross(Vec3 a, Vec3 b);
Vec3 normalize(Vec3 a);

struct Vec4 {
  float x = 0, y = 0, z = 0, w = 0;
};

struct Mat4 {
  std::array<float, 16> m{};  ///< m[column * 4 + row]
  float& at(int row, int column) { return m[column * 4 + row]; }
  float at(int row, int column) const { return m[column * 4 + row]; }
  static Mat4 identity();
};
Mat4 operator*(const Mat4& a, const Mat4& b);
Vec4 operator*(const Mat4& a, Vec4 v);

Mat4 translation(Vec3 offset);
Mat4 rotation_x(float radians);
Mat4 rotation_y(float radians);
Mat4 look_at(Vec3 eye, Vec3 target, Vec3 up);

/// Reverse-Z with the far plane at infinity (seeds' ADR-0009 decision 6): depth = near / distance,
/// 1 at the near plane, falling towards 0 with distance. Float depth keeps about the same relative
/// precision at every distance this way; compare with GreaterEqual and clear to 0 (depth.h).
Mat4 perspective_reverse_z_infinite(float fovy_radians, float aspect, float near);
/// The conventional mapping, for comparison only: depth 0 at `near`, 1 at `far`, compare Less.
Mat4 perspective_standard(float fovy_radians, float aspect, float near, float far);

}  // namespace warden::present
