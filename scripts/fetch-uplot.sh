#!/usr/bin/env bash
# Fetches uPlot (the charts of the demo's report.html) as the npm package uplot@1.6.32, checks
# the tarball against the integrity the registry published for that version, and unpacks the
# minified script and style sheet into build/uplot/ (ignored by git). The report inlines both,
# so the page opens from disk with no network. Idempotent: a second run with the files present
# does nothing. Why read at run time and not compiled in: docs/adr/0015.
set -euo pipefail

package="uplot"
version="1.6.32"
integrity="sha512-KIMVnG68zvu5XXUbC4LQEPnhwOxBuLyW1AHtpm6IKTXImkbLgkMy+jabjLgSLMasNuGGzQm/ep3tOkyTxpiQIw=="

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=npm-pinned.sh
source "$root/scripts/npm-pinned.sh"
npm_fetch_pinned fetch-uplot "$package" "$version" "$integrity" "${1:-$root/build/uplot}" \
  dist/uPlot.iife.min.js dist/uPlot.min.css LICENSE=LICENSE.uplot
