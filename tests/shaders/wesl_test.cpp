// The WESL linker on packages held in memory: imports of every form, conditional translation,
// naming, what is left out, every linker error at its place, and the source map. The linked
// text is compiled by Dawn (Null backend) wherever a test claims it is valid WGSL.
#include <gmock/gmock.h>

#include <map>
#include <string>

#include "support/gpu_test.h"
#include "warden/shaders/shader_compiler.h"
#include "warden/shaders/wesl.h"

namespace warden::shaders {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

// A package in memory: relative path -> text, under the folder "pkg".
using Files = std::map<std::string, std::string>;

WeslOptions in_memory(const Files& files, std::map<std::string, bool, std::less<>> features = {}) {
  WeslOptions options;
  options.features = std::move(features);
  options.read_file = [files](const std::filesystem::path& path) -> Result<SourceText> {
    auto found = files.find(path.generic_string());
    if (found == files.end()) {
      return make_error(ErrorKind::NotFound, MessageId::SourceFileNotFound, path.string() + ": no such file");
    }
    return SourceText{found->second, false};
  };
  return options;
}

LinkedShader link(const Files& files, std::map<std::string, bool, std::less<>> features = {},
                  std::vector<WeslPackage> packages = {}) {
  WeslOptions options = in_memory(files, std::move(features));
  options.packages = std::move(packages);
  auto linked = link_wesl("pkg/main.wesl", options);
  EXPECT_TRUE(linked.ok()) << linked.error().message;
  return linked.ok() ? std::move(linked.value()) : LinkedShader{};
}

// The linked text with its blankspace runs made one space, for comparisons that do not care
// about layout.
std::string squeezed(std::string_view text) {
  std::string out;
  bool blank = false;
  for (char c : text) {
    if (c == ' ' || c == '\n' || c == '\t') {
      blank = !out.empty();
      continue;
    }
    if (blank) out += ' ';
    blank = false;
    out += c;
  }
  return out;
}

class WeslLinkTest : public warden::testing::NullDeviceTest {
 protected:
  // Dawn compiles the linked text without a diagnostic.
  void expect_valid(const LinkedShader& linked) {
    ASSERT_TRUE(linked.ok()) << linked.diagnostics.front().message;
    ShaderCompiler compiler(*dev->context, dev->device.get());
    auto compiled = compiler.compile("linked.wgsl", linked.wgsl);
    ASSERT_TRUE(compiled.ok()) << compiled.error().message;
    EXPECT_THAT(compiled->diagnostics, IsEmpty()) << linked.wgsl;
  }
};

// The one error of a link that failed.
ShaderDiagnostic only_error(const LinkedShader& linked) {
  EXPECT_FALSE(linked.ok());
  EXPECT_EQ(linked.diagnostics.size(), 1u);
  EXPECT_THAT(linked.wgsl, IsEmpty());
  return linked.diagnostics.empty() ? ShaderDiagnostic{} : linked.diagnostics.front();
}

TEST_F(WeslLinkTest, AnImportedFunctionIsRenamedByItsModuleAndWhatNothingReachesIsLeftOut) {
  const LinkedShader linked = link({
      {"pkg/main.wesl", "import package::util::fade;\n"
                        "@fragment fn fs() -> @location(0) vec4f { return vec4f(fade(0.5)); }\n"},
      {"pkg/util.wesl", "fn fade(t: f32) -> f32 { return t * t * (3.0 - 2.0 * t) * unit; }\n"
                        "const unit = 1.0;\n"
                        "fn never_called() {}\n"},
  });
  expect_valid(linked);
  EXPECT_THAT(linked.wgsl, HasSubstr("return vec4f(package_util_fade(0.5));"));
  EXPECT_THAT(linked.wgsl, HasSubstr("fn package_util_fade(t: f32)"));
  EXPECT_THAT(linked.wgsl, HasSubstr("* package_util_unit;"));
  EXPECT_THAT(linked.wgsl, Not(HasSubstr("never_called")));
  EXPECT_THAT(linked.files, ElementsAre("pkg/main.wesl", "pkg/util.wesl"));
}

TEST_F(WeslLinkTest, NestedCollectionsRenamesSuperAndInlinePathsAllReachTheirDeclarations) {
  const LinkedShader linked = link({
      {"pkg/main.wesl",
       "import package::lib::{colors::{red as crimson, blue}, shapes::circle};\n"
       "@fragment fn fs() -> @location(0) vec4f {\n"
       "  return vec4f(crimson + blue + circle::area(2.0) + package::lib::colors::green, 0.0, 0.0, 1.0);\n"
       "}\n"},
      {"pkg/lib/colors.wesl", "const red = 1.0; const blue = 2.0; const green = 3.0;\n"},
      {"pkg/lib/shapes/circle.wesl", "import super::super::colors::red;\nfn area(r: f32) -> f32 { return r * r * red; }\n"},
  });
  expect_valid(linked);
  EXPECT_THAT(squeezed(linked.wgsl),
              HasSubstr("return vec4f(package_lib_colors_red + package_lib_colors_blue + "
                        "package_lib_shapes_circle_area(2.0) + package_lib_colors_green, 0.0, 0.0, 1.0);"));
  EXPECT_THAT(linked.wgsl, HasSubstr("return r * r * package_lib_colors_red;"));
  // One declaration reached three ways is written once.
  const std::string once = "const package_lib_colors_red = 1.0;";
  const size_t first = linked.wgsl.find(once);
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(linked.wgsl.find(once, first + 1), std::string::npos);
}

TEST_F(WeslLinkTest, ADeclaredPackageIsFoundFromItsLibFileAndItsModules) {
  const LinkedShader linked = link(
      {
          {"pkg/main.wesl", "import noise_lib::{hash, cell::worley};\n"
                            "@compute @workgroup_size(1) fn cs() { let h = hash(1u) + worley(2u); }\n"},
          {"deps/noise/lib.wesl", "fn hash(x: u32) -> u32 { return x * 747796405u; }\n"},
          {"deps/noise/cell.wesl", "import noise_lib::hash;\nfn worley(x: u32) -> u32 { return hash(x) ^ 1u; }\n"},
      },
      {}, {{"noise_lib", "deps/noise"}});
  expect_valid(linked);
  EXPECT_THAT(linked.wgsl, HasSubstr("_1noise_lib_hash(1u) + _1noise_lib_cell_worley(2u)"));
}

TEST_F(WeslLinkTest, LocalsAndParametersThatShadowModuleNamesKeepTheirOwnNames) {
  const LinkedShader linked = link({
      {"pkg/main.wesl", "import package::util::{scale, offset};\n"
                        "fn apply(scale: f32) -> f32 {\n"
                        "  let before = offset;\n"
                        "  let offset = scale * 2.0;\n"
                        "  for (var scale_i = 0; scale_i < 2; scale_i++) { }\n"
                        "  return offset + before;\n"
                        "}\n"
                        "@compute @workgroup_size(1) fn cs() { _ = apply(scale); }\n"},
      {"pkg/util.wesl", "const scale = 3.0; const offset = 1.0;\n"},
  });
  expect_valid(linked);
  const std::string text = squeezed(linked.wgsl);
  EXPECT_THAT(text, HasSubstr("fn apply(scale: f32) -> f32 { let before = package_util_offset; "
                              "let offset = scale * 2.0;"));
  EXPECT_THAT(text, HasSubstr("return offset + before;"));
  EXPECT_THAT(text, HasSubstr("_ = apply(package_util_scale);"));
}

TEST_F(WeslLinkTest, ALinkedNameThatIsTakenIsMadeUniqueSoTheOutputStaysValid) {
  const LinkedShader linked = link({
      {"pkg/main.wesl", "import package::util::K;\n"
                        "const package_util_K = 5.0;\n"
                        "@compute @workgroup_size(1) fn cs() { let package_util_K_1 = 2.0; _ = K + package_util_K + package_util_K_1; }\n"},
      {"pkg/util.wesl", "const K = 1.0;\n"},
  });
  expect_valid(linked);
  EXPECT_THAT(linked.wgsl, HasSubstr("const package_util_K_2 = 1.0;"));
  EXPECT_THAT(linked.wgsl, HasSubstr("_ = package_util_K_2 + package_util_K + package_util_K_1;"));
}

TEST_F(WeslLinkTest, ConditionsChooseDeclarationsMembersParametersStatementsClausesAndImports) {
  const Files files = {
      {"pkg/main.wesl",
       "@if(HDR) import package::tone::aces as tonemap;\n"
       "@else import package::tone::reinhard as tonemap;\n"
       "struct Light {\n  color: vec3f,\n  @if(SHADOWS) shadow: f32,\n}\n"
       "@if(HDR) const exposure = 2.0;\n@elif(SHADOWS) const exposure = 1.5;\n@else const exposure = 1.0;\n"
       "fn shade(l: Light, @if(SHADOWS) bias: f32) -> f32 {\n"
       "  var v = tonemap(l.color.x * exposure);\n"
       "  @if(SHADOWS) { v = v * l.shadow - bias; }\n"
       "  switch (u32(v)) {\n    @if(HDR) case 1u: { v = 0.0; }\n    default: { }\n  }\n"
       "  return v;\n}\n"
       "@fragment fn fs() -> @location(0) vec4f {\n"
       "  @if(SHADOWS) let s = shade(Light(vec3f(1.0), 0.5), 0.1);\n"
       "  @else let s = shade(Light(vec3f(1.0)));\n"
       "  return vec4f(s);\n}\n"},
      {"pkg/tone.wesl", "fn aces(x: f32) -> f32 { return x / (x + 0.6); }\nfn reinhard(x: f32) -> f32 { return x / (1.0 + x); }\n"},
  };
  const LinkedShader plain = link(files, {{"HDR", false}, {"SHADOWS", false}});
  expect_valid(plain);
  EXPECT_THAT(plain.wgsl, HasSubstr("package_tone_reinhard(l.color.x * exposure)"));
  EXPECT_THAT(plain.wgsl, HasSubstr("const exposure = 1.0;"));
  EXPECT_THAT(plain.wgsl, Not(HasSubstr("shadow")));
  EXPECT_THAT(plain.wgsl, Not(HasSubstr("bias")));
  EXPECT_THAT(plain.wgsl, Not(HasSubstr("case 1u")));
  EXPECT_THAT(plain.wgsl, Not(HasSubstr("@if")));
  EXPECT_THAT(plain.features_used, ElementsAre("HDR", "SHADOWS"));

  const LinkedShader shadows = link(files, {{"HDR", false}, {"SHADOWS", true}});
  expect_valid(shadows);
  EXPECT_THAT(shadows.wgsl, HasSubstr("const exposure = 1.5;"));
  EXPECT_THAT(shadows.wgsl, HasSubstr("shadow: f32"));
  EXPECT_THAT(shadows.wgsl, HasSubstr("v = v * l.shadow - bias;"));
  EXPECT_THAT(shadows.wgsl, HasSubstr("let s = shade(Light(vec3f(1.0), 0.5), 0.1);"));

  const LinkedShader hdr = link(files, {{"HDR", true}, {"SHADOWS", true}});
  expect_valid(hdr);
  EXPECT_THAT(hdr.wgsl, HasSubstr("package_tone_aces(l.color.x * exposure)"));
  EXPECT_THAT(hdr.wgsl, HasSubstr("const exposure = 2.0;"));
  EXPECT_THAT(hdr.wgsl, HasSubstr("case 1u"));
  EXPECT_THAT(hdr.wgsl, Not(HasSubstr("reinhard")));
}

TEST_F(WeslLinkTest, ImportCyclesBetweenModulesAreAllowedWhenDeclarationsDoNotCycle) {
  const LinkedShader linked = link({
      {"pkg/main.wesl", "import package::a::f;\n@compute @workgroup_size(1) fn cs() { _ = f(); }\n"},
      {"pkg/a.wesl", "import package::b::g;\nfn f() -> i32 { return g(); }\nfn h() -> i32 { return 1; }\n"},
      {"pkg/b.wesl", "import package::a::h;\nfn g() -> i32 { return h(); }\n"},
  });
  expect_valid(linked);
}

TEST_F(WeslLinkTest, DirectivesAreHoistedOnceAndConstAssertsComeWithTheirModule) {
  const LinkedShader linked = link({
      {"pkg/main.wesl", "import package::util::one;\ndiagnostic(off, derivative_uniformity);\n"
                        "@compute @workgroup_size(1) fn cs() { _ = one(); }\n"},
      {"pkg/util.wesl", "diagnostic(off, derivative_uniformity);\nconst_assert 1 < 2;\nfn one() -> i32 { return 1; }\n"},
      {"pkg/unused.wesl", "const_assert 2 < 1;\n"},
  });
  expect_valid(linked);
  const size_t directive = linked.wgsl.find("diagnostic(off, derivative_uniformity);");
  EXPECT_EQ(directive, 0u);
  EXPECT_EQ(linked.wgsl.find("diagnostic(off", directive + 1), std::string::npos);
  EXPECT_THAT(linked.wgsl, HasSubstr("const_assert 1 < 2;"));
}

// Dawn's own diagnostics, moved through the source map: an unknown name injected at each of
// several places of a module two imports down (after a renamed name on the same line, at the
// start and end of lines) is reported at exactly that place of that file.
TEST_F(WeslLinkTest, DawnsDiagnosticsMapBackThroughTwoLevelsOfImportsExactly) {
  const std::string ramp =
      "// A two-step toon ramp.\n"
      "fn toon(d: f32) -> f32 {\n"
      "\tlet edge = step(0.5, d);\n"
      "  return mix(0.3, 1.0, edge) * gain();\n"
      "}\n"
      "fn gain() -> f32 { return 1.0; }\n";
  struct Injection {
    std::string find;     // the text replaced by the unknown name
    uint32_t line, column;
  };
  const Injection injections[] = {
      {"0.5", 3, 18}, {"edge) * gain", 4, 24}, {"1.0; }", 6, 27}, {"d);", 3, 23},
  };
  ShaderCompiler compiler(*dev->context, dev->device.get());
  for (const Injection& injection : injections) {
    std::string broken = ramp;
    const size_t at = broken.find(injection.find);
    ASSERT_NE(at, std::string::npos);
    const size_t length = injection.find.find_first_of(" );");
    broken.replace(at, length == std::string::npos ? injection.find.size() : length, "nowhere_k");
    const LinkedShader linked = link({
        {"pkg/main.wesl", "import package::lighting::shade::lambert;\n"
                          "@fragment fn fs() -> @location(0) vec4f { return vec4f(lambert(1.0)); }\n"},
        {"pkg/lighting/shade.wesl", "import super::ramp::toon;\nfn lambert(x: f32) -> f32 { return toon(x); }\n"},
        {"pkg/lighting/ramp.wesl", broken},
    });
    ASSERT_TRUE(linked.ok());
    auto compiled = compiler.compile("pkg/main.wesl", linked.wgsl);
    ASSERT_TRUE(compiled.ok());
    const std::vector<ShaderDiagnostic> mapped = map_to_sources(linked, compiled->diagnostics);
    ASSERT_FALSE(mapped.empty()) << broken;
    EXPECT_EQ(mapped[0].path, "pkg/lighting/ramp.wesl");
    EXPECT_EQ(mapped[0].line, injection.line) << injection.find;
    EXPECT_EQ(mapped[0].column, injection.column) << injection.find;
    EXPECT_THAT(mapped[0].message, HasSubstr("nowhere_k"));
    EXPECT_NE(mapped[0].linked_line, 0u);
    EXPECT_THAT(mapped[0].notes, ElementsAre("pkg/lighting/ramp.wesl is imported at pkg/lighting/shade.wesl:1:8, and "
                                             "pkg/lighting/shade.wesl is imported at pkg/main.wesl:1:8"));
  }
}

TEST_F(WeslLinkTest, PlainWgslIsNotWeslAndAnImportOrConditionIs) {
  EXPECT_FALSE(uses_wesl("@fragment fn fs() -> @location(0) vec4f { return vec4f(1.0); } // import x;"));
  EXPECT_FALSE(uses_wesl("/* @if(x) */ fn f() { if (true) { } else { } }"));
  EXPECT_TRUE(uses_wesl("import package::a::b;\nfn f() {}"));
  EXPECT_TRUE(uses_wesl("fn f() { @if(x) let a = 1; }"));
  EXPECT_TRUE(uses_wesl("@else fn f() {}"));
}

// --- errors: each names the file, line and column ------------------------------------------------

TEST(WeslErrors, AnImportOfAModuleWithNoFileNamesTheFileLookedFor) {
  const ShaderDiagnostic e = only_error(link({{"pkg/main.wesl", "import package::lights::spot;\nfn f() -> f32 { return spot; }\n"}}));
  EXPECT_EQ(e.id, MessageId::WeslUnknownImport);
  EXPECT_EQ(e.path, "pkg/main.wesl");
  EXPECT_EQ(e.line, 1u);
  EXPECT_EQ(e.column, 8u);
  EXPECT_THAT(e.message, HasSubstr("no declaration 'spot' in package::lights"));
  EXPECT_THAT(e.message, HasSubstr("pkg/lights/spot.wesl"));
}

TEST(WeslErrors, AnImportOfAMissingItemNamesTheModuleItLookedIn) {
  const ShaderDiagnostic e = only_error(link({
      {"pkg/main.wesl", "// lights\nimport package::util::{fade, missing};\nfn f() { missing(); }\n"},
      {"pkg/util.wesl", "fn fade() {}\n"},
  }));
  EXPECT_EQ(e.id, MessageId::WeslUnknownImport);
  EXPECT_EQ(e.line, 2u);
  EXPECT_EQ(e.column, 30u);  // the item in the collection
  EXPECT_THAT(e.message, HasSubstr("package::util::missing: no declaration 'missing' in package::util (pkg/util.wesl)"));
}

TEST(WeslErrors, AnUnknownPackageIsNamedWithThePackagesThereAre) {
  const ShaderDiagnostic e = only_error(link({{"pkg/main.wesl", "import bevy_pbr::lighting;\nfn f() { lighting::shade(); }\n"}}));
  EXPECT_EQ(e.id, MessageId::WeslUnknownImport);
  EXPECT_THAT(e.message, HasSubstr("'bevy_pbr' is not a package (packages: package)"));
}

TEST(WeslErrors, ACycleOfDeclarationsAcrossModulesIsNamedAtTheReferenceThatClosesIt) {
  const ShaderDiagnostic e = only_error(link({
      {"pkg/main.wesl", "import package::a::x;\nconst top = x;\n"},
      {"pkg/a.wesl", "import package::b::y;\nconst x = y + 1;\n"},
      {"pkg/b.wesl", "import package::a::x;\n\nconst y =   x * 2;\n"},
  }));
  EXPECT_EQ(e.id, MessageId::WeslDeclarationCycle);
  EXPECT_EQ(e.path, "pkg/b.wesl");
  EXPECT_EQ(e.line, 3u);
  EXPECT_EQ(e.column, 13u);
  EXPECT_THAT(e.message, HasSubstr("package::a::x -> package::b::y -> package::a::x"));
  ASSERT_EQ(e.notes.size(), 1u);
  EXPECT_EQ(e.notes[0], "pkg/b.wesl is imported at pkg/a.wesl:1:8, and pkg/a.wesl is imported at pkg/main.wesl:1:8");
}

TEST(WeslErrors, ANameTwoImportsBringInIsRefusedNamingBoth) {
  const ShaderDiagnostic e = only_error(link({
      {"pkg/main.wesl", "import package::a::blend;\nimport package::b::blend;\n"},
      {"pkg/a.wesl", "fn blend() {}\n"},
      {"pkg/b.wesl", "fn blend() {}\n"},
  }));
  EXPECT_EQ(e.id, MessageId::WeslNameConflict);
  EXPECT_EQ(e.line, 2u);
  EXPECT_THAT(e.message, HasSubstr("'blend' is brought in by two imports: package::a::blend and package::b::blend"));
}

TEST(WeslErrors, AnImportOfANameTheModuleDeclaresIsRefused) {
  const ShaderDiagnostic e = only_error(link({
      {"pkg/main.wesl", "import package::a::blend;\nfn blend() {}\n"},
      {"pkg/a.wesl", "fn blend() {}\n"},
  }));
  EXPECT_EQ(e.id, MessageId::WeslNameConflict);
}

TEST(WeslErrors, AConditionOnAFeatureWithNoValueIsAnError) {
  const ShaderDiagnostic e = only_error(link({{"pkg/main.wesl", "@if(DEBUG || FAST) fn f() {}\n"}}, {{"DEBUG", true}}));
  EXPECT_EQ(e.id, MessageId::WeslUnknownFeature);
  EXPECT_EQ(e.line, 1u);
  EXPECT_EQ(e.column, 14u);
  EXPECT_THAT(e.message, HasSubstr("feature 'FAST' is not set"));
}

TEST(WeslErrors, ElseWithNoIfBeforeItIsAnError) {
  const ShaderDiagnostic e = only_error(link({{"pkg/main.wesl", "fn f() {\n  let a = 1;\n  @else let b = 2;\n}\n"}}));
  EXPECT_EQ(e.id, MessageId::WeslSyntaxError);
  EXPECT_EQ(e.line, 3u);
  EXPECT_EQ(e.column, 3u);
}

TEST(WeslErrors, SuperAboveThePackageRootIsAnError) {
  const ShaderDiagnostic e = only_error(link({{"pkg/main.wesl", "import super::super::x;\nfn f() { x(); }\n"}}));
  EXPECT_EQ(e.id, MessageId::WeslUnknownImport);
  EXPECT_THAT(e.message, HasSubstr("super:: goes above the package's root"));
}

TEST(WeslErrors, AnUnclosedBracketInAnImportedModuleIsNamedThereWithItsImportChain) {
  const ShaderDiagnostic e = only_error(link({
      {"pkg/main.wesl", "import package::util::f;\nfn g() { f(); }\n"},
      {"pkg/util.wesl", "fn f() {\n  let a = (1;\n}\n"},
  }));
  EXPECT_EQ(e.id, MessageId::WeslSyntaxError);
  EXPECT_EQ(e.path, "pkg/util.wesl");
  EXPECT_EQ(e.line, 2u);
  EXPECT_THAT(e.notes, ElementsAre("pkg/util.wesl is imported at pkg/main.wesl:1:8"));
}

TEST(WeslErrors, AModuleUsedAsAValueIsAnError) {
  const ShaderDiagnostic e = only_error(link({
      {"pkg/main.wesl", "import package::util;\nfn g() -> f32 { return util; }\n"},
      {"pkg/util.wesl", "const k = 1.0;\n"},
  }));
  EXPECT_EQ(e.id, MessageId::WeslNotAnItem);
  EXPECT_EQ(e.line, 2u);
  EXPECT_EQ(e.column, 24u);
}

// An import is resolved when the module uses its name: one nothing uses neither loads a module
// nor fails the link, as the WESL test suite expects.
TEST(WeslErrors, AnImportNothingUsesIsNeverResolved) {
  const LinkedShader linked = link({{"pkg/main.wesl", "import foo;\nimport package::nothere::x;\nfn f() {}\n"}});
  EXPECT_TRUE(linked.ok()) << linked.diagnostics.front().message;
  EXPECT_THAT(linked.files, ElementsAre("pkg/main.wesl"));
}

TEST(WeslErrors, ImportSyntaxTheGrammarDoesNotAllowIsRefusedAtItsPlace) {
  const struct {
    const char* source;
    uint32_t column;
  } cases[] = {
      {"import package::a::{};", 20},       // a collection that names nothing
      {"import package::a::{f, {g}};", 24},  // a collection where a name must be
      {"import package::as::b;", 17},        // a WESL keyword as a segment
      {"import package::a::b as import;", 25},
      {"import package::a::b::;", 23},
      {"import {package::a};", 9},           // package:: only at the start
  };
  for (const auto& c : cases) {
    const ShaderDiagnostic e = only_error(link({{"pkg/main.wesl", c.source}}));
    EXPECT_EQ(e.id, MessageId::WeslSyntaxError) << c.source;
    EXPECT_EQ(e.column, c.column) << c.source << ": " << e.message;
  }
}

TEST(WeslErrors, ACollectionMayStartAnImport) {
  const LinkedShader linked = link({
      {"pkg/main.wesl", "import {package::a::f as g, package::a::h};\nfn main() -> f32 { return g() + h(); }\n"},
      {"pkg/a.wesl", "fn f() -> f32 { return 1.0; }\nfn h() -> f32 { return 2.0; }\n"},
  });
  EXPECT_FALSE(linked.ok());  // package:: inside a collection is not WESL ...
  const LinkedShader top = link({
      {"pkg/main.wesl", "import package::{a::f as g, a::h};\nfn main() -> f32 { return g() + h(); }\n"},
      {"pkg/a.wesl", "fn f() -> f32 { return 1.0; }\nfn h() -> f32 { return 2.0; }\n"},
  });
  ASSERT_TRUE(top.ok()) << top.diagnostics.front().message;  // ... after it, it is
  EXPECT_THAT(top.wgsl, HasSubstr("return package_a_f() + package_a_h();"));
  const LinkedShader bare = link({{"pkg/main.wesl", "import { foo };\nfn main() {}\n"}});
  EXPECT_TRUE(bare.ok());
}

TEST(WeslErrors, AnUnreadableRootIsAnErrorNamingTheFile) {
  auto linked = link_wesl("pkg/none.wesl", in_memory({}));
  ASSERT_FALSE(linked.ok());
  EXPECT_EQ(linked.error().id, MessageId::SourceFileNotFound);
}

// --- the source map ---------------------------------------------------------------------------

TEST(WeslSourceMapTest, EveryPlaceOfTheLinkedTextLeadsBackToTheFileItWasWrittenIn) {
  const LinkedShader linked = link({
      {"pkg/main.wesl", "import package::util::fade;\n\nfn f() -> f32 {\n  return fade(1.0);\n}\n"},
      {"pkg/util.wesl", "// easing\nfn fade(t: f32) -> f32 {\n\treturn t * t;\n}\n"},
  });
  ASSERT_TRUE(linked.ok());
  // Find each piece in the linked text and ask the map where it came from.
  const auto place_of = [&](std::string_view piece) {
    const size_t at = linked.wgsl.find(piece);
    EXPECT_NE(at, std::string::npos) << piece;
    uint32_t line = 1, column = 1;
    for (size_t i = 0; i < at; ++i) {
      if (linked.wgsl[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return linked.source_map.locate(line, column).value_or(SourcePlace{});
  };
  const SourcePlace call = place_of("package_util_fade(1.0)");
  EXPECT_EQ(call.path, "pkg/main.wesl");
  EXPECT_EQ(call.line, 4u);
  EXPECT_EQ(call.column, 10u);
  const SourcePlace argument = place_of("(1.0)");
  EXPECT_EQ(argument.line, 4u);
  EXPECT_EQ(argument.column, 14u);
  const SourcePlace body = place_of("t * t");
  EXPECT_EQ(body.path, "pkg/util.wesl");
  EXPECT_EQ(body.line, 3u);
  EXPECT_EQ(body.column, 9u);  // after a tab: bytes, as the compiler counts them
  const WeslSourceMap::File* util = linked.source_map.file("pkg/util.wesl");
  ASSERT_NE(util, nullptr);
  EXPECT_EQ(util->import_chain, "pkg/util.wesl is imported at pkg/main.wesl:1:8");
}

}  // namespace
}  // namespace warden::shaders
