// Pure functions of the shaders layer: the error-scope parser (both report forms), the caret
// line, the compiler-style text, the UTF-8 check.
#include <gmock/gmock.h>

#include <string>

#include "warden/shaders/diagnostic.h"
#include "warden/shaders/error_scope_message.h"
#include "warden/shaders/source_file.h"

namespace warden::shaders {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ErrorScopeMessage, DawnFormGivesLineColumnAndTheMessage) {
  // Copied from what this Dawn build put in a validation scope for a missing `;`.
  const std::string message =
      "Error while parsing WGSL: :3:3 error: expected ';' for variable declaration\n"
      "  x = nope;\n"
      "  ^\n\n\n"
      " - While calling [Device \"test device\"].CreateShaderModule([ShaderModuleDescriptor \"\"lbl.wgsl\"\"]).\n";
  EXPECT_THAT(parse_error_scope_message("lbl.wgsl", message),
              ElementsAre(ShaderDiagnostic{Severity::Error, "lbl.wgsl", 3, 3,
                                           "expected ';' for variable declaration"}));
}

TEST(ErrorScopeMessage, DawnFormKeepsEveryDiagnosticAndItsSeverity) {
  const std::string message =
      ":2:5 warning: code is unreachable\n"
      "    return 1;\n"
      ":7:12 error: unresolved value 'x'\n"
      ":7:12 note: while analyzing this\n";
  EXPECT_THAT(parse_error_scope_message("a.wgsl", message),
              ElementsAre(ShaderDiagnostic{Severity::Warning, "a.wgsl", 2, 5, "code is unreachable"},
                          ShaderDiagnostic{Severity::Error, "a.wgsl", 7, 12, "unresolved value 'x'"},
                          ShaderDiagnostic{Severity::Info, "a.wgsl", 7, 12, "while analyzing this"}));
}

TEST(ErrorScopeMessage, NagaFormGivesTheFirstPlaceAndTheWholeReport) {
  // naga's report, as wgpu-native puts it in a validation scope.
  const std::string message =
      "Validation Error\n\nCaused by:\n  In wgpuDeviceCreateShaderModule\n\n"
      "Shader '' parsing error: expected ';', found 'return'\n"
      "  ┌─ wgsl:4:3\n"
      "  │\n"
      "4 │   return total;\n"
      "  │   ^^^^^^ expected ';'\n\n";
  auto diagnostics = parse_error_scope_message("count.wgsl", message);
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0].severity, Severity::Error);
  EXPECT_EQ(diagnostics[0].path, "count.wgsl");
  EXPECT_EQ(diagnostics[0].line, 4u);
  EXPECT_EQ(diagnostics[0].column, 3u);
  EXPECT_THAT(diagnostics[0].message, HasSubstr("Shader '' parsing error: expected ';', found 'return'"));
  EXPECT_THAT(diagnostics[0].message, HasSubstr("^^^^^^ expected ';'"));
}

TEST(ErrorScopeMessage, UnplacedMessageIsOneErrorAtLineZero) {
  EXPECT_THAT(parse_error_scope_message("x.wgsl", "  Device is lost\n"),
              ElementsAre(ShaderDiagnostic{Severity::Error, "x.wgsl", 0, 0, "Device is lost"}));
  EXPECT_TRUE(parse_error_scope_message("x.wgsl", " \n").empty());
}

TEST(CaretLine, KeepsTabsAndCountsAMultiByteCharacterOnce) {
  // Byte column 29 of this line is the `u` of undefined_gain (see compile_test).
  const std::string line = "\t/* \xc3\xa9t\xc3\xa9 */ return caf\xc3\xa9 * undefined_gain;";
  EXPECT_EQ(caret_line(line, 29), "\t" + std::string(24, ' ') + "^");
  EXPECT_EQ(caret_line("abc", 1), "^");
  EXPECT_EQ(caret_line("abc", 0), "^");
  // A column past the end (an error at end of line) puts the caret after the text.
  EXPECT_EQ(caret_line("ab", 3), "  ^");
  EXPECT_EQ(caret_line("ab", 9), "  ^");
}

TEST(FormatDiagnostic, CompilerStyleWithSourceLineAndCaret) {
  const std::string source = "fn f() {\n\tlet x = nope;\n}\n";
  ShaderDiagnostic d{Severity::Error, "s.wgsl", 2, 10, "unresolved value 'nope'"};
  EXPECT_EQ(format_diagnostic(d, source),
            "s.wgsl:2:10: error: unresolved value 'nope'\n"
            "\tlet x = nope;\n"
            "\t        ^\n");
}

