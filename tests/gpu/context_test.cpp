// Context::open_device: adapter, device and queue in one call, or the first error.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "support/gpu_test.h"
#include "support/messages.h"
#include "warden/gpu/context.h"
#include "warden/gpu/names.h"

namespace warden::gpu {
namespace {

TEST(OpenDevice, GivesTheAdapterItsDeviceAndTheQueue) {
  Context* ctx = warden::testing::shared_context();
  ASSERT_NE(ctx, nullptr);
  auto opened = ctx->open_device(BackendChoice::Null, {"open device test", {}});
  ASSERT_TRUE(opened.ok()) << opened.error().message;
  EXPECT_EQ(opened->adapter.description.backend, WGPUBackendType_Null);
  ASSERT_NE(opened->device.get(), nullptr);
  ASSERT_NE(opened->queue.get(), nullptr);
  // The queue is the device's own: the device hands out the same object.
  WGPUQueue again = ctx->procs().DeviceGetQueue(opened->device.get());
  EXPECT_EQ(again, opened->queue.get());
  ctx->procs().QueueRelease(again);
}

// One DeviceOptions serves every request (plan_device_request): a required feature the adapter
// lacks is named before anything is asked of the device layer.
TEST(OpenDevice, ARequiredFeatureTheAdapterLacksIsNamed) {
  Context* ctx = warden::testing::shared_context();
  ASSERT_NE(ctx, nullptr);
  DeviceOptions options;
  options.label = "needs much";
  options.required_features = {static_cast<WGPUFeatureName>(0x50001)};  // offered by Null, not by GL (abi_device_sync_test)
  auto opened = ctx->open_device(BackendChoice::GL, std::move(options));
  ASSERT_FALSE(opened.ok());
  EXPECT_THAT(opened, warden::testing::FailsWith(MessageId::DeviceFeatureMissing));
  EXPECT_EQ(opened.error().kind, ErrorKind::DeviceFailed);
  EXPECT_EQ(opened.error().message,
            "device \"needs much\": the adapter lacks required feature(s) " + feature_name(static_cast<WGPUFeatureName>(0x50001)));
  ctx->process_events();
}

TEST(OpenDevice, OptionalFeaturesAreAskedForOnlyWhereTheAdapterHasThem) {
  Context* ctx = warden::testing::shared_context();
  ASSERT_NE(ctx, nullptr);
  DeviceOptions options;
  options.optional_features = {static_cast<WGPUFeatureName>(0x50001), WGPUFeatureName_ImplicitDeviceSynchronization};
  options.backend = BackendChoice::GL;
  auto opened = ctx->open_device(std::move(options));
  ASSERT_TRUE(opened.ok()) << opened.error().message;
  EXPECT_TRUE(ctx->procs().DeviceHasFeature(opened->device.get(), WGPUFeatureName_ImplicitDeviceSynchronization));
  EXPECT_FALSE(ctx->procs().DeviceHasFeature(opened->device.get(), static_cast<WGPUFeatureName>(0x50001)));
}

TEST(OpenDevice, AdapterLimitsAreAskedForWhenChosen) {
  Context* ctx = warden::testing::shared_context();
  ASSERT_NE(ctx, nullptr);
  for (LimitsChoice choice : {LimitsChoice::Default, LimitsChoice::Adapter}) {
    DeviceOptions options;
    options.limits = choice;
    auto opened = ctx->open_device(BackendChoice::GL, std::move(options));
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    WGPULimits device_limits{};
    ASSERT_EQ(ctx->procs().DeviceGetLimits(opened->device.get(), &device_limits), WGPUStatus_Success);
    const WGPULimits& adapter_limits = opened->adapter.description.limits;
    if (choice == LimitsChoice::Adapter) {
      EXPECT_EQ(device_limits.maxTextureArrayLayers, adapter_limits.maxTextureArrayLayers);
      EXPECT_EQ(device_limits.maxBufferSize, adapter_limits.maxBufferSize);
    } else {
      EXPECT_EQ(device_limits.maxTextureArrayLayers, 256u);  // WebGPU's default
    }
  }
}

// required_limits raises one limit above WebGPU's default, to what the adapter has, and leaves
// the rest at the defaults.
TEST(OpenDevice, ARequiredLimitTheAdapterSupportsIsOnTheDevice) {
  Context* ctx = warden::testing::shared_context();
  ASSERT_NE(ctx, nullptr);
  auto adapter = ctx->select_adapter(BackendChoice::GL);
  ASSERT_TRUE(adapter.ok()) << adapter.error().message;
  const uint32_t supported = adapter->description.limits.maxTextureArrayLayers;
  ASSERT_GT(supported, 256u) << "the adapter must support more than the default for this test to show anything";
  DeviceOptions options;
  options.required_limits.max_texture_array_layers = supported;
  auto opened = ctx->open_device(BackendChoice::GL, std::move(options));
  ASSERT_TRUE(opened.ok()) << opened.error().message;
  WGPULimits device_limits{};
  ASSERT_EQ(ctx->procs().DeviceGetLimits(opened->device.get(), &device_limits), WGPUStatus_Success);
  EXPECT_EQ(device_limits.maxTextureArrayLayers, supported);
  EXPECT_EQ(device_limits.maxBufferSize, uint64_t{256} << 20);  // WebGPU's default, not the adapter's
}

TEST(OpenDevice, ARequiredLimitAboveTheAdaptersIsNamedWithBothNumbers) {
  Context* ctx = warden::testing::shared_context();
  ASSERT_NE(ctx, nullptr);
  auto adapter = ctx->select_adapter(BackendChoice::GL);
  ASSERT_TRUE(adapter.ok()) << adapter.error().message;
  const uint64_t supported = adapter->description.limits.maxBufferSize;
  DeviceOptions options;
  options.label = "greedy";
  options.required_limits.max_buffer_size = supported + 1;
  auto opened = ctx->open_device(BackendChoice::GL, std::move(options));
  ASSERT_FALSE(opened.ok());
  EXPECT_THAT(opened, warden::testing::FailsWith(MessageId::DeviceLimitExceeded));
  EXPECT_EQ(opened.error().kind, ErrorKind::DeviceFailed);
  EXPECT_EQ(opened.error().message, fmt::format("device \"greedy\": required limit(s) beyond the adapter's: "
                                                "maxBufferSize {} (the adapter supports at most {})",
                                                supported + 1, supported));
}

// Every field of WGPULimits, written out here apart from the library's own table: each one set
// in RequiredLimits must reach the request and the device.
template <typename T>
struct LimitField {
  const char* name;
  std::optional<T> RequiredLimits::*required;
  T WGPULimits::*limit;
};
constexpr LimitField<uint32_t> kU32Limits[] = {
    {"maxTextureDimension1D", &RequiredLimits::max_texture_dimension_1d, &WGPULimits::maxTextureDimension1D},
    {"maxTextureDimension2D", &RequiredLimits::max_texture_dimension_2d, &WGPULimits::maxTextureDimension2D},
    {"maxTextureDimension3D", &RequiredLimits::max_texture_dimension_3d, &WGPULimits::maxTextureDimension3D},
    {"maxTextureArrayLayers", &RequiredLimits::max_texture_array_layers, &WGPULimits::maxTextureArrayLayers},
    {"maxBindGroups", &RequiredLimits::max_bind_groups, &WGPULimits::maxBindGroups},
    {"maxBindGroupsPlusVertexBuffers", &RequiredLimits::max_bind_groups_plus_vertex_buffers, &WGPULimits::maxBindGroupsPlusVertexBuffers},
    {"maxBindingsPerBindGroup", &RequiredLimits::max_bindings_per_bind_group, &WGPULimits::maxBindingsPerBindGroup},
    {"maxDynamicUniformBuffersPerPipelineLayout", &RequiredLimits::max_dynamic_uniform_buffers_per_pipeline_layout, &WGPULimits::maxDynamicUniformBuffersPerPipelineLayout},
    {"maxDynamicStorageBuffersPerPipelineLayout", &RequiredLimits::max_dynamic_storage_buffers_per_pipeline_layout, &WGPULimits::maxDynamicStorageBuffersPerPipelineLayout},
    {"maxSampledTexturesPerShaderStage", &RequiredLimits::max_sampled_textures_per_shader_stage, &WGPULimits::maxSampledTexturesPerShaderStage},
    {"maxSamplersPerShaderStage", &RequiredLimits::max_samplers_per_shader_stage, &WGPULimits::maxSamplersPerShaderStage},
    {"maxStorageBuffersPerShaderStage", &RequiredLimits::max_storage_buffers_per_shader_stage, &WGPULimits::maxStorageBuffersPerShaderStage},
    {"maxStorageTexturesPerShaderStage", &RequiredLimits::max_storage_textures_per_shader_stage, &WGPULimits::maxStorageTexturesPerShaderStage},
    {"maxUniformBuffersPerShaderStage", &RequiredLimits::max_uniform_buffers_per_shader_stage, &WGPULimits::maxUniformBuffersPerShaderStage},
    {"minUniformBufferOffsetAlignment", &RequiredLimits::min_uniform_buffer_offset_alignment, &WGPULimits::minUniformBufferOffsetAlignment},
    {"minStorageBufferOffsetAlignment", &RequiredLimits::min_storage_buffer_offset_alignment, &WGPULimits::minStorageBufferOffsetAlignment},
    {"maxVertexBuffers", &RequiredLimits::max_vertex_buffers, &WGPULimits::maxVertexBuffers},
    {"maxVertexAttributes", &RequiredLimits::max_vertex_attributes, &WGPULimits::maxVertexAttributes},
    {"maxVertexBufferArrayStride", &RequiredLimits::max_vertex_buffer_array_stride, &WGPULimits::maxVertexBufferArrayStride},
    {"maxInterStageShaderVariables", &RequiredLimits::max_inter_stage_shader_variables, &WGPULimits::maxInterStageShaderVariables},
    {"maxColorAttachments", &RequiredLimits::max_color_attachments, &WGPULimits::maxColorAttachments},
    {"maxColorAttachmentBytesPerSample", &RequiredLimits::max_color_attachment_bytes_per_sample, &WGPULimits::maxColorAttachmentBytesPerSample},
    {"maxComputeWorkgroupStorageSize", &RequiredLimits::max_compute_workgroup_storage_size, &WGPULimits::maxComputeWorkgroupStorageSize},
    {"maxComputeInvocationsPerWorkgroup", &RequiredLimits::max_compute_invocations_per_workgroup, &WGPULimits::maxComputeInvocationsPerWorkgroup},
    {"maxComputeWorkgroupSizeX", &RequiredLimits::max_compute_workgroup_size_x, &WGPULimits::maxComputeWorkgroupSizeX},
    {"maxComputeWorkgroupSizeY", &RequiredLimits::max_compute_workgroup_size_y, &WGPULimits::maxComputeWorkgroupSizeY},
    {"maxComputeWorkgroupSizeZ", &RequiredLimits::max_compute_workgroup_size_z, &WGPULimits::maxComputeWorkgroupSizeZ},
    {"maxComputeWorkgroupsPerDimension", &RequiredLimits::max_compute_workgroups_per_dimension, &WGPULimits::maxComputeWorkgroupsPerDimension},
    {"maxImmediateSize", &RequiredLimits::max_immediate_size, &WGPULimits::maxImmediateSize},
};
constexpr LimitField<uint64_t> kU64Limits[] = {
    {"maxUniformBufferBindingSize", &RequiredLimits::max_uniform_buffer_binding_size, &WGPULimits::maxUniformBufferBindingSize},
    {"maxStorageBufferBindingSize", &RequiredLimits::max_storage_buffer_binding_size, &WGPULimits::maxStorageBufferBindingSize},
    {"maxBufferSize", &RequiredLimits::max_buffer_size, &WGPULimits::maxBufferSize},
};

// The number of fields of an aggregate: the most initialisers it takes.
struct AnyField {
  template <typename T>
  operator T() const;  // NOLINT(google-explicit-constructor): stands in for any field
};
template <typename T, typename... Fields>
constexpr size_t field_count() {
  if constexpr (requires { T{Fields{}..., AnyField{}}; }) {
    return field_count<T, Fields..., AnyField>();
  } else {
    return sizeof...(Fields);
  }
}
// nextInChain and the limits: a header with a limit more than the tables above fails here.
static_assert(field_count<WGPULimits>() == 1 + std::size(kU32Limits) + std::size(kU64Limits),
              "WGPULimits has a field RequiredLimits lacks: add it to the struct, its table in "
              "src/gpu/context.cpp and the tables here");

bool is_alignment(const char* name) { return std::string_view(name).starts_with("min"); }

// Each limit alone: the request carries the value asked for in its field and leaves every other
// field undefined (the device's default), whatever the adapter supports beyond it.
TEST(RequiredLimits, EachOneSetReachesItsOwnFieldOfTheRequest) {
  Context* ctx = warden::testing::shared_context();
  ASSERT_NE(ctx, nullptr);
  auto adapter = ctx->select_adapter(BackendChoice::GL);
  ASSERT_TRUE(adapter.ok()) << adapter.error().message;
  const WGPULimits& supported = adapter->description.limits;
  // Every field of `limits` but `set` is undefined (all ones).
  auto others_undefined = [](const WGPULimits& limits, const void* set) {
    std::vector<std::string> defined;
    auto look = [&](const auto& table) {
      for (const auto& field : table) {
        using T = std::remove_cvref_t<decltype(limits.*field.limit)>;
        if (&(limits.*field.limit) != set && limits.*field.limit != static_cast<T>(~T{0})) defined.push_back(field.name);
      }
    };
    look(kU32Limits);
    look(kU64Limits);
    return defined;
  };
  auto check = [&](const auto& table) {
    for (const auto& field : table) {
      SCOPED_TRACE(field.name);
      DeviceOptions options;
      options.required_limits.*field.required = supported.*field.limit;
      auto request = plan_device_request(ctx->procs(), adapter->adapter.get(), options);
      ASSERT_TRUE(request.ok()) << request.error().message;
      ASSERT_TRUE(request->limits.has_value());
      EXPECT_EQ(request->limits.value().*field.limit, supported.*field.limit);
      EXPECT_THAT(others_undefined(*request->limits, &(request->limits.value().*field.limit)), ::testing::IsEmpty());
    }
  };
  check(kU32Limits);
  check(kU64Limits);
}

// All at once, each at what the adapter supports: the device has every one of them, and each
// the adapter supports beyond the default differs from a device asked for nothing (19 of them
// on llvmpipe's GL; the Null adapter offers only the defaults). Each one alone, at the request,
// is EachOneSetReachesItsOwnFieldOfTheRequest.
TEST(RequiredLimits, EveryOneTheAdapterSupportsIsOnTheDevice) {
  Context* ctx = warden::testing::shared_context();
  ASSERT_NE(ctx, nullptr);
  auto plain = ctx->open_device(BackendChoice::GL);
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  const WGPULimits& supported = plain->adapter.description.limits;
  WGPULimits defaults{};
  ASSERT_EQ(ctx->procs().DeviceGetLimits(plain->device.get(), &defaults), WGPUStatus_Success);

  DeviceOptions options;
  auto ask = [&](const auto& table) {
    for (const auto& field : table) options.required_limits.*field.required = supported.*field.limit;
  };
  ask(kU32Limits);
  ask(kU64Limits);
  auto raised = ctx->open_device(BackendChoice::GL, std::move(options));
  ASSERT_TRUE(raised.ok()) << raised.error().message;
  WGPULimits got{};
  ASSERT_EQ(ctx->procs().DeviceGetLimits(raised->device.get(), &got), WGPUStatus_Success);
  size_t beyond_default = 0;
  auto check = [&](const auto& table) {
    for (const auto& field : table) {
      EXPECT_EQ(got.*field.limit, supported.*field.limit) << field.name;
      if (defaults.*field.limit != supported.*field.limit) {
        ++beyond_default;
        EXPECT_NE(got.*field.limit, defaults.*field.limit) << field.name;
        // A maximum is raised by more, an alignment by less.
        EXPECT_EQ(got.*field.limit < defaults.*field.limit, is_alignment(field.name)) << field.name;
      }
    }
  };
  check(kU32Limits);
  check(kU64Limits);
  EXPECT_GT(beyond_default, 0u) << "the adapter supports nothing beyond the defaults: the test shows nothing";
}

TEST(RequiredLimits, AnAlignmentBelowTheAdaptersIsNamedWithBothNumbers) {
  Context* ctx = warden::testing::shared_context();
  ASSERT_NE(ctx, nullptr);
  auto adapter = ctx->select_adapter(BackendChoice::GL);
  ASSERT_TRUE(adapter.ok()) << adapter.error().message;
  const uint32_t supported = adapter->description.limits.minUniformBufferOffsetAlignment;
  ASSERT_GT(supported, 1u);
  DeviceOptions options;
  options.label = "tight";
  options.required_limits.min_uniform_buffer_offset_alignment = supported / 2;
  auto opened = ctx->open_device(BackendChoice::GL, std::move(options));
  ASSERT_FALSE(opened.ok());
  EXPECT_THAT(opened, warden::testing::FailsWith(MessageId::DeviceLimitExceeded));
  EXPECT_EQ(opened.error().message, fmt::format("device \"tight\": required limit(s) beyond the adapter's: "
                                                "minUniformBufferOffsetAlignment {} (the adapter supports at least {})",
                                                supported / 2, supported));
}

}  // namespace
}  // namespace warden::gpu
