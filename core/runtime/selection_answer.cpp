#include "runtime/selection_answer.hpp"

#include <plinth/printable.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace plinth::detail {

std::string bracketed(const std::vector<std::size_t>& indices) {
  return fmt::format("[{}]", fmt::join(indices, ", "));
}

SelectionAnswer parse_selection(std::string_view line, std::size_t count,
                                std::optional<std::size_t> wanted,
                                const std::vector<std::size_t>& defaults, std::string_view what) {
  auto refuse = [](std::string problem) { return SelectionAnswer{{}, std::move(problem)}; };
  auto separator = [](char c) { return c == ',' || c == ' ' || c == '\t' || c == '\r'; };
  std::vector<std::size_t> chosen;
  std::size_t pos = 0;
  while (pos < line.size()) {
    if (separator(line[pos])) {
      ++pos;
      continue;
    }
    std::size_t end = pos;
    while (end < line.size() && !separator(line[end])) ++end;
    const std::string_view word = line.substr(pos, end - pos);
    std::size_t index = 0;
    const auto [last, ec] = std::from_chars(word.data(), word.data() + word.size(), index);
    if (ec != std::errc() || last != word.data() + word.size()) {
      return refuse(fmt::format("'{}' is not a number", printable(word)));
    }
    if (index >= count) {
      return refuse(fmt::format("there is no {} {}: choose from 0 to {}", what, index, count - 1));
    }
    if (std::find(chosen.begin(), chosen.end(), index) != chosen.end()) {
      return refuse(fmt::format("{} {} is chosen twice", what, index));
    }
    chosen.push_back(index);
    pos = end;
  }
  if (chosen.empty()) chosen = defaults;
  if (wanted && chosen.size() != *wanted) {
    return refuse(
        fmt::format("Exactly {} {}{} must be selected", *wanted, what, *wanted == 1 ? "" : "s"));
  }
  if (chosen.empty()) return refuse(fmt::format("choose at least one {}", what));
  return {chosen, {}};
}

}  // namespace plinth::detail
