/* A plain C11 program written for webgpu.h: nothing of warden in its source. It draws a
 * coloured triangle into an offscreen texture, reads the frame back, makes its device lost
 * (wgpuDeviceForceLoss, what a driver reset does), and draws again, `losses` times.
 *
 * Linked against Dawn, the loss is the end: the device is gone, and so is every object made on
 * it. Linked against warden::webgpu instead (examples/CMakeLists.txt: WEBGPU_LIBRARY), the same
 * program draws the same frame after every loss: warden made every object again on a new device
 * under the pointers the program holds.
 *
 *   webgpu_survive_loss [losses]    exit 0 when every frame after a loss equals the first
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <webgpu/webgpu.h>

enum { kSize = 64, kRowBytes = kSize * 4 };

static WGPUStringView text(const char* s) {
  WGPUStringView view = {s, WGPU_STRLEN};
  return view;
}

static WGPUAdapter g_adapter;
static WGPUDevice g_device;
static int g_lost_for_good;
static int g_mapped;

static void got_adapter(WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message, void* a, void* b) {
  (void)a; (void)b;
  if (status != WGPURequestAdapterStatus_Success) fprintf(stderr, "no adapter: %.*s\n", (int)message.length, message.data);
  g_adapter = adapter;
}

static void got_device(WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message, void* a, void* b) {
  (void)a; (void)b;
  if (status != WGPURequestDeviceStatus_Success) fprintf(stderr, "no device: %.*s\n", (int)message.length, message.data);
  g_device = device;
}

static void device_lost(WGPUDevice const* device, WGPUDeviceLostReason reason, WGPUStringView message, void* a, void* b) {
  (void)device; (void)a; (void)b;
  if (reason != WGPUDeviceLostReason_Destroyed) g_lost_for_good = 1;
  fprintf(stderr, "device lost (reason %d): %.*s\n", (int)reason, (int)message.length, message.data);
}

static void mapped(WGPUMapAsyncStatus status, WGPUStringView message, void* a, void* b) {
  (void)message; (void)a; (void)b;
  g_mapped = status == WGPUMapAsyncStatus_Success ? 1 : -1;
}

static const char* kShader =
    "@group(0) @binding(0) var<uniform> color : vec4f;\n"
    "@vertex fn vs(@builtin(vertex_index) i : u32) -> @builtin(position) vec4f {\n"
    "  let p = array(vec2f(0.0, 0.6), vec2f(-0.6, -0.6), vec2f(0.6, -0.6));\n"
    "  return vec4f(p[i], 0.0, 1.0);\n"
    "}\n"
    "@fragment fn fs() -> @location(0) vec4f { return color; }\n";

struct Frame {
  WGPUQueue queue;
  WGPUTexture target;
  WGPUTextureView view;
  WGPUBuffer color, readback;
  WGPUBindGroup group;
  WGPURenderPipeline pipeline;
};

static void make_frame(WGPUDevice device, struct Frame* f) {
  f->queue = wgpuDeviceGetQueue(device);
  WGPUTextureDescriptor td = {0};
  td.label = text("target");
  td.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc;
  td.dimension = WGPUTextureDimension_2D;
  td.size.width = kSize;
  td.size.height = kSize;
  td.size.depthOrArrayLayers = 1;
  td.format = WGPUTextureFormat_RGBA8Unorm;
  td.mipLevelCount = 1;
  td.sampleCount = 1;
  f->target = wgpuDeviceCreateTexture(device, &td);
  f->view = wgpuTextureCreateView(f->target, NULL);

  WGPUBufferDescriptor bd = {0};
  bd.label = text("color");
  bd.usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst;
  bd.size = 16;
  f->color = wgpuDeviceCreateBuffer(device, &bd);
  const float orange[4] = {1.0f, 0.5f, 0.0f, 1.0f};
  wgpuQueueWriteBuffer(f->queue, f->color, 0, orange, sizeof orange);
  bd.label = text("readback");
  bd.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
  bd.size = kRowBytes * kSize;
  f->readback = wgpuDeviceCreateBuffer(device, &bd);

  WGPUBindGroupLayoutEntry entry = {0};
  entry.binding = 0;
  entry.visibility = WGPUShaderStage_Fragment;
  entry.buffer.type = WGPUBufferBindingType_Uniform;
  WGPUBindGroupLayoutDescriptor bgld = {0};
  bgld.entryCount = 1;
  bgld.entries = &entry;
  WGPUBindGroupLayout layout = wgpuDeviceCreateBindGroupLayout(device, &bgld);
  WGPUBindGroupEntry binding = {0};
  binding.buffer = f->color;
  binding.size = WGPU_WHOLE_SIZE;
  WGPUBindGroupDescriptor bgd = {0};
  bgd.layout = layout;
  bgd.entryCount = 1;
  bgd.entries = &binding;
  f->group = wgpuDeviceCreateBindGroup(device, &bgd);
  WGPUPipelineLayoutDescriptor pld = {0};
  pld.bindGroupLayoutCount = 1;
  pld.bindGroupLayouts = &layout;
  WGPUPipelineLayout pipeline_layout = wgpuDeviceCreatePipelineLayout(device, &pld);

  WGPUShaderSourceWGSL source = {0};
  source.chain.sType = WGPUSType_ShaderSourceWGSL;
  source.code = text(kShader);
  WGPUShaderModuleDescriptor smd = {0};
  smd.nextInChain = &source.chain;
  WGPUShaderModule module = wgpuDeviceCreateShaderModule(device, &smd);
  WGPUColorTargetState target = {0};
  target.format = WGPUTextureFormat_RGBA8Unorm;
  target.writeMask = WGPUColorWriteMask_All;
  WGPUFragmentState fragment = {0};
  fragment.module = module;
  fragment.entryPoint = text("fs");
  fragment.targetCount = 1;
  fragment.targets = &target;
  WGPURenderPipelineDescriptor rpd = {0};
  rpd.layout = pipeline_layout;
  rpd.vertex.module = module;
  rpd.vertex.entryPoint = text("vs");
  rpd.primitive.topology = WGPUPrimitiveTopology_TriangleList;
  rpd.multisample.count = 1;
  rpd.multisample.mask = 0xFFFFFFFFu;
  rpd.fragment = &fragment;
  f->pipeline = wgpuDeviceCreateRenderPipeline(device, &rpd);
  /* webgpu.h lets these go as soon as what uses them is made. */
  wgpuShaderModuleRelease(module);
  wgpuPipelineLayoutRelease(pipeline_layout);
  wgpuBindGroupLayoutRelease(layout);
}

