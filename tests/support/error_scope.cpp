#include "support/error_scope.h"
#include "support/poll_until.h"

#include <chrono>

namespace warden::testing {

ScopeResult pop_error_scope(TestDevice& dev) {
  ScopeResult result;
  gpu::PopErrorScopeCallbackInfo cb;
  cb.mode = gpu::CallbackMode::WaitAnyOnly;
  cb.userdata1 = &result;
  cb.callback = [](gpu::PopErrorScopeStatus status, gpu::ErrorType type, gpu::StringView message,
                   void* u1, void*) {
    auto* r = static_cast<ScopeResult*>(u1);
    r->status = status;
    r->type = type;
    r->message = std::string(message.view());
  };
  gpu::Future f = dev.procs().DevicePopErrorScope(dev.device.get(), cb);
  auto waited = dev.context->wait(f, warden::testing::kSafetyNet);
  EXPECT_TRUE(waited.ok()) << (waited ? "" : waited.error().message);
  return result;
}

}  // namespace warden::testing
