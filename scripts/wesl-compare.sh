#!/usr/bin/env bash
# Checks warden's WESL linker against the reference linker (npm wesl, pinned in
# tools/wesl-reference/) on every case of the corpus (tests/data/wesl/corpus/<case>/: main.wesl,
# its modules and case.json; see tools/wesl-reference/link.mjs).
#
#   scripts/wesl-compare.sh [--reference-only] BUILD_DIR [CORPUS_DIR]
#
# For each case:
#   1. the reference links it (node tools/wesl-reference/link.mjs CASE_DIR, underscoreMangle, the
#      features of case.json) and BUILD_DIR/warden shader check must compile its output;
#   2. warden links it:
#        BUILD_DIR/warden shader check --linked --root CASE_DIR [--wesl-feature NAME=true|false]...
#          [--package NAME=DIR]... CASE_DIR/main.wesl
#      which prints the linked WGSL on stdout;
#   3. tools/wesl-reference/normalize.mjs compares the two as the same module (comments, layout
#      and the order of declarations aside).
# A case is identical when both steps succeed and the texts compare equal; otherwise it is
# explained when tests/data/wesl/known_differences.txt (lines 'case: reason'; '#' comments) lists
# it, and failed if not. A reference that cannot link a case, or whose output does not compile, is
# always a failure: the corpus is wrong. --reference-only runs step 1 alone (no warden linker
# needed), to check the corpus itself.
#
# The reference is installed into BUILD_DIR/wesl-reference (scripts/fetch-wesl-reference.sh;
# WESL_REFERENCE_DIR overrides the place). The texts of the last run are kept in
# BUILD_DIR/wesl-compare/<case>/{reference,warden}.wgsl, with what each command printed.
# Prints a line per case that is not identical, then
#   wesl-compare: N cases, M modules, K identical, E explained, F failed
# and exits 1 when F > 0 (2 on bad usage).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
reference_only=0
if [[ "${1:-}" == "--reference-only" ]]; then
  reference_only=1
  shift
fi
if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 [--reference-only] BUILD_DIR [CORPUS_DIR]" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)
corpus_dir=$(cd "${2:-$root/tests/data/wesl/corpus}" && pwd)
known_file="${WESL_KNOWN_DIFFERENCES:-$root/tests/data/wesl/known_differences.txt}"
warden="$build_dir/warden"
tools="$root/tools/wesl-reference"
out_root="$build_dir/wesl-compare"

if [[ ! -x "$warden" ]]; then
  echo "wesl-compare: $warden is missing (build warden first)" >&2
  exit 2
fi

export WESL_REFERENCE_DIR="${WESL_REFERENCE_DIR:-$build_dir/wesl-reference}"
"$root/scripts/fetch-wesl-reference.sh" "$WESL_REFERENCE_DIR"

# case name -> reason, from the known differences file
declare -A known=()
if [[ -f "$known_file" ]]; then
  while IFS= read -r line || [[ -n "$line" ]]; do
    line="${line%%#*}"
    [[ "$line" =~ ^[[:space:]]*([A-Za-z0-9_.-]+)[[:space:]]*:[[:space:]]*(.*[^[:space:]])[[:space:]]*$ ]] || continue
    known["${BASH_REMATCH[1]}"]="${BASH_REMATCH[2]}"
  done < "$known_file"
fi

# warden's flags for a case: one argument a line, from case.json
warden_flags() {
  # shellcheck disable=SC2016 # JavaScript template strings, not shell expansions
  node -e '
    const fs = require("fs"), path = require("path");
    const dir = process.argv[1];
    const file = path.join(dir, "case.json");
    const c = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {};
    const out = [];
    for (const [name, on] of Object.entries(c.features ?? {})) {
      out.push("--wesl-feature", `${name}=${on ? "true" : "false"}`);
    }
    for (const [name, rel] of Object.entries(c.packages ?? {})) {
      out.push("--package", `${name}=${path.join(dir, rel)}`);
    }
    if (out.length) process.stdout.write(out.join("\n") + "\n");
  ' "$1"
}

cases=0 modules=0 identical=0 explained=0 failed=0
rm -rf "$out_root"
mkdir -p "$out_root"

# report CASE VERDICT MESSAGE: counts the case as explained or failed and prints why
report() {
  local name="$1" what="$2" detail="${3:-}"
  if [[ -n "${known[$name]+x}" && "$what" == difference ]]; then
    explained=$((explained + 1))
    echo "explained  $name: ${known[$name]}"
  else
    failed=$((failed + 1))
    echo "FAILED     $name: $detail"
  fi
}

for case_dir in "$corpus_dir"/*/; do
  case_dir="${case_dir%/}"
  name=$(basename "$case_dir")
  [[ -f "$case_dir/main.wesl" ]] || continue
  cases=$((cases + 1))
  modules=$((modules + $(find "$case_dir" -type f \( -name '*.wesl' -o -name '*.wgsl' \) | wc -l)))
  out="$out_root/$name"
  mkdir -p "$out"

  # 1. the reference, and its output compiles
  if ! node "$tools/link.mjs" "$case_dir" > "$out/reference.wgsl" 2> "$out/reference.log"; then
    report "$name" corpus "the reference cannot link it: $(head -n 1 "$out/reference.log")"
    continue
  fi
  if ! "$warden" shader check "$out/reference.wgsl" > "$out/reference-check.log" 2>&1; then
    report "$name" corpus "the reference's output does not compile: $(head -n 1 "$out/reference-check.log")"
    continue
  fi
  if (( reference_only )); then
    identical=$((identical + 1))
    continue
  fi

  # 2. warden
  mapfile -t flags < <(warden_flags "$case_dir")
  if ! "$warden" shader check --linked --root "$case_dir" "${flags[@]}" "$case_dir/main.wesl" \
      > "$out/warden.wgsl" 2> "$out/warden.log"; then
    report "$name" difference "warden cannot link it: $(head -n 1 "$out/warden.log")"
    continue
  fi

  # 3. the same module?
  if node "$tools/normalize.mjs" "$out/reference.wgsl" "$out/warden.wgsl" > "$out/diff.txt" 2>&1; then
    identical=$((identical + 1))
    if [[ -n "${known[$name]+x}" ]]; then
      echo "note       $name: identical, but listed in $(basename "$known_file") (stale entry?)"
    fi
  else
    report "$name" difference "the linked output differs (see $out/diff.txt)"
    if [[ -z "${known[$name]+x}" ]]; then sed 's/^/             /' "$out/diff.txt" | head -n 40; fi
  fi
done

if (( reference_only )); then
  echo "wesl-compare: $cases cases, $modules modules, reference only: $identical linked and compiled, $failed failed"
else
  echo "wesl-compare: $cases cases, $modules modules, $identical identical, $explained explained, $failed failed"
fi
(( failed == 0 ))
