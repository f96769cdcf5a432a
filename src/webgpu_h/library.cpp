#include "webgpu_h/library.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include <fmt/format.h>

#include "webgpu_h/forward.h"

namespace warden::webgpu_h {

// ---- objects -------------------------------------------------------------------------------

const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::Instance: return "instance";
    case Kind::Adapter: return "adapter";
    case Kind::Device: return "device";
    case Kind::Queue: return "queue";
    case Kind::Buffer: return "buffer";
    case Kind::Texture: return "texture";
    case Kind::TextureView: return "texture view";
    case Kind::Sampler: return "sampler";
    case Kind::ShaderModule: return "shader module";
    case Kind::BindGroupLayout: return "bind group layout";
    case Kind::PipelineLayout: return "pipeline layout";
    case Kind::BindGroup: return "bind group";
    case Kind::RenderPipeline: return "render pipeline";
    case Kind::ComputePipeline: return "compute pipeline";
    case Kind::QuerySet: return "query set";
    case Kind::CommandEncoder: return "command encoder";
    case Kind::CommandBuffer: return "command buffer";
    case Kind::RenderPassEncoder: return "render pass encoder";
    case Kind::ComputePassEncoder: return "compute pass encoder";
    case Kind::RenderBundle: return "render bundle";
    case Kind::RenderBundleEncoder: return "render bundle encoder";
    case Kind::Surface: return "surface";
    case Kind::ExternalTexture: return "external texture";
    case Kind::SharedBufferMemory: return "shared buffer memory";
    case Kind::SharedTextureMemory: return "shared texture memory";
    case Kind::SharedFence: return "shared fence";
  }
  return "object";
}

std::string describe(const Object& object) {
  if (object.label().empty()) return fmt::format("{} (no label)", kind_name(object.kind()));
  return fmt::format("{} \"{}\"", kind_name(object.kind()), object.label());
}

Object* from_app(const void* pointer, Kind kind) {
  if (pointer == nullptr) return nullptr;
  auto* object = static_cast<Object*>(const_cast<void*>(pointer));
  if (!object->is_warden_object() || object->kind() != kind) return nullptr;
  return object;
}

std::string unkept_chain(const WGPUChainedStruct* chain, const char* what, std::initializer_list<WGPUSType> kept) {
  constexpr size_t kLongest = resources::ChainCopy::kLongest;
  for (size_t i = 0; chain != nullptr; chain = chain->next, ++i) {
    if (i == kLongest) return fmt::format("{} chains more than {} structs (does a `next` lead back into it?)", what, kLongest);
    if (std::find(kept.begin(), kept.end(), chain->sType) == kept.end()) {
      return fmt::format("{} chains a struct of sType {:#x}, which warden does not keep to make the object again "
                         "after a loss (docs/webgpu-library.md, \"What is not served yet\")",
                         what, static_cast<uint32_t>(chain->sType));
    }
  }
  return {};
}

const std::atomic<uint64_t> Object::kNeverLive{0};

void* Object::dawn_remembering(std::string* why) {
  if (live_ == &kNeverLive) return dawn(why);
  // The generation is read before and after: what dawn() found belongs to it only when no loss
  // or recovery came in between (a generation is never live twice).
  const uint64_t live = live_->load(std::memory_order_acquire);
  void* object = dawn(why);
  if (object != nullptr && live != 0 && live_->load(std::memory_order_acquire) == live) remember(live, object);
  return object;
}

void Object::remember(uint64_t generation, void* object) {
  uint64_t seen = remembered_generation_.load(std::memory_order_relaxed);
  if (seen == kWriting || seen == kForgotten) return;
  // Taking the writing mark is the lock; a thread that cannot take it leaves the remembering to
  // the one that did (both found the same object of one generation, or the older one is
  // outdated anyway).
  if (!remembered_generation_.compare_exchange_strong(seen, kWriting, std::memory_order_acquire,
                                                      std::memory_order_relaxed)) {
    return;
  }
  std::atomic_thread_fence(std::memory_order_release);
  remembered_.store(object, std::memory_order_relaxed);
  remembered_generation_.store(generation, std::memory_order_release);
}

