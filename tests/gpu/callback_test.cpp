// gpu/callback.h: the callback-info a handler becomes, called here as webgpu.h calls it (the
// callback's arguments, then userdata1 and userdata2).
#include "warden/gpu/callback.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace warden::gpu {
namespace {

template <typename Info, typename... Args>
void call_as_webgpu_does(const Info& info, Args... args) {
  info.callback(args..., info.userdata1, info.userdata2);
}

TEST(Callback, AOnceCallbackCallsItsHandlerWithTheArgumentsAndThenFreesIt) {
  auto held = std::make_shared<int>(7);
  std::weak_ptr<int> watch = held;
  WGPUQueueWorkDoneStatus seen_status{};
  std::string seen_message;
  auto info = once_callback<WGPUQueueWorkDoneCallbackInfo>(
      WGPUCallbackMode_WaitAnyOnly, [&, held = std::move(held)](WGPUQueueWorkDoneStatus status, WGPUStringView message) {
        seen_status = status;
        seen_message = std::string(gpu::to_std(message));
        EXPECT_EQ(*held, 7) << "what the handler holds lives until its call";
      });
  EXPECT_EQ(info.mode, WGPUCallbackMode_WaitAnyOnly);
  EXPECT_FALSE(watch.expired()) << "kept until webgpu.h calls it";
  call_as_webgpu_does(info, WGPUQueueWorkDoneStatus_Success, gpu::string_view(std::string_view("done")));
  EXPECT_EQ(seen_status, WGPUQueueWorkDoneStatus_Success);
  EXPECT_EQ(seen_message, "done");
  EXPECT_TRUE(watch.expired()) << "the one call frees the handler and what it holds";
}

TEST(Callback, ABorrowedCallbackCallsTheCallersHandlerEachTime) {
  int calls = 0;
  WGPUErrorType last{};
  auto on_error = [&](const WGPUDevice*, WGPUErrorType type, WGPUStringView) {
    ++calls;
    last = type;
  };
  const auto info = borrowed_callback<WGPUUncapturedErrorCallbackInfo>(on_error);
  EXPECT_EQ(info.userdata1, static_cast<void*>(&on_error));
  call_as_webgpu_does(info, static_cast<const WGPUDevice*>(nullptr), WGPUErrorType_Validation, WGPUStringView{});
  call_as_webgpu_does(info, static_cast<const WGPUDevice*>(nullptr), WGPUErrorType_NoError, WGPUStringView{});
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(last, WGPUErrorType_NoError);

  int mapped = 0;
  auto on_mapped = [&](WGPUMapAsyncStatus status, WGPUStringView) { mapped += status == WGPUMapAsyncStatus_Success; };
  const auto map = borrowed_callback<WGPUBufferMapCallbackInfo>(WGPUCallbackMode_AllowProcessEvents, on_mapped);
  EXPECT_EQ(map.mode, WGPUCallbackMode_AllowProcessEvents);
  call_as_webgpu_does(map, WGPUMapAsyncStatus_Success, WGPUStringView{});
  EXPECT_EQ(mapped, 1);
}

}  // namespace
}  // namespace warden::gpu
