// Recording and the queue: encoders, passes and command buffers are Dawn's objects of one
// device generation (transient); the queue's writes go through the registry, which keeps what a
// rebuild writes back; submissions go through the engine, which drops what a lost generation
// recorded and names it.
#include <fmt/format.h>

#include "webgpu_h/entries.h"
#include "webgpu_h/library.h"

namespace warden::webgpu_h {

namespace {

// The Dawn object of an application's object for a call, as the generic forward finds it.
template <typename Wgpu>
Wgpu dawn_arg(Wgpu app, Call& call) {
  return Arg<Wgpu>::in(app, call);
}

// A copy's texture side with its Dawn texture.
WGPUTexelCopyTextureInfo copy_side(const WGPUTexelCopyTextureInfo* info, Call& call) {
  WGPUTexelCopyTextureInfo out = info != nullptr ? *info : WGPUTexelCopyTextureInfo{};
  if (info == nullptr && call.failure.empty()) call.failure = "a copy's texture side is null";
  out.texture = dawn_arg(out.texture, call);
  return out;
}

WGPUTexelCopyBufferInfo copy_side(const WGPUTexelCopyBufferInfo* info, Call& call) {
  WGPUTexelCopyBufferInfo out = info != nullptr ? *info : WGPUTexelCopyBufferInfo{};
  if (info == nullptr && call.failure.empty()) call.failure = "a copy's buffer side is null";
  out.buffer = dawn_arg(out.buffer, call);
  return out;
}

// A pass descriptor's timestamp writes, with their Dawn query set, kept in `storage`.
template <typename PassDescriptor>
void translate_timestamps(PassDescriptor& desc, WGPUPassTimestampWrites& storage, Call& call) {
  if (desc.timestampWrites == nullptr) return;
  storage = *desc.timestampWrites;
  storage.querySet = dawn_arg(storage.querySet, call);
  desc.timestampWrites = &storage;
}

// True when the call may go to Dawn; reports the failure otherwise.
bool proceed(const Call& call) {
  if (!call.failure.empty()) {
    call.report();
    return false;
  }
  return !call.drop;
}

}  // namespace

WGPUCommandEncoder Entry<ProcId::DeviceCreateCommandEncoder>::call(WGPUDevice device,
                                                                   const WGPUCommandEncoderDescriptor* desc) {
  auto* self = checked<Device>(device, Kind::Device, ProcId::DeviceCreateCommandEncoder);
  if (self == nullptr) return nullptr;
  WGPUDevice dawn_device = self->ready_device();
  std::string label = desc != nullptr ? std::string(gpu::to_std(desc->label)) : std::string();
  WGPUCommandEncoder encoder = dawn_device != nullptr ? self->procs().DeviceCreateCommandEncoder(dawn_device, desc) : nullptr;
  return to_app<WGPUCommandEncoder>(
      new CommandEncoder(Kind::CommandEncoder, *self, encoder, self->live_generation(), std::move(label)));
}

WGPURenderPassEncoder Entry<ProcId::CommandEncoderBeginRenderPass>::call(WGPUCommandEncoder encoder,
                                                                         const WGPURenderPassDescriptor* desc) {
  auto* self = checked<CommandEncoder>(encoder, Kind::CommandEncoder, ProcId::CommandEncoderBeginRenderPass);
  if (self == nullptr) return nullptr;
  Call call{ProcId::CommandEncoderBeginRenderPass, self->device()};
  WGPUCommandEncoder dawn_encoder = dawn_arg(encoder, call);
  WGPURenderPassDescriptor d = desc != nullptr ? *desc : WGPURenderPassDescriptor{};
  std::vector<WGPURenderPassColorAttachment> colors(d.colorAttachments, d.colorAttachments + d.colorAttachmentCount);
  for (WGPURenderPassColorAttachment& color : colors) {
    color.view = dawn_arg(color.view, call);
    color.resolveTarget = dawn_arg(color.resolveTarget, call);
  }
  d.colorAttachments = colors.data();
  WGPURenderPassDepthStencilAttachment depth{};
  if (d.depthStencilAttachment != nullptr) {
    depth = *d.depthStencilAttachment;
    depth.view = dawn_arg(depth.view, call);
    d.depthStencilAttachment = &depth;
  }
  d.occlusionQuerySet = dawn_arg(d.occlusionQuerySet, call);
  WGPUPassTimestampWrites timestamps{};
  translate_timestamps(d, timestamps, call);
  const std::string label(gpu::to_std(d.label));
  WGPURenderPassEncoder pass = proceed(call) && dawn_encoder != nullptr
                                   ? dawn_procs().CommandEncoderBeginRenderPass(dawn_encoder, &d)
                                   : nullptr;
  return to_app<WGPURenderPassEncoder>(
      new RenderPassEncoder(Kind::RenderPassEncoder, *self->device(), pass, self->generation(), label));
}

WGPUComputePassEncoder Entry<ProcId::CommandEncoderBeginComputePass>::call(WGPUCommandEncoder encoder,
                                                                           const WGPUComputePassDescriptor* desc) {
  auto* self = checked<CommandEncoder>(encoder, Kind::CommandEncoder, ProcId::CommandEncoderBeginComputePass);
  if (self == nullptr) return nullptr;
  Call call{ProcId::CommandEncoderBeginComputePass, self->device()};
  WGPUCommandEncoder dawn_encoder = dawn_arg(encoder, call);
  WGPUComputePassDescriptor d = desc != nullptr ? *desc : WGPUComputePassDescriptor{};
  WGPUPassTimestampWrites timestamps{};
  translate_timestamps(d, timestamps, call);
  const std::string label(gpu::to_std(d.label));
  WGPUComputePassEncoder pass = proceed(call) && dawn_encoder != nullptr
                                    ? dawn_procs().CommandEncoderBeginComputePass(dawn_encoder, &d)
                                    : nullptr;
  return to_app<WGPUComputePassEncoder>(
      new ComputePassEncoder(Kind::ComputePassEncoder, *self->device(), pass, self->generation(), label));
}

namespace {

// A copy between a buffer and a texture, or two textures: both sides with their Dawn objects.
template <ProcId Id, typename From, typename To>
void copy(WGPUCommandEncoder encoder, const From* source, const To* destination, const WGPUExtent3D* size) {
  Call call{Id};
  WGPUCommandEncoder dawn_encoder = dawn_arg(encoder, call);
  const From from = copy_side(source, call);
  const To to = copy_side(destination, call);
  if (proceed(call)) (dawn_procs().*Member<Id>::value)(dawn_encoder, &from, &to, size);
}

}  // namespace

void Entry<ProcId::CommandEncoderCopyBufferToTexture>::call(WGPUCommandEncoder encoder, const WGPUTexelCopyBufferInfo* source,
                                                            const WGPUTexelCopyTextureInfo* destination,
                                                            const WGPUExtent3D* size) {
  copy<ProcId::CommandEncoderCopyBufferToTexture>(encoder, source, destination, size);
}

void Entry<ProcId::CommandEncoderCopyTextureToBuffer>::call(WGPUCommandEncoder encoder, const WGPUTexelCopyTextureInfo* source,
                                                            const WGPUTexelCopyBufferInfo* destination,
                                                            const WGPUExtent3D* size) {
  copy<ProcId::CommandEncoderCopyTextureToBuffer>(encoder, source, destination, size);
}

void Entry<ProcId::CommandEncoderCopyTextureToTexture>::call(WGPUCommandEncoder encoder, const WGPUTexelCopyTextureInfo* source,
                                                             const WGPUTexelCopyTextureInfo* destination,
                                                             const WGPUExtent3D* size) {
  copy<ProcId::CommandEncoderCopyTextureToTexture>(encoder, source, destination, size);
}

WGPUCommandBuffer Entry<ProcId::CommandEncoderFinish>::call(WGPUCommandEncoder encoder,
                                                            const WGPUCommandBufferDescriptor* desc) {
  auto* self = checked<CommandEncoder>(encoder, Kind::CommandEncoder, ProcId::CommandEncoderFinish);
  if (self == nullptr) return nullptr;
  Call call{ProcId::CommandEncoderFinish, self->device()};
  WGPUCommandEncoder dawn_encoder = dawn_arg(encoder, call);
  WGPUCommandBuffer commands = proceed(call) ? dawn_procs().CommandEncoderFinish(dawn_encoder, desc) : nullptr;
  std::string label = desc != nullptr ? std::string(gpu::to_std(desc->label)) : self->label();
  // A command buffer of a lost generation keeps that generation: its submit names it.
  return to_app<WGPUCommandBuffer>(
      new CommandBuffer(Kind::CommandBuffer, *self->device(), commands, self->generation(), std::move(label)));
}

void Entry<ProcId::RenderPassEncoderExecuteBundles>::call(WGPURenderPassEncoder pass, size_t count,
                                                          const WGPURenderBundle* bundles) {
  Call call{ProcId::RenderPassEncoderExecuteBundles};
  WGPURenderPassEncoder dawn_pass = dawn_arg(pass, call);
  std::vector<WGPURenderBundle> dawn_bundles(count);
  for (size_t i = 0; i < count; ++i) dawn_bundles[i] = dawn_arg(bundles[i], call);
  if (proceed(call)) dawn_procs().RenderPassEncoderExecuteBundles(dawn_pass, count, dawn_bundles.data());
}

void Entry<ProcId::QueueSubmit>::call(WGPUQueue queue, size_t count, const WGPUCommandBuffer* commands) {
  auto* self = checked<Queue>(queue, Kind::Queue, ProcId::QueueSubmit);
  if (self == nullptr) return;
  Device& device = *self->device();
  std::vector<WGPUCommandBuffer> live;
  live.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    auto* buffer = checked<CommandBuffer>(commands[i], Kind::CommandBuffer, ProcId::QueueSubmit);
    if (buffer == nullptr) continue;
    if (auto dawn = static_cast<WGPUCommandBuffer>(buffer->dawn(nullptr))) {
      live.push_back(dawn);
      continue;
    }
    Call dropped{ProcId::QueueSubmit, &device, fmt::format("dropped: {}", buffer->submit_failure())};
    dropped.report();
  }
  if (live.empty() && count > 0) return;
  auto frame = device.engine().begin_frame();
  if (!frame) {
    Call dropped{ProcId::QueueSubmit, &device, fmt::format("dropped {} command buffers: {}", live.size(), frame.error().message)};
    dropped.report();
    return;
  }
  if (auto submitted = device.engine().submit(std::move(*frame), live); !submitted) {
    Call refused{ProcId::QueueSubmit, &device, submitted.error().message};
    refused.report();
  }
  device.submitted();
}