/* Draws the frame and copies it into `pixels`; 0 on success. */
static int draw(WGPUInstance instance, WGPUDevice device, struct Frame* f, unsigned char* pixels) {
  WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(device, NULL);
  WGPURenderPassColorAttachment color = {0};
  color.view = f->view;
  color.depthSlice = WGPU_DEPTH_SLICE_UNDEFINED;
  color.loadOp = WGPULoadOp_Clear;
  color.storeOp = WGPUStoreOp_Store;
  color.clearValue.b = 0.4;
  color.clearValue.a = 1.0;
  WGPURenderPassDescriptor pass_desc = {0};
  pass_desc.colorAttachmentCount = 1;
  pass_desc.colorAttachments = &color;
  WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(encoder, &pass_desc);
  wgpuRenderPassEncoderSetPipeline(pass, f->pipeline);
  wgpuRenderPassEncoderSetBindGroup(pass, 0, f->group, 0, NULL);
  wgpuRenderPassEncoderDraw(pass, 3, 1, 0, 0);
  wgpuRenderPassEncoderEnd(pass);
  wgpuRenderPassEncoderRelease(pass);
  WGPUTexelCopyTextureInfo from = {0};
  from.texture = f->target;
  from.aspect = WGPUTextureAspect_All;
  WGPUTexelCopyBufferInfo to = {0};
  to.buffer = f->readback;
  to.layout.bytesPerRow = kRowBytes;
  to.layout.rowsPerImage = kSize;
  WGPUExtent3D extent = {kSize, kSize, 1};
  wgpuCommandEncoderCopyTextureToBuffer(encoder, &from, &to, &extent);
  WGPUCommandBuffer commands = wgpuCommandEncoderFinish(encoder, NULL);
  wgpuQueueSubmit(f->queue, 1, &commands);
  wgpuCommandBufferRelease(commands);
  wgpuCommandEncoderRelease(encoder);

  g_mapped = 0;
  WGPUBufferMapCallbackInfo info = {0};
  info.mode = WGPUCallbackMode_WaitAnyOnly;
  info.callback = mapped;
  WGPUFutureWaitInfo wait = {0};
  wait.future = wgpuBufferMapAsync(f->readback, WGPUMapMode_Read, 0, kRowBytes * kSize, info);
  wgpuInstanceWaitAny(instance, 1, &wait, 5000000000ull);
  if (g_mapped != 1) return 1;
  const void* bytes = wgpuBufferGetConstMappedRange(f->readback, 0, kRowBytes * kSize);
  if (bytes == NULL) return 1;
  memcpy(pixels, bytes, kRowBytes * kSize);
  wgpuBufferUnmap(f->readback);
  return 0;
}

