#include "warden/gpu/error_scope.h"

#include "warden/gpu/callback.h"

namespace warden::gpu {

void push_validation_scope(const Procs& procs, WGPUDevice device) {
  procs.DevicePushErrorScope(device, WGPUErrorFilter_Validation);
}

WGPUCallbackMode callback_mode(Completion completion) {
  switch (completion) {
    case Completion::WorkerWait: return WGPUCallbackMode_WaitAnyOnly;
    case Completion::WithinCall: return WGPUCallbackMode_AllowSpontaneous;
    case Completion::ProcessEvents: break;
  }
  return WGPUCallbackMode_AllowProcessEvents;
}

PendingScope pop_scope(const Procs& procs, WGPUDevice device, Completion completion) {
  auto outcome = std::make_shared<PoppedScope>();
  auto on_popped = [outcome](WGPUPopErrorScopeStatus status, WGPUErrorType type, WGPUStringView message) {
    outcome->status = status;
    outcome->type = status == WGPUPopErrorScopeStatus_Success ? type : WGPUErrorType_NoError;
    outcome->message = std::string(gpu::to_std(message));
    outcome->done = true;
  };
  WGPUFuture future = procs.DevicePopErrorScope(
      device, once_callback<WGPUPopErrorScopeCallbackInfo>(callback_mode(completion), std::move(on_popped)));
  return PendingScope{future, std::move(outcome)};
}

Result<void> settle(const Context& context, WGPUFuture future, const bool& outcome_done,
                    std::chrono::milliseconds timeout, Completion completion) {
  if (completion == Completion::WorkerWait) return context.wait(future, timeout);
  if (completion == Completion::WithinCall) return outcome_done ? Result<void>{} : context.wait(future, timeout);
  if (!outcome_done) context.process_events();
  if (!outcome_done) return context.wait(future, timeout);
  return {};
}

}  // namespace warden::gpu
