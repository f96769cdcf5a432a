#include "warden/tiles/layer_pool.h"

#include <gtest/gtest.h>

#include <random>
#include <unordered_map>
#include <vector>

#include "harness/reference_layer_pool.h"
#include "support/messages.h"

namespace warden::tiles {
namespace {

using warden::testing::FailsWith;

TEST(LayerPool, HandsOutEveryLayerOnceThenNone) {
  SubmissionClock clock;
  LayerPool pool(8, clock, /*reserve=*/0);
  std::vector<bool> seen(8, false);
  for (int i = 0; i < 8; ++i) {
    auto layer = pool.acquire();
    ASSERT_TRUE(layer.has_value());
    ASSERT_LT(*layer, 8u);
    EXPECT_FALSE(seen[*layer]) << "layer " << *layer << " handed out twice";
    seen[*layer] = true;
  }
  EXPECT_FALSE(pool.acquire().has_value());
  EXPECT_TRUE(pool.check_invariants());
}

// The hazard in bookkeeping form: a layer read by the frame being recorded is not reusable
// until that frame has been submitted and has retired.
TEST(LayerPool, LayerTouchedByTheRecordingFrameWaitsForItsRetirement) {
  SubmissionClock clock;
  LayerPool pool(1, clock, /*reserve=*/0);
  LayerIndex layer = *pool.acquire();
  ASSERT_TRUE(pool.touch(layer));
  EXPECT_EQ(pool.last_use(layer), clock.recording());
  ASSERT_TRUE(pool.release(layer));
  EXPECT_FALSE(pool.acquire(Priority::Urgent).has_value()) << "recording frame still reads it";
  clock.on_submitted();
  EXPECT_FALSE(pool.acquire(Priority::Urgent).has_value()) << "submitted, not retired";
  EXPECT_EQ(pool.counts().in_flight, 1u);
  clock.retire_through(clock.last_submitted());
  EXPECT_EQ(pool.acquire(Priority::Urgent), layer);
}

TEST(LayerPool, ReserveIsOnlyForUrgentAcquires) {
  SubmissionClock clock;
  LayerPool pool(6, clock, /*reserve=*/4);
  EXPECT_TRUE(pool.acquire().has_value());
  EXPECT_TRUE(pool.acquire().has_value());
  EXPECT_FALSE(pool.acquire(Priority::Normal).has_value()) << "four free layers are the reserve";
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(pool.acquire(Priority::Urgent).has_value());
  EXPECT_FALSE(pool.acquire(Priority::Urgent).has_value());
}

TEST(LayerPool, MisuseIsAnErrorNamingTheLayer) {
  SubmissionClock clock;
  LayerPool pool(4, clock, 0);
  auto touched = pool.touch(2);
  ASSERT_FALSE(touched);
  EXPECT_EQ(touched.error().kind, ErrorKind::Refused);
  EXPECT_THAT(touched, FailsWith(MessageId::LayerPoolLayerNotAllocated));
  EXPECT_NE(touched.error().message.find("layer 2"), std::string::npos) << touched.error().message;
  EXPECT_NE(touched.error().message.find("free"), std::string::npos) << touched.error().message;

  LayerIndex layer = *pool.acquire();
  ASSERT_TRUE(pool.touch(layer));
  ASSERT_TRUE(pool.release(layer));
  auto twice = pool.release(layer);
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().kind, ErrorKind::Refused);
  EXPECT_THAT(twice, FailsWith(MessageId::LayerPoolLayerNotAllocated));
  EXPECT_NE(twice.error().message.find("in flight"), std::string::npos) << twice.error().message;
  EXPECT_FALSE(pool.touch(layer)) << "a released layer must not be read by new work";

