#include "algorithms/outside_uses.hpp"

#include "templates/identifiers.hpp"

#include <fmt/format.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace plinth::detail {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

/// A part of the preamble that may reach the operation: [begin, end), and the names that
/// are a function-like macro's own parameters there (not the arrays of those names).
struct Region {
  std::size_t begin, end;
  std::vector<std::string_view> parameters;
};

/// The parameters of the function-like macro whose `#define` is at [begin, end) (none for an
/// object-like one: its name is not followed at once by `(`).
std::vector<std::string_view> macro_parameters(std::string_view text, std::size_t begin,
                                               std::size_t end) {
  std::vector<std::string_view> parameters;
  std::size_t p = text.find("define", begin) + 6;
  while (p < end && is_blank(text[p])) ++p;
  while (p < end && is_ident_char(text[p])) ++p;  // the macro's name
  if (p >= end || text[p] != '(') return parameters;
  ++p;
  while (p < end && text[p] != ')') {
    const std::size_t start = p;
    while (p < end && is_ident_char(text[p])) ++p;
    if (p > start) {
      parameters.push_back(text.substr(start, p - start));
    } else {
      ++p;  // a comma, a blank, a continuation, `...`
    }
  }
  return parameters;
}

/// If a `#define` directive starts on the line at `line`, its end: the end of its last line
/// (continued by a backslash before the newline), not counting that newline.
std::optional<std::size_t> define_end(std::string_view text, std::size_t line) {
  std::size_t p = line;
  while (p < text.size() && is_blank(text[p])) ++p;
  if (p >= text.size() || text[p] != '#') return std::nullopt;
  ++p;
  while (p < text.size() && is_blank(text[p])) ++p;
  if (text.substr(p, 6) != "define") return std::nullopt;
  while (true) {
    const auto newline = text.find('\n', p);
    if (newline == std::string_view::npos) return text.size();
    std::size_t last = newline;
    if (last > 0 && text[last - 1] == '\r') --last;
    if (last == 0 || text[last - 1] != '\\') return newline;
    p = newline + 1;
  }
}

/// The parts of `preamble` that a macro or def call brings into the operation, in order.
std::vector<Region> reaching_regions(std::string_view preamble) {
  std::vector<Region> regions;
  std::size_t pos = 0;
  bool line_start = true;  // pos is at the start of a line (else just after a `</%def>`)
  while (pos < preamble.size()) {
    if (line_start) {
      if (const auto end = define_end(preamble, pos)) {
        regions.push_back({pos, *end, macro_parameters(preamble, pos, *end)});
        pos = *end;
      }
    }
    const auto newline = preamble.find('\n', pos);
    const auto line_end = newline == std::string_view::npos ? preamble.size() : newline;
    const auto open = preamble.find("<%def", pos);
    if (open != std::string_view::npos && open < line_end) {
      const auto tag_end = preamble.find('>', open);
      const auto body = tag_end == std::string_view::npos ? preamble.size() : tag_end + 1;
      const auto close = preamble.find("</%def>", body);
      if (close == std::string_view::npos) {
        regions.push_back({body, preamble.size(), {}});
        break;
      }
      regions.push_back({body, close, {}});
      pos = close + 7;
      line_start = false;
      continue;
    }
    pos = line_end == preamble.size() ? line_end : line_end + 1;
    line_start = true;
  }
  return regions;
}

}  // namespace

RewrittenOperation rewrite_preamble(std::string_view preamble,
                                    std::span<const std::string> array_names,
                                    const std::vector<bool>& strided) {
  RewrittenOperation result;
  result.raw_use.assign(array_names.size(), false);
  result.text.reserve(preamble.size());
  std::size_t copied = 0;
  for (const auto& region : reaching_regions(preamble)) {
    result.text.append(preamble.substr(copied, region.begin - copied));
    // A macro's parameter of an array's name is not that array.
    std::vector<std::string> names(array_names.begin(), array_names.end());
    for (auto& name : names) {
      for (const auto parameter : region.parameters) {
        if (name == parameter) name.clear();
      }
    }
    const auto part =
        rewrite_operation(preamble.substr(region.begin, region.end - region.begin), names, strided);
    result.text += part.text;
    for (std::size_t k = 0; k < array_names.size(); ++k) {
      if (part.raw_use[k]) result.raw_use[k] = true;
    }
    copied = region.end;
  }
  result.text.append(preamble.substr(copied));
  return result;
}

RenderGlobals rewrite_render_globals(const RenderGlobals& globals,
                                     std::span<const std::string> array_names,
                                     const std::vector<bool>& strided) {
  RenderGlobals result = globals;
  for (auto& [name, value] : result) {
    if (value.is_string()) value = rewrite_operation(value.as_string(), array_names, strided).text;
  }
  return result;
}

std::vector<std::string> outside_raw_uses(std::string_view preamble, const RenderGlobals& globals,
                                          std::span<const std::string> array_names) {
  std::vector<std::string> where(array_names.size());
  const auto in_preamble = rewrite_preamble(preamble, array_names, {}).raw_use;
  for (std::size_t k = 0; k < array_names.size(); ++k) {
    if (in_preamble[k]) where[k] = "the preamble (a #define or <%def>)";
  }
  for (const auto& [name, value] : globals) {
    if (!value.is_string()) continue;
    const auto uses = rewrite_operation(value.as_string(), array_names, {}).raw_use;
    for (std::size_t k = 0; k < array_names.size(); ++k) {
      if (uses[k] && where[k].empty()) where[k] = fmt::format("the render global '{}'", name);
    }
  }
  return where;
}

}  // namespace plinth::detail
