// Recovery against a cold start, through the Engine (issue 11's benchmark).
//
// A resident set of T textures (512x512 RGBA8, full mip chain, contents kept by warden), 16
// uniform buffers and 32 render pipelines; one frame draws a quad per texture, each with its
// own bind group and one of the pipelines, into a 256x256 target that is read back.
//   recovery_ms     from force_device_loss to the first frame identical to the one before
//   cold_start_ms   a fresh Engine: device, the same objects made and filled, the first frame
//   recovery_vs_cold_start   their ratio (target <= 0.3)
// and the recovery's parts, as the Engine measured them (Engine::last_recovery()):
//   recovery_device_request_ms, recovery_rebuild_ms, recovery_rebuild_<kind>s_ms (each kind
//   made again), recovery_contents_ms, recovery_pipelines_ms (render pipelines made again),
//   recovery_callbacks_ms, recovery_first_frame_ms (ready to the first submit),
//   recovery_contents_path (how kept texture contents went: "staging" or "write-texture", ADR
//   0058), recovery_lost_device_end_ms (ending the lost device, in the poll after the first
//   frame: off the recovery's path, the cost of the frame after it), and
//   recovery_readback_ms (what the benchmark adds: the readback, and frames that differed)
// for T = 64 (plain keys), 16 (_16) and 256 (_256); each the median of a few runs (the parts
// are those of the median run). The same again with a standby device (EngineOptions::
// standby_device, ADR 0031), which the recovery adopts instead of requesting one:
//   recovery_standby_ms, recovery_standby_vs_cold_start (against the same cold start: the spare
//   is asked for only after the first frame), recovery_standby_device_request_ms (what is left
//   of the request: adopting the spare), standby_poll_ms (the longest poll() while the spare
//   was made: the frame it costs, after the first frame, with the pipelines made on the spare
//   then, ADR 0034), standby_prepare_polls (the polls from asking for the spare until
//   Engine::standby_prepared(): a step of its preparation each, ADR 0058), and the recovery's parts with the spare: recovery_standby_rebuild_ms,
//   _first_frame_ms, _pipelines_ms (what the recovery still made: 0 when it took those made on
//   the spare), _textures_ms, _contents_ms, _contents_path (the path measured faster on the
//   spare), _lost_device_end_ms, _staged_ahead_bytes (kept contents staged on the spare when it
//   was prepared, EngineOptions::standby_contents_bytes, and only copied by the recovery),
//   _readback_ms (what the benchmark adds after the first frame: the readback, which waits for
//   the GPU to finish the recovery's copies and the frame, and any frame that still differed); standby_rehearsed_draws, the draws made on the spare
//   ahead of the loss so that its first frame finds the GL driver's draw-time code (ADR 0044;
//   0 on other backends). And once more with the textures made on the spare too
//   (EngineOptions::standby_texture_bytes, ADR 0045, a budget that holds them all):
//   recovery_standby_held_ms, recovery_standby_held_vs_cold_start, its _textures_ms (what the
//   recovery still made), _contents_ms and _first_frame_ms, standby_held_poll_ms and
//   standby_held_texture_bytes (the second copy the spare held)
// And the bound beside the figures: the bytes a recovery writes back (recovery_kept_bytes:
// every level of every texture, and each buffer's parameters); the bandwidth of the two upload
// paths on the same backend, measured at the start of the same run (recovery_ring_gbps and
// recovery_writetexture_gbps: tiles::measure_upload_paths, 64 tiles of 512x512 RGBA8, best of
// 5), and the faster of them (recovery_bus_gbps, recovery_bus_path: the ring on the H200's
// Vulkan, writeTexture on GL here); their quotient recovery_bound_ms, the time no recovery of
// those contents can beat on that bus; and each recovery over it: recovery_over_bound,
// recovery_standby_over_bound, recovery_standby_held_over_bound. recovery_paths: "ADR 0058", or
// "as before ADR 0058" when WARDEN_RECOVERY_AS_BEFORE=1 (writeTexture, the lost device ended
// first): the baseline, run by the same binary on the same machine.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench_support.h"
#include "warden/engine/engine.h"
#include "warden/present/readback.h"
#include "warden/gpu/names.h"
#include "warden/gpu/objects.h"
#include "warden/pipelines/build.h"
#include "warden/tiles/upload_ring.h"