void Entry<ProcId::QueueWriteBuffer>::call(WGPUQueue queue, WGPUBuffer buffer, uint64_t offset, const void* data,
                                           size_t size) {
  auto* self = checked<Queue>(queue, Kind::Queue, ProcId::QueueWriteBuffer);
  auto* target = checked<Buffer>(buffer, Kind::Buffer, ProcId::QueueWriteBuffer);
  if (self == nullptr || target == nullptr) return;
  Device& device = *self->device();
  (void)device.ready_device();
  device.write({.id = ProcId::QueueWriteBuffer, .buffer = target->handle(), .offset = offset}, data, size);
}

void Entry<ProcId::QueueWriteTexture>::call(WGPUQueue queue, const WGPUTexelCopyTextureInfo* destination, const void* data,
                                            size_t size, const WGPUTexelCopyBufferLayout* layout,
                                            const WGPUExtent3D* extent) {
  auto* self = checked<Queue>(queue, Kind::Queue, ProcId::QueueWriteTexture);
  if (self == nullptr) return;
  Device& device = *self->device();
  Call call{ProcId::QueueWriteTexture, &device};
  if (destination == nullptr || layout == nullptr || extent == nullptr) {
    call.failure = "the destination, the data layout and the size must not be null";
    call.report();
    return;
  }
  auto* target = checked<Texture>(destination->texture, Kind::Texture, ProcId::QueueWriteTexture);
  if (target == nullptr) return;
  if (layout->offset > size) {
    call.failure = fmt::format("the data layout's offset {} is past the {} bytes given", layout->offset, size);
    call.report();
    return;
  }
  (void)device.ready_device();
  resources::TextureWrite where;
  where.mip_level = destination->mipLevel;
  where.origin = destination->origin;
  where.size = *extent;
  where.bytes_per_row = layout->bytesPerRow;
  where.rows_per_image = layout->rowsPerImage;
  where.aspect = destination->aspect == WGPUTextureAspect_Undefined ? WGPUTextureAspect_All : destination->aspect;
  const auto* bytes = static_cast<const uint8_t*>(data) + layout->offset;
  device.write({.id = ProcId::QueueWriteTexture, .texture = target->handle(), .where = where}, bytes,
               size - layout->offset);
}

