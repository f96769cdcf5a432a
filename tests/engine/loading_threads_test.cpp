// The thread contract under load: loading threads create, write, destroy, touch and resolve
// buffers, textures, views and samplers at random, each against its own model of what it holds,
// while the frame thread (the test's own, which made the engine) submits frames and forces device
// losses. After each recovery every handle a loading thread holds must name an object of the
// current device with the contents the thread wrote, and every handle it destroyed must be
// stale. `make test-tsan` runs these tests under ThreadSanitizer (tests/sanitizer/tsan.supp).
//
// A seed fixes each thread's choices, not how the threads interleave: a failure names its seed
// (WARDEN_THREADS_SEED runs another), and a rerun with it makes the same choices in another
// order.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <variant>
#include <vector>

#include "support/engine_fixture.h"
#include "support/gpu_test.h"
#include "support/messages.h"
#include "support/poll_until.h"
#include "warden/engine/engine.h"
#include "warden/gpu/objects.h"
#include "warden/gpu/ref.h"

namespace warden::engine {
namespace {

using testing::engine_options;
using testing::FailsWith;
using testing::make_engine;

constexpr uint32_t kTextureSize = 4;  // RGBA8, 4x4: 64 bytes of contents
constexpr uint32_t kTextureBytes = kTextureSize * kTextureSize * 4;
constexpr uint32_t kReadbackRowPitch = 256;  // copies from a texture need rows 256 bytes apart
constexpr size_t kMostHeldPerThread = 40;
constexpr size_t kDestroyedRemembered = 64;
constexpr uint64_t kStepsWhileLost = 40;

// Every registry and engine call of the loading threads passes here: one place to trace them.
class CallGate {
 public:
  template <typename Call>
  decltype(auto) operator()(Call&& call) {
    return call();
  }
};

using AnyHandle = std::variant<BufferHandle, TextureHandle, TextureViewHandle, SamplerHandle>;

Result<void> destroy(resources::Registry& reg, BufferHandle h) { return reg.destroy_buffer(h); }
Result<void> destroy(resources::Registry& reg, TextureHandle h) { return reg.destroy_texture(h); }
Result<void> destroy(resources::Registry& reg, TextureViewHandle h) { return reg.destroy_texture_view(h); }
Result<void> destroy(resources::Registry& reg, SamplerHandle h) { return reg.destroy_sampler(h); }

// One object a loading thread made and still holds, as it knows it.
struct Held {
  AnyHandle handle{};
  std::string label{};
  std::vector<uint8_t> contents{};  // buffers and textures: every byte the thread wrote (kept)
  TextureHandle viewed{};          // views: the texture they view
  int live_views = 0;              // textures: views of it the thread still holds
};

// What the frame thread and the loading threads share.
class Stage {
 public:
  explicit Stage(Engine& engine)
      : engine(engine),
        one_thread_device(engine.backend() == WGPUBackendType_OpenGL || engine.backend() == WGPUBackendType_OpenGLES) {}

  Engine& engine;
  // Dawn's GL and GLES take device calls on one thread: what a loading thread creates there is
  // Waiting until the frame thread's next poll makes it (warden/core/frame_thread.h).
  const bool one_thread_device;
  std::atomic<uint64_t> waiting_resolves{0};
  CallGate gate;
  // Odd from just before a forced loss until the engine is Ready again: a call that began in an
  // odd epoch, or saw the epoch change, may have met the lost device.
  std::atomic<uint64_t> loss_epoch{0};
  std::atomic<uint64_t> steps_done{0};
  std::atomic<bool> stop{false};  // the frame thread failed: the loading threads end
  std::atomic<uint64_t> refused_by_loss{0};  // calls that met the lost device and said so

  bool met_loss(uint64_t epoch_before) const {
    return epoch_before % 2 == 1 || loss_epoch.load() != epoch_before;
  }

  // How many steps the loading threads may take before the frame thread's next loss: they wait
  // there, so that the loss meets them at work however fast they go.
  void allow_steps(uint64_t steps) {
    {
      std::lock_guard lock(mutex_);
      allowed_ = steps;
    }
    changed_.notify_all();
  }

