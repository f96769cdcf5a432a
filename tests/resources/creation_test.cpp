// create_* on requests Dawn rejects: an error naming the rule and the label, never a handle to an
// error object (issue 10, item 4). Rules the spec or the device's limits decide are checked before
// Dawn; what Dawn still rejects is caught at the call (a capture on the calling thread, or error scopes
// on a device warden did not request: ADR 0043).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <ostream>
#include <limits>
#include <string>
#include <vector>

#include "gpu/error_capture.h"
#include "resources/registry_test_support.h"
#include "support/error_scope.h"
#include "support/error_object.h"
#include "support/messages.h"

namespace warden::resources {
namespace {

using ::testing::HasSubstr;
using testing::FailsWith;
using testing::NamesKind;
using testing::NamesLabel;
using testing::make_registry;
using testing::NullDeviceTest;

struct RejectedRequest {
  const char* name;
  // Makes the request; returns its error (a test failure when it succeeded).
  std::function<Error(Registry&)> request;
  std::vector<std::string> says;  // the rule and the label, as the message must name them
  MessageId id;                   // which rejection it is
  ErrorKind kind = ErrorKind::InvalidArgument;
  uint32_t made_first = 0;  // objects the request made on purpose before the rejected one
};

void PrintTo(const RejectedRequest& request, std::ostream* os) { *os << request.name; }

template <typename T>
Error error_of(Result<T> result) {
  if (result.ok()) {
    ADD_FAILURE() << "the request was accepted";
    return make_error(ErrorKind::Internal, "accepted");
  }
  return result.error();
}

TextureDescription texture(WGPUExtent3D size, std::string label) {
  return {.size = size, .usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst, .label = std::move(label)};
}

std::vector<RejectedRequest> rejected_requests() {
  return {
      {"BufferOfTwoToTheForty",
       [](Registry& r) { return error_of(r.create_buffer({uint64_t{1} << 40, WGPUBufferUsage_CopyDst, false, "huge"})); },
       {"create_buffer \"huge\"", "size 1099511627776 exceeds the device's maxBufferSize"},
       MessageId::BufferDescriptionInvalid},
      {"BufferOfUint64Max",
       [](Registry& r) {
         return error_of(r.create_buffer({std::numeric_limits<uint64_t>::max(), WGPUBufferUsage_CopyDst, false, "max"}));
       },
       {"create_buffer \"max\"", "size 18446744073709551615 exceeds the device's maxBufferSize"},
       MessageId::BufferDescriptionInvalid},
      {"MappedAtCreationWithASizeNotAMultipleOfFour",
       [](Registry& r) { return error_of(r.create_buffer({6, WGPUBufferUsage_Uniform, true, "odd"})); },
       {"create_buffer \"odd\"", "mapped_at_creation needs a size that is a multiple of 4 (size 6)"},
       MessageId::BufferDescriptionInvalid},
      {"MapReadWithMapWrite",
       [](Registry& r) { return error_of(r.create_buffer({16, WGPUBufferUsage_MapRead | WGPUBufferUsage_MapWrite, false, "both"})); },
       {"create_buffer \"both\"", "MapRead may be combined only with CopyDst (usage MapRead|MapWrite)"},
       MessageId::BufferDescriptionInvalid},
      {"MapWriteWithUniform",
       [](Registry& r) { return error_of(r.create_buffer({16, WGPUBufferUsage_MapWrite | WGPUBufferUsage_Uniform, false, "staging"})); },
       {"create_buffer \"staging\"", "MapWrite may be combined only with CopySrc"},
       MessageId::BufferDescriptionInvalid},
      {"TextureOf65536By65536",
       [](Registry& r) { return error_of(r.create_texture(texture({65536, 65536, 1}, "wide"))); },
       {"create_texture \"wide\"", "size 65536x65536 exceeds the device's maxTextureDimension2D"},
       MessageId::TextureDescriptionInvalid},
      {"TextureWithAHundredMipLevels",
       [](Registry& r) {
         TextureDescription d = texture({256, 256, 1}, "deep");
         d.mip_level_count = 100;
         return error_of(r.create_texture(d));
       },
       {"create_texture \"deep\"", "100 mip levels, but a 256x256x1 texture has at most 9"},
       MessageId::TextureDescriptionInvalid},
      {"TextureWithAHundredThousandLayers",
       [](Registry& r) { return error_of(r.create_texture(texture({4, 4, 100000}, "stack"))); },
       {"create_texture \"stack\"", "100000 array layers exceed the device's maxTextureArrayLayers"},
       MessageId::TextureDescriptionInvalid},
      {"TextureWithSampleCountThree",
       [](Registry& r) {
         TextureDescription d = texture({4, 4, 1}, "msaa");
         d.usage = WGPUTextureUsage_RenderAttachment;
         d.sample_count = 3;
         return error_of(r.create_texture(d));
       },
       {"create_texture \"msaa\"", "sample count 3: WebGPU allows 1 or 4"},
       MessageId::TextureDescriptionInvalid},
      {"QuerySetOfABillion",
       [](Registry& r) { return error_of(r.create_query_set({WGPUQueryType_Occlusion, 1000000000, "queries"})); },
       {"create_query_set \"queries\"", "count 1000000000 exceeds WebGPU's limit of 4096 queries per set"},
       MessageId::QuerySetTooLarge},
      // Past the checks above: Dawn's own rule, caught by the creation's error scope, in its words.
      {"MultisampledTextureWithoutRenderAttachmentIsRejectedByDawn",
       [](Registry& r) {
         TextureDescription d = texture({4, 4, 1}, "ms sampled");
         d.sample_count = 4;
         return error_of(r.create_texture(d));
       },
       {"create_texture \"ms sampled\": the device rejected it: ", "ms sampled"},
       MessageId::CreateRejected,
       ErrorKind::Validation},
      {"ShaderModuleThatDoesNotParseIsRejectedByDawn",
       [](Registry& r) { return error_of(r.create_shader_module("fn main( {", "broken.wgsl")); },
       {"create_shader_module \"broken.wgsl\": the device rejected it: ", "error"},
       MessageId::CreateRejected,
       ErrorKind::Validation},
      {"ViewOfAMipTheTextureLacksIsRejectedByDawn",
       [](Registry& r) {
         auto t = r.create_texture(texture({4, 4, 1}, "base"));
         if (!t) return t.error();
         return error_of(r.create_texture_view(*t, {.base_mip_level = 5, .label = "mip 5"}));
       },
       {"create_texture_view \"mip 5\": the device rejected it: ", "mip"},
       MessageId::CreateRejected,
       ErrorKind::Validation,
       1},
  };
}

class RejectedCreationTest : public NullDeviceTest, public ::testing::WithParamInterface<RejectedRequest> {};

TEST_P(RejectedCreationTest, IsAnErrorNamingTheRuleAndTheLabelAndHandsOutNoHandle) {
  auto reg = make_registry(*dev);
  const LiveCounts before = reg->live_counts();
  Error error = GetParam().request(*reg);
  EXPECT_EQ(error.kind, GetParam().kind) << error.message;
  EXPECT_THAT(error, FailsWith(GetParam().id));
  for (const std::string& part : GetParam().says) EXPECT_THAT(error.message, HasSubstr(part));
  // Nothing registered (a view's texture was made on purpose), nothing left for the
  // uncaptured-error callback: the rejection was answered, not reported elsewhere.
  EXPECT_EQ(reg->live_counts().total(), before.total() + GetParam().made_first);
  dev->context->process_events();
  EXPECT_THAT(dev->take_errors(), ::testing::IsEmpty());
}

// A creation's check (a capture, or scopes that Dawn settles inside the pop) costs no wait and
// runs no unrelated callbacks: create_* stays fit for the frame path.
TEST_F(NullDeviceTest, ACreationsCheckNeverWaits) {
  auto reg = make_registry(*dev);
  const uint64_t waits_before = gpu::blocking_wait_count();
  EXPECT_TRUE(reg->create_buffer({16, WGPUBufferUsage_Uniform, false, "fine"}).ok());
  EXPECT_THAT(reg->create_shader_module("fn main( {", "broken"), FailsWith(MessageId::CreateRejected));
  EXPECT_TRUE(reg->create_sampler({.label = "fine too"}).ok());
  EXPECT_EQ(gpu::blocking_wait_count(), waits_before);
}

INSTANTIATE_TEST_SUITE_P(Registry, RejectedCreationTest, ::testing::ValuesIn(rejected_requests()),
                         [](const auto& info) { return std::string(info.param.name); });

// The write: with the 2^40-byte buffer refused, no handle exists whose recorded size
// would let a write at 2^40-4 pass the range check, and Dawn's error object for it cannot be
// adopted either.
TEST_F(NullDeviceTest, WriteBufferAtTwoToTheFortyMinusFourHasNoBufferToPassTheRangeCheck) {
  auto reg = make_registry(*dev);
  const uint64_t huge = uint64_t{1} << 40;
  EXPECT_THAT(reg->create_buffer({huge, WGPUBufferUsage_CopyDst, false, "huge"}),
              FailsWith(MessageId::BufferDescriptionInvalid));
  WGPUBufferDescriptor d{};
  d.size = huge;
  d.usage = WGPUBufferUsage_CopyDst;
  WGPUBuffer error_object = nullptr;
  const std::string dawn_says = testing::validation_message(
      *dev, [&] { error_object = dev->procs().DeviceCreateBuffer(dev->device.get(), &d); });
  EXPECT_THAT(dawn_says, HasSubstr("exceeds"));  // Dawn did reject it, and returned an object
  ASSERT_NE(error_object, nullptr);
  auto adopted = reg->adopt_buffer(error_object, "error object");
  ASSERT_FALSE(adopted.ok());
  EXPECT_EQ(adopted.error().kind, ErrorKind::InvalidArgument);
  EXPECT_THAT(adopted, FailsWith(MessageId::AdoptedObjectInvalid));
  EXPECT_THAT(adopted, NamesKind("buffer"));
  EXPECT_THAT(adopted, NamesLabel("error object"));
  EXPECT_THAT(adopted.error().message, HasSubstr("adopt_buffer"));
  EXPECT_THAT(adopted.error().message, HasSubstr("it cannot be a valid buffer: size 1099511627776"));
  auto small = reg->create_buffer({16, WGPUBufferUsage_CopyDst, false, "small"});
  ASSERT_TRUE(small.ok());
  uint32_t word = 0;
  auto w = reg->write_buffer(*small, huge - 4, &word, 4);
  EXPECT_THAT(w, FailsWith(MessageId::WriteBufferOutOfRange));
  EXPECT_THAT(w.error().message, HasSubstr("lie outside its 16 bytes"));
  EXPECT_EQ(reg->live_counts().total(), 1u);
}

}  // namespace
}  // namespace warden::resources

