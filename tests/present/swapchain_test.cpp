// The swapchain against the real library (GL over llvmpipe) on a GLFW window under Xvfb. The
// statuses the library will not produce on demand (Outdated, Lost, Timeout) come through the
// SurfaceDriver seam, wrapped around the real calls.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <deque>
#include <random>

#include "support/gpu_test.h"
#include "support/error_object.h"
#include "support/messages.h"
#include "support/xvfb.h"
#include "warden/present/swapchain.h"
#include "warden/present/window.h"
#include "warden/gpu/objects.h"

namespace warden::present {
namespace {

using ::testing::HasSubstr;
using testing::FailsWith;
using testing::NamesKind;
using testing::NamesLabel;
using ::testing::IsEmpty;
using Status = WGPUSurfaceGetCurrentTextureStatus;

// The real driver, with statuses injected ahead of the real GetCurrentTexture.
class InjectingDriver : public DawnSurfaceDriver {
 public:
  using DawnSurfaceDriver::DawnSurfaceDriver;
  std::deque<Status> injected;
  int current_texture_calls = 0;
  WGPUSurfaceTexture current_texture(WGPUSurface surface) override {
    ++current_texture_calls;
    if (injected.empty()) return DawnSurfaceDriver::current_texture(surface);
    WGPUSurfaceTexture st{};
    st.status = injected.front();
    injected.pop_front();
    return st;
  }
};

class SwapchainTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WARDEN_SKIP_WITHOUT_DISPLAY();
    auto opened = Window::open({.title = "swapchain test", .width = 64, .height = 48});
    ASSERT_TRUE(opened) << opened.error().message;
    window = std::move(opened.value());
    dev = testing::open_test_device(gpu::BackendChoice::GL);
    ASSERT_NE(dev, nullptr);
    registry = std::make_unique<resources::Registry>(*dev->context, dev->device.get(), dev->queue.get());
    driver = std::make_unique<InjectingDriver>(dev->procs());
    SwapchainOptions options;
    options.rebuild = &rebuild;
    swapchain = std::make_unique<Swapchain>(*dev->context, window->surface_source(), 64, 48, options, driver.get());
    ASSERT_TRUE(swapchain->attach({.device = dev->device.get(), .registry = registry.get(), .on_first_present = {}}));
  }

  void TearDown() override {
    swapchain.reset();
    registry.reset();
    if (dev) {
      dev->queue.reset();
      dev->device.reset();
      dev->adapter.adapter.reset();
      dev->context->process_events();
    }
  }

  // Clears the frame, submits and presents it.
  void draw_and_present(const SwapchainImage& frame) {
    const gpu::Procs& procs = dev->procs();
    auto view = registry->resolve(frame.view);
    ASSERT_TRUE(view) << view.error().message;
    WGPUCommandEncoder encoder = procs.DeviceCreateCommandEncoder(dev->device.get(), nullptr);
    WGPURenderPassEncoder pass = gpu::begin_clear_pass(procs, encoder, *view, WGPUColor{0, 0.5, 1, 1});
    procs.RenderPassEncoderEnd(pass);
    procs.RenderPassEncoderRelease(pass);
    WGPUCommandBuffer commands = procs.CommandEncoderFinish(encoder, nullptr);
    registry->touch(frame.view);
    registry->submit(commands);
    procs.CommandBufferRelease(commands);
    procs.CommandEncoderRelease(encoder);
    ASSERT_TRUE(swapchain->present());
    registry->poll();
  }

  device::RebuildPolicy rebuild;
  std::unique_ptr<Window> window;
  std::unique_ptr<testing::TestDevice> dev;
  std::unique_ptr<resources::Registry> registry;
  std::unique_ptr<InjectingDriver> driver;
  std::unique_ptr<Swapchain> swapchain;
};

