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
#   scripts/bench-gpu.sh demo [DEST] [OUT_DIR]     there: the same set-up, then `warden demo
#                                                  --backend vulkan` headless with the Makefile's
#                                                  losses and reload; report.json in OUT_DIR
# pack also carries the `warden` program, the libraries it needs beyond the C and C++ runtimes,
# and the demo's imagery (the machine there has no xplanet package).
# Dawn is read from build/dawn/libwebgpu_wrapper.so (carried as it is).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode="${1:-}"

pack() {
  local build="${1:-$root/build}" dest="${2:-$root/.bench-gpu}"
  cmake --build "$build" --target benchmarks  # not part of a plain build (docs/adr/0054)
  rm -rf "$dest" && mkdir -p "$dest/bench" "$dest/lib"
  for program in "$build"/bench/*_scenario "$build"/bench/warden_bench; do
    [[ -x "$program" ]] || continue
    strip --strip-debug -o "$dest/bench/$(basename "$program")" "$program"
  done
  for program in "$dest"/bench/*; do
    ldd "$program" | awk '/libfmt|libbenchmark|libpng16/ { print $3 }'
  done | sort -u | while read -r lib; do cp -L "$lib" "$dest/lib/"; done
  if [[ -x "$build/warden" ]]; then
    mkdir -p "$dest/bin" "$dest/images"
    strip --strip-debug -o "$dest/bin/warden" "$build/warden"
    ldd "$build/warden" | awk '$3 ~ /^\// && $1 !~ /^(libc|libm|libstdc\+\+|libgcc_s|libdl|libpthread|librt)\.so/ { print $3 }' |
      while read -r lib; do cp -L "$lib" "$dest/lib/"; done
    cp -L /usr/share/xplanet/images/earth.jpg /usr/share/xplanet/images/night.jpg "$dest/images/" 2>/dev/null || true
    [[ -d "$build/uplot" ]] && cp -rL "$build/uplot" "$dest/uplot"  # the HTML report's charts
  fi
  git -C "$root" rev-parse --short HEAD > "$dest/commit" 2>/dev/null || echo unknown > "$dest/commit"
  du -sh "$dest"
}

# The loaders from the carried debs, NVIDIA's ICD, the carried libraries and Dawn.
prepare_machine() {  # <dest>
  local dest=$1
  # shellcheck source=gpu-machine.sh
  source "$root/scripts/gpu-machine.sh"
  gpu_machine_prepare "$dest/lib"
  export WARDEN_WEBGPU_LIB="${WARDEN_WEBGPU_LIB:-$root/build/dawn/libwebgpu_wrapper.so}"
}

run() {
  local dest="${1:-$root/.bench-gpu}" out="${2:-${OUT:-$root/out/bench}}"
  prepare_machine "$dest"
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

demo() {
  local dest="${1:-$root/.bench-gpu}" out="${2:-${OUT:-$root/out/demo-gpu}}"
  prepare_machine "$dest"
  local images=/usr/share/xplanet/images  # where the demo reads Blue Marble from
  if [[ ! -f "$images/earth.jpg" ]]; then mkdir -p "$images" && cp "$dest"/images/*.jpg "$images/"; fi
  # The Makefile's DEMO_ARGS, on Vulkan. Only the reports come back (the device tool returns
  # few files); the frames stay there.
  local work=/tmp/warden-demo-gpu rc=0
  export WARDEN_UPLOT_DIR="${WARDEN_UPLOT_DIR:-$dest/uplot}"
  mkdir -p "$out"
  "$dest/bin/warden" demo --backend vulkan --frames 600 --budget-mb 8 --lose-device-at 150,420 \
    --reload-shader-at 240 --out "$work" "${@:3}" 2>&1 | tee "$out/demo.log" || rc=$?
  cp "$work/report.json" "$work/report.html" "$out/" 2>/dev/null || true
  return "$rc"
}

case "$mode" in
  pack) shift; pack "$@" ;;
  run) shift; run "$@" ;;
  demo) shift; demo "$@" ;;
  *) echo "usage: scripts/bench-gpu.sh pack [BUILD_DIR] [DEST] | run [DEST] [OUT_DIR] | demo [DEST] [OUT_DIR] [DEMO ARGS...]" >&2; exit 2 ;;
esac
