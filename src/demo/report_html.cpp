#include "warden/demo/messages.h"
#include "warden/demo/report_html.h"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <vector>

namespace warden::demo {
namespace {

Result<std::string> read_text(const std::filesystem::path& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error(std::filesystem::exists(path) ? ErrorKind::Io : ErrorKind::NotFound,
                      MessageId::ReportInputUnreadable, fmt::format("{}: cannot read {}", path.string(), what));
  }
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string base64(const std::string& bytes) {
  // EVP_EncodeBlock writes 4 characters per 3 bytes (rounded up) and a terminating NUL.
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                      reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(written));
  return out;
}

// Inside <script> or <style> the only sequence that can end the element early is "</".
std::string escape_for_raw_text_element(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    if (text[i] == '<' && i + 1 < text.size() && text[i + 1] == '/') out += '\\';
  }
  return out;
}

// The charts, the summary table and the layout record; reads the JSON in #report-data.
// Every chart's first series is the same blue (#1f77b4), so a screenshot test can look for it.
constexpr const char* kPageScript = R"js(
const report = JSON.parse(document.getElementById('report-data').textContent);
const s = report.series;
const mib = s.vram_bytes.map(b => b / 1048576);
const budget = s.frame.map(() => report.vram_budget_bytes / 1048576);
const memory = s.cpu_cache_bytes.map(b => b / 1048576);
const memoryBudget = s.frame.map(() => report.cpu_cache_budget_bytes / 1048576);
const markerColours = {device_loss: '#d62728', shader_reload: '#9467bd'};
function drawMarkers(u) {
  const ctx = u.ctx;
  for (const e of report.events) {
    const x = Math.round(u.valToPos(e.frame, 'x', true));
    ctx.save();
    ctx.strokeStyle = markerColours[e.kind] || '#000';
    ctx.lineWidth = 2 * devicePixelRatio;
    ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
    ctx.beginPath();
    ctx.moveTo(x, u.bbox.top);
    ctx.lineTo(x, u.bbox.top + u.bbox.height);
    ctx.stroke();
    ctx.restore();
  }
}
const charts = [
  {id: 'chart-frame-time', title: 'Frame time (ms)', series: [['frame ms', s.frame_ms, '#1f77b4']]},
  {id: 'chart-layers', title: 'Tile layers', series: [['free', s.layers_free, '#1f77b4'],
    ['in flight', s.layers_in_flight, '#ff7f0e'], ['allocated', s.layers_allocated, '#2ca02c']]},
  {id: 'chart-vram', title: 'Tiles in VRAM and in memory (MiB) against their budgets', series: [['resident', mib, '#1f77b4'],
    ['budget', budget, '#7f7f7f'], ['in memory', memory, '#ff7f0e'], ['memory budget', memoryBudget, '#bcbd22']]},
  {id: 'chart-uploads', title: 'Uploads and misses per frame', series: [['uploads', s.uploads, '#1f77b4'],
    ['misses', s.misses, '#e377c2']]},
];
const plots = [];
for (const c of charts) {
  const element = document.getElementById(c.id);
  const options = {
    title: c.title, width: 960, height: 200,
    scales: {x: {time: false}},
    series: [{label: 'frame'}, ...c.series.map(([label, , colour]) => ({label, stroke: colour, width: 2}))],
    hooks: {draw: [drawMarkers]},
  };
  plots.push({id: c.id, plot: new uPlot(options, [s.frame, ...c.series.map(series => series[1])], element)});
}
const table = document.getElementById('summary');
for (const [key, value] of Object.entries(report)) {
  if (key === 'series' || key === 'events' || key === 'snapshots') continue;
  const row = table.insertRow();
  row.insertCell().textContent = key;
  row.insertCell().textContent = value === null ? 'not measured' : Array.isArray(value) ? value.map(v => typeof v === 'object' ? JSON.stringify(v) : v).join(', ') : String(value);
}
// uPlot sizes and draws in a microtask after construction: record the layout after it.
setTimeout(() => {
  const layout = plots.map(({id, plot}) => {
    const r = plot.over.getBoundingClientRect();
    return {id, x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height};
  });
  const images = [...document.querySelectorAll('#snapshots img')].map(i => ({frame: Number(i.dataset.frame),
    width: i.naturalWidth, height: i.naturalHeight}));
  document.getElementById('chart-layout').textContent = JSON.stringify({charts: layout, snapshots: images});
}, 0);
)js";

