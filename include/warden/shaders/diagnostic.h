/// @file
/// What a shader compiler said about one place in one file, kept exactly as it said it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warden/core/diagnostics.h"

namespace warden::shaders {

/// One message of the WGSL compiler, with its place in the source.
struct ShaderDiagnostic {
  /// Error (no module), warning or info: warden's one Severity (core/diagnostics.h).
  Severity severity = Severity::Error;
  /// The file (or the name given to compile()) the source came from.
  std::string path{};
  /// 1-based, exactly as the compiler reported them; 0 when the message names no place
  /// (for example a failure the compiler could not pin to a token).
  uint32_t line = 0;
  /// In UTF-8 bytes from the start of the line, as Dawn reports it: a tab is one column and a
  /// two-byte character before the error counts two (tests/shaders/compile_test.cpp proves it).
  uint32_t column = 0;
  std::string message{};  ///< the compiler's message, whole
  /// Which of warden's messages this is: the compiler's own words, or a note warden adds.
  MessageId id = MessageId::ShaderCompilerMessage;
  /// For a shader linked from WESL modules: where the compiler put it in the linked WGSL
  /// (line and column above are in the file the user wrote); 0 when nothing was linked.
  uint32_t linked_line = 0;
  uint32_t linked_column = 0;  ///< see linked_line
  /// Notes printed after the excerpt: for a place in an imported module, how the root
  /// module reaches it.
  std::vector<std::string> notes{};

  /// Equal when every field is.
  friend bool operator==(const ShaderDiagnostic&, const ShaderDiagnostic&) = default;
};

/// True when any of `diagnostics` is an Error.
bool has_error(const std::vector<ShaderDiagnostic>& diagnostics);

/// The form compilers print, so editors and terminals can jump to the place:
/// @code{.unparsed}
///   path:line:col: error: message
///   <the source line, as excerpt() shows it>
///   <spaces, with the line's own tabs kept, then ^ under the column>
///   note: <each note>
/// @endcode
/// The source line and caret are left out when `source` does not have that line.
std::string format_diagnostic(const ShaderDiagnostic& diagnostic, std::string_view source);

/// The most characters of a source line an excerpt shows: a longer line (a generated shader on
/// one line) is cut to this many around the column.
inline constexpr size_t kExcerptWidth = 120;

/// A source line as a diagnostic shows it, and the caret line under it.
struct Excerpt {
  std::string line{};   ///< the text shown
  std::string caret{};  ///< the line's tabs kept, a space for every other column shown, then ^
};

/// The excerpt of `line_text` for a 1-based byte `column` (0: the first). Control characters
/// (C0 but tab, DEL, C1) are written as escapes, `\x1b` and `\u009b`, so that a terminal shows
/// them rather than obeys them. A line of more than kExcerptWidth characters is cut to
/// kExcerptWidth characters around the column, each cut end marked `...`. The caret counts one
/// column per character (a multi-byte UTF-8 character is one), an escape's width for an escape.
Excerpt excerpt(std::string_view line_text, uint32_t column);

/// The bytes of the line break that starts at `offset` in `source`, 0 when none does. WGSL's
/// line breaks (spec section "Blankspace and line breaks", after UAX #14 LB4/LB5): LF, VT, FF,
/// CR, CR LF (one break), U+0085, U+2028 and U+2029. Dawn counts lines the same way
/// (tests/shaders/diagnostic_test.cpp compiles a file with each).
size_t line_break_length(std::string_view source, size_t offset);

/// The text of 1-based line `line` of `source` without its line break; nullopt if there is none.
std::optional<std::string_view> source_line(std::string_view source, uint32_t line);

/// The caret line for a 1-based byte `column` of `line_text`: excerpt(line_text, column).caret.
/// Every character before the column becomes a space except tabs, which stay tabs (a multi-byte
/// UTF-8 character is one space), so the caret lines up under the column in a terminal.
std::string caret_line(std::string_view line_text, uint32_t column);

}  // namespace warden::shaders
