#!/usr/bin/env bash
# The benchmark run on a GPU machine that has no compiler and no package registry (the H200):
# build here, carry the binaries there, run them there against Vulkan.
#
#   scripts/bench-gpu.sh pack [BUILD_DIR] [DEST]   here: copies the bench programs (stripped) and
#                                                  the shared libraries they need that a bare
#                                                  machine lacks (fmt, benchmark, png) into DEST
#                                                  (default .bench-gpu, in .gitignore)
#   scripts/bench-gpu.sh run [DEST] [OUT_DIR]      there, from the repository root: unpacks the
#                                                  carried Vulkan/EGL loader debs (.gl/*.deb) if
#                                                  present, points the loader at NVIDIA's ICD,
#                                                  runs scripts/bench.sh on DEST and writes
#                                                  OUT_DIR/results.json (default $OUT or out/bench)
# Dawn is read from build/dawn/libwebgpu_wrapper.so (carried as it is).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode="${1:-}"

pack() {
  local build="${1:-$root/build}" dest="${2:-$root/.bench-gpu}"
  rm -rf "$dest" && mkdir -p "$dest/bench" "$dest/lib"
  for program in "$build"/bench/*_scenario "$build"/bench/warden_bench; do
    [[ -x "$program" ]] || continue
    strip --strip-debug -o "$dest/bench/$(basename "$program")" "$program"
  done
  for program in "$dest"/bench/*; do
    ldd "$program" | awk '/libfmt|libbenchmark|libpng16/ { print $3 }'
  done | sort -u | while read -r lib; do cp -L "$lib" "$dest/lib/"; done
  git -C "$root" rev-parse --short HEAD > "$dest/commit" 2>/dev/null || echo unknown > "$dest/commit"
  du -sh "$dest"
}

run() {
  local dest="${1:-$root/.bench-gpu}" out="${2:-${OUT:-$root/out/bench}}"
  if compgen -G "$root/.gl/*.deb" > /dev/null; then
    for deb in "$root"/.gl/*.deb; do dpkg -x "$deb" /; done
    ldconfig
  fi
  local icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  [[ -f "$icd" && -z "${VK_DRIVER_FILES:-}" ]] && export VK_DRIVER_FILES="$icd"
  export LD_LIBRARY_PATH="$dest/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export WARDEN_WEBGPU_LIB="${WARDEN_WEBGPU_LIB:-$root/build/dawn/libwebgpu_wrapper.so}"
  export WARDEN_BENCH_COMMIT="${WARDEN_BENCH_COMMIT:-$(cat "$dest/commit" 2>/dev/null || echo unknown)}"
  local gpu
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1 || true)
  export WARDEN_BENCH_MACHINE="${WARDEN_BENCH_MACHINE:-${gpu:-GPU machine}, $(nproc) cores}"
  # bench.sh leaves a file per scenario beside results.json: only results.json and the log
  # come back (the device tool returns at most 8 files).
  local work=/tmp/warden-bench-gpu rc=0
  mkdir -p "$out"
  "$root/scripts/bench.sh" "$dest" "$work" 2>&1 | tee "$out/bench.log" || rc=$?
  cp "$work/results.json" "$out/results.json" 2>/dev/null || true
  return "$rc"
}

case "$mode" in
  pack) shift; pack "$@" ;;
  run) shift; run "$@" ;;
  *) echo "usage: scripts/bench-gpu.sh pack [BUILD_DIR] [DEST] | run [DEST] [OUT_DIR]" >&2; exit 2 ;;
esac
