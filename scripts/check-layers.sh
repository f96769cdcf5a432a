#!/usr/bin/env bash
# The layer check: no library file includes a header of a layer above its own, and every library
# file speaks its folder's namespace. Run by `make test` (ctest Layers.*), or by hand:
#
#   scripts/check-layers.sh [WARDEN_ROOT]      # exit 0: clean; 1: violations, each named; 2: usage
#
# The layer order is read from one place: `set(WARDEN_LAYERS ...)` in WARDEN_ROOT/CMakeLists.txt,
# bottom first. src/cli (the `warden` binary) sits above every layer. What is checked:
#  - every file under include/warden/<layer>/ and src/<layer>/ (tests/ and bench/ may include
#    anything). An include names a layer as "warden/<layer>/..." or, for src/'s private headers,
#    "<layer>/...". A folder there that is not in the list is an error too, so a new folder cannot
#    slip past the check;
#  - each `namespace warden...` opened at the start of a line: `warden` in core/ (the vocabulary
#    every layer speaks is the root namespace), `warden::<layer>` (or below it) elsewhere;
#  - the one exception to the include rule: include/warden/core/messages.h gathers the library
#    layers' message lists (warden/<layer>/messages.h) into the one MessageId type an Error holds.
#    Those list files hold the X-macro list and comments only (no include, no declaration), so
#    that core sees nothing else of the layers above it; a program layer's list (WARDEN_PROGRAM_LAYERS)
#    is never gathered;
#  - README.md's drawing (the first fenced block under "## The layers", top layer first, one
#    layer name at the start of each line) shows the same order, so the picture cannot drift.
set -euo pipefail

root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
cmakelists="$root/CMakeLists.txt"
[[ -f "$cmakelists" ]] || { echo "check-layers: no CMakeLists.txt in '$root'" >&2; exit 2; }

# set(WARDEN_LAYERS a b c ...), possibly over several lines.
layers=$(awk '
  /^[[:space:]]*set\(WARDEN_LAYERS([[:space:]]|$)/ { on = 1; sub(/.*set\(WARDEN_LAYERS/, "") }
  on { line = $0; done = sub(/\).*/, "", line); sub(/#.*/, "", line); printf "%s ", line; if (done) exit }
' "$cmakelists" | xargs)
[[ -n "$layers" ]] || { echo "check-layers: $cmakelists has no set(WARDEN_LAYERS ...)" >&2; exit 2; }
layers="$layers cli"
programs=$(awk '
  /^[[:space:]]*set\(WARDEN_PROGRAM_LAYERS([[:space:]]|$)/ { on = 1; sub(/.*set\(WARDEN_PROGRAM_LAYERS/, "") }
  on { line = $0; done = sub(/\).*/, "", line); sub(/#.*/, "", line); printf "%s ", line; if (done) exit }
' "$cmakelists" | xargs)

cd "$root"
mapfile -t files < <(find include/warden src -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.cpp' -o -name '*.inl' \) 2>/dev/null | sort)
(( ${#files[@]} )) || { echo "check-layers: no sources under $root/include/warden or $root/src" >&2; exit 2; }

drawing_status=0
if [[ -f README.md ]] && grep -q '^## The layers' README.md; then
  drawn=$(awk '/^## / { if (under) exit; under = ($0 ~ /^## The layers/); next }
               under && /^```/ { if (inside) exit; inside = 1; next } inside { print $1 }' README.md | tac | xargs)
  if [[ -z "$drawn" ]]; then
    echo "README.md: the section \"## The layers\" has no drawing (a fenced block, top layer first)"
    drawing_status=1
  elif [[ "$drawn" != "$layers" ]]; then
    echo "README.md: the drawing under \"## The layers\" reads, bottom first, \"$drawn\"; WARDEN_LAYERS in CMakeLists.txt (and cli on top) reads \"$layers\""
    drawing_status=1
  fi
fi

checks_status=0
awk -v layers="$layers" -v programs="$programs cli" '
  BEGIN {
    n = split(layers, order, " ")
    split(programs, program_list, " ")
    for (i in program_list) program[program_list[i]] = 1
    for (i = 1; i <= n; i++) { rank[order[i]] = i; chain = chain (i > 1 ? " < " : "") order[i] }
    bad = 0
  }
  function fail(msg) { print msg; bad++ }
  FNR == 1 {
    # include/warden/<layer>/... or src/<layer>/...; a file directly in include/warden/ or src/
    # (version.h, say) belongs to no layer and is read only for what it includes.
    path = FILENAME; own = ""; files++
    if (match(path, /^include\/warden\/[^\/]+\//)) own = substr(path, 16, RLENGTH - 16)
    else if (match(path, /^src\/[^\/]+\//)) own = substr(path, 5, RLENGTH - 5)
    if (own != "" && !(own in rank)) {
      fail(path ": folder \"" own "\" is not a layer: add it to WARDEN_LAYERS in CMakeLists.txt (order: " chain ")")
      nextfile
    }
    expected = own == "core" ? "warden" : "warden::" own
    # A message list of a library layer (see the exception in the file comment).
    message_list = path ~ /^include\/warden\/[^\/]+\/messages\.h$/ && own != "core" && !(own in program)
  }
  message_list && !/^[[:space:]]*(\/\/.*)?$/ && !/^#pragma once$/ && !/^#define WARDEN_MESSAGES_[A-Z]+\(X\) \\$/ &&
      !/^  X\([a-z]+, [A-Za-z0-9]+, [0-9]+, ".*"\)( \\)?$/ {
    fail(FILENAME ":" FNR ": a message list holds only its X-macro list and comments (core/messages.h includes it)")
    next
  }
  /^[[:space:]]*#[[:space:]]*include[[:space:]]*["<]/ {
    target = $0
    sub(/^[[:space:]]*#[[:space:]]*include[[:space:]]*["<]/, "", target)
    sub(/[">].*/, "", target)
    layer = target
    sub(/^warden\//, "", layer)
    if (layer !~ /\//) next
    sub(/\/.*/, "", layer)
    gathered = FILENAME == "include/warden/core/messages.h" && target == "warden/" layer "/messages.h" && !(layer in program)
    if (own != "" && (layer in rank) && rank[layer] > rank[own] && !gathered)
      fail(FILENAME ":" FNR ": layer " own " includes " target " of layer " layer ", which is above it (order: " chain ")")
    next
  }
  own != "" && /^namespace warden[:[:alnum:]_]*[[:space:]]*\{/ {
    ns = $2; sub(/\{.*/, "", ns)
    if (!(ns == expected || (own != "core" && index(ns, expected "::") == 1)))
      fail(FILENAME ":" FNR ": namespace " ns " in layer folder " own "/; its files are namespace " expected)
  }
  END {
    if (bad) { printf "check-layers: %d violation(s)\n", bad; exit 1 }
    printf "check-layers: %d files, layers %s: no upward include, one namespace per folder\n", files, chain
  }
' "${files[@]}" || checks_status=$?
(( drawing_status == 0 && checks_status == 0 )) || exit 1
