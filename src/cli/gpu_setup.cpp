#include "cli/gpu_setup.h"

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/output.h"

namespace warden::cli {

std::unique_ptr<OpenedGpu> open_gpu(const std::string& backend, int& exit_code) {
  auto choice = gpu::parse_backend_choice(backend);
  if (!choice) {
    print_err("warden: {}\n", choice.error().message);
    exit_code = kExitUsage;
    return nullptr;
  }
  auto context = gpu::Context::create();
  if (!context) {
    print_err("warden: {}\n", context.error().message);
    exit_code = kExitUsage;
    return nullptr;
  }
  auto adapter = context.value()->select_adapter(*choice);
  if (!adapter) {
    print_err("warden: {}\n", adapter.error().message);
    exit_code = kExitFailure;
    return nullptr;
  }
  auto opened = std::make_unique<OpenedGpu>();
  opened->context = std::move(context.value());
  opened->adapter = std::move(adapter.value());
  return opened;
}

}  // namespace warden::cli
