#!/usr/bin/env bash
# The generated <webgpu/webgpu.h> and <webgpu/warden_procs.inc> (tools/webgpu-header/), checked
# from outside; each case is one ctest test.
#   header_checks.sh compiles      <build include dir> <work dir>
#       webgpu.h alone compiles as C11 and as C++20 with -Wall -Wextra -Wpedantic -Wconversion
#       -Wshadow -Werror, with its declarations and without (WGPU_SKIP_DECLARATIONS)
#   header_checks.sh exports       <build include dir> <Dawn library> <checked-in export list>
#       the list's entry points are exactly the library's wgpu* exports, and the checked-in list
#       the generator was given is too
#   header_checks.sh deterministic <build include dir> <source dir> <tables dir> <work dir>
#       two runs of the generator write the same bytes, and those of the build
#   header_checks.sh missing-export <source dir> <tables dir> <work dir>
#       an export without a signature fails the generator, naming the export
#   header_checks.sh from-header   <build include dir> <source dir> <work dir>
#       the list made from a header's WGPUProc typedefs (WARDEN_WEBGPU_HEADER) is the generated one
set -euo pipefail
mode=$1; shift
fail() { echo "header_checks.sh ($mode): $*" >&2; exit 1; }
# The X(...) lines of a warden_procs.inc, without its comment (which names its source).
entries() { awk '/^#define WARDEN_WEBGPU_PROCS\(X\)/ { on = 1; next } on && /^  X\(/ { print; next } on { exit }' "$1"; }
generate() {  # <source> <tables> <exports> <out>
  node "$1/tools/webgpu-header/generate.mjs" --tables "$2" --exports "$3" --out "$4"
}

case "$mode" in
  compiles)
    include=$1 work=$2
    rm -rf "$work" && mkdir -p "$work"
    printf '#include <webgpu/webgpu.h>\n' > "$work/unit.c"
    printf '#define WGPU_SKIP_DECLARATIONS\n#include <webgpu/webgpu.h>\n#include <webgpu/warden_procs.inc>\n' > "$work/skip.c"
    warnings=(-Wall -Wextra -Wpedantic -Wconversion -Wshadow -Werror -fsyntax-only -I "$include")
    for unit in unit skip; do
      cc -std=c11 "${warnings[@]}" "$work/$unit.c" || fail "$unit.c does not compile as C11"
      c++ -x c++ -std=c++20 "${warnings[@]}" "$work/$unit.c" || fail "$unit.c does not compile as C++20"
    done
    echo "webgpu.h compiles alone as C11 and C++20, with and without its declarations"
    ;;
  exports)
    include=$1 library=$2 list=$3
    nm -D --defined-only "$library" | awk '$2 == "T" && $3 ~ /^wgpu/ { print $3 }' | sort > "${TMPDIR:-/tmp}/exports.$$"
    trap 'rm -f "${TMPDIR:-/tmp}/exports.$$"' EXIT
    exported="${TMPDIR:-/tmp}/exports.$$"
    listed=$(entries "$include/webgpu/warden_procs.inc" | sed 's/^  X([^,]*, \([A-Za-z0-9]*\),.*/wgpu\1/' | sort)
    diff <(echo "$listed") "$exported" || fail "warden_procs.inc (<) and the exports of $library (>) differ"
    diff <(grep '^wgpu' "$list" | sort) "$exported" || fail "$list (<) and the exports of $library (>) differ"
    echo "warden_procs.inc lists the $(wc -l < "$exported") wgpu* exports of $library, no more, no fewer"
    ;;
  deterministic)
    include=$1 source=$2 tables=$3 work=$4
    rm -rf "$work" && mkdir -p "$work"
    for run in 1 2; do
      generate "$source" "$tables" "$source/tools/webgpu-header/webgpu_exports.txt" "$work/$run"
    done
    for file in webgpu.h warden_procs.inc warden_enum_names.inc; do
      cmp "$work/1/webgpu/$file" "$work/2/webgpu/$file" || fail "two runs wrote different $file"
      cmp "$work/1/webgpu/$file" "$include/webgpu/$file" || fail "a run wrote another $file than the build's"
    done
    echo "two runs and the build: the same webgpu.h ($(wc -c < "$work/1/webgpu/webgpu.h") bytes) and warden_procs.inc"
    ;;
  missing-export)
    source=$1 tables=$2 work=$3
    rm -rf "$work" && mkdir -p "$work"
    { cat "$source/tools/webgpu-header/webgpu_exports.txt"; echo wgpuDeviceFrobnicate; } > "$work/exports.txt"
    if generate "$source" "$tables" "$work/exports.txt" "$work/out" 2> "$work/stderr"; then
      fail "the generator accepted an export without a signature"
    fi
    grep -q "1 exports of the library have no signature: wgpuDeviceFrobnicate" "$work/stderr" ||
      fail "the generator's words do not name the export: $(cat "$work/stderr")"
    [[ ! -e "$work/out/webgpu/webgpu.h" ]] || fail "the failed generator wrote a header"
    echo "refused, in its words: $(cat "$work/stderr")"
    ;;
  from-header)
    include=$1 source=$2 work=$3
    rm -rf "$work" && mkdir -p "$work"
    node "$source/tools/webgpu-header/generate.mjs" --from-header "$include/webgpu/webgpu.h" --out "$work"
    diff <(entries "$include/webgpu/warden_procs.inc") <(entries "$work/webgpu/warden_procs.inc") ||
      fail "the list made from the header's WGPUProc typedefs (>) is not the generated one (<)"
    diff <(grep '^  X([A-Za-z]*)' "$include/webgpu/warden_procs.inc") <(grep '^  X([A-Za-z]*)' "$work/webgpu/warden_procs.inc") ||
      fail "the object types read from the header (>) are not the generated ones (<)"
    echo "from the header alone: the same $(entries "$work/webgpu/warden_procs.inc" | wc -l) entry points"
    ;;
  *)
    echo "header_checks.sh: mode must be compiles, exports, deterministic, missing-export or from-header, not '$mode'" >&2
    exit 2
    ;;
esac
