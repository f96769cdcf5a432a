// resources::Registry against a reference model: random creates (into small pools, with slots
// exhausted after a few generations), destroys (double ones too), resolves of live, destroyed
// and forged handles, touches, submissions, polls and replacements on the Null backend. The
// model says which handles are live, what resolve returns (the object, or a StaleHandle error
// naming the handle's generation), the live counts, what waits for release, and that nothing is
// released while a submission that may use it can still run.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "fuzz/fuzz_support.h"
#include "fuzz/null_device.h"
#include "fuzz/registry_support.h"
#include "warden/resources/registry.h"

namespace warden::fuzz {
namespace {

using namespace resources;

struct ModelHandle {
  ResourceKind kind = ResourceKind::None;
  uint64_t bits = 0;
  bool alive = true;
  const void* object = nullptr;
  Serial last_used;
};

struct WaitingRelease {
  Serial last_used;
  Serial release_after;  // owned: at least the submission being recorded when it was let go
};

class RegistryRun {
 public:
  explicit RegistryRun(Bytes& in) : in_(in) {
    capacity_ = 1 + in_.below(6);
    RegistryOptions options = RegistryOptions::uniform(capacity_);
    if (in_.coin()) options.generation_limit = 1 + in_.below(3);
    options.on_release = [this](const ReleaseEvent& e) { released(e); };
    registry_ = make_fuzz_registry(options);
    const uint64_t last = uint64_t{registry_->first_generation()} + options.generation_limit - 1;
    ceiling_ = static_cast<uint32_t>(std::min<uint64_t>(last, HandleLayout::kMaxGeneration));
  }

  void go() {
    for (int step = 0; step < 256 && !in_.empty(); ++step) {
      switch (in_.below(10)) {
        case 0: case 1: create(); break;
        case 2: destroy(); break;
        case 3: resolve(); break;
        case 4: resolve_forged(); break;
        case 5: touch(); break;
        case 6: submit(); break;
        case 7: registry_->poll(); break;
        case 8: replace(); break;
        case 9: destroy_forged(); break;
      }
      compare();
    }
    check_no_uncaptured_errors();
    // Shutdown lets go of everything still live: the model says so first.
    for (ModelHandle& h : handles_) {
      if (h.alive) let_go(h);
    }
    shutting_down_ = true;
    registry_.reset();
    require(waiting_.empty(), fmt::format("{} objects let go of were never released", waiting_.size()));
  }

 private:
  static const char* name(ResourceKind kind) { return kind == ResourceKind::Buffer ? "buffer" : "texture"; }

  uint32_t live(ResourceKind kind) const {
    uint32_t n = 0;
    for (const ModelHandle& h : handles_) n += h.alive && h.kind == kind;
    return n;
  }

  template <typename H>
  void made(ResourceKind kind, const Result<H>& handle) {
    const bool room = live(kind) + exhausted_[kind] < capacity_;
    if (!room) {
      require(!handle, fmt::format("create_{} succeeded in a full pool", name(kind)));
      require_named(handle.error(), "create");
      require(handle.error().id == MessageId::ResourcePoolFull, "a full pool's error is not ResourcePoolFull: " + handle.error().message);
      return;
    }
    if (!handle) fail(fmt::format("create_{} failed with room in the pool: {}", name(kind), handle.error().message));
    auto object = registry_->resolve(*handle);
    require(object.ok(), "a new handle does not resolve");
    handles_.push_back({kind, handle->bits(), true, *object, Serial{}});
  }

  void create() {
    if (in_.coin()) {
      made(ResourceKind::Buffer, registry_->create_buffer({4, WGPUBufferUsage_CopyDst, false, "fuzz buffer"}));
    } else {
      made(ResourceKind::Texture, registry_->create_texture({.size = {2, 2, 1}, .usage = WGPUTextureUsage_CopyDst,
                                                             .label = "fuzz texture"}));
    }
  }

  ModelHandle* any(bool live_only) {
    std::vector<ModelHandle*> from;
    for (ModelHandle& h : handles_) {
      if (h.alive || !live_only) from.push_back(&h);
    }
    return from.empty() ? nullptr : from[in_.below(static_cast<uint32_t>(from.size()))];
  }

