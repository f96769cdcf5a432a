// Links warden::window and calls into it: prints whether an X display can be opened, with the
// message id of the answer. Run without DISPLAY, it must print warden's DisplayNotSet.
#include <cstdio>
#include <string>

#include "warden/core/messages.h"
#include "warden/present/window.h"

int main() {
  auto display = warden::present::check_display();
  if (display) {
    std::puts("display: answers");
    return 0;
  }
  std::printf("display: %s: %s\n", std::string(warden::to_string(display.error().id)).c_str(),
              display.error().message.c_str());
  return 0;
}
