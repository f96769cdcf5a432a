#include "warden/present/swapchain.h"

#include <algorithm>

#include <fmt/format.h>

#include "warden/gpu/names.h"

namespace warden::present {
namespace {

using Status = WGPUSurfaceGetCurrentTextureStatus;

bool is_success(Status status) {
  return status == WGPUSurfaceGetCurrentTextureStatus_SuccessOptimal ||
         status == WGPUSurfaceGetCurrentTextureStatus_SuccessSuboptimal;
}
// The statuses answered with one reconfigure and one retry (docs/design.md, presenting rule P1).
bool is_retryable(Status status) {
  return status == WGPUSurfaceGetCurrentTextureStatus_Outdated || status == WGPUSurfaceGetCurrentTextureStatus_Lost ||
         status == WGPUSurfaceGetCurrentTextureStatus_Timeout;
}

template <typename T>
bool contains(const std::vector<T>& values, T value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

}  // namespace

Swapchain::Swapchain(const gpu::Context& context, X11WindowSource window, uint32_t width, uint32_t height,
                     SwapchainOptions options, SurfaceDriver* driver)
    : context_(context),
      window_(window),
      options_(std::move(options)),
      own_driver_(driver ? nullptr : std::make_unique<DawnSurfaceDriver>(context.procs())),
      driver_(driver ? *driver : *own_driver_),
      width_(width),
      height_(height) {}

Swapchain::~Swapchain() { detach(); }

Result<void> Swapchain::attach(SwapchainDevice target) {
  if (target.device == nullptr || target.registry == nullptr) {
    return make_error(ErrorKind::InvalidArgument, MessageId::SwapchainAttachWithoutDevice,
                      fmt::format("swapchain \"{}\": attach needs a device and a registry", options_.label));
  }
  detach();
  WGPUSurface surface = driver_.create(context_.instance(), window_, options_.label);
  if (surface == nullptr) {
    return make_error(ErrorKind::Validation, MessageId::SwapchainNoSurface,
                      fmt::format("swapchain \"{}\": the library made no surface for X11 window 0x{:x}",
                                  options_.label, window_.window));
  }
  gpu::Ref<WGPUAdapter> adapter(&context_.procs(), context_.procs().DeviceGetAdapter(target.device));
  auto caps = driver_.capabilities(surface, adapter.get());
  if (!caps || caps->formats.empty()) {
    driver_.release(surface);
    return make_error(ErrorKind::Validation, caps ? MessageId::SwapchainNoSurfaceFormat : caps.error().id,
                      fmt::format("swapchain \"{}\": {}", options_.label,
                                  caps ? "the surface offers no format for this adapter" : caps.error().message));
  }
  caps_ = *caps;
  format_ = caps->formats.front();
  for (WGPUTextureFormat preferred : options_.preferred_formats) {
    if (contains(caps->formats, preferred)) {
      format_ = preferred;
      break;
    }
  }
  present_mode_ = contains(caps->present_modes, options_.present_mode) ? options_.present_mode : WGPUPresentMode_Fifo;
  alpha_mode_ = caps->alpha_modes.empty() ? WGPUCompositeAlphaMode_Auto : caps->alpha_modes.front();
  surface_ = surface;
  target_ = std::move(target);
  configured_ = false;
  presented_this_generation_ = false;
  ++counters_.surfaces_created;
  return {};
}

void Swapchain::detach() {
  if (surface_ == nullptr) return;
  drop_frame();
  // Unconfigure before the surface goes: skipping it left the next device unable to present
  // ("OpenGL SwapChain cannot switch between contexts"; docs/adr/0012).
  if (configured_) driver_.unconfigure(surface_);
  driver_.release(std::exchange(surface_, nullptr));
  configured_ = false;
  target_ = {};
}

void Swapchain::resize(uint32_t width, uint32_t height) {
  width_ = width;
  height_ = height;
}

bool Swapchain::needs_configure() const {
  return !configured_ || configured_width_ != width_ || configured_height_ != height_;
}

void Swapchain::configure() {
  WGPUSurfaceConfiguration config{};
  config.device = target_.device;
  config.format = format_;
  config.usage = options_.usage;
  config.width = width_;
  config.height = height_;
  config.alphaMode = alpha_mode_;
  config.presentMode = present_mode_;
  driver_.configure(surface_, config);
  configured_ = true;
  configured_width_ = width_;
  configured_height_ = height_;
  ++counters_.configures;
}

Result<std::optional<SwapchainImage>> Swapchain::acquire() {
  if (surface_ == nullptr) {
    return make_error(ErrorKind::Refused, MessageId::SwapchainAcquireDetached,
                      fmt::format("swapchain \"{}\": acquire with no device attached", options_.label));
  }
  if (in_flight_) {
    return make_error(ErrorKind::Refused, MessageId::SwapchainAcquireInFlight,
                      fmt::format("swapchain \"{}\": acquire before the previous frame was presented", options_.label));
  }
  if (width_ == 0 || height_ == 0) {
    ++counters_.frames_skipped;
    return std::optional<SwapchainImage>{};
  }
  if (needs_configure()) configure();

  WGPUSurfaceTexture st = driver_.current_texture(surface_);
  if (is_retryable(st.status)) {
    const Status first = st.status;
    if (st.texture != nullptr) context_.procs().TextureRelease(st.texture);
    ++counters_.retries;
    configure();
    st = driver_.current_texture(surface_);
    if (!is_success(st.status)) {
      if (st.texture != nullptr) context_.procs().TextureRelease(st.texture);
      return surface_failure(fmt::format("{}, then {} after reconfiguring once", to_string(first), to_string(st.status)));
    }
  } else if (!is_success(st.status) || st.texture == nullptr) {
    if (st.texture != nullptr) context_.procs().TextureRelease(st.texture);
    return surface_failure(to_string(st.status));
  }

  const gpu::Procs& procs = context_.procs();
  WGPUTextureView view = procs.TextureCreateView(st.texture, nullptr);
  auto handle = target_.registry->import_texture_view(view, options_.label + " frame");
  if (!handle) {
    procs.TextureViewRelease(view);
    procs.TextureRelease(st.texture);
    return handle.error();
  }
  SwapchainImage frame{*handle, st.texture, procs.TextureGetWidth(st.texture), procs.TextureGetHeight(st.texture), format_};
  in_flight_ = InFlight{frame, view};
  ++counters_.frames_acquired;
  return std::optional<SwapchainImage>(frame);
}

Result<std::optional<SwapchainImage>> Swapchain::surface_failure(std::string detail) {
  ++counters_.surface_failures;
  const ErrorObject swapchain{"swapchain", {}, {}, options_.label};
  const std::string what = fmt::format("{} \"{}\": the surface gave no frame at {}x{} {} ({})", swapchain.kind,
                                       *swapchain.label, width_, height_, gpu::to_string(format_), detail);
  if (options_.rebuild != nullptr) (void)options_.rebuild->record_fault(device::FaultKind::Surface, what);
  return make_error(ErrorKind::Validation, MessageId::SwapchainSurfaceNoFrame, swapchain, what);
}

Result<void> Swapchain::present() {
  if (!in_flight_) {
    return make_error(ErrorKind::Refused, MessageId::SwapchainPresentWithoutFrame,
                      fmt::format("swapchain \"{}\": present without an acquired frame", options_.label));
  }
  driver_.present(surface_);
  ++counters_.frames_presented;
  drop_frame();
  if (!presented_this_generation_) {
    presented_this_generation_ = true;
    if (target_.on_first_present) target_.on_first_present();
  }
  return {};
}

void Swapchain::drop_frame() {
  if (!in_flight_) return;
  (void)target_.registry->forget_texture_view(in_flight_->frame.view);
  const gpu::Procs& procs = context_.procs();
  procs.TextureViewRelease(in_flight_->view);
  procs.TextureRelease(in_flight_->frame.texture);
  in_flight_.reset();
}

}  // namespace warden::present