int main(int argc, char** argv) {
  const int losses = argc > 1 ? atoi(argv[1]) : 2;
  WGPUInstance instance = wgpuCreateInstance(NULL);
  if (instance == NULL) return 1;
  WGPURequestAdapterOptions options = {0};
  options.backendType = WGPUBackendType_OpenGL; /* a GPU or llvmpipe: every machine has one */
  WGPURequestAdapterCallbackInfo adapter_info = {0};
  adapter_info.mode = WGPUCallbackMode_AllowProcessEvents;
  adapter_info.callback = got_adapter;
  wgpuInstanceRequestAdapter(instance, &options, adapter_info);
  wgpuInstanceProcessEvents(instance);
  if (g_adapter == NULL) return 1;
  WGPUDeviceDescriptor device_desc = {0};
  device_desc.deviceLostCallbackInfo.mode = WGPUCallbackMode_AllowSpontaneous;
  device_desc.deviceLostCallbackInfo.callback = device_lost;
  WGPURequestDeviceCallbackInfo device_info = {0};
  device_info.mode = WGPUCallbackMode_AllowProcessEvents;
  device_info.callback = got_device;
  wgpuAdapterRequestDevice(g_adapter, &device_desc, device_info);
  wgpuInstanceProcessEvents(instance);
  if (g_device == NULL) return 1;

  struct Frame frame;
  make_frame(g_device, &frame);
  static unsigned char first[kRowBytes * kSize], again[kRowBytes * kSize];
  if (draw(instance, g_device, &frame, first) != 0) return 1;
  int status = 0;
  for (int loss = 1; loss <= losses && status == 0; ++loss) {
    wgpuDeviceForceLoss(g_device, WGPUDeviceLostReason_Unknown, text("a rehearsed driver reset"));
    wgpuInstanceProcessEvents(instance);
    memset(again, 0, sizeof again);
    if (g_lost_for_good || draw(instance, g_device, &frame, again) != 0) {
      printf("after loss %d: the device is gone, and every object made on it\n", loss);
      status = 2;
    } else if (memcmp(first, again, sizeof first) != 0) {
      printf("after loss %d: the frame differs from the first one\n", loss);
      status = 1;
    } else {
      printf("after loss %d: the same frame\n", loss);
    }
  }
  wgpuBindGroupRelease(frame.group);
  wgpuRenderPipelineRelease(frame.pipeline);
  wgpuBufferRelease(frame.readback);
  wgpuBufferRelease(frame.color);
  wgpuTextureViewRelease(frame.view);
  wgpuTextureRelease(frame.target);
  wgpuQueueRelease(frame.queue);
  wgpuDeviceRelease(g_device);
  wgpuAdapterRelease(g_adapter);
  wgpuInstanceRelease(instance);
  return status;
}
