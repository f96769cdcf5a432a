// The concrete objects of warden's webgpu.h library (objects.h says what each family is) and the
// futures its asynchronous calls return. docs/adr/0059.
#pragma once

#include <chrono>
#include <deque>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "warden/engine/engine.h"
#include "warden/gpu/context.h"
#include "warden/gpu/ref.h"
#include "warden/resources/registry.h"
#include "warden/webgpu_h/warden_webgpu.h"
#include "webgpu_h/forward.h"
#include "webgpu_h/objects.h"

namespace warden::webgpu_h {

/// The futures of one instance. Every asynchronous call of the library returns one of these ids,
/// also those it forwards to Dawn: the callback runs when the future is complete and where its
/// WGPUCallbackMode allows (AllowSpontaneous: at once; AllowProcessEvents: in ProcessEvents or a
/// wait on it; WaitAnyOnly: in a wait on it), exactly once.
class FutureTable {
 public:
  /// A new future whose callback will run as `mode` says.
  WGPUFuture add(WGPUCallbackMode mode);
  /// `future` is complete; `fire` runs its callback (now, if the mode allows it anywhere).
  void complete(WGPUFuture future, std::function<void()> fire);
  /// Runs the callbacks ProcessEvents may run: complete, AllowProcessEvents or AllowSpontaneous.
  void run_for_process_events();
  /// WaitAny: runs `future`'s callback if complete; true when it is (or already ran).
  bool run_if_complete(WGPUFuture future);
  /// True while `future` was never handed out.
  bool unknown(WGPUFuture future) const;

 private:
  struct Entry {
    WGPUCallbackMode mode = WGPUCallbackMode_AllowProcessEvents;
    bool complete = false;
    std::function<void()> fire{};
  };
  mutable std::mutex mutex_;
  uint64_t next_ = 1;
  std::unordered_map<uint64_t, Entry> pending_;
};

/// The mode a forwarded asynchronous call asks Dawn for: the application's own when it allows
/// its callback anywhere (Dawn may then call back before the call returns, as a program such as
/// Dear ImGui's backend expects of an error scope), else AllowProcessEvents, so that Dawn's
/// callback lands in warden's ProcessEvents and completes warden's future.
inline WGPUCallbackMode dawn_mode(WGPUCallbackMode application) {
  return application == WGPUCallbackMode_AllowSpontaneous ? WGPUCallbackMode_AllowSpontaneous
                                                           : WGPUCallbackMode_AllowProcessEvents;
}

class Device;

class Instance final : public Object {
 public:
  /// Loads Dawn (as warden does: gpu::Library::load) and makes its instance; null with `why`.
  static Instance* create(std::string* why);
  void* dawn(std::string*) override { return context_->instance(); }

  gpu::Context& context() { return *context_; }
  FutureTable& futures() { return futures_; }
  /// ProcessEvents: Dawn's events, every device's poll (where recoveries run), then the
  /// callbacks complete futures may run here.
  void process_events();
  /// The same, then whether any of `futures` is complete (running its callback).
  bool pump_and_check(size_t count, WGPUFutureWaitInfo* futures);
  void add_device(Device* device);
  void remove_device(Device* device);

 private:
  explicit Instance(std::unique_ptr<gpu::Context> context)
      : Object(Kind::Instance, "instance"), context_(std::move(context)) {}
  std::unique_ptr<gpu::Context> context_;
  FutureTable futures_;
  std::mutex devices_mutex_;
  std::vector<Device*> devices_;
};

class Adapter final : public Object {
 public:
  Adapter(Instance& instance, gpu::SelectedAdapter selected, gpu::BackendChoice choice);
  ~Adapter() override;
  void* dawn(std::string*) override { return adapter_.adapter.get(); }
  Instance& instance() { return instance_; }
  gpu::BackendChoice choice() const { return choice_; }

 private:
  Instance& instance_;  // a reference held
  gpu::SelectedAdapter adapter_;
  gpu::BackendChoice choice_;
};

class Queue;

/// The application's device: one Engine, whose registry holds every custody object, across
/// every Dawn device it goes through.
class Device final : public Object {
 public:
  /// Makes the engine as `desc` and its WardenDeviceExtras ask; null with `why`.
  static Device* create(Adapter& adapter, const WGPUDeviceDescriptor* desc, std::string* why);
  ~Device() override;
  void* dawn(std::string* why) override;
  Device* device() const override { return const_cast<Device*>(this); }