namespace {

using namespace warden;
using Clock = std::chrono::steady_clock;

constexpr uint32_t kTextureSize = 512;
constexpr uint32_t kMipLevels = 10;
constexpr uint32_t kBuffers = 16;
constexpr uint32_t kPipelines = 32;
constexpr uint32_t kTarget = 256;

constexpr const char* kShader = R"(
override tint : f32 = 1.0;
struct Params { scale : vec4<f32> };
@group(0) @binding(0) var<uniform> params : Params;
@group(0) @binding(1) var t : texture_2d<f32>;
@group(0) @binding(2) var s : sampler;
struct Out { @builtin(position) p : vec4<f32>, @location(0) uv : vec2<f32> };
@vertex fn vs(@builtin(vertex_index) i : u32, @builtin(instance_index) cell : u32) -> Out {
  let corners = array<vec2<f32>, 6>(vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(0.0, 1.0),
                                    vec2(0.0, 1.0), vec2(1.0, 0.0), vec2(1.0, 1.0));
  let side = params.scale.x;
  let origin = vec2<f32>(f32(cell % u32(side)), f32(cell / u32(side))) / side;
  let xy = (origin + corners[i] / side) * 2.0 - 1.0;
  return Out(vec4<f32>(xy, 0.0, 1.0), corners[i]);
}
@fragment fn fs(v : Out) -> @location(0) vec4<f32> {
  return textureSampleLevel(t, s, v.uv, 3.0) * vec4<f32>(tint, params.scale.y, 1.0, 1.0);
}
)";

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct ResidentSet {
  std::vector<BindGroupHandle> groups;  // one per texture
  std::vector<RenderPipelineHandle> pipelines;
  TextureHandle target;
  TextureViewHandle target_view;
  uint32_t side = 1;
};

template <typename T>
T take(Result<T> r) {
  if (!r) throw std::runtime_error(r.error().message);
  return std::move(r.value());
}

ResidentSet build(engine::Engine& engine, uint32_t textures) {
  resources::Registry& reg = engine.registry();
  ResidentSet set;
  set.side = static_cast<uint32_t>(std::ceil(std::sqrt(static_cast<double>(textures))));
  std::vector<BufferHandle> buffers;
  for (uint32_t i = 0; i < kBuffers; ++i) {
    buffers.push_back(take(reg.create_buffer({4096, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, false,
                                              fmt::format("params {}", i)})));
    const float params[4] = {static_cast<float>(set.side), 0.25f + 0.05f * static_cast<float>(i), 0, 0};
    if (auto w = reg.write_buffer(buffers.back(), 0, params, sizeof params); !w) throw std::runtime_error(w.error().message);
  }
  auto module = take(reg.create_shader_module(kShader, "recovery shader"));
  const resources::LayoutEntry entries[] = {
      {.binding = 0, .visibility = WGPUShaderStage_Vertex | WGPUShaderStage_Fragment, .type = resources::BufferLayout{}},
      {.binding = 1, .visibility = WGPUShaderStage_Fragment, .type = resources::TextureLayout{}},
      {.binding = 2, .visibility = WGPUShaderStage_Fragment, .type = resources::SamplerLayout{}},
  };
  auto layout = take(reg.create_bind_group_layout(pipelines::translate_layout_entries(entries), "recovery layout"));
  BindGroupLayoutHandle layouts[] = {layout};
  auto pipeline_layout = take(reg.create_pipeline_layout(layouts, "recovery pipeline layout"));
  for (uint32_t i = 0; i < kPipelines; ++i) {
    resources::RenderPipelineDescription d{.label = fmt::format("pipeline {}", i), .layout = pipeline_layout,
                                .vertex = {module, "vs", {}}};
    d.fragment = resources::ShaderStage{module, "fs", {{"tint", 0.2 + 0.025 * i}}};
    d.targets = {resources::ColorTarget{}};
    set.pipelines.push_back(take(reg.create_render_pipeline(d)));
  }
  auto sampler = take(reg.create_sampler({.min_filter = WGPUFilterMode_Linear, .label = "recovery sampler"}));
  std::vector<uint8_t> texels(size_t{kTextureSize} * kTextureSize * 4);
  for (uint32_t t = 0; t < textures; ++t) {
    auto texture = take(reg.create_texture({.size = {kTextureSize, kTextureSize, 1},
                                            .usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst,
                                            .mip_level_count = kMipLevels,
                                            .label = fmt::format("texture {}", t)}));
    for (uint32_t level = 0; level < kMipLevels; ++level) {
      const uint32_t side = kTextureSize >> level;
      for (uint32_t i = 0; i < side * side; ++i) {
        texels[i * 4 + 0] = static_cast<uint8_t>(t * 37 + level * 20);
        texels[i * 4 + 1] = static_cast<uint8_t>((i % side) * 255 / side);
        texels[i * 4 + 2] = static_cast<uint8_t>((i / side) * 255 / side);
        texels[i * 4 + 3] = 255;
      }
      resources::TextureWrite where{.mip_level = level, .size = {side, side, 1}, .bytes_per_row = side * 4};
      if (auto w = reg.write_texture(texture, where, texels.data(), size_t{side} * side * 4); !w) {
        throw std::runtime_error(w.error().message);
      }
    }
    auto view = take(reg.create_texture_view(texture));
    set.groups.push_back(take(reg.create_bind_group(
        {layout, {{0, resources::BufferBinding{buffers[t % kBuffers]}}, {1, view}, {2, sampler}}, fmt::format("group {}", t)})));
  }
  set.target = take(reg.create_texture({.size = {kTarget, kTarget, 1},
                                        .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc,
                                        .label = "recovery target"}));
  set.target_view = take(reg.create_texture_view(set.target));
  return set;
}