constexpr const char* kPageStyle = R"css(
body { font-family: sans-serif; margin: 16px; background: #fff; color: #222; }
h1 { font-size: 20px; margin: 0 0 8px; }
.chart { margin-bottom: 8px; }
#summary td { padding: 2px 12px 2px 0; font-family: monospace; }
#snapshots figure { display: inline-block; margin: 0 12px 12px 0; }
#snapshots img { max-width: 480px; border: 1px solid #ccc; }
)css";

}  // namespace

std::filesystem::path UplotAssets::default_dir() {
  if (const char* dir = std::getenv("WARDEN_UPLOT_DIR"); dir != nullptr && *dir != '\0') return dir;
  return WARDEN_DEFAULT_UPLOT_DIR;
}

Result<UplotAssets> UplotAssets::load(const std::filesystem::path& dir) {
  UplotAssets assets;
  for (auto [name, into] : {std::pair{"uPlot.iife.min.js", &assets.script}, std::pair{"uPlot.min.css", &assets.style}}) {
    auto text = read_text(dir / name, "uPlot");
    if (!text) {
      Error error = text.error();
      error.message += " (run scripts/fetch-uplot.sh, or set WARDEN_UPLOT_DIR to a folder holding uPlot 1.6.32)";
      return error;
    }
    *into = std::move(*text);
  }
  return assets;
}

namespace {
// A snapshot's caption: its frame, and what it shows of a loss (before, first drawn, settled).
std::string snapshot_caption(const DemoReport& report, uint32_t frame) {
  std::string caption = fmt::format("frame {}", frame);
  for (const DemoReport::Loss& loss : report.losses) {
    if (loss.compared_frame == frame) caption += fmt::format(" (before the loss at frame {})", loss.frame);
    if (loss.first_drawn == frame) {
      caption += fmt::format(" (first drawn after the loss at frame {}, blank where the map was: {})", loss.frame,
                             loss.first_drawn_blank_fraction ? fmt::format("{:.4f}", *loss.first_drawn_blank_fraction)
                                                             : std::string("not measured"));
    }
    if (loss.settled == frame && loss.frames_to_settled()) {
      caption += fmt::format(" (settled {} frames after the first drawn, bound {})", *loss.frames_to_settled(),
                             loss.settle_bound_frames);
    }
  }
  return caption;
}
}  // namespace

Result<std::string> report_html(const DemoReport& report, const UplotAssets& uplot) {
  std::string snapshots;
  for (const ReportSnapshot& snapshot : report.snapshots) {
    auto png = read_text(snapshot.png, "the snapshot");
    if (!png) return png.error();
    snapshots += fmt::format(
        "<figure><img data-frame=\"{0}\" alt=\"frame {0}\" src=\"data:image/png;base64,{1}\">"
        "<figcaption>{2}</figcaption></figure>\n",
        snapshot.frame, base64(*png), snapshot_caption(report, snapshot.frame));
  }
  std::string page;
  page += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>warden demo report</title>\n";
  page += "<style>" + escape_for_raw_text_element(uplot.style) + kPageStyle + "</style>\n";
  page += "<script>" + escape_for_raw_text_element(uplot.script) + "</script>\n</head><body>\n";
  page += "<h1>warden demo report</h1>\n";
  for (const char* id : {"chart-frame-time", "chart-layers", "chart-vram", "chart-uploads"}) {
    page += fmt::format("<div class=\"chart\" id=\"{}\"></div>\n", id);
  }
  page += "<h2>Summary</h2>\n<table id=\"summary\"></table>\n";
  page += "<h2>Snapshots</h2>\n<div id=\"snapshots\">\n" + snapshots + "</div>\n";
  page += "<pre id=\"chart-layout\" hidden></pre>\n";
  page += "<script type=\"application/json\" id=\"report-data\">" + escape_for_raw_text_element(report_json(report)) +
          "</script>\n";
  page += std::string("<script>") + kPageScript + "</script>\n</body></html>\n";
  return page;
}

Result<void> write_report_html(const DemoReport& report, const UplotAssets& uplot, const std::filesystem::path& path) {
  auto page = report_html(report, uplot);
  if (!page) return page.error();
  std::ofstream out(path, std::ios::binary);
  out << *page;
  out.close();
  if (!out) {
    return make_error(ErrorKind::Io, MessageId::DemoReportUnwritable,
                      fmt::format("{}: cannot write the report", path.string()));
  }
  return {};
}

}  // namespace warden::demo
