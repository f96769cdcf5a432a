// gpu::ErrorCapture: which capture an offered error reaches (docs/adr/0043).
#include "gpu/error_capture.h"

#include <gtest/gtest.h>

#include <thread>

namespace warden::gpu {
namespace {

WGPUDevice fake_device(uintptr_t n) { return reinterpret_cast<WGPUDevice>(n * 16); }

TEST(ErrorCapture, AnErrorWithNoCaptureOfItsDeviceOnThisThreadIsNotTaken) {
  EXPECT_FALSE(ErrorCapture::offer(fake_device(1), WGPUErrorType_Validation, string_view("nobody")));
  ErrorCapture other(fake_device(2));
  EXPECT_FALSE(ErrorCapture::offer(fake_device(1), WGPUErrorType_Validation, string_view("another device")));
  EXPECT_FALSE(other.caught());
}

TEST(ErrorCapture, TheInnermostCaptureOfTheDeviceKeepsTheFirstError) {
  ErrorCapture outer(fake_device(1));
  {
    ErrorCapture other_device(fake_device(2));
    ErrorCapture inner(fake_device(1));
    EXPECT_TRUE(ErrorCapture::offer(fake_device(1), WGPUErrorType_Validation, string_view("first")));
    EXPECT_TRUE(ErrorCapture::offer(fake_device(1), WGPUErrorType_OutOfMemory, string_view("second")));
    EXPECT_TRUE(inner.caught());
    EXPECT_EQ(inner.type(), WGPUErrorType_Validation);
    EXPECT_EQ(inner.message(), "first");
    EXPECT_FALSE(other_device.caught());
  }
  EXPECT_FALSE(outer.caught());
  // Once the inner ones ended, the outer one takes what comes.
  EXPECT_TRUE(ErrorCapture::offer(fake_device(1), WGPUErrorType_Internal, string_view("later")));
  EXPECT_EQ(outer.type(), WGPUErrorType_Internal);
}

TEST(ErrorCapture, ACaptureOnAnotherThreadTakesNothingHere) {
  ErrorCapture here(fake_device(1));
  bool taken = true;
  std::thread([&] { taken = ErrorCapture::offer(fake_device(1), WGPUErrorType_Validation, string_view("there")); }).join();
  EXPECT_FALSE(taken);
  EXPECT_FALSE(here.caught());
}

TEST(ErrorCapture, AMarkIsForgottenOnlyByItsOwner) {
  const int first = 0, second = 0;
  mark_capturing(fake_device(7), &first);
  EXPECT_TRUE(errors_reach_capture(fake_device(7)));
  mark_capturing(fake_device(7), &second);  // a new device at the same address
  forget_capturing(&first);
  EXPECT_TRUE(errors_reach_capture(fake_device(7)));
  forget_capturing(&second);
  EXPECT_FALSE(errors_reach_capture(fake_device(7)));
}

}  // namespace
}  // namespace warden::gpu