TEST_F(SwapchainTest, ResizeStormOf300FramesSkipsExactlyTheZeroAreaFramesAndReconfiguresOnlyOnSizeChange) {
  std::mt19937 rng(20261130);
  std::uniform_int_distribution<uint32_t> side(1, 160);
  std::uniform_int_distribution<int> pick(0, 9);
  std::uniform_int_distribution<int> hold(1, 4);
  uint64_t expected_skips = 0;
  uint64_t one_by_one_frames = 0;
  uint64_t expected_configures = 0;
  WindowSize configured{};
  int frames_left_at_this_size = 0;
  for (int frame_index = 0; frame_index < 300; ++frame_index) {
    if (frames_left_at_this_size-- == 0) {
      frames_left_at_this_size = hold(rng);
      const int kind = pick(rng);
      if (kind == 0) {
        window->minimise();  // 0x0
      } else {
        window->restore();
        const WindowSize size = kind == 1 ? WindowSize{1, 1} : WindowSize{side(rng), side(rng)};
        ASSERT_TRUE(window->set_size(size.width, size.height));
      }
    }
    window->poll_events();
    const WindowSize size = window->framebuffer_size();
    swapchain->resize(size.width, size.height);

    auto frame = swapchain->acquire();
    ASSERT_TRUE(frame) << "frame " << frame_index << ": " << frame.error().message;
    if (!size.has_area()) {
      ++expected_skips;
      EXPECT_FALSE(frame->has_value()) << "frame " << frame_index;
      continue;
    }
    if (size.width == 1 && size.height == 1) ++one_by_one_frames;
    if (size.width != configured.width || size.height != configured.height) ++expected_configures;
    configured = size;
    ASSERT_TRUE(frame->has_value()) << "frame " << frame_index;
    EXPECT_EQ((*frame)->width, size.width);
    EXPECT_EQ((*frame)->height, size.height);
    draw_and_present(**frame);
  }
  const SwapchainCounters& counters = swapchain->counters();
  EXPECT_GT(expected_skips, 0u) << "the storm includes 0x0";
  EXPECT_GT(one_by_one_frames, 0u) << "the storm includes 1x1";
  EXPECT_GT(expected_configures, 10u);
  EXPECT_EQ(counters.frames_skipped, expected_skips);
  EXPECT_EQ(counters.frames_presented, 300 - expected_skips);
  EXPECT_EQ(counters.configures, expected_configures);
  EXPECT_EQ(counters.retries, 0u);
  EXPECT_EQ(counters.surface_failures, 0u);
  EXPECT_THAT(dev->take_errors(), IsEmpty());
}

TEST_F(SwapchainTest, OutdatedOnAcquireReconfiguresOnceRetriesOnceAndSucceeds) {
  driver->injected = {WGPUSurfaceGetCurrentTextureStatus_Outdated};
  auto frame = swapchain->acquire();
  ASSERT_TRUE(frame) << frame.error().message;
  ASSERT_TRUE(frame->has_value());
  EXPECT_EQ(driver->current_texture_calls, 2);
  EXPECT_EQ(swapchain->counters().configures, 2u) << "the first configure, then one for the retry";
  EXPECT_EQ(swapchain->counters().retries, 1u);
  EXPECT_EQ(swapchain->counters().surface_failures, 0u);
  draw_and_present(**frame);
  EXPECT_EQ(rebuild.strikes(device::FaultKind::Surface), 0u);
  EXPECT_THAT(dev->take_errors(), IsEmpty());
}

TEST_F(SwapchainTest, LostTwiceIsAClearErrorAfterOneRetryScoredAsASurfaceFaultNotADeviceLoss) {
  driver->injected = {WGPUSurfaceGetCurrentTextureStatus_Lost, WGPUSurfaceGetCurrentTextureStatus_Lost};
  auto frame = swapchain->acquire();
  ASSERT_THAT(frame, FailsWith(MessageId::SwapchainSurfaceNoFrame));
  EXPECT_THAT(frame, NamesKind("swapchain"));
  EXPECT_THAT(frame, NamesLabel("swapchain"));
  EXPECT_THAT(frame.error().message, HasSubstr("the surface gave no frame at 64x48"));
  EXPECT_THAT(frame.error().message, HasSubstr("lost, then lost after reconfiguring once"));
  EXPECT_EQ(driver->current_texture_calls, 2) << "exactly one retry";
  EXPECT_EQ(swapchain->counters().retries, 1u);
  EXPECT_EQ(swapchain->counters().surface_failures, 1u);
  EXPECT_EQ(rebuild.strikes(device::FaultKind::Surface), 1u);
  EXPECT_EQ(rebuild.strikes(device::FaultKind::Lost), 0u);

  // The surface itself is fine again: the next acquire gets a frame.
  auto next = swapchain->acquire();
  ASSERT_TRUE(next) << next.error().message;
  ASSERT_TRUE(next->has_value());
  draw_and_present(**next);
}

