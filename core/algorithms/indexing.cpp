// take, put, gather and scatter (include/plinth/indexing.hpp): each call reduces its index to
// an IndexedArray (index_kernel.hpp), a contiguous array indexed along consecutive dimensions,
// and runs the one index kernel on it.

#include <plinth/indexing.hpp>

#include "algorithms/array_expression_rules.hpp"
#include "algorithms/index_kernel.hpp"

#include <plinth/array_expression.hpp>
#include <plinth/array_shape.hpp>
#include <plinth/compaction.hpp>
#include <plinth/errors.hpp>
#include <plinth/host_array.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace plinth {

namespace {

using detail::check_argument_device;
using detail::contiguous_array;
using detail::flat_view;
using detail::IndexedArray;

void check_indices(const char* function, const char* name, const Array& indices) {
  if (!is_integer(indices.dtype()) && indices.dtype() != DType::boolean()) {
    throw LogicError(fmt::format("{}: argument '{}' is of dtype {}: indices must be integers",
                                 function, name, indices.dtype().name()));
  }
}

void check_values(const char* function, const Array& a, const Array& values) {
  if (values.dtype() != a.dtype()) {
    throw LogicError(fmt::format("{}: argument 'values' is of dtype {}, the array of {}", function,
                                 values.dtype().name(), a.dtype().name()));
  }
}

std::size_t normalized_axis(const char* function, std::ptrdiff_t axis, std::size_t ndim) {
  const auto n = static_cast<std::ptrdiff_t>(ndim);
  const auto d = axis < 0 ? axis + n : axis;
  if (d < 0 || d >= n) {
    throw LogicError(fmt::format("{}: axis {} is out of bounds for an array of dimension {}",
                                 function, axis, ndim));
  }
  return static_cast<std::size_t>(d);
}

/// numpy's broadcast shape of `shapes`. Throws LogicError naming them where they do not
/// broadcast, as numpy's advanced indexing does.
std::vector<std::size_t> broadcast_shapes(const char* function,
                                          const std::vector<std::vector<std::size_t>>& shapes) {
  std::vector<std::size_t> out;
  try {
    for (const auto& s : shapes) out = plinth::detail::broadcast_shapes(out, s);
  } catch (const LogicError&) {
    std::vector<std::string> texts;
    for (const auto& t : shapes) texts.push_back(fmt::format("({})", fmt::join(t, ",")));
    throw LogicError(
        fmt::format("{}: shape mismatch: arrays could not be broadcast together with shapes {}",
                    function, fmt::join(texts, " ")));
  }
  return out;
}

/// `a` broadcast to `shape` (which it broadcasts to), as a contiguous array (a copy unless
/// it is one already).
Array broadcast_contiguous(const Queue& queue, const Array& a,
                           const std::vector<std::size_t>& shape) {
  if (a.shape() == shape) return contiguous_array(queue, a);
  return copy(queue, broadcast_to(a, shape));
}

}  // namespace

Array take(const Queue& queue, const Array& a, const Array& indices,
           std::optional<std::ptrdiff_t> axis, IndexMode mode) {
  check_argument_device("take", "a", queue, a);
  check_argument_device("take", "indices", queue, indices);
  check_indices("take", "indices", indices);
  const std::size_t first = axis ? normalized_axis("take", *axis, a.ndim()) : 0;
  const Array source = contiguous_array(queue, a);
  const IndexedArray x{.array = axis ? source : flat_view(source),
                       .first = first,
                       .indices = {contiguous_array(queue, indices)},
                       .broadcast = indices.shape(),
                       .axes = {first}};
  auto out = Array::empty(queue, detail::result_shape(x), a.dtype());
  detail::run_index(queue, "take", x, out, false, mode);
  return out;
}

void put(const Queue& queue, const Array& a, const Array& indices, const Array& values,
         IndexMode mode) {
  check_argument_device("put", "a", queue, a);
  check_argument_device("put", "indices", queue, indices);
  check_argument_device("put", "values", queue, values);
  check_indices("put", "indices", indices);
  check_values("put", a, values);
  if (indices.size() == 0 || values.size() == 0) return;
  const Array dest = contiguous_array(queue, a);
  IndexedArray x{.array = flat_view(dest),
                 .first = 0,
                 .indices = {flat_view(contiguous_array(queue, indices))},
                 .broadcast = {indices.size()},
                 .axes = {0}};
  detail::run_index(queue, "put", x, flat_view(contiguous_array(queue, values)), true, mode);
  if (!detail::is_contiguous_in_place(a)) copy_into(queue, a, dest);
}

