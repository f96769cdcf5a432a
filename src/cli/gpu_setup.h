// Opening a context and an adapter for a command, with the errors printed the same way.
#pragma once

#include <memory>
#include <string>

#include "warden/gpu/context.h"

namespace warden::cli {

struct OpenedGpu {
  std::unique_ptr<gpu::Context> context;
  gpu::SelectedAdapter adapter;
};

// Prints the error to stderr and returns the exit code through `exit_code` on failure.
std::unique_ptr<OpenedGpu> open_gpu(const std::string& backend, int& exit_code);

}  // namespace warden::cli
