#include "algorithms/shape_kit.hpp"

#include "algorithms/array_expression_rules.hpp"

#include <plinth/errors.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace plinth::detail {

std::size_t normalize_axis(std::ptrdiff_t axis, std::size_t ndim, const char* what) {
  const auto n = static_cast<std::ptrdiff_t>(ndim);
  if (axis < -n || axis >= n) {
    throw LogicError(fmt::format("{}: axis {} is out of bounds for an array of {} dimensions", what,
                                 axis, ndim));
  }
  return static_cast<std::size_t>(axis < 0 ? axis + n : axis);
}

std::vector<std::size_t> normalize_axes(std::span<const std::ptrdiff_t> axes, std::size_t ndim,
                                        const char* what) {
  std::vector<std::size_t> result;
  std::vector<bool> seen(ndim, false);
  for (const auto axis : axes) {
    const auto a = normalize_axis(axis, ndim, what);
    if (seen[a]) {
      throw LogicError(fmt::format("{}: axes ({}) repeat axis {}", what, fmt::join(axes, ", "), a));
    }
    seen[a] = true;
    result.push_back(a);
  }
  return result;
}

void check_device(const Queue& queue, const Array& array, const char* what) {
  if (!(array.device() == queue.device())) {
    throw LogicError(
        fmt::format("{}: the array of shape {} is on device {} ('{}'), the queue on "
                    "device {} ('{}')",
                    what, shape_text(array.shape()), array.device().index(), array.device().name(),
                    queue.device().index(), queue.device().name()));
  }
}

DType storage_dtype(const DType& dtype) {
  if (dtype == DType::boolean()) return DType::uint8();
  if (dtype == DType::float16()) return DType::uint16();
  return dtype;
}

Array as_storage(const Array& array) {
  const auto storage = storage_dtype(array.dtype());
  if (storage == array.dtype()) return array;
  const auto& m = array.metadata();
  return Array::from_buffer(
      array.base_buffer(),
      ArrayMetadata(m.shape(), storage, m.strides(), m.first_element_offset(), m.buffer_size()));
}

}  // namespace plinth::detail
