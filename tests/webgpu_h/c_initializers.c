/* webgpu.h's initializer macros (WGPU_<STRUCT>_INIT), as a C11 program written for the standard
 * header uses them: every descriptor starts from its INIT and sets only what it needs. Run
 * against warden::webgpu over the real Dawn, each object is made and a frame cleared and read back
 * with no error: the defaults the macros give are the ones Dawn takes (an undefined depth
 * slice, whole-texture view counts, strides, a sampler's clamps). Also a check of the values.
 *
 *   c_initializers        exit 0 when every check held
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <webgpu/webgpu.h>

static int failures = 0;
#define CHECK(cond, what)                                                   \
  do {                                                                      \
    if (!(cond)) {                                                          \
      fprintf(stderr, "FAILED %s:%d: %s\n", __FILE__, __LINE__, what);      \
      failures++;                                                           \
    }                                                                       \
  } while (0)

static WGPUAdapter g_adapter;
static WGPUDevice g_device;
static int g_errors;
static int g_mapped;

static void on_adapter(WGPURequestAdapterStatus s, WGPUAdapter a, WGPUStringView m, void* u1, void* u2) {
  (void)s; (void)m; (void)u1; (void)u2;
  g_adapter = a;
}
static void on_device(WGPURequestDeviceStatus s, WGPUDevice d, WGPUStringView m, void* u1, void* u2) {
  (void)s; (void)m; (void)u1; (void)u2;
  g_device = d;
}
static void on_error(WGPUDevice const* d, WGPUErrorType t, WGPUStringView m, void* u1, void* u2) {
  (void)d; (void)t; (void)u1; (void)u2;
  g_errors++;
  fprintf(stderr, "uncaptured error: %.*s\n", (int)(m.length == WGPU_STRLEN ? strlen(m.data) : m.length), m.data);
}
static void on_mapped(WGPUMapAsyncStatus s, WGPUStringView m, void* u1, void* u2) {
  (void)m; (void)u1; (void)u2;
  g_mapped = s == WGPUMapAsyncStatus_Success ? 1 : -1;
}

int main(void) {
  /* The values themselves. */
  WGPUTextureViewDescriptor view_desc = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
  CHECK(view_desc.mipLevelCount == WGPU_MIP_LEVEL_COUNT_UNDEFINED && view_desc.arrayLayerCount == WGPU_ARRAY_LAYER_COUNT_UNDEFINED,
        "a view's counts are undefined");
  WGPURenderPassColorAttachment color = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
  CHECK(color.depthSlice == WGPU_DEPTH_SLICE_UNDEFINED, "a colour attachment's depth slice is undefined");
  WGPURenderPassDepthStencilAttachment depth = WGPU_RENDER_PASS_DEPTH_STENCIL_ATTACHMENT_INIT;
  CHECK(isnan(depth.depthClearValue), "a depth attachment's clear value is undefined (NaN)");
  WGPUExtent3D extent = WGPU_EXTENT_3D_INIT;
  CHECK(extent.width == 0 && extent.height == 1 && extent.depthOrArrayLayers == 1, "an extent is 0 x 1 x 1");
  WGPULimits limits = WGPU_LIMITS_INIT;
  CHECK(limits.maxBindGroups == WGPU_LIMIT_U32_UNDEFINED && limits.maxBufferSize == WGPU_LIMIT_U64_UNDEFINED,
        "every limit is undefined");
  WGPUShaderSourceWGSL wgsl = WGPU_SHADER_SOURCE_WGSL_INIT;
  CHECK(wgsl.chain.sType == WGPUSType_ShaderSourceWGSL && wgsl.chain.next == NULL, "a WGSL source carries its sType");
  WGPUStringView none = WGPU_STRING_VIEW_INIT;
  CHECK(none.data == NULL && none.length == WGPU_STRLEN, "a string view is the null string");

  /* What Dawn takes. */
  WGPUInstance instance = wgpuCreateInstance(NULL);
  if (instance == NULL) return 1;
  WGPURequestAdapterOptions options = WGPU_REQUEST_ADAPTER_OPTIONS_INIT;
  options.backendType = WGPUBackendType_OpenGL;
  WGPURequestAdapterCallbackInfo adapter_info = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
  adapter_info.mode = WGPUCallbackMode_AllowSpontaneous;
  adapter_info.callback = on_adapter;
  wgpuInstanceRequestAdapter(instance, &options, adapter_info);
  if (g_adapter == NULL) return 1;
  WGPUDeviceDescriptor device_desc = WGPU_DEVICE_DESCRIPTOR_INIT;
  device_desc.uncapturedErrorCallbackInfo.callback = on_error;
  WGPURequestDeviceCallbackInfo device_info = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
  device_info.mode = WGPUCallbackMode_AllowSpontaneous;
  device_info.callback = on_device;
  wgpuAdapterRequestDevice(g_adapter, &device_desc, device_info);
  if (g_device == NULL) return 1;
  WGPUQueue queue = wgpuDeviceGetQueue(g_device);

  WGPUTextureDescriptor texture_desc = WGPU_TEXTURE_DESCRIPTOR_INIT;
  texture_desc.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc;
  texture_desc.dimension = WGPUTextureDimension_2D;
  texture_desc.size.width = 16;
  texture_desc.size.height = 16;
  texture_desc.format = WGPUTextureFormat_RGBA8Unorm;
  WGPUTexture texture = wgpuDeviceCreateTexture(g_device, &texture_desc);
  WGPUTextureView view = wgpuTextureCreateView(texture, &view_desc);
  WGPUSamplerDescriptor sampler_desc = WGPU_SAMPLER_DESCRIPTOR_INIT;
  WGPUSampler sampler = wgpuDeviceCreateSampler(g_device, &sampler_desc);
  WGPUBufferDescriptor buffer_desc = WGPU_BUFFER_DESCRIPTOR_INIT;
  buffer_desc.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
  buffer_desc.size = 256 * 16;
  WGPUBuffer readback = wgpuDeviceCreateBuffer(g_device, &buffer_desc);

  WGPUCommandEncoder encoder = wgpuDeviceCreateCommandEncoder(g_device, NULL);
  color.view = view;
  color.loadOp = WGPULoadOp_Clear;
  color.storeOp = WGPUStoreOp_Store;
  color.clearValue.r = 1.0;
  color.clearValue.a = 1.0;
  WGPURenderPassDescriptor pass_desc = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
  pass_desc.colorAttachmentCount = 1;
  pass_desc.colorAttachments = &color;
  WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(encoder, &pass_desc);
  wgpuRenderPassEncoderEnd(pass);
  WGPUTexelCopyTextureInfo from = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
  from.texture = texture;
  WGPUTexelCopyBufferInfo to = WGPU_TEXEL_COPY_BUFFER_INFO_INIT;
  to.buffer = readback;
  to.layout.bytesPerRow = 256;
  WGPUExtent3D copy_size = WGPU_EXTENT_3D_INIT;
  copy_size.width = 16;
  copy_size.height = 16;
  wgpuCommandEncoderCopyTextureToBuffer(encoder, &from, &to, &copy_size);
  WGPUCommandBuffer commands = wgpuCommandEncoderFinish(encoder, NULL);
  wgpuQueueSubmit(queue, 1, &commands);
  WGPUBufferMapCallbackInfo map_info = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
  map_info.mode = WGPUCallbackMode_WaitAnyOnly;
  map_info.callback = on_mapped;
  WGPUFutureWaitInfo wait = WGPU_FUTURE_WAIT_INFO_INIT;
  wait.future = wgpuBufferMapAsync(readback, WGPUMapMode_Read, 0, 256 * 16, map_info);
  wgpuInstanceWaitAny(instance, 1, &wait, 5000000000ull);
  CHECK(g_mapped == 1, "the frame was read back");
  if (g_mapped == 1) {
    const unsigned char* pixels = (const unsigned char*)wgpuBufferGetConstMappedRange(readback, 0, 256 * 16);
    CHECK(pixels != NULL && pixels[0] == 255 && pixels[1] == 0 && pixels[3] == 255, "the texture was cleared to red");
    wgpuBufferUnmap(readback);
  }
  wgpuInstanceProcessEvents(instance);
  CHECK(g_errors == 0, "Dawn took every object made from the defaults");

  wgpuCommandBufferRelease(commands);
  wgpuRenderPassEncoderRelease(pass);
  wgpuCommandEncoderRelease(encoder);
  wgpuBufferRelease(readback);
  wgpuSamplerRelease(sampler);
  wgpuTextureViewRelease(view);
  wgpuTextureRelease(texture);
  wgpuQueueRelease(queue);
  wgpuDeviceRelease(g_device);
  wgpuAdapterRelease(g_adapter);
  wgpuInstanceRelease(instance);
  if (failures == 0) printf("c_initializers: every WGPU_*_INIT used holds webgpu.h's defaults, and Dawn takes them\n");
  return failures == 0 ? 0 : 1;
}
