#include "algorithms/kit/array_arguments.hpp"

#include <plinth/array_expression.hpp>
#include <plinth/errors.hpp>

#include <fmt/format.h>

#include <optional>

namespace plinth::detail {

void check_argument_device(const char* function, const char* name, const Queue& queue,
                           const Array& a) {
  if (!(a.device() == queue.device())) {
    throw LogicError(
        fmt::format("{}: argument '{}' is on another device than the queue's", function, name));
  }
}

bool is_contiguous_in_place(const Array& a) {
  return a.is_contiguous() && a.first_element_offset() % a.dtype().itemsize() == 0;
}

Array contiguous_array(const Queue& queue, const Array& a) {
  return is_contiguous_in_place(a) ? a : copy(queue, a);
}

Array flat_view(const Array& a) {
  const auto& m = a.metadata();
  return Array::from_buffer(
      a.base_buffer(), ArrayMetadata({a.size()}, a.dtype(), std::nullopt, m.first_element_offset(),
                                     m.buffer_size()));
}

std::int64_t element_offset(const Array& a) {
  return static_cast<std::int64_t>(a.first_element_offset() / a.dtype().itemsize());
}

std::optional<std::vector<std::int64_t>> strides_in_elements(const Array& a) {
  const auto itemsize = static_cast<std::ptrdiff_t>(a.dtype().itemsize());
  std::vector<std::int64_t> strides;
  strides.reserve(a.ndim());
  for (const auto stride : a.strides()) {
    if (stride % itemsize != 0) return std::nullopt;
    strides.push_back(stride / itemsize);
  }
  return strides;
}

}  // namespace plinth::detail
