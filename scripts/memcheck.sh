#!/usr/bin/env bash
# `make memcheck`: every test program under valgrind memcheck. Fails on any invalid access or
# definite leak outside the suppressions in tests/sanitizer/valgrind.supp.
set -uo pipefail
build="${1:-build}"
root=$(cd "$(dirname "$0")/.." && pwd)
supp="$root/tests/sanitizer/valgrind.supp"
# Too slow under valgrind to be worth it here; each is covered by the sanitizer run instead.
# The others repeat one path many times (a thousand frames, a soak per seed, four device
# generations on one window twice over, 300 resizes): 117 s, 59 s, 32 + 23 s and 12 s of valgrind,
# where one frame, one seed, one generation after another (PresentGenerationsTest.AfterAPresenting
# DeviceEnds...) and a reconfigure (SwapchainTest.OutdatedOnAcquire...) of the same paths run in
# the tests kept.
skip='*OneMegabyte*:*1MB*:*Megabyte*:*FiftyOnGl*:*AThousandFrames*:*SeveralSeeds*'
skip+=':*FourDeviceGenerationsInARow*:*FourRestartedGenerations*:*ResizeStormOf300Frames*'
jobs="${MEMCHECK_JOBS:-$(nproc)}"
# These programs run as two processes (GoogleTest's shards): a process that makes more than about
# a hundred GL devices over llvmpipe finds no EGL display for the next one (Dawn's GL backend
# keeps what each device's context made until the process ends), and the engine's suite makes
# more than that. The others run whole: each shard pays the GL start-up again.
sharded=" ${MEMCHECK_SHARDED:-test_engine} "
shards_of() {  # <program>
  [[ "$sharded" == *" $(basename "$1") "* ]] && echo 2 || echo 1
}
# One program per core at once: valgrind runs each program's threads one at a time, so two
# programs on two cores take about half the wall time. Results are printed in name order.
check() {
  local t="$1" shard="$2" name log start rc secs
  name="$(basename "$t").$shard"
  log="$build/memcheck-$name.log"
  start=$(date +%s)
  GTEST_TOTAL_SHARDS=$(shards_of "$t") GTEST_SHARD_INDEX=$shard valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
    --show-leak-kinds=definite --suppressions="$supp" \
    "$t" --gtest_filter="-$skip" --gtest_brief=1 > "$log" 2>&1
  rc=$?
  secs=$(( $(date +%s) - start ))
  {
    if [[ $rc -eq 0 ]]; then
      echo "memcheck: $name clean (${secs}s)"
    else
      echo "memcheck: $name FAILED (exit $rc, ${secs}s) — see $log"
      grep -E "^==[0-9]+== (Invalid|Conditional|Mismatched|Syscall|.*definitely lost)" "$log" | head -5
      # A test that failed under valgrind (exit 1) is named too, with what it said, so a CI log
      # that keeps only its tail still shows why.
      grep -E -B12 "^\[  FAILED  \]" "$log" | head -60
    fi
  } > "$log.result"
  return $rc
}
programs=()
for t in "$build"/tests/test_*; do
  [[ -x "$t" && -f "$t" ]] && programs+=("$t")
done
# The longest first (their valgrind seconds on a 2-core machine: engine 2 x 70, present 77,
# tiles 62, resources 61, gpu 58, demo 51; the rest 4-26), so that the last program to start
# is a short one and both cores stay busy to the end. Results are still printed in name order.
heavy=(test_engine test_present test_tiles test_resources test_gpu test_demo)
started=()
for name in "${heavy[@]}"; do
  [[ -x "$build/tests/$name" ]] && started+=("$build/tests/$name")
done
for t in "${programs[@]}"; do
  [[ " ${heavy[*]} " == *" $(basename "$t") "* ]] || started+=("$t")
done
# MEMCHECK_DEADLINE (seconds since the epoch, CI's: .ci/run): a program not started by then is
# not run, and says so (the longest ones start first). Unset: every program runs.
deadline="${MEMCHECK_DEADLINE:-}"
for t in "${started[@]}"; do
  for (( shard = 0; shard < $(shards_of "$t"); ++shard )); do
    while (( $(jobs -rp | wc -l) >= jobs )); do wait -n; done
    if [[ -n "$deadline" ]] && (( $(date +%s) >= deadline )); then
      echo "memcheck: $(basename "$t").$shard SKIPPED: CI's time budget ran out before it started" \
        > "$build/memcheck-$(basename "$t").$shard.log.result"
      continue
    fi
    check "$t" "$shard" &
  done
done
wait
failed=0
for t in "${programs[@]}"; do
  for (( shard = 0; shard < $(shards_of "$t"); ++shard )); do
    result="$build/memcheck-$(basename "$t").$shard.log.result"
    cat "$result"
    grep -q "^memcheck: .* \(clean\|SKIPPED\)" "$result" || failed=1
  done
done
exit $failed
