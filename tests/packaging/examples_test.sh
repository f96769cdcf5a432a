#!/usr/bin/env bash
# warden as an application gets it, checked from outside: each mode is one ctest test.
#   examples_test.sh surface          <source> <build> <work> <dawn dir>
#       installs <build> into <work>/prefix; only the library's own headers and files are there,
#       Dawn too, and the libraries name no path of the build
#   examples_test.sh package          <source> <build> <work> <dawn dir>
#       installs, moves the prefix out of the build and source trees, builds examples/ against
#       it with find_package(warden) and runs every example with the build and source trees
#       out of sight: Dawn comes from the moved prefix, and the programs (headless) neither link
#       nor load GLFW or X11
#   examples_test.sh pkg-config       <source> <build> <work> <dawn dir>
#       the same with the first example built by `pkg-config --cflags --libs warden` alone
#   examples_test.sh window-component <source> <build> <work> <dawn dir>
#       installs and moves; a program that asks for COMPONENTS window (and warden-window.pc)
#       builds and runs; asking for it without GLFW fails naming glfw3 (warden alone without
#       GLFW and X11: the package mode)
#   examples_test.sh shared           <source> <build> <work> <dawn dir>
#       builds examples/ with add_subdirectory(<source>) and BUILD_SHARED_LIBS=ON, runs them,
#       checks what libwarden.so exports and needs; then installs that shared build, moves it,
#       and builds and runs the examples and a window program against it
set -euo pipefail
mode=$1 source=$2 build=$3 work=$4 dawn=$5
rm -rf "$work" && mkdir -p "$work"
examples="$source/examples"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
jobs=$(nproc)
# The examples are headless: they link warden::warden alone.
headless_examples=(compute_deferred_release gpu_driven msaa_resolve occlusion_query render_bundles shadow_map
  stencil_portal storage_texture survive_device_loss threaded_recording tile_viewer)