  // The loading threads stop between two steps while the frame thread checks their models.
  void pause_loaders() {
    std::unique_lock lock(mutex_);
    pause_ = true;
    changed_.wait(lock, [&] { return parked_ == running_; });
  }
  void resume_loaders() {
    {
      std::lock_guard lock(mutex_);
      pause_ = false;
    }
    changed_.notify_all();
  }
  void loader_starts() {
    std::lock_guard lock(mutex_);
    ++running_;
  }
  void loader_ends() {
    {
      std::lock_guard lock(mutex_);
      --running_;
    }
    changed_.notify_all();
  }
  bool loaders_running() {
    std::lock_guard lock(mutex_);
    return running_ > 0;
  }
  // Every running loading thread waits at its allowance (or for a pause).
  bool loaders_parked() {
    std::lock_guard lock(mutex_);
    return parked_ == running_;
  }
  void park_if_asked() {
    std::unique_lock lock(mutex_);
    const auto may_go = [&] { return stop.load() || (!pause_ && steps_done.load() < allowed_); };
    if (may_go()) return;
    ++parked_;
    changed_.notify_all();
    changed_.wait(lock, may_go);
    --parked_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool pause_ = false;
  uint64_t allowed_ = 0;
  int running_ = 0;
  int parked_ = 0;
};

// A loading thread: its own random choices and its own model of what it holds.
class Loader {
 public:
  Loader(Stage& stage, uint32_t index, uint32_t seed) : stage_(stage), index_(index), seed_(seed), rng_(seed) {}

  void run(int steps) {
    SCOPED_TRACE("loading thread " + std::to_string(index_) + ", seed " + std::to_string(seed_));
    for (step_ = 0; step_ < steps && !stage_.stop.load() && !::testing::Test::HasFailure(); ++step_) {
      stage_.park_if_asked();
      one_step();
      stage_.steps_done.fetch_add(1);
    }
  }

  const std::vector<Held>& held() const { return held_; }
  const std::vector<AnyHandle>& destroyed() const { return destroyed_; }
  std::string where() const {
    return "loading thread " + std::to_string(index_) + " (seed " + std::to_string(seed_) + ")";
  }

 private:
  resources::Registry& reg() { return stage_.engine.registry(); }
  uint32_t pick(size_t n) { return std::uniform_int_distribution<uint32_t>(0, uint32_t(n - 1))(rng_); }
  std::string step_name() const { return "step " + std::to_string(step_); }

  void one_step() {
    const bool full = held_.size() >= kMostHeldPerThread;
    switch (pick(11)) {
      case 0: full ? destroy_one() : create_buffer(); break;
      case 1: full ? destroy_one() : create_texture(); break;
      case 2: full ? destroy_one() : create_view(); break;
      case 3: full ? destroy_one() : create_sampler(); break;
      case 4: write_buffer(); break;
      case 5: write_texture(); break;
      case 6: destroy_one(); break;
      case 7: case 8: resolve_held(); break;
      case 9: resolve_destroyed(); break;
      case 10: touch(); break;
    }
  }

  // A creation gives a handle the model now holds, lost device or not (a creation while the
  // device is lost is made by the rebuild).
  template <typename Handle>
  void created(const Result<Handle>& made, uint64_t /*epoch*/, Held held) {
    if (made.ok()) {
      held.handle = *made;
      held_.push_back(std::move(held));
      return;
    }
    ADD_FAILURE() << step_name() << ": creating " << held.label << " failed: " << made.error().message;
  }

  void create_buffer() {
    const uint64_t size = 16 * (1 + pick(4));
    Held held{.label = "loader " + std::to_string(index_) + " buffer " + std::to_string(step_)};
    held.contents.assign(size, 0);
    const uint64_t epoch = stage_.loss_epoch.load();
    auto made = stage_.gate([&] {
      return reg().create_buffer({.size = size,
                                  .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc,
                                  .label = held.label});
    });
    created(made, epoch, std::move(held));
  }

  void create_texture() {
    Held held{.label = "loader " + std::to_string(index_) + " texture " + std::to_string(step_)};
    held.contents.assign(kTextureBytes, 0);
    const uint64_t epoch = stage_.loss_epoch.load();
    auto made = stage_.gate([&] {
      return reg().create_texture({.size = {kTextureSize, kTextureSize, 1},
                                   .usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst |
                                            WGPUTextureUsage_CopySrc,
                                   .label = held.label});
    });
    created(made, epoch, std::move(held));
  }

