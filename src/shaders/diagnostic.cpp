#include "warden/shaders/diagnostic.h"

#include <algorithm>
#include <cstddef>

#include <fmt/format.h>

namespace warden::shaders {

bool has_error(const std::vector<ShaderDiagnostic>& diagnostics) {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const ShaderDiagnostic& d) { return d.severity == Severity::Error; });
}

size_t line_break_length(std::string_view source, size_t offset) {
  const auto byte = [&](size_t i) { return i < source.size() ? static_cast<unsigned char>(source[i]) : 0u; };
  switch (byte(offset)) {
    case '\n': case '\v': case '\f': return 1;
    case '\r': return byte(offset + 1) == '\n' ? 2 : 1;
    case 0xC2: return byte(offset + 1) == 0x85 ? 2 : 0;  // U+0085 NEXT LINE
    case 0xE2:  // U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR
      return byte(offset + 1) == 0x80 && (byte(offset + 2) == 0xA8 || byte(offset + 2) == 0xA9) ? 3 : 0;
    default: return 0;
  }
}

std::optional<std::string_view> source_line(std::string_view source, uint32_t line) {
  if (line == 0) return std::nullopt;
  uint32_t current = 1;
  size_t begin = 0;
  for (size_t i = 0; i < source.size();) {
    const size_t length = line_break_length(source, i);
    if (length == 0) {
      ++i;
      continue;
    }
    if (current == line) return source.substr(begin, i - begin);
    ++current;
    i += length;
    begin = i;
  }
  if (current == line) return source.substr(begin);
  return std::nullopt;
}

namespace {

bool continues_character(unsigned char byte) { return (byte & 0xC0) == 0x80; }

// The offset `count` characters after (or, negative, before) `offset`, within `text`.
size_t step_characters(std::string_view text, size_t offset, std::ptrdiff_t count) {
  for (; count > 0 && offset < text.size(); --count) {
    do ++offset;
    while (offset < text.size() && continues_character(static_cast<unsigned char>(text[offset])));
  }
  for (; count < 0 && offset > 0; ++count) {
    do --offset;
    while (offset > 0 && continues_character(static_cast<unsigned char>(text[offset])));
  }
  return offset;
}

size_t count_characters(std::string_view text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return !continues_character(static_cast<unsigned char>(c));
  }));
}

struct ShownCharacter {
  std::string text;
  size_t columns = 1;
};

// The character of `length` bytes at `offset` as a terminal should get it: a control character
// as an escape, since a NUL or an ESC sequence from the source must not reach the terminal raw.
ShownCharacter shown_character(std::string_view text, size_t offset, size_t length) {
  const auto byte = static_cast<unsigned char>(text[offset]);
  const auto second = length == 2 ? static_cast<unsigned char>(text[offset + 1]) : 0u;
  std::string escape;
  if ((byte < 0x20 && byte != '\t') || byte == 0x7F) {
    escape = fmt::format("\\x{:02x}", byte);
  } else if (byte == 0xC2 && second >= 0x80 && second <= 0x9F) {  // C1 controls, U+0080..U+009F
    escape = fmt::format("\\u{:04x}", second);
  }
  if (escape.empty()) return {std::string(text.substr(offset, length)), 1};
  const size_t columns = escape.size();
  return {std::move(escape), columns};
}

constexpr std::string_view kCutMark = "...";

}  // namespace

Excerpt excerpt(std::string_view line_text, uint32_t column) {
  const size_t at = column == 0 ? 0 : std::min<size_t>(column - 1, line_text.size());
  size_t begin = 0, end = line_text.size();
  if (count_characters(line_text) > kExcerptWidth) {
    // Half the width before the column, the rest after; near an end, the whole width from it.
    constexpr auto kWidth = static_cast<std::ptrdiff_t>(kExcerptWidth);
    begin = step_characters(line_text, at, -kWidth / 2);
    end = step_characters(line_text, begin, kWidth);
    if (end == line_text.size()) begin = step_characters(line_text, end, -kWidth);
  }
  Excerpt shown;
  if (begin > 0) {
    shown.line = kCutMark;
    shown.caret = std::string(kCutMark.size(), ' ');
  }
  for (size_t i = begin; i < end;) {
    const size_t next = step_characters(line_text, i, 1);
    const ShownCharacter character = shown_character(line_text, i, next - i);
    shown.line += character.text;
    if (i < at) {
      // Tabs stay tabs so the caret lines up whatever the tab width.
      if (line_text[i] == '\t') {
        shown.caret += '\t';
      } else {
        shown.caret.append(character.columns, ' ');
      }
    }
    i = next;
  }
  if (end < line_text.size()) shown.line += kCutMark;
  shown.caret += '^';
  return shown;
}

std::string caret_line(std::string_view line_text, uint32_t column) { return excerpt(line_text, column).caret; }

std::string format_diagnostic(const ShaderDiagnostic& d, std::string_view source) {
  std::string out;
  if (d.line == 0) {
    out = fmt::format("{}: {}: {}\n", d.path, to_string(d.severity), d.message);
  } else {
    out = fmt::format("{}:{}:{}: {}: {}\n", d.path, d.line, d.column, to_string(d.severity), d.message);
  }
  if (auto text = source_line(source, d.line)) {
    const Excerpt shown = excerpt(*text, d.column);
    out += fmt::format("{}\n{}\n", shown.line, shown.caret);
  }
  for (const std::string& note : d.notes) out += fmt::format("note: {}\n", note);
  return out;
}

}  // namespace warden::shaders
