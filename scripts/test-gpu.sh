#!/usr/bin/env bash
# The test suite on a GPU machine that has no compiler, no package registry and no build tree:
# build here, carry the test programs and everything they read, run them there against the
# machine's Vulkan (and GL through its EGL), one process per test.
#
#   scripts/test-gpu.sh pack [BUILD_DIR] [DEST]   here: lays every test program (stripped) and
#                                                  what the tests read beside them in DEST/bin/
#                                                  (the `warden` program, tests/data as data/,
#                                                  the ledger probe, the stand-ins for Dawn
#                                                  builds that lack entries, Dawn as
#                                                  dawn/libwebgpu_wrapper.so, the published Dawn
#                                                  builds as dawn-samples/), the libraries a bare
#                                                  machine lacks in DEST/lib/, and packs DEST
#                                                  into DEST.tar.xz (default .test-gpu, in
#                                                  .gitignore; carry the .tar.xz)
#   scripts/test-gpu.sh run [ARCHIVE] [OUT_DIR]    there, from the repository root: unpacks the
#                                                  archive, sets up the loaders (scripts/
#                                                  gpu-machine.sh), runs each test of each
#                                                  program in a process of its own with
#                                                  WARDEN_TEST_BACKEND (vulkan unless set) and
#                                                  writes OUT_DIR/summary.txt: passed, skipped
#                                                  with the reason each gave, failed with its
#                                                  output (default $OUT or out/test-gpu)
#
# The tests find what they read beside their program first (tests/support/test_files.h), so the
# build's absolute paths need not exist there. The windowed tests need Xvfb, which the GPU
# machine lacks, and the report page test chromium: they are skipped there, saying why
# (WARDEN_TEST_WITHOUT_DISPLAY and WARDEN_TEST_WITHOUT_BROWSER, set by scripts/gpu-machine.sh
# when neither is installed). TEST_GPU_FILTER (an extended regular expression over "<program>
# <Suite>.<test>") runs a part of the suite.
# Exit status: 0 when no test failed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode="${1:-}"

pack() {
  local build="${1:-$root/build}" dest="${2:-$root/.test-gpu}"
  rm -rf "$dest" "$dest.tar.xz" && mkdir -p "$dest/bin/dawn" "$dest/lib"
  local program
  for program in "$build"/tests/test_* "$build"/tests/ledger_leak_probe "$build"/warden; do
    [[ -x "$program" && -f "$program" ]] || continue
    strip --strip-debug -o "$dest/bin/$(basename "$program")" "$program"
  done
  for program in "$build"/tests/libdawn_without_*.so; do
    strip --strip-debug -o "$dest/bin/$(basename "$program")" "$program"
  done
  local dawn_dir
  dawn_dir=$(sed -n 's/^WARDEN_DAWN_DIR:PATH=//p' "$build/CMakeCache.txt")
  cp -L "${dawn_dir:-$root/build/dawn}/libwebgpu_wrapper.so" "$dest/bin/dawn/"
  local samples
  samples=$(sed -n 's/^WARDEN_DAWN_SAMPLES_DIR:PATH=//p' "$build/CMakeCache.txt")
  [[ -d "$samples" ]] && cp -rL "$samples" "$dest/bin/dawn-samples"
  cp -rL "$root/tests/data" "$dest/bin/data"
  # The demo's Blue Marble (Debian's xplanet-images, which the machine there lacks) and the
  # report's charting library.
  mkdir -p "$dest/images"
  cp -L /usr/share/xplanet/images/earth.jpg /usr/share/xplanet/images/night.jpg "$dest/images/"
  local uplot
  uplot=$(sed -n 's/^WARDEN_UPLOT_DIR:PATH=//p' "$build/CMakeCache.txt")
  cp -rL "${uplot:-$root/build/uplot}" "$dest/bin/uplot"
  # The libraries beyond the C and C++ runtimes and the loaders (carried as debs, .gl/).
  for program in "$dest"/bin/test_* "$dest/bin/warden"; do
    [[ -f "$program" ]] || continue
    ldd "$program" | awk '$3 ~ /^\// && $1 !~ /^(libc|libm|libstdc\+\+|libgcc_s|libdl|libpthread|librt|libvulkan|libEGL|libGL|libGLX|libOpenGL|libGLdispatch)\.so/ { print $3 }'
  done | sort -u | while read -r lib; do cp -L "$lib" "$dest/lib/"; done
  git -C "$root" rev-parse --short HEAD > "$dest/commit" 2>/dev/null || echo unknown > "$dest/commit"
  tar -C "$(dirname "$dest")" -cf - "$(basename "$dest")" | xz -T2 -6 > "$dest.tar.xz"
  du -sh "$dest" "$dest.tar.xz"
}

