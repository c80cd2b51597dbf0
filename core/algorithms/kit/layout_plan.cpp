#include "algorithms/kit/layout_plan.hpp"

#include <algorithm>
#include <numeric>

namespace plinth::detail {

namespace {

constexpr std::uint64_t limit31 = std::uint64_t{1} << 31;

std::uint64_t magnitude(std::int64_t value) {
  return value < 0 ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
}

}  // namespace

LayoutPlan plan_layout(std::span<const std::size_t> shape, std::span<const std::int64_t> strides,
                       std::size_t arrays, std::optional<std::size_t> order_by) {
  const std::size_t ndim = shape.size();
  const auto stride = [&](std::size_t array, std::size_t d) { return strides[array * ndim + d]; };

  // The dimensions that matter, in the order walked.
  SmallVector<std::size_t, 6> dims;
  for (std::size_t d = 0; d < ndim; ++d) {
    if (shape[d] != 1) dims.push_back(d);
  }
  LayoutPlan plan;
  if (order_by && *order_by < arrays) {
    const auto by = *order_by;
    std::stable_sort(dims.begin(), dims.end(), [&](std::size_t a, std::size_t b) {
      return magnitude(stride(by, a)) > magnitude(stride(by, b));
    });
    plan.reordered = !std::is_sorted(dims.begin(), dims.end());
  }

  // Merge each dimension into the one walked before it where every array steps through both
  // as through one: its outer stride is the inner one times the inner extent.
  SmallVector<std::size_t, 6> groups;  // per merged dimension: its innermost source dimension
  for (const auto d : dims) {
    bool merge = !plan.shape.empty();
    for (std::size_t k = 0; merge && k < arrays; ++k) {
      const auto outer = stride(k, groups.back());
      merge = outer == stride(k, d) * static_cast<std::int64_t>(shape[d]);
    }
    if (merge) {
      plan.shape.back() *= shape[d];
      groups.back() = d;
    } else {
      plan.shape.push_back(shape[d]);
      groups.push_back(d);
    }
  }
  const bool single = plan.shape.empty();
  if (single) plan.shape.assign(1, std::size_t{1});
  const auto rank = plan.shape.size();

  plan.strides.resize(arrays * rank);
  plan.direct.assign(arrays, true);
  for (std::size_t k = 0; k < arrays; ++k) {
    std::int64_t row_major = 1;
    for (std::size_t m = rank; m-- > 0;) {
      const auto s = single ? 0 : stride(k, groups[m]);
      plan.strides[k * rank + m] = s;
      if (plan.shape[m] > 1 && s != row_major) plan.direct[k] = false;
      row_major *= static_cast<std::int64_t>(plan.shape[m]);
    }
  }

  // 32-bit indexing: the element count and every array's reach below 2^31.
  std::uint64_t total = 1;
  bool fits = true;
  for (const auto extent : plan.shape) {
    total *= extent;
    if (total >= limit31) fits = false;
    if (!fits) break;
  }
  for (std::size_t k = 0; fits && k < arrays; ++k) {
    std::uint64_t reach = 0;
    for (std::size_t m = 0; m < rank && fits; ++m) {
      const auto s = magnitude(plan.strides[k * rank + m]);
      const auto steps = static_cast<std::uint64_t>(plan.shape[m] == 0 ? 0 : plan.shape[m] - 1);
      if (s != 0 && steps > (limit31 - 1) / s) fits = false;
      if (fits) reach += s * steps;
      if (reach >= limit31) fits = false;
    }
  }
  plan.index32 = fits;
  return plan;
}

FastDivisor fast_divisor(std::uint32_t divisor) noexcept {
  std::uint32_t log = 0;  // ceil(log2(divisor))
  while ((std::uint64_t{1} << log) < divisor) ++log;
  const std::uint64_t power = std::uint64_t{1} << (32 + log);
  return {power / divisor + (power % divisor != 0 ? 1 : 0), 32 + log};
}

}  // namespace plinth::detail