// One frame and its readback; empty while the engine has no device.
std::vector<uint8_t> frame(engine::Engine& engine, const ResidentSet& set) {
  resources::Registry& reg = engine.registry();
  auto f = engine.begin_frame();
  if (!f) return {};
  const gpu::Procs& p = engine.procs();
  WGPURenderPassEncoder pass = gpu::begin_clear_pass(p, f->encoder(), *reg.resolve(set.target_view));
  for (uint32_t i = 0; i < set.groups.size(); ++i) {
    p.RenderPassEncoderSetPipeline(pass, *reg.resolve(set.pipelines[i % kPipelines]));
    p.RenderPassEncoderSetBindGroup(pass, 0, *reg.resolve(set.groups[i]), 0, nullptr);
    p.RenderPassEncoderDraw(pass, 6, 1, 0, i);
    reg.touch(set.groups[i]);
  }
  p.RenderPassEncoderEnd(pass);
  p.RenderPassEncoderRelease(pass);
  if (!engine.submit(std::move(*f))) return {};
  auto image = present::read_image(engine.context(), reg, set.target);
  return image ? std::move(image->rgba) : std::vector<uint8_t>{};
}

// What a recovery of `textures` writes back: every level of every texture, and the parameters
// written into each buffer (build()).
uint64_t kept_bytes(uint32_t textures) {
  uint64_t chain = 0;
  for (uint32_t level = 0; level < kMipLevels; ++level) {
    const uint64_t side = kTextureSize >> level;
    chain += side * side * 4;
  }
  return uint64_t{textures} * chain + uint64_t{kBuffers} * 4 * sizeof(float);
}

// The bus a recovery writes its contents over, measured on a device of the backend the engines
// get, before they run: the ring's and queue.writeTexture's bandwidth, GB/s.
Result<tiles::UploadMeasurement> measure_bus() {
  auto ctx = gpu::Context::create();
  if (!ctx) return ctx.error();
  auto opened = bench::open_bench_device(*ctx.value());
  if (!opened) return opened.error();
  auto measured = tiles::measure_upload_paths(*ctx.value(), opened->device.get(), opened->queue.get(), 512, 64, 5);
  opened->queue.reset();
  opened->device.reset();
  ctx.value()->process_events();
  return measured;
}

// The held mode's budget: every texture of the largest set, with room to spare.
constexpr uint64_t kHeldTextureBytes = uint64_t{1} << 30;

// WARDEN_RECOVERY_AS_BEFORE=1: the recovery's paths as they were before ADR 0058 (kept contents
// by writeTexture, the lost device ended before the new one is prepared), so that a run can
// measure its own baseline on the same machine.
bool as_before() {
  const char* set = std::getenv("WARDEN_RECOVERY_AS_BEFORE");
  return set != nullptr && std::string_view(set) == "1";
}

engine::EngineOptions options(gpu::BackendChoice backend, bool standby, uint64_t standby_texture_bytes) {
  engine::EngineOptions o;
  if (as_before()) {
    o.registry.contents_upload = resources::ContentsUpload::WriteTexture;
    o.end_lost_device_after_first_frame = false;
    o.standby_contents_bytes = 0;
  }
  o.device.backend = backend;
  o.standby_device = standby;
  o.standby_texture_bytes = standby_texture_bytes;
  o.hot_reload = false;
  o.rebuild.faults_to_give_up = 1000;
  o.rebuild.young_deaths_to_give_up = 1000;
  return o;
}

