#!/usr/bin/env bash
# value_of_failure.sh <program> <NDEBUG|Debug>: the program was built as named, and stopped by
# abort (status 134) after printing the error's kind, id and message.
set -uo pipefail
program=$1 build=$2
output=$("$program" 2>&1)
status=$?
fail() { printf 'value_of_failure.sh (%s): %s\n--- output (status %s) ---\n%s\n' "$build" "$*" "$status" "$output" >&2; exit 1; }
case "$build" in
  NDEBUG) grep -qx "built with NDEBUG" <<<"$output" || fail "not built with NDEBUG" ;;
  Debug) grep -qx "built without NDEBUG" <<<"$output" || fail "built with NDEBUG" ;;
  *) fail "unknown build type $build" ;;
esac
[[ $status -eq 134 ]] || fail "expected abort (status 134)"
words='warden: the value of a failed Result was read: not found (core.Application): no tile "3/4/5" in the cache'
grep -qxF "$words" <<<"$output" || fail "expected the line: $words"
echo "$build: stopped by abort with the error's words"
