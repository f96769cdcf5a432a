// A stand-in for a Dawn build that lacks some entry points (every published build of the Dawn
// warden uses has them all). It exports each entry point of the header as a jump to the real
// library's, which it loads itself; tests/CMakeLists.txt links it once per case with a version
// script that keeps the entries to be missing out of its exports. x86-64 only: each export is
// one `jmp` through the address of the real entry, so the arguments pass through untouched.
#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include <webgpu/warden_procs.inc>

// The real library's entries, filled before anything can call an export.
extern "C" {
#define WARDEN_FORWARD_SLOT(Ret, Name, Params) __attribute__((visibility("hidden"))) void* warden_real_wgpu##Name = nullptr;
WARDEN_WEBGPU_PROCS(WARDEN_FORWARD_SLOT)
#undef WARDEN_FORWARD_SLOT
}

#define WARDEN_FORWARD_EXPORT(Ret, Name, Params)                \
  asm(".text\n"                                                 \
      ".globl wgpu" #Name "\n"                                  \
      ".type wgpu" #Name ", @function\n"                        \
      "wgpu" #Name ":\n"                                        \
      "  jmp *warden_real_wgpu" #Name "(%rip)\n"               \
      ".size wgpu" #Name ", . - wgpu" #Name "\n");
WARDEN_WEBGPU_PROCS(WARDEN_FORWARD_EXPORT)
#undef WARDEN_FORWARD_EXPORT

namespace {

// The real library: dawn/libwebgpu_wrapper.so beside this one where a carried test suite laid
// it (scripts/test-gpu.sh), else the build's.
std::string real_library_path() {
  Dl_info self{};
  if (::dladdr(reinterpret_cast<void*>(&real_library_path), &self) != 0 && self.dli_fname != nullptr) {
    std::string beside = self.dli_fname;
    beside.erase(beside.find_last_of('/') + 1);
    beside += "dawn/libwebgpu_wrapper.so";
    if (::access(beside.c_str(), R_OK) == 0) return beside;
  }
  return WARDEN_REAL_DAWN_LIBRARY;
}

__attribute__((constructor)) void load_the_real_library() {
  const std::string path = real_library_path();
  void* real = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (real == nullptr) {
    std::fprintf(stderr, "forwarding_dawn: cannot load %s: %s\n", path.c_str(), ::dlerror());
    std::abort();
  }
#define WARDEN_FORWARD_RESOLVE(Ret, Name, Params) warden_real_wgpu##Name = ::dlsym(real, "wgpu" #Name);
  WARDEN_WEBGPU_PROCS(WARDEN_FORWARD_RESOLVE)
#undef WARDEN_FORWARD_RESOLVE
}

}  // namespace
