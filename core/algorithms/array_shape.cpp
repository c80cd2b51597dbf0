// Copies of any view (copy, copy_into: tiled where the fastest dimensions differ) and the shape
// operations over them (concatenate, stack, split, transpose): joins copy each input into a view of
// the result with one generated kernel per dtype; splits and transposed views only make views.

#include <plinth/array_shape.hpp>

#include "algorithms/array_expression_rules.hpp"
#include "algorithms/kit/recipe_cache.hpp"
#include "algorithms/shape_kit.hpp"
#include "algorithms/tiled_copy.hpp"

#include <plinth/array_expression.hpp>
#include <plinth/elementwise.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace plinth {

namespace {

using detail::as_storage;
using detail::storage_dtype;

/// The copy kernel of a storage dtype, from the recipe cache.
ElementwiseKernel copy_kernel(const DType& dtype) {
  return detail::recipe_cache().get<ElementwiseKernel>("copy", dtype.name(), [&] {
    return ElementwiseKernel(
        {ElementwiseArg::output("dest", dtype), ElementwiseArg::input("src", dtype)},
        "dest[i] = src[i];", {.name = "array_copy", .writes_every_element = true});
  });
}

/// Copies `src` into `dest` (same shape and dtype, no shared memory): through a local-memory
/// tile where their fastest dimensions differ (tiled_copy.hpp), elementwise otherwise.
void copy_disjoint(const Queue& queue, const Array& dest, const Array& src) {
  if (detail::tiled_copy(queue, dest, src)) return;
  copy_kernel(storage_dtype(dest.dtype()))(queue, as_storage(dest), as_storage(src));
}

using detail::check_device;
using detail::normalize_axis;

bool shares_memory(const Array& a, const Array& b) {
  return a.base_buffer().overlaps(b.base_buffer());
}

/// The view of `array` that takes [begin, end) of `axis` (and every other index).
Array axis_slice(const Array& array, std::size_t axis, std::size_t begin, std::size_t end) {
  std::vector<Index> indices(axis, Slice::all());
  indices.emplace_back(Slice(static_cast<std::ptrdiff_t>(begin), static_cast<std::ptrdiff_t>(end)));
  return array.view(indices);
}

/// Copies `src` into `dest` (same shape), converting the dtype as astype() does.
void convert_into(const Queue& queue, const Array& dest, const Array& src) {
  if (dest.dtype() == src.dtype()) {
    copy_into(queue, dest, src);
  } else {
    const auto converted = astype(ArrayExpression(src), dest.dtype());  // checks the cast
    // dest is a part of a new array, so the two share no memory.
    if (!detail::tiled_copy(queue, dest, src)) assign(queue, dest, converted);
  }
}

/// The dtype a join of `arrays` gives.
DType joined_dtype(std::span<const Array> arrays, const char* what) {
  std::vector<DType> dtypes;
  bool special = false;
  for (const auto& array : arrays) {
    dtypes.push_back(array.dtype());
    special = special || array.dtype().is_struct() || array.dtype() == DType::float16();
  }
  if (special) {
    for (const auto& dtype : dtypes) {
      if (dtype != dtypes.front()) {
        throw LogicError(
            fmt::format("{}: dtypes {} and {} do not join (struct and float16 "
                        "arrays join only with arrays of their own dtype)",
                        what, dtypes.front().name(), dtype.name()));
      }
    }
    return dtypes.front();
  }
  return result_type(dtypes);
}

}  // namespace

void copy_into(const Queue& queue, const Array& dest, const Array& src) {
  check_device(queue, dest, "copy_into (destination)");
  check_device(queue, src, "copy_into (source)");
  if (dest.shape() != src.shape() || dest.dtype() != src.dtype()) {
    throw LogicError(
        fmt::format("copy_into: the destination is {} of shape {}, the source {} "
                    "of shape {}",
                    dest.dtype().name(), detail::shape_text(dest.shape()), src.dtype().name(),
                    detail::shape_text(src.shape())));
  }
  if (dest.size() == 0) return;
  if (shares_memory(dest, src)) {
    // Offsets from the allocation's start: the arrays' base buffers may be different
    // sub-regions of it.
    if (dest.base_buffer().offset() + dest.first_element_offset() ==
            src.base_buffer().offset() + src.first_element_offset() &&
        dest.strides() == src.strides()) {
      return;  // the same elements
    }
    // Through a copy of the source, so every element is read before any is written.
    const auto temporary = copy(queue, src);
    copy_disjoint(queue, dest, temporary);
    return;
  }
  copy_disjoint(queue, dest, src);
}

