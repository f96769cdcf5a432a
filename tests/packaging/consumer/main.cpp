// The smallest useful program against warden's public headers: a Null-backend device, one
// buffer through the registry, a write, a stale resolve. Prints "consumer: ok" and exits 0.
#include <cstdio>

#include "warden/resources/registry.h"
#include "warden/version.h"
#include "warden/webgpu/context.h"

namespace {
int fail(const warden::Error& error) {
  std::fprintf(stderr, "consumer: %s\n", error.message.c_str());
  return 1;
}
}  // namespace

int main() {
  using namespace warden;
  auto context = gpu::Context::create();
  if (!context) return fail(context.error());
  auto opened = context.value()->open_device(gpu::BackendChoice::Null);
  if (!opened) return fail(opened.error());
  {
    Registry registry(*context.value(), opened->device.get(), opened->queue.get());
    auto buffer = registry.create_buffer({16, gpu::BufferUsage::CopyDst, false, "consumer"});
    if (!buffer) return fail(buffer.error());
    const unsigned char bytes[16] = {};
    if (auto written = registry.write_buffer(*buffer, 0, bytes, sizeof bytes); !written) return fail(written.error());
    if (auto destroyed = registry.destroy_buffer(*buffer); !destroyed) return fail(destroyed.error());
    auto stale = registry.resolve(*buffer);
    if (stale.ok()) {
      std::fprintf(stderr, "consumer: a destroyed buffer's handle still resolved\n");
      return 1;
    }
    std::printf("consumer: stale resolve refused: %s\n", stale.error().message.c_str());
  }
  std::printf("consumer: ok (warden %s)\n", kVersion);
  return 0;
}