  void create_view() {
    Held* texture = pick_held<TextureHandle>();
    if (texture == nullptr) return;
    const TextureHandle viewed = std::get<TextureHandle>(texture->handle);
    Held held{.label = "loader " + std::to_string(index_) + " view " + std::to_string(step_), .viewed = viewed};
    const uint64_t epoch = stage_.loss_epoch.load();
    auto made = stage_.gate([&] { return reg().create_texture_view(viewed, {.label = held.label}); });
    if (made.ok()) ++texture->live_views;  // before created() moves `held` in: `texture` may move
    created(made, epoch, std::move(held));
  }

  void create_sampler() {
    Held held{.label = "loader " + std::to_string(index_) + " sampler " + std::to_string(step_)};
    const WGPUFilterMode filter = pick(2) == 0 ? WGPUFilterMode_Nearest : WGPUFilterMode_Linear;
    const uint64_t epoch = stage_.loss_epoch.load();
    auto made = stage_.gate([&] {
      return reg().create_sampler({.mag_filter = filter, .min_filter = filter, .label = held.label});
    });
    created(made, epoch, std::move(held));
  }

  // A write changes the model only when the registry says it was written; a refusal is allowed
  // only for a write that met a loss.
  void written(const Result<void>& result, uint64_t epoch, Held& held, const std::vector<uint8_t>& after) {
    if (result.ok()) {
      held.contents = after;
      return;
    }
    EXPECT_TRUE(stage_.met_loss(epoch) && result.error().id == MessageId::RegistryDeviceLost)
        << step_name() << ": writing " << held.label << " failed: " << result.error().message;
    stage_.refused_by_loss.fetch_add(1);
  }

  void write_buffer() {
    Held* buffer = pick_held<BufferHandle>();
    if (buffer == nullptr) return;
    const size_t words = buffer->contents.size() / 4;
    const size_t first = pick(words);
    const size_t count = 1 + pick(words - first);
    std::vector<uint8_t> bytes(count * 4);
    for (uint8_t& b : bytes) b = uint8_t(pick(256));
    std::vector<uint8_t> after = buffer->contents;
    std::copy(bytes.begin(), bytes.end(), after.begin() + long(first * 4));
    const uint64_t epoch = stage_.loss_epoch.load();
    const BufferHandle handle = std::get<BufferHandle>(buffer->handle);
    auto result = stage_.gate([&] { return reg().write_buffer(handle, first * 4, bytes.data(), bytes.size()); });
    written(result, epoch, *buffer, after);
  }

  void write_texture() {
    Held* texture = pick_held<TextureHandle>();
    if (texture == nullptr) return;
    const uint32_t x = pick(kTextureSize), y = pick(kTextureSize);
    const uint32_t width = 1 + pick(kTextureSize - x), height = 1 + pick(kTextureSize - y);
    std::vector<uint8_t> texels(size_t{width} * height * 4);
    for (uint8_t& b : texels) b = uint8_t(pick(256));
    std::vector<uint8_t> after = texture->contents;
    for (uint32_t row = 0; row < height; ++row) {
      std::copy_n(texels.begin() + long(row * width * 4), width * 4,
                  after.begin() + long(((y + row) * kTextureSize + x) * 4));
    }
    resources::TextureWrite where{.origin = {x, y, 0}, .size = {width, height, 1}};
    const uint64_t epoch = stage_.loss_epoch.load();
    const TextureHandle handle = std::get<TextureHandle>(texture->handle);
    auto result = stage_.gate([&] { return reg().write_texture(handle, where, texels.data(), texels.size()); });
    written(result, epoch, *texture, after);
  }

  void destroy_one() {
    if (held_.empty()) return;
    const size_t at = pick(held_.size());
    Held& held = held_[at];
    auto result = std::visit([&](auto h) { return stage_.gate([&] { return destroy(reg(), h); }); }, held.handle);
    if (held.live_views > 0) {  // the registry refuses while a view of it lives
      EXPECT_THAT(result, FailsWith(MessageId::TextureHasLiveViews)) << step_name() << ", " << held.label;
      return;
    }
    if (!result.ok()) {
      ADD_FAILURE() << step_name() << ": destroying " << held.label << " failed: " << result.error().message;
      return;
    }
    if (std::holds_alternative<TextureViewHandle>(held.handle)) {
      for (Held& texture : held_) {
        if (const auto* t = std::get_if<TextureHandle>(&texture.handle); t != nullptr && *t == held.viewed) {
          --texture.live_views;
        }
      }
    }
    destroyed_.push_back(held.handle);
    if (destroyed_.size() > kDestroyedRemembered) destroyed_.erase(destroyed_.begin());
    held_.erase(held_.begin() + long(at));
  }

