#!/usr/bin/env bash
# Builds tests/packaging/consumer against warden and runs it.
#   consumer_test.sh package      <warden source> <warden build> <work dir>
#       installs <warden build> into <work dir>/prefix, then find_package(warden) from there
#   consumer_test.sh subdirectory <warden source> <warden build> <work dir>
#       add_subdirectory(<warden source>): builds warden's library inside the consumer
set -euo pipefail
mode=$1 source=$2 build=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
consumer="$source/tests/packaging/consumer"
case "$mode" in
  package)
    cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
    cmake -S "$consumer" -B "$work/build" -DWARDEN_CONSUMER_MODE=package \
      -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure.log"
    ;;
  subdirectory)
    cmake -S "$consumer" -B "$work/build" -DWARDEN_CONSUMER_MODE=subdirectory \
      -DWARDEN_SOURCE_DIR="$source" > "$work/configure.log"
    ;;
  *)
    echo "consumer_test.sh: mode must be package or subdirectory, not '$mode'" >&2
    exit 2
    ;;
esac
cmake --build "$work/build" -j "$(nproc)" > "$work/build.log" || { tail -30 "$work/build.log"; exit 1; }
output=$("$work/build/consumer")  # set -e: a non-zero exit fails the test here
echo "$output"
grep -q "^consumer: ok (warden [0-9.]*)$" <<< "$output"
