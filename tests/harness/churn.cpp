#include "harness/churn.h"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "warden/pipelines/build.h"

namespace warden::resources {

Result<ChurnReport> run_churn_frames(Registry& reg, uint32_t frames) {
  const gpu::Procs& p = reg.procs();
  auto fail = [](const char* what, const Error& e) {
    return make_error(e.kind, fmt::format("churn: {}: {}", what, e.message));
  };
  const resources::LayoutEntry entries[] = {
      {.binding = 0, .visibility = WGPUShaderStage_Fragment, .type = resources::BufferLayout{}},
      {.binding = 1, .visibility = WGPUShaderStage_Fragment, .type = resources::TextureLayout{}},
  };
  auto layout = reg.create_bind_group_layout(pipelines::translate_layout_entries(entries), "churn layout");
  if (!layout) return fail("layout", layout.error());
  auto source = reg.create_buffer({256, WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, false, "churn source"});
  if (!source) return fail("source buffer", source.error());

  const std::array<float, 64> uniforms{};
  const std::array<uint8_t, 4 * 4 * 4> texels{};
  ChurnReport report;
  const uint64_t waits_before = gpu::blocking_wait_count();
  for (uint32_t frame = 0; frame < frames; ++frame) {
    auto buffer = reg.create_buffer({256, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, false, "frame uniforms"});
    if (!buffer) return fail("frame buffer", buffer.error());
    auto texture = reg.create_texture({.size = {4, 4, 1},
                                       .usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst,
                                       .label = "frame texture"});
    if (!texture) return fail("frame texture", texture.error());
    auto view = reg.create_texture_view(*texture, {.label = "frame view"});
    if (!view) return fail("frame view", view.error());
    auto group = reg.create_bind_group({*layout, {{0, BufferBinding{*buffer}}, {1, *view}}, "frame group"});
    if (!group) return fail("frame group", group.error());
    if (auto w = reg.write_buffer(*buffer, 0, uniforms.data(), sizeof(uniforms)); !w) return fail("write_buffer", w.error());
    if (auto w = reg.write_texture(*texture, {.size = {4, 4, 1}, .bytes_per_row = 16}, texels.data(), texels.size()); !w) {
      return fail("write_texture", w.error());
    }

    WGPUCommandEncoder encoder = p.DeviceCreateCommandEncoder(reg.device(), nullptr);
    p.CommandEncoderCopyBufferToBuffer(encoder, *reg.resolve(*source), 0, *reg.resolve(*buffer), 0, 64);
    reg.touch(*source);
    reg.touch(*group);  // and through it the buffer, view and texture
    WGPUCommandBuffer commands = p.CommandEncoderFinish(encoder, nullptr);
    // Destroyed while the frame's submission is recorded: the handles die now, the objects
    // once that submission retired.
    (void)reg.destroy_bind_group(*group);
    (void)reg.destroy_texture_view(*view);
    (void)reg.destroy_texture(*texture);
    (void)reg.destroy_buffer(*buffer);
    report.last_submitted = reg.submit(commands);
    p.CommandBufferRelease(commands);
    p.CommandEncoderRelease(encoder);
    report.max_pending_releases = std::max(report.max_pending_releases, reg.pending_release_count());
    reg.poll();
    ++report.frames;
  }
  report.blocking_waits = gpu::blocking_wait_count() - waits_before;
  report.retired = reg.clock().retired();
  report.live_after = reg.live_counts();
  (void)reg.destroy_buffer(*source);
  (void)reg.destroy_bind_group_layout(*layout);
  return report;
}

}  // namespace warden::resources
