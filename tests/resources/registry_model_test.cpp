// Model-based randomized test: thousands of random create / destroy / replace / resolve / touch /
// submit / poll operations on a real (Null backend) registry, each checked against a small
// reference model of what must be true.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

#include "resources/registry_test_support.h"
#include "support/messages.h"

namespace warden::resources {
namespace {

using testing::FailsWith;
using testing::NullDeviceTest;

struct ModelHandle {
  ResourceKind kind = ResourceKind::None;
  uint64_t bits = 0;
  bool alive = false;
  Serial last_used;          // as the model computes it from its own touches
  const void* object = nullptr;  // the GPU object under the handle now
};

// A GPU object the model knows to be let go of (handle destroyed or object replaced) but not
// yet released, with the serial of its last use and the serial it must wait for: every object
// here is owned, so at least the submission being recorded when it was let go.
struct ModelDeadObject {
  Serial last_used;
  Serial release_after;
};

class RegistryModel {
 public:
  RegistryModel(testing::TestDevice& dev, uint32_t seed) : dev_(dev), rng_(seed) {
    RegistryOptions options = RegistryOptions::uniform(24);
    options.on_release = [this](const ReleaseEvent& e) { on_release(e); };
    reg_ = testing::make_registry(dev, std::move(options));
  }

  void run(int steps) {
    for (int i = 0; i < steps; ++i) {
      step();
      check_counts();
      if (::testing::Test::HasFatalFailure()) return;
    }
    finish();
  }

 private:
  void step() {
    switch (pick(8)) {
      case 0: case 1: create(); break;
      case 2: destroy(); break;
      case 3: replace(); break;
      case 4: resolve(); break;
      case 5: touch(); break;
      case 6: submit(); break;
      case 7: reg_->poll(); break;
    }
  }

  uint32_t pick(uint32_t n) { return std::uniform_int_distribution<uint32_t>(0, n - 1)(rng_); }

  void create() {
    const bool texture = pick(2) == 0;
    const ResourceKind kind = texture ? ResourceKind::Texture : ResourceKind::Buffer;
    const uint32_t live = count_live(kind);
    uint64_t bits = 0;
    const void* object = nullptr;
    bool ok = false;
    if (texture) {
      auto h = reg_->create_texture({.size = {2, 2, 1}, .usage = WGPUTextureUsage_CopyDst});
      ok = h.ok();
      if (ok) { bits = h->bits(); object = *reg_->resolve(*h); }
      else EXPECT_THAT(h, FailsWith(MessageId::ResourcePoolFull));
    } else {
      auto h = reg_->create_buffer({4, WGPUBufferUsage_CopyDst, false, ""});
      ok = h.ok();
      if (ok) { bits = h->bits(); object = *reg_->resolve(*h); }
      else EXPECT_THAT(h, FailsWith(MessageId::ResourcePoolFull));
    }
    EXPECT_EQ(ok, live < 24u) << "a pool of 24 with " << live << " live";
    if (!ok) ++full_;
    if (ok) handles_.push_back({kind, bits, true, Serial{}, object});
  }

  ModelHandle* any_handle() { return handles_.empty() ? nullptr : &handles_[pick(static_cast<uint32_t>(handles_.size()))]; }
  ModelHandle* any_live() {
    std::vector<ModelHandle*> live;
    for (auto& h : handles_) if (h.alive) live.push_back(&h);
    return live.empty() ? nullptr : live[pick(static_cast<uint32_t>(live.size()))];
  }

  void let_go(ModelHandle& h) {
    // Never before the submission being recorded now (a command buffer under construction may
    // use it, touched or not) nor before its own last use retired.
    dead_[h.object] = {h.last_used, std::max(h.last_used, Serial{submitted_ + 1})};
  }

  void destroy() {
    ModelHandle* h = any_handle();
    if (h == nullptr) return;
    const bool was_alive = h->alive;
    if (was_alive) {
      h->alive = false;
      let_go(*h);
    }
    Result<void> r = h->kind == ResourceKind::Buffer ? reg_->destroy_buffer(BufferHandle::from_bits(h->bits))
                                                     : reg_->destroy_texture(TextureHandle::from_bits(h->bits));
    EXPECT_TRUE(r.ok());  // a double destroy is a logged no-op
  }

  void replace() {
    ModelHandle* h = any_live();
    if (h == nullptr || h->kind != ResourceKind::Buffer) return;
    WGPUBufferDescriptor d{};
    d.size = 8;
    d.usage = WGPUBufferUsage_CopyDst;
    WGPUBuffer fresh = dev_.procs().DeviceCreateBuffer(dev_.device.get(), &d);
    let_go(*h);
    ASSERT_TRUE(reg_->replace_buffer(BufferHandle::from_bits(h->bits), fresh).ok());
    h->object = fresh;
    h->last_used = Serial{};
  }

