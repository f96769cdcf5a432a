// `warden info`: which adapter warden would use, its limits and features, the library loaded.
#include <nlohmann/json.hpp>
#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/gpu_setup.h"
#include "warden/tiles/upload_ring.h"
#include "warden/webgpu/names.h"

namespace warden::cli {
namespace {

nlohmann::json key_limits(const gpu::Limits& l) {
  return {
      {"max_texture_dimension_2d", l.maxTextureDimension2D},
      {"max_texture_array_layers", l.maxTextureArrayLayers},
      {"max_bind_groups", l.maxBindGroups},
      {"max_buffer_size", l.maxBufferSize},
      {"max_storage_buffer_binding_size", l.maxStorageBufferBindingSize},
      {"max_uniform_buffer_binding_size", l.maxUniformBufferBindingSize},
      {"max_compute_invocations_per_workgroup", l.maxComputeInvocationsPerWorkgroup},
      {"max_compute_workgroups_per_dimension", l.maxComputeWorkgroupsPerDimension},
      {"max_color_attachments", l.maxColorAttachments},
      {"max_vertex_buffers", l.maxVertexBuffers},
      {"min_uniform_buffer_offset_alignment", l.minUniformBufferOffsetAlignment},
  };
}

// Which path tile uploads take on this adapter, measured now on a device of its own (16 tiles
// of 256x256, best of 3): the choice warden makes per backend (tiles/upload_ring.h).
nlohmann::json measure_tile_upload(const OpenedGpu& opened) {
  gpu::DeviceOptions options;
  options.label = "warden info upload measurement";
  auto device = opened.context->request_device(opened.adapter.adapter.get(), std::move(options));
  if (!device) return {{"error", device.error().message}};
  const gpu::Procs& p = opened.context->procs();
  gpu::Ref<gpu::Queue> queue(&p, p.DeviceGetQueue(device->get()));
  auto m = tiles::measure_upload_paths(*opened.context, device->get(), queue.get());
  if (!m) return {{"error", m.error().message}};
  return {{"path", tiles::to_string(m->faster)},
          {"ring_gbps", m->ring_gbps},
          {"write_texture_gbps", m->write_texture_gbps}};
}

int run_info(const std::string& backend, bool json) {
  int exit_code = kExitOk;
  auto gpu_opened = open_gpu(backend, exit_code);
  if (!gpu_opened) return exit_code;
  const gpu::AdapterDescription& d = gpu_opened->adapter.description;
  nlohmann::json features = nlohmann::json::array();
  for (auto f : d.features) features.push_back(gpu::feature_name(f));
  nlohmann::json attempts = nlohmann::json::array();
  for (const auto& a : gpu_opened->adapter.attempts) {
    attempts.push_back({{"backend", gpu::to_string(a.backend)}, {"outcome", a.outcome}});
  }
  nlohmann::json out = {
      {"backend", gpu::to_string(d.backend)},
      {"adapter", d.device},
      {"adapter_type", gpu::to_string(d.adapter_type)},
      {"feature_level", gpu::to_string(d.feature_level)},
      {"vendor", d.vendor},
      {"architecture", d.architecture},
      {"description", d.description},
      {"vendor_id", d.vendor_id},
      {"device_id", d.device_id},
      {"library", gpu_opened->context->library().path()},
      {"limits", key_limits(d.limits)},
      {"features", features},
      {"attempts", attempts},
      {"tile_upload", measure_tile_upload(*gpu_opened)},
  };
  if (json) {
    fmt::print("{}\n", out.dump());
    return kExitOk;
  }
  fmt::print("adapter       {}\n", d.device);
  fmt::print("vendor        {} (0x{:04x}), device 0x{:04x}\n", d.vendor, d.vendor_id, d.device_id);
  fmt::print("description   {}\n", d.description);
  fmt::print("backend       {}\n", gpu::to_string(d.backend));
  fmt::print("adapter type  {}\n", gpu::to_string(d.adapter_type));
  fmt::print("feature level {}\n", gpu::to_string(d.feature_level));
  fmt::print("library       {}\n", gpu_opened->context->library().path());
  const nlohmann::json& upload = out["tile_upload"];
  if (upload.contains("path")) {
    fmt::print("tile upload   {} (measured: ring {:.2f} GB/s, writeTexture {:.2f} GB/s)\n",
               upload["path"].get<std::string>(), upload["ring_gbps"].get<double>(),
               upload["write_texture_gbps"].get<double>());
  } else {
    fmt::print("tile upload   not measured: {}\n", upload["error"].get<std::string>());
  }
  fmt::print("limits\n");
  for (const auto& [name, value] : out["limits"].items()) fmt::print("  {:<40} {}\n", name, value.dump());
  fmt::print("features\n");
  for (const auto& f : features) fmt::print("  {}\n", f.get<std::string>());
  return kExitOk;
}

}  // namespace

void add_info_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("info", "Show the adapter warden would use, its limits and features");
  auto backend = std::make_shared<std::string>("auto");
  auto json = std::make_shared<bool>(false);
  cmd->add_option("--backend", *backend, "auto, vulkan, gl, gles or null")->capture_default_str();
  cmd->add_flag("--json", *json, "Print one JSON object");
  cmd->callback([&exit_code, backend, json] { exit_code = run_info(*backend, *json); });
}

}  // namespace warden::cli