  void resolve_held() {
    if (held_.empty()) return;
    const Held& held = held_[pick(held_.size())];
    const uint64_t epoch = stage_.loss_epoch.load();
    std::visit(
        [&](auto h) {
          const auto [object, label] = stage_.gate([&] {
            auto resolved = reg().resolve(h);
            const std::string* name = reg().label(h);
            return std::make_pair(std::move(resolved), name != nullptr ? *name : std::string("<no label>"));
          });
          EXPECT_EQ(label, held.label) << step_name();
          if (object.ok()) {
            EXPECT_NE(*object, nullptr) << step_name() << ", " << held.label;
          } else if (stage_.one_thread_device && object.error().id == MessageId::WaitingForFrameThread) {
            stage_.waiting_resolves.fetch_add(1);
          } else {
            EXPECT_TRUE(stage_.met_loss(epoch) && object.error().id == MessageId::RegistryDeviceLost)
                << step_name() << ": resolving " << held.label << " failed: " << object.error().message;
            stage_.refused_by_loss.fetch_add(1);
          }
        },
        held.handle);
  }

  void resolve_destroyed() {
    if (destroyed_.empty()) return;
    std::visit(
        [&](auto h) {
          auto resolved = stage_.gate([&] { return reg().resolve(h); });
          EXPECT_THAT(resolved, FailsWith(MessageId::HandleDestroyed)) << step_name();
        },
        destroyed_[pick(destroyed_.size())]);
  }

  void touch() {
    if (held_.empty()) return;
    std::visit([&](auto h) { stage_.gate([&] { reg().touch(h); }); }, held_[pick(held_.size())].handle);
  }

  template <typename Handle>
  Held* pick_held() {
    std::vector<Held*> of_kind;
    for (Held& held : held_) {
      if (std::holds_alternative<Handle>(held.handle)) of_kind.push_back(&held);
    }
    return of_kind.empty() ? nullptr : of_kind[pick(of_kind.size())];
  }

  Stage& stage_;
  const uint32_t index_;
  const uint32_t seed_;
  std::mt19937 rng_;
  int step_ = 0;
  std::vector<Held> held_;
  std::vector<AnyHandle> destroyed_;  // the latest ones
};

// The frame thread's check, with every loading thread parked: each held handle names a live
// object of the current device (it is copied from, or bound, on that device without a
// validation error) whose contents are what its thread wrote, and each destroyed one is stale.
class ModelCheck {
 public:
  // Dawn's Null backend validates copies but executes none: there only the device is checked.
  ModelCheck(Engine& engine, bool compare_contents)
      : engine_(engine), p_(engine.procs()), compare_contents_(compare_contents) {}

  void check(const std::vector<std::unique_ptr<Loader>>& loaders, const std::string& when) {
    SCOPED_TRACE(when);
    resources::Registry& reg = engine_.registry();
    ASSERT_EQ(engine_.state(), EngineState::Ready) << engine_.message();
    // The frame boundary makes what is Waiting (a device that takes calls on one thread) and
    // writes what the loading threads wrote to it; nothing is Waiting after it.
    engine_.poll();
    const uint64_t errors_before = engine_.counters().uncaptured_errors;
    std::vector<Copy> copies;
    std::vector<WGPUTextureView> views;
    std::vector<WGPUSampler> samplers;
    uint64_t readback_size = 0;
    for (const auto& loader : loaders) {
      SCOPED_TRACE(loader->where());
      for (const Held& held : loader->held()) {
        std::visit(
            [&](auto h) {
              EXPECT_EQ(reg.slot_state(h), resources::SlotState::Live) << held.label;
              auto object = reg.resolve(h);
              ASSERT_TRUE(object.ok()) << object.error().message;
              using Object = std::decay_t<decltype(*object)>;
              if constexpr (std::is_same_v<Object, WGPUBuffer> || std::is_same_v<Object, WGPUTexture>) {
                copies.push_back({&held, loader.get(), *object, readback_size});
                readback_size += std::is_same_v<Object, WGPUBuffer> ? (held.contents.size() + 255) / 256 * 256
                                                                    : uint64_t{kReadbackRowPitch} * kTextureSize;
              } else if constexpr (std::is_same_v<Object, WGPUTextureView>) {
                views.push_back(*object);
              } else {
                samplers.push_back(*object);
              }
            },
            held.handle);
      }
      for (const AnyHandle& gone : loader->destroyed()) {
        std::visit(
            [&](auto h) {
              EXPECT_FALSE(reg.is_alive(h));
              EXPECT_THAT(reg.resolve(h), FailsWith(MessageId::HandleDestroyed));
            },
            gone);
      }
    }
    bind_on_current_device(views, samplers);
    if (!copies.empty()) read_back(copies, readback_size);
    engine_.poll();
    EXPECT_EQ(engine_.counters().uncaptured_errors, errors_before)
        << "an object the registry handed out is not of the current device, or could not be read";
  }