Array copy(const Queue& queue, const Array& array) {
  check_device(queue, array, "copy");
  const auto result = Array::empty(queue, array.shape(), array.dtype());
  if (array.size() != 0) copy_disjoint(queue, result, array);
  return result;
}

Array concatenate(const Queue& queue, std::span<const Array> arrays, std::ptrdiff_t axis) {
  if (arrays.empty()) throw LogicError("concatenate: needs at least one array");
  const auto& first = arrays.front();
  if (first.ndim() == 0) {
    throw LogicError("concatenate: zero-dimensional arrays cannot be concatenated");
  }
  const auto a = normalize_axis(axis, first.ndim(), "concatenate");
  auto shape = first.shape();
  shape[a] = 0;
  for (std::size_t k = 0; k < arrays.size(); ++k) {
    const auto& array = arrays[k];
    check_device(queue, array, "concatenate");
    bool match = array.ndim() == first.ndim();
    for (std::size_t d = 0; match && d < first.ndim(); ++d) {
      match = d == a || array.shape()[d] == first.shape()[d];
    }
    if (!match) {
      throw LogicError(fmt::format(
          "concatenate: array {} has shape {}, array 0 {}: they must match except in axis {}", k,
          detail::shape_text(array.shape()), detail::shape_text(first.shape()), a));
    }
    shape[a] += array.shape()[a];
  }
  const auto dtype = joined_dtype(arrays, "concatenate");
  const auto result = Array::empty(queue, shape, dtype);
  std::size_t begin = 0;
  for (const auto& array : arrays) {
    const auto end = begin + array.shape()[a];
    if (end > begin) convert_into(queue, axis_slice(result, a, begin, end), array);
    begin = end;
  }
  return result;
}

Array concatenate(const Queue& queue, std::initializer_list<Array> arrays, std::ptrdiff_t axis) {
  return concatenate(queue, std::span<const Array>(arrays.begin(), arrays.size()), axis);
}

Array stack(const Queue& queue, std::span<const Array> arrays, std::ptrdiff_t axis) {
  if (arrays.empty()) throw LogicError("stack: needs at least one array");
  const auto& first = arrays.front();
  const auto a = normalize_axis(axis, first.ndim() + 1, "stack");
  for (std::size_t k = 0; k < arrays.size(); ++k) {
    check_device(queue, arrays[k], "stack");
    if (arrays[k].shape() != first.shape()) {
      throw LogicError(fmt::format("stack: array {} has shape {}, array 0 {}: all must be equal", k,
                                   detail::shape_text(arrays[k].shape()),
                                   detail::shape_text(first.shape())));
    }
  }
  auto shape = first.shape();
  shape.insert(shape.begin() + static_cast<std::ptrdiff_t>(a), arrays.size());
  const auto result = Array::empty(queue, shape, joined_dtype(arrays, "stack"));
  for (std::size_t k = 0; k < arrays.size(); ++k) {
    std::vector<Index> indices(a, Slice::all());
    indices.emplace_back(static_cast<std::ptrdiff_t>(k));
    convert_into(queue, result.view(indices), arrays[k]);
  }
  return result;
}

Array stack(const Queue& queue, std::initializer_list<Array> arrays, std::ptrdiff_t axis) {
  return stack(queue, std::span<const Array>(arrays.begin(), arrays.size()), axis);
}

Array hstack(const Queue& queue, std::span<const Array> arrays) {
  if (arrays.empty()) throw LogicError("hstack: needs at least one array");
  return concatenate(queue, arrays, arrays.front().ndim() == 1 ? 0 : 1);
}

