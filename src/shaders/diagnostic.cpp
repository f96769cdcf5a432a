#include "warden/shaders/diagnostic.h"

#include <algorithm>

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

std::string caret_line(std::string_view line_text, uint32_t column) {
  std::string caret;
  size_t before = column == 0 ? 0 : std::min<size_t>(column - 1, line_text.size());
  for (size_t i = 0; i < before; ++i) {
    auto byte = static_cast<unsigned char>(line_text[i]);
    if (byte == '\t') {
      caret += '\t';
    } else if ((byte & 0xC0) != 0x80) {
      // One space per character: continuation bytes of a multi-byte character add nothing.
      caret += ' ';
    }
  }
  caret += '^';
  return caret;
}

std::string format_diagnostic(const ShaderDiagnostic& d, std::string_view source) {
  std::string out;
  if (d.line == 0) {
    out = fmt::format("{}: {}: {}\n", d.path, to_string(d.severity), d.message);
  } else {
    out = fmt::format("{}:{}:{}: {}: {}\n", d.path, d.line, d.column, to_string(d.severity), d.message);
  }
  if (auto text = source_line(source, d.line)) {
    out += fmt::format("{}\n{}\n", *text, caret_line(*text, d.column));
  }
  return out;
}

}  // namespace warden::shaders