fail() { echo "examples_test.sh ($mode): $*" >&2; exit 1; }
install_prefix() { cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"; }

# Configures and builds the CMake project <project> in <dir>. With --no-as-needed every library
# on the link line is a run-time dependency, so ldd shows what the link was given.
build_project() {  # <project> <dir> <cmake args...>
  local project=$1 dir=$2; shift 2
  cmake -G "Unix Makefiles" -S "$project" -B "$dir" -DCMAKE_EXE_LINKER_FLAGS=-Wl,--no-as-needed "$@" \
    > "$dir.configure.log" 2>&1 || { tail -30 "$dir.configure.log"; fail "configuring $project failed"; }
  cmake --build "$dir" -j "$jobs" > "$dir.build.log" 2>&1 || { tail -30 "$dir.build.log"; fail "building $project failed"; }
}

# The install, copied to a folder outside the build and source trees and the original removed:
# what runs from there can only find what the prefix itself holds. Sets $moved.
move_prefix() {
  moved=$(mktemp -d "${TMPDIR:-/tmp}/warden-moved-prefix.XXXXXX")
  trap 'rm -rf "$moved"' EXIT
  case "$moved/" in "$build"/* | "$source"/*) fail "$moved is inside the build or source tree" ;; esac
  cp -a "$work/prefix/." "$moved/"
  rm -rf "$work/prefix"
  echo "prefix moved to $moved"
}

# Runs a command as if the build had been moved away: in a private mount namespace, an empty
# tmpfs over the build and the source trees (root, as ctest runs here). What the command finds,
# it finds in the moved prefix or the system; that the trees were really out of sight is checked.
without_build_tree() {  # <command> [args...]
  # shellcheck disable=SC2016  # the script is for the inner bash, which expands it
  unshare --mount -- bash -c '
    for tree in "$1" "$2"; do
      mount -t tmpfs warden-build-moved-away "$tree" || exit 97
      [[ -z "$(ls -A "$tree")" ]] || exit 98
    done
    shift 2
    exec "$@"' without_build_tree "$build" "$source" "$@"
}

# Runs a program with no say of ours in where Dawn is (no WARDEN_WEBGPU_LIB, no
# LD_LIBRARY_PATH) and prints the libwebgpu_wrapper.so the dynamic loader initialised.
loaded_dawn() {  # <program> [args...]
  local trace="$work/ld-debug"
  rm -f "$trace".*
  env -u WARDEN_WEBGPU_LIB -u LD_LIBRARY_PATH LD_DEBUG=files LD_DEBUG_OUTPUT="$trace" "$@" > "$work/run.log" 2>&1 ||
    { cat "$work/run.log"; fail "$* failed"; }
  cat "$trace".* | sed -n 's/.*calling init: \(.*\/libwebgpu_wrapper\.so\)$/\1/p' | head -1
}
expect_dawn_from_moved_prefix() {  # <program> [args...]
  local loaded
  loaded=$(loaded_dawn "$@")
  [[ -z "$loaded" ]] || loaded=$(realpath -s -m "$loaded")  # a run path's "lib/pkgconfig/../../"
  [[ "$loaded" == "$moved/lib/warden/dawn/libwebgpu_wrapper.so" ]] ||
    fail "$(basename "$1") loaded Dawn from '$loaded', not from the moved prefix's lib/warden/dawn/"
  echo "$(basename "$1") loaded $loaded"
}

# A headless program neither links nor loads GLFW or X11.
expect_headless() {  # <program> <its link command line>
  local program=$1 link_line=$2 libs
  if grep -Eio '[^ ]*(glfw|x11)[^ ]*' <<< "$link_line"; then
    fail "$(basename "$program") is linked with the GLFW or X11 libraries above"
  fi
  echo "link line of $(basename "$program"): $link_line"
  libs=$(ldd "$program")
  if grep -Ei 'libglfw|libX11' <<< "$libs"; then
    fail "$(basename "$program") loads GLFW or X11 (ldd above)"
  fi
  echo "ldd $(basename "$program"):"
  # shellcheck disable=SC2001  # the load addresses go, matched by a pattern
  sed 's/ (0x[0-9a-f]*)//' <<< "$libs"
}
link_line_of() { cat "$1/CMakeFiles/$2.dir/link.txt"; }  # <build dir> <target>

# Nothing of the build is named in a library's code or data: the source tree, the build folder
# and the Dawn folder it was given. (Debug information records where the sources were compiled; it is left out.) A
# path the compiler builds in place is stored in 16-byte pieces, so every 16 characters of the
# paths are looked for, not only the whole.
path_pieces() {  # <path>...
  local path n i
  for path in "$@"; do
    n=$(( ${#path} < 16 ? ${#path} : 16 ))
    for (( i = 0; i + n <= ${#path}; i++ )); do echo "${path:i:n}"; done
  done
}
expect_no_build_path() {  # <library>
  local library=$1 stripped found
  stripped="$work/$(basename "$1").stripped"
  objcopy --strip-debug "$library" "$stripped"
  found=$(strings "$stripped" | grep -F -f <(path_pieces "$source" "$build" "$dawn") | head -5 || true)
  [[ -z "$found" ]] || fail "$(basename "$library") names paths of the build ($source, $build, $dawn): $found"
  echo "$(basename "$library"): no path of the build ($source, $build, $dawn)"
}

# The examples built against the moved prefix with GLFW and X11 out of reach (the package must
# not ask for them when the window is not wanted), run with nothing pointing at this build and
# the build itself out of sight: each loads the moved prefix's Dawn, and none links or loads
# GLFW or X11.
build_and_run_headless_examples() {
  build_project "$examples" "$moved/examples" -DCMAKE_PREFIX_PATH="$moved" \
    -DCMAKE_DISABLE_FIND_PACKAGE_glfw3=ON -DCMAKE_DISABLE_FIND_PACKAGE_X11=ON
  local status=0
  without_build_tree env -u WARDEN_WEBGPU_LIB -u LD_LIBRARY_PATH \
    ctest --test-dir "$moved/examples" --output-on-failure || status=$?
  case $status in
    0) echo "the examples ran from $moved with $build and $source out of sight" ;;
    97 | 98) fail "could not hide the build and source trees (unshare --mount, tmpfs; exit $status)" ;;
    *) fail "the examples failed with the build and source trees out of sight (exit $status)" ;;
  esac
  expect_dawn_from_moved_prefix "$moved/examples/compute_deferred_release"
  for example in "${headless_examples[@]}"; do
    expect_headless "$moved/examples/$example" "$(link_line_of "$moved/examples" "$example")"
  done
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
    for wanted in version.h resources/registry.h tiles/layer_pool.h gpu/context.h present/window.h; do
      [[ -f "$include/$wanted" ]] || fail "missing from the install: $include/$wanted"
    done
    # The generated C API (docs/adr/0032) beside warden's headers.
    for wanted in webgpu.h warden_procs.inc; do
      [[ -f "$work/prefix/include/webgpu/$wanted" ]] || fail "missing from the install: include/webgpu/$wanted"
    done
    for wanted in warden.pc warden-window.pc; do
      [[ -n "$(find "$work/prefix" -name "$wanted")" ]] || fail "no $wanted installed"
    done
    for wanted in libwebgpu_wrapper.so LICENSE.dawn-wrapper; do
      [[ -f "$work/prefix/lib/warden/dawn/$wanted" ]] || fail "Dawn's $wanted is not in lib/warden/dawn/"
    done
    for library in libwarden.a libwarden_window.a; do
      [[ -f "$work/prefix/lib/$library" ]] || fail "no lib/$library installed"
      expect_no_build_path "$work/prefix/lib/$library"
    done
    echo "installed headers: $(find "$include" -name '*.h' | wc -l); Dawn: lib/warden/dawn/"
    ;;
  package)
    install_prefix
    move_prefix
    build_and_run_headless_examples
    # The installed tool, static, finds the moved prefix's Dawn through its run path.
    library=$(env -u WARDEN_WEBGPU_LIB -u LD_LIBRARY_PATH "$moved/bin/warden" info --json --backend null |
      sed -n 's/.*"library":"\([^"]*\)".*/\1/p')
    [[ "$library" == "$moved/lib/warden/dawn/libwebgpu_wrapper.so" ]] ||
      fail "the installed warden command loaded Dawn from '$library'"
    echo "warden info: library $library"
    # libwarden_webgpu.so exports webgpu.h's entry points and warden's extension of it, nothing
    # else (cmake/warden-webgpu.map): a program links it in place of Dawn.
    webgpu=$(find "$moved/lib" -maxdepth 1 -name 'libwarden_webgpu.so.*' -type f | head -1)
    [[ -n "$webgpu" ]] || fail "the install holds no libwarden_webgpu.so"
    webgpu_exported=$(nm -D --defined-only "$webgpu" | awk '{print $3}')
    webgpu_foreign=$(grep -Ev '^(wgpu[A-Z]|warden[A-Z])' <<< "$webgpu_exported" || true)
    [[ -z "$webgpu_foreign" ]] || fail "libwarden_webgpu.so exports more than wgpu* and warden*: $(head -5 <<< "$webgpu_foreign")"
    echo "libwarden_webgpu.so: $(grep -c '^wgpu' <<< "$webgpu_exported") wgpu* entry points exported, nothing else of warden's"
    ;;
  pkg-config)
    install_prefix
    move_prefix
    export PKG_CONFIG_PATH="$moved/lib/pkgconfig"
    echo "pkg-config --modversion warden: $(pkg-config --modversion warden)"
    flags=$(pkg-config --cflags --libs warden)
    echo "pkg-config --cflags --libs warden: $flags"
    # <webgpu/webgpu.h> is found through warden's own flags, as C and as C++.
    printf '#include <webgpu/webgpu.h>\nint main(void) { return WGPUTextureFormat_RGBA8Unorm == 0x12 ? 0 : 1; }\n' > "$moved/webgpu_h.c"
    # shellcheck disable=SC2046  # pkg-config's output is a list of words
    cc -std=c11 -fsyntax-only $(pkg-config --cflags warden) "$moved/webgpu_h.c" ||
      fail "<webgpu/webgpu.h> is not found by pkg-config --cflags warden"
    # shellcheck disable=SC2086  # pkg-config's output is a list of words
    c++ -std=c++20 -Wl,--no-as-needed -o "$moved/compute_deferred_release" \
      "$examples/compute_deferred_release.cpp" $flags
    expect_headless "$moved/compute_deferred_release" "$flags"
    expect_dawn_from_moved_prefix "$moved/compute_deferred_release"
    # The plain C program for webgpu.h, linked by `pkg-config --cflags --libs warden-webgpu` alone
    # in place of Dawn, survives its losses from the moved prefix.
    webgpu_flags=$(pkg-config --cflags --libs warden-webgpu)
    echo "pkg-config --cflags --libs warden-webgpu: $webgpu_flags"
    # shellcheck disable=SC2086  # pkg-config's output is a list of words
    cc -std=c11 -o "$moved/webgpu_survive_loss" "$examples/webgpu_survive_loss.c" $webgpu_flags \
      -Wl,-rpath,"$moved/lib" || fail "webgpu_survive_loss.c does not build with pkg-config --libs warden-webgpu"
    env -u WARDEN_WEBGPU_LIB "$moved/webgpu_survive_loss" 2 || fail "webgpu_survive_loss linked through pkg-config failed"
    window_flags=$(pkg-config --libs warden-window)
    for wanted in -lwarden_window -lwarden -lglfw -lX11; do
      grep -qw -- "$wanted" <<< "$window_flags" || fail "pkg-config --libs warden-window lacks $wanted: $window_flags"
    done
    echo "pkg-config --libs warden-window: $window_flags"
    ;;
  window-component)
    install_prefix
    move_prefix
    consumer="$here/window_consumer"
    build_project "$consumer" "$moved/window" -DCMAKE_PREFIX_PATH="$moved"
    link_line=$(link_line_of "$moved/window" window_consumer)
    for wanted in libwarden_window.a libglfw libX11; do
      grep -q "$wanted" <<< "$link_line" || fail "window_consumer's link line lacks $wanted: $link_line"
    done
    echo "link line of window_consumer: $link_line"
    said=$(env -u DISPLAY "$moved/window/window_consumer")
    [[ "$said" == "display: present.DisplayNotSet: "* ]] || fail "window_consumer said '$said'"
    echo "window_consumer (no DISPLAY): $said"
    ldd "$moved/window/window_consumer" | grep -E 'libglfw|libX11'
    # Without GLFW the window cannot be had, and the reason names it; warden alone still can.
    if cmake -S "$consumer" -B "$moved/no-glfw" -DCMAKE_PREFIX_PATH="$moved" \
         -DCMAKE_DISABLE_FIND_PACKAGE_glfw3=ON > "$moved/no-glfw.log" 2>&1; then
      fail "COMPONENTS window configured without glfw3"
    fi
    grep -q "links glfw3" "$moved/no-glfw.log" || { cat "$moved/no-glfw.log"; fail "the failure does not name glfw3"; }
    grep -A4 "Reason given by package" "$moved/no-glfw.log"
    ;;
  shared)
    # A source-tree build: the consumer says where Dawn is.
    export WARDEN_WEBGPU_LIB="$dawn/libwebgpu_wrapper.so"
    # A unity build, as the Makefile's trees are (docs/adr/0040).
    # Without warden::webgpu: the package mode checks it as installed; here it would only add a
    # second build of it to the longest test of `make test`.
    # One example (a loss, identical frames) over the shared libraries: every example is built
    # and run from the installed package in the package mode already.
    build_project "$examples" "$work/examples" -DWARDEN_SOURCE_DIR="$source" -DBUILD_SHARED_LIBS=ON -DCMAKE_UNITY_BUILD=ON \
      -DWARDEN_WINDOW=ON -DWARDEN_INSTALL=ON -DWARDEN_WEBGPU=OFF -DWARDEN_DAWN_DIR="$dawn" \
      -DWARDEN_EXAMPLES_ONLY="survive_device_loss;tile_viewer"
    ctest --test-dir "$work/examples" --output-on-failure
    unset WARDEN_WEBGPU_LIB
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
    # Needed, besides the C and C++ runtime: exactly the libraries' dependencies (the lists in
    # wardenConfig.cmake.in and the .pc files); GLFW and X11 are the window's alone.
    needed_of() {
      readelf -d "$1" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | sed 's/\.so.*//' |
        grep -Ev '^(libc|libm|libgcc_s|libstdc\+\+|ld-linux.*)$' | LC_ALL=C sort | tr '\n' ' '
    }
    needed=$(needed_of "$library")
    [[ "$needed" == "libfmt libpng16 " ]] || fail "libwarden.so needs '$needed', expected 'libfmt libpng16 '"
    window=$(find "$work/examples" -name 'libwarden_window.so.*' -type f | head -1)
    window_needed=$(needed_of "$window")
    [[ "$window_needed" == "libX11 libfmt libglfw libwarden " ]] ||
      fail "libwarden_window.so needs '$window_needed', expected 'libX11 libfmt libglfw libwarden '"
    echo "libwarden.so: $(wc -l <<< "$exported") symbols exported, all in namespace warden; needs $needed"
    echo "libwarden_window.so needs $window_needed"
    expect_no_build_path "$library"

    # The same shared build installed and moved: a shared libwarden finds warden/dawn/ beside
    # itself; the headless programs neither link nor load GLFW or X11.
    cmake --install "$work/examples" --prefix "$work/prefix" > "$work/install.log"
    move_prefix
    build_and_run_headless_examples
    expect_no_build_path "$(find "$moved/lib" -name 'libwarden.so.*' -type f | head -1)"
    build_project "$here/window_consumer" "$moved/window" -DCMAKE_PREFIX_PATH="$moved"
    ldd "$moved/window/window_consumer" | grep -E 'libwarden_window|libglfw' ||
      fail "window_consumer does not load libwarden_window and GLFW"
    ;;
  *)
    echo "examples_test.sh: mode must be surface, package, pkg-config, window-component or shared, not '$mode'" >&2
    exit 2
    ;;
esac
