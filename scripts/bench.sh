#!/usr/bin/env bash
# `make bench`: runs every scenario benchmark (each prints one JSON object), then the Google
# Benchmark binary, which merges everything into out/bench/results.json and prints a table,
# then draws the curves (scripts/bench-plot.sh).
#
# A scenario that cannot run on this machine exits 77 (bench/bench_support.h): it is recorded
# as `<scenario>_skipped` with its reason and the run goes on. Any other failure also lets the
# rest run, and fails the whole run at the end.
#   scripts/bench.sh [BUILD_DIR] [OUT_DIR]     (BENCH_FILTER: Google Benchmark filter;
#                                               WARDEN_BENCH_BACKEND: auto|vulkan|gl|gles|null)
set -uo pipefail
build="${1:-build}"
root=$(cd "$(dirname "$0")/.." && pwd)
out="${2:-$root/out/bench}"
parts="$out/parts"
rm -rf "$parts" && mkdir -p "$parts"
failed=()
skipped=()
# The record's where and when (bench_main copies them into results.json).
export WARDEN_BENCH_DATE="${WARDEN_BENCH_DATE:-$(date -u +%Y-%m-%dT%H:%M:%SZ)}"
export WARDEN_BENCH_COMMIT="${WARDEN_BENCH_COMMIT:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)}"
export WARDEN_BENCH_MACHINE="${WARDEN_BENCH_MACHINE:-$(nproc) cores, $(uname -m)}"
for scenario in "$build"/bench/*_scenario; do
  [[ -x "$scenario" ]] || continue
  name=$(basename "$scenario")
  echo "bench: $name"
  "$scenario" > "$parts/$name.json" 2> "$parts/$name.stderr"
  rc=$?
  cat "$parts/$name.stderr" >&2
  if ((rc == 77)); then
    # The scenario's "skipped, cannot run here: ..." line and what follows it, on one line.
    reason=$(sed -n '/skipped, cannot run here/,$p' "$parts/$name.stderr" | tr '\n\t' '  ' | tr -s ' ' |
      tr -d '"\\\000-\037' | cut -c 1-400)
    skipped+=("$name")
    printf '{"%s_skipped": "%s"}\n' "$name" "$reason" > "$parts/$name.json"
  elif ((rc != 0)); then
    echo "bench: $name failed (exit $rc)" >&2
    failed+=("$name")
    rm -f "$parts/$name.json"
  fi
done
"$build/bench/warden_bench" --warden_out="$out/results.json" --warden_parts="$parts" \
  ${BENCH_FILTER:+--benchmark_filter="$BENCH_FILTER"} || failed+=("warden_bench")
if [[ -f "$out/results.json" ]] && command -v gnuplot >/dev/null 2>&1; then
  "$root/scripts/bench-plot.sh" "$out/results.json" "$out" || failed+=("bench-plot")
fi
((${#skipped[@]})) && echo "bench: skipped (cannot run here): ${skipped[*]}"
if ((${#failed[@]})); then
  echo "bench: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "bench: all ran"