# One test in its own process: prints "<status> <program> <test>" and leaves its output in
# $work/logs/<program>.<test>.log. Status: passed, skipped or failed.
run_one() {  # <bin> <work> <program> <test>
  local bin=$1 work=$2 program=$3 test=$4 log rc=0
  log="$work/logs/$program.${test//\//_}.log"  # a parameterised test's name holds '/'

  (cd "$work" && WARDEN_TEST=1 timeout 300 "$bin/$program" --gtest_filter="$test" > "$log" 2>&1) || rc=$?
  if (( rc != 0 )); then
    echo "failed $program $test"
  elif grep -q '^\[  SKIPPED \]' "$log"; then
    echo "skipped $program $test"
  else
    echo "passed $program $test"
  fi
}

run() {
  local archive="${1:-$root/.test-gpu.tar.xz}" out="${2:-${OUT:-$root/out/test-gpu}}"
  local work=/tmp/warden-test-gpu
  rm -rf "$work" && mkdir -p "$work/logs" "$out"
  # Python's tarfile, not tar -J: the GPU machine's image need not have xz.
  python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$archive" "$work"
  local dest
  dest=$(find "$work" -mindepth 1 -maxdepth 1 -type d ! -name logs | head -n 1)
  # shellcheck source=gpu-machine.sh
  source "$root/scripts/gpu-machine.sh"
  gpu_machine_prepare "$dest/lib"
  export WARDEN_TEST_BACKEND="${WARDEN_TEST_BACKEND:-vulkan}"
  export WARDEN_WEBGPU_LIB="$dest/bin/dawn/libwebgpu_wrapper.so"
  export WARDEN_UPLOT_DIR="$dest/bin/uplot"
  local images=/usr/share/xplanet/images  # where the demo reads Blue Marble from
  if [[ ! -f "$images/earth.jpg" ]]; then mkdir -p "$images" && cp "$dest"/images/*.jpg "$images/"; fi
  local bin="$dest/bin" list="$work/tests.txt" program
  : > "$list"
  for program in "$bin"/test_*; do
    # --gtest_list_tests: a suite line ends with '.', its tests follow indented; comments after '#'.
    "$program" --gtest_list_tests 2>/dev/null | awk -v p="$(basename "$program")" '
      /^[^ ]/ { suite = $1; next }
      /^  / { print p, suite $1 }' >> "$list"
  done
  local filter="${TEST_GPU_FILTER:-.}"
  grep -E -- "$filter" "$list" > "$list.run" || true
  export -f run_one
  local jobs="${TEST_GPU_JOBS:-$(( $(nproc) / 2 > 1 ? $(nproc) / 2 : 1 ))}"
  xargs -P "$jobs" -L 1 bash -c 'run_one "$0" "$1" "$2" "$3"' "$bin" "$work" < "$list.run" | sort > "$work/results.txt"
  summarize "$work" "$dest" > "$out/summary.txt"
  cat "$out/summary.txt"
  ! grep -q '^failed ' "$work/results.txt"
}

summarize() {  # <work> <dest>
  local work=$1 dest=$2
  echo "commit $(cat "$dest/commit"), backend $WARDEN_TEST_BACKEND, $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1 || echo 'no nvidia-smi')"
  echo "$(grep -c '^passed ' "$work/results.txt") passed, $(grep -c '^failed ' "$work/results.txt") failed, $(grep -c '^skipped ' "$work/results.txt") skipped"
  local status program test
  while read -r status program test; do
    [[ $status == skipped ]] || continue
    echo "skipped: $program $test: $(grep -A1 -m1 'Skipped' "$work/logs/$program.${test//\//_}.log" | tail -n 1 | cut -c1-200)"
  done < "$work/results.txt"
  while read -r status program test; do
    [[ $status == failed ]] || continue
    echo "=== failed: $program $test"
    tail -n 25 "$work/logs/$program.${test//\//_}.log"
  done < "$work/results.txt"
}

case "$mode" in
  pack) shift; pack "$@" ;;
  run) shift; run "$@" ;;
  *) echo "usage: scripts/test-gpu.sh pack [BUILD_DIR] [DEST] | run [ARCHIVE] [OUT_DIR]" >&2; exit 2 ;;
esac
