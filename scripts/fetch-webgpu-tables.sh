#!/usr/bin/env bash
# Fetches bun-webgpu@0.1.7, the npm package whose tables (enum values, struct layouts, entry
# points) describe the pinned Dawn build, checks the tarball against the integrity the registry
# published for that version, and unpacks the files the header generator reads
# (tools/webgpu-header/generate.mjs) into build/webgpu-tables/ (ignored by git). Idempotent: a
# second run with the tables present does nothing.
# Why these tables: docs/adr/0032-webgpu-h-generated-from-the-pinned-library.md
set -euo pipefail

package="bun-webgpu"
version="0.1.7"
integrity="sha512-KUxUp+oQIf7pPBMD4Hv1TUu7DWaOZ4ciKulTk9to9+Uc8yHoYrMW7L2SJCJ4FHHkywgf/7aLRgRx0b7i6DvGIQ=="

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=npm-pinned.sh
source "$root/scripts/npm-pinned.sh"
npm_fetch_pinned fetch-webgpu-tables "$package" "$version" "$integrity" "${1:-$root/build/webgpu-tables}" \
  index.js package.json LICENSE=LICENSE.bun-webgpu