  void resolve() {
    ModelHandle* h = any_handle();
    if (h == nullptr) return;
    if (h->kind == ResourceKind::Buffer) {
      auto r = reg_->resolve(BufferHandle::from_bits(h->bits));
      ASSERT_EQ(r.ok(), h->alive);
      if (r.ok()) {
        EXPECT_EQ(static_cast<const void*>(*r), h->object);
      } else {
        EXPECT_EQ(r.error().kind, ErrorKind::StaleHandle);
        EXPECT_THAT(r, FailsWith(MessageId::HandleDestroyed));
      }
    } else {  // NOLINT
      auto r = reg_->resolve(TextureHandle::from_bits(h->bits));
      ASSERT_EQ(r.ok(), h->alive);
      if (r.ok()) {
        EXPECT_EQ(static_cast<const void*>(*r), h->object);
      }
    }
  }

  void touch() {
    ModelHandle* h = any_live();
    if (h == nullptr) return;
    h->last_used = Serial{submitted_ + 1};
    if (h->kind == ResourceKind::Buffer) reg_->touch(BufferHandle::from_bits(h->bits));
    else reg_->touch(TextureHandle::from_bits(h->bits));
    ASSERT_EQ(h->kind == ResourceKind::Buffer ? reg_->last_used(BufferHandle::from_bits(h->bits))
                                              : reg_->last_used(TextureHandle::from_bits(h->bits)),
              h->last_used);
  }

  void submit() {
    ASSERT_EQ(testing::submit_empty(*reg_, dev_), Serial{++submitted_});
  }

  void on_release(const ReleaseEvent& e) {
    if (e.generation == 0) {  // made by create_* into a full pool: released at once
      ++refused_;
      return;
    }
    auto it = dead_.find(e.object);
    ASSERT_NE(it, dead_.end()) << "released an object the model holds alive (or twice): " << e.label;
    // The rule under test: nothing is let go while a submission that used it may still run.
    EXPECT_EQ(e.last_used, it->second.last_used);
    // Shutdown assumes everything complete, including a submission recorded but never made.
    if (!shutting_down_) {
      EXPECT_LE(it->second.release_after, reg_->clock().retired());
    }
    EXPECT_LE(reg_->clock().retired(), Serial{submitted_});
    dead_.erase(it);
    ++released_;
  }

  uint32_t count_live(ResourceKind kind) const {
    uint32_t n = 0;
    for (const auto& h : handles_) n += h.alive && h.kind == kind;
    return n;
  }

  void check_counts() {
    LiveCounts counts = reg_->live_counts();
    ASSERT_EQ(counts.of(ResourceKind::Buffer), count_live(ResourceKind::Buffer));
    ASSERT_EQ(counts.of(ResourceKind::Texture), count_live(ResourceKind::Texture));
    // Everything the model let go of and the registry did not release yet is pending, and
    // nothing whose last use retired is left pending after a poll.
    ASSERT_EQ(reg_->pending_release_count(), dead_.size());
    max_pending_ = std::max(max_pending_, dead_.size());
  }

  void finish() {
    submit();  // what waits on the submission being recorded
    ASSERT_TRUE(testing::poll_until_retired(*reg_, Serial{submitted_}));
    EXPECT_TRUE(dead_.empty());
    const uint32_t live = count_live(ResourceKind::Buffer) + count_live(ResourceKind::Texture);
    for (auto& h : handles_) if (h.alive) { h.alive = false; let_go(h); }
    shutting_down_ = true;
    reg_->shutdown();
    EXPECT_TRUE(dead_.empty());
    EXPECT_GT(released_, live);
    EXPECT_GT(max_pending_, 0u);  // the run did exercise deferral
    EXPECT_GT(full_, 0u);         // and full pools
    EXPECT_EQ(refused_, full_);  // every object refused by a full pool was released
    dev_.context->process_events();
    EXPECT_TRUE(dev_.take_errors().empty());
  }

  testing::TestDevice& dev_;
  std::mt19937 rng_;
  std::unique_ptr<Registry> reg_;
  std::vector<ModelHandle> handles_;
  std::map<const void*, ModelDeadObject> dead_;
  uint64_t submitted_ = 0;
  uint64_t released_ = 0;
  uint64_t refused_ = 0;
  uint64_t full_ = 0;
  bool shutting_down_ = false;
  size_t max_pending_ = 0;
};

TEST_F(NullDeviceTest, RandomOperationsAgreeWithTheReferenceModel) {
  for (uint32_t seed : {1u, 2u, 3u, 4u}) {
    SCOPED_TRACE(seed);
    RegistryModel model(*dev, seed);
    model.run(2500);
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace warden::resources