TEST(FormatDiagnostic, NoPlaceMeansNoSourceLine) {
  ShaderDiagnostic d{Severity::Error, "s.wgsl", 0, 0, "something failed"};
  EXPECT_EQ(format_diagnostic(d, "fn f() {}\n"), "s.wgsl: error: something failed\n");
  // A line the source does not have: the header alone.
  ShaderDiagnostic beyond{Severity::Warning, "s.wgsl", 9, 1, "late"};
  EXPECT_EQ(format_diagnostic(beyond, "fn f() {}\n"), "s.wgsl:9:1: warning: late\n");
}

TEST(Excerpt, ShortLineIsShownWhole) {
  const std::string line(kExcerptWidth, 'x');
  EXPECT_EQ(excerpt(line, 7).line, line);
  EXPECT_EQ(excerpt(line, 7).caret, "      ^");
}

TEST(Excerpt, LongLineIsCutToAWindowAroundTheColumn) {
  // One character too many for the whole line: cut, and the caret still under the column.
  std::string line(kExcerptWidth + 1, 'x');
  line[kExcerptWidth / 2 + 10] = 'E';
  const Excerpt middle = excerpt(line, kExcerptWidth / 2 + 11);
  EXPECT_THAT(middle.line, ::testing::StartsWith("..."));
  EXPECT_THAT(middle.line, ::testing::EndsWith("x"));  // the window reaches the end: no mark there
  EXPECT_EQ(middle.caret.find('^'), middle.line.find('E'));

  const std::string long_line = std::string(500, 'a') + "E" + std::string(500, 'b');
  const Excerpt inside = excerpt(long_line, 501);
  EXPECT_EQ(inside.line, "..." + std::string(kExcerptWidth / 2, 'a') + "E" + std::string(kExcerptWidth / 2 - 1, 'b') + "...");
  EXPECT_EQ(inside.caret, std::string(3 + kExcerptWidth / 2, ' ') + "^");
  // Near an end, the whole width from that end.
  EXPECT_EQ(excerpt(long_line, 2).line, std::string(kExcerptWidth, 'a') + "...");
  EXPECT_EQ(excerpt(long_line, 2).caret, " ^");
  const Excerpt past_end = excerpt(long_line, 5000);
  EXPECT_EQ(past_end.line, "..." + std::string(kExcerptWidth, 'b'));
  EXPECT_EQ(past_end.caret, std::string(3 + kExcerptWidth, ' ') + "^");
}

TEST(Excerpt, WindowCountsCharactersNotBytesAndCutsNoneInTwo) {
  std::string line;
  for (int i = 0; i < 300; ++i) line += "\xc3\xa9";  // é, two bytes
  line += "E";
  const Excerpt shown = excerpt(line, 601);
  EXPECT_EQ(shown.line, "..." + [] { std::string s; for (size_t i = 0; i + 1 < kExcerptWidth; ++i) s += "\xc3\xa9"; return s; }() + "E");
  EXPECT_EQ(shown.caret, std::string(3 + kExcerptWidth - 1, ' ') + "^");
}

TEST(Excerpt, ControlCharactersAreEscapedAndTheCaretCountsTheEscape) {
  using namespace std::string_literals;
  // NUL, ESC, DEL and C1's CSI (U+009B) would reach the terminal raw; a tab stays a tab.
  const Excerpt shown = excerpt("\0\x1b[2J\x7f\xc2\x9b\tE"s, 10);
  EXPECT_EQ(shown.line, "\\x00\\x1b[2J\\x7f\\u009b\tE");
  EXPECT_EQ(shown.caret, std::string(4 + 4 + 3 + 4 + 6, ' ') + "\t^");
  EXPECT_EQ(caret_line("\x1b"s + "x", 2), "    ^");
}

TEST(SourceLine, HandlesCrLfAndTheLastLineWithoutNewline) {
  EXPECT_EQ(source_line("a\r\nb\r\nc", 2), "b");
  EXPECT_EQ(source_line("a\nb\nc", 3), "c");
  EXPECT_EQ(source_line("a\nb\n", 3), "");
  EXPECT_FALSE(source_line("a\nb\n", 4).has_value());
  EXPECT_FALSE(source_line("a", 0).has_value());
}

