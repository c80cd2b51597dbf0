#include <plinth/sorting.hpp>

#include "algorithms/kit/recipe_cache.hpp"
#include "algorithms/sort_arrays.hpp"
#include "algorithms/sort_radix.hpp"

#include <plinth/array_expression.hpp>
#include <plinth/array_metadata.hpp>
#include <plinth/array_shape.hpp>
#include <plinth/elementwise.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <numeric>
#include <vector>

namespace plinth {

namespace {

using detail::RadixResult;

/// The radix sort of `a` along its last axis (keys checked and made contiguous).
RadixResult sort_last(const Queue& queue, const Array& a, bool indices, bool descending,
                      std::string_view function) {
  detail::check_sort_array(queue, a, function, "a");
  const Array keys = detail::sort_keys(queue, a);
  const std::size_t row = a.shape().empty() ? 1 : a.shape().back();
  RadixResult result = detail::radix_sort(queue, keys, row, indices, descending, function);
  if (a.dtype() != keys.dtype()) {
    result.keys = detail::reinterpret(result.keys, a.dtype(), result.keys.shape());
  }
  return result;
}

/// sort or argsort of `a` along `axis`: along the last axis directly, along another one by
/// moving it last, sorting and moving it back.
Array sort_along(const Queue& queue, const Array& a, std::ptrdiff_t axis, bool indices,
                 std::string_view function) {
  detail::check_sort_array(queue, a, function, "a");
  const std::size_t ax = detail::sort_axis(function, a.ndim(), axis);
  const auto pick = [&](RadixResult result) { return indices ? *result.indices : result.keys; };
  if (ax + 1 == a.ndim()) return pick(sort_last(queue, a, indices, false, function));
  std::vector<std::ptrdiff_t> order(a.ndim());
  std::iota(order.begin(), order.end(), std::ptrdiff_t{0});
  order.erase(order.begin() + static_cast<std::ptrdiff_t>(ax));
  order.push_back(static_cast<std::ptrdiff_t>(ax));
  std::vector<std::ptrdiff_t> back(a.ndim());
  for (std::size_t d = 0; d < order.size(); ++d)
    back[static_cast<std::size_t>(order[d])] = static_cast<std::ptrdiff_t>(d);
  const Array moved = copy(queue, transposed_view(a, order));
  return transpose(queue, pick(sort_last(queue, moved, indices, false, function)), back);
}

/// The dtype `values` move as: an unsigned integer of their itemsize where there is one
/// (bool, float16 and structs of 1, 2, 4 or 8 bytes included), else their own.
DType moved_dtype(const DType& dtype) {
  switch (dtype.itemsize()) {
    case 1: return DType::uint8();
    case 2: return DType::uint16();
    case 4: return DType::uint32();
    case 8: return DType::uint64();
    default: return dtype;
  }
}

/// values[row r][perm[r, j]] into out[r, j], for `dtype` values.
ElementwiseKernel gather_kernel(const DType& dtype) {
  return detail::recipe_cache().get<ElementwiseKernel>("sort_gather", dtype.name(), [&] {
    return ElementwiseKernel(
        {ElementwiseArg::output("out", dtype), ElementwiseArg::input("perm", DType::int64()),
         ElementwiseArg::input("values", dtype), ElementwiseArg::scalar("row", DType::uint64())},
        "out[i] = values[(i / row) * row + perm[i]]", {.name = "sort_gather"});
  });
}

}  // namespace

Array sort(const Queue& queue, const Array& a, std::ptrdiff_t axis) {
  return sort_along(queue, a, axis, false, "sort");
}

Array argsort(const Queue& queue, const Array& a, std::ptrdiff_t axis) {
  return sort_along(queue, a, axis, true, "argsort");
}

SortedPairs sort_by_key(const Queue& queue, const Array& keys, const Array& values) {
  constexpr std::string_view function = "sort_by_key";
  detail::check_sort_array(queue, keys, function, "keys");
  if (!(values.device() == queue.device())) {
    detail::sort_fail(
        function, "values",
        fmt::format("the array is on device {} ('{}'), the queue on device {}",
                    values.device().index(), values.device().name(), queue.device().index()));
  }
  if (keys.ndim() == 0) detail::sort_fail(function, "keys", "a zero-dimensional array");
  if (values.shape() != keys.shape()) {
    detail::sort_fail(function, "values",
                      fmt::format("has shape ({}), the keys ({})", fmt::join(values.shape(), ", "),
                                  fmt::join(keys.shape(), ", ")));
  }
  RadixResult sorted = sort_last(queue, keys, true, false, function);
  const DType moved = moved_dtype(values.dtype());
  Array result = Array::empty(queue, values.shape(), values.dtype());
  if (values.size() == 0) return {sorted.keys, result};
  Array source = values;
  if (!values.is_contiguous() || values.first_element_offset() % moved.itemsize() != 0) {
    source = copy(queue, values);
  }
  const auto row = static_cast<std::uint64_t>(keys.shape().back());
  gather_kernel(moved)(queue, detail::reinterpret(result, moved, {values.size()}),
                       detail::reinterpret(*sorted.indices, DType::int64(), {values.size()}),
                       detail::reinterpret(source, moved, {values.size()}), row);
  return {sorted.keys, result};
}

Array partition(const Queue& queue, const Array& a, std::ptrdiff_t kth, std::ptrdiff_t axis) {
  detail::check_sort_array(queue, a, "partition", "a");
  const std::size_t ax = detail::sort_axis("partition", a.ndim(), axis);
  const auto extent = static_cast<std::ptrdiff_t>(a.shape()[ax]);
  if (kth < -extent || kth >= extent) {
    detail::sort_fail("partition", "kth",
                      fmt::format("{} is out of range for an axis of {} elements", kth, extent));
  }
  return sort_along(queue, a, axis, false, "partition");
}

TopK topk(const Queue& queue, const Array& a, std::size_t k, bool largest) {
  detail::check_sort_array(queue, a, "topk", "a");
  detail::sort_axis("topk", a.ndim(), -1);
  if (k > a.shape().back()) {
    detail::sort_fail(
        "topk", "k",
        fmt::format("{} is more than the last axis's {} elements", k, a.shape().back()));
  }
  const RadixResult sorted = sort_last(queue, a, true, largest, "topk");
  std::vector<Index> first_k(a.ndim(), Slice::all());
  first_k.back() = Slice(0, static_cast<std::ptrdiff_t>(k));
  return {copy(queue, sorted.keys.view(first_k)), copy(queue, sorted.indices->view(first_k))};
}

}  // namespace plinth
