#!/usr/bin/env bash
# Installs the reference WESL linker, the npm package wesl@0.7.31 pinned by
# tools/wesl-reference/package.json and package-lock.json (the lock carries the integrity the
# registry published, which npm ci checks), into DEST (default build/wesl-reference, ignored by
# git), next to copies of the two files. scripts/wesl-compare.sh links the corpus with it
# (tools/wesl-reference/link.mjs finds it through WESL_REFERENCE_DIR=DEST). Idempotent: a second
# run with that version of wesl present does nothing.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
pinned_dir="$root/tools/wesl-reference"
version=$(node -p 'require(process.argv[1]).dependencies.wesl' "$pinned_dir/package.json")
dest="${1:-$root/build/wesl-reference}"

installed_version() {
  local manifest="$dest/node_modules/wesl/package.json"
  if [[ -f "$manifest" ]]; then
    node -p 'require(process.argv[1]).version' "$manifest"
  fi
}

if [[ "$(installed_version)" == "$version" ]] \
  && cmp -s "$pinned_dir/package-lock.json" "$dest/package-lock.json"; then
  exit 0
fi

echo "fetch-wesl-reference: npm ci wesl@$version into $dest" >&2
mkdir -p "$dest"
cp "$pinned_dir/package.json" "$pinned_dir/package-lock.json" "$dest/"
(cd "$dest" && npm ci --no-audit --no-fund --silent)
if [[ "$(installed_version)" != "$version" ]]; then
  echo "fetch-wesl-reference: $dest/node_modules/wesl is not wesl@$version after npm ci" >&2
  exit 1
fi
echo "fetch-wesl-reference: $dest/node_modules/wesl"