TEST_F(SwapchainTest, TimeoutThenOutdatedIsAnErrorNamingBoth) {
  driver->injected = {WGPUSurfaceGetCurrentTextureStatus_Timeout, WGPUSurfaceGetCurrentTextureStatus_Outdated};
  auto frame = swapchain->acquire();
  ASSERT_THAT(frame, FailsWith(MessageId::SwapchainSurfaceNoFrame));
  EXPECT_THAT(frame.error().message, HasSubstr("timeout, then outdated after reconfiguring once"));
  EXPECT_EQ(driver->current_texture_calls, 2);
}

TEST_F(SwapchainTest, StatusErrorIsNotRetried) {
  driver->injected = {WGPUSurfaceGetCurrentTextureStatus_Error};
  auto frame = swapchain->acquire();
  ASSERT_THAT(frame, FailsWith(MessageId::SwapchainSurfaceNoFrame));
  EXPECT_THAT(frame.error().message, HasSubstr("(error)"));
  EXPECT_EQ(driver->current_texture_calls, 1);
  EXPECT_EQ(swapchain->counters().retries, 0u);
  EXPECT_EQ(swapchain->counters().surface_failures, 1u);
}

TEST_F(SwapchainTest, TheFrameViewIsImportedIntoTheRegistryUntilPresent) {
  auto frame = swapchain->acquire();
  ASSERT_TRUE(frame && frame->has_value());
  const TextureViewHandle view = (*frame)->view;
  EXPECT_TRUE(registry->is_alive(view));
  EXPECT_EQ(registry->ownership(view), resources::Ownership::Imported);
  EXPECT_EQ(registry->live_counts().of(ResourceKind::TextureView), 1u);
  draw_and_present(**frame);
  EXPECT_FALSE(registry->is_alive(view));
  EXPECT_EQ(registry->live_counts().of(ResourceKind::TextureView), 0u);
}

TEST_F(SwapchainTest, MisuseIsRefusedWithTheReason) {
  auto no_frame = swapchain->present();
  EXPECT_THAT(no_frame, FailsWith(MessageId::SwapchainPresentWithoutFrame));
  auto frame = swapchain->acquire();
  ASSERT_TRUE(frame && frame->has_value());
  auto again = swapchain->acquire();
  EXPECT_THAT(again, FailsWith(MessageId::SwapchainAcquireInFlight));
  swapchain->detach();
  EXPECT_FALSE(registry->is_alive((*frame)->view)) << "detach drops the frame in flight";
  auto detached = swapchain->acquire();
  EXPECT_THAT(detached, FailsWith(MessageId::SwapchainAcquireDetached));
}

TEST(Window, ZeroSizeIsRefusedAndMinimiseTakesTheAreaAway) {
  WARDEN_SKIP_WITHOUT_DISPLAY();
  auto zero = Window::open({.title = "zero", .width = 0, .height = 10});
  ASSERT_THAT(zero, FailsWith(MessageId::WindowZeroSize));
  EXPECT_THAT(zero.error().message, HasSubstr("size 0x10 has no area"));

  auto opened = Window::open({.title = "window test", .width = 50, .height = 40});
  ASSERT_TRUE(opened) << opened.error().message;
  Window& window = **opened;
  EXPECT_EQ(window.framebuffer_size().width, 50u);
  EXPECT_EQ(window.framebuffer_size().height, 40u);
  ASSERT_TRUE(window.set_size(90, 30));
  window.poll_events();
  EXPECT_EQ(window.framebuffer_size().width, 90u);
  EXPECT_EQ(window.framebuffer_size().height, 30u);
  EXPECT_THAT(window.set_size(0, 30), FailsWith(MessageId::WindowZeroSize));
  window.minimise();
  EXPECT_FALSE(window.framebuffer_size().has_area());
  window.restore();
  EXPECT_TRUE(window.framebuffer_size().has_area());
  EXPECT_FALSE(window.should_close());
  window.request_close();
  EXPECT_TRUE(window.should_close());
}

TEST(Window, WithoutADisplayOpeningSaysSo) {
  WARDEN_SKIP_WITHOUT_DISPLAY();
  const std::string saved = std::getenv("DISPLAY");
  ::unsetenv("DISPLAY");
  auto opened = Window::open();
  ::setenv("DISPLAY", saved.c_str(), 1);
  EXPECT_THAT(opened, FailsWith(MessageId::DisplayNotSet));
}

}  // namespace
}  // namespace warden::present
