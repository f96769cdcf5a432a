#!/usr/bin/env bash
# `make bench`: runs every scenario benchmark (each prints one JSON object), then the Google
# Benchmark binary, which merges everything into out/bench/results.json and prints a table.
set -euo pipefail
build="${1:-build}"
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/out/bench"
parts="$out/parts"
rm -rf "$parts" && mkdir -p "$parts"
for scenario in "$build"/bench/*_scenario; do
  [[ -x "$scenario" ]] || continue
  name=$(basename "$scenario")
  echo "bench: $name"
  if ! "$scenario" > "$parts/$name.json"; then
    echo "bench: $name failed" >&2
    exit 1
  fi
done
"$build/bench/warden_bench" --warden_out="$out/results.json" --warden_parts="$parts" ${BENCH_FILTER:+--benchmark_filter="$BENCH_FILTER"}