Array vstack(const Queue& queue, std::span<const Array> arrays) {
  std::vector<Array> rows;
  for (const auto& array : arrays) {
    if (array.ndim() != 1) {
      rows.push_back(array);
      continue;
    }
    const auto& m = array.metadata();
    rows.push_back(Array::from_buffer(
        array.base_buffer(),
        ArrayMetadata(
            {1, m.shape()[0]}, m.dtype(),
            std::vector<std::ptrdiff_t>{static_cast<std::ptrdiff_t>(m.nbytes()), m.strides()[0]},
            m.first_element_offset(), m.buffer_size())));
  }
  if (rows.empty()) throw LogicError("vstack: needs at least one array");
  return concatenate(queue, rows, 0);
}

std::vector<Array> split(const Array& array, std::span<const std::ptrdiff_t> indices,
                         std::ptrdiff_t axis) {
  if (array.ndim() == 0) throw LogicError("split: a zero-dimensional array cannot be split");
  const auto a = normalize_axis(axis, array.ndim(), "split");
  const auto extent = static_cast<std::ptrdiff_t>(array.shape()[a]);
  const auto clamp = [&](std::ptrdiff_t index) {
    if (index < 0) index += extent;
    return static_cast<std::size_t>(std::clamp<std::ptrdiff_t>(index, 0, extent));
  };
  // Part k is the Python slice [d_k:d_k+1] of d = [0, indices..., extent], as in numpy: each
  // bound clamped on its own, so a part after a decreasing index starts at that index again
  // (numpy splits 7 elements at [5, 2] into [0:5], [5:2] (empty) and [2:7]).
  std::vector<Array> parts;
  std::size_t begin = 0;
  for (std::size_t k = 0; k <= indices.size(); ++k) {
    const std::size_t end =
        k < indices.size() ? clamp(indices[k]) : static_cast<std::size_t>(extent);
    parts.push_back(axis_slice(array, a, begin, std::max(begin, end)));
    begin = end;
  }
  return parts;
}

std::vector<Array> split(const Array& array, std::size_t sections, std::ptrdiff_t axis) {
  if (sections == 0) throw LogicError("split: the number of sections must be at least 1");
  if (array.ndim() == 0) throw LogicError("split: a zero-dimensional array cannot be split");
  const auto a = normalize_axis(axis, array.ndim(), "split");
  if (array.shape()[a] % sections != 0) {
    throw LogicError(fmt::format(
        "split: {} sections do not divide axis {} of extent {} equally (array_split allows it)",
        sections, a, array.shape()[a]));
  }
  return array_split(array, sections, axis);
}

std::vector<Array> array_split(const Array& array, std::size_t sections, std::ptrdiff_t axis) {
  if (sections == 0) throw LogicError("array_split: the number of sections must be at least 1");
  if (array.ndim() == 0) {
    throw LogicError("array_split: a zero-dimensional array cannot be split");
  }
  const auto a = normalize_axis(axis, array.ndim(), "array_split");
  const auto extent = array.shape()[a];
  std::vector<Array> parts;
  std::size_t begin = 0;
  for (std::size_t k = 0; k < sections; ++k) {
    const auto length = extent / sections + (k < extent % sections ? 1 : 0);
    parts.push_back(axis_slice(array, a, begin, begin + length));
    begin += length;
  }
  return parts;
}

Array transposed_view(const Array& array, std::optional<std::vector<std::ptrdiff_t>> axes) {
  const auto ndim = array.ndim();
  std::vector<std::size_t> order(ndim);
  if (!axes) {
    for (std::size_t d = 0; d < ndim; ++d) order[d] = ndim - 1 - d;
  } else {
    if (axes->size() != ndim) {
      throw LogicError(fmt::format("transpose: axes ({}) do not match an array of {} dimensions",
                                   fmt::join(*axes, ", "), ndim));
    }
    order = detail::normalize_axes(*axes, ndim, "transpose");
  }
  const auto& m = array.metadata();
  std::vector<std::size_t> shape(ndim);
  std::vector<std::ptrdiff_t> strides(ndim);
  for (std::size_t d = 0; d < ndim; ++d) {
    shape[d] = m.shape()[order[d]];
    strides[d] = m.strides()[order[d]];
  }
  return Array::from_buffer(
      array.base_buffer(),
      ArrayMetadata(shape, m.dtype(), strides, m.first_element_offset(), m.buffer_size()));
}

Array transpose(const Queue& queue, const Array& array,
                std::optional<std::vector<std::ptrdiff_t>> axes) {
  return copy(queue, transposed_view(array, std::move(axes)));
}

}  // namespace plinth
