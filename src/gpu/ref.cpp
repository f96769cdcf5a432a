#include "warden/gpu/ref.h"

namespace warden::gpu {

#define WARDEN_GPU_DEFINE_RELEASE(Name) \
  void release(const Procs& procs, WGPU##Name object) { procs.Name##Release(object); }
WARDEN_GPU_OBJECT_TYPES(WARDEN_GPU_DEFINE_RELEASE)
#undef WARDEN_GPU_DEFINE_RELEASE

}  // namespace warden::gpu
