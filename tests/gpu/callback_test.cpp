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
  QueueWorkDoneStatus seen_status{};
  std::string seen_message;
  auto info = once_callback<QueueWorkDoneCallbackInfo>(
      CallbackMode::WaitAnyOnly, [&, held = std::move(held)](QueueWorkDoneStatus status, StringView message) {
        seen_status = status;
        seen_message = std::string(message.view());
        EXPECT_EQ(*held, 7) << "what the handler holds lives until its call";
      });
  EXPECT_EQ(info.mode, CallbackMode::WaitAnyOnly);
  EXPECT_FALSE(watch.expired()) << "kept until webgpu.h calls it";
  call_as_webgpu_does(info, QueueWorkDoneStatus::Success, StringView(std::string_view("done")));
  EXPECT_EQ(seen_status, QueueWorkDoneStatus::Success);
  EXPECT_EQ(seen_message, "done");
  EXPECT_TRUE(watch.expired()) << "the one call frees the handler and what it holds";
}

TEST(Callback, ABorrowedCallbackCallsTheCallersHandlerEachTime) {
  int calls = 0;
  ErrorType last{};
  auto on_error = [&](const Device*, ErrorType type, StringView) {
    ++calls;
    last = type;
  };
  const auto info = borrowed_callback<UncapturedErrorCallbackInfo>(on_error);
  EXPECT_EQ(info.userdata1, static_cast<void*>(&on_error));
  call_as_webgpu_does(info, static_cast<const Device*>(nullptr), ErrorType::Validation, StringView{});
  call_as_webgpu_does(info, static_cast<const Device*>(nullptr), ErrorType::NoError, StringView{});
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(last, ErrorType::NoError);

  int mapped = 0;
  auto on_mapped = [&](MapAsyncStatus status, StringView) { mapped += status == MapAsyncStatus::Success; };
  const auto map = borrowed_callback<BufferMapCallbackInfo>(CallbackMode::AllowProcessEvents, on_mapped);
  EXPECT_EQ(map.mode, CallbackMode::AllowProcessEvents);
  call_as_webgpu_does(map, MapAsyncStatus::Success, StringView{});
  EXPECT_EQ(mapped, 1);
}

}  // namespace
}  // namespace warden::gpu