 private:
  // A held buffer or texture, its GPU object and where its bytes go in the readback.
  struct Copy {
    const Held* held;
    const Loader* loader;
    std::variant<WGPUBuffer, WGPUTexture> object;
    uint64_t offset;
  };

  // Binds every view and sampler in a bind group made on the current device: Dawn refuses an
  // object of another device there.
  void bind_on_current_device(const std::vector<WGPUTextureView>& views, const std::vector<WGPUSampler>& samplers) {
    WGPUDevice device = engine_.device();
    WGPUBindGroupLayoutEntry entries[2]{};
    entries[0].binding = 0;
    entries[0].visibility = WGPUShaderStage_Fragment;
    entries[0].texture.sampleType = WGPUTextureSampleType_Float;
    entries[0].texture.viewDimension = WGPUTextureViewDimension_2D;
    entries[1].binding = 1;
    entries[1].visibility = WGPUShaderStage_Fragment;
    entries[1].sampler.type = WGPUSamplerBindingType_Filtering;
    WGPUBindGroupLayoutDescriptor ld{};
    ld.entryCount = 2;
    ld.entries = entries;
    gpu::Ref<WGPUBindGroupLayout> layout(&p_, p_.DeviceCreateBindGroupLayout(device, &ld));
    WGPUTextureDescriptor td{};
    td.usage = WGPUTextureUsage_TextureBinding;
    td.dimension = WGPUTextureDimension_2D;
    td.size = {1, 1, 1};
    td.format = WGPUTextureFormat_RGBA8Unorm;
    td.mipLevelCount = 1;
    td.sampleCount = 1;
    gpu::Ref<WGPUTexture> own_texture(&p_, p_.DeviceCreateTexture(device, &td));
    gpu::Ref<WGPUTextureView> own_view(&p_, p_.TextureCreateView(own_texture.get(), nullptr));
    const WGPUSamplerDescriptor sd = testing::nearest_clamp_sampler();
    gpu::Ref<WGPUSampler> own_sampler(&p_, p_.DeviceCreateSampler(device, &sd));
    for (size_t i = 0; i < std::max(views.size(), samplers.size()); ++i) {
      WGPUBindGroupEntry bound[2]{};
      bound[0].binding = 0;
      bound[0].textureView = i < views.size() ? views[i] : own_view.get();
      bound[1].binding = 1;
      bound[1].sampler = i < samplers.size() ? samplers[i] : own_sampler.get();
      WGPUBindGroupDescriptor gd{};
      gd.layout = layout.get();
      gd.entryCount = 2;
      gd.entries = bound;
      gpu::Ref<WGPUBindGroup> group(&p_, p_.DeviceCreateBindGroup(device, &gd));
    }
  }

