// report.html: one page that opens from disk with no network. uPlot's script and style sheet
// are inlined, the report's data is inlined as JSON, the snapshots as base64 PNG data URLs.
//
// The page plots over frames: frame time; tile layers free / in flight / allocated; VRAM
// against the budget; uploads and misses, with a dashed vertical marker at every device loss
// (red) and shader reload (purple). Once the charts are drawn it writes their plot areas, in
// page pixels, as JSON into <pre id="chart-layout">, so a tool can find them in a screenshot.
#pragma once

#include <filesystem>
#include <string>

#include "warden/core/result.h"
#include "warden/demo/report.h"

namespace warden::demo {

/// uPlot as scripts/fetch-uplot.sh leaves it: uPlot.iife.min.js and uPlot.min.css.
struct UplotAssets {
  /// The script and the stylesheet, as text.
  ///@{
  std::string script, style;
  ///@}

  /// Where the assets are looked for: $WARDEN_UPLOT_DIR, else the folder the build was
  /// configured with (WARDEN_UPLOT_DIR, default build/uplot).
  static std::filesystem::path default_dir();
  /// A missing file is a NotFound error naming it and how to fetch it.
  static Result<UplotAssets> load(const std::filesystem::path& dir = default_dir());
};

/// The page; a snapshot file that cannot be read is an error naming it.
Result<std::string> report_html(const DemoReport& report, const UplotAssets& uplot);
/// Writes report_html() to `path`; errors name the path.
Result<void> write_report_html(const DemoReport& report, const UplotAssets& uplot, const std::filesystem::path& path);

}  // namespace warden::demo