namespace {

/// An index of gather or scatter reduced to a view of the array and index arrays.
struct Prepared {
  /// No index arrays: `view` is the result of basic indexing.
  bool basic = false;
  /// The array with the slices applied (keeping their dimensions), the indexed dimensions
  /// moved to the front where they are not adjacent.
  std::optional<Array> view;
  std::size_t first = 0;
  std::vector<Array> indices;  // of any shape that broadcasts to `broadcast`
  std::vector<std::size_t> axes;
};

/// The terms of `index` expanded to one per dimension of `a` (masks become their nonzero()
/// arrays, integers 0-d arrays where any term is an array), with the view's terms.
void expand_terms(const Queue& queue, const char* function, const Array& a,
                  std::span<const ArrayIndex> index, Prepared& p, std::vector<Index>& terms) {
  const bool any_array = std::any_of(index.begin(), index.end(),
                                     [](const ArrayIndex& t) { return t.array() != nullptr; });
  p.basic = !any_array;
  std::size_t dim = 0;
  const auto need = [&](std::size_t dims) {
    if (dim + dims > a.ndim()) {
      throw LogicError(
          fmt::format("{}: too many indices for an array of dimension {}", function, a.ndim()));
    }
  };
  for (const auto& term : index) {
    if (const Index* basic = term.basic()) {
      need(1);
      if (basic->is_slice() || !any_array) {
        terms.push_back(*basic);
      } else {
        terms.push_back(Slice::all());
        const std::vector<std::int64_t> position{basic->position()};
        p.indices.push_back(Array::from_host(queue, HostArray::from_values(position, {})));
        p.axes.push_back(dim);
      }
      ++dim;
      continue;
    }
    const Array& array = *term.array();
    check_argument_device(function, "index", queue, array);
    check_indices(function, "index", array);
    if (array.dtype() != DType::boolean()) {
      need(1);
      terms.push_back(Slice::all());
      p.indices.push_back(array);
      p.axes.push_back(dim++);
      continue;
    }
    if (array.ndim() == 0) {
      throw LogicError(fmt::format("{}: a 0-d bool index is not supported", function));
    }
    need(array.ndim());
    for (std::size_t k = 0; k < array.ndim(); ++k) {
      if (array.shape()[k] != a.shape()[dim + k]) {
        throw LogicError(fmt::format(
            "{}: boolean index did not match indexed array along axis {}; size of axis is {} "
            "but size of corresponding boolean axis is {}",
            function, dim + k, a.shape()[dim + k], array.shape()[k]));
      }
    }
    for (auto& nz : nonzero(queue, array)) {
      terms.push_back(Slice::all());
      p.indices.push_back(std::move(nz));
      p.axes.push_back(dim++);
    }
  }
}

Prepared prepare(const Queue& queue, const char* function, const Array& a,
                 std::span<const ArrayIndex> index) {
  check_argument_device(function, "a", queue, a);
  Prepared p;
  std::vector<Index> terms;
  expand_terms(queue, function, a, index, p, terms);
  p.view = a.view(terms);
  if (p.basic) return p;
  const auto& d = p.axes;
  const bool adjacent = d.back() - d.front() + 1 == d.size();
  if (adjacent) {
    p.first = d.front();
    return p;
  }
  std::vector<std::ptrdiff_t> order(d.begin(), d.end());
  for (std::size_t k = 0; k < a.ndim(); ++k) {
    if (std::find(d.begin(), d.end(), k) == d.end())
      order.push_back(static_cast<std::ptrdiff_t>(k));
  }
  p.view = transposed_view(*p.view, order);
  p.first = 0;
  return p;
}

/// The IndexedArray of a prepared index over `array` (the view, or a contiguous copy).
IndexedArray indexed(const Queue& queue, const char* function, const Prepared& p,
                     const Array& array) {
  std::vector<std::vector<std::size_t>> shapes;
  for (const auto& idx : p.indices) shapes.push_back(idx.shape());
  IndexedArray x{.array = array,
                 .first = p.first,
                 .indices = {},
                 .broadcast = broadcast_shapes(function, shapes),
                 .axes = p.axes};
  for (const auto& idx : p.indices) {
    x.indices.push_back(broadcast_contiguous(queue, idx, x.broadcast));
  }
  return x;
}

}  // namespace

Array gather(const Queue& queue, const Array& a, std::span<const ArrayIndex> index,
             IndexMode mode) {
  const Prepared p = prepare(queue, "gather", a, index);
  if (p.basic) return copy(queue, *p.view);
  const IndexedArray x = indexed(queue, "gather", p, contiguous_array(queue, *p.view));
  auto out = Array::empty(queue, detail::result_shape(x), a.dtype());
  detail::run_index(queue, "gather", x, out, false, mode);
  return out;
}

Array gather(const Queue& queue, const Array& a, std::initializer_list<ArrayIndex> index,
             IndexMode mode) {
  return gather(queue, a, std::span<const ArrayIndex>(index.begin(), index.size()), mode);
}

void scatter(const Queue& queue, const Array& a, std::span<const ArrayIndex> index,
             const Array& values, IndexMode mode) {
  check_argument_device("scatter", "values", queue, values);
  check_values("scatter", a, values);
  const Prepared p = prepare(queue, "scatter", a, index);
  if (p.basic) {
    broadcast_shapes("scatter", {values.shape(), p.view->shape()});
    copy_into(queue, *p.view, broadcast_contiguous(queue, values, p.view->shape()));
    return;
  }
  const Array dest = contiguous_array(queue, *p.view);
  const IndexedArray x = indexed(queue, "scatter", p, dest);
  const auto shape = detail::result_shape(x);
  const auto result = broadcast_shapes("scatter", {values.shape(), shape});
  if (result != shape) {
    throw LogicError(
        fmt::format("scatter: values of shape ({}) cannot be broadcast to the "
                    "indexing result of shape ({})",
                    fmt::join(values.shape(), ","), fmt::join(shape, ",")));
  }
  detail::run_index(queue, "scatter", x, broadcast_contiguous(queue, values, shape), true, mode);
  if (!detail::is_contiguous_in_place(*p.view)) copy_into(queue, *p.view, dest);
}

void scatter(const Queue& queue, const Array& a, std::initializer_list<ArrayIndex> index,
             const Array& values, IndexMode mode) {
  scatter(queue, a, std::span<const ArrayIndex>(index.begin(), index.size()), values, mode);
}

}  // namespace plinth
