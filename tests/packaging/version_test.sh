#!/usr/bin/env bash
# The version is written once, in project(warden VERSION ...); every place a user reads it must
# say the same. Names each place that disagrees and exits 1.
#   version_test.sh <project version> <warden build dir> <warden executable> <CHANGELOG.md>
set -euo pipefail
expected=$1 build=$2 tool=$3 changelog=$4
here=$(dirname "${BASH_SOURCE[0]}")

header=$(sed -n 's/^#define WARDEN_VERSION_STRING "\(.*\)"$/\1/p' "$build/include/warden/version.h")
# What find_package(warden <version>) compares against: the file's own PACKAGE_VERSION.
package=$(cmake -DVERSION_FILE="$build/wardenConfigVersion.cmake" -P "$here/print_package_version.cmake" 2>&1)
cli=$("$tool" --version)
pc=$(PKG_CONFIG_PATH="$build/pkgconfig" pkg-config --modversion warden)
# The newest released heading: the first "## [x.y.z]" (Keep a Changelog), "Unreleased" skipped.
released=$(sed -n 's/^## \[\([0-9][0-9.]*\)\].*/\1/p' "$changelog" | head -1)

status=0
check() {  # <where> <what it says>
  if [[ "$2" == "$expected" ]]; then
    echo "$1: $2"
  else
    echo "$1 says '$2', project(warden VERSION) says '$expected'" >&2
    status=1
  fi
}
check "include/warden/version.h WARDEN_VERSION_STRING" "$header"
check "wardenConfigVersion.cmake PACKAGE_VERSION" "$package"
check "warden --version" "${cli#warden }"
check "warden.pc Version (pkg-config --modversion)" "$pc"
check "CHANGELOG.md newest released heading" "$released"
exit $status
