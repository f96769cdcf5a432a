// Proves the surface half of warden's ABI declarations against the real library: an X11 window
// under a private Xvfb, the GL backend. Each declared struct is checked by a value that could
// only come back right if its fields sit where the library reads them, and each enum value by
// the library naming it in a validation message or returning it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "support/error_scope.h"
#include "support/gpu_test.h"
#include "support/xvfb.h"
#include "warden/gpu/names.h"
#include "warden/gpu/objects.h"

namespace warden {
namespace {

using namespace gpu;
using ::testing::HasSubstr;

class SurfaceAbiTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!testing::display_withheld()) testing::use_xvfb_display();
  }

  void SetUp() override {
    WARDEN_SKIP_WITHOUT_DISPLAY();
    auto opened = testing::X11TestWindow::open(96, 64);
    ASSERT_TRUE(opened) << opened.error().message;
    window = std::move(opened.value());
    dev = testing::open_test_device(BackendChoice::GL);
    ASSERT_NE(dev, nullptr);
    WGPUSurfaceSourceXlibWindow source{};
    source.chain.sType = WGPUSType_SurfaceSourceXlibWindow;
    source.display = window->display();
    source.window = window->window();
    WGPUSurfaceDescriptor desc{};
    desc.nextInChain = &source.chain;
    desc.label = gpu::string_view("abi surface");
    surface = procs().InstanceCreateSurface(dev->context->instance(), &desc);
    ASSERT_NE(surface, nullptr);
  }

  void TearDown() override {
    if (surface != nullptr) procs().SurfaceRelease(surface);
    if (dev) {
      dev->queue.reset();
      dev->device.reset();
      dev->adapter.adapter.reset();
      dev->context->process_events();
    }
    dev.reset();
    window.reset();
  }

  const Procs& procs() const { return dev->procs(); }

  WGPUSurfaceConfiguration configuration(uint32_t width, uint32_t height) const {
    WGPUSurfaceConfiguration config{};
    config.device = dev->device.get();
    config.format = WGPUTextureFormat_RGBA8Unorm;
    config.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc;
    config.width = width;
    config.height = height;
    config.alphaMode = WGPUCompositeAlphaMode_Auto;
    config.presentMode = WGPUPresentMode_Fifo;
    return config;
  }

  std::unique_ptr<testing::X11TestWindow> window;
  std::unique_ptr<testing::TestDevice> dev;
  WGPUSurface surface = nullptr;
};

// The counts and pointers land in the right fields: this build's GL surface offers exactly
// rgba8unorm and rgba8unorm-srgb, Fifo, Immediate and Mailbox, Opaque, and every usage.
TEST_F(SurfaceAbiTest, CapabilitiesListFormatsPresentModesAndAlphaModes) {
  WGPUSurfaceCapabilities caps{};
  ASSERT_EQ(procs().SurfaceGetCapabilities(surface, dev->adapter.adapter.get(), &caps), WGPUStatus_Success);
  const std::vector<WGPUTextureFormat> formats(caps.formats, caps.formats + caps.formatCount);
  const std::vector<WGPUPresentMode> modes(caps.presentModes, caps.presentModes + caps.presentModeCount);
  const std::vector<WGPUCompositeAlphaMode> alphas(caps.alphaModes, caps.alphaModes + caps.alphaModeCount);
  const WGPUTextureUsage usages = caps.usages;
  procs().SurfaceCapabilitiesFreeMembers(caps);
  EXPECT_THAT(formats, ::testing::ElementsAre(WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_RGBA8UnormSrgb));
  EXPECT_THAT(modes, ::testing::ElementsAre(WGPUPresentMode_Fifo, WGPUPresentMode_Immediate, WGPUPresentMode_Mailbox));
  EXPECT_THAT(alphas, ::testing::ElementsAre(WGPUCompositeAlphaMode_Opaque));
  const WGPUTextureUsage all = WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst | WGPUTextureUsage_TextureBinding |
                    WGPUTextureUsage_StorageBinding | WGPUTextureUsage_RenderAttachment;
  EXPECT_EQ(usages, all);
}

