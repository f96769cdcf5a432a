// Surfaces: the application's WGPUSurface keeps its window (the source it was made from) and its
// last configuration; on each device generation the library makes a Dawn surface on the same
// window, on the engine's instance, configured as the application last configured it (the
// window outlives devices: docs/adr/0012). The surface's textures and their views belong to one
// generation (transient). A device that presented is marked so: at its end it is let go, not
// destroyed (docs/adr/0051).
#include <variant>

#include <fmt/format.h>

#include "webgpu_h/entries.h"
#include "webgpu_h/library.h"

namespace warden::webgpu_h {

namespace {

// The window a surface was made from: a copy of its source struct, linked into a descriptor
// when a Dawn surface is made.
using Source = std::variant<WGPUSurfaceSourceXlibWindow, WGPUSurfaceSourceXCBWindow, WGPUSurfaceSourceWaylandSurface>;

std::optional<Source> source_of(const WGPUChainedStruct* chain) {
  for (; chain != nullptr; chain = chain->next) {
    switch (chain->sType) {
      case WGPUSType_SurfaceSourceXlibWindow: return *reinterpret_cast<const WGPUSurfaceSourceXlibWindow*>(chain);
      case WGPUSType_SurfaceSourceXCBWindow: return *reinterpret_cast<const WGPUSurfaceSourceXCBWindow*>(chain);
      case WGPUSType_SurfaceSourceWaylandSurface: return *reinterpret_cast<const WGPUSurfaceSourceWaylandSurface*>(chain);
      default: break;
    }
  }
  return std::nullopt;
}

class Surface final : public Object {
 public:
  Surface(Instance& instance, Source source, std::string label)
      : Object(Kind::Surface, std::move(label)), instance_(instance), source_(source) {
    instance_.add_ref();
  }
  ~Surface() override {
    unconfigure();
    own_surface_.reset();
    instance_.release();
  }
  // The Dawn surface of the configured device's current generation, configured.
  void* dawn(std::string* why) override {
    std::lock_guard lock(mutex_);
    if (device_ == nullptr) {
      if (why != nullptr) *why = fmt::format("{} is not configured", describe(*this));
      return nullptr;
    }
    WGPUDevice dawn_device = device_->ready_device();
    if (dawn_device == nullptr) {
      if (why != nullptr) (void)device_->dawn(why);
      return nullptr;
    }
    const uint64_t live = device_->live_generation();
    if (configured_generation_ == live && surface_ != nullptr) return surface_;
    if (surface_ != nullptr) dawn_procs().SurfaceRelease(std::exchange(surface_, nullptr));
    surface_ = make_surface(device_->engine().context().instance());
    if (surface_ == nullptr) {
      if (why != nullptr) *why = fmt::format("Dawn made no surface for the window of {}", describe(*this));
      return nullptr;
    }
    WGPUSurfaceConfiguration config = config_;
    config.device = dawn_device;
    config.viewFormatCount = view_formats_.size();
    config.viewFormats = view_formats_.data();
    dawn_procs().SurfaceConfigure(surface_, &config);
    configured_generation_ = live;
    presented_generation_ = 0;
    texture_generation_ = 0;
    return surface_;
  }
  Device* device() const override { return device_; }

  // The surface made on the application's own instance: what its adapters answer capabilities
  // for, before any device exists.
  WGPUSurface own_surface() {
    return own_surface_.get(1, [&] { return make_surface(instance_.context().instance()); });
  }

  void configure(Device& device, const WGPUSurfaceConfiguration& config) {
    {
      std::lock_guard lock(mutex_);
      device.add_ref();
      if (device_ != nullptr) device_->release();
      device_ = &device;
      config_ = config;
      config_.nextInChain = nullptr;
      view_formats_.assign(config.viewFormats, config.viewFormats + config.viewFormatCount);
      configured_generation_ = 0;  // configured again at the next use
    }
    std::string why;
    if (dawn(&why) == nullptr && !why.empty()) {
      Call call{ProcId::SurfaceConfigure, &device, why};
      call.report();
    }
  }

  void unconfigure() {
    std::lock_guard lock(mutex_);
    if (surface_ != nullptr) {
      dawn_procs().SurfaceUnconfigure(surface_);
      dawn_procs().SurfaceRelease(std::exchange(surface_, nullptr));
    }
    if (device_ != nullptr) std::exchange(device_, nullptr)->release();
  }

  // GetCurrentTexture gave a texture of the generation the surface is configured on now.
  void texture_taken() {
    std::lock_guard lock(mutex_);
    texture_generation_ = configured_generation_;
  }
  // Whether a present now shows what the application drew: a texture was taken on the Dawn
  // surface of the current generation. A texture of a generation since lost has nothing to show
  // on the new surface; its present is dropped without a word, as what was recorded for it is.
  bool texture_of_current_generation() {
    std::lock_guard lock(mutex_);
    return texture_generation_ != 0 && texture_generation_ == configured_generation_;
  }

  // After a present: the first on a generation marks its device presented.
  void presented() {
    std::lock_guard lock(mutex_);
    if (device_ == nullptr || presented_generation_ == configured_generation_) return;
    presented_generation_ = configured_generation_;
    (void)device_->engine().mark_presented();
  }

