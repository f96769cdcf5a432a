// A stand-in for a Dawn build that lacks some entry points (every published build of the Dawn
// warden uses has them all). It exports each entry point of the header as a jump to the real
// library's, which it loads itself; tests/CMakeLists.txt links it once per case with a version
// script that keeps the entries to be missing out of its exports. x86-64 only: each export is
// one `jmp` through the address of the real entry, so the arguments pass through untouched.
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

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

__attribute__((constructor)) void load_the_real_library() {
  void* real = ::dlopen(WARDEN_REAL_DAWN_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (real == nullptr) {
    std::fprintf(stderr, "forwarding_dawn: cannot load %s: %s\n", WARDEN_REAL_DAWN_LIBRARY, ::dlerror());
    std::abort();
  }
#define WARDEN_FORWARD_RESOLVE(Ret, Name, Params) warden_real_wgpu##Name = ::dlsym(real, "wgpu" #Name);
  WARDEN_WEBGPU_PROCS(WARDEN_FORWARD_RESOLVE)
#undef WARDEN_FORWARD_RESOLVE
}

}  // namespace