  auto outside = pool.release(9);
  ASSERT_FALSE(outside);
  EXPECT_EQ(outside.error().kind, ErrorKind::InvalidArgument);
  EXPECT_THAT(outside, FailsWith(MessageId::LayerPoolLayerOutOfRange));
  EXPECT_NE(outside.error().message.find("layer 9"), std::string::npos);
  EXPECT_TRUE(pool.check_invariants()) << "errors change nothing";
}

TEST(LayerPool, DeviceLossRetiresEverything) {
  SubmissionClock clock;
  LayerPool pool(2, clock, 0);
  for (int i = 0; i < 2; ++i) {
    LayerIndex l = *pool.acquire();
    ASSERT_TRUE(pool.touch(l));
    clock.on_submitted();
    ASSERT_TRUE(pool.release(l));
  }
  EXPECT_EQ(pool.counts().in_flight, 2u);
  clock.assume_all_complete();
  EXPECT_EQ(pool.counts().free, 2u);
}

// ---- randomized comparison with the reference pool (docs/design.md, tiles rule T5) ----------

// The model: every layer's state and last reader, checked by brute force. A layer may be handed
// out iff it is not allocated and its last reader retired; Normal acquires keep `reserve` such
// layers back.
struct Model {
  enum class State { Released, Allocated };
  std::vector<State> state;
  std::vector<Serial> last_use;
  uint32_t reserve;
  uint32_t reusable(const SubmissionClock& clock) const {
    uint32_t n = 0;
    for (size_t i = 0; i < state.size(); ++i) {
      n += state[i] == State::Released && clock.is_retired(last_use[i]);
    }
    return n;
  }
  std::vector<LayerIndex> allocated() const {
    std::vector<LayerIndex> out;
    for (size_t i = 0; i < state.size(); ++i) {
      if (state[i] == State::Allocated) out.push_back(static_cast<LayerIndex>(i));
    }
    return out;
  }
};

TEST(LayerPoolModel, RandomSequencesMatchTheReferenceModel) {
  std::mt19937 rng(20261130);
  constexpr int kSequences = 3000;
  constexpr int kSteps = 120;
  uint64_t acquires = 0, refusals = 0;
  for (int seq = 0; seq < kSequences; ++seq) {
    const uint32_t count = 1 + rng() % 12;
    const uint32_t reserve = rng() % 5;
    SubmissionClock clock;
    LayerPool pool(count, clock, reserve);
    // The reference pool, driven through the same operations: its layer numbers differ
    // from ours, so `to_ref` maps each of our allocated layers to the one it handed out.
    ReferenceLayerPool reference(count, clock);
    std::unordered_map<LayerIndex, LayerIndex> to_ref;
    Model model{std::vector<Model::State>(count, Model::State::Released),
                std::vector<Serial>(count, Serial{}), std::min(reserve, count)};

    for (int step = 0; step < kSteps; ++step) {
      const uint32_t op = rng() % 100;
      auto allocated = model.allocated();
      if (op < 35) {
        const Priority priority = rng() % 4 == 0 ? Priority::Urgent : Priority::Normal;
        const uint32_t reusable = model.reusable(clock);
        const uint32_t keep = priority == Priority::Urgent ? 0 : model.reserve;
        auto layer = pool.acquire(priority);
        ++acquires;
        // Succeeds exactly when a reusable layer beyond the reserve exists.
        ASSERT_EQ(layer.has_value(), reusable > keep)
            << "seq " << seq << " step " << step << " reusable " << reusable << " keep " << keep;
        if (!layer) {
          ++refusals;
          // The reference pool has no reserve: it finds none exactly when nothing is reusable.
          if (priority == Priority::Urgent) {
            ASSERT_FALSE(reference.acquire().has_value());
          }
          continue;
        }
        ASSERT_LT(*layer, count);
        ASSERT_EQ(model.state[*layer], Model::State::Released) << "layer handed out twice";
        ASSERT_TRUE(clock.is_retired(model.last_use[*layer])) << "last reader has not retired";
        model.state[*layer] = Model::State::Allocated;
        auto ref = reference.acquire();
        ASSERT_TRUE(ref.has_value()) << "the reference pool would have found none";
        to_ref[*layer] = *ref;
      } else if (op < 55 && !allocated.empty()) {
        LayerIndex l = allocated[rng() % allocated.size()];
        ASSERT_TRUE(pool.touch(l));
        reference.touch(to_ref[l]);
        model.last_use[l] = clock.recording();
      } else if (op < 75 && !allocated.empty()) {
        LayerIndex l = allocated[rng() % allocated.size()];
        ASSERT_TRUE(pool.release(l));
        reference.release(to_ref[l]);
        to_ref.erase(l);
        model.state[l] = Model::State::Released;
      } else if (op < 88) {
        clock.on_submitted();
      } else if (op < 97) {
        const uint64_t submitted = clock.last_submitted().value;
        clock.retire_through(Serial{submitted == 0 ? 0 : submitted - rng() % (submitted + 1) / 2});
      } else {
        // Misuse: touching or releasing a layer that is not allocated changes nothing.
        LayerIndex l = rng() % count;
        if (model.state[l] != Model::State::Allocated) {
          ASSERT_FALSE(pool.touch(l));
          ASSERT_FALSE(pool.release(l));
        }
      }
      ASSERT_TRUE(pool.check_invariants()) << pool.check_invariants().error().message;
      const LayerPoolCounts counts = pool.counts();
      ASSERT_EQ(counts.free, model.reusable(clock));
      ASSERT_EQ(counts.allocated, model.allocated().size());
      ASSERT_EQ(counts.free + counts.in_flight + counts.allocated, count);
    }
  }
  // The sequences exercised both outcomes, not only one.
  EXPECT_GT(refusals, acquires / 20);
  EXPECT_LT(refusals, acquires);
}

}  // namespace
}  // namespace warden::tiles
