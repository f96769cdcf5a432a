#!/usr/bin/env bash
# Installs the Debian packages warden builds and runs with. Idempotent: when every package is
# already installed it asks dpkg once and returns in well under a second.
set -euo pipefail

packages=(
  cmake make g++ pkg-config
  libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev libpng-dev
  # The demo: JPEG decoding, base64 for the report's inlined snapshots, NASA Blue Marble
  # imagery, and headless Chromium for the report's rendering test.
  libjpeg62-turbo-dev libssl-dev xplanet-images chromium
  # The GL path of Dawn: Mesa's llvmpipe through EGL (see docs/adr/0001).
  libegl1 libegl-mesa0 libgles2 libgl1-mesa-dri
  # Windows and presentation: GLFW on X11 (glfw3native.h wants the Xrandr headers); the
  # tests start their own Xvfb (docs/presentation.md).
  libglfw3-dev libx11-dev libxrandr-dev xvfb
  # Valgrind runs in `make memcheck`.
  valgrind
  # `make bench` draws its curves as SVG (scripts/bench-plot.sh).
  gnuplot-nox
  # The API reference and its check in `make test` (docs/api/Doxyfile).
  doxygen
  # `make fuzz`: clang with libFuzzer's runtime (docs/fuzzing.md).
  clang libclang-rt-14-dev
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  if [[ $(id -u) -ne 0 ]]; then
    echo "setup: need root to install packages (run as root or install them yourself)" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if ! command -v npm >/dev/null 2>&1; then
  echo "setup: npm is needed to fetch Dawn (Debian: apt-get install nodejs npm)" >&2
  exit 1
fi
