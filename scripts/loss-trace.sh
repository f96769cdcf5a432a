#!/usr/bin/env bash
# One device loss traced through warden (docs/loss-path.md): configures BUILD_DIR with
# WARDEN_LOSS_TRACE=ON (warden's library and tools/loss-trace compiled with
# -finstrument-functions), builds loss_trace and runs it once, on GL over llvmpipe as the
# engine's pixel tests do. Prints the summary; the whole report is left beside it.
#
#   scripts/loss-trace.sh [BUILD_DIR]     # build-trace by default (gitignored: /build-*/)
#
# Environment: JOBS (build jobs, 2 by default), LOSS_TRACE_BACKEND (gl by default; null for
# Dawn's Null backend, as the engine's loss tests use). Writes BUILD_DIR/loss-trace.txt (the
# summary, the functions by file and the first-call order) and BUILD_DIR/loss-trace.json.
# Dawn and the webgpu.h tables come from build/ as `make setup` left them; nothing is written there.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-build-trace}"
[[ "$build" = /* ]] || build="$root/$build"
jobs="${JOBS:-2}"
backend="${LOSS_TRACE_BACKEND:-gl}"

for needed in build/dawn/libwebgpu_wrapper.so build/webgpu-tables/index.js; do
  if [[ ! -e "$root/$needed" ]]; then
    echo "loss-trace: $root/$needed is missing: run \`make setup\` first" >&2
    exit 2
  fi
done

# The Makefile's optimised tree, at -O1 with full debug information so that addr2line names
# every function and line; a unity build as there. Only the library and the tool.
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g -DNDEBUG" \
  -DCMAKE_UNITY_BUILD=ON -DWARDEN_LOSS_TRACE=ON -DWARDEN_BUILD_TESTS=OFF -DWARDEN_BUILD_BENCH=OFF \
  -DWARDEN_BUILD_CLI=OFF -DWARDEN_INSTALL=OFF -DWARDEN_WINDOW=OFF \
  -DWARDEN_DAWN_DIR="$root/build/dawn" -DWARDEN_UPLOT_DIR="$root/build/uplot" >/dev/null
cmake --build "$build" -j "$jobs" --target loss_trace

commit="$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [[ "$commit" != unknown && -n "$(git -C "$root" status --porcelain -- src include 2>/dev/null)" ]]; then
  commit="$commit (with uncommitted changes in src/ or include/)"
fi
echo "loss-trace: commit $commit"
# No display set: the library asks EGL for its surfaceless platform itself, as in the tests
# (gpu::prepare_gl_environment).
status=0
"$build/tools/loss-trace/loss_trace" --backend "$backend" --json "$build/loss-trace.json" --by-file --order \
  >"$build/loss-trace.txt" || status=$?
sed '/^warden functions by file/,$d' "$build/loss-trace.txt"
echo "loss-trace: report in $build/loss-trace.txt and $build/loss-trace.json"
exit "$status"
