#!/usr/bin/env bash
# Runs one test program of the sanitizer build (ctest calls it through
# CMAKE_CROSSCOMPILING_EMULATOR). LeakSanitizer's exit-time leak check stops every thread with
# a tracer; once in a few hundred processes that tracer itself crashes while Mesa's or Dawn's
# worker threads are exiting ("Tracer caught signal 11" / "LeakSanitizer has encountered a
# fatal error"). That is a crash of the tool, not a finding, so exactly that case is run once
# more. Any real report — a leak, an ASan or UBSan error, a failed test — fails as it is.
set -u
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for attempt in 1 2; do
  "$@" > "$out" 2>&1
  rc=$?
  if [[ $rc -ne 0 && $attempt -eq 1 ]] &&
     grep -q "LeakSanitizer has encountered a fatal error" "$out" &&
     grep -q "Tracer caught signal" "$out" &&
     ! grep -q -E "ERROR: (AddressSanitizer|LeakSanitizer: detected)|runtime error:|\[  FAILED  \]" "$out"; then
    echo "sanitizer-run: LeakSanitizer's tracer crashed at exit; running once more" >&2
    cat "$out" >&2
    continue
  fi
  cat "$out"
  exit $rc
done