namespace {

// A forwarded asynchronous call's way back: the application's callback info, its future, and
// the device generation the call was made on (a map that ends on another one was aborted by the
// loss).
template <typename Info>
struct GenerationRelay {
  FutureTable* futures;
  WGPUFuture future;
  Info info;
  Device* device;
  uint64_t generation;
};

}  // namespace

WGPUFuture Entry<ProcId::QueueOnSubmittedWorkDone>::call(WGPUQueue queue, WGPUQueueWorkDoneCallbackInfo info) {
  auto* self = checked<Queue>(queue, Kind::Queue, ProcId::QueueOnSubmittedWorkDone);
  if (self == nullptr) return WGPUFuture{0};
  Device& device = *self->device();
  FutureTable& futures = device.instance().futures();
  const WGPUFuture future = futures.add(info.mode);
  auto dawn_queue = static_cast<WGPUQueue>(self->dawn(nullptr));
  if (dawn_queue == nullptr) {
    // No device: nothing submitted is still running.
    futures.complete(future, [info] {
      if (info.callback != nullptr) info.callback(WGPUQueueWorkDoneStatus_Success, WGPUStringView{nullptr, 0}, info.userdata1, info.userdata2);
    });
    return future;
  }
  WGPUQueueWorkDoneCallbackInfo dawn_info{};
  dawn_info.mode = dawn_mode(info.mode);
  dawn_info.userdata1 = new GenerationRelay<WGPUQueueWorkDoneCallbackInfo>{&futures, future, info, &device, device.live_generation()};
  dawn_info.callback = [](WGPUQueueWorkDoneStatus status, WGPUStringView message, void* userdata1, void*) {
    auto* relay = static_cast<GenerationRelay<WGPUQueueWorkDoneCallbackInfo>*>(userdata1);
    const WGPUQueueWorkDoneCallbackInfo app = relay->info;
    const std::string words(gpu::to_std(message));
    // Work of a lost device never runs again: it is done, as far as the application can tell.
    if (status != WGPUQueueWorkDoneStatus_Success && relay->device->live_generation() != relay->generation) {
      status = WGPUQueueWorkDoneStatus_Success;
    }
    relay->futures->complete(relay->future, [app, status, words] {
      if (app.callback != nullptr) app.callback(status, gpu::string_view(words), app.userdata1, app.userdata2);
    });
    delete relay;
  };
  dawn_procs().QueueOnSubmittedWorkDone(dawn_queue, dawn_info);
  return future;
}

