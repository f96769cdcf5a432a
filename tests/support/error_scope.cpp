#include "support/error_scope.h"
#include "support/poll_until.h"

#include <chrono>

namespace warden::testing {

ScopeResult pop_error_scope(TestDevice& dev) {
  ScopeResult result;
  WGPUPopErrorScopeCallbackInfo cb{};
  cb.mode = WGPUCallbackMode_WaitAnyOnly;
  cb.userdata1 = &result;
  cb.callback = [](WGPUPopErrorScopeStatus status, WGPUErrorType type, WGPUStringView message,
                   void* u1, void*) {
    auto* r = static_cast<ScopeResult*>(u1);
    r->status = status;
    r->type = type;
    r->message = std::string(gpu::to_std(message));
  };
  WGPUFuture f = dev.procs().DevicePopErrorScope(dev.device.get(), cb);
  auto waited = dev.context->wait(f, warden::testing::kSafetyNet);
  EXPECT_TRUE(waited.ok()) << (waited ? "" : waited.error().message);
  return result;
}

}  // namespace warden::testing
