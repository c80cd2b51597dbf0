// any and all (array_reductions.hpp): bool reductions of any dtype, carried as uint8.

#include <plinth/array_reductions.hpp>

#include "algorithms/array_reductions_kit.hpp"

#include <fmt/format.h>

#include <array>
#include <string>

namespace plinth {

namespace {

/// The kernel of any (`is_any`) or all over `dtype` (as kernel_dtype): each element's truth
/// (non-zero; NaN is true, -0.0 false, a complex either part) as a uint8, or-ed or and-ed.
ReductionKernel truth_kernel(const DType& dtype, bool is_any) {
  const char* name = is_any ? "any" : "all";
  return detail::cached_reduction(fmt::format("{}:{}", name, dtype.name()), [&] {
    const auto zero = is_complex(dtype) ? std::string("0") : detail::constant_of(dtype, false);
    const std::string map = is_complex(dtype) ? "(unsigned char)(x[i].x != 0 || x[i].y != 0)"
                                              : fmt::format("(unsigned char)(x[i] != {})", zero);
    return ReductionKernel({ElementwiseArg::input("x", dtype)}, DType::uint8(),
                           is_any ? "(unsigned char)0" : "(unsigned char)1",
                           is_any ? "a | b" : "a & b", map,
                           {.name = fmt::format("plinth_{}", name)});
  });
}

Array truth(bool is_any, const Queue& queue, const Array& x, const ReductionAxes& axes) {
  const char* name = is_any ? "any" : "all";
  detail::check_reducible(name, x.dtype());
  const auto resolved = detail::resolve_axes(name, x.shape(), axes.axis);
  const auto read = detail::kernel_dtype(x.dtype());
  const std::array<ElementwiseValue, 1> values{ElementwiseValue(detail::retyped(x, read))};
  return detail::run_reduction(name, queue, truth_kernel(read, is_any), values, resolved, axes,
                               DType::boolean());
}

}  // namespace

Array any(const Queue& queue, const Array& x, const ReductionAxes& axes) {
  return truth(true, queue, x, axes);
}

Array all(const Queue& queue, const Array& x, const ReductionAxes& axes) {
  return truth(false, queue, x, axes);
}

}  // namespace plinth