  void let_go(ModelHandle& h) {
    h.alive = false;
    waiting_[h.object] = {h.last_used, std::max(h.last_used, Serial{submitted_ + 1})};
  }

  void destroy() {
    ModelHandle* h = any(false);
    if (h == nullptr) return;
    if (h->alive) {
      let_go(*h);
      if (BufferHandle::from_bits(h->bits).generation() >= ceiling_) ++exhausted_[h->kind];
    }
    // A double destroy is a no-op that succeeds (the handle is dead, as asked).
    Result<void> done = h->kind == ResourceKind::Buffer ? registry_->destroy_buffer(BufferHandle::from_bits(h->bits))
                                                        : registry_->destroy_texture(TextureHandle::from_bits(h->bits));
    if (!done) fail("destroy failed: " + done.error().message);
  }

  template <typename H>
  void expect_resolve(const ModelHandle& h) {
    auto got = registry_->resolve(H::from_bits(h.bits));
    if (h.alive) {
      require(got.ok() && static_cast<const void*>(*got) == h.object, "resolve of a live handle is not its object");
      return;
    }
    require(!got, "a destroyed handle resolves");
    require(got.error().kind == ErrorKind::StaleHandle && got.error().id == MessageId::HandleDestroyed,
            "a destroyed handle's error is not HandleDestroyed: " + got.error().message);
    const std::string generation = fmt::format("generation {}", H::from_bits(h.bits).generation());
    require(got.error().message.find(generation) != std::string::npos,
            "a destroyed handle's error does not name its generation: " + got.error().message);
  }

  void resolve() {
    ModelHandle* h = any(false);
    if (h == nullptr) return;
    if (h->kind == ResourceKind::Buffer) expect_resolve<BufferHandle>(*h);
    else expect_resolve<TextureHandle>(*h);
  }

  // A handle no registry call should accept, the kind it is given as, and the error that must
  // come back (Application: any named StaleHandle error).
  struct Forged {
    uint64_t bits = 0;
    bool as_texture = false;
    MessageId id = MessageId::Application;
  };
  Forged forge() {
    ModelHandle* h = any(false);
    switch (h == nullptr ? 0 : in_.below(3)) {
      case 0: {
        const uint64_t bits = in_.coin() ? 0 : in_.u64();
        return {bits, in_.coin(), bits == 0 ? MessageId::HandleNull : MessageId::Application};
      }
      case 1:  // a buffer's bits given as a texture's, or the other way round
        return {h->bits, h->kind == ResourceKind::Buffer, MessageId::HandleWrongKind};
      default: {  // the same slot and generation, another registry's id
        const BufferHandle as = BufferHandle::from_bits(h->bits);
        const uint32_t other = registry_->id() % HandleLayout::kMaxRegistryId + 1;
        const uint64_t bits = h->kind == ResourceKind::Buffer ? BufferHandle::make(as.index(), as.generation(), other).bits()
                                                              : TextureHandle::make(as.index(), as.generation(), other).bits();
        return {bits, h->kind == ResourceKind::Texture, MessageId::HandleForeign};
      }
    }
  }
  // The live handle whose bits the forged ones happen to spell, given as its own kind.
  const ModelHandle* spelt(const Forged& forged) const {
    for (const ModelHandle& h : handles_) {
      if (h.alive && h.bits == forged.bits && (h.kind == ResourceKind::Texture) == forged.as_texture) return &h;
    }
    return nullptr;
  }

  void resolve_forged() {
    const Forged forged = forge();
    const ModelHandle* same = spelt(forged);
    {
      Result<const void*> got = forged.as_texture ? as_pointer(registry_->resolve(TextureHandle::from_bits(forged.bits)))
                                           : as_pointer(registry_->resolve(BufferHandle::from_bits(forged.bits)));
      if (same != nullptr) {  // the bytes spelt a live handle exactly
        require(got.ok() && *got == same->object, "a live handle's bits, forged, did not resolve to it");
        return;
      }
      require(!got, "a forged handle resolved");
      require_named(got.error(), "resolve");
      require(got.error().kind == ErrorKind::StaleHandle || forged.id == MessageId::Application,
              "a forged handle's error is not StaleHandle: " + got.error().message);
      require(forged.id == MessageId::Application || got.error().id == forged.id,
              fmt::format("a forged handle's error is {}, not {}: {}", to_string(got.error().id), to_string(forged.id),
                          got.error().message));
    }
  }

