// Every enumerator of every enum warden shows by name has one: each to_string(Enum) is checked
// over all values 0..63, and for each value that is an enumerator (the compiler says which, see
// is_enumerator) the name must be listed, that is not "unknown" unless the enumerator is itself
// called Unknown, and no two enumerators of one enum may share a name.
#include "warden/core/enum_names.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "warden/core/diagnostics.h"
#include "warden/core/handle.h"
#include "warden/core/result.h"
#include "warden/demo/camera.h"
#include "warden/demo/report.h"
#include "warden/demo/tile_map_demo.h"
#include "warden/device/controller.h"
#include "warden/device/device_end_policy.h"
#include "warden/device/rebuild_policy.h"
#include "warden/engine/engine.h"
#include "warden/gpu/context.h"
#include "warden/gpu/ledger.h"
#include "warden/gpu/names.h"
#include "warden/present/surface.h"
#include "warden/resources/registry.h"
#include "warden/tiles/tile_cache.h"
#include "warden/tiles/tile_gpu.h"
#include "warden/tiles/upload_ring.h"

namespace warden {
namespace {

using gpu::to_string;      // webgpu.h's enums are global: no argument-dependent lookup finds these
using present::to_string;  // the surface statuses and present modes are named by the present layer

// The compiler's own spelling of the template argument V: "...V = warden::Severity::Info]" for
// an enumerator, "...V = (warden::Severity)7]" for a value no enumerator names (GCC and clang).
template <auto V>
constexpr std::string_view spelling() {
  std::string_view f = __PRETTY_FUNCTION__;
  f = f.substr(f.rfind("V = ") + 4);
  return f.substr(0, f.find_first_of("];"));
}

template <auto V>
constexpr bool is_enumerator() {
  return spelling<V>().front() != '(';
}

template <typename Enum, size_t... I>
void expect_every_enumerator_named(std::index_sequence<I...>) {
  std::set<std::string> names;
  size_t enumerators = 0;
  auto check = [&]<auto V>() {
    if constexpr (is_enumerator<V>()) {
      ++enumerators;
      const std::string_view enumerator = spelling<V>();
      const std::string name = to_string(V);
      EXPECT_FALSE(name.empty()) << enumerator;
      if (!enumerator.ends_with("::Unknown") && !enumerator.ends_with("_Unknown")) {
        EXPECT_NE(name, "unknown") << enumerator << " has no name";
      }
      EXPECT_TRUE(names.insert(name).second) << enumerator << "'s name '" << name << "' is another's too";
    }
  };
  (check.template operator()<static_cast<Enum>(I)>(), ...);
  EXPECT_GE(enumerators, 2u) << "the scan found the enum's enumerators";
}

template <typename Enum>
void expect_every_enumerator_named() {
  expect_every_enumerator_named<Enum>(std::make_index_sequence<64>{});
}

TEST(EnumNames, TheSpellingTellsEnumeratorsFromOtherValues) {
  static_assert(is_enumerator<Severity::Warning>());
  static_assert(!is_enumerator<static_cast<Severity>(9)>());
  EXPECT_EQ(spelling<Severity::Warning>(), "warden::Severity::Warning");
}

TEST(EnumNames, AValueTheTableDoesNotListIsUnnamed) {
  enum class Colour { Red, Green, Blue };
  constexpr EnumName<Colour> kNames[] = {{Colour::Red, "red"}, {Colour::Green, "green"}};
  static_assert(std::string_view(name_in(kNames, Colour::Green)) == "green");
  EXPECT_STREQ(name_in(kNames, Colour::Blue), "unknown");
  EXPECT_STREQ(name_in(kNames, Colour::Blue, "?"), "?");
}

TEST(EnumNames, EveryEnumeratorHasAName) {
  expect_every_enumerator_named<Severity>();
  expect_every_enumerator_named<ErrorKind>();
  expect_every_enumerator_named<ResourceKind>();
  expect_every_enumerator_named<WGPUBackendType>();
  expect_every_enumerator_named<WGPUAdapterType>();
  expect_every_enumerator_named<WGPUFeatureLevel>();
  expect_every_enumerator_named<WGPUErrorType>();
  expect_every_enumerator_named<WGPUDeviceLostReason>();
  expect_every_enumerator_named<WGPUTextureFormat>();
  expect_every_enumerator_named<gpu::BackendChoice>();
  expect_every_enumerator_named<gpu::ObjectType>();
  expect_every_enumerator_named<device::DeviceEnd>();
  expect_every_enumerator_named<device::FaultKind>();
  expect_every_enumerator_named<device::DeviceState>();
  expect_every_enumerator_named<resources::Ownership>();
  expect_every_enumerator_named<resources::SlotState>();
  expect_every_enumerator_named<resources::ContentsSource>();
  expect_every_enumerator_named<WGPUSurfaceGetCurrentTextureStatus>();
  expect_every_enumerator_named<WGPUPresentMode>();
  expect_every_enumerator_named<tiles::LoadStatus>();
  expect_every_enumerator_named<tiles::UploadPath>();
  expect_every_enumerator_named<tiles::MipPath>();
  expect_every_enumerator_named<engine::EngineState>();
  expect_every_enumerator_named<demo::ReportEventKind>();
  expect_every_enumerator_named<demo::PlannedFaultKind>();
  expect_every_enumerator_named<demo::MapLayer>();
}

}  // namespace
}  // namespace warden
