# Sourced by scripts/bench-gpu.sh and scripts/test-gpu.sh on the GPU machine: the loaders from
# the carried debs (.gl/*.deb: libvulkan1 and the GL/EGL dispatch libraries, which its image
# lacks), NVIDIA's Vulkan ICD and EGL vendor file, and the carried libraries on the search path.
gpu_machine_prepare() {  # <folder of carried libraries>
  local libs=$1 root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  if compgen -G "$root/.gl/*.deb" > /dev/null; then
    local deb
    for deb in "$root"/.gl/*.deb; do dpkg -x "$deb" /; done
    ldconfig
    # Dawn's GL backend opens libEGL.so, the development name, which the runtime package lacks.
    local egl
    egl=$(ldconfig -p | awk '/libEGL\.so\.1 .*x86-64/ { print $NF; exit }')
    [[ -n "$egl" && ! -e "${egl%.1}" ]] && ln -s "$egl" "${egl%.1}"
  fi
  local icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  [[ -f "$icd" && -z "${VK_DRIVER_FILES:-}" ]] && export VK_DRIVER_FILES="$icd"
  local egl=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
  [[ -f "$egl" && -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ]] && export __EGL_VENDOR_LIBRARY_FILENAMES="$egl"
  export LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  # Windowed tests need an X server; the GPU machine has none to start (tests/support/xvfb.h).
  command -v Xvfb > /dev/null || export WARDEN_TEST_WITHOUT_DISPLAY=1
  # The report's page test needs a browser, which it has not either.
  command -v "${WARDEN_CHROMIUM:-chromium}" > /dev/null || export WARDEN_TEST_WITHOUT_BROWSER=1
  return 0
}
