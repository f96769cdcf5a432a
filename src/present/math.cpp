#include "warden/present/math.h"

#include <cmath>

namespace warden::present {

Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
Vec3 cross(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
Vec3 normalize(Vec3 a) {
  const float length = std::sqrt(dot(a, a));
  return length > 0 ? a * (1.0f / length) : a;
}

Mat4 Mat4::identity() {
  Mat4 r;
  for (int i = 0; i < 4; ++i) r.at(i, i) = 1;
  return r;
}

Mat4 operator*(const Mat4& a, const Mat4& b) {
  Mat4 r;
  for (int row = 0; row < 4; ++row)
    for (int column = 0; column < 4; ++column) {
      float sum = 0;
      for (int k = 0; k < 4; ++k) sum += a.at(row, k) * b.at(k, column);
      r.at(row, column) = sum;
    }
  return r;
}

Vec4 operator*(const Mat4& a, Vec4 v) {
  const float in[4] = {v.x, v.y, v.z, v.w};
  float out[4] = {};
  for (int row = 0; row < 4; ++row)
    for (int k = 0; k < 4; ++k) out[row] += a.at(row, k) * in[k];
  return {out[0], out[1], out[2], out[3]};
}

Mat4 translation(Vec3 offset) {
  Mat4 r = Mat4::identity();
  r.at(0, 3) = offset.x;
  r.at(1, 3) = offset.y;
  r.at(2, 3) = offset.z;
  return r;
}

Mat4 rotation_x(float radians) {
  Mat4 r = Mat4::identity();
  const float c = std::cos(radians), s = std::sin(radians);
  r.at(1, 1) = c;
  r.at(1, 2) = -s;
  r.at(2, 1) = s;
  r.at(2, 2) = c;
  return r;
}

Mat4 rotation_y(float radians) {
  Mat4 r = Mat4::identity();
  const float c = std::cos(radians), s = std::sin(radians);
  r.at(0, 0) = c;
  r.at(0, 2) = s;
  r.at(2, 0) = -s;
  r.at(2, 2) = c;
  return r;
}

Mat4 look_at(Vec3 eye, Vec3 target, Vec3 up) {
  const Vec3 forward = normalize(target - eye);
  const Vec3 right = normalize(cross(forward, up));
  const Vec3 true_up = cross(right, forward);
  Mat4 r = Mat4::identity();
  r.at(0, 0) = right.x;
  r.at(0, 1) = right.y;
  r.at(0, 2) = right.z;
  r.at(1, 0) = true_up.x;
  r.at(1, 1) = true_up.y;
  r.at(1, 2) = true_up.z;
  r.at(2, 0) = -forward.x;
  r.at(2, 1) = -forward.y;
  r.at(2, 2) = -forward.z;
  r.at(0, 3) = -dot(right, eye);
  r.at(1, 3) = -dot(true_up, eye);
  r.at(2, 3) = dot(forward, eye);
  return r;
}

Mat4 perspective_reverse_z_infinite(float fovy_radians, float aspect, float near) {
  const float f = 1.0f / std::tan(fovy_radians / 2);
  Mat4 r;
  r.at(0, 0) = f / aspect;
  r.at(1, 1) = f;
  r.at(2, 3) = near;  // clip z = near, clip w = -z_view: depth = near / distance
  r.at(3, 2) = -1;
  return r;
}

Mat4 perspective_standard(float fovy_radians, float aspect, float near, float far) {
  const float f = 1.0f / std::tan(fovy_radians / 2);
  Mat4 r;
  r.at(0, 0) = f / aspect;
  r.at(1, 1) = f;
  r.at(2, 2) = far / (near - far);
  r.at(2, 3) = near * far / (near - far);
  r.at(3, 2) = -1;
  return r;
}

}  // namespace warden::present