TEST_F(SurfaceAbiTest, ConfiguredSurfaceHandsOutTexturesOfTheConfiguredSizeFormatAndUsage) {
  const WGPUSurfaceConfiguration config = configuration(80, 48);
  procs().SurfaceConfigure(surface, &config);
  WGPUSurfaceTexture st{};
  procs().SurfaceGetCurrentTexture(surface, &st);
  ASSERT_EQ(st.status, WGPUSurfaceGetCurrentTextureStatus_SuccessOptimal);
  ASSERT_NE(st.texture, nullptr);
  EXPECT_EQ(procs().TextureGetWidth(st.texture), 80u);
  EXPECT_EQ(procs().TextureGetHeight(st.texture), 48u);
  EXPECT_EQ(procs().TextureGetFormat(st.texture), WGPUTextureFormat_RGBA8Unorm);
  EXPECT_EQ(procs().TextureGetUsage(st.texture), config.usage);

  WGPUTextureView view = procs().TextureCreateView(st.texture, nullptr);
  WGPUCommandEncoder encoder = procs().DeviceCreateCommandEncoder(dev->device.get(), nullptr);
  WGPURenderPassEncoder pass = begin_clear_pass(procs(), encoder, view, WGPUColor{1, 0, 0, 1});
  procs().RenderPassEncoderEnd(pass);
  procs().RenderPassEncoderRelease(pass);
  WGPUCommandBuffer commands = procs().CommandEncoderFinish(encoder, nullptr);
  procs().QueueSubmit(dev->queue.get(), 1, &commands);
  procs().CommandBufferRelease(commands);
  procs().CommandEncoderRelease(encoder);
  procs().SurfacePresent(surface);
  procs().TextureViewRelease(view);
  procs().TextureRelease(st.texture);
  procs().SurfaceUnconfigure(surface);
  EXPECT_THAT(dev->take_errors(), ::testing::IsEmpty());
}

// The surface's capabilities are asked of the device's adapter: the device hands back a new
// reference to the very adapter it was requested from.
TEST_F(SurfaceAbiTest, DeviceGetAdapterReturnsTheAdapterTheDeviceCameFrom) {
  WGPUAdapter adapter = procs().DeviceGetAdapter(dev->device.get());
  EXPECT_EQ(adapter, dev->adapter.adapter.get());
  procs().AdapterRelease(adapter);
}

TEST_F(SurfaceAbiTest, UnconfiguredSurfaceReportsStatusErrorAndNoTexture) {
  WGPUSurfaceTexture st{};
  st.status = WGPUSurfaceGetCurrentTextureStatus_SuccessOptimal;
  procs().SurfaceGetCurrentTexture(surface, &st);
  EXPECT_EQ(st.status, WGPUSurfaceGetCurrentTextureStatus_Error);
  EXPECT_EQ(st.texture, nullptr);
}

// The library names what it received: each value it refuses here is printed by its name.
TEST_F(SurfaceAbiTest, ValidationNamesThePresentModeAlphaModeAndFormatItReceived) {
  WGPUSurfaceConfiguration config = configuration(32, 32);
  config.presentMode = WGPUPresentMode_FifoRelaxed;
  EXPECT_THAT(testing::validation_message(*dev, [&] { procs().SurfaceConfigure(surface, &config); }),
              HasSubstr("Present mode (PresentMode::FifoRelaxed) is not supported"));
  config.presentMode = WGPUPresentMode_Fifo;
  const std::pair<WGPUCompositeAlphaMode, const char*> refused[] = {
      {WGPUCompositeAlphaMode_Premultiplied, "CompositeAlphaMode::Premultiplied"},
      {WGPUCompositeAlphaMode_Unpremultiplied, "CompositeAlphaMode::Unpremultiplied"},
      {WGPUCompositeAlphaMode_Inherit, "CompositeAlphaMode::Inherit"},
  };
  for (const auto& [mode, name] : refused) {
    config.alphaMode = mode;
    EXPECT_THAT(testing::validation_message(*dev, [&] { procs().SurfaceConfigure(surface, &config); }),
                HasSubstr(std::string("Alpha mode (") + name + ") is not supported"));
  }
  config.alphaMode = WGPUCompositeAlphaMode_Auto;
  config.format = WGPUTextureFormat_RGBA32Float;
  EXPECT_THAT(testing::validation_message(*dev, [&] { procs().SurfaceConfigure(surface, &config); }),
              HasSubstr("Format (TextureFormat::RGBA32Float) is not supported"));
  // The values it accepts configure without a message.
  config.format = WGPUTextureFormat_RGBA8Unorm;
  for (WGPUPresentMode mode : {WGPUPresentMode_Fifo, WGPUPresentMode_Immediate, WGPUPresentMode_Mailbox}) {
    config.presentMode = mode;
    EXPECT_EQ(testing::validation_message(*dev, [&] { procs().SurfaceConfigure(surface, &config); }), "");
  }
  procs().SurfaceUnconfigure(surface);
}

}  // namespace
}  // namespace warden
