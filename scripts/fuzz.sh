#!/usr/bin/env bash
# `make fuzz`: runs every libFuzzer target built in BUILD (tests/fuzz/) for SECONDS each,
# starting from its seed corpus tests/fuzz/corpus/<target>/ (never written to: new inputs go to
# BUILD/corpus/<target>/). The first failure (a broken oracle, a sanitizer report, a leak, an
# uncaptured Dawn error) stops the run; its input is kept in BUILD/artifacts/. docs/fuzzing.md.
set -uo pipefail
build="${1:?usage: fuzz.sh BUILD_DIR SECONDS}"
seconds="${2:?usage: fuzz.sh BUILD_DIR SECONDS}"
root=$(cd "$(dirname "$0")/.." && pwd)
targets=(tile_cache_fuzzer registry_fuzzer creation_fuzzer shader_check_fuzzer wesl_linker_fuzzer)

# As `make test-sanitize` (the Makefile says why intercept_tls_get_addr=0): Dawn's and Mesa's
# own allocations are suppressed by name, never warden's.
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0:intercept_tls_get_addr=0
export LSAN_OPTIONS="suppressions=$root/tests/sanitizer/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
mkdir -p "$build/artifacts"
for target in "${targets[@]}"; do
  exe="$build/tests/fuzz/$target"
  [[ -x "$exe" ]] || { echo "fuzz: $exe is not built (cmake --build $build --target fuzzers)"; exit 2; }
  work="$build/corpus/$target"
  mkdir -p "$work"
  log="$build/fuzz-$target.log"
  start=$(date +%s)
  # -timeout: one input that runs for seconds is a hang worth keeping; -rss_limit_mb: Dawn's
  # Null device with ASan's quarantine stays well below it.
  "$exe" "$work" "$root/tests/fuzz/corpus/$target" -max_total_time="$seconds" -timeout=20 \
    -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$build/artifacts/$target-" > "$log" 2>&1
  rc=$?
  runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$')
  if [[ $rc -ne 0 ]]; then
    echo "fuzz: $target FAILED after $(( $(date +%s) - start )) s (exit $rc) — see $log"
    grep -a -E "warden fuzz:|ERROR: |SUMMARY: |Test unit written" "$log" | head -10
    exit 1
  fi
  echo "fuzz: $target clean: ${runs:-?} inputs in $(( $(date +%s) - start )) s"
done
