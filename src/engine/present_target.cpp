#include "warden/engine/present_target.h"

#include <fmt/format.h>

#include "warden/engine/engine.h"

namespace warden::engine {

namespace {

present::SwapchainOptions scored_on(present::SwapchainOptions options, Engine& engine) {
  // Surface trouble is scored on the engine's rebuild policy, which decides when it is enough.
  if (options.rebuild == nullptr) options.rebuild = &engine.rebuild_policy();
  return options;
}

}  // namespace

PresentTarget::PresentTarget(Engine& engine, present::X11WindowSource window, uint32_t width, uint32_t height,
                             present::SwapchainOptions options, present::SurfaceDriver* driver)
    : engine_(&engine),
      swapchain_(engine.context(), window, width, height, scored_on(std::move(options), engine), driver) {}

PresentTarget::~PresentTarget() {
  if (engine_ != nullptr) engine_->forget_present_target(*this);
  swapchain_.detach();
}

std::optional<Error> PresentTarget::refuse(const char* call) const {
  if (engine_ == nullptr) {
    return make_error(ErrorKind::Refused, MessageId::PresentTargetEngineGone,
                      fmt::format("present target: {}: its engine was destroyed", call));
  }
  return engine_->frame_thread().check("present target", call);
}

void PresentTarget::attach_to_engine_device() {
  auto attached = swapchain_.attach({.device = engine_->device(),
                                     .registry = &engine_->registry(),
                                     .on_first_present = [engine = engine_] { engine->device_presented(); }});
  if (attached) {
    attach_failure_.reset();
    return;
  }
  attach_failure_ = make_error(attached.error().kind, MessageId::PresentTargetAttachFailed,
                               fmt::format("present target: not attached to device generation {}: {}",
                                           engine_->device_generation(), attached.error().message));
  engine_->diagnostics().error(attach_failure_->id, attach_failure_->message);
}

Result<std::optional<present::SwapchainImage>> PresentTarget::acquire() {
  if (auto refused = refuse("acquire")) return *refused;
  if (!swapchain_.attached() && attach_failure_) return *attach_failure_;
  return swapchain_.acquire();
}

Result<void> PresentTarget::present() {
  if (auto refused = refuse("present")) return *refused;
  return swapchain_.present();
}

void PresentTarget::resize(uint32_t width, uint32_t height) { swapchain_.resize(width, height); }

}  // namespace warden::engine
