#!/usr/bin/env bash
# Fetches Google Dawn as the npm package bun-webgpu-linux-x64@0.1.7, checks the tarball against
# the integrity the registry published for that version, and unpacks libwebgpu_wrapper.so into
# build/dawn/ (ignored by git). Idempotent: a second run with the library present does nothing.
# Why npm and this package: docs/adr/0001-dawn-from-npm-loaded-at-run-time.md
set -euo pipefail

package="bun-webgpu-linux-x64"
version="0.1.7"
integrity="sha512-UEP7UZdEhx9otvkZczjsszL8ZVlrODANQvgl+C88/bNVmxDoFi7w1fWzGi1sZyakiETjmtFDq2/xCLhbSZxjqw=="

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=npm-pinned.sh
source "$root/scripts/npm-pinned.sh"
dest="${1:-$root/build/dawn}"
stamp="$dest/.integrity"

if [[ -f "$dest/libwebgpu_wrapper.so" && -f "$stamp" && "$(cat "$stamp")" == "$integrity" ]]; then
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tarball=$(npm_pack_verified fetch-dawn "$package" "$version" "$integrity" "$work")
tar xzf "$tarball" -C "$work" package/libwebgpu_wrapper.so package/LICENSE
mkdir -p "$dest"
mv "$work/package/libwebgpu_wrapper.so" "$dest/"
mv "$work/package/LICENSE" "$dest/LICENSE.dawn-wrapper"
echo "$integrity" > "$stamp"
echo "fetch-dawn: $dest/libwebgpu_wrapper.so"
