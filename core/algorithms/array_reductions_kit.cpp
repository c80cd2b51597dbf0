#include "algorithms/array_reductions_kit.hpp"

#include <plinth/dtype_c.hpp>
#include <plinth/errors.hpp>
#include <plinth/functions.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>

namespace plinth::detail {

namespace {

/// Fills the result shapes and count of `resolved` from its `reduced` flags.
void fill_shapes(const std::vector<std::size_t>& shape, ResolvedAxes& resolved) {
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (resolved.reduced[d]) {
      resolved.count *= shape[d];
      resolved.kept_shape.push_back(1);
    } else {
      resolved.shape.push_back(shape[d]);
      resolved.kept_shape.push_back(shape[d]);
    }
  }
}

}  // namespace

ResolvedAxes resolve_axes(const char* function, const std::vector<std::size_t>& shape,
                          const std::optional<std::vector<std::ptrdiff_t>>& axis) {
  ResolvedAxes resolved;
  const auto ndim = static_cast<std::ptrdiff_t>(shape.size());
  resolved.reduced.assign(shape.size(), !axis.has_value());
  if (axis) {
    std::vector<std::size_t> axes;
    for (const auto a : *axis) {
      if (a < -ndim || a >= ndim) {
        throw LogicError(fmt::format("{}: axis {} is out of bounds for array of dimension {}",
                                     function, a, ndim));
      }
      const auto d = static_cast<std::size_t>(a < 0 ? a + ndim : a);
      if (resolved.reduced[d]) {
        throw LogicError(
            fmt::format("{}: duplicate value in 'axis' (axis {} given twice)", function, d));
      }
      resolved.reduced[d] = true;
      axes.push_back(d);
    }
    std::sort(axes.begin(), axes.end());  // the order does not matter: one kernel layout
    resolved.axes = std::move(axes);
  }
  fill_shapes(shape, resolved);
  return resolved;
}

ResolvedAxes resolve_target(const std::vector<std::size_t>& shape, const ReductionTarget& target) {
  ResolvedAxes resolved;
  resolved.axes = target.axes;
  resolved.reduced.assign(shape.size(), !target.axes.has_value());
  if (target.axes) {
    for (const auto d : *target.axes) {
      if (d < shape.size()) resolved.reduced[d] = true;
    }
  }
  fill_shapes(shape, resolved);
  return resolved;
}

Array retyped(const Array& array, const DType& dtype) {
  if (array.dtype() == dtype) return array;
  const auto& m = array.metadata();
  return Array::from_buffer(
      array.base_buffer(),
      ArrayMetadata(m.shape(), dtype, m.strides(), m.first_element_offset(), m.buffer_size()));
}

Array reshaped(const Array& array, const DType& dtype, const std::vector<std::size_t>& shape) {
  if (array.shape() == shape && array.dtype() == dtype) return array;
  const auto& m = array.metadata();
  return Array::from_buffer(
      array.base_buffer(),
      ArrayMetadata(shape, dtype, std::nullopt, m.first_element_offset(), m.buffer_size()));
}

Array checked_out(const char* function, const Array& out, const DType& result_dtype,
                  const ResolvedAxes& resolved, bool keepdims, const DType& kernel_dtype) {
  const auto& wanted = keepdims ? resolved.kept_shape : resolved.shape;
  if (out.dtype() != result_dtype) {
    throw LogicError(fmt::format("{}: the output array must be a {} array, got {}", function,
                                 result_dtype.name(), out.dtype().name()));
  }
  if (out.shape() != wanted) {
    throw LogicError(fmt::format("{}: the output array's shape is {}, the result's {}", function,
                                 shape_text(out.shape()), shape_text(wanted)));
  }
  if (!out.is_contiguous()) {
    throw LogicError(fmt::format("{}: the output array must be contiguous", function));
  }
  return reshaped(out, kernel_dtype, resolved.shape);
}

Array run_reduction(const char* function, const Queue& queue, const ReductionKernel& kernel,
                    std::span<const ElementwiseValue> values, const ResolvedAxes& resolved,
                    const ReductionAxes& axes, const DType& result_dtype) {
  ReductionTarget target{.axes = resolved.axes, .out = std::nullopt};
  if (axes.out) {
    target.out = checked_out(function, *axes.out, result_dtype, resolved, axes.keepdims,
                             kernel.output_dtype());
  }
  const auto result = kernel.launch(queue, values, target);
  if (axes.out) return *axes.out;
  return reshaped(result, result_dtype, axes.keepdims ? resolved.kept_shape : resolved.shape);
}

Array run_target(const Queue& queue, const ReductionKernel& kernel,
                 std::span<const ElementwiseValue> values, const ReductionTarget& target,
                 const DType& result_dtype) {
  auto kernel_target = target;
  if (target.out && target.out->dtype() == result_dtype) {
    kernel_target.out = retyped(*target.out, kernel.output_dtype());
  }
  const auto result = kernel.launch(queue, values, kernel_target);
  return target.out ? *target.out : retyped(result, result_dtype);
}

void check_plain(const char* function, const DType& dtype) {
  if (dtype.is_struct()) {
    throw LogicError(fmt::format("{}: the array is of the struct dtype {} (use a ReductionKernel)",
                                 function, dtype.name()));
  }
}

void check_reducible(const char* function, const DType& dtype) {
  check_plain(function, dtype);
  if (dtype == DType::float16()) {
    throw LogicError(
        fmt::format("{}: float16 arrays are not reduced (no float16 arithmetic "
                    "on every device)",
                    function));
  }
}

void check_ordered(const char* function, const DType& dtype, const std::vector<std::size_t>& shape,
                   const ResolvedAxes& resolved) {
  check_reducible(function, dtype);
  if (is_complex(dtype)) {
    throw LogicError(
        fmt::format("{}: complex numbers ({}) are not ordered", function, dtype.name()));
  }
  std::size_t outputs = 1;
  for (const auto size : resolved.shape) outputs *= size;
  if (resolved.count == 0 && outputs > 0) {
    throw LogicError(
        fmt::format("{}: the array of shape ({}) has no elements to reduce along "
                    "the axes (there is no identity)",
                    function, fmt::join(shape, ", ")));
  }
}

std::string constant_of(const DType& dtype, bool one) {
  if (is_complex(dtype) || is_real(dtype)) return c_constant_of(one ? 1.0 : 0.0, dtype);
  if (dtype.kind() == DTypeKind::unsigned_integer) {
    return c_constant_of(std::uint64_t{one ? 1u : 0u}, dtype);
  }
  return c_constant_of(std::int64_t{one ? 1 : 0}, dtype);
}

std::pair<std::string, RenderGlobals> addition(const DType& dtype) {
  if (is_complex(dtype)) return {"${add}(a, b)", {{"add", functions::add({dtype, dtype}, dtype)}}};
  return {"a + b", {}};
}

std::string converting_map(const char* function, const DType& in, const DType& out,
                           RenderGlobals& globals) {
  if (in == out) return "x[i]";
  try {
    globals["cast"] = functions::cast(in, out);
  } catch (const LogicError& error) {
    throw LogicError(fmt::format("{}: a {} array cannot be reduced as {}: {}", function, in.name(),
                                 out.name(), error.what()));
  }
  return "${cast}(x[i])";
}

}  // namespace plinth::detail