 private:
  WGPUSurface make_surface(WGPUInstance instance) {
    WGPUSurfaceDescriptor desc{};
    desc.label = gpu::string_view(label());
    std::visit(
        [&](auto& source) {
          source.chain.next = nullptr;  // the application's chain went with its call
          desc.nextInChain = &source.chain;
        },
        source_);
    return dawn_procs().InstanceCreateSurface(instance, &desc);
  }

  Instance& instance_;  // a reference held
  Source source_;
  PerGeneration<WGPUSurface> own_surface_;
  std::mutex mutex_;
  Device* device_ = nullptr;  // a reference held while configured
  WGPUSurfaceConfiguration config_{};
  std::vector<WGPUTextureFormat> view_formats_;
  WGPUSurface surface_ = nullptr;  // on the engine's instance, configured on configured_generation_
  uint64_t configured_generation_ = 0;
  uint64_t presented_generation_ = 0;
  uint64_t texture_generation_ = 0;  // the generation of the last texture taken
};

}  // namespace

WGPUSurface Entry<ProcId::InstanceCreateSurface>::call(WGPUInstance instance, const WGPUSurfaceDescriptor* desc) {
  auto* self = checked<Instance>(instance, Kind::Instance, ProcId::InstanceCreateSurface);
  if (self == nullptr) return nullptr;
  Call call{ProcId::InstanceCreateSurface};
  std::optional<Source> source = desc != nullptr ? source_of(desc->nextInChain) : std::nullopt;
  if (!source) {
    call.failure = "the descriptor chains no window warden's webgpu.h library serves (WGPUSurfaceSourceXlibWindow, "
                   "WGPUSurfaceSourceXCBWindow or WGPUSurfaceSourceWaylandSurface)";
    call.report();
    return nullptr;
  }
  return to_app<WGPUSurface>(new Surface(*self, *source, std::string(gpu::to_std(desc->label))));
}

WGPUStatus Entry<ProcId::SurfaceGetCapabilities>::call(WGPUSurface surface, WGPUAdapter adapter,
                                                       WGPUSurfaceCapabilities* capabilities) {
  Surface* self = checked<Surface>(surface, Kind::Surface, ProcId::SurfaceGetCapabilities);
  Call call{ProcId::SurfaceGetCapabilities};
  WGPUAdapter dawn_adapter = Arg<WGPUAdapter>::in(adapter, call);
  if (self == nullptr || dawn_adapter == nullptr || capabilities == nullptr) {
    if (!call.failure.empty()) call.report();
    return WGPUStatus_Error;
  }
  // Answered before the first frame, from the application's own instance and adapter.
  WGPUSurface own = self->own_surface();
  return own != nullptr ? dawn_procs().SurfaceGetCapabilities(own, dawn_adapter, capabilities) : WGPUStatus_Error;
}

void Entry<ProcId::SurfaceConfigure>::call(WGPUSurface surface, const WGPUSurfaceConfiguration* config) {
  Surface* self = checked<Surface>(surface, Kind::Surface, ProcId::SurfaceConfigure);
  if (self == nullptr) return;
  auto* device = checked<Device>(config != nullptr ? config->device : nullptr, Kind::Device, ProcId::SurfaceConfigure);
  if (device == nullptr) return;
  self->configure(*device, *config);
}

void Entry<ProcId::SurfaceUnconfigure>::call(WGPUSurface surface) {
  if (Surface* self = checked<Surface>(surface, Kind::Surface, ProcId::SurfaceUnconfigure)) self->unconfigure();
}

void Entry<ProcId::SurfaceGetCurrentTexture>::call(WGPUSurface surface, WGPUSurfaceTexture* texture) {
  Surface* self = checked<Surface>(surface, Kind::Surface, ProcId::SurfaceGetCurrentTexture);
  if (self == nullptr || texture == nullptr) return;
  std::string why;
  auto dawn_surface = static_cast<WGPUSurface>(self->dawn(&why));
  if (dawn_surface == nullptr) {
    texture->texture = nullptr;
    texture->status = WGPUSurfaceGetCurrentTextureStatus_Error;
    Call call{ProcId::SurfaceGetCurrentTexture, self->device(), why};
    call.report();
    return;
  }
  WGPUSurfaceTexture dawn_texture{};
  dawn_procs().SurfaceGetCurrentTexture(dawn_surface, &dawn_texture);
  texture->status = dawn_texture.status;
  texture->texture = nullptr;
  if (dawn_texture.texture != nullptr) {
    self->texture_taken();
    Device& device = *self->device();
    texture->texture = to_app<WGPUTexture>(new SurfaceTexture(Kind::Texture, device, dawn_texture.texture,
                                                              device.live_generation(), self->label()));
  }
}

void Entry<ProcId::SurfacePresent>::call(WGPUSurface surface) {
  Surface* self = checked<Surface>(surface, Kind::Surface, ProcId::SurfacePresent);
  if (self == nullptr) return;
  auto dawn_surface = static_cast<WGPUSurface>(self->dawn(nullptr));
  if (dawn_surface == nullptr) return;  // no device now: nothing was drawn to present
  if (!self->texture_of_current_generation()) return;
  dawn_procs().SurfacePresent(dawn_surface);
  self->presented();
}

}  // namespace warden::webgpu_h
