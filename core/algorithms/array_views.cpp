// New shapes of an array's elements (reshape, ravel, flatten, squeeze, expand_dims, swapaxes,
// moveaxis, broadcast_to), memory orders (asfortranarray, ascontiguousarray), the named splits
// and dstack, and may_share_memory: views of the same memory where numpy's rules allow one,
// copies (copy_into, which tiles where the fastest dimensions differ) otherwise.

#include "algorithms/array_expression_rules.hpp"
#include "algorithms/shape_kit.hpp"
#include "arrays/reshape_rules.hpp"

#include <plinth/array_expression.hpp>
#include <plinth/array_shape.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <numeric>

namespace plinth {

namespace {

using detail::shape_text;

/// `array`'s memory seen with another shape and strides (same first element).
Array with_layout(const Array& array, std::vector<std::size_t> shape,
                  std::vector<std::ptrdiff_t> strides) {
  const auto& m = array.metadata();
  return Array::from_buffer(array.base_buffer(),
                            ArrayMetadata(std::move(shape), m.dtype(), std::move(strides),
                                          m.first_element_offset(), m.buffer_size()));
}

/// A new array of `shape` laid out in `order` holding `array`'s elements read in `order`.
Array reshaped_copy(const Queue& queue, const Array& array, const std::vector<std::size_t>& shape,
                    Order order) {
  const auto result = Array::empty(queue, shape, array.dtype(), order);
  // The new array is contiguous in `order`, so it reshapes to `array`'s shape without a copy.
  const auto strides = detail::reshape_strides(result.metadata(), array.shape(), order);
  copy_into(queue, with_layout(result, array.shape(), *strides), array);
  return result;
}

std::vector<std::ptrdiff_t> flat_shape() { return {-1}; }

}  // namespace

Array reshape_view(const Array& array, const std::vector<std::ptrdiff_t>& shape, Order order) {
  auto resolved = detail::resolve_reshape(array.shape(), shape);
  auto strides = detail::reshape_strides(array.metadata(), resolved, order);
  if (!strides) {
    throw LogicError(fmt::format(
        "reshape_view: an array of shape {} and strides ({}) cannot take the shape {} in {} order "
        "without a copy (reshape() copies)",
        shape_text(array.shape()), fmt::join(array.strides(), ", "), shape_text(resolved),
        order == Order::C ? "C" : "Fortran"));
  }
  return with_layout(array, std::move(resolved), std::move(*strides));
}

Array reshape(const Queue& queue, const Array& array, const std::vector<std::ptrdiff_t>& shape,
              Order order) {
  detail::check_device(queue, array, "reshape");
  auto resolved = detail::resolve_reshape(array.shape(), shape);
  auto strides = detail::reshape_strides(array.metadata(), resolved, order);
  if (strides) return with_layout(array, std::move(resolved), std::move(*strides));
  return reshaped_copy(queue, array, resolved, order);
}

Array ravel(const Queue& queue, const Array& array, Order order) {
  detail::check_device(queue, array, "ravel");
  const auto& m = array.metadata();
  if (order == Order::C ? m.is_c_contiguous() : m.is_f_contiguous()) {
    return reshape_view(array, flat_shape(), order);
  }
  return reshaped_copy(queue, array, {array.size()}, order);
}

Array flatten(const Queue& queue, const Array& array, Order order) {
  detail::check_device(queue, array, "flatten");
  return reshaped_copy(queue, array, {array.size()}, order);
}

Array squeeze(const Array& array, const std::optional<std::vector<std::ptrdiff_t>>& axes) {
  std::vector<bool> drop(array.ndim(), false);
  if (axes) {
    for (const auto a : detail::normalize_axes(*axes, array.ndim(), "squeeze")) {
      if (array.shape()[a] != 1) {
        throw LogicError(
            fmt::format("squeeze: cannot select axis {} of an array of shape {} to squeeze out: "
                        "its extent is {}, not 1",
                        a, shape_text(array.shape()), array.shape()[a]));
      }
      drop[a] = true;
    }
  } else {
    for (std::size_t d = 0; d < array.ndim(); ++d) drop[d] = array.shape()[d] == 1;
  }
  std::vector<std::size_t> shape;
  std::vector<std::ptrdiff_t> strides;
  for (std::size_t d = 0; d < array.ndim(); ++d) {
    if (drop[d]) continue;
    shape.push_back(array.shape()[d]);
    strides.push_back(array.strides()[d]);
  }
  return with_layout(array, std::move(shape), std::move(strides));
}

Array expand_dims(const Array& array, const std::vector<std::ptrdiff_t>& axes) {
  const auto ndim = array.ndim() + axes.size();
  std::vector<bool> added(ndim, false);
  for (const auto a : detail::normalize_axes(axes, ndim, "expand_dims")) added[a] = true;
  std::vector<std::size_t> shape(ndim);
  std::vector<std::ptrdiff_t> strides(ndim);
  // A new dimension's stride is that of the dimension after it times its extent (the
  // itemsize at the end), which keeps C-contiguous arrays C-contiguous by stride too.
  auto next = static_cast<std::ptrdiff_t>(array.dtype().itemsize());
  std::size_t old = array.ndim();
  for (std::size_t d = ndim; d-- > 0;) {
    if (added[d]) {
      shape[d] = 1;
      strides[d] = next;
      continue;
    }
    --old;
    shape[d] = array.shape()[old];
    strides[d] = array.strides()[old];
    next = strides[d] * static_cast<std::ptrdiff_t>(std::max<std::size_t>(shape[d], 1));
  }
  return with_layout(array, std::move(shape), std::move(strides));
}

Array expand_dims(const Array& array, std::ptrdiff_t axis) {
  return expand_dims(array, std::vector<std::ptrdiff_t>{axis});
}

Array swapaxes(const Array& array, std::ptrdiff_t axis1, std::ptrdiff_t axis2) {
  const auto a = detail::normalize_axis(axis1, array.ndim(), "swapaxes");
  const auto b = detail::normalize_axis(axis2, array.ndim(), "swapaxes");
  auto shape = array.shape();
  auto strides = array.strides();
  std::swap(shape[a], shape[b]);
  std::swap(strides[a], strides[b]);
  return with_layout(array, std::move(shape), std::move(strides));
}

Array moveaxis(const Array& array, const std::vector<std::ptrdiff_t>& source,
               const std::vector<std::ptrdiff_t>& destination) {
  if (source.size() != destination.size()) {
    throw LogicError(fmt::format(
        "moveaxis: the source ({}) and destination ({}) must have the same number of axes",
        fmt::join(source, ", "), fmt::join(destination, ", ")));
  }
  const auto ndim = array.ndim();
  const auto from = detail::normalize_axes(source, ndim, "moveaxis (source)");
  const auto to = detail::normalize_axes(destination, ndim, "moveaxis (destination)");
  // numpy: the other axes in order, then each source inserted at its destination, in
  // increasing order of destination.
  std::vector<std::size_t> order;
  for (std::size_t d = 0; d < ndim; ++d) {
    if (std::find(from.begin(), from.end(), d) == from.end()) order.push_back(d);
  }
  std::vector<std::pair<std::size_t, std::size_t>> moves;
  for (std::size_t k = 0; k < from.size(); ++k) moves.emplace_back(to[k], from[k]);
  std::sort(moves.begin(), moves.end());
  for (const auto& [dest, src] : moves) {
    order.insert(order.begin() + static_cast<std::ptrdiff_t>(dest), src);
  }
  std::vector<std::size_t> shape(ndim);
  std::vector<std::ptrdiff_t> strides(ndim);
  for (std::size_t d = 0; d < ndim; ++d) {
    shape[d] = array.shape()[order[d]];
    strides[d] = array.strides()[order[d]];
  }
  return with_layout(array, std::move(shape), std::move(strides));
}

Array moveaxis(const Array& array, std::ptrdiff_t source, std::ptrdiff_t destination) {
  return moveaxis(array, std::vector<std::ptrdiff_t>{source},
                  std::vector<std::ptrdiff_t>{destination});
}

Array broadcast_to(const Array& array, const std::vector<std::size_t>& shape) {
  const auto refuse = [&] {
    return LogicError(fmt::format("broadcast_to: an array of shape {} does not broadcast to {}",
                                  shape_text(array.shape()), shape_text(shape)));
  };
  if (shape.size() < array.ndim()) throw refuse();
  const auto lead = shape.size() - array.ndim();
  std::vector<std::ptrdiff_t> strides(shape.size(), 0);
  for (std::size_t d = 0; d < array.ndim(); ++d) {
    const auto extent = array.shape()[d];
    if (extent == shape[lead + d]) {
      strides[lead + d] = array.strides()[d];
    } else if (extent != 1) {
      throw refuse();
    }
  }
  return with_layout(array, shape, std::move(strides));
}

namespace {

Array as_order(const Queue& queue, const Array& array, Order order, const char* what) {
  detail::check_device(queue, array, what);
  if (array.ndim() == 0) return reshape_view(array, flat_shape(), order);
  const auto& m = array.metadata();
  if (order == Order::C ? m.is_c_contiguous() : m.is_f_contiguous()) return array;
  const auto result = Array::empty(queue, array.shape(), array.dtype(), order);
  copy_into(queue, result, array);
  return result;
}

/// numpy's atleast_3d as a view.
Array at_least_3d(const Array& array) {
  switch (array.ndim()) {
    case 0: return expand_dims(array, std::vector<std::ptrdiff_t>{0, 1, 2});
    case 1: return expand_dims(array, std::vector<std::ptrdiff_t>{0, 2});
    case 2: return expand_dims(array, 2);
    default: return array;
  }
}

/// The axis numpy's hsplit/vsplit/dsplit (`what`) split `array` along, after checking that it
/// has the dimensions they need.
std::ptrdiff_t split_axis(const Array& array, const char* what) {
  const std::string_view name(what);
  const std::size_t ndim = name == "hsplit" ? 1 : name == "vsplit" ? 2 : 3;
  if (array.ndim() < ndim) {
    throw LogicError(fmt::format("{}: needs an array of at least {} dimensions, not shape {}", what,
                                 ndim, shape_text(array.shape())));
  }
  if (name == "hsplit") return array.ndim() > 1 ? 1 : 0;
  return name == "vsplit" ? 0 : 2;
}

}  // namespace

Array asfortranarray(const Queue& queue, const Array& array) {
  return as_order(queue, array, Order::F, "asfortranarray");
}

Array ascontiguousarray(const Queue& queue, const Array& array) {
  return as_order(queue, array, Order::C, "ascontiguousarray");
}

std::vector<Array> hsplit(const Array& array, std::size_t sections) {
  return split(array, sections, split_axis(array, "hsplit"));
}
std::vector<Array> hsplit(const Array& array, std::span<const std::ptrdiff_t> indices) {
  return split(array, indices, split_axis(array, "hsplit"));
}
std::vector<Array> vsplit(const Array& array, std::size_t sections) {
  return split(array, sections, split_axis(array, "vsplit"));
}
std::vector<Array> vsplit(const Array& array, std::span<const std::ptrdiff_t> indices) {
  return split(array, indices, split_axis(array, "vsplit"));
}
std::vector<Array> dsplit(const Array& array, std::size_t sections) {
  return split(array, sections, split_axis(array, "dsplit"));
}
std::vector<Array> dsplit(const Array& array, std::span<const std::ptrdiff_t> indices) {
  return split(array, indices, split_axis(array, "dsplit"));
}

Array dstack(const Queue& queue, std::span<const Array> arrays) {
  std::vector<Array> expanded;
  for (const auto& array : arrays) expanded.push_back(at_least_3d(array));
  if (expanded.empty()) throw LogicError("dstack: needs at least one array");
  return concatenate(queue, expanded, 2);
}

bool may_share_memory(const Array& a, const Array& b) noexcept {
  if (a.size() == 0 || b.size() == 0) return false;
  if (!a.base_buffer().overlaps(b.base_buffer())) return false;
  // One allocation: compare the elements' byte ranges from its start.
  const auto& ma = a.metadata();
  const auto& mb = b.metadata();
  const auto a_begin = a.base_buffer().offset() + ma.min_offset();
  const auto b_begin = b.base_buffer().offset() + mb.min_offset();
  return a_begin < b_begin + mb.span() && b_begin < a_begin + ma.span();
}

}  // namespace plinth