WGPUFuture Entry<ProcId::BufferMapAsync>::call(WGPUBuffer buffer, WGPUMapMode mode, size_t offset, size_t size,
                                               WGPUBufferMapCallbackInfo info) {
  auto* self = checked<Buffer>(buffer, Kind::Buffer, ProcId::BufferMapAsync);
  if (self == nullptr) return WGPUFuture{0};
  Device& device = *self->device();
  FutureTable& futures = device.instance().futures();
  const WGPUFuture future = futures.add(info.mode);
  std::string why;
  auto dawn_buffer = static_cast<WGPUBuffer>(self->dawn(&why));
  if (dawn_buffer == nullptr) {
    futures.complete(future, [info, why] {
      if (info.callback != nullptr) info.callback(WGPUMapAsyncStatus_Aborted, gpu::string_view(why), info.userdata1, info.userdata2);
    });
    return future;
  }
  WGPUBufferMapCallbackInfo dawn_info{};
  dawn_info.mode = dawn_mode(info.mode);
  dawn_info.userdata1 = new GenerationRelay<WGPUBufferMapCallbackInfo>{&futures, future, info, &device, device.live_generation()};
  dawn_info.callback = [](WGPUMapAsyncStatus status, WGPUStringView message, void* userdata1, void*) {
    auto* relay = static_cast<GenerationRelay<WGPUBufferMapCallbackInfo>*>(userdata1);
    const WGPUBufferMapCallbackInfo app = relay->info;
    std::string words(gpu::to_std(message));
    // A map in flight at a loss completes Aborted, as webgpu.h says of a buffer whose device is
    // lost, whatever Dawn said of the buffer it let go.
    if (relay->device->live_generation() != relay->generation) {
      status = WGPUMapAsyncStatus_Aborted;
      words = fmt::format("the device was lost while the map was pending (device generation {}); {}",
                          relay->generation, words);
    }
    relay->futures->complete(relay->future, [app, status, words] {
      if (app.callback != nullptr) app.callback(status, gpu::string_view(words), app.userdata1, app.userdata2);
    });
    delete relay;
  };
  dawn_procs().BufferMapAsync(dawn_buffer, mode, offset, size, dawn_info);
  return future;
}

void Entry<ProcId::BufferUnmap>::call(WGPUBuffer buffer) {
  auto* self = checked<Buffer>(buffer, Kind::Buffer, ProcId::BufferUnmap);
  if (self == nullptr) return;
  Call call{ProcId::BufferUnmap, self->device()};
  auto dawn_buffer = static_cast<WGPUBuffer>(self->dawn(nullptr));
  if (dawn_buffer == nullptr) return;  // nothing is mapped on a device that is gone
  if (dawn_procs().BufferGetMapState(dawn_buffer) != WGPUBufferMapState_Mapped) {
    dawn_procs().BufferUnmap(dawn_buffer);  // Dawn's own answer (a pending map is cancelled)
    return;
  }
  // Through the registry: what was written through a mapping at creation is kept.
  if (auto unmapped = self->device()->registry().unmap_buffer(self->handle()); !unmapped) {
    call.failure = unmapped.error().message;
    call.report();
  }
}

}  // namespace warden::webgpu_h
