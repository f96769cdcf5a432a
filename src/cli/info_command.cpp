// `warden info`: which adapter warden would use, its limits and features, the library loaded.
#include <nlohmann/json.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/commands.h"
#include "cli/output.h"
#include "cli/gpu_setup.h"
#include "warden/tiles/upload_ring.h"
#include "warden/gpu/names.h"

namespace warden::cli {
namespace {

nlohmann::json key_limits(const WGPULimits& l) {
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

// What the load-time ABI check found (gpu/abi_check.h); a library that failed it never gets
// here, Library::load() refused it.
nlohmann::json abi_check_json(const gpu::AbiCheckReport& report) {
  nlohmann::json structs = nlohmann::json::array();
  for (const auto& s : report.structs) {
    structs.push_back({{"call", s.call}, {"type", s.type}, {"declared_bytes", s.declared}, {"written_bytes", s.written}});
  }
  nlohmann::json out = {
      {"passed", report.passed()},
      {"structs", structs},
      {"enum_values_round_tripped", report.enums.size()},
      {"microseconds", report.duration.count()},
      {"summary", report.summary()},
  };
  if (!report.incomplete.empty()) out["incomplete"] = report.incomplete;
  return out;
}

// How many of the header's entry points the library exports, and which it lacks (null in
// gpu::Procs; warden's own are never among them, or the library would not have loaded).
nlohmann::json entry_points_json(const gpu::Library& library) {
  return {{"listed", gpu::proc_count()},
          {"resolved", gpu::proc_count() - library.absent_procs().size()},
          {"absent", library.absent_procs()}};
}

// Which path tile uploads take on this adapter, measured now on a device of its own (16 tiles
// of 256x256, best of 3): the choice warden makes per backend (tiles/upload_ring.h).
nlohmann::json measure_tile_upload(const OpenedGpu& opened) {
  gpu::DeviceOptions options;
  options.label = "warden info upload measurement";
  auto device = opened.context->request_device(opened.adapter.adapter.get(), std::move(options));
  if (!device) return {{"error", device.error().message}};
  const gpu::Procs& p = opened.context->procs();
  gpu::Ref<WGPUQueue> queue(&p, p.DeviceGetQueue(device->get()));
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
      {"webgpu_header", WARDEN_WEBGPU_HEADER_SOURCE},
      {"abi_check", abi_check_json(gpu_opened->context->library().abi_check())},
      {"entry_points", entry_points_json(gpu_opened->context->library())},
      {"limits", key_limits(d.limits)},
      {"features", features},
      {"attempts", attempts},
      {"tile_upload", measure_tile_upload(*gpu_opened)},
  };
  if (json) {
    print_out("{}\n", out.dump());
    return kExitOk;
  }
  print_out("adapter       {}\n", d.device);
  print_out("vendor        {} (0x{:04x}), device 0x{:04x}\n", d.vendor, d.vendor_id, d.device_id);
  print_out("description   {}\n", d.description);
  print_out("backend       {}\n", gpu::to_string(d.backend));
  print_out("adapter type  {}\n", gpu::to_string(d.adapter_type));
  print_out("feature level {}\n", gpu::to_string(d.feature_level));
  print_out("library       {}\n", gpu_opened->context->library().path());
  // The check on the next line compares the library with this header.
  print_out("header        {}\n", WARDEN_WEBGPU_HEADER_SOURCE);
  print_out("ABI check     {}\n", gpu_opened->context->library().abi_check().summary());
  const std::vector<std::string>& absent = gpu_opened->context->library().absent_procs();
  print_out("entry points  {} of {} resolved{}{}\n", gpu::proc_count() - absent.size(), gpu::proc_count(),
            absent.empty() ? "" : "; absent: ", fmt::join(absent, ", "));
  const nlohmann::json& upload = out["tile_upload"];
  if (upload.contains("path")) {
    print_out("tile upload   {} (measured: ring {:.2f} GB/s, writeTexture {:.2f} GB/s)\n",
               upload["path"].get<std::string>(), upload["ring_gbps"].get<double>(),
               upload["write_texture_gbps"].get<double>());
  } else {
    print_out("tile upload   not measured: {}\n", upload["error"].get<std::string>());
  }
  print_out("limits\n");
  for (const auto& [name, value] : out["limits"].items()) print_out("  {:<40} {}\n", name, value.dump());
  print_out("features\n");
  for (const auto& f : features) print_out("  {}\n", f.get<std::string>());
  return kExitOk;
}

}  // namespace

void add_info_command(CLI::App& app, CommandRun& run) {
  auto* cmd = app.add_subcommand("info", "Show the adapter warden would use, its limits and features");
  auto backend = std::make_shared<std::string>("auto");
  auto json = std::make_shared<bool>(false);
  cmd->add_option("--backend", *backend, "auto, vulkan, gl, gles or null")->capture_default_str();
  cmd->add_flag("--json", *json, "Print one JSON object");
  cmd->callback([&run, backend, json] { run = [backend, json] { return run_info(*backend, *json); }; });
}

}  // namespace warden::cli