  void destroy_forged() {
    const Forged forged = forge();
    if (forged.id == MessageId::Application || spelt(forged) != nullptr) return;  // might name a live object
    {
      Result<void> done = forged.as_texture ? registry_->destroy_texture(TextureHandle::from_bits(forged.bits))
                                     : registry_->destroy_buffer(BufferHandle::from_bits(forged.bits));
      if (forged.id == MessageId::HandleNull) {
        require(done.ok(), "destroying a null handle is not a no-op");
        return;
      }
      require(!done && done.error().id == forged.id,
              fmt::format("destroying a forged handle did not fail with {}", to_string(forged.id)));
    }
  }

  template <typename T>
  static Result<const void*> as_pointer(const Result<T>& r) {
    if (!r) return r.error();
    return static_cast<const void*>(*r);
  }

  void touch() {
    ModelHandle* h = any(true);
    if (h == nullptr) return;
    h->last_used = registry_->clock().recording();
    Serial got;
    if (h->kind == ResourceKind::Buffer) {
      registry_->touch(BufferHandle::from_bits(h->bits));
      got = registry_->last_used(BufferHandle::from_bits(h->bits));
    } else {
      registry_->touch(TextureHandle::from_bits(h->bits));
      got = registry_->last_used(TextureHandle::from_bits(h->bits));
    }
    require(got == h->last_used, "last_used is not the touch's serial");
  }

  void submit() {
    const Serial serial = submit_empty(*registry_);
    require(serial == Serial{++submitted_}, "a submission's serial is not the next one");
  }

  void replace() {
    ModelHandle* h = any(false);
    if (h == nullptr || h->kind != ResourceKind::Buffer) return;
    const gpu::Procs& procs = null_device().procs();
    WGPUBufferDescriptor d{};
    d.size = 8;
    d.usage = WGPUBufferUsage_CopyDst;
    WGPUBuffer fresh = procs.DeviceCreateBuffer(null_device().device, &d);
    const bool was_alive = h->alive;
    Result<void> done = registry_->replace_buffer(BufferHandle::from_bits(h->bits), fresh);
    if (!was_alive) {
      require(!done, "replace of a destroyed handle succeeded");
      require_named(done.error(), "replace_buffer");
      procs.BufferRelease(fresh);  // refused: it stays the caller's
      return;
    }
    if (!done) fail("replace of a live handle failed: " + done.error().message);
    let_go(*h);
    h->alive = true;
    h->object = fresh;
    h->last_used = Serial{};
  }

  void released(const ReleaseEvent& e) {
    if (e.generation == 0) return;  // refused by a full pool: released at once, never had a handle
    auto it = waiting_.find(e.object);
    require(it != waiting_.end(), "released an object the model holds alive, or twice: " + std::string(e.label));
    require(e.last_used == it->second.last_used, "a release reports another last use than the model's");
    // Shutdown assumes every submission complete, the one being recorded too.
    require(shutting_down_ || it->second.release_after <= registry_->clock().retired(),
            "released while a submission that may use it can still run");
    waiting_.erase(it);
  }

  void compare() {
    const LiveCounts counts = registry_->live_counts();
    require(counts.of(ResourceKind::Buffer) == live(ResourceKind::Buffer), "live buffers differ from the model's");
    require(counts.of(ResourceKind::Texture) == live(ResourceKind::Texture), "live textures differ from the model's");
    require(registry_->pending_release_count() == waiting_.size(),
            fmt::format("{} pending releases, the model has {}", registry_->pending_release_count(), waiting_.size()));
  }

  Bytes& in_;
  LedgerBalance balance_;  // before the registry: checked once it is gone
  uint32_t capacity_ = 0;
  uint32_t ceiling_ = 0;  // a slot whose occupant had this generation is exhausted when it is let go
  std::map<ResourceKind, uint32_t> exhausted_;
  std::unique_ptr<Registry> registry_;
  std::vector<ModelHandle> handles_;
  std::map<const void*, WaitingRelease> waiting_;
  uint64_t submitted_ = 0;
  bool shutting_down_ = false;
};

}  // namespace
}  // namespace warden::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  warden::fuzz::Bytes in(data, size);
  warden::fuzz::RegistryRun(in).go();
  return 0;
}