struct Point {
  double recovery_ms = 0, cold_start_ms = 0;
  double standby_poll_ms = 0;  // the longest poll while the spare was made (median over runs)
  double standby_prepare_polls = 0;  // the polls from asking for the spare to its last step (median)
  engine::RecoveryTimings parts;  // of the run whose recovery_ms is the median
};

struct Run {
  double recovery_ms = 0;
  engine::RecoveryTimings parts;
};

// The kinds the scenario makes, by their key names.
constexpr std::pair<ResourceKind, const char*> kKindKeys[] = {
    {ResourceKind::Buffer, "buffers"},
    {ResourceKind::Texture, "textures"},
    {ResourceKind::TextureView, "texture_views"},
    {ResourceKind::Sampler, "samplers"},
    {ResourceKind::ShaderModule, "shader_modules"},
    {ResourceKind::BindGroupLayout, "bind_group_layouts"},
    {ResourceKind::PipelineLayout, "pipeline_layouts"},
    {ResourceKind::BindGroup, "bind_groups"},
    {ResourceKind::RenderPipeline, "render_pipelines"},
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

Result<Point> measure(gpu::BackendChoice backend, uint32_t textures, int runs, bool standby,
                      uint64_t standby_texture_bytes, std::string* backend_name, uint64_t* rehearsed_draws,
                      uint64_t* held_bytes) {
  std::vector<double> cold;
  std::vector<double> standby_polls;
  std::vector<double> standby_poll_counts;
  std::vector<Run> recovery;
  for (int run = 0; run < runs; ++run) {
    const auto cold_start = Clock::now();
    auto created = engine::Engine::create(options(backend, standby, standby_texture_bytes));
    if (!created) return created.error();
    engine::Engine& engine = **created;
    const ResidentSet set = build(engine, textures);
    const std::vector<uint8_t> before = frame(engine, set);
    cold.push_back(ms_since(cold_start));
    if (before.empty()) return make_error(ErrorKind::Internal, "the first frame failed");
    *backend_name = gpu::to_string(engine.backend());
    if (standby) {
      double longest = 0;
      uint32_t polls = 0;
      const auto asked = Clock::now();
      // Until the spare is held and prepared (ADR 0034, 0044, 0058): in the polls after the
      // first frame, a step each, as in an application's frames.
      while (!engine.standby_prepared()) {
        const auto poll_at = Clock::now();
        engine.poll();
        ++polls;
        longest = std::max(longest, ms_since(poll_at));
        if (ms_since(asked) > 120000) return make_error(ErrorKind::Timeout, "no standby device within 120 s");
      }
      standby_polls.push_back(longest);
      standby_poll_counts.push_back(polls);
      *rehearsed_draws = engine.counters().standby_rehearsed_draws;
      *held_bytes = engine.registry().prepared_texture_bytes();
    }

    const auto lost_at = Clock::now();
    if (auto lost = engine.force_device_loss("recovery benchmark"); !lost) return lost.error();
    for (;;) {
      engine.poll();
      if (engine.state() == engine::EngineState::Failed) return make_error(ErrorKind::DeviceFailed, engine.message());
      if (frame(engine, set) == before) break;
      if (ms_since(lost_at) > 120000) return make_error(ErrorKind::Timeout, "no identical frame within 120 s");
    }
    const double recovered_ms = ms_since(lost_at);
    engine.poll();  // the lost device ends here, after the first frame (lost_device_end_ms)
    if (!engine.last_recovery()) return make_error(ErrorKind::Internal, "the engine kept no recovery timings");
    recovery.push_back({recovered_ms, *engine.last_recovery()});
  }
  std::sort(recovery.begin(), recovery.end(), [](const Run& a, const Run& b) { return a.recovery_ms < b.recovery_ms; });
  const Run& middle = recovery[recovery.size() / 2];
  return Point{middle.recovery_ms, median(cold), standby ? median(standby_polls) : 0.0,
               standby ? median(standby_poll_counts) : 0.0, middle.parts};
}

}  // namespace

