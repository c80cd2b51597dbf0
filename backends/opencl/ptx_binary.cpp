#include "ptx_binary.hpp"

#include <string_view>

namespace plinth::opencl {

namespace {

/// `text` from `at` on, past white space and comments (// to the end of the line, /* */).
/// npos for an unterminated block comment.
std::size_t skip_blank(std::string_view text, std::size_t at) {
  while (at < text.size()) {
    const char c = text[at];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++at;
    } else if (text.substr(at, 2) == "//") {
      const auto end = text.find('\n', at);
      at = end == std::string_view::npos ? text.size() : end + 1;
    } else if (text.substr(at, 2) == "/*") {
      const auto end = text.find("*/", at + 2);
      if (end == std::string_view::npos) return std::string_view::npos;
      at = end + 2;
    } else {
      break;
    }
  }
  return at;
}

/// Whether the directive `name` (".version") starts at `at`, followed by white space.
bool directive_at(std::string_view text, std::size_t at, std::string_view name) {
  return text.substr(at, name.size()) == name && at + name.size() < text.size() &&
         (text[at + name.size()] == ' ' || text[at + name.size()] == '\t');
}

}  // namespace

std::string ptx_binary_problem(std::span<const std::byte> bytes) {
  if (bytes.empty()) return "empty PTX";
  if (bytes.back() != std::byte{0}) return "PTX without its NUL terminator (truncated?)";
  std::size_t end = bytes.size();
  while (end > 0 && bytes[end - 1] == std::byte{0}) --end;
  if (end == 0) return "PTX of NUL bytes only";
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), end);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
      return "not PTX text (byte " + std::to_string(i) + " is " + std::to_string(c) + ")";
  }
  auto at = skip_blank(text, 0);
  if (at == std::string_view::npos) return "PTX with an unterminated comment";
  if (!directive_at(text, at, ".version"))
    return "PTX that does not begin with a .version directive (byte " + std::to_string(at) + ")";
  const auto line_end = text.find('\n', at);
  if (line_end == std::string_view::npos) return "PTX that ends after its .version directive";
  at = skip_blank(text, line_end + 1);
  if (at == std::string_view::npos || !directive_at(text, at, ".target"))
    return "PTX whose .version directive is not followed by a .target directive";
  return {};
}

}  // namespace plinth::opencl
