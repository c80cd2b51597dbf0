#include "arrays/splay_box.hpp"

#include <algorithm>

namespace plinth::detail {

bool is_empty(const Box& box) noexcept {
  return std::any_of(box.begin(), box.end(), [](const auto& r) { return r.first >= r.second; });
}

std::optional<Box> plain_box(const std::vector<Index>& indices,
                             const std::vector<std::size_t>& shape) {
  if (indices.size() > shape.size()) return std::nullopt;
  Box box;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    const auto n = static_cast<std::ptrdiff_t>(shape[d]);
    if (d >= indices.size()) {
      box.emplace_back(0, shape[d]);
      continue;
    }
    const Index& index = indices[d];
    if (!index.is_slice() || index.slice().step != 1) return std::nullopt;
    // Python's rules for a step of 1: negative counts from the end, then clamped.
    const auto normalize = [n](std::ptrdiff_t position) {
      if (position < 0) position += n;
      return std::clamp<std::ptrdiff_t>(position, 0, n);
    };
    const auto start = normalize(index.slice().start.value_or(0));
    const auto stop = std::max(start, normalize(index.slice().stop.value_or(n)));
    box.emplace_back(static_cast<std::size_t>(start), static_cast<std::size_t>(stop));
  }
  return box;
}

std::vector<std::size_t> extents(const Box& box) {
  std::vector<std::size_t> result;
  for (const auto& [start, stop] : box) result.push_back(stop - start);
  return result;
}

}  // namespace plinth::detail