void Object::forget_for_good() {
  uint64_t seen = remembered_generation_.load(std::memory_order_relaxed);
  while (seen == kWriting ||
         !remembered_generation_.compare_exchange_weak(seen, kForgotten, std::memory_order_acq_rel,
                                                       std::memory_order_relaxed)) {
    if (seen == kWriting) seen = remembered_generation_.load(std::memory_order_relaxed);
  }
  remembered_.store(nullptr, std::memory_order_relaxed);
}

// ---- futures -------------------------------------------------------------------------------

WGPUFuture FutureTable::add(WGPUCallbackMode mode) {
  std::lock_guard lock(mutex_);
  const uint64_t id = next_++;
  pending_[id].mode = mode;
  return WGPUFuture{id};
}

void FutureTable::complete(WGPUFuture future, std::function<void()> fire) {
  {
    std::lock_guard lock(mutex_);
    auto it = pending_.find(future.id);
    if (it == pending_.end()) return;
    if (it->second.mode != WGPUCallbackMode_AllowSpontaneous) {
      it->second.complete = true;
      it->second.fire = std::move(fire);
      return;
    }
    pending_.erase(it);
  }
  if (fire) fire();
}

void FutureTable::run_for_process_events() {
  std::vector<std::function<void()>> ready;
  {
    std::lock_guard lock(mutex_);
    for (auto it = pending_.begin(); it != pending_.end();) {
      if (it->second.complete && it->second.mode != WGPUCallbackMode_WaitAnyOnly) {
        ready.push_back(std::move(it->second.fire));
        it = pending_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& fire : ready) {
    if (fire) fire();
  }
}

bool FutureTable::run_if_complete(WGPUFuture future) {
  std::function<void()> fire;
  {
    std::lock_guard lock(mutex_);
    auto it = pending_.find(future.id);
    if (it == pending_.end()) return future.id != 0 && future.id < next_;  // ran already
    if (!it->second.complete) return false;
    fire = std::move(it->second.fire);
    pending_.erase(it);
  }
  if (fire) fire();
  return true;
}

bool FutureTable::unknown(WGPUFuture future) const {
  std::lock_guard lock(mutex_);
  return future.id == 0 || future.id >= next_;
}

// ---- instance and adapter --------------------------------------------------------------------

Instance* Instance::create(std::string* why) {
  auto context = gpu::Context::create();
  if (!context) {
    *why = context.error().message;
    return nullptr;
  }
  keep_dawn_library((*context)->library_ptr());
  return new Instance(std::move(*context));
}

void Instance::add_device(Device* device) {
  std::lock_guard lock(devices_mutex_);
  devices_.push_back(device);
}

void Instance::remove_device(Device* device) {
  std::lock_guard lock(devices_mutex_);
  std::erase(devices_, device);
}

void Instance::process_events() {
  context_->process_events();
  std::vector<Device*> devices;
  {
    std::lock_guard lock(devices_mutex_);
    devices = devices_;
    for (Device* device : devices) device->add_ref();
  }
  for (Device* device : devices) {
    device->poll();
    device->release();
  }
  futures_.run_for_process_events();
}

bool Instance::pump_and_check(size_t count, WGPUFutureWaitInfo* futures) {
  process_events();
  bool any = false;
  for (size_t i = 0; i < count; ++i) {
    if (futures[i].completed) {
      any = true;
      continue;
    }
    if (futures_.run_if_complete(futures[i].future)) {
      futures[i].completed = 1;
      any = true;
    }
  }
  return any;
}

Adapter::Adapter(Instance& instance, gpu::SelectedAdapter selected, gpu::BackendChoice choice)
    : Object(Kind::Adapter, selected.description.device), instance_(instance), adapter_(std::move(selected)),
      choice_(choice) {
  instance_.add_ref();
}

Adapter::~Adapter() {
  adapter_.adapter.reset();
  instance_.release();
}

// ---- device --------------------------------------------------------------------------------

namespace {

// The limits a descriptor asks for, as warden's device options take them (undefined: not asked).
gpu::RequiredLimits required_limits(const WGPULimits& limits) {
  gpu::RequiredLimits out;
  const auto take32 = [](uint32_t value, std::optional<uint32_t>& into) {
    if (value != WGPU_LIMIT_U32_UNDEFINED) into = value;
  };
  const auto take64 = [](uint64_t value, std::optional<uint64_t>& into) {
    if (value != WGPU_LIMIT_U64_UNDEFINED) into = value;
  };
  take32(limits.maxTextureDimension1D, out.max_texture_dimension_1d);
  take32(limits.maxTextureDimension2D, out.max_texture_dimension_2d);
  take32(limits.maxTextureDimension3D, out.max_texture_dimension_3d);
  take32(limits.maxTextureArrayLayers, out.max_texture_array_layers);
  take32(limits.maxBindGroups, out.max_bind_groups);
  take32(limits.maxBindGroupsPlusVertexBuffers, out.max_bind_groups_plus_vertex_buffers);
  take32(limits.maxBindingsPerBindGroup, out.max_bindings_per_bind_group);
  take32(limits.maxDynamicUniformBuffersPerPipelineLayout, out.max_dynamic_uniform_buffers_per_pipeline_layout);
  take32(limits.maxDynamicStorageBuffersPerPipelineLayout, out.max_dynamic_storage_buffers_per_pipeline_layout);
  take32(limits.maxSampledTexturesPerShaderStage, out.max_sampled_textures_per_shader_stage);
  take32(limits.maxSamplersPerShaderStage, out.max_samplers_per_shader_stage);
  take32(limits.maxStorageBuffersPerShaderStage, out.max_storage_buffers_per_shader_stage);
  take32(limits.maxStorageTexturesPerShaderStage, out.max_storage_textures_per_shader_stage);
  take32(limits.maxUniformBuffersPerShaderStage, out.max_uniform_buffers_per_shader_stage);
  take64(limits.maxUniformBufferBindingSize, out.max_uniform_buffer_binding_size);
  take64(limits.maxStorageBufferBindingSize, out.max_storage_buffer_binding_size);
  take32(limits.minUniformBufferOffsetAlignment, out.min_uniform_buffer_offset_alignment);
  take32(limits.minStorageBufferOffsetAlignment, out.min_storage_buffer_offset_alignment);
  take32(limits.maxVertexBuffers, out.max_vertex_buffers);
  take64(limits.maxBufferSize, out.max_buffer_size);
  take32(limits.maxVertexAttributes, out.max_vertex_attributes);
  take32(limits.maxVertexBufferArrayStride, out.max_vertex_buffer_array_stride);
  take32(limits.maxInterStageShaderVariables, out.max_inter_stage_shader_variables);
  take32(limits.maxColorAttachments, out.max_color_attachments);
  take32(limits.maxColorAttachmentBytesPerSample, out.max_color_attachment_bytes_per_sample);
  take32(limits.maxComputeWorkgroupStorageSize, out.max_compute_workgroup_storage_size);
  take32(limits.maxComputeInvocationsPerWorkgroup, out.max_compute_invocations_per_workgroup);
  take32(limits.maxComputeWorkgroupSizeX, out.max_compute_workgroup_size_x);
  take32(limits.maxComputeWorkgroupSizeY, out.max_compute_workgroup_size_y);
  take32(limits.maxComputeWorkgroupSizeZ, out.max_compute_workgroup_size_z);
  take32(limits.maxComputeWorkgroupsPerDimension, out.max_compute_workgroups_per_dimension);
  take32(limits.maxImmediateSize, out.max_immediate_size);
  return out;
}

const WardenDeviceExtras* find_extras(const WGPUChainedStruct* chain) {
  for (; chain != nullptr; chain = chain->next) {
    if (chain->sType == WARDEN_STYPE_DEVICE_EXTRAS) return reinterpret_cast<const WardenDeviceExtras*>(chain);
  }
  return nullptr;
}

}  // namespace

Device::Device(Adapter& adapter, std::string label) : Object(Kind::Device, std::move(label)), adapter_(adapter) {
  adapter_.add_ref();
}

Device* Device::create(Adapter& adapter, const WGPUDeviceDescriptor* desc, std::string* why) {
  WGPUDeviceDescriptor defaults{};
  if (desc == nullptr) desc = &defaults;
  std::string label(gpu::to_std(desc->label));
  auto* device = new Device(adapter, label);
  device->lost_callback_ = desc->deviceLostCallbackInfo;
  device->error_callback_ = desc->uncapturedErrorCallbackInfo;
  // The request fails: the device was never handed out, so it is not told lost either.
  const auto refuse = [device, why](std::string words) -> Device* {
    *why = std::move(words);
    device->lost_told_ = true;
    device->release();
    return nullptr;
  };
  std::string refused = unkept_chain(desc->nextInChain, "the device descriptor", {WARDEN_STYPE_DEVICE_EXTRAS});
  if (refused.empty() && desc->requiredLimits != nullptr) {
    refused = unkept_chain(desc->requiredLimits->nextInChain, "requiredLimits");
  }
  if (!refused.empty()) return refuse(std::move(refused));
  if (const WardenDeviceExtras* extras = find_extras(desc->nextInChain)) device->extras_ = *extras;
  device->extras_.chain.next = nullptr;
  if (device->extras_.recoveryTimeoutMs > 0) device->recovery_timeout_ = std::chrono::milliseconds(device->extras_.recoveryTimeoutMs);

  engine::EngineOptions options;
  options.device.label = label.empty() ? "webgpu.h device" : label;
  options.device.backend = adapter.choice();
  for (size_t i = 0; i < desc->requiredFeatureCount; ++i) options.device.required_features.push_back(desc->requiredFeatures[i]);
  if (desc->requiredLimits != nullptr) options.device.required_limits = required_limits(*desc->requiredLimits);
  // Dawn's contract for a device used from several threads (docs/webgpu-library.md, "Threads").
  options.device.optional_features.push_back(WGPUFeatureName_ImplicitDeviceSynchronization);
  options.hot_reload = false;
  options.standby_device = device->extras_.standbyDevice != 0;
  options.startup_timeout = device->recovery_timeout_;
  if (device->extras_.maxLosses > 0) {
    options.rebuild.faults_to_give_up = device->extras_.maxLosses;
    options.rebuild.young_deaths_to_give_up = device->extras_.maxLosses;
  }
  if (device->extras_.lossWindowMs > 0) options.rebuild.window = std::chrono::milliseconds(device->extras_.lossWindowMs);

  engine::EngineCallbacks callbacks;
  callbacks.on_ready = [device](uint64_t generation) {
    device->live_generation_.store(generation, std::memory_order_release);
  };
  callbacks.on_lost = [device](uint64_t generation, WGPUDeviceLostReason, std::string_view message) {
    device->mark_not_live();
    device->tell_recovery(WardenRecoveryEvent_Lost, generation, message);
  };
  callbacks.on_rebuilt = [device](const resources::RebuildReport& report) {
    device->tell_recovery(WardenRecoveryEvent_Rebuilt, report.generation, {});
  };
  callbacks.on_contents_lost = [device](const resources::ContentsLost& lost) {
    device->tell_recovery(WardenRecoveryEvent_ContentsLost, device->generation(), {}, &lost);
  };
  callbacks.on_failed = [device](const device::GiveUp& why) {
    device->mark_not_live();
    // Engine::create's own first device failed (a feature or limit the adapter lacks): there is
    // no device to end yet; the request's callback says why.
    if (!device->engine_) return;
    device->drop_held_writes();  // no device will take them
    const std::string words = fmt::format("warden gave up rebuilding the device: {}", warden::device::describe(why));
    device->tell_recovery(WardenRecoveryEvent_GaveUp, device->generation(), words);
    device->tell_lost(WGPUDeviceLostReason_Unknown, words);
  };
  callbacks.on_uncaptured_error = [device](const engine::UncapturedError& error) {
    if (device->error_callback_.callback == nullptr) {
      std::fprintf(stderr, "warden webgpu: uncaptured %s\n", error.message.c_str());
      return;
    }
    WGPUDevice app = to_app<WGPUDevice>(device);
    device->error_callback_.callback(&app, error.type, gpu::string_view(error.message), device->error_callback_.userdata1,
                                     device->error_callback_.userdata2);
  };
  auto engine = engine::Engine::create(std::move(options), std::move(callbacks));
  if (!engine) return refuse(engine.error().message);
  device->engine_ = std::move(*engine);
  device->registry_ = &device->engine_->registry();
  device->queue_ = new Queue(*device);
  if (const char* lose_at = std::getenv("WARDEN_WEBGPU_LOSE_DEVICE_AT")) {
    for (std::string_view rest(lose_at); !rest.empty();) {
      const size_t comma = rest.find(',');
      const std::string number(rest.substr(0, comma));
      if (const uint64_t n = std::strtoull(number.c_str(), nullptr, 10); n > 0) device->lose_at_.push_back(n);
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    std::sort(device->lose_at_.begin(), device->lose_at_.end());
  }
  device->instance().add_device(device);
  return device;
}

Device::~Device() {
  instance().remove_device(this);
  if (!lost_told_) tell_lost(WGPUDeviceLostReason_Destroyed, "the device was released");
  delete queue_;
  engine_.reset();
  adapter_.release();
}

void* Device::dawn(std::string* why) {
  WGPUDevice current = ready_device();
  if (current == nullptr && why != nullptr) {
    *why = ended_ ? fmt::format("{} was destroyed", describe(*this))
                  : fmt::format("{} has no Dawn device: {}", describe(*this), engine_->message());
  }
  return current;
}

WGPUDevice Device::ready_device() {
  if (ended_ || !engine_) return nullptr;
  if (engine_->state() == engine::EngineState::Recovering && engine_->frame_thread().is_current()) {
    // A call that needs the device while a recovery is under way waits for it, on the device's
    // thread (docs/webgpu-library.md, "Where recovery runs"); from inside a callback it cannot.
    // Another thread does not drive the engine: its call finds no device, as during any loss.
    (void)engine_->wait_until_ready(recovery_timeout_);
  }
  if (holding_.load(std::memory_order_acquire)) apply_held_writes();
  return engine_->device();
}

void Device::poll() {
  if (ended_ || !engine_) return;
  engine_->poll();
  if (holding_.load(std::memory_order_acquire)) apply_held_writes();
}

Result<void> Device::apply(const QueueWrite& write, const void* data, size_t size) {
  if (write.id == ProcId::QueueWriteBuffer) return registry_->write_buffer(write.buffer, write.offset, data, size);
  return registry_->write_texture(write.texture, write.where, data, size);
}

void Device::write(const QueueWrite& write, const void* data, size_t size) {
  if (!holding_.load(std::memory_order_acquire)) {
    Result<void> written = apply(write, data, size);
    if (written) return;
    if (written.error().id != MessageId::RegistryDeviceLost) {
      Call{write.id, this, written.error().message}.report();
      return;
    }
  }
  // A device that ended for good (destroyed, or warden gave up) takes no more writes: dropped, as
  // a lost Dawn device drops them.
  if (ended_ || engine_->state() == engine::EngineState::Failed) return;
  const auto* bytes = static_cast<const uint8_t*>(data);
  std::lock_guard lock(held_mutex_);
  held_writes_.push_back({write, std::vector<uint8_t>(bytes, bytes + size)});
  holding_.store(true, std::memory_order_release);
}

void Device::drop_held_writes() {
  std::lock_guard lock(held_mutex_);
  held_writes_.clear();
  holding_.store(false, std::memory_order_release);
}

void Device::apply_held_writes() {
  // Only the device's thread applies (the one that waits for recoveries), once: a report below
  // may reach the application's callback, which may write again.
  if (applying_ || ended_ || !engine_ || !engine_->frame_thread().is_current() || engine_->device() == nullptr) return;
  applying_ = true;
  for (;;) {
    HeldWrite held;
    {
      std::lock_guard lock(held_mutex_);
      if (held_writes_.empty()) {
        holding_.store(false, std::memory_order_release);
        break;
      }
      held = std::move(held_writes_.front());
      held_writes_.pop_front();
    }
    Result<void> written = apply(held.write, held.bytes.data(), held.bytes.size());
    if (!written && written.error().id == MessageId::RegistryDeviceLost) {
      std::lock_guard lock(held_mutex_);
      held_writes_.push_front(std::move(held));  // lost again: kept for the next device
      break;
    }
    if (!written) Call{held.write.id, this, written.error().message}.report();
  }
  applying_ = false;
}

void Device::report(WGPUErrorType type, const std::string& message) {
  WGPUDevice current = (ended_ || !engine_) ? nullptr : engine_->device();
  if (current != nullptr) {
    procs().DeviceInjectError(current, type, gpu::string_view(message));
    return;
  }
  if (error_callback_.callback == nullptr) {
    std::fprintf(stderr, "warden webgpu: %s\n", message.c_str());
    return;
  }
  WGPUDevice app = to_app<WGPUDevice>(this);
  error_callback_.callback(&app, type, gpu::string_view(message), error_callback_.userdata1, error_callback_.userdata2);
}

void Device::destroy() {
  if (ended_) return;
  ended_ = true;
  mark_not_live();
  drop_held_writes();
  tell_lost(WGPUDeviceLostReason_Destroyed, "the device was destroyed");
}

void Device::track(uint64_t handle_bits, Object* object) {
  std::lock_guard lock(tracked_mutex_);
  tracked_[handle_bits] = object;
}

void Device::untrack(uint64_t handle_bits) {
  std::lock_guard lock(tracked_mutex_);
  tracked_.erase(handle_bits);
}

void Device::tell_recovery(WardenRecoveryEvent event, uint64_t generation, std::string_view message,
                           const resources::ContentsLost* lost) {
  if (extras_.recoveryCallback == nullptr) {
    // A program that did not ask to hear of recoveries (no WardenDeviceExtras callback) is still
    // told, on stderr: a loss it never hears of, and a frame that came back zeroed, would be
    // failures nobody sees.
    say_recovery(event, generation, message, lost);
    return;
  }
  WardenRecoveryInfo info{};
  info.event = event;
  info.generation = generation;
  info.message = gpu::string_view(message);
  std::vector<WGPUBuffer> buffers;
  std::vector<WGPUTexture> textures;
  for (Object* object : lost_objects(lost)) {
    if (object->kind() == Kind::Buffer) buffers.push_back(to_app<WGPUBuffer>(object));
    if (object->kind() == Kind::Texture) textures.push_back(to_app<WGPUTexture>(object));
  }
  info.bufferCount = buffers.size();
  info.buffers = buffers.data();
  info.textureCount = textures.size();
  info.textures = textures.data();
  extras_.recoveryCallback(to_app<WGPUDevice>(this), &info, extras_.userdata);
}

std::vector<Object*> Device::lost_objects(const resources::ContentsLost* lost) {
  std::vector<Object*> objects;
  if (lost == nullptr) return objects;
  std::lock_guard lock(tracked_mutex_);
  const auto add = [&](uint64_t bits) {
    if (auto it = tracked_.find(bits); it != tracked_.end()) objects.push_back(it->second);
  };
  for (BufferHandle handle : lost->buffers) add(handle.bits());
  for (TextureHandle handle : lost->textures) add(handle.bits());
  return objects;
}

void Device::say_recovery(WardenRecoveryEvent event, uint64_t generation, std::string_view message,
                          const resources::ContentsLost* lost) {
  const std::string device = describe(*this);
  std::string line;
  switch (event) {
    case WardenRecoveryEvent_Lost:
      line = fmt::format("{} was lost on generation {} ({}); warden is making it again", device, generation, message);
      break;
    case WardenRecoveryEvent_Rebuilt:
      line = fmt::format("{} was made again, as generation {}", device, generation);
      break;
    case WardenRecoveryEvent_ContentsLost: {
      std::vector<std::string> names;
      for (const Object* object : lost_objects(lost)) names.push_back(describe(*object));
      if (names.empty()) return;
      line = fmt::format("on {} generation {}, what only the GPU wrote is gone (zeroed, or as last written through "
                         "the queue): {}",
                         device, generation, fmt::join(names, ", "));
      break;
    }
    default:
      line = std::string(message);
      break;
  }
  std::fprintf(stderr, "warden webgpu: %s\n", line.c_str());
}

void Device::submitted() {
  ++submissions_;
  if (std::binary_search(lose_at_.begin(), lose_at_.end(), submissions_)) {
    force_loss(fmt::format("WARDEN_WEBGPU_LOSE_DEVICE_AT: after submission {}", submissions_));
  }
}

void Device::force_loss(std::string_view why) {
  if (ended_ || !engine_) return;
  if (engine_->force_device_loss(why)) mark_not_live();
}

WGPUFuture Device::lost_future() {
  if (lost_future_.id == 0) {
    lost_future_ = instance().futures().add(WGPUCallbackMode_AllowSpontaneous);
    if (lost_told_) instance().futures().complete(lost_future_, {});
  }
  return lost_future_;
}

void Device::tell_lost(WGPUDeviceLostReason reason, std::string_view message) {
  if (lost_told_) return;
  lost_told_ = true;
  if (lost_future_.id != 0) instance().futures().complete(lost_future_, {});
  if (lost_callback_.callback == nullptr) return;
  WGPUDevice app = to_app<WGPUDevice>(this);
  lost_callback_.callback(&app, reason, gpu::string_view(message), lost_callback_.userdata1, lost_callback_.userdata2);
}

void* Queue::dawn(std::string* why) {
  if (device_.ready_device() == nullptr) {
    (void)device_.dawn(why);
    return nullptr;
  }
  return device_.engine().queue();
}

// ---- custody and transient objects -------------------------------------------------------------

namespace {

#define WARDEN_WEBGPU_DESTROY(Name, snake) \
  Result<void> destroy_in(resources::Registry& registry, Name##Handle handle) { return registry.destroy_##snake(handle); }
WARDEN_RESOURCE_KINDS(WARDEN_WEBGPU_DESTROY)
#undef WARDEN_WEBGPU_DESTROY

}  // namespace

template <typename Tag>
void* Custody<Tag>::dawn(std::string* why) {
  if (!failure_.empty()) {
    if (why != nullptr) *why = fmt::format("{} could not be made: {}", describe(*this), failure_);
    return nullptr;
  }
  if (destroyed_) {
    if (why != nullptr) *why = fmt::format("{} was destroyed", describe(*this));
    return nullptr;
  }
  auto object = device_.registry().resolve(handle_);
  if (!object && device_.engine().state() == engine::EngineState::Recovering && device_.ready_device() != nullptr) {
    object = device_.registry().resolve(handle_);
  }
  if (!object) {
    if (why != nullptr) *why = fmt::format("{}: {}", describe(*this), object.error().message);
    return nullptr;
  }
  return *object;
}

template <typename Tag>
void Custody<Tag>::destroy_now() {
  if (destroyed_ || handle_.is_null()) return;
  destroyed_ = true;
  forget_for_good();
  device_.untrack(handle_.bits());
  (void)destroy_in(device_.registry(), handle_);
}

template <typename Tag>
void Custody<Tag>::on_last_release() {
  destroy_now();
  device_.release();
}

#define WARDEN_WEBGPU_CUSTODY(Name, snake) template class Custody<Name##Tag>;
WARDEN_RESOURCE_KINDS(WARDEN_WEBGPU_CUSTODY)
#undef WARDEN_WEBGPU_CUSTODY

template <typename DawnType>
Transient<DawnType>::~Transient() {
  if (object_ != nullptr) gpu::release(dawn_procs(), object_);
  device_.release();
}

template <typename DawnType>
void* Transient<DawnType>::dawn(std::string* why) {
  if (object_ != nullptr && generation_ == device_.live_generation()) [[likely]] return object_;
  // What was recorded on a generation since lost (or while there was no device) is dropped
  // without a word: an empty why. The submit of what it recorded names it (submit_failure).
  if (why != nullptr) why->clear();
  return nullptr;
}

template <typename DawnType>
std::string Transient<DawnType>::submit_failure() const {
  if (generation_ == 0) {
    return fmt::format("{} was recorded while the device had no Dawn device", describe(*this));
  }
  return fmt::format("{} was recorded on device generation {}, which was lost (the device is on generation {} now)",
                     describe(*this), generation_, device_.generation());
}

template class Transient<WGPUCommandEncoder>;
template class Transient<WGPUCommandBuffer>;
template class Transient<WGPURenderPassEncoder>;
template class Transient<WGPUComputePassEncoder>;
template class Transient<WGPUTexture>;
template class Transient<WGPUTextureView>;
template class Transient<WGPURenderBundleEncoder>;

}  // namespace warden::webgpu_h