  engine::Engine& engine() { return *engine_; }
  resources::Registry& registry() { return *registry_; }
  const gpu::Procs& procs() const { return engine_->procs(); }
  Instance& instance() { return adapter_.instance(); }
  Adapter& adapter() { return adapter_; }
  Queue& queue() { return *queue_; }
  /// The device generation the registry's objects belong to.
  uint64_t generation() const { return engine_->registry().device_generation(); }
  /// The generation whose Dawn device is shown now; 0 while none is (a loss, a recovery, the
  /// end). Read without a lock on every call that records: what a transient object checks.
  uint64_t live_generation() const { return live_generation_.load(std::memory_order_acquire); }
  /// What objects of this device follow to know their remembered Dawn object is still current.
  const std::atomic<uint64_t>& live_generation_source() const { return live_generation_; }
  /// The shown device went (a forced loss settles at once).
  void mark_not_live() { live_generation_.store(0, std::memory_order_release); }
  /// The current Dawn device, after waiting (bounded) for a recovery under way; null when
  /// there is none (warden gave up, or the application destroyed the device).
  WGPUDevice ready_device();
  /// The engine's poll: where recoveries run and the application hears of them.
  void poll();
  /// An error of warden's about a call: through Dawn's device (so error scopes see it) when
  /// there is one, else straight to the application's uncaptured-error callback.
  void report(WGPUErrorType type, const std::string& message);
  /// wgpuDeviceDestroy: the device ends for good; its lost callback runs (Destroyed).
  void destroy();
  uint64_t recoveries() const { return engine_->counters().recoveries; }
  /// Counts a queue submission; forces a loss after those WARDEN_WEBGPU_LOSE_DEVICE_AT names
  /// (a comma-separated list of submission numbers, from 1): a rehearsal of an unmodified
  /// program's losses, from outside it.
  void submitted();
  /// Makes the shown device lost now, as wgpuDeviceForceLoss does.
  void force_loss(std::string_view why);
  /// wgpuDeviceGetLostFuture: complete once the device's lost callback was told.
  WGPUFuture lost_future();
  /// A queue write (wgpuQueueWriteBuffer to `buffer`, or wgpuQueueWriteTexture to `texture` at
  /// `where`), through the registry, which keeps the bytes a rebuild writes back.
  struct QueueWrite {
    ProcId id;
    BufferHandle buffer{};
    uint64_t offset = 0;
    TextureHandle texture{};
    resources::TextureWrite where{};
  };
  /// Writes now; or, when the registry answers that the device is lost (a thread that does not
  /// wait for the recovery wrote), holds a copy of the bytes, and every write after it while any
  /// is held, until the device is back: the device's thread applies them in order
  /// (apply_held_writes), so a write made during a loss is not lost with it.
  void write(const QueueWrite& write, const void* data, size_t size);
  /// Buffers and textures by registry handle, for naming those whose contents were lost.
  void track(uint64_t handle_bits, Object* object);
  void untrack(uint64_t handle_bits);

 private:
  Device(Adapter& adapter, std::string label);
  void tell_recovery(WardenRecoveryEvent event, uint64_t generation, std::string_view message,
                     const resources::ContentsLost* lost = nullptr);
  void tell_lost(WGPUDeviceLostReason reason, std::string_view message);
  // The application's buffers and textures among those `lost` names (none for null), in its order.
  std::vector<Object*> lost_objects(const resources::ContentsLost* lost);
  // tell_recovery for a program with no recovery callback: one line on stderr.
  void say_recovery(WardenRecoveryEvent event, uint64_t generation, std::string_view message,
                    const resources::ContentsLost* lost);
  Result<void> apply(const QueueWrite& write, const void* data, size_t size);
  // On the device's thread, with a device: the held writes, oldest first, until one finds the
  // device lost again (it and the rest stay held).
  void apply_held_writes();
  // The device ended for good: what is held goes.
  void drop_held_writes();

  Adapter& adapter_;  // a reference held
  std::unique_ptr<engine::Engine> engine_;
  resources::Registry* registry_ = nullptr;  // the engine's, which outlives every device generation
  Queue* queue_ = nullptr;  // a reference held
  WGPUDeviceLostCallbackInfo lost_callback_{};
  WGPUUncapturedErrorCallbackInfo error_callback_{};
  WardenDeviceExtras extras_{};
  std::chrono::milliseconds recovery_timeout_{10000};
  bool ended_ = false;
  bool lost_told_ = false;
  std::atomic<uint64_t> live_generation_{0};
  uint64_t submissions_ = 0;
  std::vector<uint64_t> lose_at_;  // WARDEN_WEBGPU_LOSE_DEVICE_AT, ascending
  WGPUFuture lost_future_{0};
  struct HeldWrite {
    QueueWrite write;
    std::vector<uint8_t> bytes;
  };
  std::mutex held_mutex_;
  std::deque<HeldWrite> held_writes_;
  std::atomic<bool> holding_{false};  // held_writes_ is not empty: what every write checks first
  bool applying_ = false;             // apply_held_writes is under way (the device's thread)
  std::mutex tracked_mutex_;
  std::unordered_map<uint64_t, Object*> tracked_;
};

class Queue final : public Object {
 public:
  explicit Queue(Device& device) : Object(Kind::Queue, "queue"), device_(device) {}
  void* dawn(std::string* why) override;
  Device* device() const override { return &device_; }