  // Copies every held buffer and texture into one buffer of the current device (Dawn refuses a
  // copy from another device's object) and compares what comes back with the models.
  void read_back(const std::vector<Copy>& copies, uint64_t size) {
    WGPUBufferDescriptor bd{};
    bd.size = size;
    bd.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
    gpu::Ref<WGPUBuffer> readback(&p_, p_.DeviceCreateBuffer(engine_.device(), &bd));
    gpu::Ref<WGPUCommandEncoder> encoder(&p_, p_.DeviceCreateCommandEncoder(engine_.device(), nullptr));
    for (const Copy& copy : copies) {
      if (const auto* buffer = std::get_if<WGPUBuffer>(&copy.object)) {
        p_.CommandEncoderCopyBufferToBuffer(encoder.get(), *buffer, 0, readback.get(), copy.offset,
                                            copy.held->contents.size());
        continue;
      }
      WGPUTexelCopyTextureInfo src{};
      src.texture = std::get<WGPUTexture>(copy.object);
      src.aspect = WGPUTextureAspect_All;
      WGPUTexelCopyBufferInfo dst{};
      dst.buffer = readback.get();
      dst.layout.offset = copy.offset;
      dst.layout.bytesPerRow = kReadbackRowPitch;
      dst.layout.rowsPerImage = kTextureSize;
      const WGPUExtent3D extent{kTextureSize, kTextureSize, 1};
      p_.CommandEncoderCopyTextureToBuffer(encoder.get(), &src, &dst, &extent);
    }
    gpu::Ref<WGPUCommandBuffer> commands(&p_, p_.CommandEncoderFinish(encoder.get(), nullptr));
    engine_.registry().submit(commands.get());
    auto bytes = engine_.context().read_mapped(readback.get(), size, testing::kSafetyNet);
    ASSERT_TRUE(bytes.ok()) << bytes.error().message;
    if (!compare_contents_) return;
    for (const Copy& copy : copies) {
      std::vector<uint8_t> got;
      if (std::holds_alternative<WGPUBuffer>(copy.object)) {
        got.assign(bytes->begin() + long(copy.offset), bytes->begin() + long(copy.offset + copy.held->contents.size()));
      } else {
        for (uint32_t row = 0; row < kTextureSize; ++row) {
          const auto start = bytes->begin() + long(copy.offset + uint64_t{row} * kReadbackRowPitch);
          got.insert(got.end(), start, start + kTextureSize * 4);
        }
      }
      EXPECT_EQ(got, copy.held->contents) << copy.loader->where() << ": the contents of " << copy.held->label;
    }
  }

