#include "warden/gpu/error_scope.h"

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
  PopErrorScopeCallbackInfo cb;
  cb.mode = callback_mode(completion);
  // Dawn calls the callback exactly once (cancelled at instance shutdown at the latest); that
  // call frees this holder.
  cb.userdata1 = new std::shared_ptr<PoppedScope>(outcome);
  cb.callback = [](PopErrorScopeStatus status, ErrorType type, StringView message,
                   void* u1, void*) {
    std::unique_ptr<std::shared_ptr<PoppedScope>> holder(static_cast<std::shared_ptr<PoppedScope>*>(u1));
    PoppedScope& o = **holder;
    o.status = status;
    o.type = status == PopErrorScopeStatus::Success ? type : ErrorType::NoError;
    o.message = std::string(message.view());
    o.done = true;
  };
  Future future = procs.DevicePopErrorScope(device, cb);
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
