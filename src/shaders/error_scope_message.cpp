#include "warden/shaders/error_scope_message.h"

#include <charconv>
#include <regex>
#include <string>

namespace warden::shaders {
namespace {

uint32_t to_u32(const std::ssub_match& match) {
  uint32_t value = 0;
  const char* begin = &*match.first;
  std::from_chars(begin, begin + match.length(), value);
  return value;
}

Severity severity_from(std::string_view word) {
  if (word == "warning") return Severity::Warning;
  if (word == "error") return Severity::Error;
  return Severity::Info;  // "note", "info"
}

std::string_view trim(std::string_view text) {
  const char* space = " \t\r\n";
  size_t begin = text.find_first_not_of(space);
  if (begin == std::string_view::npos) return {};
  size_t end = text.find_last_not_of(space);
  return text.substr(begin, end - begin + 1);
}

}  // namespace

std::vector<ShaderDiagnostic> parse_error_scope_message(std::string_view path, std::string_view message) {
  std::vector<ShaderDiagnostic> out;
  if (trim(message).empty()) return out;

  static const std::regex dawn_form(R"(:(\d+):(\d+) (error|warning|note|info): (.*))");
  size_t begin = 0;
  while (begin <= message.size()) {
    size_t end = message.find('\n', begin);
    if (end == std::string_view::npos) end = message.size();
    std::string line(message.substr(begin, end - begin));
    std::smatch m;
    if (std::regex_search(line, m, dawn_form)) {
      out.push_back(ShaderDiagnostic{severity_from(m[3].str()), std::string(path), to_u32(m[1]),
                                     to_u32(m[2]), m[4].str()});
    }
    begin = end + 1;
  }
  if (!out.empty()) return out;

  static const std::regex naga_form(R"(wgsl:(\d+):(\d+))");
  std::string whole(trim(message));
  std::smatch m;
  if (std::regex_search(whole, m, naga_form)) {
    out.push_back(ShaderDiagnostic{Severity::Error, std::string(path), to_u32(m[1]), to_u32(m[2]), whole});
    return out;
  }
  out.push_back(ShaderDiagnostic{Severity::Error, std::string(path), 0, 0, whole});
  return out;
}

}  // namespace warden::shaders