TEST(SourceLine, BreaksAtEveryWgslLineBreak) {
  // LF, CR, CR LF, VT, FF, NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR (tests/cli: Dawn agrees).
  const std::string source = "a\nb\rc\r\nd\ve\ff\xC2\x85g\xE2\x80\xA8h\xE2\x80\xA9i";
  const char* expected[] = {"a", "b", "c", "d", "e", "f", "g", "h", "i"};
  for (uint32_t line = 1; line <= 9; ++line) EXPECT_EQ(source_line(source, line), expected[line - 1]) << line;
  EXPECT_FALSE(source_line(source, 10).has_value());
  // CR CR is two breaks; LF CR too (only CR LF is one).
  EXPECT_EQ(source_line("a\r\rb", 3), "b");
  EXPECT_EQ(source_line("a\n\rb", 3), "b");
}

TEST(SourceLine, LookAlikesOfLineBreaksAreText) {
  // NO-BREAK SPACE and U+2027 share lead bytes with NEL and U+2028; a cut sequence at the end
  // is text too.
  EXPECT_EQ(line_break_length("\xC2\xA0", 0), 0u);
  EXPECT_EQ(line_break_length("\xE2\x80\xA7", 0), 0u);
  EXPECT_EQ(line_break_length("\xE2\x80", 0), 0u);
  const std::string text = "a\xC2\xA0" "b\xE2\x80\xA7" "c";
  EXPECT_EQ(source_line(text, 1), text);
}

TEST(FormatDiagnostic, CrOnlySourceGetsItsExcerpt) {
  ShaderDiagnostic d{Severity::Error, "mac.wgsl", 2, 3, "bad"};
  EXPECT_EQ(format_diagnostic(d, "// one\rx = 1;\r"), "mac.wgsl:2:3: error: bad\nx = 1;\n  ^\n");
}

TEST(Utf8, AcceptsWellFormedText) {
  EXPECT_FALSE(first_invalid_utf8("").has_value());
  EXPECT_FALSE(first_invalid_utf8("plain ascii\n\t").has_value());
  EXPECT_FALSE(first_invalid_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf").has_value());
}

TEST(Utf8, FindsTheFirstBadByte) {
  EXPECT_EQ(first_invalid_utf8("ab\xff"), 2u);                  // never valid
  EXPECT_EQ(first_invalid_utf8("a\x80"), 1u);                   // stray continuation
  EXPECT_EQ(first_invalid_utf8("\xc0\xaf"), 0u);                // overlong '/'
  EXPECT_EQ(first_invalid_utf8("xx\xe0\x80\xaf"), 2u);          // overlong 3-byte form
  EXPECT_EQ(first_invalid_utf8("\xed\xa0\x80"), 0u);            // UTF-16 surrogate
  EXPECT_EQ(first_invalid_utf8("\xf4\x90\x80\x80"), 0u);        // above U+10FFFF
  EXPECT_EQ(first_invalid_utf8("ok \xe2\x82"), 3u);             // truncated at the end
  EXPECT_EQ(first_invalid_utf8("\xc3\xa9\xc3("), 2u);           // bad continuation
}

TEST(Utf8, CheckNamesThePathTheByteAndTheOffset) {
  auto checked = check_utf8("dir/s.wgsl", "ok\xfe");
  ASSERT_FALSE(checked.ok());
  EXPECT_EQ(checked.error().kind, ErrorKind::InvalidArgument);
  EXPECT_EQ(checked.error().id, MessageId::SourceNotUtf8);
  EXPECT_EQ(checked.error().message, "dir/s.wgsl: not UTF-8: invalid byte 0xfe at byte offset 2");
}

// One Severity for every message warden emits: a compiler diagnostic's is the one Diagnostics
// keeps, and prints the same word.
TEST(Severity, ShaderDiagnosticsSpeakWardensOneSeverity) {
  static_assert(std::is_same_v<decltype(ShaderDiagnostic::severity), warden::Severity>);
  Diagnostics log;
  const ShaderDiagnostic d{Severity::Warning, "s.wgsl", 1, 2, "unused"};
  log.report(d.severity, d.id, format_diagnostic(d, "let x = 1;"));
  ASSERT_EQ(log.entries().size(), 1u);
  EXPECT_EQ(log.entries()[0].severity, Severity::Warning);
  EXPECT_EQ(log.entries()[0].id, MessageId::ShaderCompilerMessage);  // the compiler's own words
  EXPECT_THAT(log.entries()[0].message, HasSubstr(std::string("s.wgsl:1:2: ") + to_string(log.entries()[0].severity)));
}

}  // namespace
}  // namespace warden::shaders