  Engine& engine_;
  const gpu::Procs& p_;
  const bool compare_contents_;
};

struct Run {
  gpu::BackendChoice backend;
  uint32_t loaders;
  int steps_per_loader;
  int losses;
};

uint32_t base_seed() {
  const char* chosen = std::getenv("WARDEN_THREADS_SEED");
  return chosen != nullptr ? uint32_t(std::strtoul(chosen, nullptr, 10)) : 1u;
}

// The frame thread: empty frames submitted and polled (a poll lets go of what the loading threads
// destroyed once its submission retired) until the loading threads have done their share of steps
// before each loss; the loss forced, the engine polled until Ready while they go on, then their
// models checked with them parked. Returns the number of frames.
uint64_t drive_frames_and_losses(Engine& engine, Stage& stage, const std::vector<std::unique_ptr<Loader>>& loaders,
                                 const Run& run) {
  ModelCheck model_check(engine, run.backend != gpu::BackendChoice::Null);
  uint64_t frames = 0;
  const auto frame = [&] {
    stage.gate([&] {
      auto begun = engine.begin_frame();
      ASSERT_TRUE(begun.ok()) << begun.error().message;
      auto submitted = engine.submit(std::move(*begun));
      ASSERT_TRUE(submitted.ok()) << submitted.error().message;
      engine.poll();
    });
    ++frames;
    std::this_thread::yield();
  };
  const uint64_t total_steps = uint64_t(run.loaders) * uint64_t(run.steps_per_loader);
  const uint64_t between_losses = total_steps / uint64_t(run.losses + 1);
  // The loss comes when the loading threads have done their share before it, while they work
  // on (they may run kStepsWhileLost past it); once it is forced they take at least
  // kStepsWhileLost steps against the lost device, and go on while the engine recovers.
  stage.allow_steps(between_losses + kStepsWhileLost);
  for (int loss = 1; loss <= run.losses && !::testing::Test::HasFailure(); ++loss) {
    const uint64_t at = between_losses * uint64_t(loss);
    while (stage.steps_done.load() < at && stage.loaders_running() && !::testing::Test::HasFailure()) frame();
    stage.loss_epoch.fetch_add(1);
    auto forced = stage.gate([&] { return engine.force_device_loss("forced by the frame thread"); });
    EXPECT_TRUE(forced.ok()) << forced.error().message;
    // Steps against the lost device before the first poll starts the rebuild, however the
    // threads are scheduled.
    const uint64_t lost_at = stage.steps_done.load();
    stage.allow_steps(lost_at + kStepsWhileLost);
    testing::poll_until([&] { return stage.loaders_parked() || !stage.loaders_running(); }, [] {});
    stage.allow_steps(at + between_losses / 2);
    const bool ready =
        testing::poll_until([&] { return stage.gate([&] { return engine.state() != EngineState::Recovering; }); },
                            [&] { stage.gate([&] { engine.poll(); }); });
    EXPECT_TRUE(ready) << "no recovery from loss " << loss;
    stage.loss_epoch.fetch_add(1);
    if (!forced.ok() || !ready) return frames;
    stage.pause_loaders();
    model_check.check(loaders, "after the recovery from loss " + std::to_string(loss));
    stage.allow_steps(loss == run.losses ? total_steps : at + between_losses + kStepsWhileLost);
    stage.resume_loaders();
  }
  while (stage.loaders_running() && !::testing::Test::HasFailure()) frame();
  return frames;
}

void run_loaders_across_losses(const Run& run) {
  const uint32_t seed = base_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (WARDEN_THREADS_SEED)");
  auto engine = make_engine(engine_options(run.backend));
  ASSERT_NE(engine, nullptr);
  Stage stage(*engine);
  std::vector<std::unique_ptr<Loader>> loaders;
  for (uint32_t i = 0; i < run.loaders; ++i) {
    loaders.push_back(std::make_unique<Loader>(stage, i, seed * 1000 + i));
    stage.loader_starts();
  }
  std::vector<std::thread> threads;
  std::atomic<size_t> exit_turn{0};
  for (size_t i = 0; i < loaders.size(); ++i) {
    threads.emplace_back([&stage, &exit_turn, loader = loaders[i].get(), i, steps = run.steps_per_loader] {
      loader->run(steps);
      stage.loader_ends();
      while (exit_turn.load() != i) std::this_thread::yield();
    });
  }
  const uint64_t frames = drive_frames_and_losses(*engine, stage, loaders, run);
  stage.stop = true;  // the loading threads end early when the frame thread failed
  stage.resume_loaders();
  for (std::thread& thread : threads) {
    thread.join();
    exit_turn.fetch_add(1);
  }
  EXPECT_EQ(engine->counters().recoveries, uint64_t(run.losses));
  ModelCheck(*engine, run.backend != gpu::BackendChoice::Null).check(loaders, "at the end");
  std::printf("seed %u on %s: %u loading threads, %llu steps (%llu calls refused by a loss, %llu resolves of objects "
              "waiting for the frame thread), %d losses, %llu frames\n",
              seed, gpu::to_string(run.backend), run.loaders, static_cast<unsigned long long>(stage.steps_done.load()),
              static_cast<unsigned long long>(stage.refused_by_loss.load()),
              static_cast<unsigned long long>(stage.waiting_resolves.load()), run.losses,
              static_cast<unsigned long long>(frames));
}

TEST(LoadingThreads, ThousandsOfStepsOnNullAcrossLossesLeaveEveryHandleAsItsThreadModelsIt) {
  run_loaders_across_losses({.backend = gpu::BackendChoice::Null, .loaders = 4, .steps_per_loader = 1000, .losses = 3});
}

// The pixel tests' backend: GL here, where the loading threads never reach the device (Dawn's
// GL backend keeps its EGL context current on the thread that made the device, so the registry
// carries their creations and writes to the frame thread, whose poll makes and writes them);
// WARDEN_TEST_BACKEND=vulkan on a GPU, where they call the device themselves. Every object's
// contents are read back and compared after every recovery.
TEST(LoadingThreads, HundredsOfStepsOnThePixelBackendAcrossLossesLeaveEveryHandleAsItsThreadModelsIt) {
  run_loaders_across_losses(
      {.backend = testing::pixel_test_backend(), .loaders = 4, .steps_per_loader = 150, .losses = 2});
}

}  // namespace
}  // namespace warden::engine
