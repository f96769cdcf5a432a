#!/usr/bin/env bash
# Compiles what an application compiles, with an application's strict flags: -I (not -isystem,
# so warden's headers get no system-header pass), -std=c++20 -Wall -Wextra -Wpedantic -Werror.
#   compile_with_warnings.sh headers  <c++ compiler> <source dir> <build dir> <work dir>
#     every installed header alone (a translation unit that includes only it: include/warden/
#     less the program folders demo/ and app/, plus the generated version.h), and
#     tests/headers/designated_fields.cpp (descriptions initialized by a few designators).
#   compile_with_warnings.sh headers-together <c++ compiler> <source dir> <build dir> <work dir>
#     the same headers all in one translation unit, and designated_fields.cpp: a second compiler's
#     warnings are a property of the header's text, which one unit shows as well as one per header does;
#     whether each header stands alone is the first compiler's part (a third of the time).
#   compile_with_warnings.sh examples <c++ compiler> <source dir> <build dir> <work dir>
#     examples/*.cpp, the `<!-- file: NAME.cpp -->` blocks of docs/getting-started.md and the
#     first ```cpp block of README.md, each a complete translation unit.
# Syntax only (-fsyntax-only): warnings come from the front end. The units are compiled in
# parallel, one per core; every failure is printed, then the script exits 1.
set -euo pipefail
if [[ $# -ne 5 ]]; then
  echo "usage: compile_with_warnings.sh headers|headers-together|examples <c++ compiler> <source dir> <build dir> <work dir>" >&2
  exit 2
fi
what=$1 cxx=$2 src=$3 build=$4 work=$5
command -v "$cxx" > /dev/null || { echo "compile_with_warnings: no compiler '$cxx' on PATH" >&2; exit 1; }
echo "compile_with_warnings: $("$cxx" --version | head -n 1)"
flags=(-std=c++20 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I "$src/include" -I "$build/include")

rm -rf "$work"
mkdir -p "$work/units" "$work/logs"
units=()

case $what in
  headers|headers-together)
    [[ -f "$build/include/warden/version.h" ]] || { echo "compile_with_warnings: $build/include/warden/version.h is missing (configure the build first)" >&2; exit 1; }
    # The program folders are not installed (CMakeLists.txt, WARDEN_PROGRAM_LAYERS).
    headers=(warden/version.h)
    while IFS= read -r header; do
      headers+=("${header#"$src/include/"}")
    done < <(find "$src/include/warden" -name '*.h' -not -path '*/warden/demo/*' -not -path '*/warden/app/*' | sort)
    if [[ $what == headers ]]; then
      for rel in "${headers[@]}"; do
        unit="$work/units/$(echo "$rel" | tr '/.' '__').cpp"
        printf '#include "%s"\n' "$rel" > "$unit"
        units+=("$unit")
      done
    else
      printf '#include "%s"\n' "${headers[@]}" > "$work/units/all_headers.cpp"
      units+=("$work/units/all_headers.cpp")
    fi
    units+=("$src/tests/headers/designated_fields.cpp")
    ;;
  examples)
    units+=("$src"/examples/*.cpp)
    # A block is the fenced block right after its marker line; README's is its first ```cpp.
    awk -v dir="$work/units" '
      /^<!-- file: [A-Za-z0-9_.-]+\.cpp -->$/ { name = $3; next }
      name != "" && !open && /^```/ { open = 1; out = dir "/getting-started_" name; printf "" > out; next }
      open && /^```$/ { open = 0; close(out); name = ""; next }
      open { print > out }' "$src/docs/getting-started.md"
    awk -v out="$work/units/README_first_block.cpp" '
      !open && /^```cpp$/ { open = 1; next }
      open && /^```$/ { exit }
      open { print > out }' "$src/README.md"
    [[ -s "$work/units/README_first_block.cpp" ]] || { echo "compile_with_warnings: README.md has no \`\`\`cpp block" >&2; exit 1; }
    units+=("$work"/units/getting-started_*.cpp "$work/units/README_first_block.cpp")
    ;;
  *)
    echo "compile_with_warnings: unknown set '$what' (headers or examples)" >&2
    exit 2
    ;;
esac

# One compiler per core; each writes its own log, named after its unit.
export cxx work
printf '%s\0' "${units[@]}" | xargs -0 -P "$(nproc)" -I{} bash -c '
  unit=$1; shift
  "$cxx" "$@" "$unit" > "$work/logs/$(basename "$unit").log" 2>&1 || echo "$unit" >> "$work/logs/failed"
' _ {} "${flags[@]}"

if [[ -s "$work/logs/failed" ]]; then
  while IFS= read -r unit; do
    echo "compile_with_warnings: FAILED $unit ($cxx ${flags[*]}):"
    cat "$work/logs/$(basename "$unit").log"
  done < <(sort "$work/logs/failed")
  echo "compile_with_warnings: $(wc -l < "$work/logs/failed") of ${#units[@]} units fail with $cxx" >&2
  exit 1
fi
echo "compile_with_warnings: ${#units[@]} units compile with $cxx ${flags[*]}"
