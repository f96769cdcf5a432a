// The smoke job: proves a backend computes and renders correctly, end to end, with readbacks.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "warden/core/result.h"
#include "warden/gpu/context.h"

namespace warden::app {

/// What the smoke job saw.
struct SmokeReport {
  /// Compute: 1,048,576 u32 values doubled on the GPU and checked one by one.
  uint32_t compute_elements = 0;
  /// Values that came back wrong.
  uint32_t compute_mismatches = 0;
  double compute_ms = 0;  ///< dispatch + copy + readback, wall clock
  /// Render: a triangle into a 64x64 RGBA8 target.
  std::array<uint8_t, 4> center_pixel{};
  /// The RGBA read at a corner, outside the triangle.
  std::array<uint8_t, 4> corner_pixel{};
  /// The triangle's colour.
  std::array<uint8_t, 4> expected_triangle{};
  /// The clear colour.
  std::array<uint8_t, 4> expected_clear{};
  /// Every value came back doubled.
  bool compute_ok() const { return compute_elements > 0 && compute_mismatches == 0; }
  /// Centre and corner show the triangle and the clear colour.
  bool render_ok() const { return center_pixel == expected_triangle && corner_pixel == expected_clear; }
  /// Both halves are right.
  bool ok() const { return compute_ok() && render_ok(); }
};

/// Values the compute half doubles.
inline constexpr uint32_t kSmokeComputeElements = 1u << 20;
/// Width and height of the render half's target.
inline constexpr uint32_t kSmokeTargetSize = 64;

/// Runs both halves on `device`. An Error means the job could not run at all; a report with
/// ok() == false means it ran and produced wrong results.
Result<SmokeReport> run_smoke(const gpu::Context& ctx, WGPUDevice device);

}  // namespace warden::app
