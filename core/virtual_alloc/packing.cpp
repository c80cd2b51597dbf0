#include "virtual_alloc/packing.hpp"

#include <algorithm>
#include <numeric>

namespace plinth::detail {

std::optional<std::size_t> first_fit(std::span<const RealCandidate> reals,
                                     std::size_t size) noexcept {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < reals.size(); ++i) {
    if (reals[i].blocked || reals[i].size < size) continue;
    if (!best || reals[i].size < reals[*best].size) best = i;
  }
  return best;
}

Packing pack_zero_offset(std::span<const std::size_t> sizes,
                         std::span<const std::vector<std::size_t>> conflicts) {
  const std::size_t n = sizes.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return sizes[a] > sizes[b]; });

  constexpr std::size_t unplaced = static_cast<std::size_t>(-1);
  Packing packing;
  packing.real_of.assign(n, unplaced);
  std::vector<RealCandidate> candidates;
  for (const std::size_t i : order) {
    candidates.resize(packing.real_sizes.size());
    for (std::size_t r = 0; r < candidates.size(); ++r) {
      candidates[r] = RealCandidate{packing.real_sizes[r], false};
    }
    if (i < conflicts.size()) {
      for (const std::size_t j : conflicts[i]) {
        if (j < n && j != i && packing.real_of[j] != unplaced) {
          candidates[packing.real_of[j]].blocked = true;
        }
      }
    }
    if (const auto real = first_fit(candidates, sizes[i])) {
      packing.real_of[i] = *real;
    } else {
      packing.real_of[i] = packing.real_sizes.size();
      packing.real_sizes.push_back(sizes[i]);
    }
  }
  return packing;
}

}  // namespace plinth::detail
