#include "warden/shaders/diagnostic.h"

#include <algorithm>

#include <fmt/format.h>

namespace warden::shaders {

const char* to_string(Severity severity) {
  switch (severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: return "info";
  }
  return "unknown";
}

bool has_error(const std::vector<ShaderDiagnostic>& diagnostics) {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const ShaderDiagnostic& d) { return d.severity == Severity::Error; });
}

std::optional<std::string_view> source_line(std::string_view source, uint32_t line) {
  if (line == 0) return std::nullopt;
  size_t begin = 0;
  for (uint32_t current = 1; current < line; ++current) {
    size_t newline = source.find('\n', begin);
    if (newline == std::string_view::npos) return std::nullopt;
    begin = newline + 1;
  }
  size_t end = source.find('\n', begin);
  std::string_view text = source.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin);
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  return text;
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
