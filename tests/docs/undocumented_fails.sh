#!/usr/bin/env bash
# Proves the API reference check fails on an undocumented public symbol: scripts/api-docs.sh on
# tests/docs/undocumented/undocumented.h must exit non-zero and name each undocumented symbol,
# and none of the documented ones.
#   undocumented_fails.sh <warden source> <work dir>
set -uo pipefail
source=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
output=$("$source/scripts/api-docs.sh" "$work" "$source/tests/docs/undocumented/Doxyfile" 2>&1)
status=$?
echo "$output"
fail() { echo "undocumented_fails: $*" >&2; exit 1; }
((status == 1)) || fail "expected exit 1 from the check, got $status"
for symbol in undocumented_member undocumented_field undocumented_function UndocumentedType; do
  grep -q "undocumented.h:[0-9]*: .*$symbol.* is not documented" <<< "$output" ||
    fail "the warnings do not name '$symbol' as not documented"
done
for symbol in Documented documented_member documented_function; do
  ! grep -qE "(Member|Compound) (fixture::)?$symbol\b.* is not documented" <<< "$output" ||
    fail "'$symbol' is documented but was reported"
done
echo "undocumented_fails: the check failed, naming each undocumented symbol"
