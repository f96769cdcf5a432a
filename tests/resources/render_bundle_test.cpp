// Render bundles as registry objects (docs/adr/0039): recorded by the application's callback at
// create_render_bundle, recorded again by the rebuild after a device loss and by
// rerecord_render_bundle, each time under the same handle; what the callback may and may not do.
#include <gtest/gtest.h>
#include <gmock/gmock.h>

#include <algorithm>
#include <functional>
#include <vector>

#include "resources/registry_test_support.h"
#include "support/gpu_test.h"
#include "support/messages.h"

namespace warden::resources {
namespace {

using ::testing::HasSubstr;
using testing::FailsWith;
using testing::GlDeviceTest;
using testing::NullDeviceTest;

// Quads of a quarter of the target, one per instance: its corner and its colour come from the
// instance buffer. fs_green paints every quad green (the pipeline a hot reload swaps in).
constexpr const char* kQuadsWgsl = R"(
struct Out { @builtin(position) position : vec4<f32>, @location(0) color : vec4<f32> };
@vertex fn vs(@builtin(vertex_index) v : u32, @location(0) corner : vec2<f32>, @location(1) color : vec4<f32>) -> Out {
  var square = array<vec2<f32>, 6>(vec2<f32>(0.0, 0.0), vec2<f32>(1.0, 0.0), vec2<f32>(0.0, 1.0),
                                   vec2<f32>(0.0, 1.0), vec2<f32>(1.0, 0.0), vec2<f32>(1.0, 1.0));
  return Out(vec4<f32>(corner + square[v] * 0.5, 0.0, 1.0), color);
}
@fragment fn fs(in : Out) -> @location(0) vec4<f32> { return in.color; }
@fragment fn fs_green(in : Out) -> @location(0) vec4<f32> { return vec4<f32>(0.0, 1.0, 0.0, 1.0); }
)";

constexpr uint32_t kBundleTarget = 16;
constexpr uint32_t kBundleRowBytes = 256;
constexpr uint32_t kQuads = 4;
constexpr WGPUColor kClear{0.0, 0.0, 0.0, 1.0};

struct Quads {
  ShaderModuleHandle module;
  RenderPipelineHandle pipeline;
  BufferHandle instances;
};

RenderPipelineDescription quads_pipeline(ShaderModuleHandle module, const char* fragment) {
  RenderPipelineDescription d;
  d.label = "quads";
  d.vertex = {module, "vs", {}};
  d.vertex_buffers = {VertexLayout{24,
                                   WGPUVertexStepMode_Instance,
                                   {{WGPUVertexFormat_Float32x2, 0, 0}, {WGPUVertexFormat_Float32x4, 8, 1}}}};
  d.fragment = ShaderStage{module, fragment, {}};
  d.targets = {ColorTarget{}};
  return d;
}

Quads make_quads(Registry& reg) {
  Quads q;
  q.module = reg.create_shader_module(kQuadsWgsl, "quads").value();
  q.pipeline = reg.create_render_pipeline(quads_pipeline(q.module, "fs")).value();
  q.instances = reg.create_buffer({kQuads * 24, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, false, "instances"})
                    .value();
  const float instances[kQuads][6] = {{-1.0f, -1.0f, 1.0f, 0.0f, 0.0f, 1.0f},
                                      {0.0f, -1.0f, 0.0f, 1.0f, 0.0f, 1.0f},
                                      {-1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 1.0f},
                                      {0.25f, 0.25f, 1.0f, 1.0f, 1.0f, 1.0f}};
  EXPECT_TRUE(reg.write_buffer(q.instances, 0, instances, sizeof instances).ok());
  return q;
}

// The commands of the bundle, counted: the same for every recording.
std::function<Result<void>(RenderBundleRecording&)> record_quads(const Quads& q, int& calls) {
  return [&calls, q](RenderBundleRecording& r) -> Result<void> {
    ++calls;
    auto pipeline = r.resolve(q.pipeline);
    if (!pipeline) return pipeline.error();
    auto instances = r.resolve(q.instances);
    if (!instances) return instances.error();
    r.procs().RenderBundleEncoderSetPipeline(r.encoder(), *pipeline);
    r.procs().RenderBundleEncoderSetVertexBuffer(r.encoder(), 0, *instances, 0, WGPU_WHOLE_SIZE);
    r.procs().RenderBundleEncoderDraw(r.encoder(), 6, kQuads, 0, 0);
    return {};
  };
}

RenderBundleDescription quads_bundle(const Quads& q, int& calls) {
  RenderBundleDescription d;
  d.label = "quads bundle";
  d.color_formats = {WGPUTextureFormat_RGBA8Unorm};
  d.record = record_quads(q, calls);
  return d;
}

// One pass over a kBundleTarget x kBundleTarget RGBA8 target on the registry's current device, cleared and then
// drawn by `draw`, read back: kBundleTarget rows of kBundleRowBytes.
std::vector<uint8_t> render(Registry& reg, const gpu::Context& context,
                            const std::function<void(WGPURenderPassEncoder)>& draw) {
  const gpu::Procs& p = reg.procs();
  WGPUTextureDescriptor td{};
  td.size = {kBundleTarget, kBundleTarget, 1};
  td.format = WGPUTextureFormat_RGBA8Unorm;
  td.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc;
  td.dimension = WGPUTextureDimension_2D;
  td.mipLevelCount = 1;
  td.sampleCount = 1;
  gpu::Ref<WGPUTexture> target(&p, p.DeviceCreateTexture(reg.device(), &td));
  gpu::Ref<WGPUTextureView> view(&p, p.TextureCreateView(target.get(), nullptr));
  WGPUBufferDescriptor bd{};
  bd.size = uint64_t{kBundleRowBytes} * kBundleTarget;
  bd.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
  gpu::Ref<WGPUBuffer> readback(&p, p.DeviceCreateBuffer(reg.device(), &bd));
  WGPUCommandEncoder encoder = p.DeviceCreateCommandEncoder(reg.device(), nullptr);
  WGPURenderPassEncoder pass = gpu::begin_clear_pass(p, encoder, view.get(), kClear);
  draw(pass);
  p.RenderPassEncoderEnd(pass);
  p.RenderPassEncoderRelease(pass);
  gpu::copy_image_to_buffer(p, encoder, target.get(), readback.get(), kBundleTarget, kBundleTarget, kBundleRowBytes);
  WGPUCommandBuffer commands = p.CommandEncoderFinish(encoder, nullptr);
  reg.submit(commands);
  p.CommandBufferRelease(commands);
  p.CommandEncoderRelease(encoder);
  auto bytes = context.read_mapped(readback.get(), bd.size, testing::kSafetyNet);
  EXPECT_TRUE(bytes.ok()) << (bytes.ok() ? "" : bytes.error().message);
  return bytes.ok() ? bytes.value() : std::vector<uint8_t>{};
}

std::vector<uint8_t> render_bundle(Registry& reg, const gpu::Context& context, RenderBundleHandle bundle) {
  return render(reg, context, [&](WGPURenderPassEncoder pass) {
    auto resolved = reg.resolve(bundle);
    ASSERT_TRUE(resolved.ok()) << resolved.error().message;
    const WGPURenderBundle bundles[] = {*resolved};
    reg.procs().RenderPassEncoderExecuteBundles(pass, 1, bundles);
  });
}

// The pixel at (x, y), x right and y down, as 0xRRGGBBAA.
uint32_t rgba_at(const std::vector<uint8_t>& bytes, uint32_t x, uint32_t y) {
  const size_t at = size_t{y} * kBundleRowBytes + size_t{x} * 4;
  if (bytes.size() < at + 4) return 0;
  return uint32_t{bytes[at]} << 24 | uint32_t{bytes[at + 1]} << 16 | uint32_t{bytes[at + 2]} << 8 | bytes[at + 3];
}

// The quads' colours where they are, the clear colour between them. NDC y points up, so the
// first instance (red, at -1,-1) lands in the bottom-left corner.
void expect_quads(const std::vector<uint8_t>& bytes, uint32_t red = 0xFF0000FF, uint32_t green = 0x00FF00FF,
                  uint32_t blue = 0x0000FFFF, uint32_t white = 0xFFFFFFFF) {
  EXPECT_EQ(rgba_at(bytes, 1, kBundleTarget - 2), red);
  EXPECT_EQ(rgba_at(bytes, kBundleTarget / 2 + 1, kBundleTarget - 2), green);
  EXPECT_EQ(rgba_at(bytes, 1, kBundleTarget / 2 - 2), blue);
  EXPECT_EQ(rgba_at(bytes, kBundleTarget / 2 + 3, kBundleTarget / 2 - 3), white);
  EXPECT_EQ(rgba_at(bytes, kBundleTarget - 1, 0), 0x000000FFu);  // outside every quad: cleared
}

// ---- drawing ----------------------------------------------------------------------------------

TEST_F(GlDeviceTest, ABundleDrawsTheSamePixelsAsTheSameDrawsRecordedInThePass) {
  auto reg = testing::make_registry(*dev);
  const Quads q = make_quads(*reg);
  int calls = 0;
  auto bundle = reg->create_render_bundle(quads_bundle(q, calls));
  ASSERT_TRUE(bundle.ok()) << bundle.error().message;
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(reg->slot_state(*bundle), SlotState::Live);
  EXPECT_EQ(*reg->label(*bundle), "quads bundle");

  const std::vector<uint8_t> direct = render(*reg, *dev->context, [&](WGPURenderPassEncoder pass) {
    const gpu::Procs& p = reg->procs();
    p.RenderPassEncoderSetPipeline(pass, *reg->resolve(q.pipeline));
    p.RenderPassEncoderSetVertexBuffer(pass, 0, *reg->resolve(q.instances), 0, WGPU_WHOLE_SIZE);
    p.RenderPassEncoderDraw(pass, 6, kQuads, 0, 0);
  });
  const std::vector<uint8_t> bundled = render_bundle(*reg, *dev->context, *bundle);
  expect_quads(direct);
  EXPECT_EQ(bundled, direct);
  EXPECT_EQ(calls, 1);  // replayed, not recorded again
  EXPECT_TRUE(dev->take_errors().empty());
}

TEST_F(GlDeviceTest, AfterALossTheCallbackRecordsTheBundleAgainUnderItsHandleAndItDrawsTheSame) {
  auto second = testing::open_test_device(testing::pixel_test_backend());
  ASSERT_NE(second, nullptr);
  auto reg = testing::make_registry(*dev);
  const Quads q = make_quads(*reg);
  int calls = 0;
  const RenderBundleHandle bundle = reg->create_render_bundle(quads_bundle(q, calls)).value();
  const std::vector<uint8_t> before = render_bundle(*reg, *dev->context, bundle);
  expect_quads(before);

  testing::force_loss(*dev, *reg);
  EXPECT_EQ(reg->slot_state(bundle), SlotState::Lost);
  EXPECT_THAT(reg->resolve(bundle), FailsWith(MessageId::RegistryDeviceLost));
  EXPECT_EQ(calls, 1);

  const RebuildReport report = reg->rebuild(second->device.get(), second->queue.get(), 2);
  EXPECT_TRUE(report.failed.empty()) << report.failed.front();
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(reg->slot_state(bundle), SlotState::Live);
  ASSERT_TRUE(reg->resolve(bundle).ok());
  EXPECT_EQ(render_bundle(*reg, *second->context, bundle), before);
  EXPECT_TRUE(second->take_errors().empty());
  reg.reset();
  testing::close_device(second);
}

// ---- what the callback is given, and its errors ------------------------------------------------

TEST_F(NullDeviceTest, ABundleWithoutARecordCallbackIsRefusedByName) {
  auto reg = testing::make_registry(*dev);
  RenderBundleDescription d;
  d.label = "empty";
  d.color_formats = {WGPUTextureFormat_RGBA8Unorm};
  auto bundle = reg->create_render_bundle(d);
  EXPECT_THAT(bundle, FailsWith(MessageId::RenderBundleNoRecord));
  EXPECT_EQ(bundle.error().kind, ErrorKind::InvalidArgument);
  EXPECT_THAT(bundle.error().message, HasSubstr("\"empty\": no record callback"));
  EXPECT_EQ(reg->live_counts().of(ResourceKind::RenderBundle), 0u);
}

TEST_F(NullDeviceTest, ACallbackErrorFailsTheCreateNamingTheBundleAndTheCallbacksWords) {
  auto reg = testing::make_registry(*dev);
  RenderBundleDescription d;
  d.label = "broken";
  d.color_formats = {WGPUTextureFormat_RGBA8Unorm};
  d.record = [](RenderBundleRecording& r) -> Result<void> {
    EXPECT_EQ(r.label(), "broken");
    EXPECT_NE(r.encoder(), nullptr);
    return make_error(ErrorKind::NotFound, "no mesh named \"teapot\"");
  };
  auto bundle = reg->create_render_bundle(d);
  EXPECT_THAT(bundle, FailsWith(MessageId::RenderBundleRecordFailed));
  EXPECT_EQ(bundle.error().kind, ErrorKind::NotFound);  // the callback's kind, for code to branch on
  EXPECT_EQ(bundle.error().message,
            "render bundle \"broken\": its record callback failed: no mesh named \"teapot\"");
  ASSERT_TRUE(bundle.error().object.has_value());
  EXPECT_EQ(bundle.error().object->label, "broken");
  EXPECT_EQ(reg->live_counts().of(ResourceKind::RenderBundle), 0u);
}

TEST_F(NullDeviceTest, AStaleHandleTheCallbackResolvesFailsTheBundleEvenIfTheCallbackGoesOn) {
  auto reg = testing::make_registry(*dev);
  const Quads q = make_quads(*reg);
  ASSERT_TRUE(reg->destroy_render_pipeline(q.pipeline).ok());
  RenderBundleDescription d;
  d.label = "careless";
  d.color_formats = {WGPUTextureFormat_RGBA8Unorm};
  d.record = [&](RenderBundleRecording& r) -> Result<void> {
    (void)r.resolve(q.pipeline);  // ignored: the bundle fails all the same
    return {};
  };
  auto bundle = reg->create_render_bundle(d);
  EXPECT_THAT(bundle, FailsWith(MessageId::RenderBundleRecordFailed));
  EXPECT_EQ(bundle.error().kind, ErrorKind::StaleHandle);
  EXPECT_THAT(bundle.error().message, HasSubstr("render bundle \"careless\": its record callback failed: "));
  EXPECT_THAT(bundle.error().message, HasSubstr("\"quads\""));  // the destroyed pipeline, by label
  EXPECT_EQ(reg->live_counts().of(ResourceKind::RenderBundle), 0u);
}

TEST_F(NullDeviceTest, ADestroyedBundlesHandleIsANamedStaleHandle) {
  auto reg = testing::make_registry(*dev);
  const Quads q = make_quads(*reg);
  int calls = 0;
  const RenderBundleHandle bundle = reg->create_render_bundle(quads_bundle(q, calls)).value();
  ASSERT_TRUE(reg->destroy_render_bundle(bundle).ok());
  EXPECT_FALSE(reg->is_alive(bundle));
  auto resolved = reg->resolve(bundle);
  EXPECT_THAT(resolved, FailsWith(MessageId::HandleDestroyed));
  EXPECT_THAT(resolved.error().message, HasSubstr("render bundle"));
  EXPECT_THAT(reg->rerecord_render_bundle(bundle), FailsWith(MessageId::HandleDestroyed));
  EXPECT_EQ(calls, 1);
}

TEST_F(NullDeviceTest, TouchingABundleTouchesWhatItsCallbackResolved) {
  auto reg = testing::make_registry(*dev);
  const Quads q = make_quads(*reg);
  int calls = 0;
  const RenderBundleHandle bundle = reg->create_render_bundle(quads_bundle(q, calls)).value();
  EXPECT_EQ(reg->last_used(q.pipeline), Serial{});
  reg->touch(bundle);
  const Serial recording = reg->clock().recording();
  EXPECT_EQ(reg->last_used(bundle), recording);
  EXPECT_EQ(reg->last_used(q.pipeline), recording);
  EXPECT_EQ(reg->last_used(q.instances), recording);
  EXPECT_EQ(reg->last_used(q.module), Serial{});  // the callback never resolved it
}

// ---- re-entering the registry from the callback -----------------------------------------------

TEST_F(NullDeviceTest, TheCallbackMayResolveAndWriteButMakingOrDestroyingObjectsIsRefusedByName) {
  auto reg = testing::make_registry(*dev);
  const Quads q = make_quads(*reg);
  int calls = 0;
  const RenderBundleHandle other = reg->create_render_bundle(quads_bundle(q, calls)).value();
  std::vector<Error> refused;
  bool wrote = false;
  RenderBundleDescription d = quads_bundle(q, calls);
  d.label = "reentrant";
  auto draw = d.record;
  d.record = [&](RenderBundleRecording& r) -> Result<void> {
    auto note = [&](auto result) {
      if (!result.ok()) refused.push_back(result.error());
    };
    note(reg->create_buffer({16, WGPUBufferUsage_Vertex, false, "inside"}));
    note(reg->destroy_buffer(q.instances));
    note(reg->create_render_bundle(quads_bundle(q, calls)));
    note(reg->rerecord_render_bundle(other));
    note(reg->destroy_render_bundle(other));
    note(reg->replace_render_pipeline(q.pipeline, *reg->resolve(q.pipeline), quads_pipeline(q.module, "fs")));
    reg->on_device_lost();  // reported and refused: the registry stays on its device
    const float corner[2] = {-1.0f, -1.0f};
    wrote = reg->write_buffer(q.instances, 0, corner, sizeof corner).ok();
    return draw(r);
  };
  auto bundle = reg->create_render_bundle(d);
  ASSERT_TRUE(bundle.ok()) << bundle.error().message;
  EXPECT_TRUE(wrote);
  ASSERT_EQ(refused.size(), 6u);
  for (const Error& e : refused) {
    EXPECT_EQ(e.id, MessageId::RenderBundleRecordReentered) << e.message;
    EXPECT_EQ(e.kind, ErrorKind::Refused);
    EXPECT_THAT(e.message, HasSubstr("inside the record callback of render bundle \"reentrant\""));
  }
  EXPECT_THAT(refused[0].message, HasSubstr("create_buffer"));
  EXPECT_THAT(refused[1].message, HasSubstr("destroy_buffer"));
  EXPECT_FALSE(reg->device_lost());
  ASSERT_EQ(reg->diagnostics().entries().size(), 1u);
  EXPECT_EQ(reg->diagnostics().entries()[0].id, MessageId::RenderBundleRecordReentered);
  EXPECT_THAT(reg->diagnostics().entries()[0].message, HasSubstr("on_device_lost: called from inside"));
  // Nothing changed under the callback, and the registry works as before once it returned.
  EXPECT_TRUE(reg->is_alive(q.instances));
  EXPECT_TRUE(reg->is_alive(other));
  EXPECT_EQ(reg->live_counts().of(ResourceKind::Buffer), 1u);
  EXPECT_EQ(reg->live_counts().of(ResourceKind::RenderBundle), 2u);
  EXPECT_TRUE(reg->create_buffer({16, WGPUBufferUsage_Vertex, false, "after"}).ok());
  EXPECT_TRUE(reg->rerecord_render_bundle(other).ok());
}

// ---- after a loss ------------------------------------------------------------------------------

TEST_F(NullDeviceTest, ACallbackThatFailsAfterALossLeavesTheBundleFailedWithItsWords) {
  auto second = testing::open_test_device(gpu::BackendChoice::Null);
  ASSERT_NE(second, nullptr);
  auto reg = testing::make_registry(*dev);
  const Quads q = make_quads(*reg);
  int calls = 0;
  bool meshes_gone = false;
  RenderBundleDescription d = quads_bundle(q, calls);
  auto draw = d.record;
  d.record = [&](RenderBundleRecording& r) -> Result<void> {
    if (meshes_gone) return make_error(ErrorKind::NotFound, "the level's meshes are gone");
    return draw(r);
  };
  const RenderBundleHandle bundle = reg->create_render_bundle(d).value();
  testing::force_loss(*dev, *reg);
  meshes_gone = true;
  const RebuildReport report = reg->rebuild(second->device.get(), second->queue.get(), 2);
  ASSERT_EQ(report.failed.size(), 1u);
  EXPECT_EQ(report.failed[0],
            "render bundle \"quads bundle\": render bundle \"quads bundle\": its record callback failed: the "
            "level's meshes are gone");
  EXPECT_EQ(reg->slot_state(bundle), SlotState::Failed);
  EXPECT_TRUE(reg->is_alive(bundle));
  auto resolved = reg->resolve(bundle);
  EXPECT_THAT(resolved, FailsWith(MessageId::SlotRebuildFailed));
  EXPECT_THAT(resolved.error().message, HasSubstr("the level's meshes are gone"));
  EXPECT_TRUE(reg->resolve(q.pipeline).ok());  // the rest came back
  // Once the application can record it again, the same handle is live again.
  meshes_gone = false;
  ASSERT_TRUE(reg->rerecord_render_bundle(bundle).ok());
  EXPECT_EQ(reg->slot_state(bundle), SlotState::Live);
  EXPECT_EQ(calls, 2);
  reg.reset();
  testing::close_device(second);
}

TEST_F(NullDeviceTest, AnObjectTheCallbackUsesThatIsNotBackAfterALossFailsTheBundleNamingIt) {
  auto second = testing::open_test_device(gpu::BackendChoice::Null);
  ASSERT_NE(second, nullptr);
  auto reg = testing::make_registry(*dev);
  const Quads q = make_quads(*reg);
  // The caller's own buffer: warden has no recipe, so after the loss it waits for its owner.
  WGPUBufferDescriptor bd{};
  bd.size = kQuads * 24;
  bd.usage = WGPUBufferUsage_Vertex;
  const BufferHandle own =
      reg->adopt_buffer(reg->procs().DeviceCreateBuffer(dev->device.get(), &bd), "own instances").value();
  int calls = 0;
  Quads with_own = q;
  with_own.instances = own;
  const RenderBundleHandle bundle = reg->create_render_bundle(quads_bundle(with_own, calls)).value();
  testing::force_loss(*dev, *reg);
  const RebuildReport report = reg->rebuild(second->device.get(), second->queue.get(), 2);
  EXPECT_EQ(calls, 2);
  ASSERT_EQ(report.failed.size(), 1u);
  EXPECT_THAT(report.failed[0], HasSubstr("render bundle \"quads bundle\": its record callback failed: "));
  EXPECT_THAT(report.failed[0], HasSubstr("\"own instances\""));
  EXPECT_EQ(reg->slot_state(bundle), SlotState::Failed);
  reg.reset();
  testing::close_device(second);
}

// ---- hot reload --------------------------------------------------------------------------------

TEST_F(GlDeviceTest, ABundleKeepsTheReplacedPipelineUntilItIsRecordedAgain) {
  auto reg = testing::make_registry(*dev);
  const Quads q = make_quads(*reg);
  int calls = 0;
  const RenderBundleHandle bundle = reg->create_render_bundle(quads_bundle(q, calls)).value();
  const WGPURenderBundle recorded = *reg->resolve(bundle);
  // A hot reload: a new pipeline under the old handle.
  const RenderPipelineDescription green = quads_pipeline(q.module, "fs_green");
  const RenderPipelineHandle made = reg->create_render_pipeline(green).value();
  const WGPURenderPipeline object = *reg->resolve(made);
  reg->procs().RenderPipelineAddRef(object);  // the replace takes this reference over
  ASSERT_TRUE(reg->replace_render_pipeline(q.pipeline, object, green).ok());

  expect_quads(render_bundle(*reg, *dev->context, bundle));  // still the old pipeline's colours
  ASSERT_TRUE(reg->rerecord_render_bundle(bundle).ok());
  EXPECT_EQ(calls, 2);
  EXPECT_NE(*reg->resolve(bundle), recorded);
  constexpr uint32_t kGreen = 0x00FF00FF;
  expect_quads(render_bundle(*reg, *dev->context, bundle), kGreen, kGreen, kGreen, kGreen);
  EXPECT_TRUE(dev->take_errors().empty());
}

TEST_F(NullDeviceTest, ARerecordThatFailsKeepsTheBundleItHad) {
  auto reg = testing::make_registry(*dev);
  const Quads q = make_quads(*reg);
  int calls = 0;
  RenderBundleDescription d = quads_bundle(q, calls);
  auto draw = d.record;
  d.record = [&](RenderBundleRecording& r) -> Result<void> {
    if (calls == 1) return make_error(ErrorKind::InvalidArgument, "not now");
    return draw(r);
  };
  const RenderBundleHandle bundle = reg->create_render_bundle(d).value();
  const WGPURenderBundle recorded = *reg->resolve(bundle);
  EXPECT_THAT(reg->rerecord_render_bundle(bundle), FailsWith(MessageId::RenderBundleRecordFailed));
  ASSERT_TRUE(reg->resolve(bundle).ok());
  EXPECT_EQ(*reg->resolve(bundle), recorded);
}

}  // namespace
}  // namespace warden::resources
