// ShaderCompiler against the real Dawn compiler (Null backend: validation only, no GPU).
// Every place asserted here is what Dawn itself reported; the files are in tests/data/shaders.
#include <gmock/gmock.h>

#include <string>

#include <fmt/format.h>

#include "support/gpu_test.h"
#include "support/messages.h"
#include "support/test_files.h"
#include "warden/shaders/shader_compiler.h"
#include "warden/shaders/source_file.h"

namespace warden::shaders {
namespace {

using ::testing::HasSubstr;
using warden::testing::FailsWith;

std::string data_path(const std::string& name) { return warden::testing::test_data("shaders/" + name); }

class CompileTest : public warden::testing::NullDeviceTest {
 protected:
  CompiledShader compile_file(const std::string& name, DiagnosticSource source = DiagnosticSource::CompilationInfo) {
    ShaderCompiler compiler(*dev->context, dev->device.get(), CompilerOptions{source});
    auto compiled = compiler.compile_file(data_path(name));
    EXPECT_TRUE(compiled.ok()) << compiled.error().message;
    return compiled.ok() ? std::move(compiled.value()) : CompiledShader{};
  }
  void TearDown() override {
    // A compile error is captured by the scope, never left for the uncaptured-error callback.
    EXPECT_THAT(dev->take_errors(), ::testing::IsEmpty());
    NullDeviceTest::TearDown();
  }
};

// One error at an exact place, the compiler's words in the message.
void expect_single_error(const CompiledShader& c, const std::string& name, uint32_t line,
                         uint32_t column, const std::string& words) {
  EXPECT_FALSE(c.module);
  ASSERT_EQ(c.diagnostics.size(), 1u);
  const ShaderDiagnostic& d = c.diagnostics[0];
  EXPECT_EQ(d.severity, Severity::Error);
  EXPECT_EQ(d.path, data_path(name));
  EXPECT_EQ(d.line, line);
  EXPECT_EQ(d.column, column);
  EXPECT_THAT(d.message, HasSubstr(words));
}

TEST_F(CompileTest, ValidShaderGivesAModuleAndNoDiagnostics) {
  auto c = compile_file("valid.wgsl");
  EXPECT_TRUE(c.ok());
  EXPECT_TRUE(c.diagnostics.empty());
}

TEST_F(CompileTest, EmptyFileIsAValidModule) {
  auto c = compile_file("empty.wgsl");
  EXPECT_TRUE(c.ok());
  EXPECT_TRUE(c.diagnostics.empty());
}

TEST_F(CompileTest, TypeMismatchIsReportedAtTheDeclaration) {
  expect_single_error(compile_file("type_mismatch.wgsl"), "type_mismatch.wgsl", 2, 7,
                      "cannot initialize 'let' of type 'f32' with value of type 'i32'");
}

TEST_F(CompileTest, UnresolvedIdentifierIsReportedAtTheIdentifier) {
  expect_single_error(compile_file("unresolved_identifier.wgsl"), "unresolved_identifier.wgsl", 2, 17,
                      "unresolved value 'luminance_weights'");
}

TEST_F(CompileTest, MissingSemicolonIsReportedAtTheNextToken) {
  // The `;` is missing at the end of line 3; the parser notices at `return` on line 4.
  expect_single_error(compile_file("missing_semicolon.wgsl"), "missing_semicolon.wgsl", 4, 3, "expected ';'");
}

TEST_F(CompileTest, ColumnCountsATabAsOneAndUtf8Bytes) {
  // Line 3 is "\t/* été */ return café * undefined_gain;": the identifier starts at character
  // 26 but at byte 29 (tab = 1, each é = 2 bytes). Dawn reports the byte column.
  expect_single_error(compile_file("tabs_unicode.wgsl"), "tabs_unicode.wgsl", 3, 29,
                      "unresolved value 'undefined_gain'");
}

TEST_F(CompileTest, ResolverStopsAtTheFirstUnresolvedValue) {
  // Two functions each use an unknown name; Dawn reports the first and stops, so one
  // diagnostic is all a file shows per check (docs/shader-check.md says so).
  expect_single_error(compile_file("two_errors.wgsl"), "two_errors.wgsl", 2, 10, "unresolved value 'missing_a'");
}

TEST_F(CompileTest, ErrorScopeSourceGivesTheSamePlacesAsCompilationInfo) {
  for (const char* name : {"type_mismatch.wgsl", "unresolved_identifier.wgsl", "missing_semicolon.wgsl",
                           "tabs_unicode.wgsl"}) {
    auto from_info = compile_file(name, DiagnosticSource::CompilationInfo);
    auto from_scope = compile_file(name, DiagnosticSource::ErrorScope);
    EXPECT_FALSE(from_scope.module) << name;
    EXPECT_EQ(from_scope.diagnostics, from_info.diagnostics) << name;
  }
}

TEST_F(CompileTest, NotUtf8IsRefusedWithTheByteOffsetBeforeDawnSeesIt) {
  ShaderCompiler compiler(*dev->context, dev->device.get());
  auto compiled = compiler.compile_file(data_path("not_utf8.wgsl"));
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(compiled.error().kind, ErrorKind::InvalidArgument);
  EXPECT_THAT(compiled, FailsWith(MessageId::SourceNotUtf8));
  EXPECT_THAT(compiled.error().message, HasSubstr("not_utf8.wgsl"));
  EXPECT_THAT(compiled.error().message, HasSubstr("byte offset 33"));
  EXPECT_THAT(compiled.error().message, HasSubstr("0xff"));
  // The same bytes through compile() directly: refused the same way.
  auto direct = compiler.compile("inline.wgsl", std::string("fn f() {}\n\xc3(", 12));
  EXPECT_THAT(direct, FailsWith(MessageId::SourceNotUtf8));
  EXPECT_THAT(direct.error().message, HasSubstr("inline.wgsl: not UTF-8: invalid byte 0xc3 at byte offset 10"));
}

TEST_F(CompileTest, MissingFileIsNotFoundNamingTheFile) {
  ShaderCompiler compiler(*dev->context, dev->device.get());
  auto compiled = compiler.compile_file(data_path("no_such_file.wgsl"));
  ASSERT_FALSE(compiled.ok());
  EXPECT_EQ(compiled.error().kind, ErrorKind::NotFound);
  EXPECT_THAT(compiled, FailsWith(MessageId::SourceFileNotFound));
  EXPECT_THAT(compiled.error().message, HasSubstr("no_such_file.wgsl"));
}

// About 1 MB of WGSL: many small functions, then one error on a known line.
std::string megabyte_source(bool with_error, uint32_t* error_line) {
  std::string source;
  uint32_t line = 1;
  for (int i = 0; source.size() < (1u << 20); ++i) {
    source += fmt::format("fn helper_{0}(x : f32) -> f32 {{\n  let y = x * {0}.0 + 1.5;\n  return y * y;\n}}\n", i);
    line += 4;
  }
  if (with_error) {
    source += "fn broken() -> f32 {\n  return helper_0(1.0) + no_such_value;\n}\n";
    *error_line = line + 1;
  }
  return source;
}

TEST_F(CompileTest, OneMegabyteSourceCompilesAndAnErrorAtItsEndIsPlacedExactly) {
  ShaderCompiler compiler(*dev->context, dev->device.get());
  uint32_t error_line = 0;
  auto valid = compiler.compile("big.wgsl", megabyte_source(false, nullptr));
  ASSERT_TRUE(valid.ok()) << valid.error().message;
  EXPECT_TRUE(valid->ok());
  std::string broken_source = megabyte_source(true, &error_line);
  ASSERT_GE(broken_source.size(), 1u << 20);
  auto broken = compiler.compile("big.wgsl", broken_source);
  ASSERT_TRUE(broken.ok()) << broken.error().message;
  ASSERT_EQ(broken->diagnostics.size(), 1u);
  EXPECT_EQ(broken->diagnostics[0].line, error_line);
  EXPECT_EQ(broken->diagnostics[0].column, 26u);
  EXPECT_EQ(broken->diagnostics[0].id, MessageId::ShaderCompilerMessage);
  EXPECT_THAT(broken->diagnostics[0].message, HasSubstr("no_such_value"));
}

TEST_F(CompileTest, CompilingWaitsForNothing) {
  // Dawn's compilation info and the popped scope are ready at the first ProcessEvents, so a
  // compile makes no blocking wait (docs/adr/0004).
  ShaderCompiler compiler(*dev->context, dev->device.get());
  uint64_t before = gpu::blocking_wait_count();
  auto c = compiler.compile_file(data_path("type_mismatch.wgsl"));
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->diagnostics.empty());
  EXPECT_EQ(gpu::blocking_wait_count(), before);
}

}  // namespace
}  // namespace warden::shaders
