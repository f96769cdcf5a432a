#include "warden/core/messages.h"

#include <algorithm>
#include <array>

namespace warden {

namespace {

#define WARDEN_LIBRARY_MESSAGE_INFO(layer, id, number, text) MessageInfo{MessageId::id, #layer, #layer "." #id, text},
constexpr std::array kMessages{WARDEN_MESSAGES(WARDEN_LIBRARY_MESSAGE_INFO)};
#undef WARDEN_LIBRARY_MESSAGE_INFO

// describe() searches the list by value; the layers are listed bottom up and each layer's
// numbers in order, so the list is sorted, and no two ids share a value. Checked here, once.
constexpr bool sorted_and_unique() {
  for (size_t i = 1; i < kMessages.size(); ++i) {
    if (kMessages[i - 1].id >= kMessages[i].id) return false;
  }
  return true;
}
static_assert(sorted_and_unique(), "a message list is out of number order, or two messages share a value");

struct LayerName {
  MessageLayer layer;
  std::string_view name;
  std::string_view category;
};
constexpr std::array kLayers{
    LayerName{MessageLayer::core, "core", "gfx.core"},
    LayerName{MessageLayer::gpu, "gpu", "gfx.gpu"},
    LayerName{MessageLayer::device, "device", "gfx.device"},
    LayerName{MessageLayer::resources, "resources", "gfx.resources"},
    LayerName{MessageLayer::shaders, "shaders", "gfx.shaders"},
    LayerName{MessageLayer::pipelines, "pipelines", "gfx.pipelines"},
    LayerName{MessageLayer::present, "present", "gfx.present"},
    LayerName{MessageLayer::tiles, "tiles", "gfx.tiles"},
    LayerName{MessageLayer::debugdraw, "debugdraw", "gfx.debugdraw"},
    LayerName{MessageLayer::engine, "engine", "gfx.engine"},
    LayerName{MessageLayer::demo, "demo", "demo"},
    LayerName{MessageLayer::app, "app", "app"},
    LayerName{MessageLayer::cli, "cli", "cli"},
};

const LayerName* find_layer(MessageLayer layer) {
  const auto found = std::ranges::find(kLayers, layer, &LayerName::layer);
  return found == kLayers.end() ? nullptr : &*found;
}

}  // namespace

std::span<const MessageInfo> all_messages() { return kMessages; }

const MessageInfo& describe(MessageId id) {
  const auto found = std::ranges::lower_bound(kMessages, id, {}, &MessageInfo::id);
  if (found != kMessages.end() && found->id == id) return *found;
  // A program's message (the library does not list those), or a value cast from a number this
  // build does not list (a newer peer's log, a corrupt field).
  thread_local MessageInfo unknown{{}, "", "unknown", "not a message id of this warden library"};
  unknown.id = id;
  return unknown;
}

std::string_view to_string(MessageId id) { return describe(id).name; }

std::string_view to_string(MessageLayer layer) {
  const LayerName* found = find_layer(layer);
  return found ? found->name : "unknown";
}

std::string_view category_of(MessageId id) {
  const LayerName* found = find_layer(layer_of(id));
  return found ? found->category : "unknown";
}

}  // namespace warden