namespace warden::resources {
namespace {

// A device the application requested itself, with its own uncaptured-error callback: warden
// cannot see that callback, so its registry checks creations with error scopes (ADR 0043).
struct ApplicationsOwnDevice {
  std::atomic<int> uncaptured{0};
  gpu::Ref<WGPUDevice> device;
  gpu::Ref<WGPUQueue> queue;
};

std::unique_ptr<ApplicationsOwnDevice> request_applications_own_device(gpu::Context& ctx) {
  auto own = std::make_unique<ApplicationsOwnDevice>();
  auto adapter = ctx.select_adapter(gpu::BackendChoice::Null);
  if (!adapter) {
    ADD_FAILURE() << adapter.error().message;
    return nullptr;
  }
  const gpu::Procs& p = ctx.procs();
  WGPUDeviceDescriptor desc{};
  desc.uncapturedErrorCallbackInfo.callback = [](const WGPUDevice*, WGPUErrorType, WGPUStringView, void* counter,
                                                 void*) { static_cast<std::atomic<int>*>(counter)->fetch_add(1); };
  desc.uncapturedErrorCallbackInfo.userdata1 = &own->uncaptured;
  WGPUDevice made = nullptr;
  WGPURequestDeviceCallbackInfo cb{};
  cb.mode = WGPUCallbackMode_WaitAnyOnly;
  cb.callback = [](WGPURequestDeviceStatus, WGPUDevice device, WGPUStringView, void* out, void*) {
    *static_cast<WGPUDevice*>(out) = device;
  };
  cb.userdata1 = &made;
  WGPUFutureWaitInfo wait{p.AdapterRequestDevice(adapter->adapter.get(), &desc, cb), 0};
  EXPECT_EQ(p.InstanceWaitAny(ctx.instance(), 1, &wait, 5'000'000'000), WGPUWaitStatus_Success);
  if (made == nullptr) {
    ADD_FAILURE() << "the Null adapter gave no device";
    return nullptr;
  }
  EXPECT_FALSE(gpu::errors_reach_capture(made));
  own->device = gpu::Ref<WGPUDevice>(&p, made);
  own->queue = gpu::Ref<WGPUQueue>(&p, p.DeviceGetQueue(made));
  return own;
}

TEST(RejectedCreationOnAnApplicationsDevice, IsStillAnErrorAtTheCallThatNoHandlerHears) {
  gpu::Context* ctx = testing::shared_context();
  ASSERT_NE(ctx, nullptr);
  auto own = request_applications_own_device(*ctx);
  ASSERT_NE(own, nullptr);
  {
    Registry reg(*ctx, own->device.get(), own->queue.get());
    // Every request Dawn itself rejects in the table above, on this device.
    for (const RejectedRequest& request : rejected_requests()) {
      if (request.id != MessageId::CreateRejected) continue;
      SCOPED_TRACE(request.name);
      Error error = request.request(reg);
      EXPECT_THAT(error, FailsWith(MessageId::CreateRejected));
      for (const std::string& part : request.says) EXPECT_THAT(error.message, HasSubstr(part));
    }
    EXPECT_TRUE(reg.create_buffer({16, WGPUBufferUsage_Uniform, false, "fine"}).ok());
  }
  EXPECT_EQ(own->uncaptured.load(), 0) << "a rejection reached the application's own handler";
  own->queue.reset();
  own->device.reset();
  ctx->process_events();
}

// On a device warden requested, the rejection is taken on the calling thread; an error of the
// same device raised outside any registry call still reaches the application's handler.
TEST_F(NullDeviceTest, AnErrorOutsideARegistryCallStillReachesTheApplicationsHandler) {
  ASSERT_TRUE(gpu::errors_reach_capture(dev->device.get()));
  auto reg = make_registry(*dev);
  EXPECT_THAT(reg->create_shader_module("fn main( {", "broken"), FailsWith(MessageId::CreateRejected));
  EXPECT_THAT(dev->take_errors(), ::testing::IsEmpty());
  const gpu::Procs& p = dev->procs();
  WGPUBufferDescriptor d{};
  d.size = 16;
  d.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_Storage;
  p.BufferRelease(p.DeviceCreateBuffer(dev->device.get(), &d));
  EXPECT_THAT(dev->take_errors(), ::testing::ElementsAre(HasSubstr("MapRead")));
}

}  // namespace
}  // namespace warden::resources
