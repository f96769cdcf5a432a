#include "warden/demo/messages.h"
#include "warden/demo/report.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "warden/core/enum_names.h"

namespace warden::demo {

constexpr EnumName<ReportEventKind> kReportEventKindNames[] = {
    {ReportEventKind::DeviceLoss, "device_loss"},
    {ReportEventKind::ShaderReload, "shader_reload"},
};
const char* to_string(ReportEventKind kind) { return name_in(kReportEventKindNames, kind); }

double frame_ms_quantile(const std::vector<FrameSample>& samples, double quantile) {
  if (samples.empty()) return 0;
  std::vector<double> times;
  times.reserve(samples.size());
  for (const FrameSample& s : samples) times.push_back(s.frame_ms);
  std::sort(times.begin(), times.end());
  // Nearest rank: the smallest value with at least `quantile` of the samples at or below it.
  const double rank = std::ceil(std::clamp(quantile, 0.0, 1.0) * static_cast<double>(times.size()));
  return times[static_cast<size_t>(std::max(rank, 1.0)) - 1];
}

uint64_t vram_peak_bytes(const std::vector<FrameSample>& samples) {
  uint64_t peak = 0;
  for (const FrameSample& s : samples) peak = std::max(peak, s.vram_bytes);
  return peak;
}

uint64_t cpu_cache_peak_bytes(const std::vector<FrameSample>& samples) {
  uint64_t peak = 0;
  for (const FrameSample& s : samples) peak = std::max(peak, s.cpu_cache_bytes);
  return peak;
}

std::optional<double> blank_fraction(const std::vector<uint8_t>& before, const std::vector<uint8_t>& after,
                                     const std::array<uint8_t, 4>& clear) {
  if (before.size() != after.size() || before.size() % 4 != 0) return std::nullopt;
  // Within 1 a channel: the clear colour is given as floats, and drivers round them either way.
  auto is_clear = [&](const std::vector<uint8_t>& image, size_t at) {
    for (size_t c = 0; c < 4; ++c) {
      if (std::abs(int{image[at + c]} - int{clear[c]}) > 1) return false;
    }
    return true;
  };
  uint64_t map = 0, blank = 0;
  for (size_t at = 0; at < before.size(); at += 4) {
    if (is_clear(before, at)) continue;
    ++map;
    blank += is_clear(after, at);
  }
  return map == 0 ? 0.0 : static_cast<double>(blank) / static_cast<double>(map);
}

namespace {
nlohmann::json or_null(const std::optional<uint64_t>& value) { return value ? nlohmann::json(*value) : nlohmann::json(); }
}  // namespace

std::string report_json(const DemoReport& report) {
  nlohmann::ordered_json json;
  json["frames"] = report.frames;
  json["device_losses"] = or_null(report.device_losses);
  json["recoveries"] = or_null(report.recoveries);
  json["hot_reloads"] = or_null(report.hot_reloads);
  json["uncaptured_errors"] = or_null(report.uncaptured_errors);
  json["frames_with_errors"] = or_null(report.frames_with_errors);
  json["tiles_uploaded"] = report.tiles_uploaded;
  json["tile_fetch_failures"] = report.tile_fetch_failures;
  json["acquire_misses"] = report.acquire_misses;
  json["vram_budget_bytes"] = report.vram_budget_bytes;
  json["vram_peak_bytes"] = vram_peak_bytes(report.samples);
  json["cpu_cache_budget_bytes"] = report.cpu_cache_budget_bytes;
  json["cpu_cache_peak_bytes"] = cpu_cache_peak_bytes(report.samples);
  json["memory_uploads"] = report.memory_uploads;
  json["restored_after_loss"] = report.restored_after_loss;
  json["blocking_waits"] = report.blocking_waits;
  json["leaked_objects"] = or_null(report.leaked_objects);
  json["frame_ms_p50"] = frame_ms_quantile(report.samples, 0.50);
  json["frame_ms_p99"] = frame_ms_quantile(report.samples, 0.99);
  json["recovery_ms"] = report.recovery_ms;
  json["backend"] = report.backend;
  json["adapter"] = report.adapter;
  json["frames_drawn"] = report.frames_drawn;
  json["frames_skipped"] = report.frames_skipped;
  json["window_frames_presented"] = report.window_frames_presented;
  json["window_surfaces"] = report.window_surfaces;
  json["budget_exceeded_frames"] = report.budget_exceeded_frames;
  json["reload_failures"] = report.reload_failures;
  nlohmann::json losses = nlohmann::json::array();
  for (const DemoReport::Loss& l : report.losses) {
    const auto to_settle = l.frames_to_settled();
    losses.push_back({{"frame", l.frame},
                      {"first_drawn", l.first_drawn},
                      {"settled", l.settled},
                      {"compared_frame", l.compared_frame ? nlohmann::json(*l.compared_frame) : nlohmann::json()},
                      {"first_drawn_blank_fraction",
                       l.first_drawn_blank_fraction ? nlohmann::json(*l.first_drawn_blank_fraction) : nlohmann::json()},
                      {"frames_to_settled", to_settle ? nlohmann::json(*to_settle) : nlohmann::json()},
                      {"settle_bound_frames", l.settle_bound_frames}});
  }
  json["losses"] = std::move(losses);

  nlohmann::ordered_json series;
  auto column = [&](const char* name, auto field) {
    nlohmann::json values = nlohmann::json::array();
    for (const FrameSample& s : report.samples) values.push_back(field(s));
    series[name] = std::move(values);
  };
  column("frame", [](const FrameSample& s) { return s.frame; });
  column("frame_ms", [](const FrameSample& s) { return s.frame_ms; });
  column("layers_free", [](const FrameSample& s) { return s.layers_free; });
  column("layers_in_flight", [](const FrameSample& s) { return s.layers_in_flight; });
  column("layers_allocated", [](const FrameSample& s) { return s.layers_allocated; });
  column("vram_bytes", [](const FrameSample& s) { return s.vram_bytes; });
  column("cpu_cache_bytes", [](const FrameSample& s) { return s.cpu_cache_bytes; });
  column("uploads", [](const FrameSample& s) { return s.uploads; });
  column("misses", [](const FrameSample& s) { return s.misses; });
  json["series"] = std::move(series);

  nlohmann::json events = nlohmann::json::array();
  for (const ReportEvent& e : report.events) events.push_back({{"frame", e.frame}, {"kind", to_string(e.kind)}});
  json["events"] = std::move(events);
  nlohmann::json snapshots = nlohmann::json::array();
  for (const ReportSnapshot& s : report.snapshots) {
    snapshots.push_back({{"frame", s.frame}, {"file", s.png.filename().string()}});
  }
  json["snapshots"] = std::move(snapshots);
  // An adapter name is whatever the driver says: replace bytes that are not UTF-8, never throw.
  return json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

Result<void> write_report_json(const DemoReport& report, const std::filesystem::path& path) {
  std::ofstream out(path);
  out << report_json(report) << '\n';
  out.close();
  if (!out) {
    return make_error(ErrorKind::Io, MessageId::DemoReportUnwritable,
                      fmt::format("{}: cannot write the report", path.string()));
  }
  return {};
}

}  // namespace warden::demo
