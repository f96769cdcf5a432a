#!/usr/bin/env bash
# Proves scripts/check-api-reference.sh fails where it must: a small tree whose reference has no
# front page, a header without a file comment, a header whose page does not show its comment,
# and a documented header and namespace of demo/. Doxygen makes the pages; the check must exit 1
# naming each, and must pass on the same tree once it is put right.
#   api_reference_check_fails.sh <warden source> <work dir>
set -uo pipefail
source=$1 work=$2
doxygen=${DOXYGEN:-doxygen}
rm -rf "$work" && mkdir -p "$work/tree/include/warden/core" "$work/tree/include/warden/demo"
tree=$work/tree
fail() { echo "api_reference_check_fails: $*" >&2; exit 1; }

write_tree() {  # write_tree GOOD(0|1)
  local good=$1
  { [[ $good == 1 ]] && printf '%s\n' '/// @file' '/// Clock: a serial per submit, retired when the queue says so.'
    printf '%s\n' '#pragma once' '/// @namespace warden' '/// The library.' 'namespace warden {' \
      '/// A clock.' 'struct Clock {};' '}  // namespace warden'; } > "$tree/include/warden/core/clock.h"
  printf '%s\n' '/// @file' '/// Pool: generational slots with a capacity fixed at creation.' '#pragma once' \
    'namespace warden {' '/// A pool.' 'struct Pool {};' '}  // namespace warden' > "$tree/include/warden/core/pool.h"
  printf '%s\n' '/// @file' '/// Demo: the tile-map demo, not installed.' '#pragma once' '/// @namespace warden::demo' \
    '/// The demo.' 'namespace warden::demo {' '/// A demo.' 'struct Demo {};' '}  // namespace warden::demo' \
    > "$tree/include/warden/demo/demo.h"
  local input="include/warden" exclude="" symbols=""
  if [[ $good == 1 ]]; then
    printf '%s\n' '/// @mainpage Fixture' "/// $(printf 'word %.0s' {1..120})" \
      '/// Start with docs/getting-started.md, docs/design.md, docs/lifecycle-in-detail.md and' \
      '/// docs/device-lifecycle.md.' > "$tree/mainpage.dox"
    input="mainpage.dox include/warden" exclude="include/warden/demo" symbols="warden::demo"
  fi
  printf '%s\n' "PROJECT_NAME = warden" "INPUT = $input" "EXCLUDE = $exclude" "RECURSIVE = YES" \
    "FILE_PATTERNS = *.h *.dox" "EXCLUDE_SYMBOLS = $symbols" "FULL_PATH_NAMES = YES" \
    "STRIP_FROM_PATH = include" "JAVADOC_AUTOBRIEF = YES" "QUIET = YES" "WARNINGS = NO" \
    "GENERATE_LATEX = NO" "HTML_OUTPUT = api" "OUTPUT_DIRECTORY = $work/out" > "$tree/Doxyfile"
  rm -rf "$work/out"
  (cd "$tree" && "$doxygen" Doxyfile > /dev/null 2>&1) || fail "doxygen failed on the fixture tree"
}

write_tree 0
# The pool's page shows another first line than its header now says.
sed -i '2s|.*|/// Pool: slots that the reference shows under other words.|' "$tree/include/warden/core/pool.h"
output=$(bash "$source/scripts/check-api-reference.sh" "$work/out/api" "$tree" 2>&1)
status=$?
echo "$output"
((status == 1)) || fail "expected exit 1 from the check on the broken tree, got $status"
for piece in "the front page is blank" "front page does not name docs/getting-started.md" \
  "include/warden/core/clock.h:1: no file comment" "the page of warden/core/pool.h does not show its file comment" \
  "a page for warden/demo/demo.h, a header that is not installed" "a page of namespace warden::demo or warden::app"; do
  grep -qF "$piece" <<< "$output" || fail "the check did not say '$piece'"
done

write_tree 1
output=$(bash "$source/scripts/check-api-reference.sh" "$work/out/api" "$tree" 2>&1)
status=$?
echo "$output"
((status == 0)) || fail "expected exit 0 on the tree put right, got $status"
echo "api_reference_check_fails: the check failed on each defect and passed once they were fixed"
