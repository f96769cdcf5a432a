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
npm_fetch_pinned fetch-dawn "$package" "$version" "$integrity" "${1:-$root/build/dawn}" \
  libwebgpu_wrapper.so LICENSE=LICENSE.dawn-wrapper
