#include "runtime/env_values.hpp"

#include <algorithm>
#include <limits>

namespace plinth::detail {

bool means_off(std::string_view value) noexcept {
  for (const std::string_view word : {"off", "0", "false", "none"}) {
    if (value.size() == word.size() &&
        std::equal(value.begin(), value.end(), word.begin(), [](char a, char b) {
          return (a >= 'A' && a <= 'Z' ? char(a - 'A' + 'a') : a) == b;
        })) {
      return true;
    }
  }
  return false;
}

bool parse_byte_size(std::string_view text, std::uint64_t& out) noexcept {
  if (text.empty()) return false;
  std::uint64_t multiplier = 1;
  switch (text.back()) {
    case 'k':
    case 'K': multiplier = std::uint64_t{1} << 10; break;
    case 'm':
    case 'M': multiplier = std::uint64_t{1} << 20; break;
    case 'g':
    case 'G': multiplier = std::uint64_t{1} << 30; break;
    default: break;
  }
  if (multiplier != 1) text.remove_suffix(1);
  if (text.empty()) return false;
  std::uint64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) return false;
    value = value * 10 + digit;
  }
  if (value > std::numeric_limits<std::uint64_t>::max() / multiplier) return false;
  out = value * multiplier;
  return true;
}

}  // namespace plinth::detail
