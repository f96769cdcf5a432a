#!/usr/bin/env bash
# Fetches the other published builds of warden's Dawn package (bun-webgpu-linux-x64; the pinned
# one is scripts/fetch-dawn.sh's) into build/dawn-samples/<version>/libwebgpu_wrapper.so, each
# checked against the integrity the registry published for it. They are the real libraries the
# load-time ABI check is tested against (tests/gpu/abi_check_test.cpp; the findings per version
# are in docs/adr/0033-a-library-that-does-not-match-is-refused-at-load.md). Only the .so is kept.
# Idempotent: a version whose library and integrity stamp are present is not fetched again.
set -euo pipefail

package="bun-webgpu-linux-x64"
declare -A integrities=(
  [0.1.3]="sha512-lVHORoVu1G61XVM8CRRqUsqr6w8kMlpuSpbPGpKUpmvrsoay6ymXAhT5lRPKyrGNamHUQTknmWdI59aRDCfLtQ=="
  [0.1.4]="sha512-zMLs2YIGB+/jxrYFXaFhVKX/GBt05UTF45lc9srcHc9JXGjEj+12CIo1CHLTAWatXMTqt0Jsu6ukWEoWVT/ayA=="
  [0.1.5]="sha512-+SYt09k+xDEl/GfcU7L1zdNgm7IlvAFKV5Xl/auBwuprKG5UwXNhjRlRAWfhTMCUZWN+NDf8E+ZQx0cQi9K2/g=="
  [0.1.6]="sha512-Y/f15j9r8ba0xUz+3lATtS74OE+PPzQXO7Do/1eCluJcuOlfa77kMjvBK/ShWnem3Y9xqi59pebTPOGRB+CaJA=="
)

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=npm-pinned.sh
source "$root/scripts/npm-pinned.sh"
dest_root="${1:-$root/build/dawn-samples}"
for version in $(printf "%s\n" "${!integrities[@]}" | sort); do
  npm_fetch_pinned fetch-dawn-abi-samples "$package" "$version" "${integrities[$version]}" "$dest_root/$version" \
    libwebgpu_wrapper.so
done