 private:
  Device& device_;  // the device holds the queue's reference, not the other way round
};

/// The registry's objects: a handle, made again by the registry after every loss.
template <typename Tag>
class Custody : public Object {
 public:
  using DawnType = resources::Registry::Object<Tag>;
  Custody(Kind kind, Device& device, Handle<Tag> handle, std::string label)
      : Object(kind, std::move(label)), device_(device), handle_(handle) {
    device_.add_ref();
    follow(device_.live_generation_source());
  }
  void* dawn(std::string* why) override;
  Device* device() const override { return &device_; }
  Handle<Tag> handle() const { return handle_; }
  /// The application destroyed it (wgpuBufferDestroy, ...): the handle goes now.
  void destroy_now();
  /// An object whose creation failed (webgpu.h's error object): every call on it is an error
  /// naming it and `why`.
  void fail(std::string why) { failure_ = std::move(why); }

 protected:
  void on_last_release() override;
  Device& device_;  // a reference held
  Handle<Tag> handle_;
  bool destroyed_ = false;
  std::string failure_{};
};

/// Objects of one device generation: the Dawn object they were made with, good while that
/// generation is the device's.
template <typename DawnType>
class Transient : public Object {
 public:
  Transient(Kind kind, Device& device, DawnType object, uint64_t generation, std::string label)
      : Object(kind, std::move(label)), device_(device), object_(object), generation_(generation) {
    device_.add_ref();
    follow(device_.live_generation_source());
    if (object_ != nullptr && generation_ != 0) remember(generation_, object_);
  }
  ~Transient() override;
  void* dawn(std::string* why) override;
  Device* device() const override { return &device_; }
  uint64_t generation() const { return generation_; }
  /// Why what it recorded cannot be submitted: named with its generation.
  std::string submit_failure() const;

 private:
  Device& device_;  // a reference held
  DawnType object_;  // one reference, released with the object (null: made while no device was)
  uint64_t generation_;
};

/// A Dawn object the library itself makes again, lazily, on each device generation it is used on
/// (a pipeline's implicit layouts and what is made with them, a surface's Dawn surface): what
/// the registry cannot hold a recipe of. One reference is held; it goes when a newer generation
/// asks, or with the holder.
template <typename DawnType>
class PerGeneration {
 public:
  PerGeneration() = default;
  PerGeneration(const PerGeneration&) = delete;
  PerGeneration& operator=(const PerGeneration&) = delete;
  ~PerGeneration() { reset(); }
  /// The object of generation `live`, made by `make` (which may return null) when the one held
  /// is of another generation.
  template <typename Make>
  DawnType get(uint64_t live, Make&& make) {
    std::lock_guard lock(mutex_);
    if (object_ != nullptr && generation_ == live) return object_;
    if (object_ != nullptr) gpu::release(dawn_procs(), std::exchange(object_, nullptr));
    object_ = make();
    generation_ = live;
    return object_;
  }
  /// Lets go of the object held (a device gone, an unconfigure).
  void reset() {
    std::lock_guard lock(mutex_);
    if (object_ != nullptr) gpu::release(dawn_procs(), std::exchange(object_, nullptr));
  }

 private:
  std::mutex mutex_;
  DawnType object_ = nullptr;
  uint64_t generation_ = 0;
};

using Buffer = Custody<BufferTag>;
using Sampler = Custody<SamplerTag>;
using ShaderModule = Custody<ShaderModuleTag>;
using BindGroupLayout = Custody<BindGroupLayoutTag>;
using PipelineLayout = Custody<PipelineLayoutTag>;
using BindGroup = Custody<BindGroupTag>;
using RenderPipeline = Custody<RenderPipelineTag>;
using ComputePipeline = Custody<ComputePipelineTag>;
using QuerySet = Custody<QuerySetTag>;
using RenderBundle = Custody<RenderBundleTag>;
using Texture = Custody<TextureTag>;
using TextureView = Custody<TextureViewTag>;
using SurfaceTexture = Transient<WGPUTexture>;          // a surface's texture of one generation
using SurfaceTextureView = Transient<WGPUTextureView>;  // a view of one
using CommandEncoder = Transient<WGPUCommandEncoder>;
using CommandBuffer = Transient<WGPUCommandBuffer>;
using RenderPassEncoder = Transient<WGPURenderPassEncoder>;
using ComputePassEncoder = Transient<WGPUComputePassEncoder>;

/// Why `chain` (a descriptor's nextInChain, named `what`) cannot be taken: the first struct whose
/// sType is not one of `kept`, which would be lost at the first rebuild without a word (warden
/// makes the object again from what it kept); empty when every struct is kept.
std::string unkept_chain(const WGPUChainedStruct* chain, const char* what, std::initializer_list<WGPUSType> kept = {});

/// Reports, as call `id`, why `pointer` cannot be used as warden's object of `kind`: it is null,
/// of another kind or library, or warden's object of that kind that the call cannot take.
void report_unusable(const void* pointer, Kind kind, ProcId id);

/// The object behind `pointer` when it is warden's object of `kind` and of type T; else null,
/// and the call `id` has reported why (report_unusable).
template <typename T = Object>
T* checked(const void* pointer, Kind kind, ProcId id) {
  auto* object = dynamic_cast<T*>(from_app(pointer, kind));
  if (object == nullptr) [[unlikely]] report_unusable(pointer, kind, id);
  return object;
}

}  // namespace warden::webgpu_h
