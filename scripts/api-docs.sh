#!/usr/bin/env bash
# Builds warden's API reference with Doxygen; exits non-zero when Doxygen warns (an undocumented
# public symbol, a broken doc command), after printing every warning.
#   scripts/api-docs.sh [OUT_DIR] [DOXYFILE] [VERSION]
# OUT_DIR defaults to build/docs (the HTML is OUT_DIR/api/index.html), DOXYFILE to
# docs/api/Doxyfile. Paths in the Doxyfile are relative to the repository root, where this runs.
# DOXYGEN names the program (CMake passes the one it found); default: doxygen from PATH.
# What the pages must show (front page, file comments, no demo/ or app/) is checked after this
# by scripts/check-api-reference.sh OUT_DIR/api.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-$root/build/docs}" && cd "${1:-$root/build/docs}" && pwd)
doxyfile=${2:-$root/docs/api/Doxyfile}
version=${3:-}
doxygen=${DOXYGEN:-doxygen}
if ! command -v "$doxygen" >/dev/null 2>&1; then
  echo "api-docs: '$doxygen' not found (Debian: apt-get install doxygen; scripts/setup.sh installs it)" >&2
  exit 2
fi
[[ -f "$doxyfile" ]] || { echo "api-docs: no Doxyfile at '$doxyfile'" >&2; exit 2; }
cd "$root"
# Doxygen writes over its pages but never removes one: a page of a header that was renamed or
# moved would stay behind and be checked as if current.
rm -rf "$out/api"
warnings="$out/warnings.txt"
status=0
{ cat "$doxyfile"; echo "OUTPUT_DIRECTORY = $out"; echo "PROJECT_NUMBER = $version"; } |
  "$doxygen" - 2> "$warnings" || status=$?
count=$(grep -c . "$warnings" || true)
if ((status != 0 || count != 0)); then
  cat "$warnings" >&2
  echo "api-docs: Doxygen failed (exit $status) with $count warning line(s); the list is above and in $warnings" >&2
  exit 1
fi
echo "api-docs: no warnings; $out/api/index.html"
