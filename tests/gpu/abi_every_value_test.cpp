// Proves every value of the header's largest enums against the real library, not a chosen few:
// each value is handed to Dawn where its validation names it ("TextureFormat::RGBA8Unorm",
// "VertexFormat::Float32x4"), so a value the header numbers wrong is named wrong here. The
// values come from the generated list of every enumerator (webgpu/warden_enum_names.inc), so a
// value the header gains is tested without a change here; tools/webgpu-header/proven.mjs lists
// these enums whole.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <webgpu/warden_enum_names.inc>

#include "support/error_scope.h"
#include "support/gpu_test.h"

namespace warden {
namespace {

using testing::NullDeviceTest;
using testing::validation_message;
using ::testing::HasSubstr;

// "WGPUTextureFormat_RGBA8Unorm" as Dawn prints it: "TextureFormat::RGBA8Unorm".
std::string dawn_spelling(std::string_view enumerator) {
  enumerator.remove_prefix(4);  // "WGPU"
  const size_t underscore = enumerator.find('_');
  return std::string(enumerator.substr(0, underscore)) + "::" + std::string(enumerator.substr(underscore + 1));
}

// Whether `message` names `name` whole: "TextureFormat::BC1RGBAUnorm" is not named by
// "TextureFormat::BC1RGBAUnormSrgb".
bool names(const std::string& message, const std::string& name) {
  for (size_t at = message.find(name); at != std::string::npos; at = message.find(name, at + 1)) {
    const size_t end = at + name.size();
    if (end == message.size() || !std::isalnum(static_cast<unsigned char>(message[end]))) return true;
  }
  return false;
}

template <typename Enum>
struct Enumerator {
  Enum value;
  std::string dawn_name;
};

#define WARDEN_TEST_ENUMERATOR(Name, Spelling) {Name, dawn_spelling(#Name)},

std::vector<Enumerator<WGPUTextureFormat>> every_texture_format() {
  std::vector<Enumerator<WGPUTextureFormat>> all = {WARDEN_WEBGPU_NAMES_WGPUTextureFormat(WARDEN_TEST_ENUMERATOR)};
  std::erase_if(all, [](const auto& e) { return e.value == WGPUTextureFormat_Undefined; });
  return all;
}

std::vector<Enumerator<WGPUVertexFormat>> every_vertex_format() {
  return {WARDEN_WEBGPU_NAMES_WGPUVertexFormat(WARDEN_TEST_ENUMERATOR)};
}

std::vector<Enumerator<WGPUSType>> every_stype() { return {WARDEN_WEBGPU_NAMES_WGPUSType(WARDEN_TEST_ENUMERATOR)}; }

#undef WARDEN_TEST_ENUMERATOR

// Every texture format: a texture of it is made, or refused with the format named (a format of
// a feature the device lacks). A made one is asked for a view in a format it cannot be viewed
// as, and Dawn names the texture's own format; its getter gives the value back.
TEST_F(NullDeviceTest, EveryTextureFormatOfTheHeaderIsNamedByTheLibrary) {
  const auto& p = dev->procs();
  const auto formats = every_texture_format();
  ASSERT_GT(formats.size(), 100u);
  int made = 0;
  for (const auto& [format, name] : formats) {
    WGPUTextureDescriptor d{};
    d.dimension = WGPUTextureDimension_2D;
    d.size = {4, 4, 1};
    d.mipLevelCount = 1;
    d.sampleCount = 1;
    d.format = format;
    d.usage = WGPUTextureUsage_TextureBinding;
    WGPUTexture texture = nullptr;
    const std::string refused = validation_message(*dev, [&] { texture = p.DeviceCreateTexture(dev->device.get(), &d); });
    if (!refused.empty()) {
      EXPECT_TRUE(names(refused, name)) << "creating a texture of " << name << ": " << refused;
      p.TextureRelease(texture);
      continue;
    }
    ++made;
    EXPECT_EQ(p.TextureGetFormat(texture), format) << name;
    WGPUTextureViewDescriptor v{};
    v.mipLevelCount = WGPU_MIP_LEVEL_COUNT_UNDEFINED;
    v.arrayLayerCount = WGPU_ARRAY_LAYER_COUNT_UNDEFINED;
    v.aspect = WGPUTextureAspect_All;
    v.format = format == WGPUTextureFormat_R8Unorm ? WGPUTextureFormat_R32Float : WGPUTextureFormat_R8Unorm;
    const std::string view_refused =
        validation_message(*dev, [&] { p.TextureViewRelease(p.TextureCreateView(texture, &v)); });
    EXPECT_TRUE(names(view_refused, name)) << "a view of a texture of " << name << ": " << view_refused;
    p.TextureRelease(texture);
  }
  // The core formats (about 40 of them, made without a feature) went the second way: a library
  // that refused every format would have shown its names only in refusals.
  EXPECT_GE(made, 40) << "of " << formats.size() << " formats";
}

// Every vertex format: an attribute of it placed where it does not fit in its buffer's stride
// is refused with the format and its size named ("format size (4 for VertexFormat::Uint8x4)").
TEST_F(NullDeviceTest, EveryVertexFormatOfTheHeaderIsNamedByTheLibrary) {
  const auto& p = dev->procs();
  const char* wgsl = "@vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0); }";
  WGPUShaderSourceWGSL source{};
  source.chain.sType = WGPUSType_ShaderSourceWGSL;
  source.code = {wgsl, WGPU_STRLEN};
  WGPUShaderModuleDescriptor md{};
  md.nextInChain = &source.chain;
  WGPUShaderModule module = p.DeviceCreateShaderModule(dev->device.get(), &md);
  const auto formats = every_vertex_format();
  ASSERT_GT(formats.size(), 30u);
  for (const auto& [format, name] : formats) {
    WGPUVertexAttribute attribute{};
    attribute.format = format;
    attribute.offset = 4;  // a multiple of every format's alignment, past the end of a 4-byte stride
    attribute.shaderLocation = 0;
    WGPUVertexBufferLayout buffer{};
    buffer.stepMode = WGPUVertexStepMode_Vertex;
    buffer.arrayStride = 4;
    buffer.attributeCount = 1;
    buffer.attributes = &attribute;
    WGPURenderPipelineDescriptor d{};
    d.vertex.module = module;
    d.vertex.entryPoint = {"vs", WGPU_STRLEN};
    d.vertex.bufferCount = 1;
    d.vertex.buffers = &buffer;
    d.primitive.topology = WGPUPrimitiveTopology_TriangleList;
    d.multisample.count = 1;
    d.multisample.mask = 0xFFFFFFFFu;
    const std::string refused = validation_message(
        *dev, [&] { p.RenderPipelineRelease(p.DeviceCreateRenderPipeline(dev->device.get(), &d)); });
    EXPECT_THAT(refused, HasSubstr("format size (")) << refused;
    EXPECT_TRUE(names(refused, name)) << refused;
  }
  p.ShaderModuleRelease(module);
}

// Every chained-struct type: chained where it does not belong, Dawn names the type it read
// ("Unexpected chained struct of type SType::ShaderSourceWGSL found on BufferDescriptor chain").
// A few values of the header are numbers the pinned library does not know by any name: it
// prints the bare number. They are listed here, checked to be printed so, and stay unproven.
// DawnInjectedInvalidSType is not tried: the library reads a field of its struct, which the
// header does not declare.
TEST_F(NullDeviceTest, EveryStructTypeOfTheHeaderIsNamedByTheLibraryOrListedAsUnknownToIt) {
  const std::vector<std::string> unknown_to_the_library = {
      "SType::SurfaceColorManagement",     "SType::RequestAdapterWebXROptions",
      "SType::AdapterPropertiesSubgroups", "SType::EmscriptenSurfaceSourceCanvasHTMLSelector",
      "SType::DawnExperimentalImmediateDataLimits",
  };
  const auto& p = dev->procs();
  const auto stypes = every_stype();
  ASSERT_GT(stypes.size(), 80u);
  size_t named = 0;
  for (const auto& [stype, name] : stypes) {
    if (name == "SType::DawnInjectedInvalidSType") continue;
    // Zeros past the chain header, should the library read a struct's fields before refusing it.
    alignas(8) unsigned char storage[256] = {};
    auto* chained = reinterpret_cast<WGPUChainedStruct*>(storage);
    chained->sType = stype;
    WGPUBufferDescriptor buffer{};
    buffer.nextInChain = chained;
    buffer.size = 16;
    buffer.usage = WGPUBufferUsage_CopyDst;
    std::string refused =
        validation_message(*dev, [&] { p.BufferRelease(p.DeviceCreateBuffer(dev->device.get(), &buffer)); });
    if (refused.empty()) {  // a type a buffer takes; a texture takes none of those
      WGPUTextureDescriptor texture{};
      texture.nextInChain = chained;
      texture.dimension = WGPUTextureDimension_2D;
      texture.size = {4, 4, 1};
      texture.mipLevelCount = 1;
      texture.sampleCount = 1;
      texture.format = WGPUTextureFormat_RGBA8Unorm;
      texture.usage = WGPUTextureUsage_TextureBinding;
      refused = validation_message(*dev, [&] { p.TextureRelease(p.DeviceCreateTexture(dev->device.get(), &texture)); });
    }
    if (std::find(unknown_to_the_library.begin(), unknown_to_the_library.end(), name) != unknown_to_the_library.end()) {
      EXPECT_THAT(refused, HasSubstr("type SType::" + std::to_string(static_cast<uint32_t>(stype)) + " found"))
          << name << " is named by this library now: it belongs with the proven values. " << refused;
      continue;
    }
    EXPECT_TRUE(names(refused, name)) << name << ": " << refused;
    ++named;
  }
  EXPECT_EQ(named, stypes.size() - unknown_to_the_library.size() - 1);
}

}  // namespace
}  // namespace warden
