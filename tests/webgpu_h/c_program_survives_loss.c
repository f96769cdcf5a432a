/* A C11 program written for webgpu.h, linked against warden::webgpu instead of Dawn: it draws a
 * textured quad (a texture written by the queue, a uniform written by the queue, vertices
 * written through a mapping at creation), runs a compute pass into a storage buffer, reads the
 * frame back, forces a device loss, and draws again. The frame after each loss must equal the
 * one before, byte for byte; the recovery callback must have heard of the loss and the rebuild,
 * and the storage buffer (written only by the GPU) must be named as lost. Every object kind is
 * released in webgpu.h's order: the shader module right after its pipeline, the layouts right
 * after what uses them.
 *
 *   c_program_survives_loss [losses]      exit 0 when every check held
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <webgpu/webgpu.h>
#include <warden/webgpu_h/warden_webgpu.h>

#define SIZE 64
#define ROW_BYTES (SIZE * 4) /* 256: a multiple of 256, as copies need */

static int failures = 0;
#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (!(cond)) {                                         \
      fprintf(stderr, "FAILED %s:%d: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                        \
      fprintf(stderr, "\n");                               \
      failures++;                                          \
    }                                                      \
  } while (0)

static WGPUStringView sv(const char* s) {
  WGPUStringView v = {s, WGPU_STRLEN};
  return v;
}

/* What the callbacks saw. */
struct Seen {
  WGPUAdapter adapter;
  WGPUDevice device;
  int lost_events, rebuilt_events, contents_lost_events, gave_up_events;
  WGPUBuffer lost_buffer; /* the storage buffer, when named in ContentsLost */
  int storage_named;
  int uncaptured;
  char last_error[512];
  int device_lost_callbacks;
  int mapped;
  WGPUMapAsyncStatus map_status;
};
static struct Seen seen;

static void on_adapter(WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message, void* u1, void* u2) {
  (void)u1; (void)u2;
  if (status != WGPURequestAdapterStatus_Success) fprintf(stderr, "adapter: %.*s\n", (int)message.length, message.data);
  seen.adapter = adapter;
}

static void on_device(WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message, void* u1, void* u2) {
  (void)u1; (void)u2;
  if (status != WGPURequestDeviceStatus_Success) fprintf(stderr, "device: %.*s\n", (int)message.length, message.data);
  seen.device = device;
}

static void on_recovery(WGPUDevice device, WardenRecoveryInfo const* info, void* userdata) {
  (void)device; (void)userdata;
  switch (info->event) {
    case WardenRecoveryEvent_Lost: seen.lost_events++; break;
    case WardenRecoveryEvent_Rebuilt: seen.rebuilt_events++; break;
    case WardenRecoveryEvent_ContentsLost:
      seen.contents_lost_events++;
      for (size_t i = 0; i < info->bufferCount; ++i) {
        if (info->buffers[i] == seen.lost_buffer) seen.storage_named++;
      }
      break;
    case WardenRecoveryEvent_GaveUp: seen.gave_up_events++; break;
    default: break;
  }
}

static void on_error(WGPUDevice const* device, WGPUErrorType type, WGPUStringView message, void* u1, void* u2) {
  (void)device; (void)type; (void)u1; (void)u2;
  seen.uncaptured++;
  size_t n = message.length == WGPU_STRLEN ? strlen(message.data) : message.length;
  if (n >= sizeof seen.last_error) n = sizeof seen.last_error - 1;
  memcpy(seen.last_error, message.data, n);
  seen.last_error[n] = '\0';
}

static void on_lost(WGPUDevice const* device, WGPUDeviceLostReason reason, WGPUStringView message, void* u1, void* u2) {
  (void)device; (void)reason; (void)message; (void)u1; (void)u2;
  seen.device_lost_callbacks++;
}

static void on_mapped(WGPUMapAsyncStatus status, WGPUStringView message, void* u1, void* u2) {
  (void)message; (void)u1; (void)u2;
  seen.mapped = 1;
  seen.map_status = status;
}

static const char* kShader =
    "struct Tint { color : vec4f }\n"
    "@group(0) @binding(0) var<uniform> tint : Tint;\n"
    "@group(0) @binding(1) var picture : texture_2d<f32>;\n"
    "@group(0) @binding(2) var nearest : sampler;\n"
    "struct Out { @builtin(position) position : vec4f, @location(0) uv : vec2f }\n"
    "@vertex fn vs(@location(0) position : vec2f) -> Out {\n"
    "  var out : Out;\n"
    "  out.position = vec4f(position, 0.0, 1.0);\n"
    "  out.uv = position * vec2f(0.5, -0.5) + vec2f(0.5, 0.5);\n"
    "  return out;\n"
    "}\n"
    "@fragment fn fs(in : Out) -> @location(0) vec4f {\n"
    "  return textureSample(picture, nearest, in.uv) * tint.color;\n"
    "}\n";

static const char* kCompute =
    "@group(0) @binding(0) var<storage, read_write> data : array<u32>;\n"
    "@compute @workgroup_size(4) fn main(@builtin(global_invocation_id) id : vec3u) {\n"
    "  data[id.x] = id.x * 3u + 1u;\n"
    "}\n";

/* The objects the frame uses: made once, kept across every loss by warden. */
struct Scene {
  WGPUQueue queue;
  WGPUBuffer vertices, tint, readback, storage;
  WGPUTexture picture, target;
  WGPUTextureView picture_view, target_view;
  WGPUSampler sampler;
  WGPUBindGroup group, compute_group;
  WGPURenderPipeline pipeline;
  WGPUComputePipeline compute;
};

static WGPUShaderModule module_of(WGPUDevice device, const char* code, const char* label) {
  WGPUShaderSourceWGSL source;
  memset(&source, 0, sizeof source);
  source.chain.sType = WGPUSType_ShaderSourceWGSL;
  source.code = sv(code);
  WGPUShaderModuleDescriptor desc;
  memset(&desc, 0, sizeof desc);
  desc.nextInChain = &source.chain;
  desc.label = sv(label);
  return wgpuDeviceCreateShaderModule(device, &desc);
}

static void make_scene(WGPUDevice device, struct Scene* s) {
  s->queue = wgpuDeviceGetQueue(device);

  /* Vertices, through a mapping at creation (kept by warden at unmap). */
  const float quad[12] = {-0.5f, -0.5f, 0.5f, -0.5f, -0.5f, 0.5f, -0.5f, 0.5f, 0.5f, -0.5f, 0.5f, 0.5f};
  WGPUBufferDescriptor vb;
  memset(&vb, 0, sizeof vb);
  vb.label = sv("quad");
  vb.usage = WGPUBufferUsage_Vertex;
  vb.size = sizeof quad;
  vb.mappedAtCreation = 1;
  s->vertices = wgpuDeviceCreateBuffer(device, &vb);
  memcpy(wgpuBufferGetMappedRange(s->vertices, 0, sizeof quad), quad, sizeof quad);
  wgpuBufferUnmap(s->vertices);

  /* A uniform written by the queue. */
  const float tint[4] = {1.0f, 0.5f, 1.0f, 1.0f};
  WGPUBufferDescriptor ub;
  memset(&ub, 0, sizeof ub);
  ub.label = sv("tint");
  ub.usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst;
  ub.size = sizeof tint;
  s->tint = wgpuDeviceCreateBuffer(device, &ub);
  wgpuQueueWriteBuffer(s->queue, s->tint, 0, tint, sizeof tint);

  /* A 4x4 picture written by the queue, and its view. */
  WGPUTextureDescriptor td;
  memset(&td, 0, sizeof td);
  td.label = sv("picture");
  td.usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst;
  td.dimension = WGPUTextureDimension_2D;
  td.size.width = 4;
  td.size.height = 4;
  td.size.depthOrArrayLayers = 1;
  td.format = WGPUTextureFormat_RGBA8Unorm;
  td.mipLevelCount = 1;
  td.sampleCount = 1;
  s->picture = wgpuDeviceCreateTexture(device, &td);
  unsigned char texels[4 * 4 * 4];
  for (int i = 0; i < 16; ++i) {
    texels[i * 4 + 0] = (unsigned char)(i * 16);
    texels[i * 4 + 1] = (unsigned char)(255 - i * 16);
    texels[i * 4 + 2] = (unsigned char)((i % 4) * 60);
    texels[i * 4 + 3] = 255;
  }
  WGPUTexelCopyTextureInfo where;
  memset(&where, 0, sizeof where);
  where.texture = s->picture;
  where.aspect = WGPUTextureAspect_All;
  WGPUTexelCopyBufferLayout layout;
  memset(&layout, 0, sizeof layout);
  layout.bytesPerRow = 16;
  layout.rowsPerImage = 4;
  WGPUExtent3D extent = {4, 4, 1};
  wgpuQueueWriteTexture(s->queue, &where, texels, sizeof texels, &layout, &extent);
  s->picture_view = wgpuTextureCreateView(s->picture, NULL);

  /* The render target and the buffer it is read back through. */
  td.label = sv("target");
  td.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc;
  td.size.width = SIZE;
  td.size.height = SIZE;
  s->target = wgpuDeviceCreateTexture(device, &td);
  s->target_view = wgpuTextureCreateView(s->target, NULL);
  WGPUBufferDescriptor rb;
  memset(&rb, 0, sizeof rb);
  rb.label = sv("readback");
  rb.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
  rb.size = ROW_BYTES * SIZE;
  s->readback = wgpuDeviceCreateBuffer(device, &rb);

  WGPUSamplerDescriptor sd;
  memset(&sd, 0, sizeof sd);
  sd.label = sv("nearest");
  sd.lodMaxClamp = 32.0f;
  sd.maxAnisotropy = 1;
  s->sampler = wgpuDeviceCreateSampler(device, &sd);

  /* Layouts, released right after what uses them. */
  WGPUBindGroupLayoutEntry entries[3];
  memset(entries, 0, sizeof entries);
  entries[0].binding = 0;
  entries[0].visibility = WGPUShaderStage_Fragment;
  entries[0].buffer.type = WGPUBufferBindingType_Uniform;
  entries[1].binding = 1;
  entries[1].visibility = WGPUShaderStage_Fragment;
  entries[1].texture.sampleType = WGPUTextureSampleType_Float;
  entries[1].texture.viewDimension = WGPUTextureViewDimension_2D;
  entries[2].binding = 2;
  entries[2].visibility = WGPUShaderStage_Fragment;
  entries[2].sampler.type = WGPUSamplerBindingType_Filtering;
  WGPUBindGroupLayoutDescriptor bgld;
  memset(&bgld, 0, sizeof bgld);
  bgld.label = sv("scene layout");
  bgld.entryCount = 3;
  bgld.entries = entries;
  WGPUBindGroupLayout bgl = wgpuDeviceCreateBindGroupLayout(device, &bgld);

  WGPUBindGroupEntry bindings[3];
  memset(bindings, 0, sizeof bindings);
  bindings[0].binding = 0;
  bindings[0].buffer = s->tint;
  bindings[0].size = WGPU_WHOLE_SIZE;
  bindings[1].binding = 1;
  bindings[1].textureView = s->picture_view;
  bindings[2].binding = 2;
  bindings[2].sampler = s->sampler;
  WGPUBindGroupDescriptor bgd;
  memset(&bgd, 0, sizeof bgd);
  bgd.label = sv("scene group");
  bgd.layout = bgl;
  bgd.entryCount = 3;
  bgd.entries = bindings;
  s->group = wgpuDeviceCreateBindGroup(device, &bgd);

  WGPUPipelineLayoutDescriptor pld;
  memset(&pld, 0, sizeof pld);
  pld.bindGroupLayoutCount = 1;
  pld.bindGroupLayouts = &bgl;
  WGPUPipelineLayout pl = wgpuDeviceCreatePipelineLayout(device, &pld);
  wgpuBindGroupLayoutRelease(bgl); /* after its bind group and pipeline layout */

  WGPUShaderModule module = module_of(device, kShader, "scene shader");
  WGPUVertexAttribute attribute;
  memset(&attribute, 0, sizeof attribute);
  attribute.format = WGPUVertexFormat_Float32x2;
  WGPUVertexBufferLayout buffer_layout;
  memset(&buffer_layout, 0, sizeof buffer_layout);
  buffer_layout.stepMode = WGPUVertexStepMode_Vertex;
  buffer_layout.arrayStride = 8;
  buffer_layout.attributeCount = 1;
  buffer_layout.attributes = &attribute;
  WGPUColorTargetState color;
  memset(&color, 0, sizeof color);
  color.format = WGPUTextureFormat_RGBA8Unorm;
  color.writeMask = WGPUColorWriteMask_All;
  WGPUFragmentState fragment;
  memset(&fragment, 0, sizeof fragment);
  fragment.module = module;
  fragment.entryPoint = sv("fs");
  fragment.targetCount = 1;
  fragment.targets = &color;
  WGPURenderPipelineDescriptor rpd;
  memset(&rpd, 0, sizeof rpd);
  rpd.label = sv("scene pipeline");
  rpd.layout = pl;
  rpd.vertex.module = module;
  rpd.vertex.entryPoint = sv("vs");
  rpd.vertex.bufferCount = 1;
  rpd.vertex.buffers = &buffer_layout;
  rpd.primitive.topology = WGPUPrimitiveTopology_TriangleList;
  rpd.primitive.frontFace = WGPUFrontFace_CCW;
  rpd.primitive.cullMode = WGPUCullMode_None;
  rpd.multisample.count = 1;
  rpd.multisample.mask = 0xFFFFFFFFu;
  rpd.fragment = &fragment;
  s->pipeline = wgpuDeviceCreateRenderPipeline(device, &rpd);
  wgpuShaderModuleRelease(module); /* right after its pipeline, as webgpu.h allows */
  wgpuPipelineLayoutRelease(pl);

  /* A storage buffer only the GPU writes (its contents are reported lost). */
  WGPUBufferDescriptor sbd;
  memset(&sbd, 0, sizeof sbd);
  sbd.label = sv("gpu written");
  sbd.usage = WGPUBufferUsage_Storage;
  sbd.size = 64;
  s->storage = wgpuDeviceCreateBuffer(device, &sbd);
  seen.lost_buffer = s->storage;
  WGPUBindGroupLayoutEntry sentry;
  memset(&sentry, 0, sizeof sentry);
  sentry.binding = 0;
  sentry.visibility = WGPUShaderStage_Compute;
  sentry.buffer.type = WGPUBufferBindingType_Storage;
  bgld.label = sv("storage layout");
  bgld.entryCount = 1;
  bgld.entries = &sentry;
  WGPUBindGroupLayout sbgl = wgpuDeviceCreateBindGroupLayout(device, &bgld);
  pld.bindGroupLayouts = &sbgl;
  WGPUPipelineLayout cpl = wgpuDeviceCreatePipelineLayout(device, &pld);
  WGPUShaderModule cmodule = module_of(device, kCompute, "compute shader");
  WGPUComputePipelineDescriptor cpd;
  memset(&cpd, 0, sizeof cpd);
  cpd.label = sv("compute");
  cpd.layout = cpl;
  cpd.compute.module = cmodule; /* a null entry point: the module's one */
  s->compute = wgpuDeviceCreateComputePipeline(device, &cpd);
  wgpuShaderModuleRelease(cmodule);
  wgpuPipelineLayoutRelease(cpl);
  WGPUBindGroupEntry sbinding;
  memset(&sbinding, 0, sizeof sbinding);
  sbinding.buffer = s->storage;
  sbinding.size = WGPU_WHOLE_SIZE;
  bgd.label = sv("storage group");
  bgd.layout = sbgl;
  bgd.entryCount = 1;
  bgd.entries = &sbinding;
  s->compute_group = wgpuDeviceCreateBindGroup(device, &bgd);
  wgpuBindGroupLayoutRelease(sbgl);
}

/* Records and submits one frame, reads it back into `pixels`; 0 on success. */
static int draw_and_read(WGPUInstance instance, WGPUDevice device, struct Scene* s, unsigned char* pixels) {
  WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(device, NULL);
  WGPURenderPassColorAttachment attachment;
  memset(&attachment, 0, sizeof attachment);
  attachment.view = s->target_view;
  attachment.depthSlice = WGPU_DEPTH_SLICE_UNDEFINED;
  attachment.loadOp = WGPULoadOp_Clear;
  attachment.storeOp = WGPUStoreOp_Store;
  attachment.clearValue.r = 0.1;
  attachment.clearValue.g = 0.2;
  attachment.clearValue.b = 0.3;
  attachment.clearValue.a = 1.0;
  WGPURenderPassDescriptor pass_desc;
  memset(&pass_desc, 0, sizeof pass_desc);
  pass_desc.colorAttachmentCount = 1;
  pass_desc.colorAttachments = &attachment;
  WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(encoder, &pass_desc);
  wgpuRenderPassEncoderSetPipeline(pass, s->pipeline);
  wgpuRenderPassEncoderSetBindGroup(pass, 0, s->group, 0, NULL);
  wgpuRenderPassEncoderSetVertexBuffer(pass, 0, s->vertices, 0, WGPU_WHOLE_SIZE);
  wgpuRenderPassEncoderDraw(pass, 6, 1, 0, 0);
  wgpuRenderPassEncoderEnd(pass);
  wgpuRenderPassEncoderRelease(pass);

  WGPUComputePassEncoder cpass = wgpuCommandEncoderBeginComputePass(encoder, NULL);
  wgpuComputePassEncoderSetPipeline(cpass, s->compute);
  wgpuComputePassEncoderSetBindGroup(cpass, 0, s->compute_group, 0, NULL);
  wgpuComputePassEncoderDispatchWorkgroups(cpass, 4, 1, 1);
  wgpuComputePassEncoderEnd(cpass);
  wgpuComputePassEncoderRelease(cpass);

  WGPUTexelCopyTextureInfo from;
  memset(&from, 0, sizeof from);
  from.texture = s->target;
  from.aspect = WGPUTextureAspect_All;
  WGPUTexelCopyBufferInfo to;
  memset(&to, 0, sizeof to);
  to.buffer = s->readback;
  to.layout.bytesPerRow = ROW_BYTES;
  to.layout.rowsPerImage = SIZE;
  WGPUExtent3D extent = {SIZE, SIZE, 1};
  wgpuCommandEncoderCopyTextureToBuffer(encoder, &from, &to, &extent);
  WGPUCommandBuffer commands = wgpuCommandEncoderFinish(encoder, NULL);
  wgpuCommandEncoderRelease(encoder);
  wgpuQueueSubmit(s->queue, 1, &commands);
  wgpuCommandBufferRelease(commands);

  seen.mapped = 0;
  WGPUBufferMapCallbackInfo map_info;
  memset(&map_info, 0, sizeof map_info);
  map_info.mode = WGPUCallbackMode_WaitAnyOnly;
  map_info.callback = on_mapped;
  WGPUFutureWaitInfo wait;
  memset(&wait, 0, sizeof wait);
  wait.future = wgpuBufferMapAsync(s->readback, WGPUMapMode_Read, 0, ROW_BYTES * SIZE, map_info);
  WGPUWaitStatus status = wgpuInstanceWaitAny(instance, 1, &wait, 10ull * 1000 * 1000 * 1000);
  if (status != WGPUWaitStatus_Success || !seen.mapped || seen.map_status != WGPUMapAsyncStatus_Success) {
    fprintf(stderr, "map: wait status %d, mapped %d, map status %d\n", (int)status, seen.mapped, (int)seen.map_status);
    return 1;
  }
  const void* mapped = wgpuBufferGetConstMappedRange(s->readback, 0, ROW_BYTES * SIZE);
  if (mapped == NULL) return 1;
  memcpy(pixels, mapped, ROW_BYTES * SIZE);
  wgpuBufferUnmap(s->readback);
  return 0;
}

static void release_scene(struct Scene* s) {
  wgpuBindGroupRelease(s->compute_group);
  wgpuComputePipelineRelease(s->compute);
  wgpuBufferRelease(s->storage);
  wgpuRenderPipelineRelease(s->pipeline);
  wgpuBindGroupRelease(s->group);
  wgpuSamplerRelease(s->sampler);
  wgpuTextureViewRelease(s->target_view);
  wgpuTextureViewRelease(s->picture_view);
  wgpuTextureRelease(s->target);
  wgpuTextureRelease(s->picture);
  wgpuBufferRelease(s->readback);
  wgpuBufferRelease(s->tint);
  wgpuBufferRelease(s->vertices);
  wgpuQueueRelease(s->queue);
}

int main(int argc, char** argv) {
  const int losses = argc > 1 ? atoi(argv[1]) : 3;
  WGPUInstance instance = wgpuCreateInstance(NULL);
  CHECK(instance != NULL, "wgpuCreateInstance gave null");
  if (instance == NULL) return 1;

  WGPURequestAdapterOptions options;
  memset(&options, 0, sizeof options);
  options.backendType = WGPUBackendType_OpenGL;
  WGPURequestAdapterCallbackInfo adapter_info;
  memset(&adapter_info, 0, sizeof adapter_info);
  adapter_info.mode = WGPUCallbackMode_AllowProcessEvents;
  adapter_info.callback = on_adapter;
  wgpuInstanceRequestAdapter(instance, &options, adapter_info);
  wgpuInstanceProcessEvents(instance);
  CHECK(seen.adapter != NULL, "no adapter");
  if (seen.adapter == NULL) return 1;

  WardenDeviceExtras extras = WARDEN_DEVICE_EXTRAS_INIT;
  extras.recoveryCallback = on_recovery;
  extras.maxLosses = (uint32_t)losses + 1;
  WGPUDeviceDescriptor device_desc;
  memset(&device_desc, 0, sizeof device_desc);
  device_desc.nextInChain = &extras.chain;
  device_desc.label = sv("c program");
  device_desc.uncapturedErrorCallbackInfo.callback = on_error;
  device_desc.deviceLostCallbackInfo.mode = WGPUCallbackMode_AllowSpontaneous;
  device_desc.deviceLostCallbackInfo.callback = on_lost;
  WGPURequestDeviceCallbackInfo device_info;
  memset(&device_info, 0, sizeof device_info);
  device_info.mode = WGPUCallbackMode_WaitAnyOnly;
  device_info.callback = on_device;
  WGPUFutureWaitInfo wait;
  memset(&wait, 0, sizeof wait);
  wait.future = wgpuAdapterRequestDevice(seen.adapter, &device_desc, device_info);
  CHECK(wgpuInstanceWaitAny(instance, 1, &wait, 0) == WGPUWaitStatus_Success, "the device future is not complete");
  CHECK(seen.device != NULL, "no device");
  if (seen.device == NULL) return 1;
  WGPUDevice device = seen.device;
  CHECK(wardenDeviceGetGeneration(device) == 1, "generation %llu before any loss",
        (unsigned long long)wardenDeviceGetGeneration(device));

  struct Scene scene;
  memset(&scene, 0, sizeof scene);
  make_scene(device, &scene);

  static unsigned char before[ROW_BYTES * SIZE], after[ROW_BYTES * SIZE];
  CHECK(draw_and_read(instance, device, &scene, before) == 0, "the first frame could not be read back");
  /* The quad's middle samples the picture, tinted; the corner is the clear colour. */
  CHECK(before[0] == 26 && before[1] == 51 && before[2] == 76, "corner %u %u %u is not the clear colour", before[0],
        before[1], before[2]);
  const unsigned char* middle = before + (SIZE / 2) * ROW_BYTES + (SIZE / 2) * 4;
  CHECK(middle[0] != 26 || middle[1] != 51, "the quad was not drawn");

  for (int loss = 1; loss <= losses; ++loss) {
    wgpuDeviceForceLoss(device, WGPUDeviceLostReason_Unknown, sv("rehearsed by the C program"));
    wgpuInstanceProcessEvents(instance);
    memset(after, 0, sizeof after);
    CHECK(draw_and_read(instance, device, &scene, after) == 0, "frame after loss %d could not be read back", loss);
    CHECK(memcmp(before, after, sizeof before) == 0, "the frame after loss %d differs from the frame before", loss);
    CHECK(wardenDeviceGetGeneration(device) == (uint64_t)loss + 1, "generation %llu after loss %d",
          (unsigned long long)wardenDeviceGetGeneration(device), loss);
  }
  wgpuInstanceProcessEvents(instance);
  CHECK(seen.lost_events == losses, "%d Lost events for %d losses", seen.lost_events, losses);
  CHECK(seen.rebuilt_events == losses, "%d Rebuilt events for %d losses", seen.rebuilt_events, losses);
  CHECK(seen.contents_lost_events >= 1 && seen.storage_named == seen.contents_lost_events,
        "the storage buffer was named in %d of %d ContentsLost events", seen.storage_named, seen.contents_lost_events);
  CHECK(seen.gave_up_events == 0, "warden gave up");
  CHECK(seen.device_lost_callbacks == 0, "the device-lost callback ran for a loss warden recovered from");
  CHECK(wardenDeviceGetRecoveryCount(device) == (uint64_t)losses, "recovery count %llu",
        (unsigned long long)wardenDeviceGetRecoveryCount(device));

  /* Misuse is an error naming the problem, never a crash. */
  const int errors_before = seen.uncaptured;
  uint64_t size = wgpuBufferGetSize((WGPUBuffer)(void*)scene.target);
  wgpuInstanceProcessEvents(instance);
  CHECK(size == 0, "a texture passed as a buffer had a size");
  CHECK(seen.uncaptured == errors_before + 1 && strstr(seen.last_error, "wgpuBufferGetSize") != NULL &&
            strstr(seen.last_error, "texture \"target\" was passed where a buffer is expected") != NULL,
        "misuse was not reported as an error naming the call (last: \"%s\")", seen.last_error);

  release_scene(&scene);
  wgpuDeviceRelease(device);
  CHECK(seen.device_lost_callbacks == 1, "the device-lost callback ran %d times at the device's end",
        seen.device_lost_callbacks);
  wgpuAdapterRelease(seen.adapter);
  wgpuInstanceRelease(instance);
  if (failures == 0) printf("c_program_survives_loss: %d losses, every frame identical\n", losses);
  return failures == 0 ? 0 : 1;
}
