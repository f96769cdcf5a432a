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
dest="${1:-$root/build/webgpu-tables}"
stamp="$dest/.integrity"

if [[ -f "$dest/index.js" && -f "$dest/package.json" && -f "$stamp" && "$(cat "$stamp")" == "$integrity" ]]; then
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tarball=$(npm_pack_verified fetch-webgpu-tables "$package" "$version" "$integrity" "$work")
tar xzf "$tarball" -C "$work" package/index.js package/package.json package/LICENSE
mkdir -p "$dest"
mv "$work/package/index.js" "$work/package/package.json" "$dest/"
mv "$work/package/LICENSE" "$dest/LICENSE.bun-webgpu"
echo "$integrity" > "$stamp"
echo "fetch-webgpu-tables: $dest/index.js"
