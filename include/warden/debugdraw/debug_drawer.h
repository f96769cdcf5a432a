/// @file
/// DebugDrawer: the GPU side of debug drawing (docs/design.md, presenting rule P3). One line-list
/// pipeline; one buffer holding the frame's matrix and its vertices, written with ONE upload a
/// frame; the buffer doubles (Registry::recreate_buffer, same handle) when the lines outgrow it
/// and is reused otherwise, so `grows()` stays flat in steady state. Every object lives in the
/// Registry with its recipe, so a device loss gives every one back under its handle.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "warden/debugdraw/line_list.h"
#include "warden/present/depth.h"
#include "warden/resources/registry.h"

namespace warden::debugdraw {

/// How a DebugDrawer's pipeline is built.
struct DebugDrawerOptions {
  /// The format of the pass's colour target.
  WGPUTextureFormat colour_format = WGPUTextureFormat_RGBA8Unorm;
  /// Test against the pass's reverse-Z depth (present::kDepthFormat) without writing it;
  /// false: the pass has no depth attachment and lines draw over everything.
  bool depth_test = true;
  uint64_t initial_capacity_bytes = 4096;  ///< matrix block included
  /// Label of its objects.
  std::string label = "debug draw";
};

/// Draws a LineList: one pipeline, one buffer that doubles when full, one upload per frame.
class DebugDrawer {
 public:
  /// Makes the pipeline and buffer in `registry`, which must outlive the drawer.
  static Result<std::unique_ptr<DebugDrawer>> create(resources::Registry& registry, DebugDrawerOptions options = {});
  ~DebugDrawer();  ///< destroys its handles (deferred like any owned object)
  DebugDrawer(const DebugDrawer&) = delete;
  DebugDrawer& operator=(const DebugDrawer&) = delete;

  /// The frame's one upload: `clip_from_world` and the lines, in one write_buffer. Grows the
  /// buffer first when they do not fit.
  Result<void> upload(const LineList& lines, const present::Mat4& clip_from_world);
  /// Records the uploaded lines into an open pass whose formats match the options; nothing
  /// while one of its objects has no GPU object (a device refused to make it again).
  void draw(WGPURenderPassEncoder pass);

  /// Times the buffer was replaced by a larger one.
  uint64_t grows() const { return grows_; }
  /// upload() calls that wrote.
  uint64_t uploads() const { return uploads_; }
  /// The buffer's size now.
  uint64_t capacity_bytes() const { return capacity_; }
  /// The buffer (matrix, then vertices).
  BufferHandle buffer() const { return buffer_; }

  /// Where the vertices start in the buffer: after the matrix, at a uniform-offset boundary.
  static constexpr uint64_t kVertexOffset = 256;

 private:
  DebugDrawer(resources::Registry& registry, DebugDrawerOptions options) : registry_(registry), options_(std::move(options)) {}
  Result<void> build();
  Result<void> grow_to(uint64_t needed);
  resources::BufferDescription buffer_description(uint64_t size);

  resources::Registry& registry_;
  DebugDrawerOptions options_;
  ShaderModuleHandle shader_;
  BindGroupLayoutHandle group_layout_;
  PipelineLayoutHandle pipeline_layout_;
  RenderPipelineHandle pipeline_;
  BufferHandle buffer_;
  BindGroupHandle bind_group_;
  uint64_t capacity_ = 0;
  uint64_t grows_ = 0;
  uint64_t uploads_ = 0;
  uint32_t vertex_count_ = 0;
  std::vector<uint8_t> staging_;  // matrix + vertices, kept between frames
};

}  // namespace warden::debugdraw
