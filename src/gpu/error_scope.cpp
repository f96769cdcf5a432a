#include "warden/gpu/error_scope.h"

#include "warden/gpu/callback.h"

namespace warden::gpu {

void push_validation_scope(const Procs& procs, Device device) {
  procs.DevicePushErrorScope(device, ErrorFilter::Validation);
}

CallbackMode callback_mode(Completion completion) {
  switch (completion) {
    case Completion::WorkerWait: return CallbackMode::WaitAnyOnly;
    case Completion::WithinCall: return CallbackMode::AllowSpontaneous;
    case Completion::ProcessEvents: break;
  }
  return CallbackMode::AllowProcessEvents;
}

PendingScope pop_scope(const Procs& procs, Device device, Completion completion) {
  auto outcome = std::make_shared<PoppedScope>();
  auto on_popped = [outcome](PopErrorScopeStatus status, ErrorType type, StringView message) {
    outcome->status = status;
    outcome->type = status == PopErrorScopeStatus::Success ? type : ErrorType::NoError;
    outcome->message = std::string(message.view());
    outcome->done = true;
  };
  Future future = procs.DevicePopErrorScope(
      device, once_callback<PopErrorScopeCallbackInfo>(callback_mode(completion), std::move(on_popped)));
  return PendingScope{future, std::move(outcome)};
}

Result<void> settle(const Context& context, Future future, const bool& outcome_done,
                    std::chrono::milliseconds timeout, Completion completion) {
  if (completion == Completion::WorkerWait) return context.wait(future, timeout);
  if (completion == Completion::WithinCall) return outcome_done ? Result<void>{} : context.wait(future, timeout);
  if (!outcome_done) context.process_events();
  if (!outcome_done) return context.wait(future, timeout);
  return {};
}

}  // namespace warden::gpu