int main() {
  auto backend = bench::requested_backend();
  if (!backend) return bench::exit_for("recovery_scenario", backend.error());
  nlohmann::json out;
  std::string backend_name;
  auto bus = measure_bus();
  if (!bus) return bench::exit_for("recovery_scenario", bus.error());
  const bool ring_faster = bus->ring_gbps >= bus->write_texture_gbps;
  const double bus_gbps = ring_faster ? bus->ring_gbps : bus->write_texture_gbps;
  out["recovery_ring_gbps"] = bus->ring_gbps;
  out["recovery_writetexture_gbps"] = bus->write_texture_gbps;
  out["recovery_bus_gbps"] = bus_gbps;
  out["recovery_bus_path"] = ring_faster ? "ring" : "writetexture";
  fmt::print(stderr, "recovery_scenario: the bus: upload ring {:.2f} GB/s, writeTexture {:.2f} GB/s\n", bus->ring_gbps,
             bus->write_texture_gbps);
  for (uint32_t textures : {16u, 64u, 256u}) {
    const int runs = textures >= 256 ? 1 : 3;
    uint64_t rehearsed_draws = 0;
    uint64_t held_bytes = 0;
    Result<Point> point = make_error(ErrorKind::Internal, "not run");
    Result<Point> spare = make_error(ErrorKind::Internal, "not run");
    Result<Point> held = make_error(ErrorKind::Internal, "not run");
    try {
      point = measure(*backend, textures, runs, false, 0, &backend_name, &rehearsed_draws, &held_bytes);
      if (point) spare = measure(*backend, textures, runs, true, 0, &backend_name, &rehearsed_draws, &held_bytes);
      if (spare) {
        uint64_t unused_draws = 0;
        held = measure(*backend, textures, runs, true, kHeldTextureBytes, &backend_name, &unused_draws, &held_bytes);
      }
    } catch (const std::exception& e) {
      point = make_error(ErrorKind::Internal, e.what());
    }
    if (!point) return bench::exit_for("recovery_scenario", point.error());
    if (!spare) return bench::exit_for("recovery_scenario", spare.error());
    if (!held) return bench::exit_for("recovery_scenario", held.error());
    const std::string suffix = textures == 64 ? "" : fmt::format("_{}", textures);
    const uint64_t kept = kept_bytes(textures);
    const double bound_ms = static_cast<double>(kept) / (bus_gbps * 1e9) * 1e3;
    out["recovery_kept_bytes" + suffix] = kept;
    out["recovery_bound_ms" + suffix] = bound_ms;
    out["recovery_over_bound" + suffix] = point->recovery_ms / bound_ms;
    out["recovery_standby_over_bound" + suffix] = spare->recovery_ms / bound_ms;
    out["recovery_standby_held_over_bound" + suffix] = held->recovery_ms / bound_ms;
    fmt::print(stderr,
               "recovery_scenario: {} textures: {} bytes kept, bound {:.1f} ms at the bus's speed; recovery {:.1f}x "
               "the bound, with a standby device {:.1f}x, with it holding the textures {:.1f}x\n",
               textures, kept, bound_ms, point->recovery_ms / bound_ms, spare->recovery_ms / bound_ms,
               held->recovery_ms / bound_ms);
    out["recovery_standby_ms" + suffix] = spare->recovery_ms;
    out["recovery_standby_vs_cold_start" + suffix] = spare->recovery_ms / point->cold_start_ms;
    out["recovery_standby_device_request_ms" + suffix] = spare->parts.device_request_ms;
    out["standby_poll_ms" + suffix] = spare->standby_poll_ms;
    out["standby_prepare_polls" + suffix] = spare->standby_prepare_polls;
    out["standby_rehearsed_draws" + suffix] = rehearsed_draws;
    fmt::print(stderr,
               "recovery_scenario: {} textures with a standby device: recovery {:.1f} ms ({:.2f} of the cold "
               "start); device request {:.1f}, rebuild {:.1f} (textures {:.1f}, pipelines {:.1f}, contents {:.1f}), "
               "first frame {:.1f}; longest poll while the spare was made {:.1f} ms, {} draws rehearsed on it\n",
               textures, spare->recovery_ms, spare->recovery_ms / point->cold_start_ms, spare->parts.device_request_ms,
               spare->parts.rebuild_ms, spare->parts.rebuild.of(ResourceKind::Texture),
               spare->parts.rebuild.pipelines_ms(), spare->parts.rebuild.contents_ms, spare->parts.first_frame_ms,
               spare->standby_poll_ms, rehearsed_draws);
    out["recovery_standby_rebuild_ms" + suffix] = spare->parts.rebuild_ms;
    out["recovery_standby_first_frame_ms" + suffix] = spare->parts.first_frame_ms;
    out["recovery_standby_pipelines_ms" + suffix] = spare->parts.rebuild.pipelines_ms();
    out["recovery_standby_textures_ms" + suffix] = spare->parts.rebuild.of(ResourceKind::Texture);
    out["recovery_standby_contents_ms" + suffix] = spare->parts.rebuild.contents_ms;
    out["recovery_standby_contents_path" + suffix] = resources::to_string(spare->parts.rebuild.contents_upload);
    out["recovery_standby_lost_device_end_ms" + suffix] = spare->parts.lost_device_end_ms;
    out["recovery_standby_staged_ahead_bytes" + suffix] = spare->parts.rebuild.staged_ahead_bytes;
    out["recovery_standby_readback_ms" + suffix] = spare->recovery_ms - spare->parts.total_ms;
    out["recovery_standby_held_readback_ms" + suffix] = held->recovery_ms - held->parts.total_ms;
    out["recovery_standby_held_ms" + suffix] = held->recovery_ms;
    out["recovery_standby_held_vs_cold_start" + suffix] = held->recovery_ms / point->cold_start_ms;
    out["recovery_standby_held_textures_ms" + suffix] = held->parts.rebuild.of(ResourceKind::Texture);
    out["recovery_standby_held_contents_ms" + suffix] = held->parts.rebuild.contents_ms;
    out["recovery_standby_held_first_frame_ms" + suffix] = held->parts.first_frame_ms;
    out["standby_held_poll_ms" + suffix] = held->standby_poll_ms;
    out["standby_held_texture_bytes" + suffix] = held_bytes;
    fmt::print(stderr,
               "recovery_scenario: {} textures with a standby device holding them ({} bytes): recovery {:.1f} ms "
               "({:.2f} of the cold start); textures {:.1f}, contents {:.1f}, first frame {:.1f}; longest poll "
               "while the spare was made {:.1f} ms\n",
               textures, held_bytes, held->recovery_ms, held->recovery_ms / point->cold_start_ms,
               held->parts.rebuild.of(ResourceKind::Texture), held->parts.rebuild.contents_ms,
               held->parts.first_frame_ms, held->standby_poll_ms);
    out["recovery_ms" + suffix] = point->recovery_ms;
    out["cold_start_ms" + suffix] = point->cold_start_ms;
    out["recovery_vs_cold_start" + suffix] = point->recovery_ms / point->cold_start_ms;
    const engine::RecoveryTimings& parts = point->parts;
    out["recovery_device_request_ms" + suffix] = parts.device_request_ms;
    out["recovery_rebuild_ms" + suffix] = parts.rebuild_ms;
    for (const auto& [kind, name] : kKindKeys) {
      out[fmt::format("recovery_rebuild_{}_ms{}", name, suffix)] = parts.rebuild.of(kind);
    }
    out["recovery_contents_ms" + suffix] = parts.rebuild.contents_ms;
    out["recovery_contents_path" + suffix] = resources::to_string(parts.rebuild.contents_upload);
    out["recovery_lost_device_end_ms" + suffix] = parts.lost_device_end_ms;
    out["recovery_pipelines_ms" + suffix] = parts.rebuild.pipelines_ms();
    out["recovery_callbacks_ms" + suffix] = parts.callbacks_ms;
    out["recovery_first_frame_ms" + suffix] = parts.first_frame_ms;
    out["recovery_readback_ms" + suffix] = point->recovery_ms - parts.total_ms;
    fmt::print(stderr,
               "recovery_scenario: {} textures: recovery {:.1f} ms, cold start {:.1f} ms; device request {:.1f}, "
               "rebuild {:.1f} (textures {:.1f}, views {:.1f}, bind groups {:.1f}, pipelines {:.1f}, contents "
               "{:.1f}), callbacks {:.1f}, first frame {:.1f}, readback {:.1f}\n",
               textures, point->recovery_ms, point->cold_start_ms, parts.device_request_ms, parts.rebuild_ms,
               parts.rebuild.of(ResourceKind::Texture), parts.rebuild.of(ResourceKind::TextureView),
               parts.rebuild.of(ResourceKind::BindGroup), parts.rebuild.pipelines_ms(), parts.rebuild.contents_ms,
               parts.callbacks_ms, parts.first_frame_ms, point->recovery_ms - parts.total_ms);
  }
  out["recovery_backend"] = backend_name;
  out["recovery_paths"] = as_before() ? "as before ADR 0058" : "ADR 0058";
  fmt::print("{}\n", out.dump());
  return 0;
}
