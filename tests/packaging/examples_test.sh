#!/usr/bin/env bash
# warden as an application gets it, checked from outside: each mode is one ctest test.
#   examples_test.sh surface             <source> <build> <work>
#       installs <build> into <work>/prefix; only the library's own headers and files are there
#   examples_test.sh package             <source> <build> <work>
#       installs, then builds examples/ with find_package(warden) and runs every example
#   examples_test.sh pkg-config          <source> <build> <work>
#       installs, then builds the first example with `pkg-config --cflags --libs warden` alone
#   examples_test.sh subdirectory-shared <source> <build> <work>
#       builds examples/ with add_subdirectory(<source>) and BUILD_SHARED_LIBS=ON, runs them,
#       and checks what libwarden.so exports and needs
set -euo pipefail
mode=$1 source=$2 build=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
examples="$source/examples"
jobs=$(nproc)

fail() { echo "examples_test.sh ($mode): $*" >&2; exit 1; }
install_prefix() { cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"; }
build_examples() {  # <build dir> <cmake args...>
  local dir=$1; shift
  cmake -S "$examples" -B "$dir" "$@" > "$work/configure.log" || { tail -30 "$work/configure.log"; exit 1; }
  cmake --build "$dir" -j "$jobs" > "$work/build.log" || { tail -30 "$work/build.log"; exit 1; }
  ctest --test-dir "$dir" --output-on-failure
}

case "$mode" in
  surface)
    install_prefix
    include="$work/prefix/include/warden"
    # Harnesses and the warden command's own programs stay out of the installed headers.
    for unwanted in resources/churn.h demo app; do
      [[ ! -e "$include/$unwanted" ]] || fail "installed $include/$unwanted: not part of the library"
    done
    if grep -rln "ReferenceLayerPool\|run_churn_frames" "$include"; then
      fail "test scaffolding declared in the installed headers above"
    fi
    for wanted in version.h resources/registry.h tiles/layer_pool.h gpu/context.h; do
      [[ -f "$include/$wanted" ]] || fail "missing from the install: $include/$wanted"
    done
    pc=$(find "$work/prefix" -name warden.pc)
    [[ -n "$pc" ]] || fail "no warden.pc installed"
    echo "installed headers: $(find "$include" -name '*.h' | wc -l), pkg-config file: ${pc#"$work/prefix/"}"
    ;;
  package)
    install_prefix
    build_examples "$work/examples" -DCMAKE_PREFIX_PATH="$work/prefix"
    ;;
  pkg-config)
    install_prefix
    pc=$(find "$work/prefix" -name warden.pc)
    [[ -n "$pc" ]] || fail "no warden.pc installed"
    export PKG_CONFIG_PATH
    PKG_CONFIG_PATH=$(dirname "$pc")
    echo "pkg-config --modversion warden: $(pkg-config --modversion warden)"
    # shellcheck disable=SC2046  # pkg-config's output is a list of words
    c++ -std=c++20 -o "$work/compute_deferred_release" "$examples/compute_deferred_release.cpp" \
      $(pkg-config --cflags --libs warden)
    # A shared warden outside the loader's folders is found the usual way, not by an rpath.
    LD_LIBRARY_PATH="$(pkg-config --variable=libdir warden)" "$work/compute_deferred_release"
    ;;
  subdirectory-shared)
    build_examples "$work/examples" -DWARDEN_SOURCE_DIR="$source" -DBUILD_SHARED_LIBS=ON
    library=$(find "$work/examples" -name 'libwarden.so.*' -type f | head -1)
    [[ -n "$library" ]] || fail "BUILD_SHARED_LIBS=ON built no libwarden.so"
    # Exported: namespace warden only (cmake/warden.map), told by the mangled names: every one
    # begins with warden's nested name inside its kind's prefix; nothing of fmt or the standard
    # library that warden instantiates inside.
    exported=$(nm -D --defined-only "$library" | awk '{print $3}')
    foreign=$(grep -Ev '^_Z(Z|GVZ?|T[VIST]|Th[^N]*_|Tv[^N]*_)?N[KRO]*6warden' <<< "$exported" || true)
    [[ -z "$foreign" ]] || fail "libwarden.so exports symbols outside namespace warden:
$(head -20 <<< "$foreign" | c++filt)"
    grep -q '^warden::resources::Registry::create_buffer' < <(c++filt <<< "$exported") ||
      fail "warden::resources::Registry::create_buffer is not exported"
    # Needed, besides the C and C++ runtime: exactly the library's dependencies (the list in
    # wardenConfig.cmake.in and warden.pc).
    needed=$(readelf -d "$library" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | sed 's/\.so.*//' |
      grep -Ev '^(libc|libm|libgcc_s|libstdc\+\+|ld-linux.*)$' | sort | tr '\n' ' ')
    expected="libX11 libfmt libglfw libpng16 "
    [[ "$needed" == "$expected" ]] || fail "libwarden.so needs '$needed', expected '$expected'"
    echo "libwarden.so: $(wc -l <<< "$exported") symbols exported, all in namespace warden; needs $needed"
    ;;
  *)
    echo "examples_test.sh: mode must be surface, package, pkg-config or subdirectory-shared, not '$mode'" >&2
    exit 2
    ;;
esac
